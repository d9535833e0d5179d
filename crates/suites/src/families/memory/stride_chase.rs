//! The latency suite's stride sweep: a dependent chase through blocks of 16 loads a stride apart, whose latency per step stops rising where the stride reaches the granularity a cache level is filled in.

use crate::data::ThreadSum;
use crate::families::{upload, Columns, Latency, Shared, Spec, Unit};
use crate::kernels::{
    check_built, named, KernelId,
    Part::{Number, Text},
};
use crate::model::{size_name, Pattern, Suite, THREADS_PER_GROUP};
use anyhow::{Context as _, Result};
use ash::vk;
use perftest_gpu::pipeline::Binding;
use perftest_gpu::resources::{record_copy, record_full_barrier, Buffer};
use perftest_gpu::Gpu;
use std::sync::OnceLock;

/// The strides in bytes: 4 (a word) to 512, past every current cache's line (the kernel's
/// STRIDE values).
const STRIDES: [u32; 8] = [4, 8, 16, 32, 64, 128, 256, 512];
/// The working sets in KB. The first [`SWEPT`] run every stride: one in the L1 of most GPUs
/// (and past a CPU's L1d), one past every current GPU's L1 and inside its L2, one past every
/// current last-level cache but the largest (the memory's). The others run 32 bytes apart
/// only ([`LINE_STRIDE`]): with the first, a curve over the L1 sizes of current GPUs,
/// 64–384 KB, and with the second one over their L2 sizes, 4–64 MB, at the chase sweep's
/// quarter-octave points — a set read whole (every 32-byte sector of its lines) whose edge,
/// held against the chase's (one word per 128-byte line), tells the cache's line
/// (docs/summary.md).
const SIZES_KB: [u32; 25] = [
    64,
    4 << 10,
    256 << 10,
    96,
    112,
    128,
    160,
    192,
    224,
    256,
    320,
    384,
    8 << 10,
    10 << 10,
    12 << 10,
    14 << 10,
    16 << 10,
    20 << 10,
    24 << 10,
    28 << 10,
    32 << 10,
    40 << 10,
    48 << 10,
    56 << 10,
    64 << 10,
];
/// The sets that run every stride.
const SWEPT: usize = 3;
/// The stride (its index in [`STRIDES`]: 32 bytes) of the other sets.
const LINE_STRIDE: usize = 3;
const _: () = assert!(STRIDES[LINE_STRIDE] == 32);
/// Loads per block (the kernel's 16): one iteration of the kernel's loop.
const BLOCK_NODES: u32 = 16;
/// Chains per test, of different seeds and in different words (the kernel's CHAINS): a row
/// reports their median and spread.
pub const CHAINS: usize = 2;
/// Iterations (blocks) of the shorter timed run of each chain; the longer runs twice as many.
/// 2048 steps: at 4 bytes apart one in eight misses, so the shorter run still samples 256
/// misses.
const TIMED_ITERATIONS: u32 = 128;
/// Steps walked first in each timed dispatch, untimed, at most: a 64 KB set's whole cycle at
/// the smallest stride, so that an L1 that a new dispatch finds cold holds the set again.
const WARM_IN_DISPATCH_STEPS: u64 = 16 << 10;
/// Sets from this size up are the memory's: their chains are not walked first (a walk of 256
/// MB at 4 bytes apart would take 64 M steps, and leave nothing a cache could keep).
const UNWARMED_KB: u32 = 64 << 10;
/// Iterations (blocks) of the verify dispatch: 17, which no set's block count (8 or more, and
/// not 17) divides, so the walk cannot end where it started.
const VERIFY_ITERATIONS: u64 = 17;

/// One test: a working set of `SIZES_KB[size]` KB and loads `STRIDES[stride]` bytes apart.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Variant {
    size: usize,
    stride: usize,
}

impl Variant {
    fn bytes(self) -> u64 {
        (SIZES_KB[self.size] as u64) << 10
    }

    fn stride(self) -> u32 {
        STRIDES[self.stride]
    }

    /// Blocks of the set: the chain's cycle length.
    fn blocks(self) -> u32 {
        (self.bytes() / (BLOCK_NODES * self.stride()) as u64) as u32
    }

    /// The `readStart` of chain `c`: the test's state slot.
    fn slot(self, c: usize) -> u32 {
        ((self.size * STRIDES.len() + self.stride) * CHAINS + c) as u32
    }

    /// The word of the set's region that holds chain `c`'s successor of `block`: the block's
    /// node `15 − 8c` (an odd node, so no other stride's or chain's word).
    fn pointer_word(self, c: usize, block: u32) -> u64 {
        let node = (BLOCK_NODES - 1 - (BLOCK_NODES / CHAINS as u32) * c as u32) as u64;
        (self.stride() as u64 * (BLOCK_NODES as u64 * block as u64 + node)) / 4
    }
}

