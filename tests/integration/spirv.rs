//! The committed disassembly in `spirv/` matches what the build produces, and each kernel's
//! loop really holds its loads (not unrolled, merged or hoisted).

use perftest::kernels::{all, Kernel};
use std::path::PathBuf;

fn spirv_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("spirv")
}

/// Every `.spvasm` under `dir`, as paths relative to it ("group/name.spvasm").
fn committed(dir: &std::path::Path) -> Vec<String> {
    let mut found = Vec::new();
    let mut dirs = vec![dir.to_path_buf()];
    while let Some(d) = dirs.pop() {
        let Ok(entries) = std::fs::read_dir(&d) else {
            continue;
        };
        for e in entries.filter_map(|e| e.ok()) {
            let p = e.path();
            if p.is_dir() {
                dirs.push(p);
            } else if p.extension().is_some_and(|x| x == "spvasm") {
                let rel = p
                    .strip_prefix(dir)
                    .unwrap()
                    .to_string_lossy()
                    .replace('\\', "/");
                found.push(rel);
            }
        }
    }
    found
}

#[test]
fn committed_disassembly_is_current() {
    let update = std::env::var_os("PERFTEST_UPDATE_SPIRV").is_some();
    let dir = spirv_dir();
    let mut stale = Vec::new();
    let mut expected_files = Vec::new();
    for k in all() {
        // spirv/ mirrors glsl/: a kernel's disassembly sits in its template's folder.
        let file = match k.group {
            "" => format!("{}.spvasm", k.name),
            group => format!("{group}/{}.spvasm", k.name),
        };
        let path = dir.join(&file);
        expected_files.push(file.clone());
        let asm = k.asm;
        if update {
            std::fs::create_dir_all(path.parent().unwrap()).unwrap();
            std::fs::write(&path, asm).unwrap();
        } else if std::fs::read_to_string(&path).ok().as_deref() != Some(asm) {
            stale.push(file);
        }
    }
    let extra: Vec<String> = committed(&dir)
        .into_iter()
        .filter(|n| !expected_files.contains(n))
        .collect();
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
    } else if let Some(stride) = n.strip_prefix("shared_bank_") {
        // table[j] = … (the fill); 16 loads per iteration.
        let ptr = if stride == "vec4" {
            "%_ptr_Workgroup_v4uint "
        } else {
            "%_ptr_Workgroup_uint "
        };
        (2, pointer(ptr, 16, 1))
    } else if let Some(regs) = n.strip_prefix("occupancy_r") {
        // One load in the loop; the live values' 16 per block are read before it.
        let blocks = match regs {
            "32" => 1,
            "64" => 3,
            "128" => 7,
            _ => 15,
        };
        (1, pointer("%_ptr_StorageBuffer_uint ", 1, 16 * blocks))
    } else if p("control_1d") {
        (1, Load::Nothing)
    } else if p("control_2d") {
        (2, Load::Nothing)
    } else {
        panic!("{n}: no expectation for this kernel; add one here")
    }
}

/// Kernels of the write suite (checked by `every_write_loop_is_kept_and_holds_its_writes`).
const WRITE_KERNELS: [&str; 7] = [
    "buffer_store_",
    "texel_buffer_store_",
    "image_store_",
    "shared_store_",
    "buffer_atomic_",
    "image_atomic_",
    "shared_atomic_",
];

/// Kernels of the instruction suite whose loop holds operations, not loads (see
/// `instruction_kernels_hold_their_operations`).
fn is_operation_kernel(name: &str) -> bool {
    name.starts_with("alu_")
        || name.starts_with("subgroup_ops_")
        || name.starts_with("shared_bank_latency_")
}

/// Kernels of the matrix suite (see `matrix_kernels_hold_their_operations`).
fn is_matrix_kernel(name: &str) -> bool {
    name.starts_with("coopmat_")
        || name.starts_with("coopmat2_")
        || name.starts_with("dot_")
        || name.starts_with("peak_")
}

fn is_write_kernel(k: &Kernel) -> bool {
    WRITE_KERNELS.iter().any(|p| k.name.starts_with(p))
}

