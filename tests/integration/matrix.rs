//! The `matrix` suite on lavapipe (Mesa 22.3: integer dot products and half floats, no
//! cooperative matrices of either extension, no bfloat16): what it offers verifies under the validation layer, the
//! rest are unsupported rows that say why, and a corrupted reference is caught.

use crate::common::*;

/// Why a test of the suite may be unsupported on lavapipe.
fn expected_unsupported(name: &str, reason: &str) -> bool {
    (name.starts_with("matrix: coopmat ") && reason == "the device lacks VK_KHR_cooperative_matrix")
        || (name.starts_with("matrix: coopmat2 ")
            && reason == "the device lacks VK_NV_cooperative_matrix2")
        || (name == "matrix: dot bf16vec2" && reason == "the device lacks shaderBFloat16DotProduct")
}

#[test]
fn the_matrix_suite_verifies_under_validation() {
    let dir = tempdir("matrix");
    let (o, csv) = verify_suite(&dir, "matrix");
    let names = listed("matrix");
    for probe in [
        "matrix: coopmat 16x16x16 f16*f16+f32 subgroup",
        "matrix: coopmat 16x16x32 s8*s8+s32 subgroup",
        "matrix: coopmat 16x16x16 u8*u8+u32 subgroup saturating",
        "matrix: coopmat configurations without a row",
        "matrix: coopmat2 64x64x16 f16*f16+f32 workgroup of 128",
        "matrix: coopmat2 flexible-dimension configurations",
        "matrix: dot 4x8-bit packed mixed accumulate-saturate",
        "matrix: dot f16vec2",
        "matrix: peak int8 vec4 mul+add",
    ] {
        assert!(names.iter().any(|n| n == probe), "{probe} missing");
    }
    let rows = csv_rows(&csv);
    assert_eq!(rows.len(), names.len());
    let mut ok = 0;
    for (row, name) in rows.iter().zip(&names) {
        assert_eq!(&row["test"], name);
        match row["status"].as_str() {
            "ok" => ok += 1,
            "unsupported" => {
                assert!(
                    expected_unsupported(name, &row["reason"]),
                    "{name}: {}",
                    row["reason"]
                )
            }
            s => panic!("{name}: {s} {}", row["reason"]),
        }
    }
    // The eight integer dot products, the half one, and the eight arithmetic peaks.
    assert_eq!(ok, 17, "{}", stdout(&o));
}

#[test]
fn dot_products_time_in_ops_and_flops() {
    let dir = tempdir("matrix-time");
    let csv = dir.join("matrix.csv");
    let o = run(&[
        "--device",
        lavapipe(),
        "--groups",
        "1",
        "--drift-limit",
        LAVAPIPE_DRIFT_LIMIT,
        "--samples",
        "2",
        "--warmup",
        "1",
        "--suite",
        "matrix",
        "--filter",
        "dot",
        "--csv",
        csv.to_str().unwrap(),
    ]);
    assert!(o.status.success(), "{}\n{}", stdout(&o), stderr(&o));
    let rows = csv_rows(&csv);
    assert_eq!(rows.len(), 10);
    for row in rows.iter().filter(|r| r["status"] == "ok") {
        let want = if row["test"].contains("f16vec2") {
            "flops"
        } else {
            "ops"
        };
        assert_eq!(row["unit"], want, "{}", row["test"]);
        // A 4×8-bit dot counts 8 operations, 16 chains × 1024 per thread; a pair 4.
        let per_dot = if row["test"].contains("4x8-bit") {
            8
        } else {
            4
        };
        let per_group: u64 = row["loads_per_dispatch"].parse::<u64>().unwrap()
            / row["groups"].parse::<u64>().unwrap();
        assert_eq!(per_group, 256 * 16 * 1024 * per_dot, "{}", row["test"]);
    }
}

#[test]
fn a_corrupted_reference_fails_every_dot_product() {
    let o = run(&[
        "--device",
        lavapipe(),
        "--groups",
        "1",
        "--verify",
        "--suite",
        "matrix",
        "--filter",
        "dot",
        "--fault",
        "reference",
    ]);
    assert!(!o.status.success());
    let out = stdout(&o);
    let mismatched = out.lines().filter(|l| l.contains(": MISMATCH ")).count();
    assert_eq!(mismatched, 9, "{out}");
}
