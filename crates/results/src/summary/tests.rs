//! The summary rules on synthetic curves (a clean step, a noisy step, two steps close
//! together, no step) and on the committed H100 results.

use super::curve::{self, Point, Span};
use super::*;

/// A curve of `values` over the latency suite's sizes from 4 KB, four per octave.
fn points(values: &[f64]) -> Vec<Point> {
    let mut size = 4096u64;
    let mut out = Vec::new();
    for (i, v) in values.iter().enumerate() {
        out.push(Point {
            size,
            value: *v,
            test: format!("t{i}"),
        });
        // 4, 5, 6, 7, 8 KB …: a quarter of the octave's start each step.
        let octave = 1u64 << (63 - size.leading_zeros());
        size += octave / 4;
    }
    out
}

fn spans(values: &[f64]) -> Vec<(usize, usize)> {
    curve::plateaus(&points(values))
        .iter()
        .map(|s| (s.first, s.last))
        .collect()
}

#[test]
fn a_clean_step_has_its_edge_between_the_last_size_on_and_the_first_off() {
    let mut v = vec![50.0; 10];
    v.extend([300.0; 8]);
    let p = points(&v);
    assert_eq!(spans(&v), [(0, 9), (10, 17)]);
    // Sizes 4, 5, 6, 7, 8, 10, 12, 14, 16, 20 KB: the edge lies between 20 and 24 KB.
    let edge = curve::edge(&p, Span { first: 0, last: 9 }).unwrap();
    assert_eq!(edge, (20 << 10, 24 << 10));
    assert_eq!(
        curve::edge(
            &p,
            Span {
                first: 10,
                last: 17
            }
        ),
        None
    );
}

#[test]
fn a_noisy_step_with_a_point_on_the_transition() {
    // ±4 % noise on each plateau, one point half way up.
    let v = [
        51.0, 49.0, 52.0, 50.5, 48.9, 51.8, 50.0, 49.5, 170.0, 290.0, 305.0, 298.0, 311.0, 301.0,
        295.0,
    ];
    assert_eq!(spans(&v), [(0, 7), (9, 14)]);
    let p = points(&v);
    assert_eq!(
        Span { first: 9, last: 14 }.median(&p),
        299.5,
        "the plateau's figure is its median"
    );
}

#[test]
fn two_steps_close_together_each_show_where_the_middle_has_three_sizes() {
    let mut v = vec![50.0; 8];
    v.extend([300.0, 305.0, 302.0]);
    v.extend([550.0; 8]);
    assert_eq!(spans(&v), [(0, 7), (8, 10), (11, 18)]);
    // With two sizes between them the middle is no level: its points belong to none.
    let mut v = vec![50.0; 8];
    v.extend([300.0, 305.0]);
    v.extend([550.0; 8]);
    assert_eq!(spans(&v), [(0, 7), (10, 17)]);
}

#[test]
fn a_noisy_flat_curve_is_one_level_and_a_step_still_two() {
    // lavapipe's chase on this VM: ~14.5 ns from 4 KB to 896 KB with ±20 % points, then a
    // step to ~166 ns. Runs of points within 10 % break at the outliers; the runs share one
    // figure, so they are one level, the outliers included.
    let flat = [
        13.8, 14.7, 17.5, 17.4, 10.3, 15.8, 14.8, 15.4, 11.2, 13.5, 14.5, 14.9, 15.1, 15.8, 15.6,
        14.1, 13.7, 14.1, 14.8, 17.3, 14.4, 14.5, 13.7, 14.6, 16.1, 15.7, 14.8, 15.4, 13.7, 15.2,
        14.2, 16.2,
    ];
    let mut v = flat.to_vec();
    v.extend([166.5, 166.7, 164.7, 166.5, 170.5, 165.9, 165.1, 163.3]);
    let s = spans(&v);
    assert_eq!(s.len(), 2, "{s:?}");
    assert_eq!(s[1], (flat.len(), v.len() - 1), "{s:?}");
    // Two levels 1.3× apart stay two, however close.
    let mut v = vec![50.0; 8];
    v.extend([65.0; 8]);
    assert_eq!(spans(&v), [(0, 7), (8, 15)]);
}

#[test]
fn no_step_is_one_plateau_and_no_edge() {
    let v = [10.0, 10.2, 9.9, 10.1, 10.0, 10.3, 9.8, 10.0];
    assert_eq!(spans(&v), [(0, 7)]);
    // A slow drift of more than the tolerance over the sweep is not one flat plateau.
    let drift: Vec<f64> = (0..12).map(|i| 10.0 * 1.03f64.powi(i)).collect();
    assert!(spans(&drift).len() >= 2, "{:?}", spans(&drift));
}

#[test]
fn sizes_parse_and_print_as_the_suites_name_them() {
    let p = "latency: ByteAddressBuffer ";
    assert_eq!(
        curve::size_after("latency: ByteAddressBuffer 1.25 MB", p),
        Some(1_310_720)
    );
    assert_eq!(
        curve::size_after("latency: ByteAddressBuffer 4 KB", p),
        Some(4096)
    );
    assert_eq!(
        curve::size_after(
            "latency: ByteAddressBuffer beside groupshared{uint[8192]} 4 KB",
            p
        ),
        None
    );
    assert_eq!(curve::size_name(1_310_720), "1.25 MB");
    assert_eq!(curve::size_name(1 << 30), "1 GB");
    assert_eq!(curve::size_name(160 << 10), "160 KB");
}

/// The committed H100 `--suite all` run (driver columns, commit b61aad8), gzipped.
fn h100() -> Summary {
    let run = "h100/driver/b61aad8/all.csv.gz";
    let mut s = summary_of(run);
    assert_eq!(s.len(), 1, "one GPU");
    s.remove(0)
}

fn find<'a>(s: &'a Summary, what: &str) -> &'a Item {
    s.sections
        .iter()
        .flat_map(|x| &x.items)
        .find(|i| i.what == what)
        .unwrap_or_else(|| panic!("no item {what}"))
}

/// A committed run under results/ (`h100/l2-line-1127/all.csv.gz`).
fn committed(run: &str) -> std::path::PathBuf {
    std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../results")
        .join(run)
}

/// The summary of a committed run.
fn summary_of(run: &str) -> Vec<Summary> {
    summarise_files(&[committed(run)], &crate::suite::test_catalog()).unwrap()
}

