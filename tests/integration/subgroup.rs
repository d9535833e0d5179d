//! Every subgroup width: the suites that need no GPU feature verify on lavapipe at 4 lanes as
//! at its default 8, each subgroup test against the width its kernel ran at, which its row
//! says (`subgroup_size`).

use crate::common::*;

/// The subgroup tests' rows of a CSV: (test, status, subgroup_size).
fn subgroup_rows(csv: &std::path::Path) -> Vec<(String, String, String)> {
    csv_rows(csv)
        .into_iter()
        .filter(|r| r["test"].starts_with("subgroup "))
        .map(|r| {
            (
                r["test"].clone(),
                r["status"].clone(),
                r["subgroup_size"].clone(),
            )
        })
        .collect()
}

#[test]
fn the_suites_verify_at_four_lanes_with_the_width_each_kernel_ran_at() {
    let dir = tempdir("four-lanes");
    // A shader cache of the 4-lane runs' own: lavapipe keys it without the width, so the
    // kernels built here at 4 lanes would otherwise run in other tests at 8. It is kept
    // between runs (under target/): what it holds was built at 4 lanes.
    let cache = shader_cache(Some("128"));
    let csv = dir.join("w4.csv");
    // lavapipe at 128-bit vectors: 4-lane subgroups (what it does on a CPU without AVX).
    let o = perftest()
        .env("LP_NATIVE_VECTOR_WIDTH", "128")
        .env("MESA_SHADER_CACHE_DIR", &cache)
        .args(["--device", lavapipe(), "--groups", "2", "--verify"])
        .args(["--suite", "original,instructions,write,matrix"])
        .args(["--csv", csv.to_str().unwrap()])
        .output()
        .expect("perftest runs");
    assert!(o.status.success(), "{}\n{}", stdout(&o), stderr(&o));
    assert!(stderr(&o).contains(", 0 failed"), "{}", stderr(&o));
    let rows = subgroup_rows(&csv);
    assert_eq!(rows.len(), 4, "{rows:?}");
    for (test, status, width) in &rows {
        assert_eq!(status, "ok", "{test}");
        assert_eq!(width, "4", "{test}");
    }
    // The rows of other tests have no width.
    assert!(csv_rows(&csv)
        .iter()
        .filter(|r| !r["test"].starts_with("subgroup "))
        .all(|r| r["subgroup_size"].is_empty()));
    // Then at lavapipe's own width with the same cache: the kernels built at 4 lanes run
    // while the device reports 8 (or 16) — the latency kernels of the instruction and matrix
    // suites too, whose lanes compared are the kernel's — and every test still verifies.
    let csv = dir.join("stale.csv");
    let o = perftest()
        .env("MESA_SHADER_CACHE_DIR", &cache)
        .args(["--device", lavapipe(), "--groups", "2", "--verify"])
        .args(["--suite", "instructions,matrix"])
        .args(["--csv", csv.to_str().unwrap()])
        .output()
        .expect("perftest runs");
    assert!(o.status.success(), "{}\n{}", stdout(&o), stderr(&o));
    assert!(stderr(&o).contains(", 0 failed"), "{}", stderr(&o));
    for (test, status, width) in subgroup_rows(&csv) {
        assert_eq!(status, "ok", "{test}");
        assert!(
            width.parse::<u32>().is_ok_and(|w| w >= 4),
            "{test}: {width}"
        );
    }
}

#[test]
fn a_kernel_at_another_width_than_the_device_reports_is_verified_at_its_own() {
    // The device pretends its subgroups are twice as wide as its kernels run: the references
    // at the device's width would mismatch every test but the shuffle; at the kernels' own,
    // each verifies.
    let dir = tempdir("other-width");
    let csv = dir.join("w.csv");
    let o = run(&[
        "--device",
        lavapipe(),
        "--groups",
        "2",
        "--verify",
        "--suite",
        "instructions",
        "--filter",
        "subgroup",
        "--fault",
        "subgroup-width",
        "--csv",
        csv.to_str().unwrap(),
    ]);
    assert!(o.status.success(), "{}\n{}", stdout(&o), stderr(&o));
    let rows = subgroup_rows(&csv);
    assert_eq!(rows.len(), 4, "{rows:?}");
    for (test, status, width) in &rows {
        assert_eq!(status, "ok", "{test}");
        assert!(
            width.parse::<u32>().is_ok_and(|w| w >= 4),
            "{test}: {width}"
        );
    }
}
