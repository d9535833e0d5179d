//! The original, control and extended suites on lavapipe: every family verified against the
//! CPU reference, and timed, with the validation layer (synchronisation validation included)
//! silent. (The formats suite, where some tests are unsupported on lavapipe: tests/integration/formats.rs.)

use crate::common::*;

#[test]
fn every_test_verifies_under_validation_and_csv_has_a_row_per_test_in_order() {
    let dir = tempdir("suite");
    let (o, csv) = verify_suite(&dir, "original,control,extended,write,instructions,ceiling");
    let out = stdout(&o);
    // The suites lavapipe runs in full: the original 138 first, byte for byte, then control,
    // extended, write, instructions and ceiling (formats, with its unsupported rows there, has
    // tests/integration/formats.rs).
    let names = listed("original,control,extended,write,instructions,ceiling");
    assert_eq!(names[..138], original_names()[..]);
    assert!(names.iter().any(|n| n == "RWBuffer<RGBA8>.Load linear"));
    assert!(names
        .iter()
        .any(|n| n == "Buffer<R8>.Load uniform (elected lane + broadcast)"));
    assert!(names
        .iter()
        .any(|n| n == "Buffer<R8>.Load uniform (wave-wide load + shuffle)"));
    assert!(names
        .iter()
        .any(|n| n == "cbuffer{float4} load uniform (unrolled ceiling)"));
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
    // test_index is the position in the full suite, which holds `formats` before
    // `instructions`.
    let all: Vec<String> = stdout(&run(&["--list-tests", "--suite", "all"]))
        .lines()
        .map(String::from)
        .collect();
    for (row, name) in rows.iter().zip(&names) {
        assert_eq!(&row[col("test")], name.as_str());
        let index = all.iter().position(|n| n == name).unwrap() + 1;
        assert_eq!(&row[col("test_index")], index.to_string());
        assert_eq!(&row[col("status")], "ok", "{row:?}");
        assert_eq!(&row[col("mode")], "verify");
    }
}

#[test]
// Long on purpose: the list of one test per family, then one check over them all.
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
        "Texture2D<RGBA16F>.Load uniform (elected lane + broadcast)",
        // The write families: the expected memory is corrupted instead.
        "--filter",
        "RWStructuredBuffer<uint2>.Store random",
        "--filter",
        "RWBuffer<RG8>.Store linear",
        "--filter",
        "RWTexture2D<R16F>.Store uniform",
        "--filter",
        "groupshared{float4} store random",
        "--filter",
        "RWByteAddressBuffer.InterlockedAdd64 linear",
        "--filter",
        "RWTexture2D<uint>.InterlockedAdd random",
        "--filter",
        "groupshared{uint} InterlockedAdd uniform",
        // The instruction families.
        "--filter",
        "fp32 add",
        "--filter",
        "subgroup shuffle",
        "--filter",
        "shared u32 load, stride 4",
        "--filter",
        "occupancy: load loop, 64 registers",
        "--filter",
        "Buffer<RG8>.Load uniform (wave-wide load + shuffle)",
        "--filter",
        "ByteAddressBuffer.Load3 uniform (wave-wide load + unrolled broadcast)",
        "--filter",
        "StructuredBuffer<float>.Load uniform (wave-wide load + shuffle)",
        "--filter",
        "cbuffer{float4} load uniform (wave-wide load + unrolled broadcast)",
        "--filter",
        "Texture2D<R16F>.Load uniform (wave-wide load + shuffle)",
        "--filter",
        "Texture2D<RGBA8>.Sample(bilinear) uniform (wave-wide load + unrolled broadcast)",
        "--filter",
        "Buffer<RGBA16f>.Load linear (unrolled ceiling)",
        "--filter",
        "ByteAddressBuffer.Load2 unaligned linear (unrolled ceiling)",
        "--filter",
        "StructuredBuffer<float4>.Load linear (unrolled ceiling)",
        "--filter",
        "cbuffer{float4} load uniform (unrolled ceiling)",
        "--filter",
        "Texture2D<RG32F>.Load linear (unrolled ceiling)",
        "--filter",
        "Texture2D<R8>.Sample(nearest) linear (unrolled ceiling)",
        "--filter",
        "Texture2D<RG8>.Sample(nearest, immutable sampler) random",
        "--filter",
        "Texture2D<RGBA16F>.Sample(nearest, combined sampler) linear",
        "--filter",
        "Texture2D<R32F>.Sample(nearest, combined immutable sampler) uniform",
        "--filter",
        "Texture2D<RG16F>.Sample(nearest, clamp to edge) random",
        "--filter",
        "Texture2D<RGBA8>.Sample(nearest, unnormalized coordinates) linear",
        "--filter",
        "Texture2D<R16F>.Sample(nearest, GENERAL layout) random",
        "--filter",
        "Texture2D<RG32F>.Sample(nearest, linear tiling) linear",
        "--filter",
        "Texture2D<RGBA32F>.Sample(bilinear, immutable sampler) random",
        // The branch and pitfalls suites (whose inputs are read: the private-array set's
        // values are the kernels' own constants, so it has none to corrupt).
        "--filter",
        "8X Divergent branch long",
        "--filter",
        "Pitfall struct fields: apart",
        "--filter",
        "Pitfall switch: fall-through",
        "--filter",
        "Pitfall reads in flight: 4 chains",
        "--filter",
        "Pitfall fp32 math: precise",
    ]);
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    let out = stdout(&o);
    let mismatches = out
        .lines()
        .filter(|l| {
            [
                ": MISMATCH thread ",
                ": MISMATCH element ",
                ": MISMATCH texel ",
            ]
            .iter()
            .any(|m| l.contains(m))
        })
        .count();
    let tests = out
        .lines()
        .filter(|l| l.ends_with(": ok") || l.contains(": MISMATCH"))
        .count();
    assert!(tests >= 53, "{out}");
    assert_eq!(mismatches, tests, "{out}");
}