#[test]
fn the_h100s_other_load_paths_and_its_loops_own_arithmetic_are_their_rows() {
    let s = h100();
    // The uniform buffer: 47.4 clk at 4 KB, 86.6 at 5 KB (between), 112.4 from 6 to 64 KB
    // (the largest a uniform buffer binds there); shared memory 33.8 clk at 4 to 32 KB.
    let uniform = find(&s, "uniform buffer: latency");
    assert_eq!(
        uniform.value.as_deref(),
        Ok("≤ 4 KB: 47.4, 6–64 KB: 112 clk")
    );
    assert_eq!(
        uniform.from,
        "latency: cbuffer{uint4} 4 KB … 64 KB (17 rows)"
    );
    let shared = find(&s, "shared memory: latency");
    assert_eq!(shared.value.as_deref(), Ok("4–32 KB: 33.8 clk"));
    let own = find(&s, "the chase's own arithmetic");
    assert_eq!(own.value.as_deref(), Ok("≤ 14.4 clk, 7.26 ns per step"));
}

#[test]
fn the_h100s_caches_agree_with_its_curves_and_the_published_figures() {
    let s = h100();
    assert_eq!(s.device, "NVIDIA H100 80GB HBM3");
    // L1: flat at 51 clk to 160 KB, 89 clk at 192 KB (results/README.md: "holds to 160 KB").
    let l1 = find(&s, "L1: edge by latency");
    assert_eq!(l1.value.as_deref(), Ok("160 KB – 192 KB"));
    let (lo, hi) = l1.ratio().unwrap();
    assert!((lo - 160.0 / 256.0).abs() < 1e-9 && (hi - 0.75).abs() < 1e-9);
    assert!(find(&s, "L1: latency")
        .value
        .as_ref()
        .unwrap()
        .starts_with("51.1 clk"));
    // The near part of L2 ends between 20 and 24 MB on the latency curve (no figure of the
    // L2's size: none published beside it); the far part — a latency step with no bandwidth
    // step of its own — and the bandwidth curve's L2 between 48 and 56 MB, about the 50 MB
    // published.
    let near = find(&s, "L2: near part's edge by latency");
    assert_eq!(near.value.as_deref(), Ok("20 MB – 24 MB"));
    assert!(near.vendor.is_none());
    let far = find(&s, "L2 far part: edge by latency");
    assert_eq!(far.value.as_deref(), Ok("48 MB – 56 MB"));
    assert_eq!(far.vendor.as_ref().unwrap().value, 50.0);
    assert!(find(&s, "L2 far part: latency")
        .value
        .as_ref()
        .unwrap()
        .starts_with("547 clk"));
    assert!(!s
        .sections
        .iter()
        .flat_map(|x| &x.items)
        .any(|i| i.what.starts_with("level 3")));
    let bw = find(&s, "L2: edge by bandwidth");
    assert_eq!(bw.value.as_deref(), Ok("48 MB – 56 MB"));
    assert_eq!(bw.vendor.as_ref().unwrap().value, 50.0);
    assert!(
        find(&s, "L2 far part: bandwidth").value.is_err(),
        "no step of its own"
    );
    assert!(find(&s, "L2: latency")
        .value
        .as_ref()
        .unwrap()
        .starts_with("293 clk"));
    // Memory bandwidth: the plateau 320 MB … 1 GB (3.43 to 3.12 TB/s, still falling), its
    // figure the 1 GB row's 3117.391 GB/s, beside the datasheet's 3.35 TB/s.
    let mem = find(&s, "memory: bandwidth");
    assert!(mem.from.contains("320 MB … 1 GB (8 rows)"), "{}", mem.from);
    let (tbps, _) = mem.measured.unwrap();
    assert!((tbps - 3.117391).abs() < 1e-9, "{tbps}");
    assert!((tbps / 3.35 - mem.ratio().unwrap().0).abs() < 1e-12);
    assert!(find(&s, "memory: latency")
        .value
        .as_ref()
        .unwrap()
        .starts_with("702 clk"));
}

#[test]
fn the_h100s_arithmetic_dispatch_and_loads_are_their_rows() {
    let s = h100();
    // fp32: `fp32 fma` 122.6 fma/clk/SM, 32021.650 G fma/s: ×2 = 64.04 TFLOP/s, 0.956 of 67.
    let fp32 = find(&s, "fp32");
    assert!((fp32.measured.unwrap().0 - 64.0433).abs() < 1e-3);
    assert!((fp32.ratio().unwrap().0 - 64.0433 / 67.0).abs() < 1e-4);
    assert!(fp32.from.starts_with("fp32 fma ×2"));
    // The best fp16 matrix row and its rate: 640079.510 Gflop/s.
    let m = find(&s, "fp16 matrix");
    assert!(m
        .from
        .starts_with("matrix: coopmat 16x16x16 f16*f16+f16 subgroup"));
    assert!((m.measured.unwrap().0 - 640.0795).abs() < 1e-3);
    // fp8: every row unsupported on this driver, said so.
    let fp8 = find(&s, "fp8 matrix");
    assert!(fp8.value.as_ref().unwrap_err().contains("unsupported"));
    assert_eq!(fp8.vendor.as_ref().unwrap().value, 1979.0);
    assert_eq!(find(&s, "back to back").value.as_deref(), Ok("0.166 µs"));
    assert_eq!(
        find(&s, "round trip (submit and wait)").value.as_deref(),
        Ok("44.9 µs")
    );
    let h = find(&s, "host → device");
    assert_eq!(h.value.as_deref(), Ok("51.1 GB/s"));
    // A whole run has the four copies each way; the note counts those present.
    assert!(h.from.ends_with("(fastest of 4)"), "{}", h.from);
    // The load path: NVIDIA's divergent constant-buffer reads are the worst linear rows.
    assert!(find(&s, "linear: worst")
        .from
        .starts_with("cbuffer{float4} load linear"));
    let text = text(&[s]);
    assert!(text.contains("Published figures:\n  [1] NVIDIA H100"));
}

/// The health profile runs one host copy each way: the item is that row, named alone (not
/// "the fastest of 4" of rows the run does not have).
#[test]
fn a_profiles_host_link_is_its_one_copy_each_way() {
    let mut s = summary_of("h200/final-1129/health-2.csv.gz");
    let s = s.remove(0);
    for (what, row) in [
        (
            "host → device",
            "transfer: vkCmdCopyBuffer host-coherent to device 1 GB",
        ),
        (
            "device → host",
            "transfer: vkCmdCopyBuffer device to host-coherent 1 GB",
        ),
    ] {
        let h = find(&s, what);
        assert_eq!(h.from, row, "{what}");
        assert!(h.value.is_ok(), "{what}: {:?}", h.value);
    }
}

