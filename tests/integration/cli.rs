//! Command-line behaviour on lavapipe: listing, device choice, filters, CSV, verification.

use crate::common::*;

#[test]
fn list_tests_is_the_original_list() {
    let o = run(&["--list-tests"]);
    assert!(o.status.success());
    let names: Vec<String> = stdout(&o).lines().map(String::from).collect();
    assert_eq!(names, original_names());
}

#[test]
fn list_devices_shows_every_field() {
    let o = run(&["--list-devices"]);
    assert!(o.status.success(), "{}", stderr(&o));
    let text = stdout(&o);
    let idx = lavapipe();
    let block: String = text
        .split_inclusive('\n')
        .skip_while(|l| !l.starts_with(&format!("{idx}: llvmpipe")))
        .take(6)
        .collect();
    assert!(block.contains("type:    cpu"), "{block}");
    assert!(block.contains("id:      10005:"), "{block}");
    assert!(block.contains("driver:  llvmpipe"), "{block}");
    assert!(block.contains("vulkan:  1."), "{block}");
    let uuid = block.lines().find(|l| l.contains("uuid:")).unwrap();
    assert_eq!(uuid.split_whitespace().nth(1).unwrap().len(), 36, "{uuid}");
}

#[test]
fn bad_device_index_exits_2_and_lists_devices() {
    let o = run(&["--device", "99", "--filter", "cbuffer"]);
    assert_eq!(o.status.code(), Some(2));
    let err = stderr(&o);
    assert!(err.contains("--device 99 does not exist"), "{err}");
    assert!(err.contains("llvmpipe"), "{err}");
    assert!(stdout(&o).is_empty());
}

#[test]
fn an_empty_device_selector_is_a_usage_error() {
    for sel in ["", " ", ",", "cpu,", "0,,cpu"] {
        let o = run(&["--device", sel, "--filter", "cbuffer", "--groups", "1"]);
        assert_eq!(o.status.code(), Some(2), "--device {sel:?}: {}", stderr(&o));
        assert!(
            stderr(&o).contains("empty selector"),
            "--device {sel:?}: {}",
            stderr(&o)
        );
        assert!(stdout(&o).is_empty(), "--device {sel:?}: {}", stdout(&o));
    }
}

