//! Nothing a user points perftest at is damaged (issue 59): every output opened one way (devices and FIFOs written in place, symlinks followed, inputs and read-only files refused), readers that stop, numbers quoted as written, and the health check's words and lines.

use crate::common::*;
use std::path::{Path, PathBuf};
use std::process::Output;
use std::time::{Duration, Instant};

/// A small result file of the original suite (an H100's rows), as a path.
fn fixture() -> String {
    committed("tests/fixtures/chart-h100.csv")
}

/// What `path` is: `file`, `char device`, `fifo`, `symlink` or `other`.
#[cfg(unix)]
fn kind(path: &Path) -> &'static str {
    use std::os::unix::fs::FileTypeExt;
    let t = std::fs::symlink_metadata(path)
        .unwrap_or_else(|e| panic!("{}: {e}", path.display()))
        .file_type();
    match () {
        _ if t.is_symlink() => "symlink",
        _ if t.is_file() => "file",
        _ if t.is_char_device() => "char device",
        _ if t.is_fifo() => "fifo",
        _ => "other",
    }
}

/// Runs perftest with `args`, killed (and the test failed) after `limit`: a reader that
/// never ends must not hang the tests.
fn run_within(args: &[&str], limit: Duration) -> Output {
    let mut child = perftest()
        .args(args)
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    // Both pipes drained as they fill: a verdict larger than a pipe's buffer must not stop
    // the child.
    let drain = |mut pipe: Box<dyn std::io::Read + Send>| {
        std::thread::spawn(move || {
            let mut bytes = Vec::new();
            let _ = pipe.read_to_end(&mut bytes);
            bytes
        })
    };
    let out = drain(Box::new(child.stdout.take().unwrap()));
    let err = drain(Box::new(child.stderr.take().unwrap()));
    let started = Instant::now();
    let status = loop {
        if let Some(status) = child.try_wait().unwrap() {
            break status;
        }
        if started.elapsed() > limit {
            let _ = child.kill();
            let _ = child.wait();
            panic!("perftest {args:?} ran past {limit:?}");
        }
        std::thread::sleep(Duration::from_millis(50));
    };
    Output {
        status,
        stdout: out.join().unwrap(),
        stderr: err.join().unwrap(),
    }
}

/// A character device node like /dev/null (1, 3) at `path`, made with mknod; `false` where
/// this user cannot (not root): the caller then skips what needs it.
#[cfg(unix)]
fn null_node(path: &Path) -> bool {
    let made = std::process::Command::new("mknod")
        .arg(path)
        .args(["c", "1", "3"])
        .status()
        .is_ok_and(|s| s.success());
    if !made {
        eprintln!("mknod failed (not root?): {} not made", path.display());
    }
    made
}

// Claim: docs/options.md: "A device node, a FIFO or a terminal is opened and written in place, never replaced"
#[cfg(unix)]
#[test]
fn a_device_node_survives_every_output() {
    let dir = tempdir("safety-node");
    let (node, other) = (dir.join("null"), dir.join("null2"));
    if !null_node(&node) || !null_node(&other) {
        return;
    }
    let n = node.to_str().unwrap();
    let fixture = fixture();
    let runs: [(&str, Vec<&str>, i32); 4] = [
        ("report -o", vec!["report", &fixture, "-o", n], 0),
        ("summary --json", vec!["summary", &fixture, "--json", n], 0),
        // One GPU: not judged (exit 2), the verdict written all the same.
        ("fleet --json", vec!["fleet", &fixture, "--json", n], 2),
        (
            "the run's --csv and --json",
            ["--device", lavapipe()]
                .into_iter()
                .chain(ONE_TEST)
                .chain(["--csv", n, "--json", other.to_str().unwrap()])
                .collect(),
            0,
        ),
    ];
    for (what, args, code) in runs {
        let o = run(&args);
        assert_eq!(o.status.code(), Some(code), "{what}: {}", stderr(&o));
        assert_eq!(kind(&node), "char device", "{what} replaced the node");
        assert_eq!(kind(&other), "char device", "{what} replaced the node");
    }
    // Nothing was left beside them.
    let left: Vec<_> = std::fs::read_dir(&*dir).unwrap().collect();
    assert_eq!(left.len(), 2, "{left:?}");
}

