//! The latency suite: a dependent pointer chase by one lane through each resource that loads data, over working sets from 4 KB to 256 MB.

use super::{lacks_feature, Columns, Latency, Shared, Spec, Unit};
use crate::data::ThreadSum;
use crate::gpu::{Gpu, Instance};
use crate::model::{Pattern, Suite, THREADS_PER_GROUP};
use crate::pipeline::Binding;
use crate::resources::{record_copy, record_full_barrier, Buffer, BufferView, Image, Memory, Sampler};
use anyhow::{Context as _, Result};
use ash::vk;
use std::sync::OnceLock;

/// Bytes of one line of the chain: one cache line on every current GPU (and the stride the
/// chase jumps by at least).
const LINE_BYTES: u64 = 128;
/// Words per line: word k of line L holds L's successor in the chain of size k.
const LINE_WORDS: u32 = (LINE_BYTES / 4) as u32;
/// The working sets: 4 KB << k for k in 0..SIZES, one point per octave up to 256 MB.
const SIZES: u32 = 17;
/// The largest working set, and so the table's size.
const TABLE_BYTES: u64 = 4096 << (SIZES - 1);
/// Shared memory goes up to 64 KB (the kernels declare at most that much).
const SHARED_SIZES: u32 = 5;
/// Chase steps per loop iteration of the kernel (unrolled), and iterations of a timed dispatch.
const STEPS_PER_ITERATION: u32 = 16;
const DISPATCH_ITERATIONS: u32 = 16;
/// Iterations of the verify dispatch: odd, since every cycle's length is a multiple of 32
/// lines, and a chase of a multiple of its length ends where it started, whatever the chain.
const VERIFY_ITERATIONS: u32 = 17;
/// The side of the square image that holds the table (256 MB of 32-bit texels), where the
/// device allows it.
const IMAGE_SIDE: u32 = 8192;
/// The latency kernel's warm-up walks the whole cycle, so that a working set that fits a
/// cache is in it, but at most this many steps: 64 MB of lines, more than any current GPU's
/// last-level cache, beyond which the chase misses all the same.
const WARM_STEPS_MAX: u64 = 1 << 19;

/// What the chase loads through.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Resource {
    TexelBuffer,
    RawBuffer,
    StructuredBuffer,
    UniformBuffer,
    StorageTexelBuffer,
    StorageImage,
    TexelFetch,
    SampleNearest,
    SampleBilinear,
    DeviceAddress,
    Shared,
}

impl Resource {
    /// Every resource, in run order.
    const ALL: [Resource; 11] = [
        Resource::TexelBuffer,
        Resource::RawBuffer,
        Resource::StructuredBuffer,
        Resource::UniformBuffer,
        Resource::StorageTexelBuffer,
        Resource::StorageImage,
        Resource::TexelFetch,
        Resource::SampleNearest,
        Resource::SampleBilinear,
        Resource::DeviceAddress,
        Resource::Shared,
    ];

    /// The name, in the original suite's HLSL spelling.
    fn name(self) -> &'static str {
        match self {
            Resource::TexelBuffer => "Buffer<uint>",
            Resource::RawBuffer => "ByteAddressBuffer",
            Resource::StructuredBuffer => "StructuredBuffer<uint[32]>",
            Resource::UniformBuffer => "cbuffer{uint4}",
            Resource::StorageTexelBuffer => "RWBuffer<uint>",
            Resource::StorageImage => "RWTexture2D<float>",
            Resource::TexelFetch => "Texture2D<float>.Load",
            Resource::SampleNearest => "Texture2D<float>.Sample(nearest)",
            Resource::SampleBilinear => "Texture2D<float>.Sample(bilinear)",
            Resource::DeviceAddress => "BufferReference<uint>",
            Resource::Shared => "groupshared{uint}",
        }
    }

    /// The kernel's name without the size (and the clock suffix).
    fn ident(self) -> &'static str {
        match self {
            Resource::TexelBuffer => "texel_buffer",
            Resource::RawBuffer => "raw_buffer",
            Resource::StructuredBuffer => "structured_buffer",
            Resource::UniformBuffer => "uniform_buffer",
            Resource::StorageTexelBuffer => "storage_texel_buffer",
            Resource::StorageImage => "storage_image",
            Resource::TexelFetch => "texel_fetch",
            Resource::SampleNearest => "sample_nearest",
            Resource::SampleBilinear => "sample_bilinear",
            Resource::DeviceAddress => "device_address",
            Resource::Shared => "shared",
        }
    }

    /// The CSV's `resource` column.
    fn descriptor(self) -> &'static str {
        match self {
            Resource::TexelBuffer => "UNIFORM_TEXEL_BUFFER",
            Resource::RawBuffer | Resource::StructuredBuffer => "STORAGE_BUFFER",
            Resource::UniformBuffer => "UNIFORM_BUFFER",
            Resource::StorageTexelBuffer => "STORAGE_TEXEL_BUFFER",
            Resource::StorageImage => "STORAGE_IMAGE",
            Resource::TexelFetch | Resource::SampleNearest | Resource::SampleBilinear => {
                "COMBINED_IMAGE_SAMPLER"
            }
            Resource::DeviceAddress => "device address",
            Resource::Shared => "shared memory",
        }
    }

    /// Whether the chain is read from the image (floats) rather than the table buffer.
    fn is_image(self) -> bool {
        matches!(
            self,
            Resource::StorageImage
                | Resource::TexelFetch
                | Resource::SampleNearest
                | Resource::SampleBilinear
        )
    }

    /// How many sizes of the sweep the resource's tests cover.
    fn sizes(self) -> u32 {
        if self == Resource::Shared {
            SHARED_SIZES
        } else {
            SIZES
        }
    }
}

