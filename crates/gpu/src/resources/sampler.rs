//! Samplers.

use crate::Gpu;
use anyhow::{Context as _, Result};
use ash::vk;

/// A sampler with REPEAT addressing, one mip, no LOD clamp beyond mip 0.
pub struct Sampler<'g> {
    gpu: &'g Gpu<'g>,
    /// The Vulkan handle.
    pub handle: vk::Sampler,
}

impl<'g> Sampler<'g> {
    /// A sampler with `filter` for magnification and minification.
    pub fn new(gpu: &'g Gpu<'g>, filter: vk::Filter) -> Result<Self> {
        Self::new_with(gpu, filter, vk::SamplerAddressMode::REPEAT, false)
    }

    /// A sampler with `filter` and `address` mode; with `unnormalized`, one that takes texel
    /// coordinates (`unnormalizedCoordinates`: its LOD is clamped to 0, and `address` must
    /// be a CLAMP mode).
    pub fn new_with(
        gpu: &'g Gpu<'g>,
        filter: vk::Filter,
        address: vk::SamplerAddressMode,
        unnormalized: bool,
    ) -> Result<Self> {
        let info = vk::SamplerCreateInfo::default()
            .mag_filter(filter)
            .min_filter(filter)
            .mipmap_mode(vk::SamplerMipmapMode::NEAREST)
            .address_mode_u(address)
            .address_mode_v(address)
            .address_mode_w(address)
            .min_lod(0.0)
            .max_lod(if unnormalized {
                0.0
            } else {
                vk::LOD_CLAMP_NONE
            })
            .unnormalized_coordinates(unnormalized);
        // SAFETY: valid device and create info.
        let handle = unsafe { gpu.device().create_sampler(&info, None) }
            .with_context(|| format!("vkCreateSampler ({filter:?})"))?;
        Ok(Sampler { gpu, handle })
    }
}

impl Drop for Sampler<'_> {
    fn drop(&mut self) {
        // SAFETY: idle GPU (see Buffer::drop).
        unsafe { self.gpu.device().destroy_sampler(self.handle, None) };
    }
}
