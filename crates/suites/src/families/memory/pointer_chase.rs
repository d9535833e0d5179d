//! The latency suite: a dependent pointer chase by one lane through each resource that loads data, over working sets from 4 KB to 256 MB, four per octave.

use super::bands::{Bands, BAND_BYTES};
use crate::data::ThreadSum;
use crate::families::{lacks_feature, upload, Columns, Latency, Probe, Shared, Spec, Unit};
use crate::kernels::{
    check_built, named, KernelId,
    Part::{Number, Text},
};
use crate::model::{quarter_octave_kb, size_name, Pattern, Suite, THREADS_PER_GROUP};
use anyhow::{Context as _, Result};
use ash::vk;
use perftest_gpu::pipeline::Binding;
use perftest_gpu::resources::{
    record_copy, record_copy_to_offset, record_full_barrier, record_update, Buffer, BufferView,
    Image, Memory, Sampler, Shape, Usage,
};
use perftest_gpu::{Gpu, Instance};
use std::sync::OnceLock;

/// Bytes of one line of the chain: one cache line on every current GPU (and the stride the
/// chase jumps by at least).
const LINE_BYTES: u64 = 128;
/// Words per line: word k of line L holds L's successor in the chain of size k.
const LINE_WORDS: u32 = (LINE_BYTES / 4) as u32;
/// How many working sets the sweep has: four per octave from 4 KB to 256 MB.
const SIZES: usize = 4 * 16 + 1;
/// The working sets in KB: 1, 1.25, 1.5 and 1.75 times each power of two from 4 KB, then
/// 256 MB. Quarter steps of the octave (ratios 1.14 to 1.25) rather than powers of 2^(1/4), so
/// that every size has a short exact name and cache sizes such as 6, 40 or 96 MB are points.
const SIZES_KB: [u32; SIZES] = {
    let mut kb = [0; SIZES];
    let mut i = 0;
    while i < SIZES {
        kb[i] = quarter_octave_kb(i);
        i += 1;
    }
    kb
};
/// The largest working set, and so the table's size.
const TABLE_BYTES: u64 = (SIZES_KB[SIZES - 1] as u64) << 10;
/// Lines of the table.
const TABLE_LINES: u32 = (TABLE_BYTES / LINE_BYTES) as u32;
/// Each chain starts on a 4 KB boundary of the table (every buffer offset alignment is at most
/// 256 bytes).
const PLACE_ALIGN_LINES: u32 = 32;
/// Chains per working set: random cycles of different seeds through the same lines, each in
/// its own word, timed one after the other; a row reports their median and spread, so that a
/// size on a cache transition (where one cycle's share of lines in each level is luck) shows
/// it, and the median moves less between runs than any one cycle.
pub const CHAINS: usize = 4;
/// Groups of [`CHAINS`] words in a line: a size's chains take one group.
const GROUPS: usize = LINE_WORDS as usize / CHAINS;
/// Slots per resource in the kernel's state buffer (its MAX_SIZES): chain c of size s is slot
/// c × SIZES + s (the test's readStart).
const PLACE_SLOTS: usize = 320;
/// The registers' slot: its "word" is a key from the input, so that their walk depends on it.
const REGISTERS_SLOT: usize = PLACE_SLOTS - 1;
/// The slot whose address (`zw`) is the pointer table's (the kernel's PTR_SLOT).
const PTR_SLOT: usize = PLACE_SLOTS - 2;
const _: () = assert!(CHAINS * SIZES <= PTR_SLOT);
/// The first of the refinement probe's [`CHAINS`] slots (see [`PointerChase`]'s `probe`),
/// after the sweep's.
const PROBE_SLOT: usize = CHAINS * SIZES;
const _: () = assert!(PROBE_SLOT + CHAINS <= PTR_SLOT);
/// The kernel's resource number of the storage-buffer chase (its state slots' row).
const RAW_BUFFER_RESOURCE: usize = 2;
/// A key for the probe's chains in [`chain`], beside the sweep's size indices.
const PROBE_KEY: usize = 1 << 20;
/// Chase states per slot in the state buffer: one per resource number of the kernel (1 to
/// 12), the raw-buffer chase beside shared memory (13) and the load-to-use chase's address
/// (14 and 15, its low and high words) and the texture chase beside a buffer's (16), after
/// slot 0.
const STATE_SLOTS: usize = 17;
/// Bytes of one line of the load-to-use chase's pointer table: the index table's 32 words
/// as 8-byte addresses.
const PTR_LINE_BYTES: u64 = LINE_BYTES * 2;
const _: () = assert!(GROUPS * CHAINS == LINE_WORDS as usize);
/// Shared memory runs the powers of two from 4 to 64 KB (the kernels declare one of these).
const SHARED_KB: [u32; 5] = [4, 8, 16, 32, 64];
/// Shared memory the raw-buffer chase beside shared memory declares and uses (its kernel's
/// PAD_KB), and the largest working set it runs (the L1 region of current GPUs).
const BESIDE_SHARED_KB: u32 = 32;
const _: () = assert!(
    BESIDE_SHARED_KB * 256 == 8192,
    "the resource's name says 8192 words"
);
const BESIDE_SHARED_MAX_KB: u32 = 256;
/// The storage-buffer chase paired with the texture chase (its kernel's BESIDE_KB and
/// BESIDE_SIZE: chain 0 of that sweep size), and the largest texture working set beside it
/// (past the texture's L1 region of current GPUs).
const BESIDE_BUFFER_KB: u32 = 128;
const BESIDE_BUFFER_SIZE: usize = 20;
const _: () = assert!(
    SIZES_KB[BESIDE_BUFFER_SIZE] == BESIDE_BUFFER_KB && BESIDE_BUFFER_KB * 256 == 32768,
    "the kernel's BESIDE_SIZE and the resource's name say 128 KB, 32768 words"
);
const BESIDE_BUFFER_MAX_KB: u32 = 2048;
/// Chase steps per loop iteration of the kernel (unrolled), and iterations of a timed dispatch.
const STEPS_PER_ITERATION: u32 = 16;
const DISPATCH_ITERATIONS: u32 = 16;
/// Iterations of the shorter timed run of each chain (the longer runs twice as many): the
/// latency is the difference over 1024 steps, so that on a transition each chain samples
/// enough lines of each level (at 128 steps, a 24 MB row moved 5 % between runs).
const TIMED_ITERATIONS: u32 = 64;
/// Steps each timed dispatch walks first, untimed, at most (a whole cycle up to 512 KB: more
/// than an SM's L1, which a new dispatch finds cold, so that only the walk before it in the
/// same dispatch can fill it).
const WARM_IN_DISPATCH_STEPS: u32 = 4096;
/// Iterations of the verify dispatch: 17 × 16 = 272 steps, a number no size's line count
/// divides (unit-tested), since a chase of a multiple of its cycle's length ends where it
/// started, whatever the chain (256 steps would, for every cycle of 32 to 256 lines).
const VERIFY_ITERATIONS: u32 = 17;
/// The side of the square image that holds the table (256 MB of 32-bit texels), where the
/// device allows it.
const IMAGE_SIDE: u32 = 8192;
/// The latency kernel's warm-up walks the whole cycle, so that a working set that fits a
/// cache is in it, but at most this many steps: 64 MB of lines, more than any current GPU's
/// last-level cache, beyond which the chase misses all the same.
const WARM_STEPS_MAX: u64 = 1 << 19;
/// Steps beyond [`WARM_STEPS_MAX`] a cycle must have for its chains to be started from
/// emptied caches rather than walked first ([`Latency::evict_first`]): 8 MB of lines, more
/// than the 33792 steps each chain's timed dispatches walk (3 × (4096 + 1024) and
/// 3 × (4096 + 2048)), so that none of them is a line the walk would have left behind.
const WARM_MARGIN_STEPS: u64 = 1 << 16;

