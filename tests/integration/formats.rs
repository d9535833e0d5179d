//! The `formats` suite on lavapipe: every test verified against the CPU reference under the validation layer and timed (each family's timing under the layer too), unsupported only where lavapipe lacks what the test names, and a corrupted reference caught by every family of the suite.

use crate::common::*;

/// Why a test of the suite may be unsupported on lavapipe: it has no ETC2 or ASTC, and only
/// one memory type (device-local and host-visible), so no host-only memory.
fn expected_unsupported(name: &str, reason: &str) -> bool {
    (name.contains("<ETC2_RGBA8>") && reason.contains("textureCompressionETC2"))
        || (name.contains("<ASTC_4x4>") && reason.contains("textureCompressionASTC_LDR"))
        || (name.contains(" (host-visible) ")
            && reason.contains(
                "no memory type that is HOST_VISIBLE | HOST_COHERENT without DEVICE_LOCAL",
            ))
}

#[test]
fn every_formats_test_verifies_under_validation() {
    let dir = tempdir("formats");
    let (o, csv) = verify_suite(&dir, "formats");
    let names = listed("formats");
    assert!(names.len() > 600, "{}", names.len());
    for probe in [
        "Texture1D<RGBA8>.Sample(linear) random",
        "Texture2DArray<R16F>.Sample(bilinear) linear",
        "Texture3D<RGBA32F>.Sample(trilinear) uniform",
        "Buffer<RGBA16_SNORM>.Load linear",
        "Buffer<R11F_G11F_B10F>.Load random",
        "Texture2D<RGBA32UI>.Sample(nearest) random",
        "Texture2D<BC7>.Sample(bilinear) random",
        "ByteAddressBuffer.Load4 (host-visible) linear",
        "cbuffer{float4} load (device-local+host-visible) uniform",
    ] {
        assert!(names.iter().any(|n| n == probe), "{probe} missing");
    }
    let mut reader = csv::Reader::from_path(&csv).unwrap();
    let header = reader.headers().unwrap().clone();
    let col = |n: &str| header.iter().position(|h| h == n).unwrap();
    let rows: Vec<csv::StringRecord> = reader.records().map(Result::unwrap).collect();
    assert_eq!(rows.len(), names.len());
    let mut ok = 0;
    for (row, name) in rows.iter().zip(&names) {
        assert_eq!(&row[col("test")], name.as_str());
        let (status, reason) = (&row[col("status")], &row[col("reason")]);
        match status {
            "ok" => ok += 1,
            "unsupported" => assert!(expected_unsupported(name, reason), "{name}: {reason}"),
            _ => panic!("{name}: {status} {reason}"),
        }
        // The memory column: the chosen type for the memory tests that ran, else empty.
        let memory = &row[col("memory")];
        let placed = name.contains(" (device-local") || name.contains(" (host-visible)");
        if placed && status == "ok" {
            assert!(
                memory.starts_with("type ") && memory.contains("heap "),
                "{name}: {memory}"
            );
        } else {
            assert_eq!(memory, "", "{name}");
        }
    }
    // Everything but ETC2, ASTC (3 reads × 3 patterns each) and the 30 host-only tests.
    assert_eq!(ok, names.len() - 18 - 30, "{}", stdout(&o));
}

/// Timed and unsupported lines of a formats-suite run's output.
fn timed_and_unsupported(out: &str) -> (usize, usize) {
    let unsupported = out
        .lines()
        .filter(|l| l.contains(": unsupported ("))
        .count();
    (timed_lines(out), unsupported)
}

#[test]
fn the_formats_suite_times() {
    // Every test timed (the validation layer, which makes this run five times slower, checks
    // the verify of every test above and the timing path of every family below).
    let o = run(&[
        "--device",
        lavapipe(),
        "--groups",
        "1",
        "--samples",
        "2",
        "--warmup",
        "1",
        // Drift checks between blocks as in any run, at a limit lavapipe's swings stay within
        // (its baseline flips between two times up to 93 % apart: at the default limit every
        // row was flagged and the run waited 103 s of its 112 s for the baseline).
        "--drift-limit",
        LAVAPIPE_DRIFT_LIMIT,
        "--suite",
        "formats",
    ]);
    let out = stdout(&o);
    assert!(o.status.success(), "{out}\n{}", stderr(&o));
    let (timed, unsupported) = timed_and_unsupported(&out);
    let listed = stdout(&run(&["--list-tests", "--suite", "formats"]))
        .lines()
        .count();
    assert_eq!(timed + unsupported, listed, "{out}");
    assert_eq!(unsupported, 48, "{out}");
}

#[test]
fn every_formats_family_times_silently_under_validation() {
    // The first three tests of each family: every family's resources bound, uploaded and
    // timed (timestamps, barriers, the drift check) under the layer, which must stay silent.
    let o = perftest()
        .args([
            "--device",
            lavapipe(),
            "--validation",
            "--groups",
            "1",
            "--drift-limit",
            LAVAPIPE_DRIFT_LIMIT,
            "--samples",
            "2",
            "--warmup",
            "1",
            "--suite",
            "formats",
        ])
        .env("PERFTEST_FIRST_TESTS", "3/family")
        .output()
        .unwrap();
    let out = stdout(&o);
    assert!(o.status.success(), "{out}\n{}", stderr(&o));
    assert_no_validation_messages(&o);
    let (timed, unsupported) = timed_and_unsupported(&out);
    // Four families (texture_dims, format_buffer, format_texture, memory_location), three
    // tests each.
    assert_eq!(timed + unsupported, 12, "{out}");
    assert!(timed >= 9, "{out}");
}

#[test]
fn every_formats_family_detects_a_corrupted_reference() {
    let filters = [
        "Texture1D<RGBA8>.Load linear",
        "Texture1D<R16F>.Sample(linear) random",
        "Texture2DArray<R32F>.Sample(nearest) uniform",
        "Texture3D<RG16F>.Sample(trilinear) random",
        "Buffer<RGBA16UI>.Load random",
        "Buffer<RG8I>.Load linear",
        "Buffer<R11F_G11F_B10F>.Load linear",
        "Texture2D<RGB9_E5>.Load uniform",
        "Texture2D<R16_SNORM>.Sample(bilinear) linear",
        "Texture2D<BC1>.Load random",
        "Texture2D<BC5>.Sample(nearest) linear",
        "Texture2D<BC7>.Sample(bilinear) linear",
        "Buffer<R8>.Load (device-local+host-visible) linear",
        "cbuffer{float4} load (device-local) random",
    ];
    let mut args = vec![
        "--device",
        lavapipe(),
        "--groups",
        "1",
        "--verify",
        "--fault",
        "reference",
        "--suite",
        "formats",
    ];
    for f in &filters {
        args.extend(["--filter", f]);
    }
    let o = run(&args);
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    let out = stdout(&o);
    let mismatches = out
        .lines()
        .filter(|l| l.contains(": MISMATCH thread "))
        .count();
    assert_eq!(mismatches, filters.len(), "{out}");
}