#[test]
fn filter_that_matches_nothing_exits_2() {
    let o = run(&["--filter", "nosuch"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("matches no test"), "{}", stderr(&o));
    // A test of another suite: the message says which suite holds it, listing or running.
    for list in [&[][..], &["--list-tests"][..]] {
        let mut args = vec!["--filter", "ETC2"];
        args.extend_from_slice(list);
        let o = run(&args);
        assert_eq!(o.status.code(), Some(2));
        assert!(
            stderr(&o).contains(r#"--filter "ETC2" matches no test of the suites selected, but 9 in --suite formats"#),
            "{}",
            stderr(&o)
        );
    }
}

#[test]
fn an_empty_filter_and_outputs_without_a_run_are_usage_errors() {
    let o = run(&["--filter", ""]);
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    assert!(
        stderr(&o).contains("--filter needs a text"),
        "{}",
        stderr(&o)
    );
    for flag in ["--csv", "--json"] {
        let o = run(&["--list-devices", flag, "devices.out"]);
        assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
        assert!(
            stderr(&o).contains(&format!(
                "{flag} writes a run's rows; --list-devices runs nothing"
            )),
            "{}",
            stderr(&o)
        );
        assert!(stdout(&o).is_empty());
        assert!(!std::path::Path::new("devices.out").exists());
    }
}

// Claim: docs/options.md: "an empty TEXT is a usage error"
#[test]
fn the_listings_refuse_what_they_would_ignore() {
    let dir = tempdir("listings");
    let out = dir.join("x.csv");
    let out = out.to_str().unwrap();
    // Each once accepted: an empty filter listed all 138 tests, --csv was ignored, and
    // both listings at once listed the tests.
    for (args, says) in [
        (
            vec!["--list-tests", "--filter", ""],
            "--filter needs a text",
        ),
        (
            vec!["--list-tests", "--filter", "  "],
            "--filter needs a text",
        ),
        (
            vec!["--list-tests", "--csv", out],
            "--csv writes a run's rows; --list-tests runs nothing",
        ),
        (
            vec!["--list-tests", "--suite", "all", "--json", out],
            "--json writes a run's rows; --list-tests runs nothing",
        ),
        (
            vec!["--list-devices", "--list-tests"],
            "--list-devices and --list-tests: give one",
        ),
    ] {
        let o = run(&args);
        assert_eq!(o.status.code(), Some(2), "{args:?}: {}", stderr(&o));
        assert!(stderr(&o).contains(says), "{args:?}: {}", stderr(&o));
        assert!(stdout(&o).is_empty(), "{args:?}");
        assert!(!std::path::Path::new(out).exists(), "{args:?}");
    }
}

#[test]
fn every_fault_the_tool_takes_is_in_the_manual() {
    // clap lists the values of the hidden --fault in its error for a bad one.
    let o = run(&["--fault", "no-such-fault"]);
    assert_eq!(o.status.code(), Some(2));
    let err = stderr(&o);
    let values = err
        .split("[possible values: ")
        .nth(1)
        .and_then(|v| v.split(']').next())
        .unwrap_or_else(|| panic!("no possible values in {err}"));
    let options = std::fs::read_to_string(root().join("docs/options.md")).unwrap();
    let listed = options
        .split("Hidden `--fault ")
        .nth(1)
        .and_then(|l| l.split('`').next())
        .expect("options.md lists the faults");
    let mut taken: Vec<&str> = values.split(", ").collect();
    let mut documented: Vec<&str> = listed.split('|').collect();
    taken.sort_unstable();
    documented.sort_unstable();
    assert_eq!(documented, taken, "docs/options.md's --fault list");
}

#[test]
fn zero_groups_is_a_usage_error() {
    let o = run(&["--groups", "0"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("--groups"), "{}", stderr(&o));
}

#[test]
fn typed_buffer_run_prints_the_original_lines_and_writes_csv() {
    let dir = tempdir("cli");
    let csv = dir.join("out.csv");
    let o = run_validated(&[
        "--device",
        lavapipe(),
        "--filter",
        "Buffer<",
        "--groups",
        "8",
        "--samples",
        "3",
        "--warmup",
        "1",
        // The exact line shape is checked: no DISTURBED flag from a CPU busy with other tests.
        "--drift-limit",
        "off",
        "--csv",
        csv.to_str().unwrap(),
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert_no_validation_messages(&o);
    let out = stdout(&o);
    assert!(
        out.contains(&format!("Using device {}: llvmpipe", lavapipe())),
        "{out}"
    );
    let lines: Vec<&str> = out.lines().filter(|l| l.contains(".Load ")).collect();
    assert_eq!(lines.len(), 27, "{out}");
    for (line, name) in lines.iter().zip(original_names()) {
        let rest = line
            .strip_prefix(&format!("{name}: "))
            .unwrap_or_else(|| panic!("{line}"));
        let (ms, ratio) = rest.split_once("ms ").unwrap_or_else(|| panic!("{line}"));
        assert!(ms.parse::<f64>().unwrap() > 0.0, "{line}");
        assert!(
            ratio.ends_with('x') && ratio.trim_end_matches('x').parse::<f64>().is_ok(),
            "{line}"
        );
    }
    assert!(
        out.contains("Buffer<RGBA8>.Load random: ") && out.contains(" 1.000x"),
        "{out}"
    );

    let mut reader = csv::Reader::from_path(&csv).unwrap();
    let header: Vec<String> = reader.headers().unwrap().iter().map(String::from).collect();
    for col in [
        "device_index",
        "device_name",
        "vendor_id",
        "device_id",
        "driver",
        "api_version",
        "test",
        "family",
        "resource",
        "format",
        "pattern",
        "loads_per_dispatch",
        "ms_median",
        "ms_min",
        "cv_pct",
        "samples",
        "ratio",
        "status",
        "reason",
    ] {
        assert!(header.iter().any(|h| h == col), "missing column {col}");
    }
    let col = |name: &str| header.iter().position(|h| h == name).unwrap();
    let rows: Vec<csv::StringRecord> = reader.records().map(|r| r.unwrap()).collect();
    assert_eq!(rows.len(), 27);
    for (row, name) in rows.iter().zip(original_names()) {
        assert_eq!(&row[col("test")], name.as_str());
        assert_eq!(&row[col("status")], "ok");
        assert_eq!(&row[col("resource")], "UNIFORM_TEXEL_BUFFER");
        assert_eq!(
            &row[col("loads_per_dispatch")],
            (8u64 * 256 * 256).to_string()
        );
        assert!(row[col("ms_median")].parse::<f64>().unwrap() > 0.0);
        assert_eq!(&row[col("samples")], "3");
        for cell in row.iter() {
            assert!(!cell.contains("NaN") && !cell.contains("inf"), "{row:?}");
        }
    }
    let baseline = rows
        .iter()
        .find(|r| &r[col("test")] == "Buffer<RGBA8>.Load random")
        .unwrap();
    assert_eq!(&baseline[col("ratio")], "1.0000");
}

#[test]
fn csv_to_stdout_keeps_stdout_pure_csv() {
    let o = run(&[
        "--device",
        lavapipe(),
        "--filter",
        "cbuffer",
        "--groups",
        "2",
        "--samples",
        "2",
        "--csv",
        "-",
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    let out = stdout(&o);
    let mut reader = csv::Reader::from_reader(out.as_bytes());
    assert_eq!(reader.records().count(), 3, "{out}");
    assert!(stderr(&o).contains("cbuffer{float4} load uniform: "));
}

#[test]
fn without_the_baseline_ratios_are_left_out() {
    let o = run(&[
        "--device",
        lavapipe(),
        "--filter",
        "Buffer<R8>",
        "--groups",
        "2",
        "--samples",
        "2",
        // The line's shape is checked: no DISTURBED mark from a CPU busy with other tests.
        "--drift-limit",
        "off",
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(stderr(&o).contains("is not selected; ratios relative to it are left out"));
    for line in stdout(&o).lines().filter(|l| l.starts_with("Buffer<")) {
        assert!(line.ends_with("ms"), "{line}");
    }
}

#[test]
fn verify_typed_buffers_under_validation() {
    let o = run_validated(&[
        "--device",
        lavapipe(),
        "--filter",
        "Buffer<",
        "--groups",
        "4",
        "--verify",
    ]);
    assert!(o.status.success(), "{}\n{}", stdout(&o), stderr(&o));
    assert_no_validation_messages(&o);
    let ok: Vec<String> = stdout(&o)
        .lines()
        .filter_map(|l| l.strip_suffix(": ok"))
        .map(String::from)
        .collect();
    assert_eq!(ok, original_names()[..27]);
}

#[test]
fn a_wrong_reference_is_detected() {
    let o = run(&[
        "--device",
        lavapipe(),
        "--filter",
        "Buffer<",
        "--groups",
        "2",
        "--verify",
        "--fault",
        "reference",
    ]);
    assert_eq!(o.status.code(), Some(1));
    let out = stdout(&o);
    let mismatches = out
        .lines()
        .filter(|l| l.contains(": MISMATCH thread "))
        .count();
    assert_eq!(mismatches, 27, "{out}");
    assert!(
        stderr(&o).contains("0 ok, 0 unsupported, 27 failed"),
        "{}",
        stderr(&o)
    );
}

#[test]
fn default_device_choice_is_explained() {
    let o = run(&ONE_TEST);
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(
        stderr(&o).contains("perftest: using device"),
        "{}",
        stderr(&o)
    );
}

#[test]
fn list_tests_with_a_suite() {
    let o = run(&["--list-tests", "--suite", "control"]);
    assert_eq!(stdout(&o), "Control: loop 1D\nControl: loop 2D\n");
    let all = stdout(&run(&["--list-tests", "--suite", "all"]));
    let names: Vec<&str> = all.lines().collect();
    assert_eq!(names[..138], original_names()[..]);
    assert_eq!(names[138..140], ["Control: loop 1D", "Control: loop 2D"]);
    let extended = stdout(&run(&["--list-tests", "--suite", "extended"]));
    let extended: Vec<&str> = extended.lines().collect();
    assert_eq!(names[140..140 + extended.len()], extended[..]);
    assert!(extended.contains(&"RWTexture2D<RG16F>.Load random"));
    // Then the write suite, then the formats suite.
    let write = stdout(&run(&["--list-tests", "--suite", "write"]));
    let write: Vec<&str> = write.lines().collect();
    let at = 140 + extended.len();
    assert_eq!(names[at..at + write.len()], write[..]);
    assert_eq!(write.len(), 96);
    assert_eq!(write[0], "RWStructuredBuffer<uint>.Store uniform");
    assert!(write.contains(&"RWByteAddressBuffer.InterlockedAdd uniform"));
    assert!(write.contains(&"RWStructuredBuffer<float4>.Store linear"));
    let formats = stdout(&run(&["--list-tests", "--suite", "formats"]));
    let formats: Vec<&str> = formats.lines().collect();
    let end = at + write.len() + formats.len();
    assert_eq!(names[at + write.len()..end], formats[..]);
    assert!(formats.contains(&"Texture3D<RGBA8>.Sample(trilinear) random"));
    // Then the instruction suite, last.
    let instructions = stdout(&run(&["--list-tests", "--suite", "instructions"]));
    let instructions: Vec<&str> = instructions.lines().collect();
    let end2 = end + instructions.len();
    assert_eq!(names[end..end2], instructions[..]);
    assert_eq!(instructions[0], "fp32 add");
    // Then the ceiling suite, the branch suite, the pitfalls, matrix, bandwidth, and the
    // latency suite last.
    let ceiling = stdout(&run(&["--list-tests", "--suite", "ceiling"]));
    let ceiling: Vec<&str> = ceiling.lines().collect();
    let end3 = end2 + ceiling.len();
    assert_eq!(names[end2..end3], ceiling[..]);
    let branch = stdout(&run(&["--list-tests", "--suite", "branch"]));
    let branch: Vec<&str> = branch.lines().collect();
    let end4 = end3 + branch.len();
    assert_eq!(names[end3..end4], branch[..]);
    assert_eq!(branch.len(), 294);
    assert_eq!(branch[0], "0X Coherent branch baseline");
    let pitfalls = stdout(&run(&["--list-tests", "--suite", "pitfalls"]));
    let pitfalls: Vec<&str> = pitfalls.lines().collect();
    let end5 = end4 + pitfalls.len();
    assert_eq!(names[end4..end5], pitfalls[..]);
    assert!(pitfalls.iter().all(|n| n.starts_with("Pitfall ")));
    let matrix = stdout(&run(&["--list-tests", "--suite", "matrix"]));
    let matrix: Vec<&str> = matrix.lines().collect();
    let end_matrix = end5 + matrix.len();
    assert_eq!(names[end5..end_matrix], matrix[..]);
    assert!(matrix.iter().all(|n| n.starts_with("matrix: ")));
    assert!(matrix.contains(&"matrix: coopmat 16x16x16 f16*f16+f32 subgroup"));
    let bandwidth = stdout(&run(&["--list-tests", "--suite", "bandwidth"]));
    let bandwidth: Vec<&str> = bandwidth.lines().collect();
    let end6 = end_matrix + bandwidth.len();
    assert_eq!(names[end_matrix..end6], bandwidth[..]);
    let latency = stdout(&run(&["--list-tests", "--suite", "latency"]));
    let latency: Vec<&str> = latency.lines().collect();
    assert_eq!(names[end6..], latency[..]);
    assert!(ceiling
        .iter()
        .all(|n| n.ends_with("(unrolled ceiling)") && !extended.contains(n)));
    // Each family's uniform-load probes come last, side by side per variant.
    let probes: Vec<&str> = extended
        .iter()
        .copied()
        .skip_while(|n| !n.ends_with(" (elected lane + broadcast)"))
        .collect();
    assert_eq!(
        probes[..3],
        [
            "Buffer<R8>.Load uniform (elected lane + broadcast)",
            "Buffer<R8>.Load uniform (wave-wide load + shuffle)",
            "Buffer<R8>.Load uniform (wave-wide load + unrolled broadcast)",
        ]
    );
    assert!(probes.iter().all(|n| n.contains(" uniform (")));
}

#[test]
fn compare_prints_one_line_per_test() {
    let fixtures = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/fixtures");
    let a = format!("{fixtures}/chart-h100.csv");
    let b = format!("{fixtures}/chart-h100-pcie.csv");
    let o = run(&["compare", &a, &b, "--format", "markdown"]);
    assert!(o.status.success(), "{}", stderr(&o));
    let out = stdout(&o);
    let tests = csv::Reader::from_path(&a).unwrap().records().count();
    let rows: Vec<&str> = out.lines().filter(|l| l.starts_with("| `")).collect();
    assert_eq!(rows.len(), tests, "{out}");
    assert!(rows[0].ends_with("| +10.0% | 0.909x |"), "{out}");
    assert!(out.contains("| unsupported |"), "{out}");
    let o = run(&["compare", &a, "Cargo.toml"]);
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
}

#[test]
fn no_vulkan_loader_exits_3_with_a_clear_message() {
    let o = perftest()
        .args(["--filter", "cbuffer"])
        .env("PERFTEST_VULKAN_LIBRARY", "/nonexistent/libvulkan.so.1")
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(3), "{}", stderr(&o));
    let err = stderr(&o);
    // The variable's loader is named, not the system's.
    assert!(
        err.contains(
            "PERFTEST_VULKAN_LIBRARY=\"/nonexistent/libvulkan.so.1\" names no Vulkan loader"
        ),
        "{err}"
    );
    assert!(stdout(&o).is_empty());
    // Empty, it is no path either (said so, not a loader error without its name).
    let o = perftest()
        .args(["--filter", "cbuffer"])
        .env("PERFTEST_VULKAN_LIBRARY", "")
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(3), "{}", stderr(&o));
    assert!(
        stderr(&o).contains("PERFTEST_VULKAN_LIBRARY=\"\" names no Vulkan loader"),
        "{}",
        stderr(&o)
    );
}

#[test]
fn no_vulkan_device_exits_3_naming_vk_driver_files() {
    let o = perftest()
        .args(["--filter", "cbuffer"])
        .env("VK_DRIVER_FILES", "/nonexistent/icd.json")
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(3), "{}", stderr(&o));
    let err = stderr(&o);
    assert!(
        err.contains("VK_DRIVER_FILES") && err.contains("mesa-vulkan-drivers"),
        "{err}"
    );
}

#[test]
fn bad_numbers_are_usage_errors_before_any_gpu_work() {
    for args in [
        ["--samples", "0"],
        ["--groups", "0"],
        ["--groups", "1000000"],
        ["--warmup", "abc"],
        ["--suite", "nosuch"],
        // A negative number is a bad value of its option, not an unknown argument.
        ["--groups", "-3"],
        ["--warmup", "-1"],
        ["--samples", "-2"],
        ["--drift-limit", "-3"],
    ] {
        let o = run(&args);
        assert_eq!(o.status.code(), Some(2), "{args:?}: {}", stderr(&o));
        assert!(stderr(&o).contains(args[0]), "{args:?}: {}", stderr(&o));
        assert!(stdout(&o).is_empty(), "{args:?}");
    }
}

#[test]
fn unwritable_outputs_fail_before_the_first_test() {
    for flag in ["--csv", "--json"] {
        let o = run(&[flag, "/nonexistent/dir/out", "--filter", "cbuffer"]);
        assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
        assert!(
            stderr(&o).contains(&format!("cannot write {flag}")),
            "{}",
            stderr(&o)
        );
        assert!(!stdout(&o).contains("Using device"), "{}", stdout(&o));
    }
}

#[test]
fn csv_and_json_from_one_run_and_piped_stdout_has_no_progress_bar() {
    let dir = tempdir("cli");
    let (csv, json) = (dir.join("a.csv"), dir.join("a.json"));
    std::fs::write(&json, "old contents").unwrap();
    let o = run(&[
        "--device",
        "cpu",
        "--filter",
        "cbuffer",
        "--groups",
        "2",
        "--samples",
        "2",
        "--csv",
        csv.to_str().unwrap(),
        "--json",
        json.to_str().unwrap(),
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    let out = stdout(&o);
    assert!(
        !out.contains('\u{1b}') && !out.contains('█') && !out.contains('\r'),
        "{out:?}"
    );
    assert_eq!(csv::Reader::from_path(&csv).unwrap().records().count(), 3);
    let doc = std::fs::read_to_string(&json).unwrap();
    assert!(
        doc.contains("\"results\"") && doc.contains("\"maxUniformBufferRange\""),
        "{doc}"
    );
    assert_eq!(
        doc.matches("\"test\": \"cbuffer{float4} load").count(),
        3,
        "{doc}"
    );
    // Types follow the column: counts are integers, ids and hashes stay text.
    assert!(
        doc.contains("\"groups\": 2,") && doc.contains("\"samples\": 2,"),
        "{doc}"
    );
    assert!(doc.contains("\"vendor_id\": \"0x10005\""), "{doc}");
    assert!(doc.contains("\"ratio\": null"), "{doc}");
    // The temporary file was renamed into place, not left beside it.
    assert_eq!(std::fs::read_dir(&dir).unwrap().count(), 2);
}

#[test]
fn device_selectors_on_lavapipe() {
    for sel in ["cpu", "all", "llvmpipe", "10005:0", lavapipe()] {
        let o = run(&[
            "--device",
            sel,
            "--filter",
            "cbuffer{float4} load uniform",
            "--groups",
            "1",
            "--drift-limit",
            LAVAPIPE_DRIFT_LIMIT,
            "--samples",
            "1",
        ]);
        assert!(o.status.success(), "--device {sel}: {}", stderr(&o));
        assert!(
            stdout(&o).contains("Using device") && stdout(&o).contains("llvmpipe"),
            "{sel}"
        );
    }
    let o = run(&["--device", "nosuch"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("matches no device") && stderr(&o).contains("llvmpipe"));
}

#[test]
fn strict_turns_unsupported_into_failure() {
    // --fault out-of-memory fails one row; without it, lavapipe supports every test, so
    // --strict is checked through the exit code of a clean run staying 0 (without the drift
    // check, which --strict also enforces and which a CPU busy with other tests may trip).
    let o = run(&[
        "--device",
        "cpu",
        "--filter",
        "cbuffer",
        "--groups",
        "1",
        "--samples",
        "1",
        "--drift-limit",
        "off",
        "--strict",
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    let o = run(&[
        "--device",
        "cpu",
        "--filter",
        "cbuffer",
        "--groups",
        "1",
        "--samples",
        "1",
        "--fault",
        "out-of-memory",
        // The line's shape is checked: no DISTURBED mark from a CPU busy with other tests.
        "--drift-limit",
        "off",
    ]);
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    let out = stdout(&o);
    assert!(
        out.contains("cbuffer{float4} load linear: ERROR")
            && out.contains("memory allocation has failed"),
        "{out}"
    );
    assert!(
        out.lines()
            .any(|l| l.starts_with("cbuffer{float4} load random: ") && l.ends_with("ms")),
        "later tests still run: {out}"
    );
}

#[test]
fn unsupported_tests_get_rows_with_a_reason_and_strict_fails_them() {
    let dir = tempdir("cli");
    let csv = dir.join("unsupported.csv");
    let args = [
        "--device",
        lavapipe(),
        "--filter",
        "Sample(bilinear) uniform",
        "--groups",
        "1",
        "--drift-limit",
        LAVAPIPE_DRIFT_LIMIT,
        "--samples",
        "2",
        "--fault",
        "no-linear-filter",
        "--csv",
        csv.to_str().unwrap(),
    ];
    let o = run(&args);
    assert!(
        o.status.success(),
        "unsupported is not a failure: {}",
        stderr(&o)
    );
    let out = stdout(&o);
    assert!(
        out.contains("Texture2D<RGBA32F>.Sample(bilinear) uniform: unsupported (R32G32B32A32_SFLOAT lacks SAMPLED_IMAGE_FILTER_LINEAR"),
        "{out}"
    );
    assert!(
        stderr(&o).contains("6 ok, 3 unsupported, 0 failed"),
        "{}",
        stderr(&o)
    );
    let mut reader = csv::Reader::from_path(&csv).unwrap();
    let header = reader.headers().unwrap().clone();
    let col = |n: &str| header.iter().position(|h| h == n).unwrap();
    let rows: Vec<csv::StringRecord> = reader.records().map(Result::unwrap).collect();
    assert_eq!(rows.len(), 9);
    let unsupported: Vec<&csv::StringRecord> = rows
        .iter()
        .filter(|r| &r[col("status")] == "unsupported")
        .collect();
    assert_eq!(unsupported.len(), 3);
    for r in unsupported {
        assert!(
            r[col("reason")].contains("SAMPLED_IMAGE_FILTER_LINEAR"),
            "{r:?}"
        );
        for empty in ["ms_median", "ratio", "groups", "loads_per_dispatch"] {
            assert_eq!(&r[col(empty)], "", "{empty} of an unsupported row: {r:?}");
        }
    }
    let mut strict = args.to_vec();
    strict.push("--strict");
    let o = run(&strict);
    assert_eq!(o.status.code(), Some(1));
    // The run says why it failed (a CPU busy with other tests may flag rows too).
    let err = stderr(&o);
    assert!(
        err.contains("--strict: 3 unsupported and ")
            && err.contains(" flagged row(s) fail the run"),
        "{err}"
    );
}

#[test]
fn a_missing_subgroup_shuffle_makes_the_shuffle_probes_unsupported() {
    let o = run(&[
        "--device",
        lavapipe(),
        "--suite",
        "extended",
        "--filter",
        "Buffer<R8>.Load uniform (",
        "--verify",
        "--groups",
        "1",
        "--fault",
        "no-subgroup-shuffle",
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    let out = stdout(&o);
    assert!(
        out.contains(
            "Buffer<R8>.Load uniform (wave-wide load + shuffle): unsupported (subgroup BASIC + \
             BALLOT + SHUFFLE operations (GL_KHR_shader_subgroup_shuffle) are not supported"
        ),
        "{out}"
    );
    assert!(out.contains("Buffer<R8>.Load uniform (elected lane + broadcast): ok"));
    assert!(out.contains("Buffer<R8>.Load uniform (wave-wide load + unrolled broadcast): ok"));
}

#[test]
fn a_reader_that_goes_away_ends_the_listing_quietly() {
    use std::io::Read;
    // `perftest --list-tests --suite all | head -1`: the pipe closes after the first bytes.
    let mut child = perftest()
        .args(["--list-tests", "--suite", "all"])
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let mut first = [0u8; 16];
    child.stdout.take().unwrap().read_exact(&mut first).unwrap();
    let out = child.wait_with_output().unwrap();
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(
        out.stderr.is_empty(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
}

#[test]
fn the_rehearsal_hook_says_it_cut_the_run_and_refuses_a_count_that_is_none() {
    // A bad count is a usage error before any GPU work.
    for bad in ["0", "x", "-1", "", "0/family", "2/families", "/family"] {
        let o = perftest()
            .args(["--device", lavapipe(), "--suite", "pitfalls"])
            .env("PERFTEST_FIRST_TESTS", bad)
            .output()
            .unwrap();
        assert_eq!(o.status.code(), Some(2), "{bad:?}: {}", stderr(&o));
        assert!(
            stderr(&o).contains(&format!(
                "PERFTEST_FIRST_TESTS={bad} is not a count of tests"
            )),
            "{bad:?}: {}",
            stderr(&o)
        );
    }
    // A good one runs the first tests and says so; the baseline stays where it was selected.
    let o = perftest()
        .args(["--device", lavapipe(), "--groups", "1", "--samples", "2"])
        .args(["--drift-limit", LAVAPIPE_DRIFT_LIMIT])
        .env("PERFTEST_FIRST_TESTS", "2")
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(
        stderr(&o).contains(
            "PERFTEST_FIRST_TESTS: running 3 of the 138 selected tests (a rehearsal of the command"
        ),
        "{}",
        stderr(&o)
    );
    let out = stdout(&o);
    assert_eq!(timed_lines(&out), 3, "{out}");
    assert!(
        out.contains("Buffer<R8>.Load uniform: ") && out.contains("Buffer<RGBA8>.Load random: ")
    );
    // N/family: the first N tests of each family (the original suite's six), then the
    // baseline.
    let o = perftest()
        .args(["--device", lavapipe(), "--groups", "1", "--verify"])
        .env("PERFTEST_FIRST_TESTS", "1/family")
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(
        stderr(&o).contains("PERFTEST_FIRST_TESTS: running 7 of the 138 selected tests"),
        "{}",
        stderr(&o)
    );
    let out = stdout(&o);
    let ran: Vec<&str> = out.lines().filter_map(|l| l.strip_suffix(": ok")).collect();
    assert_eq!(
        ran,
        [
            "Buffer<R8>.Load uniform",
            "ByteAddressBuffer.Load uniform",
            "StructuredBuffer<float>.Load uniform",
            "cbuffer{float4} load uniform",
            "Texture2D<R8>.Load uniform",
            "Texture2D<R8>.Sample(nearest) uniform",
            "Buffer<RGBA8>.Load random",
        ]
    );
    // Without it, nothing is said.
    let o = run(&[
        "--device",
        lavapipe(),
        "--groups",
        "1",
        "--samples",
        "2",
        "--filter",
        "Buffer<R8>.Load uniform",
    ]);
    assert!(
        !stderr(&o).contains("PERFTEST_FIRST_TESTS"),
        "{}",
        stderr(&o)
    );
}

#[test]
fn an_empty_suite_name_is_named_as_such() {
    for value in ["original,", ",original", "original,,control"] {
        let o = run(&["--suite", value, "--list-tests"]);
        assert_eq!(o.status.code(), Some(2), "{value}: {}", stderr(&o));
        assert!(
            stderr(&o).contains("--suite: an empty suite name (a trailing or doubled comma?)"),
            "{value}: {}",
            stderr(&o)
        );
        assert!(
            !stderr(&o).contains("a value is required"),
            "{}",
            stderr(&o)
        );
    }
    // The help still lists the values (tests/integration/docs.rs reads them).
    let help = stdout(&run(&["--help"]));
    assert!(
        help.contains("[possible values: original, control,"),
        "{help}"
    );
}

#[test]
fn a_drift_limit_of_zero_says_what_is_allowed() {
    for value in ["0", "1001", "abc"] {
        let o = run(&["--drift-limit", value]);
        assert_eq!(o.status.code(), Some(2), "{value}: {}", stderr(&o));
        let err = stderr(&o);
        assert!(
            err.contains(
                "give a percentage more than 0 and at most 1000, or `off` to disable the check"
            ),
            "{value}: {err}"
        );
        assert!(!err.contains("between 0 and 1000"), "{value}: {err}");
    }
}

#[test]
fn a_suite_or_test_given_as_a_subcommand_gets_a_hint() {
    for (word, hint) in [
        ("original", "did you mean `--suite original`?"),
        ("Latency", "did you mean `--suite latency`?"),
        ("cbuffer", "did you mean `--filter cbuffer`?"),
        ("packed", "did you mean `--suite all --filter packed`?"),
    ] {
        let o = run(&[word]);
        assert_eq!(o.status.code(), Some(2), "{word}: {}", stderr(&o));
        assert!(stderr(&o).contains(hint), "{word}: {}", stderr(&o));
    }
    // A word that is neither gets clap's error alone.
    let o = run(&["nosuchword"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(!stderr(&o).contains("did you mean `--"), "{}", stderr(&o));
}

// Claim: docs/options.md: "every seed gives its own order"
#[test]
fn every_seed_gives_its_own_shuffle_order() {
    // `seed | 1` gave 2 and 3 (any 2k and 2k+1) the same order.
    let order = |seed: &str| -> Vec<String> {
        let o = run(&[
            "--device",
            lavapipe(),
            "--filter",
            "Buffer<R",
            "--shuffle",
            "--seed",
            seed,
            "--samples",
            "5",
            "--warmup",
            "0",
            "--groups",
            "1",
            "--drift-limit",
            "off",
        ]);
        assert!(o.status.success(), "{}", stderr(&o));
        stdout(&o)
            .lines()
            .filter_map(|l| l.split_once(": ").map(|(t, _)| t.to_string()))
            .filter(|t| t.starts_with("Buffer<R"))
            .collect()
    };
    let (two, three) = (order("2"), order("3"));
    assert_eq!(two.len(), 27, "{two:?}");
    assert_ne!(
        two, three,
        "--seed 2 and --seed 3 ran the tests in one order"
    );
    assert_eq!(two, order("2"), "--seed 2 did not repeat its order");
}

// Claim: docs/options.md: "or the run could not be set up (`--validation` where `VK_LAYER_KHRONOS_validation` is not installed: one sentence on stderr, before any test)"
#[test]
fn validation_without_the_layer_is_a_setup_error_exit_1() {
    // docs/options.md's exit codes: a run that cannot be set up exits 1, in one sentence.
    let empty = tempdir("no-layers");
    let o = perftest()
        .args([
            "--validation",
            "--device",
            lavapipe(),
            "--filter",
            "cbuffer",
        ])
        .env("VK_LAYER_PATH", empty.path())
        .env_remove("VK_ADD_LAYER_PATH")
        .env_remove("VK_INSTANCE_LAYERS")
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    assert!(
        stderr(&o).contains("--validation: the layer VK_LAYER_KHRONOS_validation is not installed"),
        "{}",
        stderr(&o)
    );
    assert!(!stdout(&o).contains("cbuffer"), "{}", stdout(&o));
    let doc = std::fs::read_to_string(root().join("docs/options.md")).unwrap();
    assert!(
        doc.contains("or the run could not be set up (`--validation` where"),
        "options.md's exit codes lack the setup error"
    );
}

// Claim: docs/options.md: "a device that reports no compute-unit count, as lavapipe, runs the low-occupancy reads at the common size, and their `reason` says that instead"
#[test]
fn a_size_the_device_cannot_give_is_said_in_the_reason() {
    // One group per compute unit needs a compute-unit count; lavapipe reports none, so the
    // low-occupancy reads run the common size, and the row must say so (it said nothing).
    let dir = tempdir("cli");
    let csv = dir.join("cu.csv");
    let o = run(&[
        "--device",
        lavapipe(),
        "--suite",
        "pitfalls",
        "--filter",
        "one group per compute unit",
        "--groups",
        "4",
        "--samples",
        "5",
        "--csv",
        csv.to_str().unwrap(),
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    let rows = csv_rows(&csv);
    assert!(!rows.is_empty());
    for r in &rows {
        assert_eq!(r["groups"], "4", "{r:?}");
        assert!(
            r["reason"].contains("no compute-unit count"),
            "{}: {}",
            r["test"],
            r["reason"]
        );
    }
}

// Claim: docs/options.md: "a `--groups` whose output buffer a chosen device cannot bind: `--groups 65535` on lavapipe"
#[test]
fn groups_a_device_cannot_bind_are_a_usage_error_before_any_output() {
    // lavapipe binds 128 MB: 65535 groups need 256 MB of output. It was an error row after
    // the device opened (exit 1); it is known from the device's limits before.
    let dir = tempdir("cli");
    let csv = dir.join("g.csv");
    let o = run(&[
        "--device",
        lavapipe(),
        "--groups",
        "65535",
        "--filter",
        "Buffer<R8>.Load uniform",
        "--csv",
        csv.to_str().unwrap(),
    ]);
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    let err = stderr(&o);
    assert!(
        err.contains("maxStorageBufferRange") && err.contains("use at most 32768 groups"),
        "{err}"
    );
    assert!(!csv.exists(), "no output is opened for a usage error");
}

#[test]
fn a_fleet_threshold_out_of_range_says_what_is_allowed() {
    // `-5` was taken for an option and `1000` was called "not a percentage above 0".
    let run = committed("results/h100x2/alone-1126/all-0.csv.gz");
    for bad in ["-5", "0", "1000", "abc"] {
        let o = perftest()
            .args(["fleet", &run, "--threshold", bad])
            .output()
            .unwrap();
        assert_eq!(o.status.code(), Some(2), "{bad}: {}", stderr(&o));
        assert!(
            stderr(&o).contains(&format!(
                "`{bad}` is not a percentage above 0 and below 1000"
            )),
            "{bad}: {}",
            stderr(&o)
        );
    }
}

/// `PERFTEST_PAD_MB` (docs/fleet.md): a value that is no number of MB is a usage error before
/// any GPU work; a good one runs, its memory taken first, every row still made.
#[test]
fn the_placement_pad_refuses_a_bad_size_and_runs_with_a_good_one() {
    for bad in ["0", "x", "-1", "", "1.5", "99999999"] {
        let o = perftest()
            .args([
                "--device",
                lavapipe(),
                "--filter",
                "cbuffer{float4} load uniform",
            ])
            .env("PERFTEST_PAD_MB", bad)
            .output()
            .unwrap();
        assert_eq!(o.status.code(), Some(2), "{bad:?}: {}", stderr(&o));
        assert!(
            stderr(&o).contains(&format!("PERFTEST_PAD_MB={bad} is not a number of MB")),
            "{bad:?}: {}",
            stderr(&o)
        );
    }
    let o = perftest()
        .args(["--device", lavapipe()])
        .args(ONE_TEST)
        .env("PERFTEST_PAD_MB", "8")
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(
        stderr(&o).contains("1 ok, 0 unsupported, 0 failed"),
        "{}",
        stderr(&o)
    );
}
