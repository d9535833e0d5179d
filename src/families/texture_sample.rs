//! `Texture2D<F>.Sample(nearest|bilinear)`: one sample per iteration at a texel centre, LOD 0.

use super::{each, missing_image, sampled_images, Columns, Shared, Spec};
use crate::catalog::{Pattern, Suite};
use crate::data::{self, ThreadSum};
use crate::format::{ChannelType, Format};
use crate::pipeline::Binding;
use crate::resources::{Image, Sampler};
use crate::runner::Fault;
use anyhow::Result;
use ash::vk;
use std::collections::HashMap;

/// 32×32 sampled images filled from the input, read through a nearest or linear sampler.
pub struct TextureSample;

/// The sampler's filter.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Filter {
    Nearest,
    Bilinear,
}

impl Filter {
    fn name(self) -> &'static str {
        match self {
            Filter::Nearest => "nearest",
            Filter::Bilinear => "bilinear",
        }
    }
}

/// The images and both samplers (REPEAT addressing, nearest mip mode).
pub struct Resources<'g> {
    images: HashMap<Format, Image<'g>>,
    nearest: Sampler<'g>,
    linear: Sampler<'g>,
}

fn variants(filter: Filter) -> impl Iterator<Item = (Format, Filter)> {
    Format::ALL.into_iter().map(move |f| (f, filter))
}

impl Spec for TextureSample {
    type Variant = (Format, Filter);
    type Resources<'g> = Resources<'g>;

    fn tests(&self) -> Vec<(Suite, (Format, Filter), Pattern)> {
        let all = || variants(Filter::Nearest).chain(variants(Filter::Bilinear));
        let mut t = each(Suite::Original, all(), &Pattern::ALL);
        t.extend(each(Suite::Extended, all(), &Pattern::UNIFORM_PROBES));
        t.extend(each(Suite::Ceiling, all(), &[Pattern::LinearCeiling]));
        t
    }

    fn name(&self, (f, filter): (Format, Filter)) -> String {
        format!("Texture2D<{}>.Sample({})", f.texture_name(), filter.name())
    }

    fn columns(&self, (f, filter): (Format, Filter)) -> Columns {
        Columns {
            family: match filter {
                Filter::Nearest => "texture_sample_nearest",
                Filter::Bilinear => "texture_sample_bilinear",
            },
            resource: "SAMPLED_IMAGE",
            format: f.vk_name().into(),
        }
    }

    fn bytes_per_load(&self, (f, _): (Format, Filter)) -> Option<u32> {
        Some(f.bytes())
    }

    fn kernel(&self, (f, _): (Format, Filter), p: Pattern) -> String {
        // The bound sampler decides the filter: one kernel serves both.
        format!("texture_sample_w{}_{}", f.channels(), p.ident())
    }

    fn reference(&self, (f, _): (Format, Filter), p: Pattern, input: &[u8]) -> Vec<ThreadSum> {
        // At a texel centre, nearest and bilinear filtering both return the texel.
        data::sum_2d(p, |x, y| data::widen(data::texel(f, input, x, y), f.channels()))
    }

    fn tolerance(&self, (_, filter): (Format, Filter)) -> f32 {
        // Bilinear weights at a texel centre are exactly 1, but hardware filters at reduced
        // precision.
        match filter {
            Filter::Nearest => 1e-5,
            Filter::Bilinear => 1e-3,
        }
    }

    fn create<'g>(&self, shared: &Shared<'g>) -> Result<Resources<'g>> {
        Ok(Resources {
            images: sampled_images(shared)?,
            nearest: Sampler::new(shared.gpu, vk::Filter::NEAREST)?,
            linear: Sampler::new(shared.gpu, vk::Filter::LINEAR)?,
        })
    }

    fn record_upload(
        &self,
        res: &Resources<'_>,
        shared: &Shared<'_>,
        d: &ash::Device,
        cmd: vk::CommandBuffer,
    ) {
        for image in res.images.values() {
            image.record_fill(d, cmd, &shared.input);
        }
    }

    fn unsupported(
        &self,
        res: &Resources<'_>,
        shared: &Shared<'_>,
        (f, filter): (Format, Filter),
    ) -> Option<String> {
        if let Some(missing) = missing_image(&res.images, f) {
            return Some(missing);
        }
        let linear = shared
            .format_properties(f)
            .optimal_tiling_features
            .contains(vk::FormatFeatureFlags::SAMPLED_IMAGE_FILTER_LINEAR);
        let injected = shared.fault == Some(Fault::NoLinearFilter)
            && f.channel_type() == ChannelType::Float32;
        (filter == Filter::Bilinear && (!linear || injected)).then(|| {
            format!(
                "{} lacks SAMPLED_IMAGE_FILTER_LINEAR (linear filtering of this format is optional in Vulkan)",
                f.vk_name()
            )
        })
    }

    fn bindings<'a, 'g>(
        &self,
        res: &'a Resources<'g>,
        _: &'a Shared<'g>,
        (f, filter): (Format, Filter),
    ) -> Vec<(u32, Binding<'a, 'g>)> {
        let sampler = match filter {
            Filter::Nearest => &res.nearest,
            Filter::Bilinear => &res.linear,
        };
        vec![
            (0, Binding::SampledImage(&res.images[&f])),
            (1, Binding::Sampler(sampler)),
        ]
    }
}
