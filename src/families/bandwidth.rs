//! The bandwidth suite: how fast each resource delivers a working set of 4 KB to 1 GB to every compute unit, from L1, L2 or memory.

use super::{lacks_feature, Checked, Columns, Dispatch, Shared, Spec};
use crate::data::{Mismatch, ThreadSum};
use crate::gpu::{Gpu, Instance};
use crate::model::{quarter_octave_kb, size_name, Fault, Pattern, Suite, THREADS_PER_GROUP};
use crate::pipeline::Binding;
use crate::resources::{
    device_local_heap_bytes, record_copy_to_offset, record_update, Buffer, BufferView, Image,
    Memory, Sampler,
};
use anyhow::{Context as _, Result};
use ash::vk;
use std::sync::OnceLock;

/// Working sets: four per octave from 4 KB to 1 GB.
pub(super) const SIZES: usize = 4 * 18 + 1;
/// Loads per invocation (the kernel's 32 iterations of 8), and so per group 65536.
pub(super) const LOADS_PER_THREAD: u64 = 256;
/// Sizes up to this share the small pool; the larger ones the large pool (allocated only when
/// one of them runs, so that a run of small sets never asks for a gigabyte).
pub(super) const SMALL_POOL_BYTES: u64 = 64 << 20;
/// The large pool: the largest working set.
const LARGE_POOL_BYTES: u64 = (quarter_octave_kb(SIZES - 1) as u64) << 10;
/// The large pool may take at most this fraction of the largest device-local heap.
pub(super) const HEAP_SHARE: u64 = 4;
/// Groups whose checksums `--verify` can read back.
pub(super) const MAX_CHECK_GROUPS: u32 = 65536;
/// Bytes before the checksums in the check buffer: the device addresses of the small and the
/// large pool.
const CHECK_HEADER: u64 = 16;
/// Bytes uploaded per staging copy.
pub(super) const STAGING_BYTES: u64 = 64 << 20;

/// What the loads go through.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Resource {
    RawBuffer,
    StructuredBuffer,
    ScalarBuffer,
    DeviceAddress,
    UniformBuffer,
    TexelBufferRgba32f,
    TexelBufferR32f,
    StorageTexelBuffer,
    StorageImageRgba32f,
    TexelFetchRgba32f,
    TexelFetchRgba8,
    SampleBilinearRgba8,
}

impl Resource {
    /// Every resource, in run order.
    const ALL: [Resource; 12] = [
        Resource::RawBuffer,
        Resource::StructuredBuffer,
        Resource::ScalarBuffer,
        Resource::DeviceAddress,
        Resource::UniformBuffer,
        Resource::TexelBufferRgba32f,
        Resource::TexelBufferR32f,
        Resource::StorageTexelBuffer,
        Resource::StorageImageRgba32f,
        Resource::TexelFetchRgba32f,
        Resource::TexelFetchRgba8,
        Resource::SampleBilinearRgba8,
    ];

