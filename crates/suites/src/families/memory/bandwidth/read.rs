//! The bandwidth suite's reads: how fast each resource delivers a working set of 4 KB to 1 GB to every compute unit, from L1, L2 or memory.

use super::pool::{filled_image, Pool};
use super::sets::{element_sum, sums_of_groups, texel_of, Texels};
use super::{
    check_buffer, check_groups, exceeds, fault_skew, image_extent, over_heap, over_image_dimension,
    over_storage_range, pool_bytes, pool_sizes, sweep_spec, verify_group_sums, why, Access,
    PerPool,
};
use crate::families::{lacks_feature, Checked, Dispatch, Shared, Spec};
use crate::kernels::{id, KernelId};
use crate::model::Pattern;
use anyhow::Result;
use ash::vk;
use perftest_gpu::pipeline::Binding;
use perftest_gpu::resources::{device_local_heap_bytes, Buffer, BufferView, Image, Sampler};
use perftest_gpu::{Gpu, Instance};

/// Bytes before the checksums in the check buffer: the device addresses of the small and the
/// large pool.
const CHECK_HEADER: u64 = 16;

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

impl Access for Resource {
    const ALL: &'static [Resource] = &[
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
    fn bytes(self) -> u64 {
        match self {
            Resource::ScalarBuffer
            | Resource::TexelBufferR32f
            | Resource::TexelFetchRgba8
            | Resource::SampleBilinearRgba8 => 4,
            _ => 16,
        }
    }
}

impl Resource {
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

/// One test: a resource over a working set.
type Variant = super::Variant<Resource>;

/// The family's resources: the check buffer, and the pools once a test of theirs is asked
/// about (or why they could not be made).
pub struct Resources<'g> {
    gpu: &'g Gpu<'g>,
    instance: &'g Instance,
    check: Buffer<'g>,
    pools: PerPool<Pool<'g>>,
    /// The images per texel format (RGBA32F, RGBA8), as the pools.
    images: [PerPool<Image<'g>>; 2],
    linear: Sampler<'g>,
}

/// `bandwidth: <resource> <size>`.
pub struct Bandwidth;

impl Bandwidth {
    /// Why the device's limits keep `v` from running, if they do (needs no data).
    fn over_limit(v: Variant, gpu: &Gpu<'_>) -> Option<String> {
        let info = gpu.info;
        let limits = &info.limits;
        let heap = device_local_heap_bytes(gpu);
        over_heap(v, heap, "largest device-local").or_else(|| match v.access {
            Resource::RawBuffer | Resource::StructuredBuffer | Resource::ScalarBuffer => {
                over_storage_range(v, limits)
            }
            Resource::DeviceAddress => {
                lacks_feature(info.features.buffer_device_address, "bufferDeviceAddress")
            }
            Resource::UniformBuffer => exceeds(
                v,
                (limits.max_uniform_buffer_range as u64).min(65536),
                format!(
                    "maxUniformBufferRange = {} (the kernel declares at most 64 KB)",
                    limits.max_uniform_buffer_range
                ),
            ),
            Resource::TexelBufferRgba32f
            | Resource::TexelBufferR32f
            | Resource::StorageTexelBuffer => exceeds(
                v,
                v.access.bytes() * limits.max_texel_buffer_elements as u64,
                format!(
                    "maxTexelBufferElements = {} ({}-byte texels)",
                    limits.max_texel_buffer_elements,
                    v.access.bytes()
                ),
            ),
            Resource::StorageImageRgba32f
            | Resource::TexelFetchRgba32f
            | Resource::TexelFetchRgba8
            | Resource::SampleBilinearRgba8 => over_image_dimension(v, limits),
        })
    }

    /// The image that holds `v`'s working set, made on first use: the region of every set of
    /// its pool the limits allow.
    fn image<'a, 'g>(
        r: &'a Resources<'g>,
        v: Variant,
        texels: Texels,
    ) -> std::result::Result<&'a Image<'g>, String> {
        r.images[texels as usize].get_or_make(v.large(), || {
            let fits = |size| Self::over_limit(Variant { size, ..v }, r.gpu).is_none();
            let (width, height) = image_extent(texels.bytes(), v.large(), fits);
            filled_image(r.gpu, texels, width, height).map_err(why)
        })
    }

    /// The pool that holds `v`'s working set, made on first use, its device address written
    /// into the check buffer's header (the small pool's at 0, the large one's at 8).
    fn pool<'a, 'g>(r: &'a Resources<'g>, v: Variant) -> std::result::Result<&'a Pool<'g>, String> {
        let large = v.large();
        r.pools.get_or_make(large, || {
            let bytes = pool_bytes(large, || Ok(device_local_heap_bytes(r.gpu)))?;
            let address_at = if large { 8 } else { 0 };
            Pool::new(
                r.gpu,
                r.instance,
                &r.check,
                address_at,
                bytes,
                pool_sizes(large),
            )
            .map_err(why)
        })
    }

    /// `v`'s texel view, if it has one.
    fn view<'a, 'g>(pool: &'a Pool<'g>, v: Variant) -> Option<&'a BufferView<'g>> {
        let slot = match v.access {
            Resource::TexelBufferRgba32f => 0,
            Resource::TexelBufferR32f => 1,
            Resource::StorageTexelBuffer => 2,
            _ => return None,
        };
        pool.views[v.size - pool_sizes(v.large()).start][slot].as_ref()
    }
}

impl Spec for Bandwidth {
    type Variant = Variant;
    type Resources<'g> = Resources<'g>;