/// What the chase loads through.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Resource {
    TexelBuffer,
    RawBuffer,
    /// The raw-buffer chase in a pipeline that also uses [`BESIDE_SHARED_KB`] of shared memory.
    RawBufferBesideShared,
    /// The texel-fetch chase, each step paired with a step of the storage-buffer chase over
    /// [`BESIDE_BUFFER_KB`]: whether the two share the L1.
    TexelFetchBesideBuffer,
    StructuredBuffer,
    UniformBuffer,
    StorageTexelBuffer,
    StorageImage,
    TexelFetch,
    SampleNearest,
    SampleBilinear,
    DeviceAddress,
    /// `p = *p`: the loaded value is the next load's address (device addresses), in one of
    /// the chain's forms.
    LoadToUse(Form),
    /// A plain random cycle of `p = *p` nodes spaced evenly over the working set, in a table
    /// of its own: the layout the load-to-use chase's is held against (docs/latency.md).
    Cycle(Spacing),
    Shared,
    /// No load: the loop's own cost.
    Registers,
}

/// Whether a cycle of `lines` is longer than its warm walk and the steps timed after it
/// ([`Latency::evict_first`]).
fn beyond_warm(lines: u32) -> bool {
    lines as u64 > WARM_STEPS_MAX + WARM_MARGIN_STEPS
}

impl Resource {
    /// Whether each step's load touches its own line's bytes alone, through a buffer: lines
    /// the walk visited and lines it did not share no byte a cache could hold (a bilinear
    /// footprint reaches the next row's line; an image's texels lie in tiles; a plain
    /// cycle's 8-byte nodes share lines).
    fn nodes_own_lines(self) -> bool {
        matches!(
            self,
            Resource::TexelBuffer
                | Resource::RawBuffer
                | Resource::StructuredBuffer
                | Resource::StorageTexelBuffer
                | Resource::DeviceAddress
                | Resource::LoadToUse(_)
        )
    }

    /// Every resource, in run order.
    const ALL: [Resource; 23] = [
        Resource::TexelBuffer,
        Resource::RawBuffer,
        Resource::RawBufferBesideShared,
        Resource::StructuredBuffer,
        Resource::UniformBuffer,
        Resource::StorageTexelBuffer,
        Resource::StorageImage,
        Resource::TexelFetch,
        Resource::SampleNearest,
        Resource::SampleBilinear,
        Resource::TexelFetchBesideBuffer,
        Resource::DeviceAddress,
        Resource::LoadToUse(Form::Uint2),
        Resource::LoadToUse(Form::Uint64),
        Resource::LoadToUse(Form::Reference),
        Resource::LoadToUse(Form::Uint2Rolled),
        Resource::LoadToUse(Form::Uint64Rolled),
        Resource::LoadToUse(Form::ReferenceRolled),
        Resource::Cycle(Spacing::Word),
        Resource::Cycle(Spacing::Line),
        Resource::Cycle(Spacing::Page),
        Resource::Shared,
        Resource::Registers,
    ];

    /// The name, in the original suite's HLSL spelling.
    fn name(self) -> &'static str {
        match self {
            Resource::TexelBuffer => "Buffer<uint>",
            Resource::RawBuffer => "ByteAddressBuffer",
            // 8192 words: BESIDE_SHARED_KB.
            Resource::RawBufferBesideShared => "ByteAddressBuffer beside groupshared{uint[8192]}",
            Resource::StructuredBuffer => "StructuredBuffer<uint[32]>",
            Resource::UniformBuffer => "cbuffer{uint4}",
            Resource::StorageTexelBuffer => "RWBuffer<uint>",
            Resource::StorageImage => "RWTexture2D<float>",
            Resource::TexelFetch => "Texture2D<float>.Load",
            Resource::SampleNearest => "Texture2D<float>.Sample(nearest)",
            Resource::SampleBilinear => "Texture2D<float>.Sample(bilinear)",
            // 32768 words: BESIDE_BUFFER_KB.
            Resource::TexelFetchBesideBuffer => {
                "Texture2D<float>.Load beside ByteAddressBuffer{uint[32768]}"
            }
            Resource::DeviceAddress => "BufferReference<uint>",
            Resource::LoadToUse(f) => f.name(),
            Resource::Cycle(Spacing::Word) => {
                "BufferReference<uint64_t> random cycle of 8-byte nodes"
            }
            Resource::Cycle(Spacing::Line) => {
                "BufferReference<uint64_t> random cycle of nodes 128 B apart"
            }
            Resource::Cycle(Spacing::Page) => {
                "BufferReference<uint64_t> random cycle of nodes 4 KB apart"
            }
            Resource::Shared => "groupshared{uint}",
            Resource::Registers => "registers{uint}, no load",
        }
    }

    /// The kernel's name without the size (and the clock suffix).
    const fn ident(self) -> &'static str {
        match self {
            Resource::TexelBuffer => "texel_buffer",
            Resource::RawBuffer => "raw_buffer",
            Resource::RawBufferBesideShared => "raw_buffer_pad32k",
            Resource::StructuredBuffer => "structured_buffer",
            Resource::UniformBuffer => "uniform_buffer",
            Resource::StorageTexelBuffer => "storage_texel_buffer",
            Resource::StorageImage => "storage_image",
            Resource::TexelFetch => "texel_fetch",
            Resource::SampleNearest => "sample_nearest",
            Resource::SampleBilinear => "sample_bilinear",
            Resource::TexelFetchBesideBuffer => "texel_fetch_beside128k",
            Resource::DeviceAddress => "device_address",
            Resource::LoadToUse(f) => f.ident(),
            Resource::Cycle(_) => "cycle",
            Resource::Shared => "shared",
            Resource::Registers => "registers",
        }
    }

    /// The CSV's `resource` column.
    fn descriptor(self) -> &'static str {
        match self {
            Resource::TexelBuffer => "UNIFORM_TEXEL_BUFFER",
            Resource::RawBuffer | Resource::RawBufferBesideShared | Resource::StructuredBuffer => {
                "STORAGE_BUFFER"
            }
            Resource::UniformBuffer => "UNIFORM_BUFFER",
            Resource::StorageTexelBuffer => "STORAGE_TEXEL_BUFFER",
            Resource::StorageImage => "STORAGE_IMAGE",
            Resource::TexelFetch
            | Resource::TexelFetchBesideBuffer
            | Resource::SampleNearest
            | Resource::SampleBilinear => "COMBINED_IMAGE_SAMPLER",
            Resource::DeviceAddress | Resource::LoadToUse(_) | Resource::Cycle(_) => {
                "device address"
            }
            Resource::Shared => "shared memory",
            Resource::Registers => "none",
        }
    }

    /// Whether the chain is read from the image (floats) rather than the table buffer.
    fn is_image(self) -> bool {
        matches!(
            self,
            Resource::StorageImage
                | Resource::TexelFetch
                | Resource::TexelFetchBesideBuffer
                | Resource::SampleNearest
                | Resource::SampleBilinear
        )
    }

    /// The sizes of the sweep (indices into [`SIZES_KB`]) the resource's tests cover: the
    /// registers have no working set (one test, with size 0's word).
    fn sizes(self) -> Vec<usize> {
        match self {
            Resource::Shared => (0..SIZES)
                .filter(|&s| SHARED_KB.contains(&SIZES_KB[s]))
                .collect(),
            Resource::Registers => vec![0],
            Resource::RawBufferBesideShared => (0..SIZES)
                .filter(|&s| SIZES_KB[s] <= BESIDE_SHARED_MAX_KB)
                .collect(),
            Resource::TexelFetchBesideBuffer => (0..SIZES)
                .filter(|&s| SIZES_KB[s] <= BESIDE_BUFFER_MAX_KB)
                .collect(),
            Resource::LoadToUse(f) if !f.sweeps() => (0..SIZES)
                .filter(|&s| FORM_SIZES_KB.contains(&SIZES_KB[s]))
                .collect(),
            // Memory: where the load-to-use chase's layout and a plain cycle's may differ.
            Resource::Cycle(_) => vec![SIZES - 1],
            _ => (0..SIZES).collect(),
        }
    }
}

/// The working sets at which every form of the load-to-use chase runs beside the two that
/// sweep: an H100's L1, L2 and memory (docs/latency.md compares them there).
const FORM_SIZES_KB: [u32; 3] = [16, 4096, 262144];

