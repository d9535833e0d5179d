//! `scripts/uniform-analysis.py` on a real (lavapipe) run: the three tables come out.

mod common;
use common::*;

#[test]
fn the_analysis_script_reads_a_run_and_prints_its_three_tables() {
    let dir = tempdir("analysis");
    let csv = dir.join("run.csv");
    let o = run(&[
        "--device",
        lavapipe(),
        "--suite",
        "all",
        "--filter",
        "Buffer<R8>.Load",
        "--filter",
        "Texture2D<RG8>",
        "--filter",
        "Control",
        "--groups",
        "1",
        "--samples",
        "2",
        "--warmup",
        "0",
        "--csv",
        csv.to_str().unwrap(),
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    let script = concat!(env!("CARGO_MANIFEST_DIR"), "/scripts/uniform-analysis.py");
    let out = std::process::Command::new("python3")
        .args([script, csv.to_str().unwrap(), csv.to_str().unwrap()])
        .args(["--verify", csv.to_str().unwrap()])
        .output()
        .expect("python3 runs");
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "{text}\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
    for needle in [
        "## 1. Uniform loads",
        "| `Buffer<R8>.Load` |",
        "| `Texture2D<RG8>.Sample(bilinear)` |",
        "## 2. Nearest sampling",
        "| `Sample(nearest, immutable sampler)` | 3 |",
        "| `RG8` random |",
        "## 3. Ceilings",
        "| `Control: loop 2D` (no load) |",
        "| `Texture2D<RG8>.Sample(nearest) linear` |",
        "Largest difference between runs over these tests: 0.00 %",
    ] {
        assert!(text.contains(needle), "no `{needle}` in:\n{text}");
    }
    // Not a perftest CSV: exit 2 with a message.
    let bad = dir.join("bad.csv");
    std::fs::write(&bad, "a,b\n1,2\n").unwrap();
    let out = std::process::Command::new("python3")
        .args([script, bad.to_str().unwrap()])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    std::fs::remove_dir_all(dir).ok();
}
