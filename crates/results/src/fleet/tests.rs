//! The fleet's rules on rows made here: a machine's shared difference, another kernel, too few GPUs.

use super::*;

/// A GPU on `host` with the dispatch round trip at `us` µs and the 1 GB host copy at `ms`.
fn gpu(label: &str, host: &str, us: f64, ms: f64, hash: &str) -> Gpu {
    let row = |test: &str, ms: f64, hash: &str| Row {
        device_name: "GPU".into(),
        test: test.into(),
        status: "ok".into(),
        mode: "time".into(),
        conditions: "steady".into(),
        ms_median: Some(ms),
        loads_per_dispatch: Some(1),
        cv_pct: Some(0.1),
        gbytes_per_s: Some(1.0 / ms),
        spirv_hash: hash.into(),
        host: host.into(),
        ..Default::default()
    };
    Gpu {
        label: label.into(),
        host: host.into(),
        device: "GPU".into(),
        rows: vec![
            row(
                "dispatch: submit and wait, one empty dispatch each",
                us / 1000.0,
                hash,
            ),
            row(
                "transfer: vkCmdCopyBuffer host-coherent to device 1 GB",
                ms,
                "h",
            ),
        ],
        ..Default::default()
    }
}

fn catalog() -> Catalog {
    crate::suite::test_catalog()
}

#[test]
fn a_difference_both_gpus_of_a_machine_share_is_the_machines() {
    let gpus = [
        gpu("a", "x", 40.0, 20.0, "h"),
        gpu("b", "x", 40.0, 20.2, "h"),
        gpu("c", "y", 40.0, 25.0, "h"),
        gpu("d", "y", 40.0, 25.1, "h"),
        gpu("e", "z", 40.0, 20.1, "h"),
    ];
    let v = judge(&gpus, &catalog(), FLOOR_PCT);
    assert_eq!(v.exit_code, 1, "{}", text(&v));
    assert_eq!(v.machines.len(), 1, "{}", text(&v));
    let m = &v.machines[0];
    assert_eq!(
        (m.host.as_str(), m.subsystem, m.gpus),
        ("y", Subsystem::HostLink, 2)
    );
    assert!(
        (m.deviation_pct - (20.1 / 25.05 - 1.0) * 100.0).abs() < 0.5,
        "{m:?}"
    );
    assert!(
        text(&v).contains("machine y: host link: host → device −19."),
        "{}",
        text(&v)
    );
    // On one machine alone, there is no machine to blame: the GPUs keep it.
    let one: Vec<Gpu> = gpus
        .iter()
        .cloned()
        .map(|mut g| {
            g.host = "x".into();
            g
        })
        .collect();
    assert!(judge(&one, &catalog(), FLOOR_PCT).machines.is_empty());
}

#[test]
fn rows_of_another_kernel_are_not_compared_and_too_few_gpus_are_not_judged() {
    let gpus = [
        gpu("a", "", 40.0, 20.0, "h"),
        gpu("b", "", 40.0, 20.1, "h"),
        gpu("c", "", 40.0, 20.2, "h"),
        gpu("d", "", 80.0, 20.3, "new"),
    ];
    let v = judge(&gpus, &catalog(), FLOOR_PCT);
    // d's round trip is twice as long, but with another kernel: named, not judged.
    assert_eq!(v.exit_code, 0, "{}", text(&v));
    let d = v.gpus().find(|g| g.label == "d").unwrap();
    assert_eq!(d.left_out[0].cause, "other kernel or dispatch");
    // The same kernel: 30 µs on a is noted, never degraded; 90 µs on e is.
    let v = judge(
        &[
            gpu("a", "", 30.0, 20.0, "h"),
            gpu("b", "", 40.0, 20.1, "h"),
            gpu("c", "", 40.0, 20.2, "h"),
            gpu("d", "", 40.0, 20.3, "h"),
            gpu("e", "", 90.0, 20.4, "h"),
        ],
        &catalog(),
        FLOOR_PCT,
    );
    let calls: Vec<Call> = v
        .gpus()
        .map(|g| {
            g.findings
                .iter()
                .find(|f| f.subsystem == Subsystem::Dispatch)
                .unwrap()
                .call
        })
        .collect();
    assert_eq!(
        calls,
        [
            Call::Faster,
            Call::Within,
            Call::Within,
            Call::Within,
            Call::Degraded
        ]
    );
    // Two GPUs: not judged, exit 2.
    let v = judge(&gpus[..2], &catalog(), FLOOR_PCT);
    assert_eq!(v.exit_code, 2);
    assert!(v.gpus().all(|g| g.status == Status::NotJudged));
}