    /// The name, in the original suite's HLSL spelling.
    fn name(self) -> &'static str {
        match self {
            Resource::RawBuffer => "ByteAddressBuffer.Load4",
            Resource::StructuredBuffer => "StructuredBuffer<float4>.Load",
            Resource::ScalarBuffer => "StructuredBuffer<float>.Load",
            Resource::DeviceAddress => "BufferReference<uint4>.Load",
            Resource::UniformBuffer => "cbuffer{uint4} load",
            Resource::TexelBufferRgba32f => "Buffer<RGBA32f>.Load",
            Resource::TexelBufferR32f => "Buffer<R32f>.Load",
            Resource::StorageTexelBuffer => "RWBuffer<RGBA32f>.Load",
            Resource::StorageImageRgba32f => "RWTexture2D<RGBA32F>.Load",
            Resource::TexelFetchRgba32f => "Texture2D<RGBA32F>.Load",
            Resource::TexelFetchRgba8 => "Texture2D<RGBA8>.Load",
            Resource::SampleBilinearRgba8 => "Texture2D<RGBA8>.Sample(bilinear)",
        }
    }

    /// The kernel's name.
    fn kernel(self) -> &'static str {
        match self {
            Resource::RawBuffer => "bandwidth_raw_buffer",
            Resource::StructuredBuffer => "bandwidth_structured_buffer",
            Resource::ScalarBuffer => "bandwidth_scalar_buffer",
            Resource::DeviceAddress => "bandwidth_device_address",
            Resource::UniformBuffer => "bandwidth_uniform_buffer",
            Resource::TexelBufferRgba32f => "bandwidth_texel_buffer_rgba32f",
            Resource::TexelBufferR32f => "bandwidth_texel_buffer_r32f",
            Resource::StorageTexelBuffer => "bandwidth_storage_texel_buffer",
            Resource::StorageImageRgba32f => "bandwidth_storage_image_rgba32f",
            Resource::TexelFetchRgba32f => "bandwidth_texel_fetch_rgba32f",
            Resource::TexelFetchRgba8 => "bandwidth_texel_fetch_rgba8",
            Resource::SampleBilinearRgba8 => "bandwidth_sample_bilinear_rgba8",
        }
    }

    /// The CSV's `resource` and `format` columns.
    fn columns(self) -> (&'static str, &'static str) {
        match self {
            Resource::RawBuffer => ("STORAGE_BUFFER", "uvec4"),
            Resource::StructuredBuffer => ("STORAGE_BUFFER", "vec4"),
            Resource::ScalarBuffer => ("STORAGE_BUFFER", "float"),
            Resource::DeviceAddress => ("device address", "uvec4"),
            Resource::UniformBuffer => ("UNIFORM_BUFFER", "uvec4"),
            Resource::TexelBufferRgba32f => ("UNIFORM_TEXEL_BUFFER", "R32G32B32A32_SFLOAT"),
            Resource::TexelBufferR32f => ("UNIFORM_TEXEL_BUFFER", "R32_SFLOAT"),
            Resource::StorageTexelBuffer => ("STORAGE_TEXEL_BUFFER", "R32G32B32A32_SFLOAT"),
            Resource::StorageImageRgba32f => ("STORAGE_IMAGE", "R32G32B32A32_SFLOAT"),
            Resource::TexelFetchRgba32f => ("SAMPLED_IMAGE", "R32G32B32A32_SFLOAT"),
            Resource::TexelFetchRgba8 => ("SAMPLED_IMAGE", "R8G8B8A8_UNORM"),
            Resource::SampleBilinearRgba8 => ("COMBINED_IMAGE_SAMPLER", "R8G8B8A8_UNORM"),
        }
    }

    /// Bytes per load.
    fn load_bytes(self) -> u64 {
        match self {
            Resource::ScalarBuffer
            | Resource::TexelBufferR32f
            | Resource::TexelFetchRgba8
            | Resource::SampleBilinearRgba8 => 4,
            _ => 16,
        }
    }

    /// The image the resource reads, if it reads one.
    fn image(self) -> Option<Texels> {
        match self {
            Resource::StorageImageRgba32f | Resource::TexelFetchRgba32f => Some(Texels::Rgba32f),
            Resource::TexelFetchRgba8 | Resource::SampleBilinearRgba8 => Some(Texels::Rgba8),
            _ => None,
        }
    }

    /// The texel buffer view's format, for the texel-buffer resources.
    fn view_format(self) -> Option<vk::Format> {
        match self {
            Resource::TexelBufferRgba32f | Resource::StorageTexelBuffer => {
                Some(vk::Format::R32G32B32A32_SFLOAT)
            }
            Resource::TexelBufferR32f => Some(vk::Format::R32_SFLOAT),
            _ => None,
        }
    }
}

/// One test: a resource and working set `SIZES_KB(size)`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Variant {
    resource: Resource,
    size: usize,
}

impl Variant {
    fn bytes(self) -> u64 {
        size_bytes(self.size)
    }

    /// Loads in the working set (the kernel's N).
    fn loads(self) -> u32 {
        (self.bytes() / self.resource.load_bytes()) as u32
    }

    fn large(self) -> bool {
        self.bytes() > SMALL_POOL_BYTES
    }
}

/// How many sizes the small pool holds.
pub(super) fn small_sizes() -> usize {
    (0..SIZES)
        .take_while(|&s| size_bytes(s) <= SMALL_POOL_BYTES)
        .count()
}

pub(super) fn size_bytes(size: usize) -> u64 {
    (quarter_octave_kb(size) as u64) << 10
}

/// Word `i` of the data: a float in [1, 2) (every view reads it as a number), its mantissa a
/// hash of `i` (splitmix64's finaliser), so that every load reads a value of its own.
pub(super) fn word(i: u64) -> u32 {
    0x3F80_0000 | (hash32(i) & 0x007F_FFFF)
}

