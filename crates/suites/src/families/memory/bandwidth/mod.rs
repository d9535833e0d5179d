//! The bandwidth suite's reads: how fast each resource delivers a working set of 4 KB to 1 GB to every compute unit, from L1, L2 or memory.

use crate::data::{compare_exact, ThreadSum};
use crate::families::{lacks_feature, Checked, Columns, Dispatch, Shared, Spec};
use crate::kernels::{id, KernelId};
use crate::model::{quarter_octave_kb, size_name, Fault, Pattern, Suite};
use anyhow::Result;
use ash::vk;
use perftest_gpu::pipeline::Binding;
use perftest_gpu::resources::{
    device_local_heap_bytes, Buffer, BufferView, Image, Memory, Sampler,
};
use perftest_gpu::{Gpu, Instance};
use std::sync::OnceLock;

mod pool;
mod sets;
pub(in crate::families) use pool::upload_words;
use pool::{filled_image, Pool};
#[cfg(test)]
use sets::sum_of_group;
use sets::Texels;
pub(in crate::families) use sets::{
    blocks, bytes_of, fill_with, group_start, size_bytes, small_sizes, sums_of_groups, texel_of,
    word,
};

/// Working sets: four per octave from 4 KB to 1 GB.
pub(in crate::families) const SIZES: usize = 4 * 18 + 1;
/// Loads per invocation (the kernel's 32 iterations of 8), and so per group 65536.
pub(in crate::families) const LOADS_PER_THREAD: u64 = 256;
/// Sizes up to this share the small pool; the larger ones the large pool (allocated only when
/// one of them runs, so that a run of small sets never asks for a gigabyte).
pub(in crate::families) const SMALL_POOL_BYTES: u64 = 64 << 20;
/// The large pool: the largest working set.
const LARGE_POOL_BYTES: u64 = (quarter_octave_kb(SIZES - 1) as u64) << 10;
/// The large pool may take at most this fraction of the largest device-local heap.
pub(in crate::families) const HEAP_SHARE: u64 = 4;
/// Groups whose checksums `--verify` can read back.
pub(in crate::families) const MAX_CHECK_GROUPS: u32 = 65536;
/// Bytes before the checksums in the check buffer: the device addresses of the small and the
/// large pool.
const CHECK_HEADER: u64 = 16;
/// Bytes uploaded per staging copy.
const STAGING_BYTES: u64 = 64 << 20;

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
    fn kernel(self) -> KernelId {
        match self {
            Resource::RawBuffer => id::BANDWIDTH_RAW_BUFFER,
            Resource::StructuredBuffer => id::BANDWIDTH_STRUCTURED_BUFFER,
            Resource::ScalarBuffer => id::BANDWIDTH_SCALAR_BUFFER,
            Resource::DeviceAddress => id::BANDWIDTH_DEVICE_ADDRESS,
            Resource::UniformBuffer => id::BANDWIDTH_UNIFORM_BUFFER,
            Resource::TexelBufferRgba32f => id::BANDWIDTH_TEXEL_BUFFER_RGBA32F,
            Resource::TexelBufferR32f => id::BANDWIDTH_TEXEL_BUFFER_R32F,
            Resource::StorageTexelBuffer => id::BANDWIDTH_STORAGE_TEXEL_BUFFER,
            Resource::StorageImageRgba32f => id::BANDWIDTH_STORAGE_IMAGE_RGBA32F,
            Resource::TexelFetchRgba32f => id::BANDWIDTH_TEXEL_FETCH_RGBA32F,
            Resource::TexelFetchRgba8 => id::BANDWIDTH_TEXEL_FETCH_RGBA8,
            Resource::SampleBilinearRgba8 => id::BANDWIDTH_SAMPLE_BILINEAR_RGBA8,
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

/// What group `g` of a dispatch writes in `--verify`: the wrapping sum, over its 65536 loads,
/// of `element(e)`, what the kernel sums for element e of the set (mirrors
/// `glsl/memory/bandwidth.comp`); the tests' reference for [`sums_of_groups`].
#[cfg(test)]
fn group_sum(v: Variant, g: u32, element: &impl Fn(u32) -> u32) -> u32 {
    sum_of_group(v.loads(), g, element)
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

/// `bandwidth: <resource> <size>`.
pub struct Bandwidth;

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
                format!(
                    "maxStorageBufferRange = {}",
                    limits.max_storage_buffer_range
                ),
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
                Pool::new(
                    r.gpu,
                    r.instance,
                    &r.check,
                    0,
                    SMALL_POOL_BYTES,
                    0..small_sizes,
                )
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
                    (
                        Suite::Bandwidth,
                        Variant { resource, size },
                        Pattern::Linear,
                    )
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

    fn kernel(&self, v: Variant, _: Pattern) -> KernelId {
        v.resource.kernel()
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
            Ok(pool) => {
                (v.resource.view_format().is_some() && Self::view(pool, v).is_none()).then(|| {
                    format!(
                        "{:?} lacks a texel-buffer usage in bufferFeatures",
                        v.resource.view_format().unwrap_or_default()
                    )
                })
            }
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
        let pool = match if v.large() {
            r.large.get()
        } else {
            r.small.get()
        } {
            Some(Ok(pool)) => Some(pool),
            _ => None,
        };
        let source = match v.resource {
            Resource::RawBuffer | Resource::StructuredBuffer | Resource::ScalarBuffer => {
                pool.map(|p| Binding::StorageBufferSlice(&p.data, 0, v.bytes()))
            }
            Resource::UniformBuffer => {
                pool.map(|p| Binding::UniformBufferSlice(&p.data, 0, v.bytes()))
            }
            Resource::TexelBufferRgba32f | Resource::TexelBufferR32f => pool
                .and_then(|p| Self::view(p, v))
                .map(Binding::TexelBuffer),
            Resource::StorageTexelBuffer => pool
                .and_then(|p| Self::view(p, v))
                .map(Binding::StorageTexelBuffer),
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
            let got = r
                .check
                .read_u32(CHECK_HEADER as usize / 4 + groups as usize)?;
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
                    None => {
                        (0..words).fold(0u32, |s, w| s.wrapping_add(word(e as u64 * words + w)))
                    }
                };
                sum ^ corrupted
            };
            let sums = sums_of_groups(v.loads(), groups, &element);
            Ok(compare_exact(
                "group",
                sums.into_iter().zip(got.iter().copied()),
            ))
        })())
    }
}

#[cfg(test)]
mod tests;
