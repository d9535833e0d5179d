//! The load suites: original, control, extended (and the ceiling's unrolled loads): each resource's load loop.
//! The two image families (`texture_load`, `storage_image`) are one [`ImageLoad`] each.

pub(super) mod buffer_reference;
pub(super) mod constant_buffer;
pub(super) mod control;
pub(super) mod push_constant;
pub(super) mod raw_buffer;
pub(super) mod shared_memory;
pub(super) mod small_type_buffer;
pub(super) mod storage_image;
pub(super) mod storage_texel_buffer;
pub(super) mod structured_buffer;
pub(super) mod texture_load;
pub(super) mod texture_sample;
pub(super) mod typed_buffer;

use crate::data::{self, ThreadSum};
use crate::families::{each, Columns, FormatImages, Shared, Spec};
use crate::format::Format;
use crate::kernels::KernelId;
use crate::model::{Pattern, Suite};
use anyhow::Result;
use ash::vk;
use perftest_gpu::pipeline::Binding;
use perftest_gpu::resources::Usage;

/// A load family of 32×32 images filled from the input, one per format, one texel per
/// iteration (`Texture2D<F>.Load`, `RWTexture2D<F>.Load`).
pub struct ImageLoad {
    /// The HLSL type the test names, e.g. `Texture2D`.
    pub hlsl: &'static str,
    /// The CSV's `family` column.
    pub family: &'static str,
    /// What the images are: sampled (read with `texelFetch`) or storage (`imageLoad`).
    pub usage: Usage,
    /// Each suite the family has tests in, in run order, with its patterns.
    pub suites: &'static [(Suite, &'static [Pattern])],
    /// The kernel of each format and pattern.
    pub kernel: fn(Format, Pattern) -> KernelId,
}

impl Spec for ImageLoad {
    type Variant = Format;
    type Resources<'g> = FormatImages<'g>;

    fn tests(&self) -> Vec<(Suite, Format, Pattern)> {
        let suites = self.suites.iter();
        suites
            .flat_map(|&(suite, patterns)| each(suite, Format::ALL, patterns))
            .collect()
    }

    fn name(&self, f: Format) -> String {
        format!("{}<{}>.Load", self.hlsl, f.texture_name())
    }

    fn columns(&self, f: Format) -> Columns {
        let resource = match self.usage {
            Usage::Sampled => "SAMPLED_IMAGE",
            Usage::Storage | Usage::SampledStorage | Usage::Writable => "STORAGE_IMAGE",
        };
        Columns {
            family: self.family,
            resource,
            format: f.vk_name().into(),
        }
    }

    fn bytes_per_load(&self, f: Format) -> Option<u32> {
        Some(f.bytes())
    }

    fn kernel(&self, f: Format, p: Pattern) -> KernelId {
        (self.kernel)(f, p)
    }

    fn reference(&self, f: Format, p: Pattern, input: &[u8]) -> Vec<ThreadSum> {
        data::sum_texels(f, p, input)
    }

    fn create<'g>(&self, shared: &Shared<'g>) -> Result<FormatImages<'g>> {
        FormatImages::new(shared, self.usage)
    }

    fn record_upload(
        &self,
        images: &FormatImages<'_>,
        shared: &Shared<'_>,
        d: &ash::Device,
        cmd: vk::CommandBuffer,
    ) {
        images.record_upload(d, cmd, &shared.input);
    }

    fn unsupported(&self, images: &FormatImages<'_>, s: &Shared<'_>, f: Format) -> Option<String> {
        images.unsupported(s, f)
    }

    fn bindings<'a, 'g>(
        &self,
        images: &'a FormatImages<'g>,
        _: &'a Shared<'g>,
        f: Format,
    ) -> Vec<(u32, Binding<'a, 'g>)> {
        images.bindings(f)
    }
}
