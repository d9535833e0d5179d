//! `Texture2D<F>.Sample(nearest|bilinear)`: one sample per iteration at a texel centre, LOD 0;
//! and the same through other sampler and image set-ups (`Sample(nearest, immutable sampler)`
//! …), to find what lets a driver sample at the texel-fetch rate.

use crate::data::{self, ThreadSum, TEXTURE_SIZE};
use crate::families::{each, lacks_linear_filter, Columns, FormatImages, Shared, Spec};
use crate::format::Format;
use crate::kernels::{
    check_built, named, KernelId,
    Part::{Number, Text},
};
use crate::model::{Pattern, Suite};
use anyhow::Result;
use ash::vk;
use perftest_gpu::pipeline::Binding;
use perftest_gpu::resources::{Image, Sampler, Usage};
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

/// How the image and the sampler reach the kernel: the original's set-up, or one change to
/// it, each a candidate for what lets a driver sample at the texel-fetch rate.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Setup {
    /// The original's: a `texture2D` and a separate REPEAT `sampler`, both descriptors
    /// written to the set, the image optimally tiled in `SHADER_READ_ONLY_OPTIMAL`.
    Separate,
    /// The same sampler baked into the set layout (`pImmutableSamplers`): the driver sees its
    /// filter when it builds the pipeline. Same kernel as `Separate`.
    Immutable,
    /// One combined image-sampler descriptor (`sampler2D`), written to the set.
    Combined,
    /// A combined image sampler whose sampler is baked into the layout.
    CombinedImmutable,
    /// A separate sampler with CLAMP_TO_EDGE addressing (the addressing `Unnormalized` needs).
    ClampToEdge,
    /// A separate CLAMP_TO_EDGE sampler with `unnormalizedCoordinates`, the kernel passing
    /// texel coordinates (texel + 0.5, no division by the size).
    Unnormalized,
    /// The image in `GENERAL` layout.
    GeneralLayout,
    /// A LINEAR-tiled image (where the format can be sampled from one).
    LinearTiling,
}

impl Setup {
    /// What the test name adds after the filter, e.g. `immutable sampler`.
    fn name(self) -> Option<&'static str> {
        match self {
            Setup::Separate => None,
            Setup::Immutable => Some("immutable sampler"),
            Setup::Combined => Some("combined sampler"),
            Setup::CombinedImmutable => Some("combined immutable sampler"),
            Setup::ClampToEdge => Some("clamp to edge"),
            Setup::Unnormalized => Some("unnormalized coordinates"),
            Setup::GeneralLayout => Some("GENERAL layout"),
            Setup::LinearTiling => Some("linear tiling"),
        }
    }
}

/// The set-ups beyond the original's, for nearest sampling, in run order.
const NEAREST_SETUPS: [Setup; 7] = [
    Setup::Immutable,
    Setup::Combined,
    Setup::CombinedImmutable,
    Setup::ClampToEdge,
    Setup::Unnormalized,
    Setup::GeneralLayout,
    Setup::LinearTiling,
];

/// One test's image and sampler.
pub type Variant = (Format, Filter, Setup);

/// The images (three kinds) and the samplers.
pub struct Resources<'g> {
    images: FormatImages<'g>,
    /// Optimally tiled, read in `GENERAL`.
    general: HashMap<Format, Image<'g>>,
    /// LINEAR-tiled, where the format supports sampling it.
    linear_tiled: HashMap<Format, Image<'g>>,
    nearest: Sampler<'g>,
    linear: Sampler<'g>,
    nearest_clamp: Sampler<'g>,
    nearest_unnormalized: Sampler<'g>,
}

fn variants(filter: Filter, setup: Setup) -> impl Iterator<Item = Variant> {
    Format::ALL.into_iter().map(move |f| (f, filter, setup))
}

