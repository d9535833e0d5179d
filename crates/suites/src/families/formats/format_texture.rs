//! `Texture2D<F>.Load` / `.Sample(nearest|bilinear)` for the extended and block-compressed
//! formats: 32×32 sampled images, read as float, int or uint.

use crate::data::{self, ThreadSum};
use crate::families::formats::ext_format::{self, ExtFormat, SIZE};
use crate::families::formats::format_buffer::patched;
use crate::families::{each, Columns, Shared, Spec};
use crate::kernels::{
    check_built, named, KernelId,
    Part::{Number, Text},
};
use crate::model::{Pattern, Suite};
use anyhow::Result;
use ash::vk;
use perftest_gpu::pipeline::Binding;
use perftest_gpu::resources::{Buffer, Image, Sampler, Shape, Usage};
use std::collections::HashMap;

/// 32×32 images of every extended format, filled from the patched input or generated blocks.
pub struct FormatTexture;

/// How each iteration reads the image.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Read {
    /// `texelFetch`.
    Load,
    /// `textureLod` through a nearest sampler.
    Nearest,
    /// `textureLod` through a linear sampler (float formats only).
    Bilinear,
}

/// The images (with the host copies they are filled from) and both samplers.
pub struct Resources<'g> {
    images: HashMap<ExtFormat, (Image<'g>, Buffer<'g>)>,
    /// Why a format has no image, where it has none.
    missing: HashMap<ExtFormat, String>,
    nearest: Sampler<'g>,
    linear: Sampler<'g>,
}

/// The bytes an image of `f` is filled with: texels of the patched input, or blocks.
fn source(f: ExtFormat) -> Vec<u8> {
    if f.is_compressed() {
        ext_format::blocks(f)
    } else {
        ext_format::input()[..(SIZE * SIZE * f.bytes()) as usize].to_vec()
    }
}

/// The `SIZE`×`SIZE` texels of `f`'s image, decoded, from the input `input`.
pub fn texels(f: ExtFormat, input: &[u8]) -> Vec<[f32; 4]> {
    if f.is_compressed() {
        let blocks = ext_format::follow(input, &ext_format::blocks(f));
        ext_format::decode_blocks(f, &blocks)
    } else {
        let bytes = patched(input);
        bytes
            .chunks_exact(f.bytes() as usize)
            .take((SIZE * SIZE) as usize)
            .map(|t| f.decode(t))
            .collect()
    }
}

impl Spec for FormatTexture {
    type Variant = (ExtFormat, Read);
    type Resources<'g> = Resources<'g>;

    fn tests(&self) -> Vec<(Suite, (ExtFormat, Read), Pattern)> {
        let with = |read: Read| {
            ext_format::ALL
                .into_iter()
                .filter(move |f| read != Read::Bilinear || f.filterable())
                .map(move |f| (f, read))
        };
        let all = with(Read::Load)
            .chain(with(Read::Nearest))
            .chain(with(Read::Bilinear));
        each(Suite::Formats, all, &Pattern::ALL)
    }

    fn name(&self, (f, read): (ExtFormat, Read)) -> String {
        let op = match read {
            Read::Load => "Load",
            Read::Nearest => "Sample(nearest)",
            Read::Bilinear => "Sample(bilinear)",
        };
        format!("Texture2D<{}>.{op}", f.name())
    }

    fn columns(&self, (f, read): (ExtFormat, Read)) -> Columns {
        Columns {
            family: match read {
                Read::Load => "format_texture_load",
                Read::Nearest => "format_texture_sample_nearest",
                Read::Bilinear => "format_texture_sample_bilinear",
            },
            resource: "SAMPLED_IMAGE",
            format: f.vk_name(),
        }
    }

    fn bytes_per_load(&self, (f, _): (ExtFormat, Read)) -> Option<u32> {
        // A compressed texel is a fraction of a byte or two of its block: no whole number.
        (!f.is_compressed()).then(|| f.bytes())
    }

    fn kernel(&self, (f, read): (ExtFormat, Read), p: Pattern) -> KernelId {
        kernel_of(f, read, p)
    }

    fn reference(&self, (f, _): (ExtFormat, Read), p: Pattern, input: &[u8]) -> Vec<ThreadSum> {
        // At a texel centre, nearest and bilinear filtering both return the texel.
        let t = texels(f, input);
        data::sum_2d(p, |x, y| {
            let (x, y) = (x % SIZE, y % SIZE);
            data::widen(t[(y * SIZE + x) as usize], f.channels)
        })
    }

