//! Output files: `--json` into devices, FIFOs and through symlinks; one path for two
//! outputs; gzip outputs (`.gz`), whole and killed mid-run; and the tests' own temporary
//! directories.

use crate::common::*;
use std::path::{Path, PathBuf};
use std::time::Duration;

fn run_one(extra: &[&str]) -> std::process::Output {
    let mut args = vec!["--device", lavapipe()];
    args.extend(ONE_TEST);
    args.extend(extra);
    run(&args)
}

#[cfg(unix)]
fn file_type(p: &Path) -> &'static str {
    use std::os::unix::fs::FileTypeExt;
    let t = std::fs::symlink_metadata(p)
        .unwrap_or_else(|e| panic!("{}: {e}", p.display()))
        .file_type();
    match () {
        _ if t.is_symlink() => "symlink",
        _ if t.is_file() => "file",
        _ if t.is_char_device() => "char device",
        _ if t.is_fifo() => "fifo",
        _ => "other",
    }
}

/// A character device like `system` (`/dev/null`, `/dev/full`) to write to. As root, a fresh
/// node of the same device in `dir`, so that a tool that wrongly replaces it harms nothing
/// (an old perftest replaced `/dev/full` itself); else the system's node, which a normal
/// user cannot replace. `None` when root cannot create device nodes here.
#[cfg(unix)]
fn char_device(dir: &Path, system: &str, major: u32, minor: u32) -> Option<PathBuf> {
    use std::os::unix::fs::MetadataExt;
    let probe = dir.join("whoami");
    std::fs::write(&probe, "").unwrap();
    let root = std::fs::metadata(&probe).unwrap().uid() == 0;
    if !root {
        return Some(PathBuf::from(system));
    }
    let node = dir.join(Path::new(system).file_name().unwrap());
    let made = std::process::Command::new("mknod")
        .arg(&node)
        .args(["c", &major.to_string(), &minor.to_string()])
        .status()
        .is_ok_and(|s| s.success());
    if !made {
        eprintln!("cannot create a device node as root here: {system} not tried");
        return None;
    }
    Some(node)
}

#[cfg(unix)]
#[test]
fn json_into_a_device_is_written_in_place() {
    let dir = tempdir("json-dev");
    if let Some(null) = char_device(&dir, "/dev/null", 1, 3) {
        let o = run_one(&["--json", null.to_str().unwrap()]);
        assert!(o.status.success(), "{}", stderr(&o));
        assert_eq!(file_type(&null), "char device");
    }
    if let Some(full) = char_device(&dir, "/dev/full", 1, 7) {
        let o = run_one(&["--json", full.to_str().unwrap()]);
        assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
        let err = stderr(&o);
        assert!(
            err.contains("cannot write --json") && err.contains("No space left on device"),
            "{err}"
        );
        assert_eq!(file_type(&full), "char device");
    }
    // No temporary file is left beside the devices.
    let left: Vec<String> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|n| n.contains("partial"))
        .collect();
    assert!(left.is_empty(), "{left:?}");
}

#[cfg(unix)]
#[test]
fn json_into_a_fifo_reaches_its_reader() {
    let dir = tempdir("json-fifo");
    let fifo = dir.join("results.fifo");
    let made = std::process::Command::new("mkfifo")
        .arg(&fifo)
        .status()
        .expect("mkfifo runs");
    assert!(made.success());
    // The reader waits in open() until perftest opens the FIFO for writing. A perftest that
    // replaced the FIFO instead would leave it waiting forever: give up after a while.
    let (tx, rx) = std::sync::mpsc::channel();
    let path = fifo.clone();
    std::thread::spawn(move || {
        let _ = tx.send(std::fs::read_to_string(&path));
    });
    let o = run_one(&["--json", fifo.to_str().unwrap()]);
    assert!(o.status.success(), "{}", stderr(&o));
    let doc = rx
        .recv_timeout(Duration::from_secs(30))
        .expect("the FIFO's reader got nothing: perftest did not write into the FIFO")
        .unwrap();
    assert!(
        doc.contains("\"results\"") && doc.contains("cbuffer{float4} load uniform"),
        "{doc}"
    );
    assert_eq!(file_type(&fifo), "fifo");
}