/// How the load-to-use chase's loaded value becomes the next address
/// (`glsl/memory/pointer_chase.comp`'s CHAIN and ROLLED).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Form {
    /// A `uvec2` member, bitcast to the reference: any device with buffer device addresses.
    Uint2,
    /// A `uint64_t` member converted to the reference (`shaderInt64`): the summary's
    /// load-to-use where the device has it.
    Uint64,
    /// The member is itself a reference (`p = p.next`).
    Reference,
    /// [`Form::Uint2`] in a loop of one step per iteration.
    Uint2Rolled,
    /// [`Form::Uint64`] in a loop of one step per iteration.
    Uint64Rolled,
    /// [`Form::Reference`] in a loop of one step per iteration.
    ReferenceRolled,
}

impl Form {
    fn name(self) -> &'static str {
        match self {
            Form::Uint2 => "BufferReference<uint2> load-to-use",
            Form::Uint64 => "BufferReference<uint64_t> load-to-use",
            Form::Reference => "BufferReference<Node> load-to-use",
            Form::Uint2Rolled => "BufferReference<uint2> load-to-use, one step a loop",
            Form::Uint64Rolled => "BufferReference<uint64_t> load-to-use, one step a loop",
            Form::ReferenceRolled => "BufferReference<Node> load-to-use, one step a loop",
        }
    }

    const fn ident(self) -> &'static str {
        match self {
            Form::Uint2 => "load_to_use",
            Form::Uint64 => "load_to_use_u64",
            Form::Reference => "load_to_use_ref",
            Form::Uint2Rolled => "load_to_use_uint2_rolled",
            Form::Uint64Rolled => "load_to_use_u64_rolled",
            Form::ReferenceRolled => "load_to_use_ref_rolled",
        }
    }

    /// The CSV's `format`: the loaded member's type.
    fn format(self) -> &'static str {
        match self {
            Form::Uint2 | Form::Uint2Rolled => "uint2",
            Form::Uint64 | Form::Uint64Rolled => "uint64_t",
            Form::Reference | Form::ReferenceRolled => "reference",
        }
    }

    fn needs_int64(self) -> bool {
        matches!(self, Form::Uint64 | Form::Uint64Rolled)
    }

    /// Whether the form runs at every size of the sweep (else at [`FORM_SIZES_KB`]).
    fn sweeps(self) -> bool {
        matches!(self, Form::Uint2 | Form::Uint64)
    }
}

/// How far apart a plain cycle's nodes lie ([`Resource::Cycle`]): every 8-byte word of the
/// set (a CUDA-style `p = *p` chase over an array of pointers), one node per 128-byte line, or
/// one per 4 KB page.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Spacing {
    Word,
    Line,
    Page,
}

impl Spacing {
    const ALL: [Spacing; 3] = [Spacing::Word, Spacing::Line, Spacing::Page];

    /// log2 of the bytes between neighbouring nodes (the kernel reads it from the place's x).
    fn shift(self) -> u32 {
        match self {
            Spacing::Word => 3,
            Spacing::Line => 7,
            Spacing::Page => 12,
        }
    }

    fn index(self) -> usize {
        Spacing::ALL.iter().position(|&x| x == self).unwrap()
    }

    /// The state slot (readStart) of its cycle: below the pointer table's.
    fn slot(self) -> usize {
        PTR_SLOT - 1 - self.index()
    }

    /// Nodes of a cycle over `bytes`.
    fn nodes(self, bytes: u64) -> u32 {
        (bytes >> self.shift()) as u32
    }
}
const _: () = assert!(PROBE_SLOT + CHAINS <= PTR_SLOT - 3);

/// A key for the plain cycles in [`chain`], beside the sweep's size indices and the probe's.
const CYCLE_KEY: usize = 1 << 21;

/// The plain cycle of `spacing` over the largest working set: `next[i]` follows node i.
/// Kept once made (32 Mi nodes at 8 bytes: the verify and the latency references walk it).
fn cycle(seed: u64, spacing: Spacing) -> std::sync::Arc<Vec<u32>> {
    type Cache = std::sync::Mutex<Vec<((u64, usize), std::sync::Arc<Vec<u32>>)>>;
    static CYCLES: OnceLock<Cache> = OnceLock::new();
    let key = (seed, spacing.index());
    let mut cache = CYCLES.get_or_init(Default::default).lock().unwrap();
    if let Some((_, c)) = cache.iter().find(|(k, _)| *k == key) {
        return c.clone();
    }
    let nodes = spacing.nodes(TABLE_BYTES);
    let c = std::sync::Arc::new(chain(seed, CYCLE_KEY + spacing.index(), 0, nodes));
    // One seed at a time: another input's cycles are not walked again.
    cache.retain(|(k, _)| k.0 == seed);
    cache.push((key, c.clone()));
    c
}

/// Every chain of every size for `seed`, in order (chain c of size s at s × CHAINS + c): made
/// once on the host's cores and shared by the devices that set up while it is alive (the
/// shuffles of 65 × 4 cycles, up to 2M lines each, took seconds of one core).
fn chains_of(seed: u64) -> std::sync::Arc<Vec<Vec<u32>>> {
    type Made = std::sync::Mutex<Option<(u64, std::sync::Weak<Vec<Vec<u32>>>)>>;
    static MADE: OnceLock<Made> = OnceLock::new();
    // Held while making them: a device that comes meanwhile waits for these, not makes its own.
    let mut made = MADE
        .get_or_init(Default::default)
        .lock()
        .unwrap_or_else(|p| p.into_inner());
    if let Some(chains) = made
        .as_ref()
        .filter(|(s, _)| *s == seed)
        .and_then(|(_, w)| w.upgrade())
    {
        return chains;
    }
    let jobs: Vec<(usize, usize)> = (0..SIZES)
        .flat_map(|size| (0..CHAINS).map(move |c| (size, c)))
        .collect();
    let chains = std::sync::Arc::new(crate::data::par_map(&jobs, |&(size, c)| {
        chain(seed, size, c, size_lines(size))
    }));
    // Weak: 200 MB not kept for the run once the devices have their tables.
    *made = Some((seed, std::sync::Arc::downgrade(&chains)));
    chains
}

/// One test: a resource and a working set of `SIZES_KB[size]` KB.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Variant {
    resource: Resource,
    size: usize,
}

impl Variant {
    fn bytes(self) -> u64 {
        size_bytes(self.size)
    }

    /// Lines in the working set (the chain's length; a plain cycle's: its nodes).
    fn lines(self) -> u32 {
        match self.resource {
            Resource::Cycle(spacing) => spacing.nodes(self.bytes()),
            _ => size_lines(self.size),
        }
    }
}

fn size_bytes(size: usize) -> u64 {
    (SIZES_KB[size] as u64) << 10
}

fn size_lines(size: usize) -> u32 {
    (size_bytes(size) / LINE_BYTES) as u32
}

/// Where a size's chains lie in the table: words `group × CHAINS + c` (chain c) of lines
/// `base..base + lines`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
struct Place {
    group: u32,
    base: u32,
}

impl Place {
    /// The word that holds chain `c`.
    fn word(self, c: usize) -> u32 {
        self.group * CHAINS as u32 + c as u32
    }
}

/// Every size's place: the largest first, each in the group of words whose chains end lowest
/// (from a 4 KB boundary), so that 65 sizes × 4 chains (6.5 GB of line words) share the
/// table's 8 groups of 256 MB and no chain overlaps another.
fn places() -> [Place; SIZES] {
    let mut end = [0u32; GROUPS];
    let mut order: Vec<usize> = (0..SIZES).collect();
    order.sort_by_key(|&s| std::cmp::Reverse(SIZES_KB[s]));
    let mut places = [Place::default(); SIZES];
    for s in order {
        let group = (0..GROUPS).min_by_key(|&g| end[g]).unwrap();
        places[s] = Place {
            group: group as u32,
            base: end[group],
        };
        end[group] += size_lines(s).next_multiple_of(PLACE_ALIGN_LINES);
        assert!(end[group] <= TABLE_LINES, "the sizes overflow the table");
    }
    places
}