/// Where each size's region starts in the table: the largest first, so that every region
/// starts on a boundary of its own size.
fn region_offset(size: usize) -> u64 {
    let mut order: Vec<usize> = (0..SIZES_KB.len()).collect();
    order.sort_by_key(|&s| std::cmp::Reverse(SIZES_KB[s]));
    order
        .iter()
        .take_while(|&&s| s != size)
        .map(|&s| (SIZES_KB[s] as u64) << 10)
        .sum()
}

/// The table's size: every region.
fn table_bytes() -> u64 {
    SIZES_KB.iter().map(|&kb| (kb as u64) << 10).sum()
}

/// A seed derived from the input, so that `--fault reference` changes the CPU's chains.
fn seed(input: &[u8]) -> u64 {
    input.iter().fold(0x8422_2325_cbf2_9ce4, |h, &b| {
        (h ^ b as u64).wrapping_mul(0x0000_0100_0000_01b3)
    })
}

/// Chain `c` of `v`: `next[b]` follows block b, in one cycle through every block (Sattolo's
/// shuffle, from a splitmix64 stream seeded by the input, the test and the chain).
fn chain(seed: u64, v: Variant, c: usize) -> Vec<u32> {
    let state = seed ^ (v.slot(c) as u64 + 1).wrapping_mul(0x9E37_79B9_7F4A_7C15);
    crate::data::random_cycle(state, v.blocks())
}

/// The block chain `c` of `v` reaches after `blocks` blocks from block 0.
fn walk(v: Variant, c: usize, input: &[u8], blocks: u64) -> u32 {
    let next = chain(seed(input), v, c);
    (0..blocks).fold(0, |b, _| next[b as usize])
}

/// The table and the chases' state on one device.
pub struct Table<'g> {
    /// Every size's region (see `glsl/memory/stride_chase.comp`).
    words: Buffer<'g>,
    /// Where each test's chains stand (a block index per slot).
    state: Buffer<'g>,
}

impl<'g> Table<'g> {
    fn new(gpu: &'g Gpu<'g>, seed: u64) -> Result<Self> {
        let bytes = table_bytes();
        // Little-endian words, written in place (the table is 634 MB: one copy of it only).
        let mut le = vec![0u8; bytes as usize];
        // The chains of the tests there are (a set read only 32 bytes apart has no others),
        // shuffled on the host's cores, then written in the tests' order.
        let jobs: Vec<(Variant, usize)> = StrideChase
            .tests()
            .into_iter()
            .flat_map(|(_, v, _)| (0..CHAINS).map(move |c| (v, c)))
            .collect();
        let chains = crate::data::par_map(&jobs, |&(v, c)| chain(seed, v, c));
        for (&(v, c), chain) in jobs.iter().zip(&chains) {
            let base = region_offset(v.size) / 4;
            for (block, &next) in chain.iter().enumerate() {
                let at = 4 * (base + v.pointer_word(c, block as u32)) as usize;
                le[at..at + 4].copy_from_slice(&next.to_le_bytes());
            }
        }
        let usage = vk::BufferUsageFlags::STORAGE_BUFFER;
        let (staging, table) = upload(gpu, "stride table", &le, usage)?;
        drop(le);
        let slots = (SIZES_KB.len() * STRIDES.len() * CHAINS) as u64;
        let (zeros, state) = upload(gpu, "stride state", &vec![0u8; 4 * slots as usize], usage)?;
        gpu.submit(|d, cmd| {
            record_copy(d, cmd, &staging, &table, bytes);
            record_copy(d, cmd, &zeros, &state, 4 * slots);
            // The kernels also write the state: make the copies visible to every access.
            record_full_barrier(d, cmd);
        })
        .context("uploading the stride chase's table")?;
        Ok(Table {
            words: table,
            state,
        })
    }
}

/// The family's resources: the table, made when a stride test is first asked about (so that
/// a run without one allocates nothing), or why it could not be.
pub struct Resources<'g> {
    gpu: &'g Gpu<'g>,
    seed: u64,
    table: OnceLock<std::result::Result<Table<'g>, String>>,
}

/// `latency by stride: ByteAddressBuffer <size>, <stride> B apart`.
pub struct StrideChase;

impl Spec for StrideChase {
    type Variant = Variant;
    type Resources<'g> = Resources<'g>;