/// The bytes of `f(i)` for every `i` of `range` (4 little-endian bytes per 32-bit word, or a
/// texel's bytes), computed on all the host's cores: a gigabyte of data is otherwise seconds
/// of one core's time on every run.
pub(super) fn bytes_of<const N: usize>(
    range: std::ops::Range<u64>,
    f: impl Fn(u64) -> [u8; N] + Sync,
) -> Vec<u8> {
    let len = (range.end - range.start) as usize;
    let mut out = vec![0u8; len * N];
    let threads = std::thread::available_parallelism().map_or(4, |n| n.get());
    let per = len.div_ceil(threads).max(1 << 16);
    std::thread::scope(|s| {
        for (k, part) in out.chunks_mut(per * N).enumerate() {
            let (f, first) = (&f, range.start + (k * per) as u64);
            s.spawn(move || {
                for (j, bytes) in part.chunks_exact_mut(N).enumerate() {
                    bytes.copy_from_slice(&f(first + j as u64));
                }
            });
        }
    });
    out
}

/// 32 bits of splitmix64's finaliser of `i` (an RGBA8 texel's four bytes).
fn hash32(i: u64) -> u32 {
    let mut z = i.wrapping_add(0x9E37_79B9_7F4A_7C15);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    (z ^ (z >> 31)) as u32
}

/// The images' texel formats.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Texels {
    Rgba32f,
    Rgba8,
}

impl Texels {
    fn format(self) -> vk::Format {
        match self {
            Texels::Rgba32f => vk::Format::R32G32B32A32_SFLOAT,
            Texels::Rgba8 => vk::Format::R8G8B8A8_UNORM,
        }
    }

    fn bytes(self) -> u64 {
        match self {
            Texels::Rgba32f => 16,
            Texels::Rgba8 => 4,
        }
    }

    /// What the kernel sums for texel `t`: the four float words, or the four bytes.
    fn sum(self, t: u64) -> u32 {
        match self {
            Texels::Rgba32f => (0..4).fold(0u32, |s, c| s.wrapping_add(word(4 * t + c))),
            Texels::Rgba8 => hash32(t).to_le_bytes().iter().map(|b| *b as u32).sum(),
        }
    }
}

/// How the `n / 64` blocks of 8×8 texels of a set of `n` lie in an image: `wb` blocks wide,
/// `wb` the power of two at or above √(n / 64) unless it does not divide n / 64, then the
/// largest that does; returns (wb, blocks / wb) (mirrors `glsl/bandwidth.comp`).
pub(super) fn blocks(n: u32) -> (u32, u32) {
    let blocks = n >> 6;
    let msb = 31 - blocks.leading_zeros();
    let half = if blocks.is_power_of_two() {
        msb.div_ceil(2)
    } else {
        msb / 2 + 1
    };
    let shift = half.min(blocks.trailing_zeros());
    (1 << shift, blocks >> shift)
}

/// The texel element `e` of a set of `n` is: (x, y) (mirrors `glsl/bandwidth.comp`).
pub(super) fn texel_of(e: u32, n: u32) -> (u32, u32) {
    let (wb, _) = blocks(n);
    let b = e >> 6;
    ((b & (wb - 1)) * 8 + (e & 7), (b / wb) * 8 + ((e >> 3) & 7))
}

/// Where group `g` starts in a set of `n` loads: a hash of `g`, a multiple of 8 (128 bytes of
/// 16-byte loads) below `n` (mirrors `glsl/bandwidth.comp`).
pub(super) fn group_start(g: u32, n: u32) -> u32 {
    let mut h = g.wrapping_mul(0x9E37_79B1);
    h = (h ^ (h >> 15)).wrapping_mul(0x85EB_CA77);
    h ^= h >> 13;
    h % (n >> 3) * 8
}

/// What group `g` of a dispatch writes in `--verify`: the wrapping sum, over its 65536 loads,
/// of `element(e)`, what the kernel sums for element e of the set (mirrors
/// `glsl/bandwidth.comp`).
fn group_sum(v: Variant, g: u32, element: &impl Fn(u32) -> u32) -> u32 {
    sum_of_group(v.loads(), g, element)
}

/// What group `g` sums over a set of `n` elements, `element(e)` for element e (mirrors the
/// access of `glsl/bandwidth.comp` and `glsl/bandwidth_write.comp`).
pub(super) fn sum_of_group(n: u32, g: u32, element: &impl Fn(u32) -> u32) -> u32 {
    let mut sum = 0u32;
    for t in 0..THREADS_PER_GROUP as u32 {
        let mut idx = group_start(g, n) + t;
        if idx >= n {
            idx -= n;
        }
        for _ in 0..LOADS_PER_THREAD {
            sum = sum.wrapping_add(element(idx));
            idx += 256;
            if idx >= n {
                idx -= n;
            }
        }
    }
    sum
}

/// One pool of data: a device-local buffer filled with [`word`]s, and its texel views per size.
struct Pool<'g> {
    data: Buffer<'g>,
    /// Per size of the pool and view format (RGBA32F uniform, R32F uniform, RGBA32F
    /// storage): the view over the size's first bytes, `None` past maxTexelBufferElements.
    views: Vec<[Option<BufferView<'g>>; 3]>,
}