#[cfg(unix)]
/// `--csv /dev/stdout` (or `--json`) with stdout redirected to a file (`> out.txt`): the file
/// the shell opened is written through its own descriptor, so it ends up holding the lines the
/// run printed and the whole output, in the order written, and it is the same file (not a new
/// one renamed onto it). Opened anew from its start, the CSV and the printed lines wrote over
/// each other.
// Claim: docs/options.md: "are written through the run's own output, where the lines it prints go too"
#[test]
#[cfg(unix)]
fn an_output_named_as_a_redirected_stdout_goes_through_it() {
    use std::os::unix::fs::MetadataExt;
    let dir = tempdir("stdout-file");
    for flag in ["--csv", "--json"] {
        let out = dir.path().join(format!("out{flag}.txt"));
        let file = std::fs::File::create(&out).unwrap();
        let inode = file.metadata().unwrap().ino();
        let o = perftest()
            .args(["--device", lavapipe()])
            .args(ONE_TEST)
            .args([flag, "/dev/stdout"])
            .stdout(file)
            .output()
            .unwrap();
        assert!(o.status.success(), "{flag}: {}", stderr(&o));
        assert_eq!(
            std::fs::metadata(&out).unwrap().ino(),
            inode,
            "{flag}: replaced"
        );
        let text = std::fs::read_to_string(&out).unwrap();
        assert!(text.contains("Using device 0"), "{flag}: {text}");
        assert!(
            text.contains("cbuffer{float4} load uniform: "),
            "{flag}: {text}"
        );
        if flag == "--csv" {
            let header = text.lines().find(|l| l.starts_with("device_index,"));
            assert!(
                header.is_some_and(|h| h.ends_with(",working_set_bytes")),
                "{text}"
            );
            assert!(
                text.lines()
                    .any(|l| l.contains(",cbuffer{float4} load uniform,") && l.starts_with("0,")),
                "{text}"
            );
        } else {
            let at = text
                .find("\n{\n")
                .expect("the document on a line of its own");
            let doc: serde_json::Value = serde_json::from_str(&text[at..]).unwrap();
            assert_eq!(doc["results"].as_array().unwrap().len(), 1, "{text}");
        }
    }
}

