//! `RWTexture2D<F>.Load`: one texel per iteration, 16×16 per thread, through a storage image.

use crate::data::{self, ThreadSum, TEXTURE_SIZE};
use crate::families::{each, per_pattern, Columns, Shared, Spec};
use crate::format::Format;
use crate::kernels::{check_built, KernelId, Part};
use crate::model::{Pattern, Suite};
use anyhow::Result;
use ash::vk;
use perftest_gpu::pipeline::Binding;
use perftest_gpu::resources::Image;
use std::collections::HashMap;

/// 32×32 storage images filled from the input, one per format, read with `imageLoad`.
pub struct StorageImage;

impl Spec for StorageImage {
    type Variant = Format;
    type Resources<'g> = HashMap<Format, Image<'g>>;

    fn tests(&self) -> Vec<(Suite, Format, Pattern)> {
        each(Suite::Extended, Format::ALL, &Pattern::ALL)
    }

    fn name(&self, f: Format) -> String {
        format!("RWTexture2D<{}>.Load", f.texture_name())
    }

    fn columns(&self, f: Format) -> Columns {
        Columns {
            family: "storage_image",
            resource: "STORAGE_IMAGE",
            format: f.vk_name().into(),
        }
    }

    fn bytes_per_load(&self, f: Format) -> Option<u32> {
        Some(f.bytes())
    }

    fn kernel(&self, f: Format, p: Pattern) -> KernelId {
        kernel_of(f, p)
    }

    fn reference(&self, f: Format, p: Pattern, input: &[u8]) -> Vec<ThreadSum> {
        data::sum_texels(f, p, input)
    }

    fn create<'g>(&self, shared: &Shared<'g>) -> Result<Self::Resources<'g>> {
        let needed = vk::FormatFeatureFlags::STORAGE_IMAGE | vk::FormatFeatureFlags::TRANSFER_DST;
        let mut images = HashMap::new();
        for f in Format::ALL {
            let supported = shared
                .format_properties(f)
                .optimal_tiling_features
                .contains(needed);
            if supported && shared.storage_format_undeclarable(f).is_none() {
                let image = Image::new_storage(shared.gpu, f.vk_name(), f.vk(), TEXTURE_SIZE)?;
                images.insert(f, image);
            }
        }
        Ok(images)
    }

    fn record_upload(
        &self,
        images: &Self::Resources<'_>,
        shared: &Shared<'_>,
        d: &ash::Device,
        cmd: vk::CommandBuffer,
    ) {
        for image in images.values() {
            image.record_fill(d, cmd, &shared.input);
        }
    }

    fn unsupported(
        &self,
        images: &Self::Resources<'_>,
        shared: &Shared<'_>,
        f: Format,
    ) -> Option<String> {
        shared.storage_format_undeclarable(f).or_else(|| {
            (!images.contains_key(&f)).then(|| {
                format!(
                    "{} lacks STORAGE_IMAGE or TRANSFER_DST in optimalTilingFeatures",
                    f.vk_name()
                )
            })
        })
    }

    fn bindings<'a, 'g>(
        &self,
        images: &'a Self::Resources<'g>,
        _: &'a Shared<'g>,
        f: Format,
    ) -> Vec<(u32, Binding<'a, 'g>)> {
        vec![(0, Binding::StorageImage(&images[&f]))]
    }
}

/// The kernel of format `f` and pattern `p`.
const fn kernel_of(f: Format, p: Pattern) -> KernelId {
    per_pattern("storage_image_", Part::Text(f.qualifier()), p)
}
check_built!(kernel_of; Format::ALL, Pattern::ALL);