#[test]
fn rows_that_cannot_support_a_value_leave_it_out_with_the_reason() {
    // A lavapipe-like run: bandwidth rows without a clock, no latency, no matrix suite.
    let mut rows = Vec::new();
    for (i, kb) in [4u64, 8, 16, 32, 64, 128, 256, 512, 1024, 2048, 4096]
        .iter()
        .enumerate()
    {
        rows.push(Row {
            test: format!(
                "bandwidth: ByteAddressBuffer.Load4 {}",
                curve::size_name(kb << 10)
            ),
            status: Some(crate::Status::Ok),
            gbytes_per_s: Some(if i < 5 { 100.0 } else { 20.0 }),
            ..Default::default()
        });
    }
    let d = Device::new("llvmpipe", "llvmpipe", rows);
    let s = derive::summary(&d, &crate::suite::test_catalog());
    let levels = find(&s, "cache levels");
    assert!(levels
        .value
        .as_ref()
        .unwrap_err()
        .contains("the latency suite did not run"));
    let l1 = find(&s, "L1: bandwidth");
    assert!(l1
        .value
        .as_ref()
        .unwrap()
        .starts_with("no clock: B/clk/CU left out, 0.100 TB/s"));
    assert_eq!(
        find(&s, "L1: edge by bandwidth").value.as_deref(),
        Ok("64 KB – 128 KB")
    );
    assert!(find(&s, "memory: bandwidth").value.is_ok());
    assert!(find(&s, "fp32")
        .value
        .as_ref()
        .unwrap_err()
        .contains("no row of 2"));
    // No matrix suite: each matrix type says it had no row, none panics on an empty list.
    for what in ["fp16 matrix", "bf16 matrix", "fp8 matrix", "int8 matrix"] {
        assert_eq!(
            find(&s, what).value.as_ref().unwrap_err(),
            "no row of this kind in the run",
            "{what}"
        );
    }
    assert!(find(&s, "shader clock").value.is_err());
    assert!(find(&s, "uniform: best and worst").value.is_err());
    // No vendor figure for a device the table does not name.
    assert!(s
        .sections
        .iter()
        .flat_map(|x| &x.items)
        .all(|i| i.vendor.is_none()));
}

#[test]
fn a_published_gpu_sets_its_ratio_beside_the_same_test() {
    let rows = vec![Row {
        test: "Buffer<R8>.Load uniform".into(),
        status: Some(crate::Status::Ok),
        gloads_per_s: Some(100.0),
        ratio: Some(2.0),
        ..Default::default()
    }];
    let s = derive::summary(
        &Device::new("NVIDIA GeForce RTX 3090", "", rows),
        &crate::suite::test_catalog(),
    );
    let best = find(&s, "uniform: best");
    let published = crate::published::all()
        .unwrap()
        .iter()
        .find(|r| r.key == "nvidia-ampere")
        .unwrap()
        .ratio("Buffer<R8>.Load uniform")
        .unwrap();
    assert_eq!(best.vendor.as_ref().unwrap().value, published);
    assert!((best.ratio().unwrap().0 - 2.0 / published).abs() < 1e-12);
}

#[test]
fn every_gpu_of_the_committed_results_finds_its_figures() {
    // H200: `NVIDIA H200` as its driver names it (results/h200/whole-run).
    let run = "h200/whole-run/all-run1.csv.gz";
    let s = summary_of(run);
    assert_eq!(s[0].device, "NVIDIA H200");
    let mem = find(&s[0], "memory: bandwidth");
    assert_eq!(mem.vendor.as_ref().unwrap().value, 4.8);
    let (tbps, _) = mem.measured.unwrap();
    assert!((tbps - 4.821299).abs() < 1e-9, "{tbps}");
}

/// A row of `test` on device `index` (`uuid`) of GPU `name`.
fn row_of(name: &str, index: u32, uuid: &str, test: &str) -> Row {
    Row {
        device_index: index,
        device_name: name.into(),
        driver: "D 1".into(),
        device_uuid: uuid.into(),
        test: test.into(),
        status: Some(crate::Status::Ok),
        ms_median: Some(1.0),
        ..Default::default()
    }
}

#[test]
fn a_nodes_identical_gpus_are_one_summary_each_and_one_gpus_files_are_one() {
    // Two H100s of one run (a file, or the run's own rows), each with its UUID.
    let run = [
        row_of("H100", 0, "aaaaaaaa-1", "fp32 fma"),
        row_of("H100", 1, "bbbbbbbb-2", "fp32 fma"),
    ];
    let d = devices(&[("this run", &run)]);
    assert_eq!(d.len(), 2);
    assert_eq!(
        (d[0].which.as_str(), d[1].which.as_str()),
        ("device 0, aaaaaaaa", "device 1, bbbbbbbb")
    );
    // The same GPU in a second file (another suite) joins its own.
    let more = [row_of("H100", 0, "bbbbbbbb-2", "fp64 fma")];
    let d = devices(&[("a.csv", &run), ("b.csv", &more)]);
    assert_eq!(d.len(), 2);
    assert_eq!(d[1].rows.len(), 2);
    // Older files without a UUID: two indexes of one file are two GPUs, one index in two
    // files is one.
    let old = [
        row_of("H100", 0, "", "fp32 fma"),
        row_of("H100", 1, "", "fp32 fma"),
    ];
    assert_eq!(devices(&[("old.csv", &old)]).len(), 2);
    let old_b = [row_of("H100", 0, "", "fp64 fma")];
    let d = devices(&[("old.csv", &old[..1]), ("old-b.csv", &old_b)]);
    assert_eq!(d.len(), 1);
    assert!(d[0].which.is_empty());
}

#[test]
fn a_level_gives_its_load_to_use_latency_where_the_run_has_the_chase() {
    // A two-level curve in clocks (51 then 300 clk, as the H100's L1 and L2) with the
    // load-to-use chase beside it (32 then 260 clk at 1980 MHz): each level's median over
    // its own sizes.
    let mut rows = Vec::new();
    let mut size = 4096u64;
    for i in 0..16 {
        let on_l1 = i < 8;
        for (prefix, clk) in [
            (derive::LATENCY, if on_l1 { 51.0 } else { 300.0 }),
            (derive::LOAD_TO_USE, if on_l1 { 32.0 } else { 260.0 }),
        ] {
            rows.push(Row {
                test: format!("{prefix}{}", curve::size_name(size)),
                status: Some(crate::Status::Ok),
                latency_clk: Some(clk),
                clock_mhz: Some(1980.0),
                ..Default::default()
            });
        }
        let octave = 1u64 << (63 - size.leading_zeros());
        size += octave / 4;
    }
    let d = Device::new("gpu", "driver", rows.clone());
    let s = derive::summary(&d, &crate::suite::test_catalog());
    let l1 = find(&s, "L1: load-to-use latency");
    assert_eq!(
        l1.value.as_deref(),
        Ok("32.0 clk, 16.2 ns (p = *p, 19.0 clk under the indexed chase)")
    );
    assert!(
        l1.from.contains("load-to-use 4 KB … 14 KB (8 rows)"),
        "{}",
        l1.from
    );
    let l2 = find(&s, "memory: load-to-use latency");
    assert_eq!(
        l2.value.as_deref(),
        Ok("260 clk, 131 ns (p = *p, 40.0 clk under the indexed chase)")
    );
    // Without the chase's rows (a run before it), no such item.
    let without: Vec<Row> = rows
        .into_iter()
        .filter(|r| !r.test.starts_with(derive::LOAD_TO_USE))
        .collect();
    let s = derive::summary(
        &Device::new("gpu", "driver", without),
        &crate::suite::test_catalog(),
    );
    assert!(s
        .sections
        .iter()
        .flat_map(|x| &x.items)
        .all(|i| !i.what.contains("load-to-use")));
}