/// The family's resources: the check buffer, and the pools once a test of theirs is asked
/// about (or why they could not be made).
pub struct Resources<'g> {
    gpu: &'g Gpu<'g>,
    instance: &'g Instance,
    check: Buffer<'g>,
    small: OnceLock<std::result::Result<Pool<'g>, String>>,
    large: OnceLock<std::result::Result<Pool<'g>, String>>,
    /// The images per texel format (RGBA32F, RGBA8) and pool (small, large), as the buffers.
    images: [[OnceLock<std::result::Result<Image<'g>, String>>; 2]; 2],
    linear: Sampler<'g>,
}

/// An image of `texels` holding the sets of `sizes` that `limit` allows (the largest region
/// of them), filled with [`Texels::texel`] in bands of rows.
fn filled_image<'g>(
    gpu: &'g Gpu<'g>,
    texels: Texels,
    sizes: std::ops::Range<usize>,
    limit: impl Fn(usize) -> bool,
) -> Result<Image<'g>> {
    let (mut width, mut height) = (1, 1);
    for size in sizes.filter(|&s| limit(s)) {
        let (w, h) = blocks((size_bytes(size) / texels.bytes()) as u32);
        (width, height) = (width.max(8 * w), height.max(8 * h));
    }
    let name = format!("bandwidth {texels:?} image");
    let image = Image::new_sampled_storage_rect(gpu, &name, texels.format(), width, height)?;
    let row_bytes = width as u64 * texels.bytes();
    let band = (STAGING_BYTES / row_bytes).clamp(1, height as u64) as u32;
    let mut staging = Buffer::new(
        gpu,
        "bandwidth image staging",
        band as u64 * row_bytes,
        vk::BufferUsageFlags::TRANSFER_SRC,
        Memory::Upload,
    )?;
    let mut row = 0;
    while row < height {
        let rows = band.min(height - row);
        let first = row as u64 * width as u64;
        let last = first + rows as u64 * width as u64;
        // Texel t's bytes, counted row by row over the whole image: four words, or the four
        // bytes of a hash; on every core.
        let bytes = match texels {
            Texels::Rgba32f => bytes_of(4 * first..4 * last, |i| word(i).to_le_bytes()),
            Texels::Rgba8 => bytes_of(first..last, |t| hash32(t).to_le_bytes()),
        };
        staging.write(&bytes)?;
        gpu.submit(|d, cmd| image.record_fill_rows(d, cmd, &staging, row, rows))
            .with_context(|| format!("filling the {name}"))?;
        row += rows;
    }
    Ok(image)
}

/// `bandwidth: <resource> <size>`.
pub struct Bandwidth;

/// The view formats a pool holds, in [`Pool::views`] order.
const VIEW_FORMATS: [(vk::Format, vk::FormatFeatureFlags); 3] = [
    (
        vk::Format::R32G32B32A32_SFLOAT,
        vk::FormatFeatureFlags::UNIFORM_TEXEL_BUFFER,
    ),
    (
        vk::Format::R32_SFLOAT,
        vk::FormatFeatureFlags::UNIFORM_TEXEL_BUFFER,
    ),
    (
        vk::Format::R32G32B32A32_SFLOAT,
        vk::FormatFeatureFlags::STORAGE_TEXEL_BUFFER,
    ),
];