#[test]
fn json_through_a_symlink_writes_its_target() {
    let dir = tempdir("json-link");
    std::fs::create_dir(dir.join("results")).unwrap();
    let target = dir.join("results/run.json");
    std::fs::write(&target, "old contents").unwrap();
    let link = dir.join("latest.json");
    std::os::unix::fs::symlink("results/run.json", &link).unwrap();
    let o = run_one(&["--json", link.to_str().unwrap()]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert_eq!(file_type(&link), "symlink");
    assert_eq!(file_type(&target), "file");
    let doc = std::fs::read_to_string(&target).unwrap();
    assert!(doc.contains("\"results\""), "{doc}");
    // A dangling link: the file it points to is created, the link stays.
    let dangling = dir.join("next.json");
    std::os::unix::fs::symlink("results/next.json", &dangling).unwrap();
    let o = run_one(&["--json", dangling.to_str().unwrap()]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert_eq!(file_type(&dangling), "symlink");
    assert!(std::fs::read_to_string(dir.join("results/next.json"))
        .unwrap()
        .contains("\"results\""));
    // Only the two results and the links: no temporary file left anywhere.
    let mut names: Vec<String> = std::fs::read_dir(dir.join("results"))
        .unwrap()
        .chain(std::fs::read_dir(&dir).unwrap())
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    assert_eq!(
        names,
        [
            "latest.json",
            "next.json",
            "next.json",
            "results",
            "run.json"
        ]
    );
}

#[test]
fn one_file_for_two_outputs_is_a_usage_error() {
    let dir = tempdir("same-path");
    std::fs::create_dir(dir.join("sub")).unwrap();
    let existing = dir.join("kept.txt");
    std::fs::write(&existing, "old contents").unwrap();
    let d = dir.to_str().unwrap();
    let mut pairs: Vec<(String, String, Option<&Path>)> = vec![
        // Not there yet, spelt the same, and spelt differently.
        (format!("{d}/out.txt"), format!("{d}/out.txt"), None),
        (format!("{d}/out.txt"), format!("{d}/sub/../out.txt"), None),
        ("out.txt".into(), format!("{d}/./out.txt"), Some(dir.path())),
        // An existing file, which must be left alone.
        (
            format!("{d}/kept.txt"),
            format!("{d}//sub/../kept.txt"),
            None,
        ),
    ];
    #[cfg(unix)]
    {
        std::os::unix::fs::symlink("kept.txt", dir.join("link.txt")).unwrap();
        pairs.push((format!("{d}/kept.txt"), format!("{d}/link.txt"), None));
    }
    for (csv, json, cwd) in &pairs {
        let mut cmd = perftest();
        cmd.args(["--device", lavapipe()])
            .args(ONE_TEST)
            .args(["--csv", csv, "--json", json]);
        if let Some(cwd) = cwd {
            cmd.current_dir(cwd);
        }
        let o = cmd.output().unwrap();
        assert_eq!(o.status.code(), Some(2), "--csv {csv} --json {json}");
        let err = stderr(&o);
        assert!(err.contains("are the same file"), "{err}");
        assert!(stdout(&o).is_empty(), "{}", stdout(&o));
    }
    assert_eq!(std::fs::read_to_string(&existing).unwrap(), "old contents");
    assert!(!dir.join("out.txt").exists());
    // `--csv -` is stdout, not a file named `-`.
    let o = perftest()
        .args(["--device", lavapipe()])
        .args(ONE_TEST)
        .args(["--csv", "-", "--json", "./-"])
        .current_dir(dir.path())
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(stdout(&o).starts_with("device_index,"), "{}", stdout(&o));
    assert!(std::fs::read_to_string(dir.join("-"))
        .unwrap()
        .contains("\"results\""));
}

#[test]
fn the_trace_is_not_one_of_the_runs_outputs() {
    // PERFTEST_TRACE is truncated as the run's outputs open: naming the CSV or the JSON,
    // spelt another way, would empty the file and put trace lines among its rows.
    let dir = tempdir("trace-output");
    let kept = dir.join("kept.csv");
    std::fs::write(&kept, "old rows").unwrap();
    let d = dir.to_str().unwrap();
    let cases = [
        ("--csv", format!("{d}/kept.csv"), format!("{d}/./kept.csv")),
        ("--json", format!("{d}/kept.csv"), format!("{d}//kept.csv")),
    ];
    for (flag, output, trace) in &cases {
        let o = perftest()
            .args(["--device", lavapipe()])
            .args(ONE_TEST)
            .args([*flag, output.as_str()])
            .env("PERFTEST_TRACE", trace)
            .output()
            .unwrap();
        assert_eq!(o.status.code(), Some(2), "{flag}: {}", stderr(&o));
        let err = stderr(&o);
        assert!(
            err.contains(&format!(
                "PERFTEST_TRACE={trace} and {flag} {output} are the same file"
            )),
            "{err}"
        );
        assert!(stdout(&o).is_empty(), "{}", stdout(&o));
        assert_eq!(
            std::fs::read_to_string(&kept).unwrap(),
            "old rows",
            "{flag}"
        );
    }
    // Piped `/dev/stdout` (a link to `pipe:[…]`, no path) is written as the pipe it is.
    for flag in ["--csv", "--json"] {
        let o = perftest()
            .args(["--device", lavapipe()])
            .args(ONE_TEST)
            .args([flag, "/dev/stdout"])
            .output()
            .unwrap();
        assert!(o.status.success(), "{flag}: {}", stderr(&o));
        let want = if flag == "--csv" {
            "device_index,"
        } else {
            "\"results\""
        };
        assert!(stdout(&o).contains(want), "{flag}: {}", stdout(&o));
    }
    // A stream is not a file to empty: the trace and the CSV both go to stderr, as asked.
    let o = perftest()
        .args(["--device", lavapipe()])
        .args(ONE_TEST)
        .args(["--csv", "/dev/stderr"])
        .env("PERFTEST_TRACE", "/dev/stderr")
        .output()
        .unwrap();
    let err = stderr(&o);
    assert!(o.status.success(), "{err}");
    assert!(err.contains("\tprocess\tinstance created"), "{err}");
    assert!(err.contains("device_index,"), "{err}");
}

#[test]
fn temp_dirs_are_removed_also_when_a_test_fails() {
    let kept = {
        let dir = tempdir("guard");
        std::fs::write(dir.join("file"), "x").unwrap();
        dir.to_path_buf()
    };
    assert!(!kept.exists(), "{} was left behind", kept.display());
    let seen = std::sync::Mutex::new(None);
    let failed = std::panic::catch_unwind(|| {
        let dir = tempdir("guard-panic");
        std::fs::write(dir.join("file"), "x").unwrap();
        *seen.lock().unwrap() = Some(dir.to_path_buf());
        panic!("a failing test (deliberate)");
    });
    assert!(failed.is_err());
    let path = seen.into_inner().unwrap().unwrap();
    assert!(!path.exists(), "{} was left behind", path.display());
}

#[cfg(unix)]
#[test]
fn the_null_device_may_take_both_outputs() {
    // What is written there is discarded: it is never "the same file" as another output.
    let o = perftest()
        .args(["--device", lavapipe()])
        .args(ONE_TEST)
        .args(["--csv", "/dev/null", "--json", "/dev/null"])
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(
        stderr(&o).contains("1 ok, 0 unsupported, 0 failed"),
        "{}",
        stderr(&o)
    );
}

// Claim: docs/options.md: "for `--csv`, one that opens but takes no bytes too, as `/dev/full` or a full disk: its header is written at once"
#[test]
fn a_csv_that_takes_no_bytes_is_named_before_the_first_test() {
    // /dev/full opens but fails every write: the header's failure is a usage error naming the
    // file (exit 2), before any test runs, as for a path that cannot be opened.
    if !std::path::Path::new("/dev/full").exists() {
        return;
    }
    let dir = tempdir("outputs");
    let json = dir.join("out.json");
    let o = run(&[
        "--device",
        lavapipe(),
        "--csv",
        "/dev/full",
        "--json",
        json.to_str().unwrap(),
        "--filter",
        "cbuffer",
        "--groups",
        "1",
    ]);
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    assert!(
        stderr(&o).contains("cannot write --csv /dev/full: writing the CSV header"),
        "{}",
        stderr(&o)
    );
    assert!(
        !stdout(&o).contains("cbuffer"),
        "no test ran: {}",
        stdout(&o)
    );
}

#[test]
fn without_a_management_interface_the_driver_columns_are_empty_and_one_line_says_why() {
    let dir = tempdir("driver");
    let csv = dir.join("driver.csv");
    let o = run(&[
        "--device",
        lavapipe(),
        "--groups",
        "1",
        "--samples",
        "2",
        "--filter",
        "Pitfall switch",
        "--suite",
        "pitfalls",
        "--csv",
        csv.to_str().unwrap(),
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    let err = stderr(&o);
    let why: Vec<&str> = err
        .lines()
        .filter(|l| l.starts_with("perftest: no driver readings beside the rows: "))
        .collect();
    assert_eq!(why.len(), 1, "{err}");
    assert!(
        why[0].contains("NVML for NVIDIA, sysfs for AMD and Intel"),
        "{err}"
    );
    assert!(!err.contains("the driver's clocks read beside"), "{err}");
    let rows = csv_rows(&csv);
    assert_eq!(rows.len(), 2);
    for row in &rows {
        for col in [
            "driver_sm_mhz",
            "driver_mem_mhz",
            "power_w",
            "temp_c",
            "clock_events",
        ] {
            assert_eq!(
                row.get(col).map(String::as_str),
                Some(""),
                "{col} in {row:?}"
            );
        }
    }
    // --verify runs nothing timed: no line.
    let v = run(&[
        "--device",
        lavapipe(),
        "--verify",
        "--suite",
        "pitfalls",
        "--filter",
        "Pitfall switch",
    ]);
    assert!(v.status.success());
    assert!(!stderr(&v).contains("no driver readings"), "{}", stderr(&v));
}

#[test]
fn gz_outputs_are_gzip_and_read_back_in_compare_summary_and_report() {
    let dir = tempdir("gz-outputs");
    let (csv, json) = (dir.join("run.csv.gz"), dir.join("run.json.gz"));
    let o = run(&[
        "--device",
        lavapipe(),
        "--filter",
        "Buffer<RGBA8>.Load random",
        "--filter",
        "cbuffer{float4} load uniform",
        "--groups",
        "1",
        "--samples",
        "1",
        "--csv",
        csv.to_str().unwrap(),
        "--json",
        json.to_str().unwrap(),
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    for file in [&csv, &json] {
        let bytes = std::fs::read(file).unwrap();
        assert!(
            bytes.starts_with(&[0x1f, 0x8b]),
            "{} is not gzip",
            file.display()
        );
    }
    // The CSV inside is the CSV the tool writes: its header, two rows.
    let text = gunzip(&std::fs::read(&csv).unwrap());
    assert!(text.starts_with("device_index,device_name,"), "{text}");
    assert_eq!(text.lines().count(), 3, "{text}");
    // Both files hold the same rows: each test the same time in either, +0.0 %.
    let (c, j) = (csv.to_str().unwrap(), json.to_str().unwrap());
    let o = run(&["compare", c, j]);
    assert!(o.status.success(), "{}", stderr(&o));
    let out = stdout(&o);
    for test in ["Buffer<RGBA8>.Load random", "cbuffer{float4} load uniform"] {
        let line = out.lines().find(|l| l.starts_with(test)).expect(test);
        assert!(line.contains("+0.0%") && line.ends_with("1.000x"), "{out}");
    }
    let o = run(&["summary", c]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(
        stdout(&o).contains(&format!("2 rows from {c}")),
        "{}",
        stdout(&o)
    );
    let html = dir.join("run.html");
    let o = run(&["report", c, j, "-o", html.to_str().unwrap()]);
    assert!(o.status.success(), "{}", stderr(&o));
}

/// The text of a gzip file (every member; a stream cut short gives what it holds).
fn gunzip(bytes: &[u8]) -> String {
    use std::io::Read;
    let mut out = Vec::new();
    let _ = flate2::read::MultiGzDecoder::new(bytes).read_to_end(&mut out);
    String::from_utf8(out).unwrap()
}

#[cfg(unix)]
#[test]
fn a_killed_runs_gz_csv_reads_up_to_its_last_row() {
    let dir = tempdir("gz-killed");
    let csv = dir.join("partial.csv.gz");
    let mut child = perftest()
        .args(["--device", lavapipe(), "--suite", "original"])
        .args(["--groups", "64", "--samples", "30"])
        .args(["--csv", csv.to_str().unwrap()])
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .spawn()
        .unwrap();
    // Rows are flushed through gzip as they finish: wait for a few, then kill the run
    // where it stands (no trailer, no last flush: what SIGKILL or a power cut leaves).
    let start = std::time::Instant::now();
    let rows = loop {
        let rows = gunzip(&std::fs::read(&csv).unwrap_or_default())
            .lines()
            .count();
        if rows >= 4 || start.elapsed() > Duration::from_secs(120) {
            break rows;
        }
        std::thread::sleep(Duration::from_millis(50));
    };
    child.kill().unwrap();
    child.wait().unwrap();
    assert!(rows >= 4, "no rows in the gz after two minutes");
    // Its finished rows: every whole line but the header (a row cut in half, had the
    // kill come within a flush, would be left out).
    let text = gunzip(&std::fs::read(&csv).unwrap());
    let rows = text.matches('\n').count() - 1;
    // It reads as a file of its finished rows.
    let c = csv.to_str().unwrap();
    let o = run(&["summary", c]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(
        stdout(&o).contains(&format!("{rows} rows from {c}")),
        "{rows} rows: {}",
        stdout(&o)
    );
}

// Claim: docs/comparing.md: "One file holding two devices (`--device integrated,discrete`) compares its devices as two files would"
#[test]
fn compare_sets_two_devices_of_one_file_side_by_side() {
    // As docs/windows.md suggests: both GPUs of a laptop in one CSV, compared as two files
    // would be.
    let dir = tempdir("compare-one-file");
    let h = "device_index,device_name,test,ms_median,status,loads_per_dispatch";
    let both = dir.join("both.csv");
    std::fs::write(
        &both,
        format!("{h}\n0,iGPU,T,2.0,ok,268435456\n1,dGPU,T,1.0,ok,268435456\n"),
    )
    .unwrap();
    let o = run(&["compare", both.to_str().unwrap()]);
    assert!(o.status.success(), "{}", stderr(&o));
    let out = stdout(&o);
    let line = out
        .lines()
        .find(|l| l.starts_with('T'))
        .expect("a row for T");
    assert!(line.contains("-50.0%") && line.ends_with("2.000x"), "{out}");
    // One device in one file is still too few, and says so.
    let one = dir.join("one.csv");
    std::fs::write(&one, format!("{h}\n0,iGPU,T,2.0,ok,268435456\n")).unwrap();
    let o = run(&["compare", one.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(2));
    assert!(
        stderr(&o).contains("got 1 file with 1 device"),
        "{}",
        stderr(&o)
    );
}

// Claim: docs/comparing.md: "a file without `loads_per_dispatch` beside one that has it (its times could not be set per load)"
#[test]
fn compare_names_a_missing_loads_per_dispatch_column() {
    // Without the column the file's whole-dispatch time was set beside 2^28 loads' worth
    // of the other's (+102300.0 %).
    let dir = tempdir("compare-no-loads");
    let (a, b) = (dir.join("a.csv"), dir.join("b.csv"));
    std::fs::write(
        &a,
        "device_index,device_name,test,ms_median,status,loads_per_dispatch\n0,GPU,T,1.0,ok,262144\n",
    )
    .unwrap();
    std::fs::write(
        &b,
        "device_index,device_name,test,ms_median,status\n0,GPU,T,1.0,ok\n",
    )
    .unwrap();
    for args in [[&a, &b], [&b, &a]] {
        let o = run(&[
            "compare",
            args[0].to_str().unwrap(),
            args[1].to_str().unwrap(),
        ]);
        assert_eq!(o.status.code(), Some(2), "{}", stdout(&o));
        let err = stderr(&o);
        assert!(
            err.contains("b.csv: lacks the column loads_per_dispatch"),
            "{err}"
        );
        assert!(!stdout(&o).contains('%'), "{}", stdout(&o));
    }
}

// Claim: docs/options.md: "A hard kill (`kill -KILL`, a crash, a power cut) so loses the block in progress and any block waiting to be re-timed, and nothing else"
// Claim: docs/options.md: "made only then: a killed run leaves none"
#[test]
fn a_hard_kill_loses_only_the_block_in_progress() {
    // docs/options.md: rows are written block by block (with --shuffle, blocks of 16), once
    // the drift check after the block has settled them; `kill -KILL` loses the block in
    // progress and leaves every block before it whole.
    let dir = tempdir("kill");
    let csv = dir.join("killed.csv");
    let mut child = perftest()
        .args([
            "--device",
            lavapipe(),
            "--shuffle",
            "--seed",
            "1",
            "--drift-limit",
            "off",
        ])
        .arg("--csv")
        .arg(&csv)
        .arg("--json")
        .arg(dir.join("killed.json"))
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .spawn()
        .unwrap();
    let rows = || std::fs::read_to_string(&csv).map_or(0, |t| t.lines().count().saturating_sub(1));
    let start = std::time::Instant::now();
    while rows() == 0 && start.elapsed() < std::time::Duration::from_secs(120) {
        std::thread::sleep(std::time::Duration::from_millis(20));
    }
    // Past the first block's write, into the next block's tests.
    std::thread::sleep(std::time::Duration::from_millis(300));
    child.kill().unwrap(); // SIGKILL
    child.wait().unwrap();
    let text = std::fs::read_to_string(&csv).unwrap();
    let n = text.lines().count() - 1;
    assert!(text.ends_with('\n'), "a row cut in half:\n{text}");
    assert!(
        n > 0 && n < 138,
        "{n} rows: killed before the first block or after the run"
    );
    assert_eq!(n % 16, 0, "{n} rows: not whole blocks of 16\n{text}");
    // The JSON, written at the end, leaves nothing behind: its temporary file exists only
    // while the document is written (a kill left an empty `.killed.json.partial-PID`).
    let left: Vec<String> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|n| n != "killed.csv")
        .collect();
    assert!(left.is_empty(), "left beside the CSV: {left:?}");
}

/// A run records what it took (issue 60): the JSON's `started` (UTC, RFC 3339) and `wall_s`,
/// each device's `time_s` by phase (its total at least the phases' sum, within the run's
/// wall time), and the terminal's `time:` and `wall time` lines saying the same.
#[test]
fn a_run_records_its_start_wall_time_and_where_its_time_went() {
    let dir = tempdir("json-time");
    let json = dir.join("run.json");
    let before = std::time::SystemTime::now();
    let o = run_one(&["--json", json.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let doc: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&json).unwrap()).unwrap();
    let started = doc["started"].as_str().expect("started");
    let at = humantime_secs(started);
    let before_s = before
        .duration_since(std::time::UNIX_EPOCH)
        .unwrap()
        .as_secs();
    assert!(
        at + 1 >= before_s && at <= before_s + 60,
        "started {started} is not this run's start"
    );
    let wall = doc["wall_s"].as_f64().expect("wall_s");
    assert!(wall > 0.0 && wall < 600.0, "wall_s {wall}");
    let time = doc["devices"][0]["time_s"]
        .as_object()
        .expect("devices[0].time_s");
    let total = time["total"].as_f64().unwrap();
    let phases: f64 = time
        .iter()
        .filter(|(k, _)| *k != "total")
        .map(|(_, v)| v.as_f64().unwrap())
        .sum();
    assert!(
        total > 0.0 && total <= wall && (phases - total).abs() < 0.01,
        "phases (other included) {phases} s, total {total} s, wall {wall} s: {time:?}"
    );
    // Counted, if not always a millisecond (one sample of one group).
    assert!(time["timed samples"].as_f64().is_some(), "{time:?}");
    let err = stderr(&o);
    assert!(err.contains(&format!("(started {started})")), "{err}");
    assert!(
        err.lines()
            .any(|l| l.starts_with("perftest: time: ") && l.contains("warm-up")),
        "{err}"
    );
}

/// Seconds since the epoch of an RFC 3339 UTC time to the second (`2026-11-28T05:12:03Z`).
fn humantime_secs(s: &str) -> u64 {
    let b = s.as_bytes();
    assert!(
        s.len() == 20 && b[4] == b'-' && b[10] == b'T' && b[19] == b'Z',
        "{s}"
    );
    let n = |r: std::ops::Range<usize>| s[r].parse::<i64>().unwrap();
    let (y, m, d) = (n(0..4), n(5..7), n(8..10));
    // Days from civil (Howard Hinnant's algorithm).
    let y = if m <= 2 { y - 1 } else { y };
    let era = y.div_euclid(400);
    let yoe = y - era * 400;
    let doy = (153 * (if m > 2 { m - 3 } else { m + 9 }) + 2) / 5 + d - 1;
    let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    let days = era * 146097 + doe - 719468;
    (days * 86400 + n(11..13) * 3600 + n(14..16) * 60 + n(17..19)) as u64
}
