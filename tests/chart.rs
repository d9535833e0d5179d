//! `scripts/chart.py` and `scripts/latency-chart.py`: charts and tables from CSV fixtures and committed results (needs python3 + matplotlib).

mod common;
use common::tempdir;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

fn fixture(name: &str) -> PathBuf {
    root().join("tests/fixtures").join(name)
}

/// Fails (never skips) when python3 or matplotlib is missing: CI installs them.
fn require_matplotlib() {
    let o = Command::new("python3")
        .args(["-c", "import matplotlib"])
        .output()
        .unwrap_or_else(|e| panic!("cannot run python3 ({e}); install Python 3"));
    assert!(
        o.status.success(),
        "matplotlib is not importable by python3; run \
         `pip install -r scripts/requirements-chart.txt`\n{}",
        String::from_utf8_lossy(&o.stderr)
    );
}

fn chart(args: &[&std::ffi::OsStr]) -> Output {
    Command::new("python3")
        .arg(root().join("scripts/chart.py"))
        .args(args)
        .current_dir(root())
        .output()
        .expect("run python3 scripts/chart.py")
}

fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

fn assert_png(path: &Path) {
    let bytes = std::fs::read(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    assert!(
        bytes.starts_with(b"\x89PNG\r\n\x1a\n"),
        "{} is not a PNG",
        path.display()
    );
    assert!(
        bytes.len() > 5 * 1024,
        "{}: only {} bytes",
        path.display(),
        bytes.len()
    );
}

#[test]
fn png_and_svg_of_two_devices() {
    require_matplotlib();
    let dir = tempdir("chart-two");
    let (png, svg) = (dir.join("cmp.png"), dir.join("cmp.svg"));
    let (a, b) = (fixture("chart-h100.csv"), fixture("chart-h100-pcie.csv"));
    let o = chart(&[
        "-o".as_ref(),
        png.as_os_str(),
        "-o".as_ref(),
        svg.as_os_str(),
        a.as_os_str(),
        b.as_os_str(),
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert_png(&png);
    let text = std::fs::read_to_string(&svg).unwrap();
    assert!(text.contains("<svg"), "not an SVG");
    assert!(
        text.contains("cbuffer{float4} load uniform"),
        "test name missing from the SVG"
    );
    assert!(
        text.contains("texture sample bilinear"),
        "family label missing from the SVG"
    );
    assert!(
        text.contains("chart-h100-pcie"),
        "series label missing from the SVG"
    );
}

#[test]
fn positional_output_and_other_metric() {
    require_matplotlib();
    let dir = tempdir("chart-positional");
    let png = dir.join("h100.png");
    let a = fixture("chart-h100.csv");
    let o = chart(&[
        png.as_os_str(),
        a.as_os_str(),
        "--metric".as_ref(),
        "gloads_per_s".as_ref(),
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert_png(&png);
}

#[test]
fn missing_column_exits_2_naming_it() {
    let dir = tempdir("chart-missing");
    let csv = dir.join("old.csv");
    std::fs::write(
        &csv,
        "device_index,device_name,test,ratio\n0,GPU,Buffer<R8>.Load uniform,1.5\n",
    )
    .unwrap();
    let out = dir.join("old.png");
    let o = chart(&[out.as_os_str(), csv.as_os_str()]);
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    let err = stderr(&o);
    assert!(
        err.contains("old.csv") && err.contains("missing column family"),
        "{err}"
    );
    assert!(!out.exists());
}

#[test]
fn output_must_be_png_or_svg() {
    let dir = tempdir("chart-ext");
    let out = dir.join("chart.pdf");
    let o = chart(&[out.as_os_str(), fixture("chart-h100.csv").as_os_str()]);
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    assert!(
        stderr(&o).contains("must end in .png or .svg"),
        "{}",
        stderr(&o)
    );
}

#[test]
fn runs_against_published_references() {
    require_matplotlib();
    let dir = tempdir("chart-references");
    let (png, svg) = (dir.join("ref.png"), dir.join("ref.svg"));
    let a = fixture("chart-h100.csv");
    let o = chart(&[
        "-o".as_ref(),
        png.as_os_str(),
        "-o".as_ref(),
        svg.as_os_str(),
        a.as_os_str(),
        "--reference".as_ref(),
        "3090".as_ref(),
        "--reference".as_ref(),
        "gcn5".as_ref(),
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert_png(&png);
    let text = std::fs::read_to_string(&svg).unwrap();
    for label in [
        "chart-h100 (this run)",
        "Ampere (RTX 3090), Direct3D 11, published",
        // `gcn5` is the architecture exactly: GCN5, not GCN5 7nm.
        "GCN5 (Vega Frontier Edition), Direct3D 11, published",
        "Texture2D&lt;RGBA32F&gt;.Sample(bilinear) random",
        "texture sample bilinear",
        "log scale",
    ] {
        assert!(text.contains(label), "{label} missing from the SVG");
    }
    assert!(!text.contains("GCN5 7nm"));
    // --filter keeps the matching tests only.
    let o = chart(&[
        svg.as_os_str(),
        a.as_os_str(),
        "--reference".as_ref(),
        "all".as_ref(),
        "--filter".as_ref(),
        "cbuffer".as_ref(),
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    let text = std::fs::read_to_string(&svg).unwrap();
    assert!(text.contains("cbuffer{float4} load random"));
    assert!(text.contains("Gen9 (HD 630 / i7 6700K)"));
    assert!(!text.contains("Buffer&lt;R8&gt;.Load uniform"));
}

#[test]
fn unknown_or_ambiguous_reference_exits_2_with_the_list() {
    let dir = tempdir("chart-bad-reference");
    let out = dir.join("ref.png");
    let a = fixture("chart-h100.csv");
    for (name, expected, listed) in [
        ("rdna3", "matches no published GPU", 13),
        ("nvidia", "is ambiguous: it matches 6", 6),
    ] {
        let o = chart(&[
            out.as_os_str(),
            a.as_os_str(),
            "--reference".as_ref(),
            name.as_ref(),
        ]);
        assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
        let err = stderr(&o);
        assert!(err.contains(expected), "{err}");
        assert_eq!(
            err.lines().filter(|l| l.starts_with("  ")).count(),
            listed,
            "{err}"
        );
    }
    assert!(!out.exists());
}

fn latency_chart(args: &[&std::ffi::OsStr]) -> Output {
    Command::new("python3")
        .arg(root().join("scripts/latency-chart.py"))
        .args(args)
        .current_dir(root())
        .output()
        .expect("run python3 scripts/latency-chart.py")
}

#[test]
fn latency_chart_draws_the_h100_sweep_and_its_plateau_table() {
    require_matplotlib();
    let dir = tempdir("latency-chart");
    let png = dir.join("latency.png");
    let csv = root().join("results/h100/latency/run1.csv");
    let o = latency_chart(&[
        csv.as_os_str(),
        png.as_os_str(),
        "--plateau".as_ref(),
        "L1=4KB-16KB".as_ref(),
        "--plateau".as_ref(),
        "memory=64MB-256MB".as_ref(),
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert_png(&png);
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
}

#[test]
fn latency_chart_rejects_a_bad_plateau() {
    let csv = root().join("results/h100/latency/run1.csv");
    let png = tempdir("latency-chart-bad").join("x.png");
    for spec in ["L1", "L1=4KB", "L1=4XB-16KB"] {
        let o = latency_chart(&[
            csv.as_os_str(),
            png.as_os_str(),
            "--plateau".as_ref(),
            spec.as_ref(),
        ]);
        assert!(!o.status.success(), "{spec}");
        assert!(stderr(&o).contains("bad"), "{spec}: {}", stderr(&o));
        assert!(!png.exists(), "{spec}: no chart after a bad argument");
    }
}

fn bandwidth_chart(args: &[&std::ffi::OsStr]) -> Output {
    Command::new("python3")
        .arg(root().join("scripts/bandwidth-chart.py"))
        .args(args)
        .current_dir(root())
        .output()
        .expect("run python3 scripts/bandwidth-chart.py")
}

#[test]
fn bandwidth_chart_draws_the_h100_sweep_and_its_plateau_table() {
    require_matplotlib();
    let dir = tempdir("bandwidth-chart");
    let png = dir.join("bandwidth.png");
    let csv = root().join("results/h100/bandwidth/run1.csv");
    let o = bandwidth_chart(&[
        csv.as_os_str(),
        png.as_os_str(),
        "--plateau".as_ref(),
        "L1=4KB-128KB".as_ref(),
        "--plateau".as_ref(),
        "memory=1GB-1GB".as_ref(),
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert_png(&png);
    let out = String::from_utf8_lossy(&o.stdout);
    // The table's rows are the committed figures (results/README.md quotes them).
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
    // A bad range is refused before anything is drawn.
    let bad = dir.join("bad.png");
    let o = bandwidth_chart(&[
        csv.as_os_str(),
        bad.as_os_str(),
        "--plateau".as_ref(),
        "L1=4XB-1GB".as_ref(),
    ]);
    assert!(!o.status.success());
    assert!(stderr(&o).contains("bad size"), "{}", stderr(&o));
    assert!(!bad.exists());
}
