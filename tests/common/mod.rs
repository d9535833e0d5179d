//! Helpers shared by the CLI tests: run the binary, find the lavapipe device.
#![allow(dead_code)]

use std::path::{Path, PathBuf};
use std::process::{Command, Output};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::OnceLock;

/// Holds the tests of one file that take it to one at a time: each judges timings on a CPU
/// device, and another's injected slowdowns, run beside it on a 2-core machine, are a real
/// disturbance to it (more than any drift limit: unaffected rows would be re-measured).
pub fn serial() -> std::sync::MutexGuard<'static, ()> {
    static LOCK: std::sync::Mutex<()> = std::sync::Mutex::new(());
    LOCK.lock().unwrap_or_else(|e| e.into_inner())
}

/// The repository root.
pub fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

/// `path` (relative to the repository root) as an absolute path.
pub fn committed(path: &str) -> String {
    root().join(path).display().to_string()
}

/// The built `perftest` binary.
/// perftest, with lavapipe on one thread (unless the caller's environment says otherwise):
/// with two on a two-core CI machine, lavapipe's threads end up on one core for a while after
/// many small dispatches, and a test's baseline doubles (0.43 → 0.87 ms) with nothing else
/// running; two tests at once would run four threads on two cores.
///
/// Mesa's shader cache (lavapipe's compiled kernels) is kept under `target/`
/// ([`shader_cache`]), unless the caller's environment names one: a fresh machine's empty
/// `~/.cache` made every kernel compile again (the four-lane verify run: 33.5 s cold, 5.1 s
/// warm), and a warm `target/` carries it into a fresh clone.
pub fn perftest() -> Command {
    let mut c = Command::new(env!("CARGO_BIN_EXE_perftest"));
    if std::env::var_os("LP_NUM_THREADS").is_none() {
        c.env("LP_NUM_THREADS", "1");
    }
    if std::env::var_os("MESA_SHADER_CACHE_DIR").is_none() {
        c.env("MESA_SHADER_CACHE_DIR", shader_cache(None));
    }
    c
}

/// The folder of Mesa's shader cache for lavapipe runs at SIMD width `width` (bits, as
/// `LP_NATIVE_VECTOR_WIDTH` says; `None` for its default), under cargo's `target/tmp`:
/// lavapipe keys its cache without the width, so a kernel built at 4 lanes would otherwise
/// run in another test at 8.
pub fn shader_cache(width: Option<&str>) -> PathBuf {
    let name = match width {
        Some(w) => format!("mesa-shader-cache-{w}"),
        None => "mesa-shader-cache".to_string(),
    };
    Path::new(env!("CARGO_TARGET_TMPDIR")).join(name)
}

/// Runs perftest with `args` and returns its output.
pub fn run(args: &[&str]) -> Output {
    perftest().args(args).output().expect("perftest runs")
}

/// Runs perftest with the Khronos validation layer forced on through the loader.
pub fn run_validated(args: &[&str]) -> Output {
    perftest()
        .args(args)
        .env("VK_INSTANCE_LAYERS", "VK_LAYER_KHRONOS_validation")
        .output()
        .expect("perftest runs")
}

pub fn stdout(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned()
}

pub fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

/// A `--drift-limit` for timed lavapipe runs whose subject is not the drift check: the checks
/// still run between blocks, as in any run, but lavapipe's own swings stay within it. Its
/// baseline flips between two times 40–93 % apart on a quiet two-core VM (its host threads
/// parking and waking), beyond the automatic limit's 50 % ceiling: at the default limit a run
/// flags most rows and waits for the baseline between blocks: the whole-suite test took
/// 100–160 s, nearly all of it waiting (7 s at this limit), and the analysis test's run 2 s
/// one time and 30 s another, as the flips fell.
pub const LAVAPIPE_DRIFT_LIMIT: &str = "400";

/// The cheapest run: one test, one group, one sample.
pub const ONE_TEST: [&str; 6] = [
    "--filter",
    "cbuffer{float4} load uniform",
    "--groups",
    "1",
    "--samples",
    "1",
];

/// Index of Mesa's lavapipe (the CPU device every test runs on), as a string.
pub fn lavapipe() -> &'static str {
    static INDEX: OnceLock<String> = OnceLock::new();
    INDEX.get_or_init(|| {
        let o = run(&["--list-devices"]);
        let text = stdout(&o);
        assert!(o.status.success(), "--list-devices failed: {}", stderr(&o));
        let mut index = None;
        for line in text.lines() {
            if let Some((i, name)) = line.split_once(": ") {
                if i.chars().all(|c| c.is_ascii_digit()) && name.starts_with("llvmpipe") {
                    index = Some(i.to_string());
                }
            }
        }
        index.unwrap_or_else(|| {
            panic!("no lavapipe (llvmpipe) device: run scripts/setup.sh to install mesa-vulkan-drivers\n{text}")
        })
    })
}