/// One test: a resource and a working set of `4 KB << size`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Variant {
    resource: Resource,
    size: u32,
}

impl Variant {
    fn bytes(self) -> u64 {
        4096 << self.size
    }

    /// Lines in the working set (the chain's length).
    fn lines(self) -> u32 {
        (self.bytes() / LINE_BYTES) as u32
    }
}

/// `4 KB`, `512 KB`, `1 MB`, `256 MB`.
fn size_name(bytes: u64) -> String {
    if bytes >= 1 << 20 {
        format!("{} MB", bytes >> 20)
    } else {
        format!("{} KB", bytes >> 10)
    }
}

/// The chain data on one device, created when a latency test is first asked about (so that
/// a run without one allocates nothing).
pub struct Chain<'g> {
    /// Every size's chain, in one buffer (see `glsl/pointer_chase.comp`).
    table: Buffer<'g>,
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
}

/// `latency: <resource> <size>`.
pub struct PointerChase;

/// A seed derived from the input, so that `--fault reference` changes the CPU's chains.
fn seed(input: &[u8]) -> u64 {
    input.iter().fold(0xcbf2_9ce4_8422_2325, |h, &b| {
        (h ^ b as u64).wrapping_mul(0x0000_0100_0000_01b3)
    })
}

/// The chain of `lines` lines: `next[L]` follows line L, in one cycle through every line
/// (Sattolo's shuffle, from a splitmix64 stream seeded by the input and the size).
fn chain(seed: u64, size: u32, lines: u32) -> Vec<u32> {
    let mut state = seed ^ (size as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15);
    let mut random = move || {
        state = state.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = state;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    };
    let mut next: Vec<u32> = (0..lines).collect();
    for i in (1..lines as usize).rev() {
        let j = (random() % i as u64) as usize;
        next.swap(i, j);
    }
    next
}

/// The line the chase of `v` reaches after `steps` steps from line 0.
fn walk(v: Variant, input: &[u8], steps: u64) -> u32 {
    let next = chain(seed(input), v.size, v.lines());
    (0..steps).fold(0, |line, _| next[line as usize])
}

/// The largest power of two not above `limit`, at most [`IMAGE_SIDE`].
fn image_side(limit: u32) -> u32 {
    let side = limit.clamp(1, IMAGE_SIDE);
    1 << (31 - side.leading_zeros())
}