impl<'g> Pool<'g> {
    /// A pool of `bytes` holding the sizes `sizes`, its device address written into `check`
    /// at `address_at`.
    fn new(
        gpu: &'g Gpu<'g>,
        instance: &Instance,
        check: &Buffer<'g>,
        address_at: u64,
        bytes: u64,
        sizes: std::ops::Range<usize>,
    ) -> Result<Self> {
        let mut usage = vk::BufferUsageFlags::STORAGE_BUFFER
            | vk::BufferUsageFlags::UNIFORM_BUFFER
            | vk::BufferUsageFlags::UNIFORM_TEXEL_BUFFER
            | vk::BufferUsageFlags::STORAGE_TEXEL_BUFFER
            | vk::BufferUsageFlags::TRANSFER_DST;
        if gpu.info.features.buffer_device_address {
            usage |= vk::BufferUsageFlags::SHADER_DEVICE_ADDRESS;
        }
        let data = Buffer::new(gpu, "bandwidth data", bytes, usage, Memory::DeviceLocal)?;
        let chunk = bytes.min(STAGING_BYTES);
        let mut staging = Buffer::new(
            gpu,
            "bandwidth staging",
            chunk,
            vk::BufferUsageFlags::TRANSFER_SRC,
            Memory::Upload,
        )?;
        let mut at = 0;
        while at < bytes {
            let len = chunk.min(bytes - at);
            let words = bytes_of(at / 4..(at + len) / 4, |i| word(i).to_le_bytes());
            staging.write(&words)?;
            gpu.submit(|d, cmd| record_copy_to_offset(d, cmd, &staging, &data, at, len))
                .context("uploading the bandwidth data")?;
            at += len;
        }
        let limits = &gpu.info.limits;
        let views = sizes
            .map(|size| {
                let bytes = size_bytes(size);
                let mut out: [Option<BufferView<'g>>; 3] = [None, None, None];
                for (slot, (format, feature)) in VIEW_FORMATS.iter().enumerate() {
                    let texel = if *format == vk::Format::R32_SFLOAT { 4 } else { 16 };
                    let supported = instance
                        .format_properties(gpu.info, *format)
                        .buffer_features
                        .contains(*feature);
                    // (A size beyond the pool is over the heap's share: unsupported anyway.)
                    let fits = bytes <= data.size;
                    if fits && supported && bytes / texel <= limits.max_texel_buffer_elements as u64
                    {
                        out[slot] = Some(BufferView::new_at(gpu, &data, *format, 0, bytes)?);
                    }
                }
                Ok(out)
            })
            .collect::<Result<Vec<_>>>()?;
        if gpu.info.features.buffer_device_address {
            // The kernel finds the pool's address in the check buffer's header.
            let address = data.device_address().to_le_bytes();
            gpu.submit(|d, cmd| record_update(d, cmd, check, address_at, &address))
                .context("writing the data's device address")?;
        }
        Ok(Pool { data, views })
    }
}

impl Bandwidth {
    /// Why the device's limits keep `v` from running, if they do (needs no data).
    fn over_limit(v: Variant, shared: &Shared<'_>) -> Option<String> {
        let info = shared.gpu.info;
        let limits = &info.limits;
        let bytes = v.bytes();
        let over = |limit: u64, what: String| {
            (bytes > limit).then(|| format!("{} exceeds {what}", size_name(bytes)))
        };
        let heap = device_local_heap_bytes(shared.gpu);
        over(
            heap / HEAP_SHARE,
            format!(
                "a quarter of the largest device-local heap ({} MB)",
                heap >> 20
            ),
        )
        .or_else(|| match v.resource {
            Resource::RawBuffer | Resource::StructuredBuffer | Resource::ScalarBuffer => over(
                limits.max_storage_buffer_range as u64,
                format!("maxStorageBufferRange = {}", limits.max_storage_buffer_range),
            ),
            Resource::DeviceAddress => {
                lacks_feature(info.features.buffer_device_address, "bufferDeviceAddress")
            }
            Resource::UniformBuffer => over(
                (limits.max_uniform_buffer_range as u64).min(65536),
                format!(
                    "maxUniformBufferRange = {} (the kernel declares at most 64 KB)",
                    limits.max_uniform_buffer_range
                ),
            ),
            Resource::TexelBufferRgba32f
            | Resource::TexelBufferR32f
            | Resource::StorageTexelBuffer => over(
                v.resource.load_bytes() * limits.max_texel_buffer_elements as u64,
                format!(
                    "maxTexelBufferElements = {} ({}-byte texels)",
                    limits.max_texel_buffer_elements,
                    v.resource.load_bytes()
                ),
            ),
            Resource::StorageImageRgba32f
            | Resource::TexelFetchRgba32f
            | Resource::TexelFetchRgba8
            | Resource::SampleBilinearRgba8 => {
                let (w, h) = blocks(v.loads());
                let (w, h) = (8 * w, 8 * h);
                (w.max(h) > limits.max_image_dimension2_d).then(|| {
                    format!(
                        "{} as a {w}x{h} image exceeds maxImageDimension2D = {}",
                        size_name(bytes),
                        limits.max_image_dimension2_d
                    )
                })
            }
        })
    }

    /// The image that holds `v`'s working set, created on first use.
    fn image<'a, 'g>(
        r: &'a Resources<'g>,
        shared: &Shared<'_>,
        v: Variant,
        texels: Texels,
    ) -> &'a std::result::Result<Image<'g>, String> {
        let small_sizes = small_sizes();
        let (slot, sizes) = if v.large() {
            (1, small_sizes..SIZES)
        } else {
            (0, 0..small_sizes)
        };
        r.images[texels as usize][slot].get_or_init(|| {
            let limit = |size| {
                let w = Variant {
                    resource: v.resource,
                    size,
                };
                Self::over_limit(w, shared).is_none()
            };
            filled_image(r.gpu, texels, sizes, limit).map_err(|e| format!("{e:#}"))
        })
    }