    fn tests(&self) -> Vec<(Suite, Variant, Pattern)> {
        let swept = (0..SWEPT)
            .flat_map(|size| (0..STRIDES.len()).map(move |stride| Variant { size, stride }));
        let line = (SWEPT..SIZES_KB.len()).map(|size| Variant {
            size,
            stride: LINE_STRIDE,
        });
        swept
            .chain(line)
            .map(|v| (Suite::Latency, v, Pattern::Random))
            .collect()
    }

    fn name(&self, v: Variant) -> String {
        format!(
            "latency by stride: ByteAddressBuffer {}, {} B apart",
            size_name(v.bytes()),
            v.stride()
        )
    }

    fn test_name(&self, v: Variant, _: Pattern) -> String {
        self.name(v)
    }

    fn columns(&self, _: Variant) -> Columns {
        Columns {
            family: "stride_chase",
            resource: "STORAGE_BUFFER",
            format: "uint".into(),
        }
    }

    fn bytes_per_load(&self, _: Variant) -> Option<u32> {
        Some(4)
    }

    fn kernel(&self, v: Variant, _: Pattern) -> KernelId {
        kernel_of(v.stride(), "")
    }

    fn read_start(&self, v: Variant) -> u32 {
        v.slot(0)
    }

    /// Invocation 0 writes the block its chase of the verify dispatch's blocks ends at, from
    /// block 0; the others write zeros.
    fn reference(&self, v: Variant, _: Pattern, input: &[u8]) -> Vec<ThreadSum> {
        let mut out = vec![ThreadSum::default(); THREADS_PER_GROUP as usize];
        out[0].sum[0] = walk(v, 0, input, VERIFY_ITERATIONS) as f32;
        out
    }

    /// One lane's 256 steps per group of 256 invocations (so `loads_per_dispatch` counts the
    /// chase's loads).
    fn ops_per_thread(&self, _: Variant) -> u64 {
        16 * BLOCK_NODES as u64 / THREADS_PER_GROUP
    }

    /// Loads of a dependent chain: no ratio to the baseline's throughput.
    fn unit(&self, _: Variant) -> Unit {
        Unit::Ops
    }

    fn dispatch_groups(&self, _: Variant, _: Pattern, _: u32, _: Option<u32>) -> u32 {
        1
    }

    fn latency(&self, v: Variant) -> Option<Latency> {
        let steps = v.bytes() / v.stride() as u64;
        Some(Latency {
            evict_first: false,
            // One lane chases: no lane count to know.
            reports_subgroup_size: false,
            kernel: kernel_of(v.stride(), "_clock"),
            ops_per_iteration: BLOCK_NODES,
            // Each chain walks its whole cycle first, so that a set that fits a cache is in it
            // (at most 1.75 M steps: the 56 MB set 32 bytes apart), except the memory's.
            warm_ops: if SIZES_KB[v.size] >= UNWARMED_KB {
                0
            } else {
                steps
            },
            chains: (1..CHAINS).map(|c| v.slot(c)).collect(),
            timed_iterations: TIMED_ITERATIONS,
            warm_iterations: (steps.min(WARM_IN_DISPATCH_STEPS) / BLOCK_NODES as u64) as u32,
            timestamped: true,
        })
    }

    /// Lane 0 continues chain `start`'s cycle from where its verify dispatch left it; the
    /// other lanes write zeros.
    fn latency_reference(
        &self,
        v: Variant,
        input: &[u8],
        iterations: u32,
        subgroup_size: u32,
        start: u32,
    ) -> Vec<ThreadSum> {
        let lanes = crate::model::latency_lanes(subgroup_size);
        let c = start as usize % CHAINS;
        let mut out = vec![ThreadSum::default(); lanes];
        out[0].sum[0] = walk(v, c, input, VERIFY_ITERATIONS + iterations as u64) as f32;
        out
    }

    fn create<'g>(&self, shared: &Shared<'g>) -> Result<Resources<'g>> {
        Ok(Resources {
            gpu: shared.gpu,
            seed: seed(&shared.data),
            table: OnceLock::new(),
        })
    }

    /// The device's storage-buffer range first; then the table, made on the first supported
    /// test.
    fn unsupported(&self, r: &Resources<'_>, shared: &Shared<'_>, v: Variant) -> Option<String> {
        let range = shared.gpu.info.limits.max_storage_buffer_range;
        if v.bytes() > range as u64 {
            return Some(format!(
                "{} exceeds maxStorageBufferRange = {range}",
                size_name(v.bytes())
            ));
        }
        let table = r
            .table
            .get_or_init(|| Table::new(r.gpu, r.seed).map_err(|e| format!("{e:#}")));
        table
            .as_ref()
            .err()
            .map(|e| format!("the stride table could not be made: {e}"))
    }

    fn bindings<'a, 'g>(
        &self,
        r: &'a Resources<'g>,
        _: &'a Shared<'g>,
        v: Variant,
    ) -> Vec<(u32, Binding<'a, 'g>)> {
        let Some(Ok(t)) = r.table.get() else {
            return Vec::new();
        };
        vec![
            (
                0,
                Binding::StorageBufferSlice(&t.words, region_offset(v.size), v.bytes()),
            ),
            (1, Binding::StorageBuffer(&t.state, t.state.size)),
        ]
    }
}

