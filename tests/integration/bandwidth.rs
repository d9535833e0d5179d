//! The bandwidth suite on lavapipe: every resource's checksums (buffers and images) verified
//! against the CPU's under the validation layer, at a size every group reads whole, sizes where groups read chunks of
//! their own (in the small and the large pool), sizes over a limit as `unsupported` rows
//! naming it, and a corrupted reference caught.

use crate::common::*;

/// 4 KB (read whole by every group), 64 KB (the uniform buffer's last), 80 KB (its first
/// unsupported), 4 MB (a chunk per group) and 80 MB (the large pool).
const SIZES: [&str; 5] = ["4 KB", "64 KB", "80 KB", "4 MB", "80 MB"];

fn args<'a>(csv: &'a str, extra: &[&'a str]) -> Vec<&'a str> {
    args_at(csv, &SIZES, extra)
}

fn args_at<'a>(csv: &'a str, sizes: &[&'a str], extra: &[&'a str]) -> Vec<&'a str> {
    let mut a = vec![
        "--device",
        lavapipe(),
        "--suite",
        "bandwidth",
        "--verify",
        "--groups",
        "3",
        "--csv",
        csv,
    ];
    a.extend(sizes.iter().flat_map(|s| ["--filter", *s]));
    a.extend_from_slice(extra);
    a
}

#[test]
fn every_resource_verifies_under_validation_and_limits_give_unsupported_rows() {
    let dir = tempdir("bandwidth");
    let csv = dir.join("bandwidth.csv");
    let o = run(&args(csv.to_str().unwrap(), &["--validation"]));
    assert!(o.status.success(), "{}\n{}", stdout(&o), stderr(&o));
    assert_no_validation_messages(&o);
    let rows = csv_rows(&csv);
    // 12 read resources (8 buffers, 4 images) and 3 others (buffer and image stores, a
    // shader copy) × 5 sizes, and reads of host memory, the grid-stride copy and the image
    // stores' three other layouts and accesses at the 3 of them that begin an octave, and the
    // cold host read at the one of those from 1 MB on (4 MB).
    assert_eq!(rows.len(), 91, "{}", stdout(&o));
    let row = |name: &str| {
        rows.iter()
            .find(|r| r["test"] == name)
            .unwrap_or_else(|| panic!("no row {name}"))
    };
    for r in &rows {
        // Every row of the sweep carries the working set it ran over as a number, which the
        // summary and the fleet place it by: the size its name ends with.
        let mut words = r["test"].rsplit(' ');
        let (unit, number) = (words.next().unwrap(), words.next().unwrap());
        let named = perftest_results::summary::size_bytes(&format!("{number} {unit}"));
        assert!(named.is_some(), "{r:?}");
        assert_eq!(r["working_set_bytes"].parse::<u64>().ok(), named, "{r:?}");
        let uniform_over = r["test"].starts_with("bandwidth: cbuffer{uint4} load")
            && !r["test"].ends_with(" 4 KB")
            && !r["test"].ends_with(" 64 KB");
        if uniform_over {
            assert_eq!(r["status"], "unsupported", "{r:?}");
            assert!(r["reason"].contains("maxUniformBufferRange"), "{r:?}");
        } else {
            assert_eq!(r["status"], "ok", "{r:?}");
            assert_eq!(r["family"], "bandwidth");
        }
    }
    let r = row("bandwidth: StructuredBuffer<float>.Load 80 MB");
    assert_eq!(
        (r["resource"].as_str(), r["format"].as_str()),
        ("STORAGE_BUFFER", "float")
    );
    // 256 loads per invocation, 4-byte loads.
    assert_eq!(r["loads_per_dispatch"], (3 * 256 * 256).to_string());
    let r = row("bandwidth: Texture2D<RGBA8>.Sample(bilinear) 4 MB");
    assert_eq!(
        (r["resource"].as_str(), r["format"].as_str()),
        ("COMBINED_IMAGE_SAMPLER", "R8G8B8A8_UNORM")
    );
}