    /// The pool that holds `v`'s working set, created on first use.
    fn pool<'a, 'g>(r: &'a Resources<'g>, v: Variant) -> &'a std::result::Result<Pool<'g>, String> {
        let small_sizes = small_sizes();
        if v.large() {
            r.large.get_or_init(|| {
                // As large as the largest set the heap allows (see `over_limit`).
                let heap = device_local_heap_bytes(r.gpu) / HEAP_SHARE;
                let bytes = (small_sizes..SIZES)
                    .map(size_bytes)
                    .filter(|&b| b <= heap)
                    .max()
                    .unwrap_or(LARGE_POOL_BYTES);
                Pool::new(r.gpu, r.instance, &r.check, 8, bytes, small_sizes..SIZES)
                    .map_err(|e| format!("{e:#}"))
            })
        } else {
            r.small.get_or_init(|| {
                Pool::new(r.gpu, r.instance, &r.check, 0, SMALL_POOL_BYTES, 0..small_sizes)
                    .map_err(|e| format!("{e:#}"))
            })
        }
    }

    /// `v`'s texel view, if it has one.
    fn view<'a, 'g>(pool: &'a Pool<'g>, v: Variant) -> Option<&'a BufferView<'g>> {
        let first = if v.large() { small_sizes() } else { 0 };
        let slot = match v.resource {
            Resource::TexelBufferRgba32f => 0,
            Resource::TexelBufferR32f => 1,
            Resource::StorageTexelBuffer => 2,
            _ => return None,
        };
        pool.views[v.size - first][slot].as_ref()
    }
}

impl Spec for Bandwidth {
    type Variant = Variant;
    type Resources<'g> = Resources<'g>;

    fn tests(&self) -> Vec<(Suite, Variant, Pattern)> {
        Resource::ALL
            .iter()
            .flat_map(|&resource| {
                (0..SIZES).map(move |size| {
                    // Every load is coalesced: the pattern is not part of the name.
                    (Suite::Bandwidth, Variant { resource, size }, Pattern::Linear)
                })
            })
            .collect()
    }

    fn name(&self, v: Variant) -> String {
        format!("bandwidth: {} {}", v.resource.name(), size_name(v.bytes()))
    }

    fn test_name(&self, v: Variant, _: Pattern) -> String {
        self.name(v)
    }

    fn columns(&self, v: Variant) -> Columns {
        let (resource, format) = v.resource.columns();
        Columns {
            family: "bandwidth",
            resource,
            format: format.into(),
        }
    }

    fn bytes_per_load(&self, v: Variant) -> Option<u32> {
        Some(v.resource.load_bytes() as u32)
    }

    fn kernel(&self, v: Variant, _: Pattern) -> String {
        v.resource.kernel().into()
    }

    /// The working set in loads (the kernel's N).
    fn read_start(&self, v: Variant) -> u32 {
        v.loads()
    }

    /// Verified from the groups' checksums (see [`Spec::verify_writes`]).
    fn reference(&self, _: Variant, _: Pattern, _: &[u8]) -> Vec<ThreadSum> {
        Vec::new()
    }

    fn ops_per_thread(&self, _: Variant) -> u64 {
        LOADS_PER_THREAD
    }