/// The kernel of a chase of loads `stride` bytes apart, of kind `kind`: `` (the test's own)
/// or `_clock` (its latency kernel).
const fn kernel_of(stride: u32, kind: &str) -> KernelId {
    named(&[Text("stride_chase_"), Number(stride), Text("b"), Text(kind)])
}
check_built!(kernel_of; STRIDES, ["", "_clock"]);

#[cfg(test)]
mod tests {
    use super::*;

    fn all() -> Vec<Variant> {
        StrideChase.tests().into_iter().map(|t| t.1).collect()
    }

    #[test]
    fn names_and_kernels_derive_from_the_enums() {
        let tests = all();
        assert_eq!(tests.len(), SWEPT * STRIDES.len() + SIZES_KB.len() - SWEPT);
        assert_eq!(
            StrideChase.name(tests[SWEPT * STRIDES.len() + 3]),
            "latency by stride: ByteAddressBuffer 160 KB, 32 B apart"
        );
        assert_eq!(
            StrideChase.name(tests[0]),
            "latency by stride: ByteAddressBuffer 64 KB, 4 B apart"
        );
        assert_eq!(
            StrideChase.name(tests[SWEPT * STRIDES.len() - 1]),
            "latency by stride: ByteAddressBuffer 256 MB, 512 B apart"
        );
        assert_eq!(
            StrideChase.kernel(tests[3], Pattern::Random).name(),
            "stride_chase_32b"
        );
        let mut slots: Vec<u32> = tests
            .iter()
            .flat_map(|v| (0..CHAINS).map(|c| v.slot(c)))
            .collect();
        slots.sort();
        slots.dedup();
        assert_eq!(slots.len(), tests.len() * CHAINS);
        // The kernel finds the chain from readStart % CHAINS.
        assert!(tests.iter().all(|v| v.slot(1) % CHAINS as u32 == 1));
    }

    #[test]
    fn no_two_chains_share_a_word_and_every_region_holds_its_own() {
        for (size, &kb) in SIZES_KB.iter().enumerate() {
            let bytes = (kb as u64) << 10;
            // Every region starts on a boundary of the largest block (16 × 512 bytes).
            assert_eq!(region_offset(size) % (8 << 10), 0, "{kb} KB");
            assert!(region_offset(size) + bytes <= table_bytes());
        }
        // Every pointer word of the 64 KB region, over every stride and chain, is distinct.
        let mut words: Vec<u64> = (0..STRIDES.len())
            .flat_map(|stride| {
                let v = Variant { size: 0, stride };
                (0..CHAINS).flat_map(move |c| (0..v.blocks()).map(move |b| v.pointer_word(c, b)))
            })
            .collect();
        let n = words.len();
        assert!(words.iter().all(|&w| w < (64 << 10) / 4));
        words.sort();
        words.dedup();
        assert_eq!(words.len(), n);
    }

    #[test]
    fn every_chain_is_one_cycle_and_a_corrupted_input_ends_elsewhere() {
        let input = crate::data::input();
        // As the runner's --fault reference corrupts it.
        let mut corrupted = input.clone();
        corrupted.iter_mut().step_by(7).for_each(|b| *b ^= 0x5A);
        for v in all().into_iter().filter(|v| v.size != 2) {
            assert!(v.blocks() >= 8, "{v:?}");
            assert_ne!(VERIFY_ITERATIONS % v.blocks() as u64, 0);
            for c in 0..CHAINS {
                let next = chain(seed(&input), v, c);
                let (mut b, mut seen) = (0u32, vec![false; next.len()]);
                for _ in 0..next.len() {
                    assert!(!seen[b as usize], "{v:?}: block {b} twice");
                    seen[b as usize] = true;
                    b = next[b as usize];
                }
                assert_eq!(b, 0, "{v:?}: the cycle closes after every block");
                assert_ne!(walk(v, c, &input, VERIFY_ITERATIONS), 0);
            }
            // The row's verify dispatch (chain 0) and its latency kernel's (two more blocks)
            // both catch --fault reference.
            for blocks in [VERIFY_ITERATIONS, VERIFY_ITERATIONS + 2] {
                assert_ne!(
                    walk(v, 0, &input, blocks),
                    walk(v, 0, &corrupted, blocks),
                    "{v:?} after {blocks}"
                );
            }
        }
    }
}