#[test]
fn the_load_to_use_items_read_the_uint64_form_where_it_ran_and_the_uint2_form_else() {
    // The uint2 form 6.5 clk over the uint64_t form at both levels (as on the H100: the
    // bitcast in the dependent path).
    let mut rows = Vec::new();
    let mut size = 4096u64;
    for i in 0..16 {
        let on_l1 = i < 8;
        for (prefix, clk) in [
            (derive::LATENCY, if on_l1 { 51.0 } else { 300.0 }),
            (derive::LOAD_TO_USE, if on_l1 { 38.5 } else { 266.5 }),
            (derive::LOAD_TO_USE_64, if on_l1 { 32.0 } else { 260.0 }),
        ] {
            rows.push(Row {
                test: format!("{prefix}{}", curve::size_name(size)),
                status: Some(crate::Status::Ok),
                latency_clk: Some(clk),
                clock_mhz: Some(1980.0),
                ..Default::default()
            });
        }
        let octave = 1u64 << (63 - size.leading_zeros());
        size += octave / 4;
    }
    let s = derive::summary(
        &Device::new("gpu", "driver", rows.clone()),
        &crate::suite::test_catalog(),
    );
    let l1 = find(&s, "L1: load-to-use latency");
    assert!(
        l1.value.as_deref().unwrap().starts_with("32.0 clk"),
        "{:?}",
        l1.value
    );
    assert!(l1.from.starts_with(derive::LOAD_TO_USE_64), "{}", l1.from);
    // A device without shaderInt64: its uint64_t rows are unsupported (no latency); the
    // uint2 form's rows are read, and named.
    for r in &mut rows {
        if r.test.starts_with(derive::LOAD_TO_USE_64) {
            r.status = Some(crate::Status::Unsupported);
            r.latency_clk = None;
        }
    }
    let s = derive::summary(
        &Device::new("gpu", "driver", rows),
        &crate::suite::test_catalog(),
    );
    let l1 = find(&s, "L1: load-to-use latency");
    assert!(
        l1.value.as_deref().unwrap().starts_with("38.5 clk"),
        "{:?}",
        l1.value
    );
    assert!(l1.from.starts_with(derive::LOAD_TO_USE), "{}", l1.from);
    let memory = find(&s, "memory: load-to-use latency");
    assert!(
        memory.value.as_deref().unwrap().starts_with("266 clk"),
        "{:?}",
        memory.value
    );
}

#[test]
fn the_stride_curves_knee_is_where_it_stops_rising() {
    // The H100's 4 MB set (clk per step at 4 … 512 B apart): flat from 32 B.
    let l2 = [
        (4, 90.9),
        (8, 122.5),
        (16, 185.7),
        (32, 311.9),
        (64, 310.0),
        (128, 312.2),
        (256, 311.3),
        (512, 311.6),
    ];
    assert_eq!(derive::knee(&l2).map(|k| l2[k].0), Ok(32));
    // Memory's, two steps (the L1's sectors, then the L2's 64 bytes) and a dip at 512 B still
    // on the plateau: 64 B.
    let memory = [
        (4, 115.8),
        (8, 169.6),
        (16, 279.8),
        (32, 496.6),
        (64, 681.7),
        (128, 690.3),
        (256, 686.1),
        (512, 633.1),
    ];
    assert_eq!(derive::knee(&memory).map(|k| memory[k].0), Ok(64));
    // The whole run's (granularity-1127): 702 at 128 B and 631 at 512 B, both past the knee.
    let memory = [
        (4, 115.7),
        (8, 171.1),
        (16, 277.6),
        (32, 497.5),
        (64, 681.3),
        (128, 702.4),
        (256, 682.3),
        (512, 631.4),
    ];
    assert_eq!(derive::knee(&memory).map(|k| memory[k].0), Ok(64));
    // A set that fills in 16 bytes reads 16, not 32.
    let sixteen = [
        (4, 120.0),
        (8, 180.0),
        (16, 300.0),
        (32, 305.0),
        (64, 300.0),
    ];
    assert_eq!(derive::knee(&sixteen).map(|k| sixteen[k].0), Ok(16));
    // Every load a hit: no step. Still rising at the largest stride: no knee.
    assert!(derive::knee(&[(4, 59.3), (8, 59.6), (512, 59.6)])
        .unwrap_err()
        .starts_with("no step: 4 to 512 B apart cost the same"));
    assert!(derive::knee(&[(4, 60.0), (8, 120.0), (16, 240.0)])
        .unwrap_err()
        .starts_with("still rising at 16 B apart"));
    assert!(derive::knee(&[(4, 60.0), (8, 120.0)]).is_err());
    assert_eq!(
        derive::stride_of("latency by stride: ByteAddressBuffer 4 MB, 32 B apart"),
        Some((4 << 20, 32))
    );
    assert_eq!(derive::stride_of("latency: ByteAddressBuffer 4 MB"), None);
}

#[test]
fn the_h100s_fetch_granularities_are_its_stride_sweeps_knees() {
    // The committed H100 run of the stride sweep beside the storage buffer's latency curve.
    let run = "h100/stride-1127/stride-1.csv.gz";
    let s = summary_of(run);
    let l2 = find(&s[0], "L2: fetch granularity");
    assert_eq!(
        l2.value.as_deref(),
        Ok("32 B (a 4 MB set: 90.8 clk a step at 4 B apart, rising to 312 at 32 B and no further)")
    );
    assert_eq!(
        l2.quantities,
        [Quantity::of(32.0, Unit::Bytes).over(4 << 20, 4 << 20)]
    );
    let memory = find(&s[0], "memory: fetch granularity");
    assert!(
        memory
            .value
            .as_deref()
            .unwrap()
            .starts_with("64 B (a 256 MB set"),
        "{:?}",
        memory.value
    );
    // The 64 KB set lies on the L1 plateau, where every load hits: no line of its own.
    assert!(s[0]
        .sections
        .iter()
        .flat_map(|x| &x.items)
        .all(|i| !i.what.starts_with("L1: fetch")
            && !i.value.as_ref().is_ok_and(|v| v.contains("64 KB set"))));
    // A run without the stride rows (the committed whole run) has no such line.
    assert!(h100()
        .sections
        .iter()
        .flat_map(|x| &x.items)
        .all(|i| !i.what.contains("fetch granularity")));
}