    fn create<'g>(&self, shared: &Shared<'g>) -> Result<Resources<'g>> {
        let gpu = shared.gpu;
        let mut check = Buffer::new(
            gpu,
            "bandwidth check",
            CHECK_HEADER + 4 * MAX_CHECK_GROUPS as u64,
            vk::BufferUsageFlags::STORAGE_BUFFER | vk::BufferUsageFlags::TRANSFER_DST,
            Memory::Readback,
        )?;
        check.write(&[0u8; CHECK_HEADER as usize])?;
        Ok(Resources {
            gpu,
            instance: shared.instance,
            check,
            small: OnceLock::new(),
            large: OnceLock::new(),
            images: Default::default(),
            linear: Sampler::new(gpu, vk::Filter::LINEAR)?,
        })
    }

    /// The device's limits first; then the data, created on the first supported test.
    fn unsupported(&self, r: &Resources<'_>, shared: &Shared<'_>, v: Variant) -> Option<String> {
        if let Some(why) = Self::over_limit(v, shared) {
            return Some(why);
        }
        if let Some(texels) = v.resource.image() {
            return Self::image(r, shared, v, texels)
                .as_ref()
                .err()
                .map(|e| format!("the image could not be created: {e}"));
        }
        match Self::pool(r, v) {
            Err(e) => Some(format!("the data could not be created: {e}")),
            Ok(pool) => (v.resource.view_format().is_some() && Self::view(pool, v).is_none())
                .then(|| {
                    format!(
                        "{:?} lacks a texel-buffer usage in bufferFeatures",
                        v.resource.view_format().unwrap_or_default()
                    )
                }),
        }
    }

    fn bindings<'a, 'g>(
        &self,
        r: &'a Resources<'g>,
        _: &'a Shared<'g>,
        v: Variant,
    ) -> Vec<(u32, Binding<'a, 'g>)> {
        let check = (1, Binding::StorageBuffer(&r.check, r.check.size));
        let large = v.large() as usize;
        let image = |texels: Texels| match r.images[texels as usize][large].get() {
            Some(Ok(image)) => Some(image),
            _ => None,
        };
        let pool = match if v.large() { r.large.get() } else { r.small.get() } {
            Some(Ok(pool)) => Some(pool),
            _ => None,
        };
        let source = match v.resource {
            Resource::RawBuffer | Resource::StructuredBuffer | Resource::ScalarBuffer => {
                pool.map(|p| Binding::StorageBufferSlice(&p.data, 0, v.bytes()))
            }
            Resource::UniformBuffer => pool.map(|p| Binding::UniformBufferSlice(&p.data, 0, v.bytes())),
            Resource::TexelBufferRgba32f | Resource::TexelBufferR32f => {
                pool.and_then(|p| Self::view(p, v)).map(Binding::TexelBuffer)
            }
            Resource::StorageTexelBuffer => {
                pool.and_then(|p| Self::view(p, v)).map(Binding::StorageTexelBuffer)
            }
            // The kernel finds the pool by its address (in the check buffer).
            Resource::DeviceAddress => None,
            Resource::StorageImageRgba32f => image(Texels::Rgba32f).map(Binding::StorageImage),
            Resource::TexelFetchRgba32f => image(Texels::Rgba32f).map(Binding::SampledImage),
            Resource::TexelFetchRgba8 => image(Texels::Rgba8).map(Binding::SampledImage),
            Resource::SampleBilinearRgba8 => {
                image(Texels::Rgba8).map(|image| Binding::CombinedImageSampler {
                    image,
                    sampler: &r.linear,
                    immutable: false,
                })
            }
        };
        source.map(|s| (0, s)).into_iter().chain([check]).collect()
    }

    /// Each group's checksum against the CPU's sum of the words its loads read.
    fn verify_writes(
        &self,
        r: &Resources<'_>,
        shared: &Shared<'_>,
        v: Variant,
        _: Pattern,
        groups: u32,
        dispatch: &mut Dispatch<'_>,
    ) -> Option<Checked> {
        Some((|| {
            anyhow::ensure!(
                groups <= MAX_CHECK_GROUPS,
                "--verify of the bandwidth suite reads back at most {MAX_CHECK_GROUPS} groups"
            );
            dispatch()?;
            let got = r.check.read_u32(CHECK_HEADER as usize / 4 + groups as usize)?;
            let got = &got[CHECK_HEADER as usize / 4..];
            // --fault reference: the CPU sums other values, so every group must mismatch.
            let corrupted = (shared.fault == Some(Fault::Reference)) as u32;
            let words = v.resource.load_bytes() / 4;
            let n = v.loads();
            let width = match v.resource.image() {
                Some(texels) => match r.images[texels as usize][v.large() as usize].get() {
                    Some(Ok(image)) => image.shape.extent.width as u64,
                    _ => anyhow::bail!("the image was not created"),
                },
                None => 0,
            };
            let element = |e: u32| -> u32 {
                let sum = match v.resource.image() {
                    // Its texel of the image, counted row by row.
                    Some(texels) => {
                        let (x, y) = texel_of(e, n);
                        texels.sum(y as u64 * width + x as u64)
                    }
                    None => (0..words).fold(0u32, |s, w| s.wrapping_add(word(e as u64 * words + w))),
                };
                sum ^ corrupted
            };
            let mut first = None;
            let mut count = 0;
            for g in 0..groups {
                let want = group_sum(v, g, &element);
                if got[g as usize] != want {
                    count += 1;
                    first.get_or_insert((g, want, got[g as usize]));
                }
            }
            Ok(match first {
                None => Ok(()),
                Some((g, want, got)) => Err(Mismatch {
                    unit: "group",
                    index: g as usize,
                    component: 0,
                    expected: want.to_string(),
                    got: got.to_string(),
                    count,
                }),
            })
        })())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_and_sizes_derive_from_the_enums() {
        let tests = Bandwidth.tests();
        assert_eq!(tests.len(), Resource::ALL.len() * SIZES);
        assert_eq!(
            Bandwidth.test_name(tests[9 * SIZES].1, tests[9 * SIZES].2),
            "bandwidth: Texture2D<RGBA32F>.Load 4 KB"
        );
        let name = |i: usize| Bandwidth.test_name(tests[i].1, tests[i].2);
        assert_eq!(name(0), "bandwidth: ByteAddressBuffer.Load4 4 KB");
        assert_eq!(name(SIZES - 1), "bandwidth: ByteAddressBuffer.Load4 1 GB");
        assert_eq!(name(SIZES + 64), "bandwidth: StructuredBuffer<float4>.Load 256 MB");
        assert_eq!(LARGE_POOL_BYTES, 1 << 30);
        // The kernel's SMALL_POOL_LOADS.
        assert_eq!(SMALL_POOL_BYTES / 16, 4_194_304);
        let mut names: Vec<String> = (0..tests.len()).map(name).collect();
        names.sort();
        names.dedup();
        assert_eq!(names.len(), tests.len());
    }

    #[test]
    fn the_data_is_floats_of_their_own() {
        let words: Vec<u32> = (0..4096).map(word).collect();
        assert!(words.iter().all(|w| (1.0..2.0).contains(&f32::from_bits(*w))));
        let mut distinct = words.clone();
        distinct.sort();
        distinct.dedup();
        assert!(distinct.len() > 4000);
    }

    #[test]
    fn each_group_reads_its_own_part_of_a_large_set() {
        // A set of 4 KB of uvec4 (256 loads): every group reads it whole, the same sum.
        let small = Variant {
            resource: Resource::RawBuffer,
            size: 0,
        };
        let word = |e: u32| word(e as u64);
        assert_eq!(group_sum(small, 0, &word), group_sum(small, 7, &word));
        // 4 MB (262144 loads): each group reads its own chunk, from its own start.
        let large = Variant {
            resource: Resource::RawBuffer,
            size: 40,
        };
        assert_eq!(large.bytes(), 4 << 20);
        let sums: Vec<u32> = (0..8).map(|g| group_sum(large, g, &word)).collect();
        let mut distinct = sums.clone();
        distinct.sort();
        distinct.dedup();
        assert_eq!(distinct.len(), sums.len(), "{sums:?}");
        let starts: Vec<u32> = (0..1000).map(|g| group_start(g, large.loads())).collect();
        assert!(starts.iter().all(|s| s % 8 == 0 && *s < large.loads()));
        // Spread over the set: every eighth of it holds some starts.
        for part in 0..8 {
            let (lo, hi) = (part * large.loads() / 8, (part + 1) * large.loads() / 8);
            assert!(starts.iter().any(|s| (lo..hi).contains(s)), "part {part}");
        }
        // Another word anywhere changes the sum.
        let other = |e: u32| if e == 5 { word(e) ^ 1 } else { word(e) };
        assert_ne!(group_sum(small, 0, &word), group_sum(small, 0, &other));
    }
}