/// How a kernel issues its loads (from its name; see glsl/loads/variants.glsl).
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
// Long on purpose: one table of what each load kernel's loop must hold, kernel family by
// kernel family.
fn every_loop_is_kept_and_holds_its_loads() {
    for k in all().iter().filter(|k| {
        !k.name.starts_with("clock_")
            && !k.name.starts_with("branch_")
            && !k.name.starts_with("pitfalls_")
            && !k.name.starts_with("pointer_chase_")
            && !k.name.starts_with("stride_chase_")
            && !k.name.starts_with("bandwidth_")
            && !k.name.starts_with("dispatch_")
            && !is_write_kernel(k)
            && !is_operation_kernel(k.name)
            && !is_matrix_kernel(k.name)
    }) {
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
        // unrolled in the source (glsl/loads/variants.glsl), their loop is not.
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
fn branch_kernels_sample_twice_and_work_n_times_per_iteration_behind_their_branch() {
    let mut seen = 0;
    for k in kernels("branch_") {
        let name = k.name;
        // branch_{coherent|divergent}_{baseline|long|short}_n{WORK}
        let mut parts = name.split('_').skip(1);
        let (_, shape, work) = (parts.next(), parts.next().unwrap(), parts.next().unwrap());
        let work: usize = work.trim_start_matches('n').parse().unwrap();
        assert_eq!(
            loops(k.asm).len(),
            1,
            "{name}: one loop (the work is unrolled in it)"
        );
        assert!(
            k.asm
                .lines()
                .filter(|l| l.contains("OpLoopMerge"))
                .all(|l| l.contains("DontUnroll")),
            "{name}"
        );
        let body = innermost_loop(k.asm);
        assert_eq!(
            count(&body, "OpImageSampleExplicitLod"),
            2,
            "{name}: two samples"
        );
        // One vector multiply per step of the four chains (WORK / 4 steps, unfolded; twice in
        // a long branch: one copy on each side), and the two of the sample addresses.
        let copies = if shape == "long" { 2 } else { 1 };
        assert_eq!(
            count(&body, "OpIMul"),
            copies * work / 4 + 2,
            "{name}: the ALU work"
        );
        // The baseline has no branch in its loop; long and short have the one around the samples.
        let branches = count(&body, "OpSelectionMerge");
        assert_eq!(
            branches,
            usize::from(shape != "baseline"),
            "{name}: branches in the loop"
        );
        seen += 1;
    }
    assert_eq!(seen, 49 * 6);
}

#[test]
fn pitfall_kernels_do_what_their_names_say() {
    let mut seen = 0;
    for k in kernels("pitfalls_") {
        let (name, asm) = (k.name, k.asm);
        assert_eq!(loops(asm).len(), 1, "{name}: one loop");
        let body = innermost_loop(asm);
        // Loads of the input buffer: access chains to its words.
        let loads = count(&body, "%_ptr_StorageBuffer_uint ");
        match name.strip_prefix("pitfalls_").unwrap() {
            // Both arrays are Function-storage arrays indexed in the loop: the stack array's
            // elements are stored at run time (OR-ed with elementsMask), the constant one is
            // the constant composite stored whole; the select chain picks with seven selects.
            "array_stack" | "array_constant" => {
                assert!(asm.contains("%_ptr_Function__arr_uint_uint_8"), "{name}");
                let constant = asm
                    .lines()
                    .find(|l| l.contains("OpConstantComposite %_arr_uint_uint_8"))
                    .and_then(|l| l.split_whitespace().next())
                    .unwrap_or("none");
                let stored_whole = asm
                    .lines()
                    .any(|l| l.trim().starts_with("OpStore ") && l.trim().ends_with(constant));
                assert_eq!(stored_whole, name.ends_with("constant"), "{name}");
            }
            "array_select" => assert_eq!(count(&body, "OpSelect"), 7, "{name}"),
            "fields_adjacent" | "fields_apart" => assert_eq!(loads, 2, "{name}"),
            "offset_int" | "offset_uint" | "offset_uint16" => assert_eq!(loads, 4, "{name}"),
            "switch_fallthrough" | "switch_separate" => {
                assert_eq!(count(&body, "OpSwitch"), 1, "{name}");
                // Fall-through: one load per case; separate: 4 + 3 + 2 + 1.
                let want = if name.ends_with("fallthrough") { 4 } else { 10 };
                assert_eq!(loads, want, "{name}");
            }
            reads if reads.starts_with("reads_chains") => {
                let chains: usize = reads.trim_start_matches("reads_chains").parse().unwrap();
                assert_eq!(
                    count(&body, "OpImageFetch"),
                    chains,
                    "{name}: reads in flight"
                );
            }
            "math_contracted" => assert!(!asm.contains("NoContraction"), "{name}"),
            "math_precise" => assert!(asm.contains("NoContraction"), "{name}"),
            other => panic!("{other}: no expectation for this pitfall kernel"),
        }
        seen += 1;
    }
    assert_eq!(seen, 15);
}

/// Chase steps per iteration of a pointer-chase kernel's loop (glsl/memory/pointer_chase.comp).
const CHASE_STEPS: usize = 16;

/// The chase's loads in `body`, in order, each with the loads of `body` its operands come
/// from (through any arithmetic, but not through another load): an image fetch, read or
/// sample, a `uint` load, or the load-to-use chase's address (a `uvec2`, a `uint64_t` or a
/// reference).
fn chase_loads<'a>(body: &[&'a str]) -> Vec<(&'a str, Vec<&'a str>)> {
    dependent_steps(body, |op, ty| {
        matches!(
            op,
            "OpImageFetch" | "OpImageRead" | "OpImageSampleExplicitLod"
        ) || (op == "OpLoad"
            && (ty == "%uint"
                || ty == "%v2uint"
                || ty == "%ulong"
                || ty.starts_with("%_ptr_PhysicalStorageBuffer__struct_")))
    })
}

/// The instructions of `body` that `is_step(opcode, result type)` picks, in order, each with
/// the picked instructions its operands come from (through any other instruction, but not
/// through another picked one).
fn dependent_steps<'a>(
    body: &[&'a str],
    is_step: impl Fn(&str, &str) -> bool,
) -> Vec<(&'a str, Vec<&'a str>)> {
    let mut from: std::collections::HashMap<&str, Vec<&str>> = Default::default();
    let mut loads = Vec::new();
    for l in body {
        let words: Vec<&str> = l.split_whitespace().collect();
        if words.len() < 4 || words[1] != "=" {
            continue;
        }
        // Operands defined earlier in the body (a phi's back-edge value comes later: ignored).
        let mut deps: Vec<&str> = words[4..]
            .iter()
            .filter_map(|w| from.get(w))
            .flatten()
            .copied()
            .collect();
        deps.sort();
        deps.dedup();
        if is_step(words[2], words[3]) {
            loads.push((words[0], deps));
            from.insert(words[0], vec![words[0]]);
        } else {
            from.insert(words[0], deps);
        }
    }
    loads
}

/// The opcodes of `body` that depend on `from` (directly or through each other) and that
/// `to` depends on: what stands between two steps of a chase.
fn between_steps<'a>(body: &[&'a str], from: &str, to: &str) -> Vec<&'a str> {
    let defs: std::collections::HashMap<&str, (&str, Vec<&str>)> = body
        .iter()
        .filter_map(|l| {
            let w: Vec<&str> = l.split_whitespace().collect();
            (w.len() >= 4 && w[1] == "=").then(|| (w[0], (w[2], w[4..].to_vec())))
        })
        .collect();
    // Walk back from `to`'s operands to `from`, keeping the instructions on the way.
    let mut path = Vec::new();
    let mut at = to;
    loop {
        let (_, operands) = &defs[at];
        let Some(next) = operands
            .iter()
            .find(|o| **o == from || defs.contains_key(**o))
        else {
            panic!("{to} does not depend on {from}");
        };
        if *next == from {
            break;
        }
        path.push(defs[next].0);
        at = next;
    }
    path.reverse();
    path
}