/// The chain data on one device, created when a latency test is first asked about (so that
/// a run without one allocates nothing).
pub struct Chain<'g> {
    /// Every size's chain, in one buffer (see `glsl/memory/pointer_chase.comp`).
    table: Buffer<'g>,
    /// The same chains as device addresses, for the load-to-use chase (where the device has
    /// `bufferDeviceAddress`): kept alive while the kernels read it through its address; or
    /// why it could not be made (its 512 MB on a small device: the other chases still run).
    pointers: std::result::Result<Buffer<'g>, String>,
    /// Where each size's chain lies in the table.
    places: [Place; SIZES],
    /// Where each test's chase stands, and the table's device address.
    state: Buffer<'g>,
    /// Views of the table per size, `None` beyond maxTexelBufferElements.
    texel_views: Vec<Option<BufferView<'g>>>,
    storage_texel_views: Vec<Option<BufferView<'g>>>,
    /// The table as 32-bit floats, sampled and storage, in `GENERAL` layout.
    image: Image<'g>,
    nearest: Sampler<'g>,
    linear: Sampler<'g>,
}

/// The family's resources: what creating the chain needs, and the chain once created (or
/// why it could not be).
pub struct Resources<'g> {
    gpu: &'g Gpu<'g>,
    instance: &'g Instance,
    seed: u64,
    chain: OnceLock<std::result::Result<Chain<'g>, String>>,
    /// Each plain cycle's table, made when its test is first asked about.
    cycles: [OnceLock<std::result::Result<Buffer<'g>, String>>; 3],
}

/// `latency: <resource> <size>`.
pub struct PointerChase;

/// A seed derived from the input, so that `--fault reference` changes the CPU's chains.
fn seed(input: &[u8]) -> u64 {
    input.iter().fold(0xcbf2_9ce4_8422_2325, |h, &b| {
        (h ^ b as u64).wrapping_mul(0x0000_0100_0000_01b3)
    })
}

/// The number the registers' chase adds at each step (the kernel's `k`).
fn registers_key(seed: u64) -> u32 {
    (seed >> 32) as u32 | 1
}

/// Chain `c` of `lines` lines: `next[L]` follows line L, in one cycle through every line
/// (Sattolo's shuffle, from a splitmix64 stream seeded by the input, the size and the chain).
fn chain(seed: u64, size: usize, c: usize, lines: u32) -> Vec<u32> {
    let state = seed
        ^ (size as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15)
        ^ (c as u64).wrapping_mul(0xD1B5_4A32_D192_ED03);
    crate::data::random_cycle(state, lines)
}

/// The line chain `c` of `v` reaches after `steps` steps from line 0 (for the registers, the
/// value their arithmetic reaches).
fn walk(v: Variant, c: usize, input: &[u8], steps: u64) -> u32 {
    if v.resource == Resource::Registers {
        let k = registers_key(seed(input));
        return (0..steps).fold(0u32, |cur, _| {
            ((cur << 5).wrapping_add(k).wrapping_mul(0x9E37_79B1)) >> 8
        });
    }
    if let Resource::Cycle(spacing) = v.resource {
        let next = cycle(seed(input), spacing);
        return (0..steps).fold(0, |node, _| next[node as usize]);
    }
    let next = chain(seed(input), v.size, c, v.lines());
    (0..steps).fold(0, |line, _| next[line as usize])
}

/// What the verify output holds of the line or node a chase reached: a plain cycle's node
/// (up to 2^25) in two floats of 16 bits each, so both are exact.
fn reached_sum(v: Variant, reached: u32) -> [f32; 4] {
    match v.resource {
        Resource::Cycle(_) => [(reached & 0xFFFF) as f32, (reached >> 16) as f32, 0.0, 0.0],
        _ => [reached as f32, 0.0, 0.0, 0.0],
    }
}

/// Makes the plain cycle of `spacing`'s table over the largest working set: node i (at
/// `i << shift` from its start) holds its successor's device address; its place (the shift,
/// and node 0's address) goes into the spacing's slot of `chain`'s state, its chase at node 0.
fn make_cycle<'g>(
    gpu: &'g Gpu<'g>,
    chain: &Chain<'g>,
    seed: u64,
    spacing: Spacing,
) -> Result<Buffer<'g>> {
    let buffer = Buffer::new(
        gpu,
        "plain cycle",
        TABLE_BYTES,
        vk::BufferUsageFlags::STORAGE_BUFFER
            | vk::BufferUsageFlags::SHADER_DEVICE_ADDRESS
            | vk::BufferUsageFlags::TRANSFER_DST,
        Memory::DeviceLocal,
    )?;
    let base = buffer.device_address();
    let shift = spacing.shift();
    let mut nodes = vec![0u8; TABLE_BYTES as usize];
    for (i, next) in cycle(seed, spacing).iter().enumerate() {
        let at = i << shift;
        let to = base + ((*next as u64) << shift);
        nodes[at..at + 8].copy_from_slice(&to.to_le_bytes());
    }
    let mut staging = Buffer::new(
        gpu,
        "plain cycle staging",
        TABLE_BYTES,
        vk::BufferUsageFlags::TRANSFER_SRC,
        Memory::Upload,
    )?;
    staging.write(&nodes)?;
    drop(nodes);
    let slot = spacing.slot();
    let mut place = [0u8; 16];
    place[..4].copy_from_slice(&shift.to_le_bytes());
    place[8..].copy_from_slice(&base.to_le_bytes());
    // The load-to-use chase's state words (14 and 15) of the slot: zero, a chase not started.
    let state_at = |word: usize| 16 * PLACE_SLOTS as u64 + 4 * (word * PLACE_SLOTS + slot) as u64;
    gpu.submit(|d, cmd| {
        record_copy(d, cmd, &staging, &buffer, TABLE_BYTES);
        record_update(d, cmd, &chain.state, 16 * slot as u64, &place);
        record_update(d, cmd, &chain.state, state_at(14), &[0u8; 4]);
        record_update(d, cmd, &chain.state, state_at(15), &[0u8; 4]);
        record_full_barrier(d, cmd);
    })
    .context("uploading a plain cycle")?;
    Ok(buffer)
}

/// The largest power of two not above `limit`, at most [`IMAGE_SIDE`].
fn image_side(limit: u32) -> u32 {
    let side = limit.clamp(1, IMAGE_SIDE);
    1 << (31 - side.leading_zeros())
}