/// Flags a format needs for an image of it to be filled by a copy and sampled.
const SAMPLED_AND_FILLED: vk::FormatFeatureFlags = vk::FormatFeatureFlags::from_raw(
    vk::FormatFeatureFlags::SAMPLED_IMAGE.as_raw() | vk::FormatFeatureFlags::TRANSFER_DST.as_raw(),
);

impl Spec for TextureSample {
    type Variant = Variant;
    type Resources<'g> = Resources<'g>;

    fn tests(&self) -> Vec<(Suite, Variant, Pattern)> {
        let original = || {
            variants(Filter::Nearest, Setup::Separate)
                .chain(variants(Filter::Bilinear, Setup::Separate))
        };
        let mut t = each(Suite::Original, original(), &Pattern::ALL);
        for setup in NEAREST_SETUPS {
            t.extend(each(
                Suite::Extended,
                variants(Filter::Nearest, setup),
                &Pattern::ALL,
            ));
        }
        let bilinear = variants(Filter::Bilinear, Setup::Immutable);
        t.extend(each(Suite::Extended, bilinear, &Pattern::ALL));
        t.extend(each(Suite::Extended, original(), &Pattern::UNIFORM_PROBES));
        t.extend(each(Suite::Ceiling, original(), &[Pattern::LinearCeiling]));
        t
    }

    fn name(&self, (f, filter, setup): Variant) -> String {
        match setup.name() {
            None => format!("Texture2D<{}>.Sample({})", f.texture_name(), filter.name()),
            Some(s) => format!(
                "Texture2D<{}>.Sample({}, {s})",
                f.texture_name(),
                filter.name()
            ),
        }
    }

    fn columns(&self, (f, filter, setup): Variant) -> Columns {
        Columns {
            family: match filter {
                Filter::Nearest => "texture_sample_nearest",
                Filter::Bilinear => "texture_sample_bilinear",
            },
            resource: match setup {
                Setup::Combined | Setup::CombinedImmutable => "COMBINED_IMAGE_SAMPLER",
                _ => "SAMPLED_IMAGE",
            },
            format: f.vk_name().into(),
        }
    }

    fn bytes_per_load(&self, (f, _, _): Variant) -> Option<u32> {
        Some(f.bytes())
    }

    fn kernel(&self, (f, _, setup): Variant, p: Pattern) -> KernelId {
        kernel_of(f, setup, p)
    }

    fn reference(&self, (f, _, _): Variant, p: Pattern, input: &[u8]) -> Vec<ThreadSum> {
        // At a texel centre, nearest and bilinear filtering both return the texel, whatever
        // the addressing (every coordinate is inside the image).
        data::sum_texels(f, p, input)
    }

    fn tolerance(&self, (_, filter, _): Variant) -> f32 {
        // Bilinear weights at a texel centre are exactly 1, but hardware filters at reduced
        // precision.
        match filter {
            Filter::Nearest => 1e-5,
            Filter::Bilinear => 1e-3,
        }
    }