#[test]
fn pointer_chase_loops_hold_one_dependent_load_per_step() {
    let chase: Vec<&Kernel> = kernels("pointer_chase_").collect();
    // 11 resources, the raw buffer beside shared memory, the texel fetch beside a buffer's
    // chase, 5 shared-memory sizes, the registers, the load-to-use chase's 5 other forms and
    // the plain cycle, each with and without the clock.
    assert_eq!(chase.len(), 50);
    for k in chase {
        let (name, asm) = (k.name, k.asm);
        let body = innermost_loop(asm);
        assert!(
            body[0].contains("DontUnroll"),
            "{name}: the chase loop must not unroll"
        );
        let loads = chase_loads(&body);
        // The registers' chase has no load: a multiply stands for it in each step.
        let steps = if name.contains("_registers") {
            assert!(loads.is_empty(), "{name}: {loads:?}");
            dependent_steps(&body, |op, _| op == "OpIMul")
        } else {
            loads
        };
        let beside = name.contains("_beside");
        // A rolled loop holds one step.
        let per_iteration = if name.contains("_rolled") {
            1
        } else {
            CHASE_STEPS
        };
        assert_eq!(
            steps.len(),
            per_iteration * (1 + beside as usize),
            "{name}: steps per iteration: {steps:?}"
        );
        // The first step's address comes from the chase's phi, each next one's from exactly
        // the step before it: one dependent load per step, none hoisted or overlapped. The
        // texture chase beside a buffer's alternates a buffer load and a texel fetch, each
        // waiting for the other and for its own chase's load before.
        assert!(steps[0].1.is_empty(), "{name}: {steps:?}");
        for (i, pair) in steps.windows(2).enumerate() {
            let mut expected = vec![pair[0].0];
            if beside && i >= 1 {
                expected.push(steps[i - 1].0);
                expected.sort();
            }
            assert_eq!(pair[1].1, expected, "{name}: {steps:?}");
        }
        if beside {
            for (i, (step, _)) in steps.iter().enumerate() {
                let line = body
                    .iter()
                    .find(|l| l.starts_with(&format!("{step} ")))
                    .unwrap();
                let fetch = line.contains("OpImageFetch");
                assert_eq!(fetch, i % 2 == 1, "{name}: step {i}: {line}");
            }
        }
        if name.contains("_load_to_use") || name.contains("_cycle") {
            // p = *p: the next address is the loaded value, converted to a reference (a
            // bitcast of the uvec2, a conversion of the uint64_t, none of a reference) and its
            // one member taken, and nothing else.
            let convert: &[&str] = if name.contains("_u64") || name.contains("_cycle") {
                &["OpConvertUToPtr"]
            } else if name.contains("_ref") {
                &[]
            } else {
                &["OpBitcast"]
            };
            let expected: Vec<&str> = convert.iter().copied().chain(["OpAccessChain"]).collect();
            for pair in steps.windows(2) {
                let between = between_steps(&body, pair[0].0, pair[1].0);
                assert_eq!(
                    between, expected,
                    "{name}: between {} and {}",
                    pair[0].0, pair[1].0
                );
            }
        }
        let clocks = asm.matches("OpReadClockKHR").count();
        assert_eq!(
            clocks,
            if name.ends_with("_clock") { 2 } else { 0 },
            "{name}"
        );
        // The shared-memory chases copy their table in a loop first; the clock kernels walk
        // their untimed steps in a loop of their own before the first clock read, and only
        // the timed loop lies between the two reads.
        let clocked = name.ends_with("_clock");
        let loops = asm.matches("OpLoopMerge").count();
        // The texture chase beside a buffer's walks the buffer's cycle alone first.
        assert_eq!(
            loops,
            1 + name.contains("_shared_") as usize
                + clocked as usize
                + (clocked && name.contains("_beside")) as usize,
            "{name}"
        );
        if clocked {
            let first = asm.find("OpReadClockKHR").unwrap();
            let second = first + 1 + asm[first + 1..].find("OpReadClockKHR").unwrap();
            assert!(
                asm[..first].contains("OpLoopMerge"),
                "{name}: no warm loop first"
            );
            assert_eq!(
                asm[first..second].matches("OpLoopMerge").count(),
                1,
                "{name}"
            );
        }
    }
}

#[test]
fn stride_chase_loops_hold_sixteen_dependent_loads_a_block() {
    let chase: Vec<&Kernel> = kernels("stride_chase_").collect();
    // Eight strides, with and without the clock.
    assert_eq!(chase.len(), 16);
    for k in chase {
        let (name, asm) = (k.name, k.asm);
        let body = innermost_loop(asm);
        assert!(body[0].contains("DontUnroll"), "{name}: must not unroll");
        let steps = chase_loads(&body);
        assert_eq!(
            steps.len(),
            CHASE_STEPS,
            "{name}: loads per block: {steps:?}"
        );
        // The block's first address comes from the chase's phi (the block index), each next
        // one's from the load before it (its value AND the always-zero word, added to the
        // block's start, which so carries every load of the block before it too): one
        // dependent load per step, none hoisted or overlapped.
        assert!(steps[0].1.is_empty(), "{name}: {steps:?}");
        for (i, pair) in steps.windows(2).enumerate() {
            assert!(pair[1].1.contains(&pair[0].0), "{name}: {steps:?}");
            assert_eq!(pair[1].1.len(), i + 1, "{name}: {steps:?}");
        }
        // Within a block, the same arithmetic at every stride: each of the first 15 loads'
        // values is ANDed once (with the always-zero word) and nothing else reads it; the
        // block's last load is the next block's index.
        for (load, _) in &steps[..CHASE_STEPS - 1] {
            let uses: Vec<&&str> = body
                .iter()
                .filter(|l| l.split_whitespace().skip(3).any(|w| w == *load))
                .collect();
            assert!(
                uses.len() == 1 && uses[0].contains("OpBitwiseAnd %uint"),
                "{name}: {load} is read by {uses:?}"
            );
        }
        let clocked = name.ends_with("_clock");
        assert_eq!(
            asm.matches("OpReadClockKHR").count(),
            2 * clocked as usize,
            "{name}"
        );
        assert_eq!(
            asm.matches("OpLoopMerge").count(),
            1 + clocked as usize,
            "{name}"
        );
    }
}