impl<'g> Chain<'g> {
    // Long on purpose: the chain table, its upload and the resources of every access path
    // (buffer, texel views, image, device address) are one sequence over the same sizes.
    fn new(gpu: &'g Gpu<'g>, instance: &'g Instance, seed: u64) -> Result<Self> {
        let limits = &gpu.info.limits;
        let bda = gpu.info.features.buffer_device_address;
        // The table: word `word` of line `base + L` is L's successor in the size's chain; the
        // image holds the same words as floats (exact: every line index is below 2^24).
        let places = places();
        let chains = chains_of(seed);
        let chain_of = |size: usize, c: usize| &chains[size * CHAINS + c];
        // `put(line, word, base, next)` for every link of every chain on the table's lines
        // `first..first + count` (`line` counted from `first`; `next` is the successor's line
        // counted from the chain's `base`), in the order the chains are laid out, so that
        // parts of the table filled on different cores hold what one pass would write.
        let links = |first: usize, count: usize, put: &mut dyn FnMut(usize, usize, u64, u32)| {
            for (size, place) in places.iter().enumerate() {
                let base = place.base as usize;
                for c in 0..CHAINS {
                    let chain = chain_of(size, c);
                    let word = place.word(c) as usize;
                    for line in first.max(base)..(first + count).min(base + chain.len()) {
                        put(line - first, word, base as u64, chain[line - base]);
                    }
                }
            }
        };
        let links = &links;
        let line_bytes = LINE_BYTES as usize;
        // The table's bytes from `at` (a line's first) as `value`s, into `part` (zeroed,
        // whole lines).
        let fill_table = |value: fn(u32) -> [u8; 4]| {
            move |at: usize, part: &mut [u8]| {
                links(
                    at / line_bytes,
                    part.len() / line_bytes,
                    &mut |line, word, _, next| {
                        let at = (line * LINE_WORDS as usize + word) * 4;
                        part[at..at + 4].copy_from_slice(&value(next));
                    },
                );
            }
        };
        let mut usage = vk::BufferUsageFlags::STORAGE_BUFFER
            | vk::BufferUsageFlags::UNIFORM_BUFFER
            | vk::BufferUsageFlags::UNIFORM_TEXEL_BUFFER
            | vk::BufferUsageFlags::STORAGE_TEXEL_BUFFER
            | vk::BufferUsageFlags::TRANSFER_DST;
        if bda {
            usage |= vk::BufferUsageFlags::SHADER_DEVICE_ADDRESS;
        }
        let table = Buffer::new(gpu, "chain table", TABLE_BYTES, usage, Memory::DeviceLocal)?;
        let address = if bda { table.device_address() } else { 0 };
        let state_bytes = (16 + 4 * STATE_SLOTS) as u64 * PLACE_SLOTS as u64;
        let state = Buffer::new(
            gpu,
            "chain state",
            state_bytes,
            vk::BufferUsageFlags::STORAGE_BUFFER | vk::BufferUsageFlags::TRANSFER_DST,
            Memory::DeviceLocal,
        )?;
        let side = image_side(limits.max_image_dimension2_d);
        let (format, shape) = (vk::Format::R32_SFLOAT, Shape::square(side));
        let image = Image::new(gpu, "chain image", format, shape, Usage::SampledStorage)?;
        // One staging band for every upload: 1 GB of host memory pinned at once (the table,
        // its image and the pointers) stalled every other device's setup of a node.
        let mut bands = Bands::new(gpu, "chain staging", BAND_BYTES)?;
        bands
            .upload(
                TABLE_BYTES as usize,
                line_bytes,
                fill_table(|next| next.to_le_bytes()),
                |d, cmd, staging, at, len| record_copy_to_offset(d, cmd, staging, &table, at, len),
            )
            .context("uploading the chain table")?;
        // The image holds the table's first lines as floats (exact: every line index is below
        // 2^24), row by row.
        let row_bytes = side as usize * 4;
        bands
            .upload(
                side as usize * row_bytes,
                row_bytes.max(line_bytes),
                fill_table(|next| (next as f32).to_le_bytes()),
                |d, cmd, staging, at, len| {
                    let (row, rows) = (
                        (at / row_bytes as u64) as u32,
                        (len / row_bytes as u64) as u32,
                    );
                    image.record_fill_rows(d, cmd, staging, row, rows)
                },
            )
            .context("uploading the chain image")?;
        // Each chain's place (word, first line, device address of the first line) in slot
        // c × SIZES + size, then the chases' slots at 0.
        let mut state_words = vec![0u8; state_bytes as usize];
        for (size, p) in places.iter().enumerate() {
            let first = if bda {
                address + p.base as u64 * LINE_BYTES
            } else {
                0
            };
            for c in 0..CHAINS {
                let at = (c * SIZES + size) * 16;
                state_words[at..at + 4].copy_from_slice(&p.word(c).to_le_bytes());
                state_words[at + 4..at + 8].copy_from_slice(&p.base.to_le_bytes());
                state_words[at + 8..at + 16].copy_from_slice(&first.to_le_bytes());
            }
        }
        let at = REGISTERS_SLOT * 16;
        state_words[at..at + 4].copy_from_slice(&registers_key(seed).to_le_bytes());
        // The load-to-use chase's table: slot `word` (8 bytes) of line `base + L` holds the
        // device address of the same slot of L's successor line.
        let mut make_pointers = |state_words: &mut [u8]| -> Result<Buffer<'g>> {
            let bytes = TABLE_LINES as u64 * PTR_LINE_BYTES;
            let buffer = Buffer::new(
                gpu,
                "chain pointer table",
                bytes,
                vk::BufferUsageFlags::STORAGE_BUFFER
                    | vk::BufferUsageFlags::SHADER_DEVICE_ADDRESS
                    | vk::BufferUsageFlags::TRANSFER_DST,
                Memory::DeviceLocal,
            )?;
            let start = buffer.device_address();
            let node = |line: u64, word: usize| line * PTR_LINE_BYTES + word as u64 * 8;
            let ptr_line_bytes = PTR_LINE_BYTES as usize;
            let fill = |at: usize, part: &mut [u8]| {
                links(
                    at / ptr_line_bytes,
                    part.len() / ptr_line_bytes,
                    &mut |line, word, base, next| {
                        let at = node(line as u64, word) as usize;
                        let to = start + node(base + next as u64, word);
                        part[at..at + 8].copy_from_slice(&to.to_le_bytes());
                    },
                );
            };
            bands
                .upload(
                    bytes as usize,
                    ptr_line_bytes,
                    fill,
                    |d, cmd, staging, at, len| {
                        record_copy_to_offset(d, cmd, staging, &buffer, at, len)
                    },
                )
                .context("uploading the chain pointer table")?;
            let at = PTR_SLOT * 16 + 8;
            state_words[at..at + 8].copy_from_slice(&start.to_le_bytes());
            Ok(buffer)
        };
        let pointers = if bda {
            make_pointers(&mut state_words).map_err(|e| format!("{e:#}"))
        } else {
            Err("the device lacks bufferDeviceAddress".to_string())
        };
        let state_len = state_words.len();
        bands
            .upload(
                state_len,
                state_len,
                |_, part| part.copy_from_slice(&state_words),
                |d, cmd, staging, _, len| {
                    record_copy(d, cmd, staging, &state, len);
                    // The kernels also write the state: make every copy visible to every access.
                    record_full_barrier(d, cmd);
                },
            )
            .context("uploading the pointer-chase chains")?;
        let views = |usage: vk::FormatFeatureFlags| -> Result<Vec<Option<BufferView<'g>>>> {
            let supported = instance
                .format_properties(gpu.info, vk::Format::R32_UINT)
                .buffer_features
                .contains(usage);
            (0..SIZES)
                .map(|size| {
                    let bytes = size_bytes(size);
                    let offset = places[size].base as u64 * LINE_BYTES;
                    (supported && bytes / 4 <= limits.max_texel_buffer_elements as u64)
                        .then(|| {
                            BufferView::new_at(gpu, &table, vk::Format::R32_UINT, offset, bytes)
                        })
                        .transpose()
                })
                .collect()
        };
        let texel_views = views(vk::FormatFeatureFlags::UNIFORM_TEXEL_BUFFER)?;
        let storage_texel_views = views(vk::FormatFeatureFlags::STORAGE_TEXEL_BUFFER)?;
        Ok(Chain {
            pointers,
            places,
            texel_views,
            storage_texel_views,
            table,
            state,
            image,
            nearest: Sampler::new(gpu, vk::Filter::NEAREST)?,
            linear: Sampler::new(gpu, vk::Filter::LINEAR)?,
        })
    }
}

impl PointerChase {
    /// Why the device's limits keep `v` from running, if they do (needs no chain data).
    // Long on purpose: one arm per resource, each the limit its binding must fit, beside
    // the others so that a new resource's limit is found with them.
    fn over_limit(v: Variant, shared: &Shared<'_>) -> Option<String> {
        let info = shared.gpu.info;
        let limits = &info.limits;
        let bytes = v.bytes();
        let over = |limit: u64, what: &str| {
            (bytes > limit).then(|| format!("{} exceeds {what}", size_name(bytes)))
        };
        match v.resource {
            Resource::RawBuffer | Resource::StructuredBuffer => over(
                limits.max_storage_buffer_range as u64,
                &format!(
                    "maxStorageBufferRange = {}",
                    limits.max_storage_buffer_range
                ),
            ),
            Resource::RawBufferBesideShared => over(
                limits.max_storage_buffer_range as u64,
                &format!(
                    "maxStorageBufferRange = {}",
                    limits.max_storage_buffer_range
                ),
            )
            .or_else(|| {
                (BESIDE_SHARED_KB << 10 > limits.max_compute_shared_memory_size).then(|| {
                    format!(
                        "{BESIDE_SHARED_KB} KB of shared memory exceeds \
                         maxComputeSharedMemorySize = {}",
                        limits.max_compute_shared_memory_size
                    )
                })
            }),
            Resource::UniformBuffer => over(
                (limits.max_uniform_buffer_range as u64).min(65536),
                &format!(
                    "maxUniformBufferRange = {} (the kernel declares at most 64 KB)",
                    limits.max_uniform_buffer_range
                ),
            ),
            Resource::TexelBuffer | Resource::StorageTexelBuffer => over(
                4 * limits.max_texel_buffer_elements as u64,
                &format!(
                    "maxTexelBufferElements = {} (4-byte texels)",
                    limits.max_texel_buffer_elements
                ),
            ),
            Resource::Shared => over(
                limits.max_compute_shared_memory_size as u64,
                &format!(
                    "maxComputeSharedMemorySize = {}",
                    limits.max_compute_shared_memory_size
                ),
            ),
            Resource::DeviceAddress | Resource::LoadToUse(_) | Resource::Cycle(_) => {
                lacks_feature(info.features.buffer_device_address, "bufferDeviceAddress")
            }
            Resource::Registers => None,
            Resource::StorageImage
            | Resource::TexelFetch
            | Resource::TexelFetchBesideBuffer
            | Resource::SampleNearest
            | Resource::SampleBilinear => {
                // The image holds the table from line 0: the size's chain must end inside it.
                let side = image_side(limits.max_image_dimension2_d) as u64;
                let end = (places()[v.size].base as u64 + v.lines() as u64) * LINE_BYTES;
                (end > side * side * 4)
                    .then(|| {
                        format!(
                            "{} at {} MB of the table exceeds a {side}x{side} R32_SFLOAT image \
                             (maxImageDimension2D = {})",
                            size_name(bytes),
                            (end - bytes) >> 20,
                            limits.max_image_dimension2_d
                        )
                    })
                    .or_else(|| {
                        let linear = shared
                            .instance
                            .format_properties(info, vk::Format::R32_SFLOAT)
                            .optimal_tiling_features
                            .contains(vk::FormatFeatureFlags::SAMPLED_IMAGE_FILTER_LINEAR);
                        (v.resource == Resource::SampleBilinear && !linear).then(|| {
                            "R32_SFLOAT lacks SAMPLED_IMAGE_FILTER_LINEAR in optimalTilingFeatures"
                                .into()
                        })
                    })
            }
        }
    }
}

