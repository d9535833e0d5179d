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
        "Texture2D<RGBA16F>.Load uniform (elected lane + broadcast)",
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
    assert!(tests >= 37, "{out}");
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
    let timed = stdout(&o)
        .lines()
        .filter(|l| l.ends_with('x') && l.contains("ms "))
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
fn the_wave_wide_probes_verify_with_other_subgroup_sizes() {
    // llvmpipe's subgroup size is its SIMD width in 32-bit lanes: LP_NATIVE_VECTOR_WIDTH=128
    // makes it 4 (and 256, the default on AVX2, 8): the wave-wide kernels must take the
    // block of that size and stay exact.
    for (width, size) in [("128", "4"), ("256", "8")] {
        let json = tempdir("subgroup").join("run.json");
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