#[test]
fn the_whole_suite_times_under_validation() {
    let o = run_clean(&[
        "--groups",
        "1",
        "--samples",
        "2",
        "--warmup",
        "1",
        // The drift checks run under the layer between blocks as in any run, at a limit that
        // lavapipe's swings stay within: its baseline flips between two times 40–93 % apart
        // on a quiet two-core VM, which flagged 640 of 769 rows and spent 100–160 s of this
        // test waiting for the baseline to come back (7 s at this limit).
        "--drift-limit",
        LAVAPIPE_DRIFT_LIMIT,
        "--suite",
        "original,control,extended,write,instructions,ceiling",
    ]);
    let timed = timed_lines(&stdout(&o));
    let expected = stdout(&run(&[
        "--list-tests",
        "--suite",
        "original,control,extended,write,instructions,ceiling",
    ]))
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
fn the_write_suite_verifies_under_validation_with_its_counts_in_the_csv() {
    let dir = tempdir("write");
    let (o, csv) = verify_suite(&dir, "write");
    assert!(
        stderr(&o).contains("96 ok, 0 unsupported, 0 failed"),
        "{}",
        stderr(&o)
    );
    let mut reader = csv::Reader::from_path(&csv).unwrap();
    let header = reader.headers().unwrap().clone();
    let col = |n: &str| header.iter().position(|h| h == n).unwrap();
    let rows: Vec<csv::StringRecord> = reader.records().map(Result::unwrap).collect();
    assert_eq!(rows.len(), 96);
    for row in &rows {
        assert_eq!(&row[col("status")], "ok", "{row:?}");
        // loads_per_dispatch counts the stores or atomics: 256 per thread.
        let groups: u64 = row[col("groups")].parse().unwrap();
        assert_eq!(
            row[col("loads_per_dispatch")].parse::<u64>().unwrap(),
            groups * 256 * 256
        );
    }
    let by_name = |n: &str| rows.iter().find(|r| &r[col("test")] == n).unwrap();
    let r = by_name("RWByteAddressBuffer.InterlockedAdd64 random");
    assert_eq!(
        (&r[col("family")], &r[col("resource")]),
        ("buffer_atomic", "STORAGE_BUFFER")
    );
    assert_eq!(&r[col("format")], "uint64_t");
    let r = by_name("RWTexture2D<RGBA16F>.Store linear");
    assert_eq!(&r[col("format")], "R16G16B16A16_SFLOAT");
}

#[test]
fn a_write_test_that_drops_stores_fails_verification() {
    // --fault drop-writes verifies with elementsMask = 1: every kernel then writes only odd
    // elements (texels), as if it dropped or merged half its stores and atomics.
    let o = run(&[
        "--device",
        lavapipe(),
        "--groups",
        "1",
        "--verify",
        "--suite",
        "write",
        "--fault",
        "drop-writes",
    ]);
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    let out = stdout(&o);
    let mismatches: Vec<&str> = out.lines().filter(|l| l.contains(": MISMATCH ")).collect();
    assert_eq!(mismatches.len(), 96, "{out}");
    assert!(
        out.contains("RWStructuredBuffer<float4>.Store uniform: MISMATCH element 0 .x: expected -31.9375, got 0 ("),
        "{out}"
    );
    assert!(out.contains("RWTexture2D<RGBA8>.Store linear: MISMATCH texel 0 .x: expected "));
}

#[test]
fn missing_atomic_features_give_unsupported_rows_naming_them() {
    let o = run(&[
        "--device",
        lavapipe(),
        "--groups",
        "1",
        "--samples",
        "1",
        "--warmup",
        "0",
        "--strict",
        "--suite",
        "write",
        "--filter",
        "InterlockedAdd64",
        "--filter",
        "RWStructuredBuffer<float>.InterlockedAdd",
        "--filter",
        "RWByteAddressBuffer.InterlockedAdd uniform",
        "--fault",
        "no-atomic-features",
    ]);
    // --strict: unsupported rows fail the run.
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    let out = stdout(&o);
    assert!(out.contains(
        "RWByteAddressBuffer.InterlockedAdd64 linear: unsupported (the device lacks shaderBufferInt64Atomics)"
    ), "{out}");
    assert!(
        out.contains(
            "RWStructuredBuffer<float>.InterlockedAdd random: unsupported (the device lacks \
         shaderBufferFloat32AtomicAdd (VK_EXT_shader_atomic_float))"
        ),
        "{out}"
    );
    assert!(
        out.contains("RWByteAddressBuffer.InterlockedAdd uniform: "),
        "{out}"
    );
    assert!(
        stderr(&o).contains("1 ok, 6 unsupported, 0 failed"),
        "{}",
        stderr(&o)
    );
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
        // The layout is checked: no DISTURBED status from a CPU busy with other tests.
        "--drift-limit",
        "off",
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
}

#[test]
fn the_wave_wide_probes_verify_with_other_subgroup_sizes() {
    // llvmpipe's subgroup size is its SIMD width in 32-bit lanes: LP_NATIVE_VECTOR_WIDTH=128
    // makes it 4 (and 256, the default on AVX2, 8): the wave-wide kernels must take the
    // block of that size and stay exact.
    for (width, size) in [("128", "4"), ("256", "8")] {
        let dir = tempdir("subgroup");
        let json = dir.join("run.json");
        let o = perftest()
            .args([
                "--device",
                lavapipe(),
                "--suite",
                "extended",
                "--filter",
                "uniform (wave-wide",
                "--verify",
                "--groups",
                "1",
                "--json",
                json.to_str().unwrap(),
            ])
            .env("LP_NATIVE_VECTOR_WIDTH", width)
            .env("MESA_SHADER_CACHE_DIR", shader_cache(Some(width)))
            .output()
            .unwrap();
        assert!(o.status.success(), "{}\n{}", stdout(&o), stderr(&o));
        let out = stdout(&o);
        assert_eq!(out.matches(": ok").count(), 92, "{out}");
        let json = std::fs::read_to_string(json).unwrap();
        assert!(
            json.contains(&format!("\"subgroup_size\": {size},")),
            "LP_NATIVE_VECTOR_WIDTH={width} did not give subgroup size {size}"
        );
    }
}
