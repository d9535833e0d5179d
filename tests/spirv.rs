//! The committed disassembly in `spirv/` matches what the build produces, and each kernel's
//! loop really holds its loads (not unrolled, merged or hoisted).

use perftest::kernels::{all, Kernel};
use std::path::PathBuf;

fn spirv_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("spirv")
}

#[test]
fn committed_disassembly_is_current() {
    let update = std::env::var_os("PERFTEST_UPDATE_SPIRV").is_some();
    let dir = spirv_dir();
    let mut stale = Vec::new();
    let mut expected_files = Vec::new();
    for k in all() {
        let file = format!("{}.spvasm", k.name);
        let path = dir.join(&file);
        expected_files.push(file.clone());
        let asm = k.asm;
        if update {
            std::fs::create_dir_all(&dir).unwrap();
            std::fs::write(&path, asm).unwrap();
        } else if std::fs::read_to_string(&path).ok().as_deref() != Some(asm) {
            stale.push(file);
        }
    }
    let extra: Vec<String> = std::fs::read_dir(&dir)
        .map(|rd| {
            rd.filter_map(|e| e.ok())
                .map(|e| e.file_name().to_string_lossy().into_owned())
                .filter(|n| n.ends_with(".spvasm") && !expected_files.contains(n))
                .collect()
        })
        .unwrap_or_default();
    if update {
        for f in &extra {
            std::fs::remove_file(dir.join(f)).unwrap();
        }
        return;
    }
    assert!(
        stale.is_empty() && extra.is_empty(),
        "spirv/ is out of date (stale or missing: {stale:?}; no longer built: {extra:?}); \
         run scripts/update-spirv.sh"
    );
}

/// The instructions of the innermost loop: from its `OpLoopMerge` to its merge block's label.
fn innermost_loop(asm: &str) -> Vec<&str> {
    let lines: Vec<&str> = asm.lines().map(str::trim).collect();
    let (at, merge) = lines
        .iter()
        .enumerate()
        .rfind(|(_, l)| l.starts_with("OpLoopMerge"))
        .map(|(i, l)| (i, l.split_whitespace().nth(1).unwrap().to_string()))
        .expect("a loop");
    let end = lines
        .iter()
        .skip(at)
        .position(|l| l.starts_with(&format!("{merge} = OpLabel")))
        .expect("the loop's merge block")
        + at;
    lines[at..end].to_vec()
}

fn count(lines: &[&str], needle: &str) -> usize {
    lines.iter().filter(|l| l.contains(needle)).count()
}

/// Kernels whose name starts with `prefix`.
fn kernels(prefix: &str) -> impl Iterator<Item = &'static Kernel> + '_ {
    all().iter().filter(move |k| k.name.starts_with(prefix))
}

/// The load width in a kernel's name (`…_w4_…`), 0 where the name has none.
fn width(k: &Kernel) -> usize {
    k.name
        .split('_')
        .find_map(|p| p.strip_prefix('w').and_then(|w| w.parse().ok()))
        .unwrap_or(0)
}

