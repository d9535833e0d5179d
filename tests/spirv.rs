//! The committed disassembly in `spirv/` matches what the build produces, and each kernel's
//! loop really holds its loads (not unrolled, merged or hoisted).

use perftest::kernels::{all, Template};
use perftest::runner::SPIRV_ASM;
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
        let file = format!("{}.spvasm", k.stem());
        let path = dir.join(&file);
        expected_files.push(file.clone());
        let asm = SPIRV_ASM[k.index()];
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

#[test]
fn every_loop_is_kept_and_holds_its_loads() {
    for k in all().into_iter().filter(|k| k.template != Template::Clock) {
        let asm = SPIRV_ASM[k.index()];
        let name = k.stem();
        let loops = count(&asm.lines().collect::<Vec<_>>(), "OpLoopMerge");
        // The shared-memory kernel has a fill loop before the measured one.
        let want_loops = match k.template {
            Template::SharedMemory => 2,
            t if t.is_2d() => 2,
            _ => 1,
        };
        assert_eq!(loops, want_loops, "{name}: loop count");
        assert!(
            asm.lines()
                .filter(|l| l.contains("OpLoopMerge"))
                .all(|l| l.contains("DontUnroll")),
            "{name}: every loop must carry DontUnroll"
        );
        let body = innermost_loop(asm);
        let all_lines: Vec<&str> = asm.lines().map(str::trim).collect();
        let image_op = match k.template {
            Template::TypedBuffer | Template::ImageLoad => Some("OpImageFetch"),
            Template::ImageSample => Some("OpImageSampleExplicitLod"),
            Template::StorageTexelBuffer | Template::StorageImage => Some("OpImageRead"),
            _ => None,
        };
        let pointer = match (k.template, k.width) {
            (Template::RawBuffer, _) => Some("%_ptr_StorageBuffer_uint "),
            (Template::StructuredBuffer, 1) => Some("%_ptr_StorageBuffer_float "),
            (Template::StructuredBuffer, 2) => Some("%_ptr_StorageBuffer_v2float "),
            (Template::StructuredBuffer | Template::ScalarBuffer, 3) => {
                Some("%_ptr_StorageBuffer_v3float ")
            }
            (Template::StructuredBuffer, _) => Some("%_ptr_StorageBuffer_v4float "),
            (Template::UniformBuffer, _) => Some("%_ptr_Uniform_v4float "),
            (Template::Uint8Buffer, _) => Some("%_ptr_StorageBuffer_uchar "),
            (Template::Float16Buffer, _) => Some("%_ptr_StorageBuffer_half "),
            (Template::BufferReference, 1) => Some("%_ptr_PhysicalStorageBuffer_float "),
            (Template::BufferReference, 2) => Some("%_ptr_PhysicalStorageBuffer_v2float "),
            (Template::BufferReference, _) => Some("%_ptr_PhysicalStorageBuffer_v4float "),
            (Template::PushConstant, _) => Some("%_ptr_PushConstant_v4float "),
            (Template::SharedMemory, _) => Some("%_ptr_Workgroup_v4float "),
            _ => None,
        };
        if let Some(op) = image_op {
            assert_eq!(
                count(&body, op),
                1,
                "{name}: `{op}` in the loop:\n{}",
                body.join("\n")
            );
            // One fetch site in the whole kernel: nothing hoisted out or duplicated.
            assert_eq!(count(&all_lines, op), 1, "{name}: `{op}` outside the loop");
        } else if let Some(ptr) = pointer {
            let want = if k.template == Template::RawBuffer {
                k.width as usize
            } else {
                1
            };
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
            // shared-memory kernel's fill and the output write-out through dummyLDS.
            let outside = match k.template {
                Template::SharedMemory => 3, // table[j] = …; dummyLDS[i] = sum; dummyLDS[slot]
                _ => 0,
            };
            let uses = count(&all_lines, &format!("OpAccessChain {ptr}"));
            let write_out = if ptr == "%_ptr_StorageBuffer_v4float " {
                1
            } else {
                0
            };
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
        } else {
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
        if k.pattern == perftest::kernels::Pattern::UniformBroadcast {
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
    let k = all()
        .into_iter()
        .find(|k| k.template == Template::Clock)
        .unwrap();
    let asm = SPIRV_ASM[k.index()];
    assert_eq!(
        asm.matches("OpReadClockKHR %v2uint %uint_3").count(),
        2,
        "{asm}"
    );
    assert_eq!(asm.matches("OpLoopMerge").count(), 1);
}