    fn create<'g>(&self, shared: &Shared<'g>) -> Result<Resources<'g>> {
        let mut general = HashMap::new();
        let mut linear_tiled = HashMap::new();
        for f in Format::ALL {
            let props = shared.format_properties(f);
            if props.optimal_tiling_features.contains(SAMPLED_AND_FILLED) {
                let image = Image::new_sampled_as(
                    shared.gpu,
                    f.vk_name(),
                    f.vk(),
                    TEXTURE_SIZE,
                    vk::ImageTiling::OPTIMAL,
                    vk::ImageLayout::GENERAL,
                )?;
                general.insert(f, image);
            }
            if props.linear_tiling_features.contains(SAMPLED_AND_FILLED) {
                let image = Image::new_sampled_as(
                    shared.gpu,
                    f.vk_name(),
                    f.vk(),
                    TEXTURE_SIZE,
                    vk::ImageTiling::LINEAR,
                    vk::ImageLayout::SHADER_READ_ONLY_OPTIMAL,
                )?;
                linear_tiled.insert(f, image);
            }
        }
        let clamp = vk::SamplerAddressMode::CLAMP_TO_EDGE;
        Ok(Resources {
            images: FormatImages::new(shared, Usage::Sampled)?,
            general,
            linear_tiled,
            nearest: Sampler::new(shared.gpu, vk::Filter::NEAREST)?,
            linear: Sampler::new(shared.gpu, vk::Filter::LINEAR)?,
            nearest_clamp: Sampler::new_with(shared.gpu, vk::Filter::NEAREST, clamp, false)?,
            nearest_unnormalized: Sampler::new_with(shared.gpu, vk::Filter::NEAREST, clamp, true)?,
        })
    }

    fn record_upload(
        &self,
        res: &Resources<'_>,
        shared: &Shared<'_>,
        d: &ash::Device,
        cmd: vk::CommandBuffer,
    ) {
        let images = res.images.values();
        for image in images
            .chain(res.general.values())
            .chain(res.linear_tiled.values())
        {
            image.record_fill(d, cmd, &shared.input);
        }
    }

    fn unsupported(
        &self,
        res: &Resources<'_>,
        shared: &Shared<'_>,
        (f, filter, setup): Variant,
    ) -> Option<String> {
        if let Some(missing) = res.images.unsupported(shared, f) {
            return Some(missing);
        }
        if setup == Setup::LinearTiling && !res.linear_tiled.contains_key(&f) {
            return Some(format!(
                "{} lacks SAMPLED_IMAGE or TRANSFER_DST in linearTilingFeatures",
                f.vk_name()
            ));
        }
        if filter == Filter::Bilinear {
            return lacks_linear_filter(shared, f);
        }
        None
    }

    fn bindings<'a, 'g>(
        &self,
        res: &'a Resources<'g>,
        _: &'a Shared<'g>,
        (f, filter, setup): Variant,
    ) -> Vec<(u32, Binding<'a, 'g>)> {
        let sampler = match (filter, setup) {
            (Filter::Bilinear, _) => &res.linear,
            (_, Setup::ClampToEdge) => &res.nearest_clamp,
            (_, Setup::Unnormalized) => &res.nearest_unnormalized,
            _ => &res.nearest,
        };
        let image = match setup {
            Setup::GeneralLayout => &res.general[&f],
            Setup::LinearTiling => &res.linear_tiled[&f],
            _ => res.images.get(f),
        };
        match setup {
            Setup::Combined | Setup::CombinedImmutable => vec![(
                0,
                Binding::CombinedImageSampler {
                    image,
                    sampler,
                    immutable: setup == Setup::CombinedImmutable,
                },
            )],
            Setup::Immutable => vec![
                (0, Binding::SampledImage(image)),
                (1, Binding::ImmutableSampler(sampler)),
            ],
            _ => vec![
                (0, Binding::SampledImage(image)),
                (1, Binding::Sampler(sampler)),
            ],
        }
    }
}

/// The kernel of format `f`, set-up `setup` and pattern `p` (the bound sampler decides the
/// filter).
const fn kernel_of(f: Format, setup: Setup, p: Pattern) -> KernelId {
    // The bound sampler decides the filter, addressing and whether it is immutable: one
    // kernel serves all of those.
    let kind = match setup {
        Setup::Combined | Setup::CombinedImmutable => "_combined",
        Setup::Unnormalized => "_unnormalized",
        _ => "",
    };
    named(&[
        Text("texture_sample"),
        Text(kind),
        Text("_w"),
        Number(f.channels()),
        Text("_"),
        Text(p.ident()),
    ])
}
check_built!(kernel_of; Format::ALL, [Setup::Separate, Setup::Immutable], Pattern::ALL);
check_built!(kernel_of; Format::ALL, NEAREST_SETUPS, Pattern::ALL);
check_built!(kernel_of; Format::ALL, [Setup::Separate], Pattern::UNIFORM_PROBES);
check_built!(kernel_of; Format::ALL, [Setup::Separate], [Pattern::LinearCeiling]);
