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
    } else if p("texture_sample") {
        (2, Load::Image("OpImageSampleExplicitLod"))
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

/// How a kernel issues its loads (from its name; see glsl/variants.glsl).
#[derive(Clone, Copy, Debug, PartialEq)]
enum Shape {
    /// The original loop: one load site, in the innermost loop.
    Loop,
    /// `…_waveshuffle`: a block loop whose load feeds an inner loop of `subgroupShuffle`s,
    /// and the plain fallback loop: two load sites, three loops.
    WaveShuffle,
    /// `…_wavebroadcast`: one block loop per subgroup size 4–128, each with its block's
    /// constant-lane `subgroupBroadcast`s unrolled, and the plain fallback loop: seven load
    /// sites, seven loops.
    WaveBroadcast,
    /// `…_ceiling_*`: one loop of 8 iterations holding 32 load sites, unrolled on purpose.
    Ceiling,
}

/// Subgroup sizes the unrolled-broadcast kernels have a block for, in the order of their loops.
const BLOCK_SIZES: [usize; 6] = [4, 8, 16, 32, 64, 128];
/// Loads per iteration of a ceiling kernel's loop.
const CEILING_LOADS: usize = 32;

fn shape(k: &Kernel) -> Shape {
    if k.name.ends_with("_waveshuffle") {
        Shape::WaveShuffle
    } else if k.name.ends_with("_wavebroadcast") {
        Shape::WaveBroadcast
    } else if k.name.contains("_ceiling_") {
        Shape::Ceiling
    } else {
        Shape::Loop
    }
}

/// The instructions of every loop, in order: from its `OpLoopMerge` to its merge block's label
/// (an outer loop's body includes its inner loops).
fn loops(asm: &str) -> Vec<Vec<&str>> {
    let lines: Vec<&str> = asm.lines().map(str::trim).collect();
    let mut out = Vec::new();
    for (at, l) in lines.iter().enumerate() {
        if let Some(merge) = l.strip_prefix("OpLoopMerge ") {
            let merge = merge.split_whitespace().next().unwrap();
            let end = lines
                .iter()
                .skip(at)
                .position(|l| l.starts_with(&format!("{merge} = OpLabel")))
                .expect("the loop's merge block")
                + at;
            out.push(lines[at..end].to_vec());
        }
    }
    out
}

/// The result ids of `lines` that are `op`.
fn results<'a>(lines: &[&'a str], op: &str) -> Vec<&'a str> {
    lines
        .iter()
        .filter(|l| l.split_whitespace().nth(2) == Some(op))
        .map(|l| l.split_whitespace().next().unwrap())
        .collect()
}

/// How many `OpFAdd`s of `body` add a value derived (through extracts, shuffles, constructs
/// and bitcasts) from one of `loaded`: one per load, for a ceiling kernel.
fn adds_of_loaded(body: &[&str], loaded: &[&str]) -> usize {
    let mut derived: std::collections::HashSet<&str> = loaded.iter().copied().collect();
    let mut adds = 0;
    for l in body {
        let words: Vec<&str> = l.split_whitespace().collect();
        if words.len() < 5 || words[1] != "=" {
            continue;
        }
        let uses = words[4..].iter().any(|w| derived.contains(w));
        match words[2] {
            "OpCompositeExtract" | "OpVectorShuffle" | "OpCompositeConstruct" | "OpBitcast"
                if uses =>
            {
                derived.insert(words[0]);
            }
            "OpFAdd" if uses => adds += 1,
            _ => {}
        }
    }
    adds
}