#[test]
fn the_clock_kernel_reads_the_subgroup_clock_around_its_loop() {
    let mut seen = 0;
    for k in kernels("clock_") {
        let asm = k.asm;
        const SUBGROUP: &str = "OpReadClockKHR %v2uint %uint_3";
        assert_eq!(asm.matches(SUBGROUP).count(), 2, "{}: {asm}", k.name);
        let first = asm.find(SUBGROUP).unwrap();
        let second = first + 1 + asm[first + 1..].find(SUBGROUP).unwrap();
        let loops = |s: &str| s.matches("OpLoopMerge").count();
        if k.name.starts_with("clock_realtime") {
            // Each end waits for the real-time clock (device scope) to step, then reads the
            // subgroup clock: a wait before the first read; the chain and the second wait
            // between the two.
            assert!(asm.contains("OpReadClockKHR %v2uint %uint_1"), "{}", k.name);
            assert_eq!(loops(&asm[..first]), 1, "{}: the first wait", k.name);
            assert_eq!(loops(&asm[first..second]), 2, "{}", k.name);
            let last_wait = asm[..second].rfind("OpLoopMerge").unwrap();
            assert!(
                asm[last_wait..second].contains("OpReadClockKHR %v2uint %uint_1"),
                "{}: the second read right after the wait",
                k.name
            );
        } else {
            assert_eq!(loops(asm), 1, "{}", k.name);
            assert_eq!(loops(&asm[first..second]), 1, "{}", k.name);
        }
        seen += 1;
    }
    assert_eq!(seen, 2, "the plain and the real-time probe");
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

/// What the main loop of a write kernel must hold: one write, of a value that changes every
/// iteration, to an address that carries the `elementsMask` OR.
enum Write {
    /// One `OpStore` through an access chain of this pointer type; `outside` more such chains
    /// elsewhere (the shared-memory kernels' clear and copy-out loops).
    Store { ptr: &'static str, outside: usize },
    /// One `OpImageWrite`, and none elsewhere.
    Image,
    /// One atomic instruction, none elsewhere; `used`: its result is summed and kept.
    Atomic { op: &'static str, used: bool },
}

/// The loops of a write kernel and what its main loop must hold, by kernel-name prefix.
fn write_expectation(k: &Kernel) -> (usize, Write) {
    let n = k.name;
    let p = |prefix: &str| n.starts_with(prefix);
    if p("buffer_store_") {
        let ptr = match (p("buffer_store_float"), width(k)) {
            (false, 1) => "%_ptr_StorageBuffer_uint ",
            (false, 2) => "%_ptr_StorageBuffer_v2uint ",
            (false, _) => "%_ptr_StorageBuffer_v4uint ",
            (true, 1) => "%_ptr_StorageBuffer_float ",
            (true, 2) => "%_ptr_StorageBuffer_v2float ",
            (true, _) => "%_ptr_StorageBuffer_v4float ",
        };
        (1, Write::Store { ptr, outside: 0 })
    } else if p("texel_buffer_store_") {
        (1, Write::Image)
    } else if p("image_store_") {
        (2, Write::Image)
    } else if p("shared_store_") {
        // Clear loop, store loop, copy-out loop.
        let ptr = "%_ptr_Workgroup_v4float ";
        (3, Write::Store { ptr, outside: 2 })
    } else if p("buffer_atomic_") {
        let used = p("buffer_atomic_add_return") || p("buffer_atomic_cas");
        let op = if p("buffer_atomic_cas") {
            "OpAtomicCompareExchange"
        } else if p("buffer_atomic_fadd") {
            "OpAtomicFAddEXT"
        } else {
            "OpAtomicIAdd"
        };
        (1, Write::Atomic { op, used })
    } else if p("image_atomic_") {
        (
            1,
            Write::Atomic {
                op: "OpAtomicIAdd",
                used: false,
            },
        )
    } else if p("shared_atomic_") {
        (
            3,
            Write::Atomic {
                op: "OpAtomicIAdd",
                used: false,
            },
        )
    } else {
        panic!("{n}: no write expectation for this kernel; add one here")
    }
}

/// Every loop of a kernel: the line range from its header block's label to its merge label.
fn loop_spans(lines: &[&str]) -> Vec<(usize, usize)> {
    lines
        .iter()
        .enumerate()
        .filter(|(_, l)| l.starts_with("OpLoopMerge"))
        .map(|(at, l)| {
            let merge = l.split_whitespace().nth(1).unwrap();
            let header = (0..at)
                .rev()
                .find(|&i| lines[i].ends_with("= OpLabel"))
                .unwrap();
            let end = (at..lines.len())
                .find(|&i| lines[i] == format!("{merge} = OpLabel"))
                .expect("the loop's merge block");
            (header, end)
        })
        .collect()
}

/// The id an instruction line defines (`%id = Op…`), if any.
fn defined(line: &str) -> Option<&str> {
    line.split_once(" = ").map(|(id, _)| id)
}

#[test]
// Long on purpose: one table of what each write kernel's loop must store, kernel family
// by kernel family.
fn every_write_loop_is_kept_and_holds_its_writes() {
    let mut checked = 0;
    for k in all().iter().filter(|k| is_write_kernel(k)) {
        let name = k.name;
        let (want_loops, write) = write_expectation(k);
        let lines: Vec<&str> = k.asm.lines().map(str::trim).collect();
        let all_loops = loop_spans(&lines);
        assert_eq!(all_loops.len(), want_loops, "{name}: loop count");
        assert!(
            lines
                .iter()
                .filter(|l| l.starts_with("OpLoopMerge"))
                .all(|l| l.contains("DontUnroll")),
            "{name}: every loop must carry DontUnroll"
        );
        // The main loop: the innermost loop whose addresses carry the elementsMask OR.
        let innermost: Vec<(usize, usize)> = all_loops
            .iter()
            .copied()
            .filter(|&(a, b)| {
                !all_loops
                    .iter()
                    .any(|&(c, d)| (c, d) != (a, b) && a < c && d < b)
            })
            .collect();
        let main: Vec<(usize, usize)> = innermost
            .iter()
            .copied()
            .filter(|&(a, b)| lines[a..b].iter().any(|l| l.contains("OpBitwiseOr")))
            .collect();
        assert_eq!(
            main.len(),
            1,
            "{name}: one loop ORs elementsMask into its addresses"
        );
        let (a, b) = main[0];
        let body = &lines[a..b];
        let in_loop = |id: &str| body.iter().any(|l| defined(l) == Some(id));
        // The written value: its instruction, and the operand that holds it.
        let (writes_in_loop, writes_total, value): (Vec<&str>, usize, fn(&str) -> &str) =
            match &write {
                Write::Store { ptr, outside } => {
                    let chain = format!("OpAccessChain {ptr}");
                    let chains: Vec<&str> = body
                        .iter()
                        .filter(|l| l.contains(&chain))
                        .filter_map(|l| defined(l))
                        .collect();
                    let stores: Vec<&str> = body
                        .iter()
                        .copied()
                        .filter(|l| {
                            l.starts_with("OpStore")
                                && chains.contains(&l.split_whitespace().nth(1).unwrap())
                        })
                        .collect();
                    let total = count(&lines, &chain) - outside;
                    (stores, total, |l| l.split_whitespace().nth(2).unwrap())
                }
                Write::Image => (
                    body.iter()
                        .copied()
                        .filter(|l| l.starts_with("OpImageWrite"))
                        .collect(),
                    count(&lines, "OpImageWrite"),
                    |l| l.split_whitespace().nth(3).unwrap(),
                ),
                Write::Atomic { op, .. } => (
                    body.iter().copied().filter(|l| l.contains(op)).collect(),
                    count(&lines, op),
                    // The value is the last operand (CompareExchange: before the comparator).
                    |l| {
                        let t: Vec<&str> = l.split_whitespace().collect();
                        if l.contains("OpAtomicCompareExchange") {
                            t[t.len() - 2]
                        } else {
                            t[t.len() - 1]
                        }
                    },
                ),
            };
        assert_eq!(
            writes_in_loop.len(),
            1,
            "{name}: one write in the loop:\n{}",
            body.join("\n")
        );
        assert_eq!(
            writes_total, 1,
            "{name}: a write outside the loop (hoisted or duplicated)"
        );
        let w = writes_in_loop[0];
        assert!(
            in_loop(value(w)),
            "{name}: the value written ({}) does not change with the iteration:\n{}",
            value(w),
            body.join("\n")
        );
        match write {
            Write::Atomic { used, .. } => {
                let id = defined(w).unwrap();
                let uses = lines
                    .iter()
                    .filter(|l| defined(l) != Some(id))
                    .filter(|l| l.split_whitespace().any(|t| t == id))
                    .count();
                assert_eq!(uses > 0, used, "{name}: atomic result used: {uses} uses");
                if used {
                    assert!(
                        k.asm.contains("OpINotEqual %bool") && k.asm.contains("4294967295"),
                        "{name}: the kept result's writeIndex guard is missing"
                    );
                }
            }
            Write::Store { .. } | Write::Image => {}
        }
        if name.starts_with("shared_") {
            // Group writeIndex copies the table out: a runtime condition, so no store is dead.
            assert!(
                k.asm.contains("OpIEqual %bool"),
                "{name}: copy-out guard missing"
            );
            assert!(
                k.asm.contains("OpAccessChain %_ptr_StorageBuffer_"),
                "{name}"
            );
        }
        checked += 1;
    }
    assert_eq!(checked, 6 * 3 + 9 * 3 + 9 * 3 + 3 + 5 * 3 + 3 + 3);
}

/// What the loop of an instruction kernel must hold: (instruction, count) pairs, and the
/// instruction that makes up its chains (every operation of a latency chain depends on the one
/// before). The ops: `glsl/instructions/alu.comp`, `glsl/instructions/subgroup_ops.comp`, `glsl/instructions/shared_bank.comp`.
// Long on purpose: one table, an arm per operation of the instruction kernels.
fn operations(name: &str) -> (Vec<(&'static str, usize)>, &'static str) {
    let op = name
        .trim_start_matches("alu_latency_")
        .trim_start_matches("alu_")
        .trim_start_matches("subgroup_ops_latency_")
        .trim_start_matches("subgroup_ops_");
    let one = |needle: &'static str| (vec![(needle, 256)], needle);
    if name.starts_with("shared_bank_latency_") {
        return (
            vec![
                ("OpAccessChain %_ptr_Workgroup_uint ", 16),
                ("OpLoad %uint ", 16),
            ],
            "OpLoad %uint ",
        );
    }
    if name.starts_with("subgroup_ops_") {
        return match op {
            "shuffle" => one("OpGroupNonUniformShuffle %uint "),
            "broadcast" => (
                vec![
                    ("OpGroupNonUniformBroadcast %uint ", 256),
                    ("OpBitwiseXor %uint ", 256),
                ],
                "OpGroupNonUniformBroadcast %uint ",
            ),
            "ballot" => one("OpGroupNonUniformBallot %v4uint "),
            "add" => (
                vec![
                    ("OpGroupNonUniformIAdd %uint %uint_3 Reduce ", 256),
                    ("OpBitwiseXor %uint ", 256),
                ],
                "OpGroupNonUniformIAdd %uint ",
            ),
            _ => panic!("{name}: no expectation for this kernel; add one here"),
        };
    }
    match op {
        "fp32_add" => one("OpFAdd %float "),
        "fp32_mul" => one("OpFMul %float "),
        "fp32_fma" => one("OpExtInst %float %1 Fma "),
        "fp32_minmax" => (
            vec![("%float %1 FMin ", 128), ("%float %1 FMax ", 128)],
            "%float %1 FM",
        ),
        "fp16_add" => one("OpFAdd %half "),
        "fp16_fma" => one("OpExtInst %half %1 Fma "),
        "fp16x2_add" => one("OpFAdd %v2half "),
        "fp16x2_fma" => one("OpExtInst %v2half %1 Fma "),
        "fp16x2_muladd" => (
            vec![("OpFMul %v2half ", 256), ("OpFAdd %v2half ", 256)],
            "OpFAdd %v2half ",
        ),
        // 256 and the loop counter's increment.
        "int32_add" => (vec![("OpIAdd %uint ", 257)], "OpIAdd %uint "),
        "int32_mul" => one("OpIMul %uint "),
        "int32_mad" => (
            vec![("OpIMul %uint ", 256), ("OpIAdd %uint ", 257)],
            "OpIMul %uint ",
        ),
        // By round: xor, and, xor, or.
        "int32_bitops" => (
            vec![
                ("OpBitwiseXor %uint ", 128),
                ("OpBitwiseAnd %uint ", 64),
                ("OpBitwiseOr %uint ", 64),
            ],
            "OpBitwise",
        ),
        // x ^= x << 13 (6 rounds), x >> 17 (5), x << 5 (5).
        "int32_xorshift" => (
            vec![
                ("OpBitwiseXor %uint ", 256),
                ("OpShiftLeftLogical %uint ", 176),
                ("OpShiftRightLogical %uint ", 80),
            ],
            "OpBitwiseXor %uint ",
        ),
        "int32_minmax" => (
            vec![("%uint %1 UMin ", 128), ("%uint %1 UMax ", 128)],
            "%uint %1 UM",
        ),
        // The xor between the conversions keeps the round trip from folding.
        "cvt_f32_i32" => (
            vec![
                ("OpConvertFToS %int ", 256),
                ("OpConvertSToF %float ", 256),
                ("OpBitwiseXor %int ", 256),
                ("OpFAdd %float ", 256),
            ],
            "OpConvertSToF %float ",
        ),
        // The half goes out as bits (+k0, -k0 by round) and comes back multiplied by 1.0.
        "cvt_f32_f16" => (
            vec![
                ("OpFConvert %half ", 256),
                ("OpBitcast %uint ", 256),
                // 128 adds to the bits, and the loop counter's.
                ("OpIAdd %uint ", 129),
                ("OpISub %uint ", 128),
                ("OpBitcast %v2half ", 256),
                ("OpFConvert %float ", 256),
                ("OpFMul %float ", 256),
            ],
            "OpFConvert %float ",
        ),
        "sqrt" => one("%float %1 Sqrt "),
        "rsqrt" => one("%float %1 InverseSqrt "),
        "rcp" => (
            vec![("OpFDiv %float ", 256), ("OpFAdd %float ", 256)],
            "OpFDiv %float ",
        ),
        "exp2" => (
            vec![("%float %1 Exp2 ", 256), ("OpFNegate %float ", 256)],
            "%float %1 Exp2 ",
        ),
        "log2" => (
            vec![("%float %1 Log2 ", 256), ("OpFAdd %float ", 256)],
            "%float %1 Log2 ",
        ),
        "sin" => (
            vec![("%float %1 Sin ", 256), ("OpFAdd %float ", 256)],
            "%float %1 Sin ",
        ),
        "cos" => one("%float %1 Cos "),
        "fp64_add" => one("OpFAdd %double "),
        "fp64_fma" => one("OpExtInst %double %1 Fma "),
        "int64_add" => one("OpIAdd %ulong "),
        "int64_mul" => one("OpIMul %ulong "),
        _ => panic!("{name}: no expectation for this kernel; add one here"),
    }
}

/// The longest chain of `primary` instructions in `body`, each depending (through any
/// instructions of the body) on the one before.
fn critical_path(body: &[&str], primary: &str) -> usize {
    let mut depth: std::collections::HashMap<&str, usize> = std::collections::HashMap::new();
    let mut longest = 0;
    for line in body {
        let mut words = line.split_whitespace();
        let (Some(id), Some("=")) = (words.next(), words.next()) else {
            continue;
        };
        let from = words
            .filter_map(|w| depth.get(w.trim_end_matches(',')))
            .max()
            .copied()
            .unwrap_or(0);
        let d = from + usize::from(line.contains(primary));
        depth.insert(id, d);
        longest = longest.max(d);
    }
    longest
}

#[test]
fn instruction_kernels_hold_their_operations() {
    let mut checked = 0;
    for k in all().iter().filter(|k| is_operation_kernel(k.name)) {
        let (name, asm) = (k.name, k.asm);
        let lines: Vec<&str> = asm.lines().map(str::trim).collect();
        let loops: Vec<&&str> = lines
            .iter()
            .filter(|l| l.starts_with("OpLoopMerge"))
            .collect();
        let want_loops = if name.starts_with("shared_bank") {
            2
        } else {
            1
        };
        assert_eq!(loops.len(), want_loops, "{name}: loop count");
        assert!(
            loops.iter().all(|l| l.contains("DontUnroll")),
            "{name}: every loop must carry DontUnroll"
        );
        let body = innermost_loop(asm);
        let (ops, primary) = operations(name);
        for (op, want) in ops {
            assert_eq!(
                count(&body, op),
                want,
                "{name}: `{op}` in the loop:\n{}",
                body.join("\n")
            );
        }
        // The chains live in registers: nothing is read in the loop (but the latency chase).
        if !name.starts_with("shared_bank") {
            assert_eq!(count(&body, "OpLoad"), 0, "{name}: a load in the loop");
        }
        // Float chains are `precise`: no reassociation, no contraction — but the packed
        // mul+add, which exists to let the driver contract it, must be free to.
        let contractible = name.ends_with("fp16x2_muladd");
        for l in body.iter().filter(|l| {
            ["OpFAdd ", "OpFMul ", "OpFDiv "]
                .iter()
                .any(|op| l.contains(op))
        }) {
            let id = l.split_whitespace().next().unwrap();
            assert_eq!(
                asm.contains(&format!("OpDecorate {id} NoContraction")),
                !contractible,
                "{name}: {l}: NoContraction must be {}",
                !contractible
            );
        }
        let path = critical_path(&body, primary);
        if name.contains("latency") {
            // One dependent chain between two reads of the subgroup clock.
            let want = if name.starts_with("shared_bank") {
                16
            } else {
                256
            };
            assert_eq!(path, want, "{name}: the chain is not dependent");
            let clocks: Vec<usize> = lines
                .iter()
                .enumerate()
                .filter(|(_, l)| l.contains("OpReadClockKHR %v2uint %uint_3"))
                .map(|(i, _)| i)
                .collect();
            let at = lines
                .iter()
                .rposition(|l| l.starts_with("OpLoopMerge"))
                .unwrap();
            assert!(
                clocks.len() == 2 && clocks[0] < at && clocks[1] > at + body.len(),
                "{name}: the loop must lie between two reads of the subgroup clock"
            );
        } else {
            // Sixteen chains side by side: a round adds one or two operations to the longest.
            assert!(
                (16..=40).contains(&path),
                "{name}: longest chain of `{primary}` per iteration is {path}"
            );
            assert!(
                asm.contains("OpINotEqual %bool") && asm.contains("4294967295"),
                "{name}: writeIndex guard missing"
            );
        }
        checked += 1;
    }
    assert_eq!(checked, 2 * 28 + 2 * 4 + 6, "instruction kernels checked");
}

/// Loads per iteration of a bandwidth kernel's loop (glsl/memory/bandwidth.comp: 8 unrolled).
const BANDWIDTH_LOADS: usize = 8;

#[test]
fn bandwidth_loops_hold_eight_loads_of_the_set_and_none_elsewhere() {
    let kernels: Vec<&Kernel> = kernels("bandwidth_").collect();
    // 8 buffer resources and 4 images read; buffer and image stores, a copy, host reads, and
    // the grid-stride copy, the image stores' three other layouts and accesses, and the cold
    // host reads (glsl/memory/bandwidth_write.comp).
    assert_eq!(kernels.len(), 21);
    for k in kernels {
        let (name, asm) = (k.name, k.asm);
        // A copy makes two accesses per element (a load and a store), the others one.
        let per_element = if name.starts_with("bandwidth_copy_") {
            2
        } else {
            1
        };
        // What one access of the set looks like, by resource.
        let load = match name.strip_prefix("bandwidth_").unwrap() {
            "store_buffer" | "copy_buffer" | "copy_grid_stride" | "read_host"
            | "read_host_cold" => "OpAccessChain %_ptr_StorageBuffer_v4uint ",
            "store_image"
            | "store_image_grid_stride"
            | "store_image_rows"
            | "store_image_rows_grid_stride" => "OpImageWrite ",
            "raw_buffer" => "OpAccessChain %_ptr_StorageBuffer_v4uint ",
            "structured_buffer" => "OpAccessChain %_ptr_StorageBuffer_v4float ",
            "scalar_buffer" => "OpAccessChain %_ptr_StorageBuffer_float ",
            "device_address" => "OpAccessChain %_ptr_PhysicalStorageBuffer_v4uint ",
            "uniform_buffer" => "OpAccessChain %_ptr_Uniform_v4uint ",
            "texel_buffer_rgba32f"
            | "texel_buffer_r32f"
            | "texel_fetch_rgba32f"
            | "texel_fetch_rgba8" => "OpImageFetch ",
            "storage_texel_buffer" | "storage_image_rgba32f" => "OpImageRead ",
            "sample_bilinear_rgba8" => "OpImageSampleExplicitLod ",
            other => panic!("{other}: no expectation for this kernel; add one here"),
        };
        // The streaming loop (DontUnroll) holds every load of the set, unrolled 8 times in
        // the source; the other loop (the verify checksum) none.
        let streaming: Vec<Vec<&str>> = loops(asm)
            .into_iter()
            .filter(|l| l[0].contains("DontUnroll"))
            .collect();
        assert_eq!(streaming.len(), 1, "{name}: one streaming loop");
        let want = per_element * BANDWIDTH_LOADS;
        assert_eq!(count(&streaming[0], load), want, "{name}");
        let everywhere = asm.lines().filter(|l| l.contains(load)).count();
        assert_eq!(everywhere, want, "{name}: an access outside the loop");
    }
}

/// The dispatch-cost kernels (glsl/memory/transfer.comp): the one the rows time touches no
/// memory at all; --verify's marks its word (one storage store); the chain loads the word
/// before its own and stores its own (one storage load, one store). No loops.
#[test]
fn the_empty_dispatch_touches_no_memory_and_the_others_only_their_words() {
    let k: Vec<&Kernel> = kernels("dispatch_").collect();
    assert_eq!(k.len(), 3);
    for k in k {
        let asm = k.asm;
        assert!(loops(asm).is_empty(), "{}: no loop", k.name);
        let storage = |op: &str| {
            let chains: Vec<&str> = asm
                .lines()
                .filter(|l| l.contains("OpAccessChain %_ptr_StorageBuffer_uint"))
                .map(|l| l.split_whitespace().next().unwrap_or(""))
                .collect();
            asm.lines()
                .filter(|l| {
                    l.contains(op) && chains.iter().any(|c| l.split_whitespace().any(|w| w == *c))
                })
                .count()
        };
        let stores = asm.lines().filter(|l| l.contains("OpStore ")).count();
        let (want_loads, want_stores) = match k.name {
            "dispatch_empty" => (0, 0),
            "dispatch_mark" => (0, 1),
            "dispatch_chain" => (1, 1),
            other => panic!("{other}: no expectation for this kernel; add one here"),
        };
        assert_eq!(stores, want_stores, "{}: stores", k.name);
        assert_eq!(
            storage("OpStore "),
            want_stores,
            "{}: stores to the marks",
            k.name
        );
        assert_eq!(
            storage("OpLoad "),
            want_loads,
            "{}: loads of the marks",
            k.name
        );
        if k.name == "dispatch_empty" {
            assert!(
                !asm.contains("OpAccessChain"),
                "{}: no memory access",
                k.name
            );
        } else {
            assert!(
                asm.contains("OpBranchConditional"),
                "{}: invocation 0 only",
                k.name
            );
        }
    }
}

#[test]
fn matrix_kernels_hold_their_operations() {
    let mut checked = 0;
    for k in all().iter().filter(|k| is_matrix_kernel(k.name)) {
        let name = k.name;
        // One timed loop (DontUnroll); the fill and read-back loops around it are not timed.
        let timed: Vec<Vec<&str>> = loops(k.asm)
            .into_iter()
            .filter(|l| l[0].contains("DontUnroll"))
            .collect();
        assert_eq!(timed.len(), 1, "{name}: timed loops");
        let body = &timed[0];
        let ops = |op: &str| {
            body.iter()
                .filter(|l| l.split_whitespace().nth(2) == Some(op))
                .count()
        };
        // Nothing is read from memory in the loop: the operands live in registers (an array
        // of accumulators stays a Function variable in SPIR-V, which the driver keeps there).
        let private: Vec<&str> = k
            .asm
            .lines()
            .map(str::trim)
            .filter(|l| {
                (l.contains(" = OpVariable ") && l.ends_with(" Function"))
                    || (l.contains(" = OpAccessChain %_ptr_Function_"))
            })
            .map(|l| l.split_whitespace().next().unwrap())
            .collect();
        for l in body
            .iter()
            .filter(|l| l.split_whitespace().nth(2) == Some("OpLoad"))
        {
            let pointer = l.split_whitespace().nth(4).unwrap();
            assert!(
                private.contains(&pointer),
                "{name}: {l} reads memory in the timed loop"
            );
        }
        if name.starts_with("peak_") {
            // 16 chains × 16 rounds (throughput), or chain 0 256 times (latency): one fma, or
            // one multiply and one add (and the loop's own add), each.
            if name.starts_with("peak_fp") {
                let fma = body.iter().filter(|l| l.contains(" Fma ")).count();
                assert_eq!(fma, 256, "{name}: fma in the timed loop");
            } else {
                assert_eq!(ops("OpIMul"), 256, "{name}: multiplies in the timed loop");
                assert_eq!(ops("OpIAdd"), 257, "{name}: adds in the timed loop");
            }
            checked += 1;
            continue;
        }
        let (op, want) = if name.starts_with("coopmat") {
            // Throughput: 8 accumulators × a pair (4 at workgroup scope); latency: 4 pairs.
            let want = if name.starts_with("coopmat2_") || name.ends_with("_latency") {
                8
            } else {
                16
            };
            ("OpCooperativeMatrixMulAddKHR", want)
        } else {
            let op = match name.split('_').nth(1).unwrap() {
                "s8x4" | "s16x2" => "OpSDot",
                "u8x4" | "u16x2" => "OpUDot",
                "s8u8x4" => "OpSUDot",
                "f16x2" | "bf16x2" => "OpDot",
                other => panic!("{name}: {other}"),
            };
            let op = if name.contains("_sat_") {
                format!("{op}AccSat")
            } else {
                op.to_string()
            };
            let float = name.contains("f16x2");
            let want = if float && name.ends_with("_latency") {
                16
            } else {
                256
            };
            (&*op.leak(), want)
        };
        assert_eq!(ops(op), want, "{name}: `{op}` in the timed loop");
        checked += 1;
    }
    // 24 configurations and 8 peaks × 3 (throughput, latency, throughput reading its clock),
    // 14 workgroup-scope kernels × 2 (with and without the clock), 10 dot products × 2.
    assert_eq!(checked, 72 + 28 + 20 + 24);
}

#[test]
fn matrix_clock_kernels_read_the_clock_around_all_their_work() {
    let mut seen = 0;
    for k in all().iter().filter(|k| k.name.ends_with("_tc")) {
        let (name, asm) = (k.name, k.asm);
        const SUBGROUP: &str = "OpReadClockKHR %v2uint %uint_3";
        const DEVICE: &str = "OpReadClockKHR %v2uint %uint_1";
        const MULADD: &str = "OpCooperativeMatrixMulAddKHR";
        const TIMED: &str = "DontUnroll";
        // The kernel it stands in for: the same work (its timed loop's operations are
        // checked by `matrix_kernels_hold_their_operations`), and no clock.
        let plain_name = match name.strip_prefix("coopmat2_") {
            Some(_) => name.strip_suffix("_tc").unwrap().to_string(),
            None => format!("{}_t", name.strip_suffix("_tc").unwrap()),
        };
        let plain = all()
            .iter()
            .find(|p| p.name == plain_name)
            .unwrap_or_else(|| panic!("{name}: no {plain_name}"));
        assert!(!plain.asm.contains("OpReadClockKHR"), "{plain_name}");
        assert_eq!(
            asm.matches(MULADD).count(),
            plain.asm.matches(MULADD).count(),
            "{name}: the multiply-adds of {plain_name}"
        );
        assert_eq!(asm.matches(TIMED).count(), 1, "{name}: one timed loop");
        // Each end waits for the real-time clock to step, then reads the subgroup clock; the
        // timed loop, and every multiply-add, lie between the two subgroup reads.
        assert_eq!(asm.matches(SUBGROUP).count(), 2, "{name}");
        let first = asm.find(SUBGROUP).unwrap();
        let second = first + 1 + asm[first + 1..].find(SUBGROUP).unwrap();
        let timed = asm.find(TIMED).unwrap();
        assert!(
            first < timed && timed < second,
            "{name}: the timed loop between the reads"
        );
        assert!(
            asm[..first].contains(DEVICE),
            "{name}: no wait before the first read"
        );
        assert!(
            !asm[..first].contains(MULADD),
            "{name}: a multiply-add before the clock"
        );
        assert!(
            !asm[second..].contains(MULADD),
            "{name}: a multiply-add after the clock"
        );
        let last_wait = asm[..second].rfind("OpLoopMerge").unwrap();
        assert!(
            asm[last_wait..second].contains(DEVICE) && !asm[last_wait..second].contains(TIMED),
            "{name}: the second read right after the wait, past the timed loop"
        );
        seen += 1;
    }
    // Every subgroup configuration and every workgroup one (each of two sizes), every peak.
    assert_eq!(seen, 24 + 14 + 8, "clock kernels");
}
