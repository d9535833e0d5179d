//! The analysis scripts beside their results: `results/h100/uniform/analysis.py` on a real
//! (lavapipe) run, and `results/h100/curves.py` on the committed latency and bandwidth sweeps.

use crate::common::*;

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
        "--drift-limit",
        LAVAPIPE_DRIFT_LIMIT,
        "--samples",
        "2",
        "--warmup",
        "0",
        "--csv",
        csv.to_str().unwrap(),
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    let script = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/results/h100/uniform/analysis.py"
    );
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
}

/// `results/h100/curves.py` with `args`, from the repository root.
fn curves(args: &[&str]) -> std::process::Output {
    std::process::Command::new("python3")
        .arg("results/h100/curves.py")
        .args(args)
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .output()
        .expect("run python3 results/h100/curves.py")
}

#[test]
fn curves_prints_the_h100_latency_sweep_and_its_plateau_table() {
    let o = curves(&[
        "results/h100/latency/run1.csv",
        "--plateau",
        "L1=4KB-16KB",
        "--plateau",
        "memory=64MB-256MB",
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    let out = String::from_utf8_lossy(&o.stdout);
    // The table's rows are the committed figures (results/README.md quotes them).
    assert!(
        out.contains("| resource | L1 (4 KB–16 KB) | memory (64 MB–256 MB) |"),
        "{out}"
    );
    assert!(
        out.contains("| ByteAddressBuffer | 52 clk / 26 ns (52–52) | 708 clk / 358 ns (675–724) |"),
        "{out}"
    );
    // A size with a fraction of a MB is read, and the registers are their own line.
    assert!(out.contains("  1.25 MB "), "{out}");
    assert!(out.contains("registers, no load\n      14.7 clk"), "{out}");
    for spec in ["L1", "L1=4KB", "L1=4XB-16KB"] {
        let o = curves(&["results/h100/latency/run1.csv", "--plateau", spec]);
        assert!(!o.status.success(), "{spec}");
        assert!(stderr(&o).contains("bad"), "{spec}: {}", stderr(&o));
    }
}

#[test]
fn curves_prints_the_h100_bandwidth_sweep_and_its_plateau_table() {
    let o = curves(&[
        "results/h100/bandwidth/run1.csv.gz",
        "--plateau",
        "L1=4KB-128KB",
        "--plateau",
        "memory=1GB-1GB",
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    let out = String::from_utf8_lossy(&o.stdout);
    assert!(
        out.contains("| resource | L1 (4 KB–128 KB) | memory (1 GB–1 GB) |"),
        "{out}"
    );
    assert!(
        out.contains(
            "| ByteAddressBuffer.Load4 | 117.6 B/clk/CU, 30.70 TB/s | 12.1 B/clk/CU, 3.15 TB/s |"
        ),
        "{out}"
    );
    // A size with a fraction of a MB and the gigabyte are read.
    assert!(out.contains("  1.25 MB "), "{out}");
    assert!(out.contains("     1 GB "), "{out}");
    // The committed files are this script's output.
    // The bandwidth sweep is committed gzipped: the script reads either.
    for (dir, file, plateaus) in [
        (
            "bandwidth",
            "run1.csv.gz",
            &["L1=4KB-128KB", "L2=8MB-32MB", "memory=1GB-1GB"][..],
        ),
        (
            "latency",
            "run1.csv",
            &[
                "L1=4KB-16KB",
                "L2=64KB-16MB",
                "far L2=28MB-48MB",
                "memory=64MB-256MB",
            ][..],
        ),
    ] {
        let csv = format!("results/h100/{dir}/{file}");
        let mut args = vec![csv.as_str()];
        for p in plateaus {
            args.extend(["--plateau", p]);
        }
        let o = curves(&args);
        let committed = std::fs::read_to_string(
            std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
                .join(format!("results/h100/{dir}/curves.txt")),
        )
        .unwrap();
        assert_eq!(String::from_utf8_lossy(&o.stdout), committed, "{dir}");
    }
}