#[cfg(test)]
mod region_tests {
    use super::*;

    #[test]
    fn an_image_set_is_whole_blocks_each_texel_once() {
        // Every size of the sweep, in 16- and 4-byte texels: whole 8x8 blocks, a power of two
        // wide, at most 4 times as wide as high (unless the count's odd factor keeps it low).
        for size in 0..SIZES {
            for texel in [16, 4] {
                let n = (size_bytes(size) / texel) as u32;
                let (w, h) = blocks(n);
                assert!(w.is_power_of_two() && 64 * w * h == n, "{n}: {w}x{h} blocks");
                assert!(w <= 4 * h || h < 8, "{n}: {w}x{h} blocks");
            }
        }
        assert_eq!(blocks(256), (2, 2));
        assert_eq!(blocks(320), (1, 5));
        assert_eq!(blocks(1 << 26), (1024, 1024));
        // Every element of a set is its own texel of the region.
        for n in [256u32, 320, 384, 448, 1024] {
            let (w, h) = blocks(n);
            let mut seen = vec![false; n as usize];
            for e in 0..n {
                let (x, y) = texel_of(e, n);
                assert!(x < 8 * w && y < 8 * h, "{n}: {e} at ({x}, {y})");
                let at = (y * 8 * w + x) as usize;
                assert!(!seen[at], "{n}: texel ({x}, {y}) twice");
                seen[at] = true;
            }
        }
        // 256 consecutive elements from a block's start: 4 blocks side by side, 32x8 texels.
        let n = 1 << 20;
        let patch: Vec<(u32, u32)> = (0..256).map(|e| texel_of(e, n)).collect();
        assert!(patch.iter().all(|&(x, y)| x < 32 && y < 8));
    }
}
