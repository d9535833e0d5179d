//! The whole original suite on lavapipe: every family verified against the CPU reference,
//! and timed, with the validation layer (synchronisation validation included) silent.

mod common;
use common::*;

#[test]
fn every_test_verifies_under_validation_and_csv_has_a_row_per_test_in_order() {
    let csv = std::env::temp_dir().join(format!("perftest-suite-{}.csv", std::process::id()));
    let o = run(&[
        "--device",
        lavapipe(),
        "--groups",
        "2",
        "--verify",
        "--validation",
        "--suite",
        "all",
        "--csv",
        csv.to_str().unwrap(),
    ]);
    assert!(o.status.success(), "{}\n{}", stdout(&o), stderr(&o));
    assert_no_validation_messages(&o);
    let out = stdout(&o);
    // Every suite: the original 138 first, byte for byte, then control, then extended.
    let listed = run(&["--list-tests", "--suite", "all"]);
    let names: Vec<String> = stdout(&listed).lines().map(String::from).collect();
    assert_eq!(names[..138], original_names()[..]);
    assert!(names.iter().any(|n| n == "RWBuffer<RGBA8>.Load linear"));
    assert!(names
        .iter()
        .any(|n| n == "Buffer<R8>.Load uniform (subgroup broadcast)"));
    let lines: Vec<&str> = out
        .lines()
        .skip_while(|l| !l.starts_with("Using device"))
        .skip(1)
        .collect();
    assert_eq!(lines.len(), names.len(), "{out}");
    for (line, name) in lines.iter().zip(&names) {
        assert_eq!(*line, format!("{name}: ok"));
    }
    let mut reader = csv::Reader::from_path(&csv).unwrap();
    let header = reader.headers().unwrap().clone();
    let col = |n: &str| header.iter().position(|h| h == n).unwrap();
    let rows: Vec<csv::StringRecord> = reader.records().map(Result::unwrap).collect();
    assert_eq!(rows.len(), names.len());
    for (i, (row, name)) in rows.iter().zip(&names).enumerate() {
        assert_eq!(&row[col("test")], name.as_str());
        assert_eq!(&row[col("test_index")], (i + 1).to_string());
        assert_eq!(&row[col("status")], "ok", "{row:?}");
        assert_eq!(&row[col("mode")], "verify");
    }
    std::fs::remove_file(csv).ok();
}

#[test]
fn every_family_detects_a_corrupted_reference() {
    // One test per family: a reference computed from other data must not pass.
    let o = run(&[
        "--device",
        lavapipe(),
        "--groups",
        "1",
        "--verify",
        "--fault",
        "reference",
        "--suite",
        "all",
        "--filter",
        "Buffer<RG16f>.Load linear",
        "--filter",
        "ByteAddressBuffer.Load3 random",
        "--filter",
        "ByteAddressBuffer.Load2 unaligned uniform",
        "--filter",
        "StructuredBuffer<float2>.Load random",
        "--filter",
        "cbuffer{float4} load linear",
        "--filter",
        "Texture2D<RGBA8>.Load random",
        "--filter",
        "Texture2D<R16F>.Sample(nearest) linear",
        "--filter",
        "Texture2D<RG32F>.Sample(bilinear) uniform",
        "--filter",
        "RWBuffer<RG16f>.Load random",
        "--filter",
        "RWTexture2D<RGBA8>.Load linear",
        "--filter",
        "StructuredBuffer<float3>.Load packed uniform",
        "--filter",
        "StructuredBuffer<uint8_t>.Load linear",
        "--filter",
        "StructuredBuffer<float16_t>.Load random",
        "--filter",
        "BufferReference<float2>.Load linear",
        "--filter",
        "PushConstant{float4[6]} load random",
        "--filter",
        "groupshared{float4} load linear",
        "--filter",
        "Texture2D<RGBA16F>.Load uniform (subgroup broadcast)",
        "--filter",
        "fp32 add",
        "--filter",
        "subgroup shuffle",
        "--filter",
        "shared u32 load, stride 4",
        "--filter",
        "occupancy: load loop, 64 registers",
    ]);
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    let out = stdout(&o);
    let mismatches = out
        .lines()
        .filter(|l| l.contains(": MISMATCH thread "))
        .count();
    let tests = out
        .lines()
        .filter(|l| l.ends_with(": ok") || l.contains(": MISMATCH"))
        .count();
    assert!(tests >= 21, "{out}");
    assert_eq!(mismatches, tests, "{out}");
}

