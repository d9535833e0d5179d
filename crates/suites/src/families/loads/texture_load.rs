//! `Texture2D<F>.Load`: `texelFetch` of one texel of mip 0 per iteration from a sampled image.

use crate::data::{self, ThreadSum};
use crate::families::{each, missing_image, per_pattern, sampled_images, Columns, Shared, Spec};
use crate::format::Format;
use crate::kernels::{check_built, KernelId, Part};
use crate::model::{Pattern, Suite};
use anyhow::Result;
use ash::vk;
use perftest_gpu::pipeline::Binding;
use perftest_gpu::resources::Image;
use std::collections::HashMap;

/// 32×32 sampled images filled from the input, one per format, read without a sampler.
pub struct TextureLoad;

impl Spec for TextureLoad {
    type Variant = Format;
    type Resources<'g> = HashMap<Format, Image<'g>>;

    fn tests(&self) -> Vec<(Suite, Format, Pattern)> {
        let mut t = each(Suite::Original, Format::ALL, &Pattern::ALL);
        t.extend(each(Suite::Extended, Format::ALL, &Pattern::UNIFORM_PROBES));
        t.extend(each(Suite::Ceiling, Format::ALL, &[Pattern::LinearCeiling]));
        t
    }

    fn name(&self, f: Format) -> String {
        format!("Texture2D<{}>.Load", f.texture_name())
    }

    fn columns(&self, f: Format) -> Columns {
        Columns {
            family: "texture_load",
            resource: "SAMPLED_IMAGE",
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
        sampled_images(shared)
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
        _: &Shared<'_>,
        f: Format,
    ) -> Option<String> {
        missing_image(images, f)
    }

    fn bindings<'a, 'g>(
        &self,
        images: &'a Self::Resources<'g>,
        _: &'a Shared<'g>,
        f: Format,
    ) -> Vec<(u32, Binding<'a, 'g>)> {
        vec![(0, Binding::SampledImage(&images[&f]))]
    }
}

/// The kernel of format `f` and pattern `p`.
const fn kernel_of(f: Format, p: Pattern) -> KernelId {
    per_pattern("texture_load_w", Part::Number(f.channels()), p)
}
check_built!(kernel_of; Format::ALL, Pattern::ALL);
check_built!(kernel_of; Format::ALL, Pattern::UNIFORM_PROBES);
check_built!(kernel_of; Format::ALL, [Pattern::LinearCeiling]);