#[test]
fn the_h100s_refined_edges_are_its_probes_and_its_levels_the_sweeps_rows() {
    // The committed whole run with edge probes (edges-1127): 12 probes bisected four edges.
    let run = "h100/edges-1127/all.csv.gz";
    let s = summary_of(run);
    let edge = |what: &str| find(&s[0], what).value.clone().unwrap();
    assert_eq!(edge("L1: edge by latency"), "184 KB – 188 KB");
    assert_eq!(edge("L2: near part's edge by latency"), "24.5 MB – 25 MB");
    assert_eq!(edge("L2 far part: edge by latency"), "51 MB – 52 MB");
    // The far part's figure is its three sweep rows' (32–48 MB), not the two probes' at 50 and
    // 51 MB near its end (586 and 587 clk): 12.5 clk over the load-to-use chase, as at the
    // other levels, not 25.
    let far = find(&s[0], "L2 far part: latency");
    assert_eq!(far.judged.as_ref().unwrap().tests.len(), 3, "{far:?}");
    let ltu = find(&s[0], "L2 far part: load-to-use latency");
    let under = far.quantities[0].value - ltu.quantities[0].value;
    assert!(
        (10.0..15.0).contains(&under),
        "{:?} {:?}",
        far.value,
        ltu.value
    );
}

#[test]
fn the_h100s_l1_line_is_128_bytes() {
    // The committed whole run with the sets read 32 B apart (line-1127): the set read whole
    // ends at 160–192 KB, the chase (a word per 128 B) at 184–188 KB (refined), the
    // load-to-use chase (a word per 256 B) at 160–192 KB.
    let run = "h100/line-1127/all.csv.gz";
    let s = summary_of(run);
    let line = find(&s[0], "L1: line");
    assert_eq!(
        line.value.as_deref(),
        Ok("128 B (edges: 32 B apart 160 KB – 192 KB; a word per 128 B 184 KB – 188 KB; a word per 256 B: 160 KB – 192 KB)")
    );
    assert_eq!(line.quantities, [Quantity::of(128.0, Unit::Bytes)]);
    // Were the chase (a word per 128 B) to end at twice the set read whole (its L1 plateau
    // to 320 KB), a line would hold 64 B.
    let mut rows: Vec<Row> = read::read_path(&committed(run)).unwrap().rows;
    for r in &mut rows {
        if let Some(size) = latency_size(&r.test) {
            r.latency_clk = Some(if size <= 320 << 10 { 51.1 } else { 300.0 });
        }
    }
    let d = Device::new("H100", "driver", rows);
    let s = derive::summary(&d, &crate::suite::test_catalog());
    assert!(
        find(&s, "L1: line")
            .value
            .as_deref()
            .unwrap()
            .starts_with("64 B"),
        "{:?}",
        find(&s, "L1: line").value
    );
}

#[test]
fn the_h100s_l2_line_is_left_out_where_its_edges_fit_no_line() {
    // The committed whole run with the sets read 32 B apart over 4–64 MB (l2-line-1127): the
    // set read whole leaves the L2's near part at 20–24 MB, the chase at 24.5–25 MB (refined):
    // 128 × 0.80 to 0.98, no power of two. Its L1 line is still 128 B.
    let run = "h100/l2-line-1127/all.csv.gz";
    let s = summary_of(run);
    let l2 = find(&s[0], "L2: line");
    assert_eq!(
        l2.value.as_ref().unwrap_err(),
        "the set read whole ends at 20 MB – 24 MB and the chase at 24.5 MB – 25 MB: no single \
         line fits (128 × 0.80 to 0.98)"
    );
    assert!(l2.quantities.is_empty());
    assert!(find(&s[0], "L1: line")
        .value
        .as_deref()
        .unwrap()
        .starts_with("128 B"));
    // No line item for the far part (a cache's line is its near part's) nor the memory.
    let items = || s[0].sections.iter().flat_map(|x| &x.items);
    assert!(items().all(|i| !i.what.contains("far part: line")));
    assert!(items().all(|i| i.what != "memory: line"));
    // Were the set read whole and the load-to-use chase to end where the chase does (their
    // near plateaus to 24 MB, and 24 MB off the load-to-use one there), the L2's line would
    // be 128 B.
    let mut rows: Vec<Row> = read::read_path(&committed(run)).unwrap().rows;
    let near = 4 << 20..=24 << 20;
    for r in &mut rows {
        if let Some((size, 32)) = derive::stride_of(&r.test) {
            if near.contains(&size) {
                r.latency_clk = Some(299.0);
            }
        }
        if let Some(size) =
            curve::size_after(&r.test, "latency: BufferReference<uint2> load-to-use ")
        {
            if near.contains(&size) {
                r.latency_clk = Some(285.0);
            }
        }
    }
    let d = Device::new("H100", "driver", rows);
    let s = derive::summary(&d, &crate::suite::test_catalog());
    let l2 = find(&s, "L2: line");
    assert!(
        l2.value.as_deref().unwrap_or("").starts_with("128 B"),
        "{:?}",
        l2.value
    );
}

#[test]
fn the_h100s_l1_keeps_its_edge_beside_shared_memory() {
    // The committed whole run (l2-line-1127): the chase beside 32 KB of shared memory ends
    // its L1 plateau at 160–192 KB, the chase alone at 184–188 KB (refined): the same edge.
    let run = "h100/l2-line-1127/all.csv.gz";
    let s = summary_of(run);
    let beside = find(&s[0], "L1 beside 32 KB of shared memory");
    assert_eq!(
        beside.value.as_deref(),
        Ok("160 KB – 192 KB (the same edge)")
    );
    assert!(
        beside.from.ends_with("184 KB – 188 KB (its L1 edge alone)"),
        "{}",
        beside.from
    );
    assert_eq!(
        beside.quantities,
        [Quantity::range(160.0 * 1024.0, 192.0 * 1024.0, Unit::Bytes)]
    );
    // Were the chase beside shared memory off its L1 plateau from 160 KB (its 128 KB last
    // on it), it would have given way by 24–60 KB: the 32 KB declared.
    let mut rows: Vec<Row> = read::read_path(&committed(run)).unwrap().rows;
    for r in &mut rows {
        if let Some(size) = curve::size_after(&r.test, derive::BESIDE_SHARED) {
            r.latency_clk = Some(if size <= 128 << 10 { 51.1 } else { 290.0 });
        }
    }
    let d = Device::new("H100", "driver", rows);
    let s = derive::summary(&d, &crate::suite::test_catalog());
    assert_eq!(
        find(&s, "L1 beside 32 KB of shared memory")
            .value
            .as_deref(),
        Ok("128 KB – 160 KB (24–60 KB lower: gives way)")
    );
}