impl Spec for PointerChase {
    type Variant = Variant;
    type Resources<'g> = Resources<'g>;

    fn tests(&self) -> Vec<(Suite, Variant, Pattern)> {
        Resource::ALL
            .iter()
            .flat_map(|&resource| {
                resource.sizes().into_iter().map(move |size| {
                    // The pattern is not part of the name: every chase is a random cycle.
                    (Suite::Latency, Variant { resource, size }, Pattern::Random)
                })
            })
            .collect()
    }

    fn name(&self, v: Variant) -> String {
        match v.resource {
            Resource::Registers => format!("latency: {}", v.resource.name()),
            r => format!("latency: {} {}", r.name(), size_name(v.bytes())),
        }
    }

    fn test_name(&self, v: Variant, _: Pattern) -> String {
        self.name(v)
    }

    fn columns(&self, v: Variant) -> Columns {
        Columns {
            family: "pointer_chase",
            resource: v.resource.descriptor(),
            format: if v.resource.is_image() {
                "R32_SFLOAT".into()
            } else if matches!(
                v.resource,
                Resource::TexelBuffer | Resource::StorageTexelBuffer
            ) {
                "R32_UINT".into()
            } else if let Resource::LoadToUse(f) = v.resource {
                f.format().into()
            } else if let Resource::Cycle(_) = v.resource {
                "uint64_t".into()
            } else {
                "uint".into()
            },
        }
    }

    fn bytes_per_load(&self, v: Variant) -> Option<u32> {
        Some(
            if matches!(v.resource, Resource::LoadToUse(_) | Resource::Cycle(_)) {
                8
            } else {
                4
            },
        )
    }

    fn kernel(&self, v: Variant, _: Pattern) -> KernelId {
        kernel_of(v.resource, SIZES_KB[v.size], "")
    }

    /// The size's index (the kernel finds its place in the state buffer), or the registers'
    /// slot.
    fn read_start(&self, v: Variant) -> u32 {
        match v.resource {
            Resource::Registers => REGISTERS_SLOT as u32,
            Resource::Cycle(spacing) => spacing.slot() as u32,
            _ => v.size as u32,
        }
    }

    /// The storage-buffer chase's sweep: the curve whose edges its probes refine.
    fn curve_size(&self, v: Variant) -> Option<u64> {
        (v.resource == Resource::RawBuffer).then(|| v.bytes())
    }

    /// Every chase's working set but the registers' (one test, no size).
    fn working_set(&self, v: Variant) -> Option<u64> {
        (v.resource != Resource::Registers).then(|| v.bytes())
    }

    /// Invocation 0 of each group writes the line its chase of the verify dispatch's steps
    /// ends at, from line 0; the others write zeros.
    fn reference(&self, v: Variant, _: Pattern, input: &[u8]) -> Vec<ThreadSum> {
        let steps = (VERIFY_ITERATIONS * STEPS_PER_ITERATION) as u64;
        let mut out = vec![ThreadSum::default(); THREADS_PER_GROUP as usize];
        out[0].sum = reached_sum(v, walk(v, 0, input, steps));
        out
    }

    /// One lane's steps per group of 256 invocations: one load each (so `loads_per_dispatch`
    /// counts the chase's loads).
    fn ops_per_thread(&self, _: Variant) -> u64 {
        (DISPATCH_ITERATIONS * STEPS_PER_ITERATION) as u64 / THREADS_PER_GROUP
    }

    /// Loads of a dependent chain: no ratio to the baseline's throughput.
    fn unit(&self, _: Variant) -> Unit {
        Unit::Ops
    }

    /// One workgroup: a single chase.
    fn dispatch_groups(&self, _: Variant, _: Pattern, _: u32, _: Option<u32>) -> u32 {
        1
    }

    fn latency(&self, v: Variant) -> Option<Latency> {
        let memory = v.resource != Resource::Registers;
        Some(Latency {
            // One lane chases: no lane count to know.
            reports_subgroup_size: false,
            kernel: kernel_of(v.resource, SIZES_KB[v.size], "_clock"),
            ops_per_iteration: STEPS_PER_ITERATION,
            // Before each chain: a walk of its own cycle, so that it is timed in its own steady
            // state (a cycle larger than a cache misses in it on every step; another chain's
            // order over the same lines would leave some of them hit).
            warm_ops: if memory {
                (v.lines() as u64).min(WARM_STEPS_MAX)
            } else {
                0
            },
            evict_first: v.resource.nodes_own_lines() && beyond_warm(v.lines()),
            // A plain cycle is one chain: its nodes fill its table.
            chains: if memory && !matches!(v.resource, Resource::Cycle(_)) {
                (1..CHAINS).map(|c| (c * SIZES + v.size) as u32).collect()
            } else {
                Vec::new()
            },
            timed_iterations: TIMED_ITERATIONS,
            warm_iterations: if memory {
                v.lines().min(WARM_IN_DISPATCH_STEPS) / STEPS_PER_ITERATION
            } else {
                0
            },
            // The kernel walks `elementsMask` iterations from the chain's state.
            timestamped: true,
        })
    }

    /// Lane 0 continues chain `start / SIZES` from where the verify dispatch left it; the
    /// other lanes write zeros.
    fn latency_reference(
        &self,
        v: Variant,
        input: &[u8],
        iterations: u32,
        subgroup_size: u32,
        start: u32,
    ) -> Vec<ThreadSum> {
        let lanes = (subgroup_size as usize).clamp(1, crate::model::LATENCY_GROUP_SIZE);
        let steps = ((VERIFY_ITERATIONS + iterations) * STEPS_PER_ITERATION) as u64;
        let c = match v.resource {
            Resource::Registers | Resource::Cycle(_) => 0,
            _ => start as usize / SIZES,
        };
        let mut out = vec![ThreadSum::default(); lanes];
        out[0].sum = reached_sum(v, walk(v, c, input, steps));
        out
    }

    /// The storage-buffer chase (the curve the summary reads the levels from) at `bytes`:
    /// four chains of their own over `bytes / 128` lines in a table of their own, in words 0
    /// to 3, started at line 0 in the probe's state slots; warmed and timed as the sweep's.
    fn probe<'a, 'g>(
        &self,
        r: &'a Resources<'g>,
        _: &Shared<'g>,
        v: Variant,
        bytes: u64,
    ) -> Option<Result<Probe<'a, 'g>>> {
        if v.resource != Resource::RawBuffer {
            return None;
        }
        let Some(Ok(c)) = r.chain.get() else {
            return None;
        };
        Some(probe(r, c, v, bytes))
    }

