//! The copies, fills and dispatch costs of the bandwidth suite on lavapipe: verified byte for
//! byte (and dispatch by dispatch) under the validation layer, what lavapipe lacks as
//! `unsupported` rows naming it, a corrupted expectation caught on every row, and timed rows
//! that count their own bytes.

use crate::common::*;

const FILTERS: [&str; 4] = ["--filter", "transfer:", "--filter", "dispatch:"];

fn rows_of(
    extra: &[&str],
    tag: &str,
) -> (
    std::process::Output,
    Vec<std::collections::HashMap<String, String>>,
) {
    let dir = tempdir(tag);
    let csv = dir.join("transfer.csv");
    let mut args = vec![
        "--device",
        lavapipe(),
        "--suite",
        "bandwidth",
        "--csv",
        csv.to_str().unwrap(),
    ];
    args.extend_from_slice(&FILTERS);
    args.extend_from_slice(extra);
    let o = run(&args);
    let rows = csv_rows(&csv);
    (o, rows)
}

#[test]
fn copies_fills_and_dispatches_verify_under_validation() {
    let (o, rows) = rows_of(&["--verify", "--validation"], "transfer-verify");
    assert!(o.status.success(), "{}\n{}", stdout(&o), stderr(&o));
    assert_no_validation_messages(&o);
    // 2 queues × (7 paths × 3 sizes + 3 fills) + 4 dispatch rows + round trip + timestamps.
    assert_eq!(rows.len(), 54, "{}", stdout(&o));
    let status = |name: &str| {
        let r = rows
            .iter()
            .find(|r| r["test"] == name)
            .unwrap_or_else(|| panic!("no row {name}"));
        (r["status"].clone(), r["reason"].clone())
    };
    for name in [
        "transfer: vkCmdCopyBuffer device to device 1 MB",
        "transfer: vkCmdCopyBuffer device to device 16 MB",
        "transfer: vkCmdCopyBuffer BAR to device 16 MB",
        "transfer: vkCmdCopyBuffer device to BAR 1 MB",
        "transfer: vkCmdFillBuffer device 16 MB",
        "dispatch: 1024 empty dispatches, one command buffer",
        "dispatch: 1024 empty dispatches, one command buffer, a barrier after each",
        "dispatch: 1024 dispatches, each reading the word the one before wrote, one command buffer, a barrier after each",
        "dispatch: 256 empty dispatches, one submit each",
        "dispatch: submit and wait, one empty dispatch each",
        "dispatch: 1024 timestamps back to back",
    ] {
        assert_eq!(status(name).0, "ok", "{name}: {:?}", status(name));
    }
    // lavapipe: one queue family, all memory device-local and host-visible, a 2 GiB heap.
    let (s, why) = status("transfer: vkCmdCopyBuffer host-coherent to device 1 MB");
    assert_eq!(s, "unsupported");
    assert!(why.contains("no memory type that is HOST_VISIBLE"), "{why}");
    let (s, why) = status("transfer: vkCmdCopyBuffer device to device 1 MB on the transfer queue");
    assert_eq!(s, "unsupported");
    assert!(why.contains("no transfer-only queue"), "{why}");
    let (s, why) = status("transfer: vkCmdCopyBuffer device to device 1 GB");
    assert_eq!(s, "unsupported");
    assert!(why.contains("quarter of its heap"), "{why}");
}

#[test]
fn a_corrupted_expectation_fails_every_row_that_runs() {
    let (o, rows) = rows_of(&["--verify", "--fault", "reference"], "transfer-fault");
    assert!(!o.status.success(), "{}", stdout(&o));
    let ran: Vec<_> = rows
        .iter()
        .filter(|r| r["status"] != "unsupported")
        .collect();
    assert_eq!(ran.len(), 14, "{}", stdout(&o));
    for r in ran {
        assert_eq!(r["status"], "mismatch", "{r:?}");
    }
}

#[test]
fn timed_copies_count_their_bytes_and_dispatches_their_time() {
    let (o, rows) = rows_of(
        &["--samples", "3", "--drift-limit", LAVAPIPE_DRIFT_LIMIT],
        "transfer-time",
    );
    assert!(o.status.success(), "{}\n{}", stdout(&o), stderr(&o));
    let row = |name: &str| rows.iter().find(|r| r["test"] == name).unwrap();
    let r = row("transfer: vkCmdCopyBuffer device to device 16 MB");
    assert_eq!(r["status"], "ok", "{r:?}");
    assert_eq!(r["unit"], "bytes");
    assert_eq!(r["loads_per_dispatch"], (16u64 << 20).to_string());
    let ms: f64 = r["ms_median"].parse().unwrap();
    let gbs: f64 = r["gbytes_per_s"].parse().unwrap();
    let expected = (16u64 << 20) as f64 / (ms * 1e-3) / 1e9;
    assert!(
        (gbs - expected).abs() <= expected * 1e-3 + 1e-3,
        "{gbs} vs {expected}"
    );
    assert!(r["memory"].starts_with("from type "), "{r:?}");
    for name in [
        "dispatch: 1024 empty dispatches, one command buffer",
        "dispatch: 256 empty dispatches, one submit each",
        "dispatch: submit and wait, one empty dispatch each",
        "dispatch: 1024 timestamps back to back",
    ] {
        let r = row(name);
        assert_eq!(r["status"], "ok", "{r:?}");
        assert!(r["ms_median"].parse::<f64>().unwrap() > 0.0, "{r:?}");
        assert_eq!(r["loads_per_dispatch"], "1", "{r:?}");
    }
    assert_eq!(
        row("dispatch: 1024 timestamps back to back")["unit"],
        "timestamps"
    );
    assert!(row("dispatch: 1024 timestamps back to back")["reason"].contains("timestampPeriod"));
}