// Claim: docs/options.md: "Symlinks are followed: the file they point to is written, the link stays."
#[cfg(unix)]
#[test]
fn report_writes_into_a_fifo_and_through_a_symlink() {
    let dir = tempdir("safety-report");
    let fifo = dir.join("report.fifo");
    assert!(std::process::Command::new("mkfifo")
        .arg(&fifo)
        .status()
        .unwrap()
        .success());
    let (tx, rx) = std::sync::mpsc::channel();
    let path = fifo.clone();
    std::thread::spawn(move || {
        let _ = tx.send(std::fs::read_to_string(&path));
    });
    let o = run(&["report", &fixture(), "-o", fifo.to_str().unwrap()]);
    assert!(o.status.success(), "{}", stderr(&o));
    let page = rx
        .recv_timeout(Duration::from_secs(30))
        .expect("the FIFO's reader got nothing: the report did not go into the FIFO")
        .unwrap();
    assert!(page.starts_with("<!DOCTYPE html>"), "{}", &page[..100]);
    assert_eq!(kind(&fifo), "fifo");
    // A symlink: the report lands in its target, the link stays.
    let (target, link) = (dir.join("real.html"), dir.join("link.html"));
    std::os::unix::fs::symlink("real.html", &link).unwrap();
    let o = run(&["report", &fixture(), "-o", link.to_str().unwrap()]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert_eq!(kind(&link), "symlink");
    assert!(std::fs::read_to_string(&target)
        .unwrap()
        .starts_with("<!DOCTYPE html>"));
}

// Claim: docs/options.md: "an output that names one of the inputs, however spelt"
#[test]
fn an_output_that_names_an_input_is_refused_and_the_input_kept() {
    let dir = tempdir("safety-input");
    let runs: Vec<PathBuf> = (1..=3).map(|i| dir.join(format!("n{i}.csv"))).collect();
    for r in &runs {
        std::fs::copy(fixture(), r).unwrap();
    }
    let before = std::fs::read(&runs[0]).unwrap();
    let n1 = runs[0].to_str().unwrap();
    let spelt = format!("{}/./n1.csv", dir.display());
    let folder = dir.to_str().unwrap();
    let cases: [Vec<&str>; 5] = [
        vec!["summary", n1, "--json", n1],
        vec!["summary", n1, "--json", &spelt],
        vec![
            "fleet",
            n1,
            runs[1].to_str().unwrap(),
            runs[2].to_str().unwrap(),
            "--json",
            n1,
        ],
        // A file the folder holds, found only once it is searched.
        vec!["fleet", folder, "--json", n1],
        vec!["report", n1, "-o", &spelt],
    ];
    for args in cases {
        let o = run(&args);
        assert_eq!(o.status.code(), Some(2), "{args:?}: {}", stderr(&o));
        assert!(
            stderr(&o).contains("is one of the inputs"),
            "{args:?}: {}",
            stderr(&o)
        );
        assert_eq!(std::fs::read(&runs[0]).unwrap(), before, "{args:?}");
    }
}

// Claim: docs/options.md: "read-only file (no write permission in its mode, also for root) is refused before anything is read or run (exit 2), never replaced"
#[cfg(unix)]
#[test]
fn a_read_only_output_is_refused_before_any_work() {
    use std::os::unix::fs::PermissionsExt;
    let dir = tempdir("safety-ro");
    let kept = dir.join("kept.out");
    std::fs::write(&kept, "kept").unwrap();
    std::fs::set_permissions(&kept, std::fs::Permissions::from_mode(0o444)).unwrap();
    let k = kept.to_str().unwrap();
    let fixture = fixture();
    let run_args = |flag: &'static str| {
        vec![
            "--device",
            lavapipe(),
            "--filter",
            "cbuffer{float4} load uniform",
            flag,
            k,
        ]
    };
    let cases: [(&str, Vec<&str>); 5] = [
        ("--json", run_args("--json")),
        ("--csv", run_args("--csv")),
        ("-o", vec!["report", &fixture, "-o", k]),
        ("--json", vec!["summary", &fixture, "--json", k]),
        ("--json", vec!["fleet", &fixture, "--json", k]),
    ];
    for (flag, args) in cases {
        let o = run(&args);
        assert_eq!(o.status.code(), Some(2), "{args:?}: {}", stderr(&o));
        assert!(
            stderr(&o).contains(&format!(
                "cannot write {flag} {k}: it is read-only (mode 0444)"
            )),
            "{args:?}: {}",
            stderr(&o)
        );
        // Before any work: no test ran, nothing was read.
        assert!(stdout(&o).is_empty(), "{args:?}: {}", stdout(&o));
        assert_eq!(std::fs::read_to_string(&kept).unwrap(), "kept", "{args:?}");
    }
    // The diagnostic trace too.
    let o = perftest()
        .args([
            "--device",
            lavapipe(),
            "--filter",
            "cbuffer{float4} load uniform",
        ])
        .env("PERFTEST_TRACE", &kept)
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    assert!(
        stderr(&o).contains(&format!("cannot write PERFTEST_TRACE={k}: it is read-only")),
        "{}",
        stderr(&o)
    );
    assert_eq!(std::fs::read_to_string(&kept).unwrap(), "kept");
}

// Claim: docs/summary.md: "A file that never ends (`/dev/zero`, an endless FIFO) is refused, naming it"
#[cfg(unix)]
#[test]
fn endless_inputs_are_refused_naming_them() {
    let limit = Duration::from_secs(60);
    for args in [
        vec!["summary", "/dev/zero"],
        vec!["compare", &fixture(), "/dev/zero"],
        vec!["report", "/dev/zero", "-o", "/dev/null"],
    ] {
        let o = run_within(&args, limit);
        assert_eq!(o.status.code(), Some(2), "{args:?}: {}", stderr(&o));
        assert!(
            stderr(&o).contains("/dev/zero: not a perftest result (not text)"),
            "{args:?}: {}",
            stderr(&o)
        );
    }
    // Text that never ends, through a FIFO: stopped at the size no result reaches.
    let dir = tempdir("safety-endless");
    let fifo = dir.join("endless.csv");
    assert!(std::process::Command::new("mkfifo")
        .arg(&fifo)
        .status()
        .unwrap()
        .success());
    let path = fifo.clone();
    std::thread::spawn(move || {
        use std::io::Write;
        let Ok(mut out) = std::fs::OpenOptions::new().write(true).open(&path) else {
            return;
        };
        let line = "0,GPU,T,0.5,ok\n".repeat(4096);
        let _ = out.write_all(b"device_index,device_name,test,ms_median,status\n");
        // Until the reader goes away (a broken pipe).
        while out.write_all(line.as_bytes()).is_ok() {}
    });
    let o = run_within(&["summary", fifo.to_str().unwrap()], limit);
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    assert!(
        stderr(&o).contains("endless.csv: not a perftest result: more than 256 MiB"),
        "{}",
        stderr(&o)
    );
}

/// A copy of the fixture with `column` of its first row set to `cell`, at `path`.
fn with_cell(path: &Path, column: &str, cell: &str) {
    let text = std::fs::read_to_string(fixture()).unwrap();
    let mut reader = csv::Reader::from_reader(text.as_bytes());
    let header = reader.headers().unwrap().clone();
    let at = header.iter().position(|h| h == column).unwrap();
    let mut writer = csv::Writer::from_path(path).unwrap();
    writer.write_record(&header).unwrap();
    for (i, record) in reader.records().enumerate() {
        let record = record.unwrap();
        let cells: Vec<&str> = record
            .iter()
            .enumerate()
            .map(|(c, v)| if i == 0 && c == at { cell } else { v })
            .collect();
        writer.write_record(&cells).unwrap();
    }
    writer.flush().unwrap();
}

