//! The fleet's rules on rows made here: a machine's shared difference, another kernel, too few GPUs.

use super::*;

/// A GPU on `host` with the back-to-back dispatch at `us` µs and the 1 GB host copy at `ms`.
fn gpu(label: &str, host: &str, us: f64, ms: f64, hash: &str) -> Gpu {
    let row = |test: &str, ms: f64, hash: &str| Row {
        device_name: "GPU".into(),
        test: test.into(),
        status: Some(crate::Status::Ok),
        mode: Some(crate::Mode::Time),
        conditions: crate::Conditions::Steady,
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
                "dispatch: 1024 empty dispatches, one command buffer",
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
    // Each run of c and d is their only one: suspect, not yet degraded (exit 3).
    assert_eq!(v.exit_code, 3, "{}", text(&v));
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
    assert_eq!(d.left_out[0].cause.to_string(), "other kernel or dispatch");
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
    // e's run is its only one: suspect until re-measured.
    assert_eq!(
        calls,
        [
            Call::Faster,
            Call::Within,
            Call::Within,
            Call::Within,
            Call::Unconfirmed
        ]
    );
    assert_eq!(v.exit_code, 3, "{}", text(&v));
    // Two GPUs: not judged, exit 2.
    let v = judge(&gpus[..2], &catalog(), FLOOR_PCT);
    assert_eq!(v.exit_code, 2);
    assert!(v.gpus().all(|g| g.status == Status::NotJudged));
}

/// `gpu` with a UUID: runs of one GPU.
fn run_of(uuid: &str, label: &str, us: f64) -> Gpu {
    Gpu {
        uuid: uuid.into(),
        ..gpu(label, "", us, 20.0, "h")
    }
}

#[test]
fn a_gpu_is_degraded_only_where_another_run_of_it_confirms_it() {
    let fleet = || {
        vec![
            run_of("a", "a", 40.0),
            run_of("b", "b", 40.5),
            run_of("c", "c", 39.5),
            run_of("d", "d", 40.2),
        ]
    };
    // e slower by half in its first run; its re-measure (the same UUID) slower again: degraded,
    // both measurements shown.
    let mut gpus = fleet();
    gpus.push(run_of("e", "e-1", 60.0));
    gpus.push(run_of("e", "e-2", 61.0));
    let v = judge(&gpus, &catalog(), FLOOR_PCT);
    assert_eq!(v.exit_code, 1, "{}", text(&v));
    let e1 = v.gpus().find(|g| g.label == "e-1").unwrap();
    assert_eq!(e1.status, Status::Degraded);
    let f = e1.degraded().next().unwrap();
    assert_eq!(f.confirmations.len(), 1);
    assert!(f.confirmations[0].beyond && f.confirmations[0].slower_pct > 40.0);
    assert!(text(&v).contains("; confirmed in e-2 (+"), "{}", text(&v));
    // The re-measure within the fleet: the failure did not come back, reported, no fault.
    let mut gpus = fleet();
    gpus.push(run_of("e", "e-1", 60.0));
    gpus.push(run_of("e", "e-2", 40.1));
    let v = judge(&gpus, &catalog(), FLOOR_PCT);
    assert_eq!(v.exit_code, 0, "{}", text(&v));
    let e1 = v.gpus().find(|g| g.label == "e-1").unwrap();
    assert_eq!(e1.status, Status::Healthy);
    assert!(e1.findings.iter().any(|f| f.call == Call::NotConfirmed));
    assert!(
        text(&v).contains("did not come back (not a fault): dispatch: back to back"),
        "{}",
        text(&v)
    );
    // A host-bound item (a submit and wait) slower on one GPU: the host's, never the GPU's.
    let mut host = gpu("h", "", 40.0, 20.0, "h");
    host.rows.push(Row {
        test: "dispatch: submit and wait, one empty dispatch each".into(),
        ms_median: Some(0.090),
        ..host.rows[0].clone()
    });
    let mut gpus: Vec<Gpu> = (0..4)
        .map(|i| {
            let mut g = gpu(&format!("g{i}"), "", 40.0, 20.0, "h");
            g.rows.push(Row {
                test: "dispatch: submit and wait, one empty dispatch each".into(),
                ms_median: Some(0.040 + 0.0001 * i as f64),
                ..g.rows[0].clone()
            });
            g
        })
        .collect();
    gpus.push(host);
    let v = judge(&gpus, &catalog(), FLOOR_PCT);
    assert_eq!(v.exit_code, 0, "{}", text(&v));
    let h = v.gpus().find(|g| g.label == "h").unwrap();
    assert!(h
        .findings
        .iter()
        .any(|f| f.subsystem == Subsystem::HostSubmit && f.call == Call::Host));
}

/// `run_of` on `host`, read from the file `label`.
fn on(host: &str, uuid: &str, label: &str, us: f64) -> Gpu {
    Gpu {
        host: host.into(),
        file: label.into(),
        ..run_of(uuid, label, us)
    }
}

/// What `perftest fleet --host host` prints over `gpus`.
fn node_says(gpus: &[Gpu], host: &str) -> String {
    host_text(&host_verdict(
        &judge(gpus, &catalog(), FLOOR_PCT),
        host,
        None,
    ))
}

#[test]
fn a_nodes_verdict_is_its_own_gpus_not_the_fleets() {
    let fleet = || {
        vec![
            on("n1", "a", "a", 40.0),
            on("n1", "b", "b", 40.5),
            on("n2", "c", "c", 39.5),
            on("n2", "d", "d", 40.2),
        ]
    };
    let reasons = |h: &HostVerdict| {
        h.reasons
            .iter()
            .map(|r| format!("{r:?}"))
            .collect::<Vec<_>>()
    };
    // n3's GPU slower twice (its run and its re-measure): n3 degraded, one line for the item
    // though both runs name it; n1 and n2 healthy although the fleet's verdict is 1.
    let mut gpus = fleet();
    gpus.push(on("n3", "e", "run/n3/perftest.csv", 60.0));
    gpus.push(on("n3", "e", "run/n3/confirm.csv", 61.0));
    let v = judge(&gpus, &catalog(), FLOOR_PCT);
    assert_eq!(v.exit_code, 1, "{}", text(&v));
    let n3 = host_verdict(&v, "n3", None);
    assert_eq!(n3.exit_code, 1, "{:?}", reasons(&n3));
    assert_eq!(n3.reasons.len(), 1, "{:?}", reasons(&n3));
    let said = host_text(&n3);
    assert!(
        said.starts_with("n3, e, GPU: degraded: dispatch: back to back +48.7 %")
            && said.contains("; confirmed in run/n3/confirm.csv (+51.2 %)"),
        "{said}"
    );
    // The re-measure the slower one: the line is still the smaller figure's, naming the other.
    let mut gpus = fleet();
    gpus.push(on("n3", "e", "run/n3/perftest.csv", 61.0));
    gpus.push(on("n3", "e", "run/n3/confirm.csv", 60.0));
    let said = node_says(&gpus, "n3");
    assert_eq!(said.lines().count(), 1, "{said}");
    assert!(
        said.contains("+48.7 %") && said.contains("; confirmed in run/n3/perftest.csv (+51.2 %)"),
        "{said}"
    );
    assert_eq!((n3.gpu_runs, n3.fleet_gpu_runs), (2, 6));
    // A node judged against a fleet with n3's degraded GPU in it: not judged (2), naming
    // n3's GPU; the fault is not n1's.
    let n1 = host_verdict(&v, "n1", None);
    assert_eq!(n1.exit_code, 2);
    assert!(
        host_text(&n1).starts_with(
            "n1: not judged: the fleet it is judged against has a degraded GPU, another \
             host's: n3, e, GPU (run/n3/"
        ),
        "{}",
        host_text(&n1)
    );
    // n3 slower in its only run: n3 suspect (3), every other node healthy (0).
    let mut gpus = fleet();
    gpus.push(on("n3", "e", "run/n3/perftest.csv", 60.0));
    let v = judge(&gpus, &catalog(), FLOOR_PCT);
    assert_eq!(v.exit_code, 3, "{}", text(&v));
    assert_eq!(host_verdict(&v, "n3", None).exit_code, 3);
    assert!(host_text(&host_verdict(&v, "n3", None)).contains("n3, e, GPU: suspect: dispatch"));
    let n2 = host_verdict(&v, "n2", None);
    assert_eq!(n2.exit_code, 0, "{:?}", reasons(&n2));
    assert_eq!(
        host_text(&n2),
        "n2: healthy (2 GPU-run(s) of it among 5 in the verdict)\n"
    );
    // Another host's GPU-run not judged (a --verify run: no timed row): the fleet is 2, n2
    // is 0; n4 itself is 2, saying why; a host not read is 2.
    let mut gpus = fleet();
    gpus.push(on("n3", "e", "e", 40.1));
    let mut verify = on("n4", "f", "f", 41.3);
    verify
        .rows
        .iter_mut()
        .for_each(|r| r.mode = Some(crate::Mode::Verify));
    gpus.push(verify);
    let v = judge(&gpus, &catalog(), FLOOR_PCT);
    assert_eq!(v.exit_code, 2, "{}", text(&v));
    assert_eq!(host_verdict(&v, "n2", None).exit_code, 0);
    let n4 = host_verdict(&v, "n4", None);
    assert_eq!(n4.exit_code, 2);
    assert!(
        host_text(&n4).starts_with("n4, f, GPU: not judged (f): no timed row"),
        "{}",
        host_text(&n4)
    );
    assert_eq!(host_verdict(&v, "n9", None).exit_code, 2);
    // Checked with the folder of its run: n3 has a GPU in `e`'s file only, not under `run`.
    let n3 = host_verdict(&v, "n3", Some(std::path::Path::new("run")));
    assert_eq!(n3.exit_code, 2);
    assert!(
        host_text(&n3).starts_with("n3: not judged: none of its GPUs is in the run checked (run)"),
        "{}",
        host_text(&n3)
    );
    // Two GPUs without a UUID, both slower in their only run: a line each, never merged.
    let mut gpus = fleet();
    gpus.push(on("nx", "", "x-0", 60.0));
    gpus.push(on("nx", "", "x-1", 61.0));
    let said = node_says(&gpus, "nx");
    assert_eq!(said.lines().count(), 2, "{said}");
    assert!(
        said.starts_with("nx, no uuid (x-0), GPU: suspect: dispatch")
            && said.contains("\nnx, no uuid (x-1), GPU: suspect: dispatch"),
        "{said}"
    );
    assert!(
        host_text(&host_verdict(&v, "n9", None)).starts_with("n9: not judged: no GPU of this host")
    );
}