    fn tolerance(&self, (f, read): (ExtFormat, Read)) -> f32 {
        match (read, f.encoding) {
            // sRGB → linear: Vulkan sets no precision, and samplers approximate (lavapipe's
            // texture path by a polynomial, about 1e-3 of the sum off).
            (_, ext_format::Encoding::Srgb8) => 3e-3,
            // ASTC decodes to FP16 by default (11 bits of precision); bilinear weights at a
            // texel centre are exactly 1, but hardware filters at reduced precision.
            (_, ext_format::Encoding::Astc4x4) | (Read::Bilinear, _) => 1e-3,
            _ => 1e-5,
        }
    }

    fn create<'g>(&self, shared: &Shared<'g>) -> Result<Resources<'g>> {
        let needed = vk::FormatFeatureFlags::SAMPLED_IMAGE | vk::FormatFeatureFlags::TRANSFER_DST;
        let mut images = HashMap::new();
        let mut missing = HashMap::new();
        for f in ext_format::ALL {
            let props = shared.instance.format_properties(shared.gpu.info, f.vk());
            if !props.optimal_tiling_features.contains(needed) {
                let why = match f.feature() {
                    Some(feature) if props.optimal_tiling_features.is_empty() => {
                        format!(
                            "{} is not supported (the device lacks {feature})",
                            f.vk_name()
                        )
                    }
                    _ => format!(
                        "{} lacks SAMPLED_IMAGE or TRANSFER_DST in optimalTilingFeatures",
                        f.vk_name()
                    ),
                };
                missing.insert(f, why);
                continue;
            }
            let name = f.vk_name();
            let image = Image::new(
                shared.gpu,
                &name,
                f.vk(),
                Shape::square(SIZE),
                Usage::Sampled,
            )?;
            let bytes = source(f);
            let mut staging = Buffer::new(
                shared.gpu,
                &format!("{name} texels"),
                bytes.len() as u64,
                vk::BufferUsageFlags::TRANSFER_SRC,
                perftest_gpu::resources::Memory::Upload,
            )?;
            staging.write(&bytes)?;
            images.insert(f, (image, staging));
        }
        Ok(Resources {
            images,
            missing,
            nearest: Sampler::new(shared.gpu, vk::Filter::NEAREST)?,
            linear: Sampler::new(shared.gpu, vk::Filter::LINEAR)?,
        })
    }

    fn record_upload(
        &self,
        res: &Resources<'_>,
        _: &Shared<'_>,
        d: &ash::Device,
        cmd: vk::CommandBuffer,
    ) {
        for (image, staging) in res.images.values() {
            image.record_fill(d, cmd, staging);
        }
    }

    fn unsupported(
        &self,
        res: &Resources<'_>,
        shared: &Shared<'_>,
        (f, read): (ExtFormat, Read),
    ) -> Option<String> {
        if let Some(why) = res.missing.get(&f) {
            return Some(why.clone());
        }
        let linear = shared
            .instance
            .format_properties(shared.gpu.info, f.vk())
            .optimal_tiling_features
            .contains(vk::FormatFeatureFlags::SAMPLED_IMAGE_FILTER_LINEAR);
        (read == Read::Bilinear && !linear)
            .then(|| format!("{} lacks SAMPLED_IMAGE_FILTER_LINEAR", f.vk_name()))
    }

    fn bindings<'a, 'g>(
        &self,
        res: &'a Resources<'g>,
        _: &'a Shared<'g>,
        (f, read): (ExtFormat, Read),
    ) -> Vec<(u32, Binding<'a, 'g>)> {
        let image = Binding::SampledImage(&res.images[&f].0);
        match read {
            Read::Load => vec![(0, image)],
            Read::Nearest => vec![(0, image), (1, Binding::Sampler(&res.nearest))],
            Read::Bilinear => vec![(0, image), (1, Binding::Sampler(&res.linear))],
        }
    }
}

/// The kernel of format `f`, read `read` and pattern `p` (a bilinear sample runs the nearest
/// one's kernel: the sampler decides the filter).
const fn kernel_of(f: ExtFormat, read: Read, p: Pattern) -> KernelId {
    let op = if matches!(read, Read::Load) {
        "load_"
    } else {
        "sample_"
    };
    named(&[
        Text("format_texture_"),
        Text(op),
        Text(f.kind().ident()),
        Text("_w"),
        Number(f.channels),
        Text("_"),
        Text(p.ident()),
    ])
}
check_built!(kernel_of; ext_format::ALL, [Read::Load, Read::Nearest], Pattern::ALL);