/// Every row of a CSV that perftest wrote, as column name → cell.
pub fn csv_rows(path: &Path) -> Vec<std::collections::HashMap<String, String>> {
    let mut reader = csv::Reader::from_path(path).unwrap();
    let header = reader.headers().unwrap().clone();
    reader
        .records()
        .map(|r| {
            let r = r.unwrap();
            header
                .iter()
                .zip(r.iter())
                .map(|(h, v)| (h.to_string(), v.to_string()))
                .collect()
        })
        .collect()
}

/// The original suite's names, one per line, in run order.
pub fn original_names() -> Vec<String> {
    include_str!("../data/original-tests.txt")
        .lines()
        .map(String::from)
        .collect()
}

/// Asserts that no layer said anything.
pub fn assert_no_validation_messages(o: &Output) {
    let err = stderr(o);
    assert!(
        !err.contains("validation") && !err.contains("VUID"),
        "validation layer reported:\n{err}"
    );
}

/// A fresh directory for one test's files, removed with everything in it when the guard
/// is dropped: at the end of the test, and also when the test fails (a panic unwinds).
pub struct TempDir(PathBuf);

impl TempDir {
    pub fn path(&self) -> &Path {
        &self.0
    }
}

impl std::ops::Deref for TempDir {
    type Target = Path;
    fn deref(&self) -> &Path {
        &self.0
    }
}

impl AsRef<Path> for TempDir {
    fn as_ref(&self) -> &Path {
        &self.0
    }
}

impl Drop for TempDir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

/// A fresh directory for one test's files (unique per process, test tag and call), removed
/// when the returned guard is dropped.
pub fn tempdir(tag: &str) -> TempDir {
    static CALLS: AtomicUsize = AtomicUsize::new(0);
    let n = CALLS.fetch_add(1, Ordering::Relaxed);
    let dir = std::env::temp_dir().join(format!("perftest-{tag}-{}-{n}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    TempDir(dir)
}

/// How many lines of the original format report a time (`NAME: 0.123ms …`), whatever follows
/// it: a ratio, a cut mark (`ms*`) or a DISTURBED flag (a CPU busy with other tests).
pub fn timed_lines(out: &str) -> usize {
    out.lines()
        .filter(|l| {
            // The last ": " (names such as `Control: loop 1D` hold one too).
            l.rsplit_once(": ").is_some_and(|(_, rest)| {
                rest.split_whitespace().next().is_some_and(|ms| {
                    ms.trim_end_matches('*')
                        .strip_suffix("ms")
                        .is_some_and(|n| n.parse::<f64>().is_ok())
                })
            })
        })
        .count()
}

/// Runs perftest on lavapipe with `args` and `--validation`, and asserts that it succeeded
/// with the validation layer silent.
pub fn run_clean(args: &[&str]) -> Output {
    let mut all = vec!["--device", lavapipe(), "--validation"];
    all.extend_from_slice(args);
    let o = run(&all);
    assert!(o.status.success(), "{}\n{}", stdout(&o), stderr(&o));
    assert_no_validation_messages(&o);
    o
}

/// `--verify` of `suite` at 2 groups on lavapipe under the validation layer, the CSV written
/// to `dir/<first suite>.csv` (asserted to succeed with the layer silent, as [`run_clean`]):
/// its output and the CSV's path.
pub fn verify_suite(dir: &Path, suite: &str) -> (Output, PathBuf) {
    let name = suite.split(',').next().unwrap_or("run");
    let csv = dir.join(format!("{name}.csv"));
    let o = run_clean(&[
        "--groups",
        "2",
        "--verify",
        "--suite",
        suite,
        "--csv",
        csv.to_str().unwrap(),
    ]);
    (o, csv)
}

/// The names `--list-tests --suite suite` prints, in run order.
pub fn listed(suite: &str) -> Vec<String> {
    let o = run(&["--list-tests", "--suite", suite]);
    assert!(o.status.success(), "{}", stderr(&o));
    stdout(&o).lines().map(String::from).collect()
}

/// A `VK_ICD_FILENAMES` under which the loader sees two lavapipe devices: Mesa's own ICD
/// and a copy of its library in `dir` (the loader opens each library once), so that a
/// machine without a GPU runs several devices for real.
pub fn twin_lavapipe(dir: &Path) -> String {
    let icd_dir = Path::new("/usr/share/vulkan/icd.d");
    let json = std::fs::read_dir(icd_dir)
        .expect("the Vulkan ICD folder (run scripts/setup.sh)")
        .flatten()
        .map(|e| e.path())
        .find(|p| {
            p.file_name()
                .is_some_and(|n| n.to_string_lossy().starts_with("lvp_icd"))
        })
        .expect("lavapipe's ICD file (run scripts/setup.sh)");
    let text = std::fs::read_to_string(&json).unwrap();
    let library = text
        .split("\"library_path\"")
        .nth(1)
        .and_then(|rest| rest.split('"').nth(1))
        .expect("library_path in lavapipe's ICD file");
    let copy = dir.join("libvulkan_lvp_twin.so");
    std::fs::copy(library, &copy).unwrap();
    let twin = dir.join("lvp_twin.json");
    std::fs::write(&twin, text.replace(library, copy.to_str().unwrap())).unwrap();
    format!("{}:{}", json.display(), twin.display())
}