#[test]
fn the_h100s_texture_path_evicts_the_l1s_buffer_lines() {
    // The committed whole run (texture-l1-1127): the texel-fetch chase alone stays at 118 clk
    // to 512 KB; paired with a 128 KB buffer chase, the pair less the texture rises from 69
    // clk (the buffer in the L1) by 248 clk (the buffer's step to the L2: 245) by 512 KB,
    // leaving its plateau at 16–20 KB.
    let run = "h100/texture-l1-1127/all.csv.gz";
    let s = summary_of(run);
    let shared = find(&s[0], "L1 shared with the texture path");
    assert_eq!(
        shared.value.as_deref(),
        Ok("one storage (past 16–20 KB of texture the 128 KB buffer set misses: +248 of 245 clk at 512 KB)")
    );
    assert_eq!(
        shared.quantities[0],
        Quantity::range(16.0 * 1024.0, 20.0 * 1024.0, Unit::Bytes)
    );
    // Were the pair only the texture plus the buffer in the L1 (as two storages would keep
    // it), the same rule says separate.
    let mut rows: Vec<Row> = read::read_path(&committed(run)).unwrap().rows;
    let alone: std::collections::HashMap<u64, f64> = rows
        .iter()
        .filter_map(|r| {
            Some((
                curve::size_after(&r.test, derive::TEXTURE_LOAD)?,
                r.latency_clk?,
            ))
        })
        .collect();
    for r in &mut rows {
        if let Some(size) = curve::size_after(&r.test, derive::BESIDE_TEXTURE) {
            r.latency_clk = Some(alone[&size] + 69.0 + ((size >> 12) % 3) as f64);
        }
    }
    let d = Device::new("H100", "driver", rows);
    let s = derive::summary(&d, &crate::suite::test_catalog());
    assert_eq!(
        find(&s, "L1 shared with the texture path").value.as_deref(),
        Ok("separate (the 128 KB buffer set stays: +1.00 of 245 clk at 512 KB)")
    );
}

/// The three passes of the committed lavapipe run of tests/host_caches.rs (this session's
/// KVM Xeon: L1d 48 KB, L2 2 MB, L3 300 MB), each pass's rows.
fn host_cache_passes() -> Vec<Vec<Row>> {
    (1..=3)
        .map(|i| {
            let path = committed(&format!("lavapipe/host-caches-1127/pass{i}.csv.gz"));
            crate::compare::read::read_path(&path).unwrap().rows
        })
        .collect()
}

/// The summary of `passes` read together, as `perftest summary pass1 pass2 pass3` does.
fn summary_of_passes(passes: &[Vec<Row>]) -> Summary {
    let sources: Vec<(&str, &[Row])> = passes
        .iter()
        .enumerate()
        .map(|(i, rows)| (["pass1", "pass2", "pass3"][i], rows.as_slice()))
        .collect();
    let mut s = summarise(&sources, &crate::suite::test_catalog());
    assert_eq!(s.len(), 1, "one device");
    s.remove(0)
}

#[test]
fn lavapipes_curve_holds_the_host_cpus_caches_and_a_wrong_size_does_not() {
    let passes = host_cache_passes();
    let s = summary_of_passes(&passes);
    // The L1d's step is sharp (7.79 ns to 48 KB, 9.55 at 56 KB); the L2's is gradual (10.9 ns
    // to 1 MB, 20.2 at 2 MB, 30.5 at 2.5 MB, 40.3 from 4 MB): half-way lies at 2–2.5 MB.
    let l1 = find(&s, "L1d (48 KB)");
    assert_eq!(
        l1.value.as_deref(),
        Ok("48 KB – 56 KB: holds (the step from 7.79 to 9.68 ns)")
    );
    assert_eq!(
        l1.quantities,
        [Quantity::range(
            (48 << 10) as f64,
            (56 << 10) as f64,
            Unit::Bytes
        )]
    );
    let l2 = find(&s, "L2 (2 MB)");
    assert!(
        l2.value
            .as_deref()
            .unwrap()
            .starts_with("2 MB – 2.5 MB: holds (half-way from 10.9 to 40.3 ns"),
        "{:?}",
        l2.value
    );
    assert_eq!(l2.ratio_text(), "1.00–1.25×");
    let l3 = find(&s, "L3 (300 MB)");
    assert_eq!(
        l3.value.as_ref().unwrap_err(),
        "past the curve's sizes (4 KB … 16 MB)"
    );
    // The first pass alone, which had slow spells (12.7 ns at 48 KB, 13.8 at 10 KB), shows no
    // L1d step: the fastest of the passes is what finds it.
    let alone = summary_of_passes(&passes[..1]);
    assert!(find(&alone, "L1d (48 KB)")
        .value
        .as_deref()
        .unwrap()
        .starts_with("does not hold"));
    // The same curve against a host that claimed other sizes: a 32 KB L1d and a 4 MB L2 lie
    // on plateaus, on no step.
    let claimed: Vec<Vec<Row>> = passes
        .iter()
        .map(|rows| {
            rows.iter()
                .map(|r| Row {
                    host_caches: crate::cpu_caches::parse_cell("L1d 32 KB 64 B lines; L2 4 MB")
                        .unwrap(),
                    ..r.clone()
                })
                .collect()
        })
        .collect();
    let s = summary_of_passes(&claimed);
    for what in ["L1d (32 KB)", "L2 (4 MB)"] {
        let v = find(&s, what).value.as_deref().unwrap();
        assert!(
            v.starts_with("does not hold: no step of the curve is half done"),
            "{v}"
        );
        assert!(find(&s, what).quantities.is_empty());
    }
    // Three sizes make no plateau, so no step: left out, not `does not hold`.
    let sparse: Vec<Row> = passes[1]
        .iter()
        .filter(|r| {
            r.test.ends_with(" 4 KB") || r.test.ends_with(" 64 KB") || r.test.ends_with(" 8 MB")
        })
        .cloned()
        .collect();
    let s = summary_of_passes(std::slice::from_ref(&sparse));
    let why = find(&s, "L1d (48 KB)").value.as_ref().unwrap_err();
    assert!(
        why.starts_with("the curve has no step to hold it against"),
        "{why}"
    );
    // A file whose cell perftest did not write is refused, naming the cell (as a bad
    // number is), not summarised against a guess.
    let gz = std::fs::read(committed("lavapipe/host-caches-1127/pass2.csv.gz")).unwrap();
    let text = String::from_utf8(crate::gzip::decompress(&gz).unwrap().bytes).unwrap();
    assert!(text.contains("L1d 48 KB 12-way 64 B lines;"));
    let bad = text.replacen("L1d 48 KB 12-way 64 B lines;", "L1d 48 parsecs;", 1);
    let Err(err) = crate::compare::read::read_text("pass2", &bad) else {
        panic!("a garbled host_caches cell read");
    };
    let err = format!("{err:#}");
    assert!(err.starts_with("pass2"), "{err}");
    assert!(
        err.contains("line 2: host_caches `L1d 48 parsecs; L2 2 MB"),
        "{err}"
    );
    // A GPU's rows have no such section.
    assert!(!h100()
        .sections
        .iter()
        .any(|x| x.title.starts_with("The host CPU's caches")));
}