    sweep_spec!();

    fn create<'g>(&self, shared: &Shared<'g>) -> Result<Resources<'g>> {
        let gpu = shared.gpu;
        let mut check = check_buffer(gpu, "bandwidth check", CHECK_HEADER)?;
        check.write(&[0u8; CHECK_HEADER as usize])?;
        Ok(Resources {
            gpu,
            instance: shared.instance,
            check,
            pools: PerPool::default(),
            images: Default::default(),
            linear: Sampler::new(gpu, vk::Filter::LINEAR)?,
        })
    }

    /// The device's limits first; then the data, created on the first supported test.
    fn unsupported(&self, r: &Resources<'_>, shared: &Shared<'_>, v: Variant) -> Option<String> {
        if let Some(why) = Self::over_limit(v, shared.gpu) {
            return Some(why);
        }
        if let Some(texels) = v.access.image() {
            return Self::image(r, v, texels)
                .err()
                .map(|e| format!("the image could not be created: {e}"));
        }
        match Self::pool(r, v) {
            Err(e) => Some(format!("the data could not be created: {e}")),
            Ok(pool) => {
                (v.access.view_format().is_some() && Self::view(pool, v).is_none()).then(|| {
                    format!(
                        "{:?} lacks a texel-buffer usage in bufferFeatures",
                        v.access.view_format().unwrap_or_default()
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
        let image = |texels: Texels| r.images[texels as usize].made(v.large());
        let pool = r.pools.made(v.large());
        let source = match v.access {
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
            check_groups(groups)?;
            verify_group_sums(&r.check, CHECK_HEADER, groups, dispatch, || {
                // --fault reference: the CPU sums other values, so every group must mismatch.
                let corrupted = fault_skew(shared);
                let words = v.access.bytes() / 4;
                let n = v.n();
                let width = match v.access.image() {
                    Some(texels) => match r.images[texels as usize].made(v.large()) {
                        Some(image) => image.shape.extent.width as u64,
                        None => anyhow::bail!("the image was not created"),
                    },
                    None => 0,
                };
                let element = |e: u32| -> u32 {
                    let sum = match v.access.image() {
                        // Its texel of the image, counted row by row.
                        Some(texels) => {
                            let (x, y) = texel_of(e, n);
                            texels.sum(y as u64 * width + x as u64)
                        }
                        None => element_sum(e as u64, words),
                    };
                    sum ^ corrupted
                };
                Ok(sums_of_groups(n, groups, &element))
            })
        })())
    }
}

#[cfg(test)]
mod tests {
    //! Unit tests of the reads' names, data and group starts.

    use super::*;
    use crate::families::memory::bandwidth::sets::{group_start, size_bytes, sum_of_group, word};
    use crate::families::memory::bandwidth::{SIZES, SMALL_POOL_BYTES};

    /// What group `g` of a dispatch writes in `--verify`: the wrapping sum, over its 65536
    /// loads, of `element(e)`, what the kernel sums for element e of the set (mirrors
    /// `glsl/memory/bandwidth.comp`); the tests' reference for `sums_of_groups`.
    fn group_sum(v: Variant, g: u32, element: &impl Fn(u32) -> u32) -> u32 {
        sum_of_group(v.n(), g, element)
    }

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
        assert_eq!(
            name(SIZES + 64),
            "bandwidth: StructuredBuffer<float4>.Load 256 MB"
        );
        assert_eq!(size_bytes(SIZES - 1), 1 << 30);
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
        assert!(words
            .iter()
            .all(|w| (1.0..2.0).contains(&f32::from_bits(*w))));
        let mut distinct = words.clone();
        distinct.sort();
        distinct.dedup();
        assert!(distinct.len() > 4000);
    }

    #[test]
    fn each_group_reads_its_own_part_of_a_large_set() {
        // A set of 4 KB of uvec4 (256 loads): every group reads it whole, the same sum.
        let small = Variant {
            access: Resource::RawBuffer,
            size: 0,
        };
        let word = |e: u32| word(e as u64);
        assert_eq!(group_sum(small, 0, &word), group_sum(small, 7, &word));
        // 4 MB (262144 loads): each group reads its own chunk, from its own start.
        let large = Variant {
            access: Resource::RawBuffer,
            size: 40,
        };
        assert_eq!(large.bytes(), 4 << 20);
        let sums: Vec<u32> = (0..8).map(|g| group_sum(large, g, &word)).collect();
        let mut distinct = sums.clone();
        distinct.sort();
        distinct.dedup();
        assert_eq!(distinct.len(), sums.len(), "{sums:?}");
        let starts: Vec<u32> = (0..1000).map(|g| group_start(g, large.n())).collect();
        assert!(starts.iter().all(|s| s % 8 == 0 && *s < large.n()));
        // Spread over the set: every eighth of it holds some starts.
        for part in 0..8 {
            let (lo, hi) = (part * large.n() / 8, (part + 1) * large.n() / 8);
            assert!(starts.iter().any(|s| (lo..hi).contains(s)), "part {part}");
        }
        // Another word anywhere changes the sum.
        let other = |e: u32| if e == 5 { word(e) ^ 1 } else { word(e) };
        assert_ne!(group_sum(small, 0, &word), group_sum(small, 0, &other));
    }
}