// Claim: docs/summary.md: "a number out of range is quoted as the file spells it"
#[test]
fn numbers_out_of_range_are_quoted_as_the_file_spells_them() {
    let dir = tempdir("safety-numbers");
    let digits = "99999999999999999999999999999999999";
    let big = dir.join("big.csv");
    with_cell(&big, "ms_median", "1e400");
    let o = run(&["summary", big.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    assert!(
        stderr(&o).contains("big.csv: line 2: ms_median `1e400` is out of range"),
        "{}",
        stderr(&o)
    );
    // 35 digits: a number (1e35 ms), read as one.
    let long = dir.join("long.csv");
    with_cell(&long, "ms_median", digits);
    let o = run(&["summary", long.to_str().unwrap()]);
    assert!(o.status.success(), "{}", stderr(&o));
    // In a count, out of range, quoted as written.
    with_cell(&long, "groups", digits);
    let o = run(&["compare", long.to_str().unwrap(), &fixture()]);
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    let err = stderr(&o);
    assert!(
        err.contains(&format!("groups `{digits}` is out of range")) && !err.contains("u128"),
        "{err}"
    );
}

// Claim: docs/summary.md: "A bad file exits 2 naming it, as `compare` and `report` do (one test twice for one device too"
#[test]
fn summary_refuses_a_test_twice_for_one_device_as_compare_and_report_do() {
    let dir = tempdir("safety-twice");
    let twice = dir.join("twice.csv");
    let text = std::fs::read_to_string(fixture()).unwrap();
    let second = text.lines().nth(1).unwrap();
    std::fs::write(&twice, format!("{text}{second}\n")).unwrap();
    let t = twice.to_str().unwrap();
    let out = dir.join("r.html");
    for args in [
        vec!["summary", t],
        vec!["compare", t, &fixture()],
        vec!["report", t, "-o", out.to_str().unwrap()],
    ] {
        let o = run(&args);
        assert_eq!(o.status.code(), Some(2), "{args:?}: {}", stderr(&o));
        assert!(
            stderr(&o).contains(
                "twice.csv: line 20: test `Buffer<R8>.Load uniform` appears twice for device 0"
            ),
            "{args:?}: {}",
            stderr(&o)
        );
    }
}

// Claim: docs/fleet.md: "a folder that holds no result is named (exit 2): `DIR: the folder holds no result file`"
#[test]
fn fleet_names_an_empty_folder_and_walks_a_link_loop_once() {
    let dir = tempdir("safety-fleet");
    let empty = dir.join("empty");
    std::fs::create_dir(&empty).unwrap();
    let o = run(&["fleet", empty.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    assert!(
        stdout(&o).contains(&format!(
            "{}: the folder holds no result file",
            empty.display()
        )),
        "{}",
        stdout(&o)
    );
    // A link back up the tree: each folder searched once, each file read once.
    #[cfg(unix)]
    {
        let runs = dir.join("runs");
        std::fs::create_dir_all(runs.join("n1")).unwrap();
        std::fs::copy(fixture(), runs.join("n1/run.csv")).unwrap();
        std::os::unix::fs::symlink("..", runs.join("n1/up")).unwrap();
        let o = run_within(&["fleet", runs.to_str().unwrap()], Duration::from_secs(60));
        let text = stdout(&o);
        assert!(text.contains("perftest fleet: 1 GPU(s)"), "{text}");
        assert!(!text.contains("read twice"), "{text}");
        assert!(!text.contains("/up/"), "{text}");
    }
}

// Claim: docs/options.md: "one word (no space), on one line"
#[test]
fn a_host_name_of_two_words_is_refused_as_an_empty_one() {
    for name in ["", "a b", "a\tb", "a\nb"] {
        let o = run(&["--host", name, "--list-tests"]);
        assert_eq!(o.status.code(), Some(2), "{name:?}: {}", stderr(&o));
        assert!(
            stderr(&o).contains("is not a machine name: give one word"),
            "{name:?}: {}",
            stderr(&o)
        );
    }
}

/// A fleet of four GPUs of the committed H100's arithmetic rows (`node1`–`node4`, the last
/// twice as slow) in `dir`: `hist/node1..3.csv` and `slow.csv`.
fn arithmetic_fleet(dir: &Path) {
    let bytes = std::fs::read(committed("results/h100/host-column-1127/all.csv.gz")).unwrap();
    let mut text = String::new();
    std::io::Read::read_to_string(&mut flate2::read::GzDecoder::new(&bytes[..]), &mut text)
        .unwrap();
    let mut reader = csv::Reader::from_reader(text.as_bytes());
    let header = reader.headers().unwrap().clone();
    let col = |c: &str| header.iter().position(|h| h == c).unwrap();
    let rows: Vec<csv::StringRecord> = reader
        .records()
        .map(Result::unwrap)
        .filter(|r| ["fp32 fma", "fp64 fma"].contains(&&r[col("test")]))
        .collect();
    assert_eq!(rows.len(), 2);
    std::fs::create_dir_all(dir.join("hist")).unwrap();
    for n in 1..=5 {
        let path = match n {
            1..=3 => dir.join(format!("hist/node{n}.csv")),
            4 => dir.join("slow.csv"),
            _ => dir.join("slow-again.csv"),
        };
        // Runs a little apart (identical ones are one run read twice); node 4 2× slower, and
        // its re-measure (run 5, the same GPU) as slow.
        let k = match n {
            4 => 2.0,
            5 => 2.02,
            _ => 1.0 + 0.002 * n as f64,
        };
        let n = n.min(4);
        let mut writer = csv::Writer::from_path(path).unwrap();
        writer.write_record(&header).unwrap();
        for r in &rows {
            let mut cells: Vec<String> = r.iter().map(str::to_string).collect();
            cells[col("host")] = format!("node{n}");
            cells[col("device_uuid")] = format!("uuid-{n}");
            for c in ["ms_median", "ms_min", "ms_mean"] {
                let v: f64 = cells[col(c)].parse().unwrap();
                cells[col(c)] = format!("{:.6}", v * k);
            }
            for c in [
                "gloads_per_s",
                "gbytes_per_s",
                "loads_per_clk_per_cu",
                "bytes_per_clk_per_cu",
                "ratio",
            ] {
                if let Ok(v) = cells[col(c)].parse::<f64>() {
                    cells[col(c)] = format!("{:.4}", v / k);
                }
            }
            writer.write_record(&cells).unwrap();
        }
        writer.flush().unwrap();
    }
}

// Claim: docs/fleet-slurm.md: "prints one line per degraded item of the node's GPUs"
#[cfg(unix)]
#[test]
fn the_health_check_runs_nothing_in_its_words_and_names_each_degraded_item() {
    use std::os::unix::fs::PermissionsExt;
    let dir = tempdir("safety-health");
    arithmetic_fleet(&dir);
    let fake = fake_perftest(&dir);
    let ran = dir.join("ran");
    let conf = dir.join("health.conf");
    std::fs::write(
        &conf,
        format!(
            "PERFTEST={fake}\n\
             PERFTEST_ARGS='--suite health --filter \"fp32 fma\" $(touch {ran}) *'\n\
             PERFTEST_HISTORY={dir}/hist\n\
             PERFTEST_HEALTH_DIR={dir}/health\n",
            fake = fake.display(),
            ran = ran.display(),
            dir = dir.display()
        ),
    )
    .unwrap();
    std::fs::set_permissions(&conf, std::fs::Permissions::from_mode(0o644)).unwrap();
    let check = |conf: &Path| {
        std::process::Command::new(root().join("deploy/slurm/healthcheck.sh"))
            .env("PERFTEST_HEALTH_CONF", conf)
            .env("SLURMD_NODENAME", "node4")
            .current_dir(&*dir)
            .output()
            .unwrap()
    };
    let o = check(&conf);
    let (out, err) = (stdout(&o), stderr(&o));
    assert_eq!(o.status.code(), Some(1), "{out}{err}");
    // The words as written: nothing run, nothing expanded.
    assert!(!ran.exists(), "PERFTEST_ARGS ran a command");
    let args = std::fs::read_to_string(dir.join("args")).unwrap();
    let args: Vec<&str> = args.lines().collect();
    let ran_word = format!("{})", ran.display());
    assert_eq!(
        args[..7],
        [
            "--suite",
            "health",
            "--filter",
            "fp32 fma",
            "$(touch",
            ran_word.as_str(),
            "*"
        ],
        "{args:?}"
    );
    // One line per degraded item, each naming the node's GPU and the item's subsystem.
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines.len(), 2, "{out}");
    for (line, item) in lines.iter().zip(["arithmetic: fp32 ", "arithmetic: fp64 "]) {
        assert!(
            line.starts_with(&format!(
                "perftest-health: node4, uuid-4, NVIDIA H100 80GB HBM3: degraded: {item}"
            )),
            "{line}"
        );
    }
    // The whole verdict is kept beside the run: every GPU of the fleet, and its count.
    let whole = std::fs::read_to_string(dir.join("health/node4/verdict.txt")).unwrap();
    assert!(
        whole.contains("  node4, uuid-4, NVIDIA H100 80GB HBM3: degraded (")
            && whole.contains(" degraded, 0 suspect, "),
        "{whole}"
    );
    // A configuration others could change is not run as root.
    let is_root = std::process::Command::new("id")
        .arg("-u")
        .output()
        .is_ok_and(|o| stdout(&o).trim() == "0");
    if is_root {
        std::fs::set_permissions(&conf, std::fs::Permissions::from_mode(0o666)).unwrap();
        let o = check(&conf);
        assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
        assert!(
            stderr(&o).contains("writable by root alone"),
            "{}",
            stderr(&o)
        );
    }
}

// Claim: docs/options.md: "is an error before any Vulkan call (exit 2), which points to `--list-devices` rather than listing them"
#[test]
fn an_empty_device_selector_points_to_the_list() {
    for sel in ["", "0,"] {
        let o = run(&["--device", sel, "--filter", "cbuffer"]);
        assert_eq!(o.status.code(), Some(2), "{sel:?}: {}", stderr(&o));
        let err = stderr(&o);
        assert!(
            err.contains("has an empty selector") && err.contains("see --list-devices"),
            "{sel:?}: {err}"
        );
        assert!(
            !err.contains("llvmpipe"),
            "{sel:?} listed the devices: {err}"
        );
    }
}

/// The test names `perftest --list-tests --suite SUITE` prints.
fn tests_of(suite: &str) -> Vec<String> {
    let o = run(&["--list-tests", "--suite", suite]);
    assert!(o.status.success(), "{}", stderr(&o));
    stdout(&o).lines().map(str::to_string).collect()
}

// Claim: docs/options.md: "176 tests, those every item of the [summary](summary.md) is read from but the load path's `uniform` and `linear` best and worst, which read the original suite's 138 rows — `--suite health,original` adds them —"
#[test]
fn the_health_profile_reads_every_summary_item_but_the_load_paths_uniform_and_linear() {
    let health = tests_of("health");
    assert_eq!(health.len(), 176);
    let both = tests_of("health,original");
    let original = tests_of("original");
    assert_eq!(original.len(), 138);
    assert!(original.iter().all(|t| both.contains(t)));
    // The committed health run's summary: the items a profile cannot give are those two.
    let o = run(&[
        "summary",
        &committed("results/h100/load-to-use-1127/health.csv.gz"),
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    let text = stdout(&o);
    let missing: Vec<&str> = text
        .lines()
        .filter(|l| l.contains("left out: no original-suite"))
        .map(|l| l.split("  ").find(|w| !w.is_empty()).unwrap_or_default())
        .collect();
    assert_eq!(
        missing,
        ["uniform: best and worst", "linear: best and worst"],
        "{text}"
    );
}

#[test]
fn the_latency_manual_states_no_count_that_no_test_keeps() {
    // The suite's count is the README's (the_readme_suite_table_lists_every_suite_with_its_test_count).
    let manual = std::fs::read_to_string(root().join("docs/latency.md")).unwrap();
    let manual = manual.split_whitespace().collect::<Vec<_>>().join(" ");
    let words: Vec<&str> = manual.split(' ').collect();
    for pair in words.windows(2) {
        let count = pair[0].chars().all(|c| c.is_ascii_digit()) && pair[0].len() >= 3;
        assert!(
            !(count && pair[1].starts_with("tests")),
            "docs/latency.md states `{} {}`",
            pair[0],
            pair[1]
        );
    }
}

// Claim: docs/fleet.md: "The seven runs of today's kernels (the six of `whole-run-1126/*`, and `workspace-1126`): 7 healthy, exit 0."
#[test]
fn the_seven_runs_of_todays_kernels_are_healthy() {
    let mut files: Vec<String> = ["", "cold/", "cold-2/", "final/", "grid-64/", "grid-set/"]
        .iter()
        .map(|d| committed(&format!("results/h100/whole-run-1126/{d}all.csv.gz")))
        .collect();
    files.push(committed("results/h100/workspace-1126/all.csv.gz"));
    let mut args = vec!["fleet"];
    args.extend(files.iter().map(String::as_str));
    let o = run(&args);
    let text = stdout(&o);
    assert_eq!(o.status.code(), Some(0), "{text}");
    assert!(
        text.contains("7 healthy, 0 degraded, 0 suspect, 0 not judged (exit 0)"),
        "{text}"
    );
}

// Claim: docs/fleet.md: "Among the GPUs it calls suspect: the runs of builds before"
#[test]
fn the_committed_folders_verdict_names_the_runs_the_manual_names() {
    let dir = tempdir("safety-folders");
    let json = dir.join("verdict.json");
    let o = run_within(
        &[
            "fleet",
            &committed("results/h100"),
            &committed("results/h200"),
            &committed("results/h100x2"),
            "--json",
            json.to_str().unwrap(),
        ],
        Duration::from_secs(300),
    );
    let text = stdout(&o);
    assert_eq!(o.status.code(), Some(3), "{text}");
    assert!(text.contains(", 0 degraded, "), "{text}");
    let doc: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&json).unwrap()).unwrap();
    let status = |file: &str| -> String {
        let label = committed(&format!("results/h100/{file}"));
        doc["groups"]
            .as_array()
            .unwrap()
            .iter()
            .flat_map(|g| g["gpus"].as_array().unwrap())
            .find(|g| g["label"] == label.as_str())
            .map_or_else(
                || format!("{label}: not in the verdict"),
                |g| g["status"].as_str().unwrap().to_string(),
            )
    };
    for file in [
        "whole-run/all-run1.csv.gz",
        "whole-run/all-run2.csv.gz",
        "bandwidth-full/run1.csv.gz",
        "transfer/run1.csv",
        "dispatch-barrier/kernel2-ssbo-1.csv",
        "drift/lasting-check-off.csv.gz",
        "l2-line-1127/all.csv.gz",
    ] {
        assert_eq!(status(file), "suspect", "{file}: {text}");
    }
    for file in ["whole-run/all-verify.csv.gz", "bandwidth/verify.csv.gz"] {
        assert_eq!(status(file), "not_judged", "{file}: {text}");
    }
}

#[cfg(unix)]
#[test]
fn a_refused_run_leaves_every_file_it_names_as_it_was() {
    use std::os::unix::fs::PermissionsExt;
    let dir = tempdir("safety-refused");
    let (csv, trace) = (dir.join("kept.csv"), dir.join("trace.tsv"));
    let ro = dir.join("ro.json");
    std::fs::write(&ro, "{}").unwrap();
    std::fs::set_permissions(&ro, std::fs::Permissions::from_mode(0o444)).unwrap();
    let refused = |extra: &[&str], why: &str| {
        std::fs::write(&csv, "old rows").unwrap();
        std::fs::write(&trace, "old trace").unwrap();
        let o = perftest()
            .args(["--device", lavapipe()])
            .args(ONE_TEST)
            .args(["--csv", csv.to_str().unwrap()])
            .args(extra)
            .env("PERFTEST_TRACE", &trace)
            .output()
            .unwrap();
        assert_eq!(o.status.code(), Some(2), "{extra:?}: {}", stderr(&o));
        assert!(stderr(&o).contains(why), "{extra:?}: {}", stderr(&o));
        // Neither the results file (truncated as the CSV streams) nor the trace.
        assert_eq!(
            std::fs::read_to_string(&csv).unwrap(),
            "old rows",
            "{extra:?}"
        );
        assert_eq!(
            std::fs::read_to_string(&trace).unwrap(),
            "old trace",
            "{extra:?}"
        );
    };
    // A `--json` refused (read-only, a folder) after the CSV's checks passed.
    refused(&["--json", ro.to_str().unwrap()], "it is read-only");
    refused(&["--json", dir.to_str().unwrap()], "it is a directory");
    // A device that is not there, found only once Vulkan lists the devices.
    refused(&["--device", "99"], "--device 99 does not exist");
    // A number of two digits is an index only, never part of a name ("LLVM 15.0.6").
    refused(&["--device", "15"], "--device 15 does not exist");
    // A trace that takes no bytes is said before the results file is touched.
    if Path::new("/dev/full").exists() {
        std::fs::write(&csv, "old rows").unwrap();
        let o = perftest()
            .args(["--device", lavapipe()])
            .args(ONE_TEST)
            .args(["--csv", csv.to_str().unwrap()])
            .env("PERFTEST_TRACE", "/dev/full")
            .output()
            .unwrap();
        assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
        assert!(
            stderr(&o).contains("cannot write PERFTEST_TRACE=/dev/full"),
            "{}",
            stderr(&o)
        );
        assert_eq!(std::fs::read_to_string(&csv).unwrap(), "old rows");
    }
    // `--csv -` and a JSON that is stdout too would interleave in one stream.
    for json in ["/dev/stdout", "/proc/self/fd/1"] {
        let o = run(&["--device", lavapipe(), "--csv", "-", "--json", json]);
        assert_eq!(o.status.code(), Some(2), "{json}: {}", stderr(&o));
        assert!(stderr(&o).contains("is stdout too"), "{}", stderr(&o));
        assert!(stdout(&o).is_empty(), "{}", stdout(&o));
    }
    // The run that passes its checks writes the trace, from its first line.
    let o = perftest()
        .args(["--device", lavapipe()])
        .args(ONE_TEST)
        .args(["--csv", csv.to_str().unwrap()])
        .env("PERFTEST_TRACE", &trace)
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", stderr(&o));
    let text = std::fs::read_to_string(&trace).unwrap();
    assert!(text.starts_with("0.0000\tprocess\tinstance\n"), "{text}");
    assert!(text.contains("\tprocess\tinstance dropped"), "{text}");
}

#[test]
fn a_dash_is_stdout_where_taken_and_refused_where_not() {
    let dir = tempdir("safety-dash");
    // `report -o -`: the page on stdout, no file named `-`.
    let o = perftest()
        .args(["report", "-o", "-", &fixture()])
        .current_dir(dir.path())
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", stderr(&o));
    let page = stdout(&o);
    assert!(
        page.starts_with("<!DOCTYPE html>"),
        "{}",
        &page[..page.len().min(200)]
    );
    assert!(page.trim_end().ends_with("</html>"));
    // `fleet --json -`, `--retest -` and `--text -`: stdout has the verdict's text; refused,
    // and no file named `-` is made.
    for flag in ["--json", "--retest", "--text"] {
        let o = perftest()
            .args(["fleet", &fixture(), flag, "-"])
            .current_dir(dir.path())
            .output()
            .unwrap();
        assert_eq!(o.status.code(), Some(2), "{flag}: {}", stderr(&o));
        assert!(
            stderr(&o).contains(&format!(
                "{flag} needs a file name: `-` (stdout) is not taken here"
            )),
            "{}",
            stderr(&o)
        );
    }
    assert!(!dir.join("-").exists());
}

#[cfg(unix)]
#[test]
fn a_verdict_stdout_cannot_take_is_an_error_not_silence() {
    let full = std::fs::OpenOptions::new()
        .write(true)
        .open("/dev/full")
        .unwrap();
    let fixture = fixture();
    for args in [
        vec!["fleet", fixture.as_str()],
        vec!["fleet", fixture.as_str(), "--host", "node4"],
    ] {
        let o = perftest()
            .args(&args)
            .stdout(full.try_clone().unwrap())
            .output()
            .unwrap();
        assert_eq!(o.status.code(), Some(2), "{args:?}: {}", stderr(&o));
        assert!(
            stderr(&o).contains("stdout: the verdict could not be written"),
            "{}",
            stderr(&o)
        );
    }
}

#[test]
fn fleets_two_outputs_in_one_file_are_refused() {
    let dir = tempdir("safety-fleet-outputs");
    let out = dir.join("out.json");
    let again = dir.join(".").join("out.json");
    for (a, b) in [
        ("--json", "--retest"),
        ("--json", "--text"),
        ("--retest", "--text"),
    ] {
        let o = run(&[
            "fleet",
            &fixture(),
            a,
            out.to_str().unwrap(),
            b,
            again.to_str().unwrap(),
        ]);
        assert_eq!(o.status.code(), Some(2), "{a} {b}: {}", stderr(&o));
        assert!(
            stderr(&o).contains(&format!("{a} {} and {b} ", out.display())),
            "{}",
            stderr(&o)
        );
        assert!(!out.exists());
    }
    // A node's name that no row's `host` column can spell.
    for host in ["", "two words"] {
        let o = run(&["fleet", &fixture(), "--host", host]);
        assert_eq!(o.status.code(), Some(2), "{host:?}: {}", stderr(&o));
        assert!(stderr(&o).contains("--host"), "{}", stderr(&o));
    }
}

#[cfg(unix)]
#[test]
fn a_fifo_in_a_fleets_folder_is_passed_over_not_waited_on() {
    let dir = tempdir("safety-fleet-fifo");
    std::fs::copy(fixture(), dir.join("run.csv")).unwrap();
    let fifo = dir.join("stray.csv");
    let made = std::process::Command::new("mkfifo")
        .arg(&fifo)
        .status()
        .is_ok_and(|s| s.success());
    assert!(made, "mkfifo");
    let o = run_within(&["fleet", dir.to_str().unwrap()], Duration::from_secs(60));
    let text = stdout(&o);
    assert!(text.contains("perftest fleet: 1 GPU(s)"), "{text}");
    assert!(
        text.contains("stray.csv") && text.contains("not a regular file"),
        "{text}"
    );
}

#[test]
fn damaged_counts_and_cut_gzip_are_named() {
    let dir = tempdir("safety-damaged");
    // A row whose loads per dispatch is 0: its time cannot be set per load beside others.
    let text = std::fs::read_to_string(fixture()).unwrap();
    let mut rdr = csv::Reader::from_reader(text.as_bytes());
    let header = rdr.headers().unwrap().clone();
    let col = header
        .iter()
        .position(|h| h == "loads_per_dispatch")
        .unwrap();
    let mut w = csv::Writer::from_path(dir.join("zero.csv")).unwrap();
    w.write_record(&header).unwrap();
    for (i, r) in rdr.records().enumerate() {
        let r = r.unwrap();
        let cells: Vec<&str> = r
            .iter()
            .enumerate()
            .map(|(c, v)| if i == 0 && c == col { "0" } else { v })
            .collect();
        w.write_record(cells).unwrap();
    }
    w.flush().unwrap();
    drop(w);
    let (zero, whole) = (dir.join("zero.csv"), fixture());
    let zero = zero.to_str().unwrap();
    for args in [
        vec!["compare", &whole, zero],
        vec!["summary", zero],
        vec!["fleet", zero],
    ] {
        let sub = args[0];
        let o = run(&args);
        let said = stdout(&o) + &stderr(&o);
        assert_ne!(o.status.code(), Some(0), "{sub}: {said}");
        assert!(said.contains("is no count of loads"), "{sub}: {said}");
    }
    // A gzip file cut inside its header line: said so, not called empty.
    let mut gz = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::default());
    std::io::Write::write_all(&mut gz, text.as_bytes()).unwrap();
    let bytes = gz.finish().unwrap();
    let cut = dir.join("cut.csv.gz");
    std::fs::write(&cut, &bytes[..40]).unwrap();
    let o = run(&["summary", cut.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    assert!(
        stderr(&o).contains("a gzip file cut short: it ends before its first whole line"),
        "{}",
        stderr(&o)
    );
}

/// A perftest for the health check's tests, in `dir` (made by [`arithmetic_fleet`]): its
/// `fleet` is the real one; its run keeps its arguments (`dir/args`) and writes the slow
/// node's rows (its re-measure's into `confirm.csv`), then does what `dir/mode` says: exits
/// as a crash, marks a row `error` and exits 1, sleeps 3 s (then says it slept), or writes
/// `dir/one-gpu.csv` or `dir/swapped.csv` instead.
#[cfg(unix)]
fn fake_perftest(dir: &Path) -> PathBuf {
    use std::os::unix::fs::PermissionsExt;
    let fake = dir.join("perftest");
    std::fs::write(
        &fake,
        format!(
            "#!/usr/bin/env bash\n\
             if [ \"$1\" = fleet ]; then exec {real} \"$@\"; fi\n\
             printf '%s\\n' \"$@\" >{dir}/args\n\
             mode=$(cat {dir}/mode 2>/dev/null)\n\
             while [ $# -gt 0 ]; do [ \"$1\" = --csv ] && csv=$2; shift; done\n\
             case \"$csv\" in *confirm.csv) cp {dir}/slow-again.csv \"$csv\" ;; *) cp {dir}/slow.csv \"$csv\" ;; esac\n\
             case \"$mode\" in\n\
               one-gpu | swapped) cp {dir}/$mode.csv \"$csv\" ;;\n\
               crash) exit 139 ;;\n\
               error) sed -i '2s/,ok,/,error,/' \"$csv\"; exit 1 ;;\n\
               sleep) sleep 3; echo slept >>{dir}/slept ;;\n\
             esac\n",
            real = env!("CARGO_BIN_EXE_perftest"),
            dir = dir.display()
        ),
    )
    .unwrap();
    std::fs::set_permissions(&fake, std::fs::Permissions::from_mode(0o755)).unwrap();
    fake
}

/// Runs deploy/slurm/healthcheck.sh as node `node` with the configuration `conf`.
fn health_check(conf: &Path, node: &str, cwd: &Path) -> std::process::Child {
    std::process::Command::new(root().join("deploy/slurm/healthcheck.sh"))
        .env("PERFTEST_HEALTH_CONF", conf)
        .env("SLURMD_NODENAME", node)
        .current_dir(cwd)
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap()
}

#[cfg(unix)]
#[test]
fn the_health_check_judges_no_unfinished_run_and_writes_only_its_own_folder() {
    use std::os::unix::fs::PermissionsExt;
    let dir = tempdir("safety-health-run");
    arithmetic_fleet(&dir);
    let fake = fake_perftest(&dir);
    let conf_with = |name: &str, base: &Path, extra: &str| {
        let conf = dir.join(name);
        std::fs::write(
            &conf,
            format!(
                "PERFTEST={}\nPERFTEST_ARGS='--suite health'\nPERFTEST_HISTORY={}/hist\n\
                 PERFTEST_HEALTH_DIR={}\n{extra}",
                fake.display(),
                dir.display(),
                base.display()
            ),
        )
        .unwrap();
        std::fs::set_permissions(&conf, std::fs::Permissions::from_mode(0o644)).unwrap();
        conf
    };
    let conf = conf_with("health.conf", &dir.join("health"), "");
    let mode = |m: &str| std::fs::write(dir.join("mode"), m).unwrap();
    let finish = |child: std::process::Child| {
        let o = child.wait_with_output().unwrap();
        (o.status.code(), stdout(&o) + &stderr(&o))
    };
    // The slow rows of a run that ended well: degraded (exit 1).
    mode("");
    let (code, said) = finish(health_check(&conf, "node4", &dir));
    assert_eq!(code, Some(1), "{said}");
    // The same rows from a run that crashed: not judged (exit 2), never a verdict.
    mode("crash");
    let (code, said) = finish(health_check(&conf, "node4", &dir));
    assert_eq!(code, Some(2), "{said}");
    assert!(
        said.contains("did not finish (perftest exited 139"),
        "{said}"
    );
    // A test that failed on the node's GPU (a Vulkan error): exit 1, said so.
    mode("error");
    let (code, said) = finish(health_check(&conf, "node4", &dir));
    assert_eq!(code, Some(1), "{said}");
    assert!(said.contains("1 test(s) of the profile failed"), "{said}");
    // Two checks of one node at once: the second waits for the first; both judge their own
    // run (exit 1 each), neither finds its files gone.
    mode("sleep");
    let first = health_check(&conf, "node4", &dir);
    std::thread::sleep(Duration::from_millis(500));
    let second = health_check(&conf, "node4", &dir);
    let (a, b) = (finish(first), finish(second));
    assert_eq!((a.0, b.0), (Some(1), Some(1)), "{}\n{}", a.1, b.1);
    // A check stopped (SIGTERM) stops the run it waits for: it never goes on timing GPUs.
    let _ = std::fs::remove_file(dir.join("slept"));
    let child = health_check(&conf, "node4", &dir);
    std::thread::sleep(Duration::from_millis(1000));
    let killed = std::process::Command::new("kill")
        .args(["-TERM", &child.id().to_string()])
        .status()
        .unwrap();
    assert!(killed.success());
    let (code, said) = finish(child);
    assert_eq!(code, Some(143), "{said}");
    assert!(said.contains("stopped by SIGTERM"), "{said}");
    std::thread::sleep(Duration::from_millis(3000));
    assert!(
        !dir.join("slept").exists(),
        "the profile run went on after the check stopped"
    );
    mode("");
    // A GPU fewer than the node had in the history (one fell off the bus): exit 1, naming
    // the GPU not seen; the same count with a GPU replaced since is healthy.
    node_rows(
        &dir,
        "hist/node5.csv",
        &[(0, "uuid-5", 1.001), (1, "uuid-6", 1.003)],
    );
    node_rows(&dir, "one-gpu.csv", &[(0, "uuid-5", 1.002)]);
    node_rows(
        &dir,
        "swapped.csv",
        &[(0, "uuid-5", 1.002), (1, "uuid-7", 1.004)],
    );
    mode("one-gpu");
    let (code, said) = finish(health_check(&conf, "node5", &dir));
    assert_eq!(code, Some(1), "{said}");
    assert!(
        said.contains(
            "perftest-health: node5, uuid-6, NVIDIA H100 80GB HBM3: missing: 1 GPU(s) in this \
             run, 2 in the history ("
        ),
        "{said}"
    );
    assert_eq!(said.matches(" missing: ").count(), 1, "{said}");
    mode("swapped");
    let (code, said) = finish(health_check(&conf, "node5", &dir));
    assert_eq!(code, Some(0), "{said}");
    mode("");
    // A perftest older than the check (its `fleet` has no `--host`): not judged, said so.
    let older = dir.join("perftest-older");
    std::fs::write(
        &older,
        format!(
            "#!/usr/bin/env bash
             if [ \"$1 $2\" = 'fleet --help' ]; then echo 'Usage: pt-old fleet [OPTIONS] <PATH>...'; exit 0; fi
             exec {} \"$@\"\n",
            fake.display()
        ),
    )
    .unwrap();
    std::fs::set_permissions(&older, std::fs::Permissions::from_mode(0o755)).unwrap();
    let with_older = conf_with(
        "older.conf",
        &dir.join("health"),
        &format!("PERFTEST={}\n", older.display()),
    );
    let (code, said) = finish(health_check(&with_older, "node4", &dir));
    assert_eq!(code, Some(2), "{said}");
    assert!(said.contains("`fleet` has no --host"), "{said}");
    // A node's name that is no folder name, and a configuration that fails as shell: exit 2.
    let (code, said) = finish(health_check(&conf, "../escape", &dir));
    assert_eq!(code, Some(2), "{said}");
    assert!(said.contains("is no folder name"), "{said}");
    assert!(!dir.join("escape").exists());
    for (name, line) in [
        ("false.conf", "false\n"),
        ("unset.conf", "X=$NO_SUCH_VARIABLE\n"),
    ] {
        let bad = conf_with(name, &dir.join("health"), line);
        let (code, said) = finish(health_check(&bad, "node4", &dir));
        assert_eq!(code, Some(2), "{name}: {said}");
        assert!(
            said.contains("does not read as shell assignments"),
            "{said}"
        );
    }
    // A folder others may write into (or another user's, where links to system files could
    // wait): refused before anything is written.
    let open = dir.join("open");
    std::fs::create_dir(&open).unwrap();
    std::fs::set_permissions(&open, std::fs::Permissions::from_mode(0o777)).unwrap();
    let victim = dir.join("victim");
    std::fs::write(&victim, "kept").unwrap();
    std::fs::create_dir(open.join("node4")).unwrap();
    std::os::unix::fs::symlink(&victim, open.join("node4/perftest.log")).unwrap();
    let (code, said) = finish(health_check(
        &conf_with("open.conf", &open, ""),
        "node4",
        &dir,
    ));
    assert_eq!(code, Some(2), "{said}");
    assert!(said.contains("writable by it alone"), "{said}");
    assert_eq!(std::fs::read_to_string(&victim).unwrap(), "kept");
}

/// Writes `name` in `dir`: node1's rows of the history (`hist/node1.csv`) as host `node5`,
/// once per `(device index, uuid, time factor)`.
fn node_rows(dir: &Path, name: &str, gpus: &[(u32, &str, f64)]) {
    let mut reader = csv::Reader::from_path(dir.join("hist/node1.csv")).unwrap();
    let header = reader.headers().unwrap().clone();
    let col = |c: &str| header.iter().position(|h| h == c).unwrap();
    let rows: Vec<csv::StringRecord> = reader.records().map(Result::unwrap).collect();
    let mut writer = csv::Writer::from_path(dir.join(name)).unwrap();
    writer.write_record(&header).unwrap();
    for (index, uuid, k) in gpus {
        for r in &rows {
            let mut cells: Vec<String> = r.iter().map(str::to_string).collect();
            cells[col("device_index")] = index.to_string();
            cells[col("host")] = "node5".into();
            cells[col("device_uuid")] = uuid.to_string();
            for c in ["ms_median", "ms_min", "ms_mean"] {
                let v: f64 = cells[col(c)].parse().unwrap();
                cells[col(c)] = format!("{:.6}", v * k);
            }
            writer.write_record(&cells).unwrap();
        }
    }
    writer.flush().unwrap();
}

#[test]
fn a_this_run_that_checks_nothing_is_refused() {
    let dir = tempdir("safety-this-run");
    let file = fixture();
    // No folder, and a folder none of the paths' GPUs was read from: usage errors (exit 2),
    // not a verdict that checked no host.
    for (this_run, why) in [
        (file.clone(), "is no folder"),
        (
            dir.to_str().unwrap().to_string(),
            "no GPU of the paths was read from it",
        ),
    ] {
        let o = run(&["fleet", &file, "--this-run", &this_run]);
        assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
        assert!(stderr(&o).contains(why), "{}", stderr(&o));
    }
}