/// A curve over the latency suite's sizes (4 KB … 16 MB, four per octave) whose value at
/// each size is `f(size)`.
fn curve_of(f: impl Fn(u64) -> f64) -> Vec<Point> {
    let sizes: Vec<u64> = points(&[0.0; 49]).iter().map(|p| p.size).collect();
    assert_eq!(*sizes.last().unwrap(), 16 << 20);
    let v: Vec<f64> = sizes.iter().map(|&s| f(s)).collect();
    points(&v)
}

/// A staircase: `levels[i].1` from `levels[i].0` bytes on (the first from 0).
fn staircase(levels: &[(u64, f64)]) -> impl Fn(u64) -> f64 + '_ {
    move |size| {
        levels
            .iter()
            .rev()
            .find(|(from, _)| size >= *from)
            .map_or(levels[0].1, |l| l.1)
    }
}

#[test]
fn a_step_at_a_caches_size_holds_and_one_elsewhere_does_not() {
    use super::host_cpu::{held, steps};
    // A sharp L1 step: 8 ns to 32 KB, 10 ns from 40 KB; a gradual L2 step from 512 KB to
    // 2 MB (half-way, 25 ns, first reached at 1.25 MB); 40 ns past it.
    let p = curve_of(|s| {
        if s <= 32 << 10 {
            8.0
        } else if s <= 512 << 10 {
            10.0
        } else if s < 2 << 20 {
            10.0 + 30.0 * (s - (512 << 10)) as f64 / (1536 << 10) as f64
        } else {
            40.0
        }
    });
    let st = steps(&p);
    assert_eq!(st.len(), 2, "{st:?}");
    assert_eq!(st[0].edge, (32 << 10, 40 << 10));
    assert_eq!(
        st[0].half, st[0].edge,
        "a sharp step's half-rise is its edge"
    );
    // Both ends count: a 32 KB and a 40 KB cache hold on the L1's step, 48 KB does not.
    assert_eq!(held(32 << 10, &st), Some(st[0]));
    assert_eq!(held(40 << 10, &st), Some(st[0]));
    assert_eq!(held(48 << 10, &st), None);
    // The L2's half-rise (25 ns) lies between 1 MB (~20 ns) and 1.25 MB (25 ns): a 1 MB L2
    // holds, a 512 KB one (where the step starts) does not, nor one of 2 MB (where it ends).
    assert_eq!(st[1].edge, (512 << 10, 640 << 10));
    assert_eq!(st[1].half, (1 << 20, 1280 << 10));
    assert_eq!(held(1 << 20, &st), Some(st[1]));
    assert_eq!(held(512 << 10, &st), None);
    assert_eq!(held(2 << 20, &st), None);
}