#[test]
fn the_cold_host_read_reads_its_set_once_after_emptying_the_caches() {
    let dir = tempdir("bandwidth-cold");
    let csv = dir.join("cold.csv");
    let o = run(&[
        "--device",
        lavapipe(),
        "--suite",
        "bandwidth",
        "--filter",
        "once, cold 1 MB",
        "--filter",
        "from host-coherent memory 1 MB",
        "--samples",
        "2",
        "--validation",
        "--csv",
        csv.to_str().unwrap(),
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    // The fills between the timed dispatches are ordered (each after the last).
    assert_no_validation_messages(&o);
    let rows = csv_rows(&csv);
    assert_eq!(rows.len(), 2, "{rows:?}");
    let (cold, warm) = if rows[0]["test"].contains("cold") {
        (&rows[0], &rows[1])
    } else {
        (&rows[1], &rows[0])
    };
    assert_eq!(cold["status"], "ok", "{cold:?}");
    // One group of 256 invocations × 256 loads: the 1 MB set's 65536 elements, once.
    assert_eq!(
        (cold["groups"].as_str(), cold["loads_per_dispatch"].as_str()),
        ("1", "65536"),
        "{cold:?}"
    );
    assert!(
        cold["reason"].contains("caches emptied before each dispatch (a ")
            && cold["reason"].contains(" MB fill, untimed)"),
        "{cold:?}"
    );
    assert!(!warm["reason"].contains("caches emptied"), "{warm:?}");
    assert_eq!(cold["memory"], warm["memory"]);
}

#[test]
fn a_corrupted_reference_fails_every_row() {
    let dir = tempdir("bandwidth-fault");
    let csv = dir.join("bandwidth.csv");
    // Every resource at a size read whole and a chunked one (the comparison is the same code
    // at every size).
    let o = run(&args_at(
        csv.to_str().unwrap(),
        &["4 KB", "4 MB"],
        &["--fault", "reference"],
    ));
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    let out = stdout(&o);
    let lines: Vec<&str> = out
        .lines()
        .filter(|l| l.starts_with("bandwidth: ") && !l.contains("unsupported"))
        .collect();
    assert!(!lines.is_empty(), "{out}");
    // Reads compare each group's checksum, stores and copies the memory written.
    assert!(lines.iter().any(|l| l.contains("MISMATCH group")), "{out}");
    assert!(
        lines
            .iter()
            .any(|l| l.contains("Store") && l.contains("MISMATCH word")),
        "{out}"
    );
    assert!(lines.iter().all(|l| l.contains("MISMATCH")), "{out}");
}

#[test]
fn the_suite_is_listed_in_all_before_latency_and_not_in_the_default_run() {
    let bandwidth = stdout(&run(&["--list-tests", "--suite", "bandwidth"]));
    // 15 resources and operations × 73 sizes (four per octave, 4 KB to 1 GB), then the
    // copies, fills and dispatch costs.
    // (Reads of host memory, the grid-stride copy and the other image stores: one size per
    // octave; the cold host reads one per octave from 1 MB.)
    assert_eq!(bandwidth.lines().count(), 15 * 73 + 5 * 19 + 11 + 54);
    assert!(bandwidth
        .lines()
        .any(|l| l == "bandwidth: RWTexture2D<RGBA32F>.Store 16 MB"));
    assert!(bandwidth.lines().any(
        |l| l == "transfer: vkCmdCopyBuffer host-coherent to device 1 GB on the transfer queue"
    ));
    assert_eq!(
        bandwidth.lines().next(),
        Some("bandwidth: ByteAddressBuffer.Load4 4 KB")
    );
    assert!(bandwidth
        .lines()
        .any(|l| l == "bandwidth: Buffer<R32f>.Load 1.25 MB"));
    assert!(bandwidth
        .lines()
        .any(|l| l == "bandwidth: BufferReference<uint4>.Load 1 GB"));
    let all = stdout(&run(&["--list-tests", "--suite", "all"]));
    let latency = stdout(&run(&["--list-tests", "--suite", "latency"]));
    assert!(
        all.ends_with(&format!("{bandwidth}{latency}")),
        "bandwidth, then latency, last"
    );
    let default = stdout(&run(&["--list-tests"]));
    assert!(!default.contains("bandwidth: "));
}