impl<'g> Chain<'g> {
    fn new(gpu: &'g Gpu<'g>, instance: &'g Instance, seed: u64) -> Result<Self> {
        let limits = &gpu.info.limits;
        let bda = gpu.info.features.buffer_device_address;
        // The table: word k of line L is L's successor in size k's chain; the image holds the
        // same words as floats (exact: every line index is below 2^24).
        let mut words = vec![0u8; TABLE_BYTES as usize];
        let mut floats = vec![0u8; TABLE_BYTES as usize];
        for size in 0..SIZES {
            let v = Variant {
                resource: Resource::RawBuffer,
                size,
            };
            for (line, next) in chain(seed, size, v.lines()).into_iter().enumerate() {
                let at = (line * LINE_WORDS as usize + size as usize) * 4;
                words[at..at + 4].copy_from_slice(&next.to_le_bytes());
                floats[at..at + 4].copy_from_slice(&(next as f32).to_le_bytes());
            }
        }
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
        let state_bytes = 16 + 4 * LINE_WORDS as u64 * 16;
        let state = Buffer::new(
            gpu,
            "chain state",
            state_bytes,
            vk::BufferUsageFlags::STORAGE_BUFFER | vk::BufferUsageFlags::TRANSFER_DST,
            Memory::DeviceLocal,
        )?;
        let side = image_side(limits.max_image_dimension2_d);
        let image = Image::new_sampled_storage(
            gpu,
            "chain image",
            vk::Format::R32_SFLOAT,
            side,
        )?;
        let staged = |name: &str, bytes: &[u8]| -> Result<Buffer<'g>> {
            let mut b = Buffer::new(
                gpu,
                name,
                bytes.len() as u64,
                vk::BufferUsageFlags::TRANSFER_SRC,
                Memory::Upload,
            )?;
            b.write(bytes)?;
            Ok(b)
        };
        let table_staging = staged("chain table staging", &words)?;
        drop(words);
        let image_bytes = side as usize * side as usize * 4;
        let image_staging = staged("chain image staging", &floats[..image_bytes])?;
        drop(floats);
        let mut state_words = vec![0u8; state_bytes as usize];
        state_words[..8].copy_from_slice(&address.to_le_bytes());
        let state_staging = staged("chain state staging", &state_words)?;
        gpu.submit(|d, cmd| {
            record_copy(d, cmd, &table_staging, &table, TABLE_BYTES);
            record_copy(d, cmd, &state_staging, &state, state_bytes);
            image.record_fill(d, cmd, &image_staging);
            // The kernels also write the state: make the copies visible to every access.
            record_full_barrier(d, cmd);
        })
        .context("uploading the pointer-chase chains")?;
        let views = |usage: vk::FormatFeatureFlags| -> Result<Vec<Option<BufferView<'g>>>> {
            let supported = instance
                .format_properties(gpu.info, vk::Format::R32_UINT)
                .buffer_features
                .contains(usage);
            (0..SIZES)
                .map(|size| {
                    let bytes = 4096u64 << size;
                    (supported && bytes / 4 <= limits.max_texel_buffer_elements as u64)
                        .then(|| BufferView::new(gpu, &table, vk::Format::R32_UINT, bytes))
                        .transpose()
                })
                .collect()
        };
        let texel_views = views(vk::FormatFeatureFlags::UNIFORM_TEXEL_BUFFER)?;
        let storage_texel_views = views(vk::FormatFeatureFlags::STORAGE_TEXEL_BUFFER)?;
        Ok(Chain {
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
                &format!("maxStorageBufferRange = {}", limits.max_storage_buffer_range),
            ),
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
            Resource::DeviceAddress => {
                lacks_feature(info.features.buffer_device_address, "bufferDeviceAddress")
            }
            Resource::StorageImage
            | Resource::TexelFetch
            | Resource::SampleNearest
            | Resource::SampleBilinear => {
                let side = image_side(limits.max_image_dimension2_d) as u64;
                over(
                    side * side * 4,
                    &format!(
                        "a {side}x{side} R32_SFLOAT image (maxImageDimension2D = {})",
                        limits.max_image_dimension2_d
                    ),
                )
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
                (0..resource.sizes()).map(move |size| {
                    // The pattern is not part of the name: every chase is a random cycle.
                    (Suite::Latency, Variant { resource, size }, Pattern::Random)
                })
            })
            .collect()
    }

    fn name(&self, v: Variant) -> String {
        format!("latency: {} {}", v.resource.name(), size_name(v.bytes()))
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
            } else {
                "uint".into()
            },
        }
    }

    fn bytes_per_load(&self, _: Variant) -> Option<u32> {
        Some(4)
    }

    fn kernel(&self, v: Variant, _: Pattern) -> String {
        match v.resource {
            Resource::Shared => format!("pointer_chase_shared_{}k", v.bytes() >> 10),
            r => format!("pointer_chase_{}", r.ident()),
        }
    }

    /// The chain's word in each line: the size's index.
    fn read_start(&self, v: Variant) -> u32 {
        v.size
    }

    /// Invocation 0 of each group writes the line its chase of the verify dispatch's steps
    /// ends at, from line 0; the others write zeros.
    fn reference(&self, v: Variant, _: Pattern, input: &[u8]) -> Vec<ThreadSum> {
        let steps = (VERIFY_ITERATIONS * STEPS_PER_ITERATION) as u64;
        let mut out = vec![ThreadSum::default(); THREADS_PER_GROUP as usize];
        out[0].sum[0] = walk(v, input, steps) as f32;
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
    fn dispatch_groups(&self, _: Variant, _: u32, _: Option<u32>) -> u32 {
        1
    }

    fn latency(&self, v: Variant) -> Option<Latency> {
        Some(Latency {
            kernel: format!("{}_clock", self.kernel(v, Pattern::Random)),
            ops_per_iteration: STEPS_PER_ITERATION,
            warm_ops: (v.lines() as u64).min(WARM_STEPS_MAX),
        })
    }

    /// Lane 0 continues from where the verify dispatch left the chase; the other lanes write
    /// zeros.
    fn latency_reference(
        &self,
        v: Variant,
        input: &[u8],
        iterations: u32,
        subgroup_size: u32,
    ) -> Vec<ThreadSum> {
        let lanes = (subgroup_size as usize).clamp(1, crate::model::LATENCY_GROUP_SIZE);
        let steps = ((VERIFY_ITERATIONS + iterations) * STEPS_PER_ITERATION) as u64;
        let mut out = vec![ThreadSum::default(); lanes];
        out[0].sum[0] = walk(v, input, steps) as f32;
        out
    }

    fn create<'g>(&self, shared: &Shared<'g>) -> Result<Resources<'g>> {
        Ok(Resources {
            gpu: shared.gpu,
            instance: shared.instance,
            seed: seed(&shared.data),
            chain: OnceLock::new(),
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
                let views = match v.resource {
                    Resource::TexelBuffer => &c.texel_views,
                    Resource::StorageTexelBuffer => &c.storage_texel_views,
                    _ => return None,
                };
                views[v.size as usize]
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
        let bytes = v.bytes();
        let source = match v.resource {
            Resource::TexelBuffer => c.texel_views[v.size as usize]
                .as_ref()
                .map(Binding::TexelBuffer),
            Resource::StorageTexelBuffer => c.storage_texel_views[v.size as usize]
                .as_ref()
                .map(Binding::StorageTexelBuffer),
            Resource::RawBuffer | Resource::StructuredBuffer | Resource::Shared => {
                Some(Binding::StorageBuffer(&c.table, bytes))
            }
            Resource::UniformBuffer => Some(Binding::UniformBuffer(&c.table, bytes)),
            Resource::StorageImage => Some(Binding::StorageImage(&c.image)),
            Resource::TexelFetch | Resource::SampleNearest => {
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
            Resource::DeviceAddress => None,
        };
        let state = Some((1, Binding::StorageBuffer(&c.state, c.state.size)));
        source.map(|s| (0, s)).into_iter().chain(state).collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_sizes_and_kernels_derive_from_the_enums() {
        let tests = PointerChase.tests();
        assert_eq!(tests.len(), 10 * SIZES as usize + SHARED_SIZES as usize);
        let name = |i: usize| PointerChase.test_name(tests[i].1, tests[i].2);
        assert_eq!(name(0), "latency: Buffer<uint> 4 KB");
        assert_eq!(name(SIZES as usize + 8), "latency: ByteAddressBuffer 1 MB");
        assert_eq!(name(2 * SIZES as usize - 1), "latency: ByteAddressBuffer 256 MB");
        assert_eq!(name(tests.len() - 1), "latency: groupshared{uint} 64 KB");
        assert_eq!(
            PointerChase.kernel(tests[tests.len() - 1].1, Pattern::Random),
            "pointer_chase_shared_64k"
        );
    }

    #[test]
    fn every_chain_is_one_cycle_through_every_line() {
        let input = crate::data::input();
        for size in [0, 3, 9] {
            let lines = 32u32 << size;
            let next = chain(seed(&input), size, lines);
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
        assert_ne!(chain(seed(&input), 4, 512), chain(seed(&corrupted), 4, 512));
        for size in 0..8 {
            let v = Variant {
                resource: Resource::RawBuffer,
                size,
            };
            let steps = (VERIFY_ITERATIONS * STEPS_PER_ITERATION) as u64;
            assert_ne!(walk(v, &input, steps), walk(v, &corrupted, steps), "size {size}");
            assert_ne!(walk(v, &input, steps), 0, "size {size}");
        }
    }
}