#[test]
fn every_loop_is_kept_and_holds_its_loads() {
    for k in all().iter().filter(|k| !k.name.starts_with("clock_")) {
        let asm = k.asm;
        let name = k.name;
        let (plain_loops, load) = expectation(k);
        let shape = shape(k);
        // (loops, load sites in the kernel, load sites in the last loop)
        let (want_loops, sites, last_sites) = match shape {
            Shape::Loop => (plain_loops, 1, 1),
            Shape::WaveShuffle => (3, 2, 1),
            Shape::WaveBroadcast => (BLOCK_SIZES.len() + 1, BLOCK_SIZES.len() + 1, 1),
            Shape::Ceiling => (1, CEILING_LOADS, CEILING_LOADS),
        };
        let loops = loops(asm);
        assert_eq!(loops.len(), want_loops, "{name}: loop count");
        // Every loop carries DontUnroll: the ceiling kernels' 32 loads per iteration are
        // unrolled in the source (glsl/variants.glsl), their loop is not.
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
                    last_sites,
                    "{name}: `{op}` in the loop:\n{}",
                    body.join("\n")
                );
                // The kernel's load sites, all in loops: nothing hoisted out or duplicated.
                assert_eq!(
                    count(&all_lines, op),
                    sites,
                    "{name}: `{op}` outside the loops"
                );
                if shape == Shape::Ceiling {
                    let adds = adds_of_loaded(&body, &results(&body, op));
                    assert_eq!(adds, CEILING_LOADS, "{name}: one add per load");
                }
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
                    want * last_sites,
                    "{name}: loads in the loop:\n{}",
                    body.join("\n")
                );
                // Every access of this type is in a loop (none hoisted out), except the
                // shared-memory kernel's fill and the output write-out.
                let uses = count(&all_lines, &format!("OpAccessChain {ptr}"));
                let write_out = usize::from(ptr == "%_ptr_StorageBuffer_v4float ");
                assert_eq!(
                    uses,
                    want * sites + outside + write_out,
                    "{name}: {ptr} accessed outside the loops"
                );
                let mut loaded = Vec::new();
                for c in &chains {
                    let id = c.split_whitespace().next().unwrap();
                    let load = body
                        .iter()
                        .find(|l| l.contains("OpLoad") && l.split_whitespace().nth(4) == Some(id));
                    assert!(load.is_some(), "{name}: {id} is not loaded");
                    loaded.push(load.unwrap().split_whitespace().next().unwrap());
                }
                if shape == Shape::Ceiling {
                    let adds = adds_of_loaded(&body, &loaded);
                    assert_eq!(adds, CEILING_LOADS, "{name}: one add per load");
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
        // The elected-lane kernels: one lane loads on every iteration and broadcasts.
        if name.ends_with("_broadcast") {
            assert_eq!(count(&body, "OpGroupNonUniformElect"), 1, "{name}");
            assert!(
                count(&body, "OpGroupNonUniformBroadcastFirst") >= 1,
                "{name}"
            );
        }
        match shape {
            Shape::WaveShuffle => {
                // The block loop's inner loop takes each iteration's value with one shuffle.
                assert_eq!(count(&all_lines, "OpGroupNonUniformShuffle "), 1, "{name}");
                assert_eq!(count(&loops[1], "OpGroupNonUniformShuffle "), 1, "{name}");
                assert_eq!(count(&loops[0], "OpGroupNonUniformShuffle "), 1, "{name}");
            }
            Shape::WaveBroadcast => {
                // Block loop i holds its subgroup size's broadcasts, unrolled, of constant lanes.
                for (l, n) in loops.iter().zip(BLOCK_SIZES) {
                    assert_eq!(
                        count(l, "OpGroupNonUniformBroadcast "),
                        n,
                        "{name}: {n} lanes"
                    );
                    assert!(
                        l.iter()
                            .filter(|l| l.contains("OpGroupNonUniformBroadcast "))
                            .all(|l| l.split_whitespace().last().unwrap().starts_with("%uint_")),
                        "{name}: a broadcast's lane is not a constant"
                    );
                }
                assert!(
                    asm.contains("SpecId 0"),
                    "{name}: no SUBGROUP_SIZE constant"
                );
            }
            Shape::Loop | Shape::Ceiling => {
                assert_eq!(count(&all_lines, "OpGroupNonUniformShuffle"), 0, "{name}");
            }
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