    fn create<'g>(&self, shared: &Shared<'g>) -> Result<Resources<'g>> {
        Ok(Resources {
            gpu: shared.gpu,
            instance: shared.instance,
            seed: seed(&shared.data),
            chain: OnceLock::new(),
            cycles: Default::default(),
        })
    }

    /// The device's limits first; then the chain data, created on the first supported test.
    fn unsupported(&self, r: &Resources<'_>, shared: &Shared<'_>, v: Variant) -> Option<String> {
        if let Some(why) = Self::over_limit(v, shared) {
            return Some(why);
        }
        let chain = r
            .chain
            .get_or_init(|| Chain::new(r.gpu, r.instance, r.seed).map_err(|e| format!("{e:#}")));
        match chain {
            Err(e) => Some(format!("the chain data could not be created: {e}")),
            Ok(c) => {
                if let Resource::Cycle(spacing) = v.resource {
                    if !shared.gpu.info.features.shader_int64 {
                        return Some("the plain cycle's kernel needs shaderInt64".into());
                    }
                    let made = r.cycles[spacing.index()].get_or_init(|| {
                        make_cycle(r.gpu, c, r.seed, spacing).map_err(|e| format!("{e:#}"))
                    });
                    return made
                        .as_ref()
                        .err()
                        .map(|e| format!("the plain cycle could not be made: {e}"));
                }
                let views = match v.resource {
                    Resource::TexelBuffer => &c.texel_views,
                    Resource::StorageTexelBuffer => &c.storage_texel_views,
                    Resource::LoadToUse(f) => {
                        return c
                            .pointers
                            .as_ref()
                            .err()
                            .map(|e| {
                                format!(
                                    "the load-to-use chase's pointer table could not be made: {e}"
                                )
                            })
                            .or_else(|| {
                                (f.needs_int64() && !shared.gpu.info.features.shader_int64).then(
                                    || {
                                        "a uint64_t chain needs shaderInt64 (the uint2 chase \
                                         runs instead)"
                                            .into()
                                    },
                                )
                            })
                    }
                    _ => return None,
                };
                views[v.size]
                    .is_none()
                    .then(|| "R32_UINT lacks a texel-buffer usage in bufferFeatures".into())
            }
        }
    }

    fn bindings<'a, 'g>(
        &self,
        r: &'a Resources<'g>,
        _: &'a Shared<'g>,
        v: Variant,
    ) -> Vec<(u32, Binding<'a, 'g>)> {
        let Some(Ok(c)) = r.chain.get() else {
            return Vec::new();
        };
        // Buffers are bound from the size's first line.
        let (offset, bytes) = (c.places[v.size].base as u64 * LINE_BYTES, v.bytes());
        let source = match v.resource {
            Resource::TexelBuffer => c.texel_views[v.size].as_ref().map(Binding::TexelBuffer),
            Resource::StorageTexelBuffer => c.storage_texel_views[v.size]
                .as_ref()
                .map(Binding::StorageTexelBuffer),
            Resource::RawBuffer
            | Resource::RawBufferBesideShared
            | Resource::StructuredBuffer
            | Resource::Shared => Some(Binding::StorageBufferSlice(&c.table, offset, bytes)),
            Resource::UniformBuffer => Some(Binding::UniformBufferSlice(&c.table, offset, bytes)),
            Resource::StorageImage => Some(Binding::StorageImage(&c.image)),
            Resource::TexelFetch | Resource::TexelFetchBesideBuffer | Resource::SampleNearest => {
                Some(Binding::CombinedImageSampler {
                    image: &c.image,
                    sampler: &c.nearest,
                    immutable: false,
                })
            }
            Resource::SampleBilinear => Some(Binding::CombinedImageSampler {
                image: &c.image,
                sampler: &c.linear,
                immutable: false,
            }),
            Resource::DeviceAddress
            | Resource::LoadToUse(_)
            | Resource::Cycle(_)
            | Resource::Registers => None,
        };
        let state = Some((1, Binding::StorageBuffer(&c.state, c.state.size)));
        // The buffer chase paired with the texture's, bound from its size's first line.
        let beside = (v.resource == Resource::TexelFetchBesideBuffer).then(|| {
            let offset = c.places[BESIDE_BUFFER_SIZE].base as u64 * LINE_BYTES;
            let bytes = size_bytes(BESIDE_BUFFER_SIZE);
            (3, Binding::StorageBufferSlice(&c.table, offset, bytes))
        });
        source
            .map(|s| (0, s))
            .into_iter()
            .chain(state)
            .chain(beside)
            .collect()
    }
}

/// See [`PointerChase`]'s `probe`.
fn probe<'a, 'g>(
    r: &'a Resources<'g>,
    c: &'a Chain<'g>,
    v: Variant,
    bytes: u64,
) -> Result<Probe<'a, 'g>> {
    let align = PLACE_ALIGN_LINES as u64 * LINE_BYTES;
    anyhow::ensure!(
        bytes >= align && bytes.is_multiple_of(align) && bytes <= TABLE_BYTES,
        "a probe's working set is a multiple of {align} bytes up to the table's"
    );
    let lines = (bytes / LINE_BYTES) as u32;
    let next: Vec<Vec<u32>> = (0..CHAINS)
        .map(|k| chain(r.seed, PROBE_KEY + lines as usize, k, lines))
        .collect();
    let mut words = vec![0u8; bytes as usize];
    for (k, chain) in next.iter().enumerate() {
        for (line, to) in chain.iter().enumerate() {
            let at = (line * LINE_WORDS as usize + k) * 4;
            words[at..at + 4].copy_from_slice(&to.to_le_bytes());
        }
    }
    let (staging, table) = upload(
        r.gpu,
        "chain probe",
        &words,
        vk::BufferUsageFlags::STORAGE_BUFFER,
    )?;
    drop(words);
    let gpu = r.gpu;
    // Chain k's place (word k from line 0) and its chase at line 0.
    let places: Vec<u8> = (0..CHAINS as u32)
        .flat_map(|k| [k, 0, 0, 0])
        .flat_map(u32::to_le_bytes)
        .collect();
    let next_at =
        16 * PLACE_SLOTS as u64 + 4 * (RAW_BUFFER_RESOURCE * PLACE_SLOTS + PROBE_SLOT) as u64;
    gpu.submit(|d, cmd| {
        record_copy(d, cmd, &staging, &table, bytes);
        record_update(d, cmd, &c.state, 16 * PROBE_SLOT as u64, &places);
        record_update(d, cmd, &c.state, next_at, &[0u8; 4 * CHAINS]);
        record_full_barrier(d, cmd);
    })
    .context("uploading a probe's chains")?;
    let latency = PointerChase
        .latency(v)
        .expect("the storage-buffer chase has a latency kernel");
    Ok(Probe {
        name: format!("latency: {} {}", v.resource.name(), size_name(bytes)),
        bytes,
        table,
        state: &c.state,
        latency: Latency {
            warm_ops: (lines as u64).min(WARM_STEPS_MAX),
            evict_first: v.resource.nodes_own_lines() && beyond_warm(lines),
            chains: (1..CHAINS).map(|k| (PROBE_SLOT + k) as u32).collect(),
            warm_iterations: lines.min(WARM_IN_DISPATCH_STEPS) / STEPS_PER_ITERATION,
            ..latency
        },
        read_start: PROBE_SLOT as u32,
        next,
    })
}

/// The kernel of a chase through `resource` (over `kb` KB where it is shared memory, whose
/// kernels are one per working set), of kind `kind`: `` (the test's own) or `_clock` (its
/// latency kernel).
const fn kernel_of(resource: Resource, kb: u32, kind: &str) -> KernelId {
    match resource {
        Resource::Shared => named(&[
            Text("pointer_chase_shared_"),
            Number(kb),
            Text("k"),
            Text(kind),
        ]),
        r => named(&[Text("pointer_chase_"), Text(r.ident()), Text(kind)]),
    }
}
check_built!(kernel_of; [Resource::Shared], SHARED_KB, ["", "_clock"]);