/// What the innermost loop of a kernel must hold.
enum Load {
    /// One image instruction (fetch, sample, read), and no other in the kernel.
    Image(&'static str),
    /// `count` access chains of this pointer type, each loaded; `outside` more elsewhere.
    Pointer {
        ptr: &'static str,
        count: usize,
        outside: usize,
    },
    /// Nothing read: arithmetic on the index only.
    Nothing,
}

/// The expectations of every kernel family, by kernel-name prefix.
fn expectation(k: &Kernel) -> (usize, Load) {
    let pointer = |ptr, count, outside| Load::Pointer {
        ptr,
        count,
        outside,
    };
    let by_width = |ptrs: [&'static str; 4]| ptrs[width(k).clamp(1, 4) - 1];
    let n = k.name;
    let p = |prefix: &str| n.starts_with(prefix);
    // (loops, load): 2-D kernels and the shared-memory fill have a second loop.
    if p("typed_buffer") || p("texture_load") {
        (
            if p("texture") { 2 } else { 1 },
            Load::Image("OpImageFetch"),
        )
    } else if p("texture_sample") || p("format_texture_sample") {
        (2, Load::Image("OpImageSampleExplicitLod"))
    } else if p("format_texture_load") {
        (2, Load::Image("OpImageFetch"))
    } else if p("format_buffer") {
        (1, Load::Image("OpImageFetch"))
    } else if p("texture_dims") {
        // 1-D: one loop; 3-D and arrays: z, y, x.
        let loops = if p("texture_dims_1d") { 1 } else { 3 };
        let op = if n.contains("_sample_") {
            "OpImageSampleExplicitLod"
        } else {
            "OpImageFetch"
        };
        (loops, Load::Image(op))
    } else if p("storage_texel_buffer") {
        (1, Load::Image("OpImageRead"))
    } else if p("storage_image") {
        (2, Load::Image("OpImageRead"))
    } else if p("raw_buffer") {
        (1, pointer("%_ptr_StorageBuffer_uint ", width(k), 0))
    } else if p("structured_buffer") || p("scalar_buffer") {
        let ptr = by_width([
            "%_ptr_StorageBuffer_float ",
            "%_ptr_StorageBuffer_v2float ",
            "%_ptr_StorageBuffer_v3float ",
            "%_ptr_StorageBuffer_v4float ",
        ]);
        (1, pointer(ptr, 1, 0))
    } else if p("constant_buffer") {
        (1, pointer("%_ptr_Uniform_v4float ", 1, 0))
    } else if p("uint8_buffer") {
        (1, pointer("%_ptr_StorageBuffer_uchar ", 1, 0))
    } else if p("float16_buffer") {
        (1, pointer("%_ptr_StorageBuffer_half ", 1, 0))
    } else if p("buffer_reference") {
        let ptr = by_width([
            "%_ptr_PhysicalStorageBuffer_float ",
            "%_ptr_PhysicalStorageBuffer_v2float ",
            "",
            "%_ptr_PhysicalStorageBuffer_v4float ",
        ]);
        (1, pointer(ptr, 1, 0))
    } else if p("push_constant") {
        (1, pointer("%_ptr_PushConstant_v4float ", 1, 0))
    } else if p("shared_memory") {
        // table[j] = …; dummyLDS[i] = sum; dummyLDS[slot]
        (2, pointer("%_ptr_Workgroup_v4float ", 1, 3))
    } else if p("control_1d") {
        (1, Load::Nothing)
    } else if p("control_2d") {
        (2, Load::Nothing)
    } else {
        panic!("{n}: no expectation for this kernel; add one here")
    }
}

#[test]
fn every_loop_is_kept_and_holds_its_loads() {
    for k in all().iter().filter(|k| !k.name.starts_with("clock_")) {
        let asm = k.asm;
        let name = k.name;
        let (want_loops, load) = expectation(k);
        let loops = count(&asm.lines().collect::<Vec<_>>(), "OpLoopMerge");
        assert_eq!(loops, want_loops, "{name}: loop count");
        assert!(
            asm.lines()
                .filter(|l| l.contains("OpLoopMerge"))
                .all(|l| l.contains("DontUnroll")),
            "{name}: every loop must carry DontUnroll"
        );
        let body = innermost_loop(asm);
        let all_lines: Vec<&str> = asm.lines().map(str::trim).collect();
        match load {
            Load::Image(op) => {
                assert_eq!(
                    count(&body, op),
                    1,
                    "{name}: `{op}` in the loop:\n{}",
                    body.join("\n")
                );
                // One fetch site in the whole kernel: nothing hoisted out or duplicated.
                assert_eq!(count(&all_lines, op), 1, "{name}: `{op}` outside the loop");
            }
            Load::Pointer {
                ptr,
                count: want,
                outside,
            } => {
                let chains: Vec<&str> = body
                    .iter()
                    .copied()
                    .filter(|l| l.contains(&format!("OpAccessChain {ptr}")))
                    .collect();
                assert_eq!(
                    chains.len(),
                    want,
                    "{name}: loads in the loop:\n{}",
                    body.join("\n")
                );
                // Every access of this type is in the loop (none hoisted out), except the
                // shared-memory kernel's fill and the output write-out.
                let uses = count(&all_lines, &format!("OpAccessChain {ptr}"));
                let write_out = usize::from(ptr == "%_ptr_StorageBuffer_v4float ");
                assert_eq!(
                    uses,
                    want + outside + write_out,
                    "{name}: {ptr} accessed outside the loop"
                );
                for c in &chains {
                    let id = c.split_whitespace().next().unwrap();
                    let loaded = body
                        .iter()
                        .any(|l| l.contains("OpLoad") && l.split_whitespace().nth(4) == Some(id));
                    assert!(loaded, "{name}: {id} is not loaded");
                }
            }
            Load::Nothing => {
                // The control loop reads nothing: no fetch, no sample, no buffer access.
                for op in [
                    "OpImageFetch",
                    "OpImageSample",
                    "_ptr_StorageBuffer",
                    "_ptr_Uniform_",
                ] {
                    assert_eq!(count(&body, op), 0, "{name}: `{op}` in a control loop");
                }
                assert!(
                    count(&body, "OpConvertUToF") >= 1,
                    "{name}: no arithmetic on the index"
                );
            }
        }
        if name.ends_with("_broadcast") {
            assert_eq!(count(&body, "OpGroupNonUniformElect"), 1, "{name}");
            assert!(
                count(&body, "OpGroupNonUniformBroadcastFirst") >= 1,
                "{name}"
            );
        }
        // The runtime mask is still OR-ed into the address (not constant-folded away).
        assert!(
            count(&body, "OpBitwiseOr") >= 1,
            "{name}: elementsMask OR missing in the loop"
        );
        // The never-taken output write is still guarded by writeIndex.
        assert!(
            asm.contains("OpINotEqual %bool") && asm.contains("4294967295"),
            "{name}: writeIndex guard missing"
        );
    }
}

#[test]
fn the_clock_kernel_reads_the_subgroup_clock_around_its_loop() {
    let k = kernels("clock_").next().unwrap();
    let asm = k.asm;
    assert_eq!(
        asm.matches("OpReadClockKHR %v2uint %uint_3").count(),
        2,
        "{asm}"
    );
    assert_eq!(asm.matches("OpLoopMerge").count(), 1);
}

#[test]
fn integer_format_kernels_read_integers_and_convert_them_in_the_loop() {
    let mut seen = 0;
    for k in all().iter().filter(|k| k.name.starts_with("format_")) {
        let body = innermost_loop(k.asm);
        let (image, convert) = if k.name.contains("_uint_") {
            ("%v4uint", "OpConvertUToF")
        } else if k.name.contains("_int_") {
            ("%v4int", "OpConvertSToF")
        } else {
            ("%v4float", "")
        };
        let fetch = body
            .iter()
            .find(|l| l.contains("OpImageFetch") || l.contains("OpImageSampleExplicitLod"))
            .unwrap_or_else(|| panic!("{}: no image read", k.name));
        assert!(fetch.contains(image), "{}: {fetch}", k.name);
        if !convert.is_empty() {
            assert!(count(&body, convert) >= 1, "{}: no {convert}", k.name);
            seen += 1;
        }
    }
    assert!(seen >= 24, "{seen} integer kernels");
}