#[test]
fn the_whole_suite_times_under_validation() {
    let o = run(&[
        "--device",
        lavapipe(),
        "--groups",
        "1",
        "--samples",
        "2",
        "--warmup",
        "1",
        "--validation",
        "--suite",
        "all",
    ]);
    assert!(o.status.success(), "{}\n{}", stdout(&o), stderr(&o));
    assert_no_validation_messages(&o);
    // Load rows carry a ratio to the baseline (`0.123ms 1.000x`); the instruction suite's
    // operations per clock have none (`0.123ms`).
    let timed = stdout(&o)
        .lines()
        .filter(|l| (l.ends_with('x') && l.contains("ms ")) || l.ends_with("ms"))
        .count();
    let expected = stdout(&run(&["--list-tests", "--suite", "all"]))
        .lines()
        .count();
    assert_eq!(timed, expected, "{}", stdout(&o));
    assert!(stdout(&o).contains("Control: loop 2D: "));
}

#[test]
fn an_invalid_barrier_is_reported_by_the_validation_layer() {
    // Proves the validation checks above can fail: the layer is really loaded and heard.
    let o = run(&[
        "--device",
        lavapipe(),
        "--groups",
        "1",
        "--samples",
        "3",
        "--warmup",
        "0",
        "--validation",
        "--filter",
        "cbuffer{float4} load uniform",
        "--fault",
        "invalid-barrier",
    ]);
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    let err = stderr(&o);
    assert!(err.contains("VUID-vkCmdPipelineBarrier"), "{err}");
    assert!(err.contains("the validation layer reported"), "{err}");
}

#[test]
fn latency_kernels_are_verified_too() {
    // A chain that contracts to a fixed point (sqrt -> 1) ends at the same value whatever its
    // start, so a corrupted input only shows in the latency kernel, where 15 of the 16 chains
    // keep their start: the latency kernels' results are checked as well.
    let o = run(&[
        "--device",
        lavapipe(),
        "--groups",
        "1",
        "--verify",
        "--suite",
        "instructions",
        "--filter",
        "fp32 sqrt",
        "--fault",
        "reference",
    ]);
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    assert!(
        stdout(&o).contains("fp32 sqrt: MISMATCH latency kernel: thread "),
        "{}",
        stdout(&o)
    );
}

#[test]
fn the_instruction_suite_prints_its_own_table_and_counts_operations() {
    let dir = tempdir("instructions");
    let csv = dir.join("instructions.csv");
    let o = run(&[
        "--device",
        lavapipe(),
        "--groups",
        "1",
        "--samples",
        "2",
        "--warmup",
        "0",
        "--suite",
        "all",
        "--filter",
        "cbuffer{float4} load uniform",
        "--filter",
        "fp32 fma",
        "--filter",
        "shared u32 load, stride 4",
        "--format",
        "table",
        "--csv",
        csv.to_str().unwrap(),
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    let out = stdout(&o);
    let lines: Vec<&str> = out.lines().collect();
    // The load table as before, then the instruction table under its own header.
    assert!(
        lines[0].starts_with("test ") && lines[0].contains("loads/clk/CU"),
        "{out}"
    );
    assert!(
        lines[1].starts_with("cbuffer{float4} load uniform "),
        "{out}"
    );
    let at = lines
        .iter()
        .position(|l| l.starts_with("operation "))
        .expect("an instruction header");
    assert!(
        lines[at].contains("ops/clk/CU") && lines[at].contains("latency clk"),
        "{out}"
    );
    assert_eq!(lines[at - 1], "", "{out}");
    assert!(lines[at + 1].starts_with("fp32 fma "), "{out}");
    assert!(
        lines[at + 2].starts_with("shared u32 load, stride 4 "),
        "{out}"
    );
    assert!(lines[at + 1].trim_end().ends_with("ok"), "{out}");

    let mut reader = csv::Reader::from_path(&csv).unwrap();
    let header = reader.headers().unwrap().clone();
    let col = |n: &str| header.iter().position(|h| h == n).unwrap();
    let rows: Vec<csv::StringRecord> = reader.records().map(Result::unwrap).collect();
    let row = |test: &str| rows.iter().find(|r| &r[col("test")] == test).unwrap();
    // fp32 fma: 64 iterations × 16 rounds × 16 chains per thread, 256 threads per group.
    let fma = row("fp32 fma");
    assert_eq!(&fma[col("unit")], "ops");
    assert_eq!(&fma[col("family")], "alu");
    assert_eq!(&fma[col("loads_per_dispatch")], (256 * 16384).to_string());
    assert_eq!(&fma[col("ratio")], "", "operations have no ratio to a load");
    // No shader clock on a CPU device: no latency, as no clock_mhz.
    assert_eq!(&fma[col("latency_clk")], "");
    assert_eq!(&fma[col("clock_mhz")], "");
    let shared = row("shared u32 load, stride 4");
    assert_eq!(&shared[col("unit")], "loads");
    assert_eq!(&shared[col("loads_per_dispatch")], (256 * 4096).to_string());
    assert_eq!(&shared[col("gbytes_per_s")].is_empty(), &false);
    assert_eq!(&row("cbuffer{float4} load uniform")[col("unit")], "loads");
    std::fs::remove_dir_all(dir).ok();
}