// Fails the build where a test's kernel is not built: every other resource's, and its
// latency kernel.
const _: () = {
    let mut i = 0;
    while i < Resource::ALL.len() {
        if !matches!(Resource::ALL[i], Resource::Shared) {
            kernel_of(Resource::ALL[i], 0, "");
            kernel_of(Resource::ALL[i], 0, "_clock");
        }
        i += 1;
    }
};

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_sizes_and_kernels_derive_from_the_enums() {
        let tests = PointerChase.tests();
        // 12 resources at every size (the load-to-use chase's uint2 and uint64_t forms two
        // of them), the chase beside shared memory up to 256 KB (25 sizes), the texture chase
        // beside a buffer's up to 2 MB (37), the load-to-use chase's four other forms at 3,
        // the three plain cycles at 256 MB, shared memory at 5, the registers once.
        assert_eq!(
            tests.len(),
            12 * SIZES + 25 + 37 + 4 * FORM_SIZES_KB.len() + 3 + SHARED_KB.len() + 1
        );
        assert!(FORM_SIZES_KB.iter().all(|kb| SIZES_KB.contains(kb)));
        let name = |i: usize| PointerChase.test_name(tests[i].1, tests[i].2);
        assert_eq!(name(0), "latency: Buffer<uint> 4 KB");
        assert_eq!(name(1), "latency: Buffer<uint> 5 KB");
        assert_eq!(name(SIZES + 24), "latency: ByteAddressBuffer 256 KB");
        assert_eq!(name(SIZES + 33), "latency: ByteAddressBuffer 1.25 MB");
        assert_eq!(name(SIZES + 35), "latency: ByteAddressBuffer 1.75 MB");
        assert_eq!(name(SIZES + 53), "latency: ByteAddressBuffer 40 MB");
        assert_eq!(name(2 * SIZES - 1), "latency: ByteAddressBuffer 256 MB");
        assert_eq!(
            name(2 * SIZES + 8),
            "latency: ByteAddressBuffer beside groupshared{uint[8192]} 16 KB"
        );
        assert_eq!(
            PointerChase
                .kernel(tests[2 * SIZES].1, Pattern::Random)
                .name(),
            "pointer_chase_raw_buffer_pad32k"
        );
        // After the seven resources that follow the raw buffer's two.
        let pair = 9 * SIZES + 25;
        assert_eq!(
            name(pair),
            "latency: Texture2D<float>.Load beside ByteAddressBuffer{uint[32768]} 4 KB"
        );
        assert_eq!(
            name(pair + 36),
            "latency: Texture2D<float>.Load beside ByteAddressBuffer{uint[32768]} 2 MB"
        );
        assert_eq!(
            PointerChase.kernel(tests[pair].1, Pattern::Random).name(),
            "pointer_chase_texel_fetch_beside128k"
        );
        // The kernel's buffer set is the resource's: chain 0 of that sweep size.
        assert_eq!(SIZES_KB[BESIDE_BUFFER_SIZE], 128);
        assert_eq!(name(tests.len() - 2), "latency: groupshared{uint} 64 KB");
        assert_eq!(name(tests.len() - 1), "latency: registers{uint}, no load");
        assert_eq!(
            PointerChase
                .kernel(tests[tests.len() - 2].1, Pattern::Random)
                .name(),
            "pointer_chase_shared_64k"
        );
        // Every name is distinct, and each octave has four points.
        let mut names: Vec<String> = (0..tests.len()).map(name).collect();
        names.sort();
        names.dedup();
        assert_eq!(names.len(), tests.len());
        assert_eq!(SIZES_KB[..9], [4, 5, 6, 7, 8, 10, 12, 14, 16]);
    }

    #[test]
    fn every_size_has_its_own_lines_and_the_verify_walk_cannot_come_back() {
        let places = places();
        let mut used = vec![vec![]; GROUPS];
        for (s, p) in places.iter().enumerate() {
            used[p.group as usize].push((p.base, p.base + size_lines(s)));
            // The chains of a size are its group's words, distinct from every other group's.
            let words: Vec<u32> = (0..CHAINS).map(|c| p.word(c)).collect();
            assert!(words
                .iter()
                .all(|w| *w / CHAINS as u32 == p.group && *w < LINE_WORDS));
            assert_eq!(p.base % PLACE_ALIGN_LINES, 0);
            // A chase of a multiple of a cycle's length ends where it started.
            let steps = VERIFY_ITERATIONS * STEPS_PER_ITERATION;
            assert_ne!(steps % size_lines(s), 0, "{} KB", SIZES_KB[s]);
        }
        for ranges in &mut used {
            ranges.sort();
            assert!(ranges.windows(2).all(|w| w[0].1 <= w[1].0), "{ranges:?}");
            assert!(ranges.last().is_none_or(|r| r.1 <= TABLE_LINES));
        }
        // The largest size fills a group (a slot per chain and size, below the registers', is
        // checked where the constants are).
        assert_eq!(places[SIZES - 1].base, 0);
    }

    #[test]
    fn only_buffer_chases_beyond_their_walk_start_from_emptied_caches() {
        let evicts = |resource, size| {
            PointerChase
                .latency(Variant { resource, size })
                .is_some_and(|l| l.evict_first)
        };
        let largest = SIZES - 1;
        // The walk covers at most WARM_STEPS_MAX lines (64 MB) and the timed steps 8 MB more.
        let first_beyond = (0..SIZES)
            .find(|&s| size_lines(s) as u64 > WARM_STEPS_MAX + WARM_MARGIN_STEPS)
            .expect("a size beyond the walk");
        assert!(
            size_bytes(first_beyond) > 72 << 20,
            "{}",
            size_bytes(first_beyond)
        );
        assert!(size_bytes(first_beyond - 1) <= 72 << 20);
        for resource in [
            Resource::RawBuffer,
            Resource::TexelBuffer,
            Resource::StructuredBuffer,
            Resource::StorageTexelBuffer,
            Resource::DeviceAddress,
            Resource::LoadToUse(Form::Uint64),
        ] {
            assert!(evicts(resource, largest), "{resource:?}");
            assert!(evicts(resource, first_beyond), "{resource:?}");
            assert!(!evicts(resource, first_beyond - 1), "{resource:?}");
            assert!(!evicts(resource, 0), "{resource:?}");
        }
        // Images (tiles, a bilinear footprint across lines), plain cycles (nodes sharing lines)
        // and the loop without loads keep the walk.
        for resource in [
            Resource::StorageImage,
            Resource::TexelFetch,
            Resource::SampleNearest,
            Resource::SampleBilinear,
            Resource::Cycle(Spacing::Word),
            Resource::Cycle(Spacing::Line),
            Resource::Registers,
        ] {
            assert!(!evicts(resource, largest), "{resource:?}");
        }
    }

    #[test]
    fn every_chain_is_one_cycle_through_every_line() {
        let input = crate::data::input();
        for size in [0, 3, 9] {
            let lines = size_lines(size);
            let next = chain(seed(&input), size, 0, lines);
            let (mut line, mut seen) = (0u32, vec![false; lines as usize]);
            for _ in 0..lines {
                assert!(!seen[line as usize], "size {size}: line {line} twice");
                seen[line as usize] = true;
                line = next[line as usize];
            }
            assert_eq!(line, 0, "size {size}: the cycle closes after every line");
        }
        // A corrupted input gives other chains, and the verify dispatch's walk ends elsewhere
        // for every size (so --fault reference is caught).
        let mut corrupted = input.clone();
        corrupted[0] ^= 0x5A;
        assert_ne!(
            chain(seed(&input), 4, 0, 512),
            chain(seed(&corrupted), 4, 0, 512)
        );
        // Each chain of a size is a cycle of its own seed.
        let chains: Vec<Vec<u32>> = (0..CHAINS)
            .map(|c| chain(seed(&input), 4, c, 512))
            .collect();
        for a in 0..CHAINS {
            for b in a + 1..CHAINS {
                assert_ne!(chains[a], chains[b], "chains {a} and {b}");
            }
        }
        for size in 0..20 {
            let v = Variant {
                resource: Resource::RawBuffer,
                size,
            };
            let steps = (VERIFY_ITERATIONS * STEPS_PER_ITERATION) as u64;
            // (The first chain's: the row's verify dispatch; another chain's walk may end on
            // the same line by chance, and the row still mismatches through the first.)
            assert_ne!(
                walk(v, 0, &input, steps),
                walk(v, 0, &corrupted, steps),
                "size {size}"
            );
            for c in 0..CHAINS {
                assert_ne!(walk(v, c, &input, steps), 0, "size {size} chain {c}");
            }
        }
    }
}