#[test]
fn noise_on_a_flat_curve_makes_no_step() {
    use super::host_cpu::steps;
    // Up to ±8 % around 8 ns at each size, independently (a hash of the size): one level,
    // in each of a hundred draws.
    for draw in 0..100u64 {
        let p = curve_of(|s| {
            let mut h =
                (s ^ draw.wrapping_mul(0x9E37_79B9_7F4A_7C15)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
            h ^= h >> 31;
            let u = (h % 2001) as f64 / 1000.0 - 1.0;
            8.0 * (1.0 + 0.08 * u)
        });
        assert!(steps(&p).is_empty(), "draw {draw}: {:?}", steps(&p));
    }
    // A rise of 15 % between two long plateaus is under MIN_RISE: no step.
    let p = curve_of(staircase(&[(0, 8.0), (64 << 10, 9.2)]));
    assert!(steps(&p).is_empty(), "{:?}", steps(&p));
    // A curve that falls (a slow spell at small sizes) has no rise, so no step either.
    let p = curve_of(staircase(&[(0, 12.0), (64 << 10, 8.0)]));
    assert!(steps(&p).is_empty(), "{:?}", steps(&p));
}

/// Rows of the committed lavapipe passes with their latencies replaced by `f(size)` and the
/// host's caches by `caches` (a `host_caches` cell).
fn lavapipe_rows(f: &dyn Fn(u64) -> f64, caches: &str) -> Vec<Row> {
    let caches = crate::cpu_caches::parse_cell(caches).unwrap();
    host_cache_passes()[0]
        .iter()
        .map(|r| Row {
            latency_ns: curve::size_after(&r.test, derive::LATENCY)
                .map(f)
                .or(r.latency_ns),
            host_caches: caches.clone(),
            ..r.clone()
        })
        .collect()
}

#[test]
fn an_epyc_whose_curve_shows_no_cache_is_not_held_and_no_failure() {
    // Issue 62's AMD EPYC (sysfs: L1d 32 KB 8-way, L2 512 KB 8-way, L3 32 MB 16-way), its
    // first lone run: steps at 40–48 KB, 128–160 KB, 320–384 KB, 2.5–3 MB and 4–5 MB, none of
    // them at a cache's size.
    let epyc = "L1d 32 KB 8-way 64 B lines; L2 512 KB 8-way 64 B lines; L3 32 MB 16-way 64 B lines";
    let f = staircase(&[
        (0, 8.0),
        (48 << 10, 10.0),
        (160 << 10, 12.5),
        (384 << 10, 15.6),
        (3 << 20, 30.0),
        (5 << 20, 45.0),
    ]);
    let s = summary_of_passes(&[lavapipe_rows(&f, epyc)]);
    for what in ["L1d (32 KB)", "L2 (512 KB)"] {
        let v = find(&s, what).value.as_deref().unwrap();
        assert!(
            v.starts_with("does not hold: no step of the curve is half done"),
            "{what}: {v}"
        );
        assert!(find(&s, what).quantities.is_empty());
    }
    // The L3 lies past the curve; the five steps are listed as no cache's.
    assert!(find(&s, "L3 (32 MB)").value.is_err());
    let others = find(&s, "steps no cache of the host's explains");
    let v = others.value.as_deref().unwrap();
    for step in [
        "40 KB – 48 KB",
        "128 KB – 160 KB",
        "320 KB – 384 KB",
        "2.5 MB – 3 MB",
        "4 MB – 5 MB",
    ] {
        assert!(v.contains(step), "{step} not in {v}");
    }
    // Its second lone run: the L1d's step at 32–40 KB holds; the L2's does not.
    let f = staircase(&[
        (0, 8.0),
        (40 << 10, 10.0),
        (384 << 10, 12.5),
        (768 << 10, 15.6),
        (3 << 20, 30.0),
    ]);
    let s = summary_of_passes(&[lavapipe_rows(&f, epyc)]);
    assert_eq!(
        find(&s, "L1d (32 KB)").value.as_deref(),
        Ok("32 KB – 40 KB: holds (the step from 8.00 to 10.0 ns)")
    );
    assert!(find(&s, "L2 (512 KB)")
        .value
        .as_deref()
        .unwrap()
        .starts_with("does not hold"));
}

#[test]
fn a_real_epycs_curve_holds_its_caches_in_three_passes_and_one_pass_may_not() {
    // results/lavapipe/host-caches-epyc-1128: a KVM AMD EPYC (family 25 model 17; sysfs:
    // L1d 32 KB, L2 1 MB, L3 32 MB), three shuffled passes.
    let passes: Vec<Vec<Row>> = (1..=3)
        .map(|i| {
            let path = committed(&format!("lavapipe/host-caches-epyc-1128/pass{i}.csv.gz"));
            crate::compare::read::read_path(&path).unwrap().rows
        })
        .collect();
    let s = summary_of_passes(&passes);
    assert_eq!(
        find(&s, "L1d (32 KB)").value.as_deref(),
        Ok("32 KB – 40 KB: holds (the step from 6.33 to 8.60 ns)")
    );
    let l2 = find(&s, "L2 (1 MB)").value.as_deref().unwrap();
    assert!(
        l2.starts_with("1 MB – 1.25 MB: holds (half-way from 9.50 to 18.5 ns"),
        "{l2}"
    );
    // Its second pass alone: the L2's step lies elsewhere (768–896 KB): not held, and the
    // section says so instead of failing.
    let alone = summary_of_passes(&passes[1..2]);
    let l2 = find(&alone, "L2 (1 MB)").value.as_deref().unwrap();
    assert!(
        l2.starts_with("does not hold: no step of the curve is half done at 1 MB"),
        "{l2}"
    );
    assert!(find(&alone, "L1d (32 KB)")
        .value
        .as_deref()
        .unwrap()
        .contains(": holds"));
}

#[test]
fn repeated_latency_rows_keep_the_fastest_and_other_rows_the_first() {
    let row = |test: &str, ns: Option<f64>, gbs: Option<f64>| Row {
        test: test.into(),
        status: Some(crate::Status::Ok),
        latency_ns: ns,
        gbytes_per_s: gbs,
        ..Default::default()
    };
    let a = [
        row("latency: ByteAddressBuffer 4 KB", Some(12.0), None),
        row("bandwidth: ByteAddressBuffer.Load4 4 KB", None, Some(10.0)),
    ];
    let b = [
        row("latency: ByteAddressBuffer 4 KB", Some(8.0), None),
        row("bandwidth: ByteAddressBuffer.Load4 4 KB", None, Some(20.0)),
        Row {
            status: Some(crate::Status::Error),
            ..row("latency: ByteAddressBuffer 4 KB", Some(1.0), None)
        },
    ];
    let d = &devices(&[("a", &a), ("b", &b)])[0];
    assert_eq!(
        d.get("latency: ByteAddressBuffer 4 KB").unwrap().latency_ns,
        Some(8.0)
    );
    assert_eq!(
        d.get("bandwidth: ByteAddressBuffer.Load4 4 KB")
            .unwrap()
            .gbytes_per_s,
        Some(10.0)
    );
}

#[test]
fn a_row_is_placed_on_its_curve_at_the_working_set_it_ran_not_the_one_its_name_says() {
    // A step from 50 to 300 clocks between 20 and 24 KB, the rows' names reversed (the
    // smallest working set named the largest size): only `working_set_bytes` says where each
    // lies. Read from the names, the curve would step down, at another place.
    let sizes: Vec<u64> = points(&[0.0; 18]).iter().map(|p| p.size).collect();
    let mut rows: Vec<Row> = sizes
        .iter()
        .zip(sizes.iter().rev())
        .enumerate()
        .map(|(i, (ran, named))| Row {
            test: format!("{}{}", derive::LATENCY, curve::size_name(*named)),
            status: Some(crate::Status::Ok),
            latency_clk: Some(if i < 10 { 50.0 } else { 300.0 }),
            working_set_bytes: Some(*ran),
            ..Default::default()
        })
        .collect();
    // A row of a file older than the column is placed by its name; rows of other curves,
    // whatever working set they carry, are not on this one.
    rows.push(Row {
        test: format!("{}4 MB", derive::LATENCY),
        status: Some(crate::Status::Ok),
        latency_clk: Some(300.0),
        ..Default::default()
    });
    for other in [derive::BESIDE_SHARED, derive::BANDWIDTH] {
        rows.push(Row {
            test: format!("{other}4 KB"),
            status: Some(crate::Status::Ok),
            latency_clk: Some(1.0),
            gbytes_per_s: Some(1.0),
            working_set_bytes: Some(4 << 10),
            ..Default::default()
        });
    }
    let d = Device::new("GPU", "D 1", rows);
    let lat = parts::points(&d, derive::LATENCY, |r| r.latency_clk);
    let placed: Vec<(u64, f64, &str)> = lat
        .iter()
        .map(|p| (p.size, p.value, p.test.as_str()))
        .collect();
    assert_eq!(placed.len(), 19);
    assert_eq!(
        placed[0],
        (4 << 10, 50.0, "latency: ByteAddressBuffer 80 KB")
    );
    assert_eq!(
        placed[9],
        (20 << 10, 50.0, "latency: ByteAddressBuffer 16 KB")
    );
    assert_eq!(
        placed[10],
        (24 << 10, 300.0, "latency: ByteAddressBuffer 14 KB")
    );
    assert_eq!(
        placed[18],
        (4 << 20, 300.0, "latency: ByteAddressBuffer 4 MB")
    );
    let s = derive::summary(&d, &crate::suite::test_catalog());
    let edge = find(&s, "L1: edge by latency");
    assert!(
        edge.value.as_ref().unwrap().starts_with("20 KB – 24 KB"),
        "{:?}",
        edge.value
    );
}
