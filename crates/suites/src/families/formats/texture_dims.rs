//! `Texture1D<F>`, `Texture2DArray<F>` and `Texture3D<F>` `.Load` / `.Sample(nearest)` /
//! `.Sample(linear|bilinear|trilinear)` for the nine original formats.
//!
//! The 1-D image has 1024 texels (as many as `Buffer<F>`'s view and the 32×32 `Texture2D<F>`)
//! and is read like `Buffer<F>`. The 3-D image is 16×16×8 texels and the array 16×16 × 8
//! layers: groups of 8×8×4 threads each read an 8×8×4 block from their start texel, which
//! needs 15×15×7 texels for the linear pattern; the 2048 texels are filled from the input
//! followed by the input with the 16-bit halves of every word swapped (see [`source`]).

use crate::data::{self, ThreadSum};
use crate::families::{each, lacks_linear_filter, Columns, Shared, Spec};
use crate::format::Format;
use crate::kernels::{
    check_built, named, KernelId,
    Part::{Number, Text},
};
use crate::model::{Pattern, Suite};
use anyhow::Result;
use ash::vk;
use perftest_gpu::pipeline::Binding;
use perftest_gpu::resources::{Buffer, Image, Memory, Sampler, Shape, Usage};
use std::collections::HashMap;

/// 1-D, 2-D array and 3-D sampled images of the nine formats.
pub struct TextureDims;

/// The image's dimensions.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Dim {
    /// 1024 texels.
    D1,
    /// 16×16, 8 layers.
    Array,
    /// 16×16×8.
    D3,
}

impl Dim {
    const ALL: [Dim; 3] = [Dim::D1, Dim::Array, Dim::D3];

    fn shape(self) -> Shape {
        let (view, width, height, depth, layers) = match self {
            Dim::D1 => (vk::ImageViewType::TYPE_1D, 1024, 1, 1, 1),
            Dim::Array => (vk::ImageViewType::TYPE_2D_ARRAY, 16, 16, 1, 8),
            Dim::D3 => (vk::ImageViewType::TYPE_3D, 16, 16, 8, 1),
        };
        Shape {
            view,
            extent: vk::Extent3D {
                width,
                height,
                depth,
            },
            layers,
        }
    }

    fn texels(self) -> u32 {
        let s = self.shape();
        s.extent.width * s.extent.height * s.extent.depth * s.layers
    }

    const fn ident(self) -> &'static str {
        match self {
            Dim::D1 => "1d",
            Dim::Array => "array",
            Dim::D3 => "3d",
        }
    }

    fn type_name(self) -> &'static str {
        match self {
            Dim::D1 => "Texture1D",
            Dim::Array => "Texture2DArray",
            Dim::D3 => "Texture3D",
        }
    }
}

/// How each iteration reads the image.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Read {
    Load,
    Nearest,
    /// A linear sampler: linear (1-D), bilinear (array: layers are never filtered) or
    /// trilinear (3-D).
    Filtered,
}

/// The images (by dimension and format), the bytes they are filled from, and the samplers.
pub struct Resources<'g> {
    images: HashMap<(Dim, Format), Image<'g>>,
    source: Buffer<'g>,
    nearest: Sampler<'g>,
    linear: Sampler<'g>,
}

/// The 32 KB the images are filled from: `input`, then `input` with the two 16-bit halves of
/// every 32-bit word swapped (every view of which is still finite and normal: each half is a
/// normal half float, and a word's exponent becomes a half's exponent and 3 mantissa bits).
pub fn source(input: &[u8]) -> Vec<u8> {
    let mut out = input.to_vec();
    for w in input.chunks_exact(4) {
        out.extend_from_slice(&[w[2], w[3], w[0], w[1]]);
    }
    out
}

/// Start texel of thread `local` of an 8×8×4 group (mirrors `startIndex3D`).
fn start_3d(p: Pattern, local: u32) -> [u32; 3] {
    let id = [local % 8, (local / 8) % 8, local / 64];
    match p.start() {
        Pattern::Linear => id,
        Pattern::Random => id.map(|c| c.wrapping_mul(0x3504_f333) & 4),
        _ => [0; 3],
    }
}

/// The reference of a 3-D kernel: each thread sums `load(start + (x, y, z))` over its 8×8×4
/// block, x fastest.
fn sum_3d(p: Pattern, load: impl Fn(u32, u32, u32) -> [f32; 4]) -> Vec<ThreadSum> {
    (0..256u32)
        .map(|local| {
            let [sx, sy, sz] = start_3d(p, local);
            let mut acc = ThreadSum::default();
            for z in 0..4 {
                for y in 0..8 {
                    for x in 0..8 {
                        acc.add(load(sx + x, sy + y, sz + z));
                    }
                }
            }
            acc
        })
        .collect()
}

impl Spec for TextureDims {
    type Variant = (Dim, Read, Format);
    type Resources<'g> = Resources<'g>;

    fn tests(&self) -> Vec<(Suite, (Dim, Read, Format), Pattern)> {
        let variants = Dim::ALL.into_iter().flat_map(|d| {
            [Read::Load, Read::Nearest, Read::Filtered]
                .into_iter()
                .flat_map(move |r| Format::ALL.into_iter().map(move |f| (d, r, f)))
        });
        each(Suite::Formats, variants, &Pattern::ALL)
    }

    fn name(&self, (d, r, f): (Dim, Read, Format)) -> String {
        let op = match (r, d) {
            (Read::Load, _) => "Load",
            (Read::Nearest, _) => "Sample(nearest)",
            (Read::Filtered, Dim::D1) => "Sample(linear)",
            (Read::Filtered, Dim::Array) => "Sample(bilinear)",
            (Read::Filtered, Dim::D3) => "Sample(trilinear)",
        };
        format!("{}<{}>.{op}", d.type_name(), f.texture_name())
    }

    fn columns(&self, (d, r, f): (Dim, Read, Format)) -> Columns {
        Columns {
            family: match (d, r) {
                (Dim::D1, Read::Load) => "texture_1d_load",
                (Dim::D1, Read::Nearest) => "texture_1d_sample_nearest",
                (Dim::D1, Read::Filtered) => "texture_1d_sample_linear",
                (Dim::Array, Read::Load) => "texture_2d_array_load",
                (Dim::Array, Read::Nearest) => "texture_2d_array_sample_nearest",
                (Dim::Array, Read::Filtered) => "texture_2d_array_sample_bilinear",
                (Dim::D3, Read::Load) => "texture_3d_load",
                (Dim::D3, Read::Nearest) => "texture_3d_sample_nearest",
                (Dim::D3, Read::Filtered) => "texture_3d_sample_trilinear",
            },
            resource: "SAMPLED_IMAGE",
            format: f.vk_name().into(),
        }
    }

    fn bytes_per_load(&self, (_, _, f): (Dim, Read, Format)) -> Option<u32> {
        Some(f.bytes())
    }

    fn kernel(&self, (d, r, f): (Dim, Read, Format), p: Pattern) -> KernelId {
        kernel_of(d, r, f, p)
    }

    fn reference(
        &self,
        (d, _, f): (Dim, Read, Format),
        p: Pattern,
        input: &[u8],
    ) -> Vec<ThreadSum> {
        // At a texel centre, every filter returns the texel.
        let bytes = source(input);
        let texel =
            |t: u32| data::widen(f.decode(&bytes[(t * f.bytes()) as usize..]), f.channels());
        match d {
            Dim::D1 => data::sum_1d(p, |i| texel(i % 1024)),
            Dim::Array | Dim::D3 => {
                sum_3d(p, |x, y, z| texel((z % 8) * 256 + (y % 16) * 16 + x % 16))
            }
        }
    }

    fn tolerance(&self, (_, r, _): (Dim, Read, Format)) -> f32 {
        match r {
            Read::Filtered => 1e-3,
            _ => 1e-5,
        }
    }

    fn create<'g>(&self, shared: &Shared<'g>) -> Result<Resources<'g>> {
        let bytes = source(&shared.data);
        let mut staging = Buffer::new(
            shared.gpu,
            "texture_dims source",
            bytes.len() as u64,
            vk::BufferUsageFlags::TRANSFER_SRC,
            Memory::Upload,
        )?;
        staging.write(&bytes)?;
        let needed = vk::FormatFeatureFlags::SAMPLED_IMAGE | vk::FormatFeatureFlags::TRANSFER_DST;
        let mut images = HashMap::new();
        for f in Format::ALL {
            if !shared
                .format_properties(f)
                .optimal_tiling_features
                .contains(needed)
            {
                continue;
            }
            for d in Dim::ALL {
                debug_assert!(d.texels() * f.bytes() <= bytes.len() as u32);
                let name = format!("{} {}", d.type_name(), f.vk_name());
                images.insert(
                    (d, f),
                    Image::new(shared.gpu, &name, f.vk(), d.shape(), Usage::Sampled)?,
                );
            }
        }
        Ok(Resources {
            images,
            source: staging,
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
        for image in res.images.values() {
            image.record_fill(d, cmd, &res.source);
        }
    }

    fn unsupported(
        &self,
        res: &Resources<'_>,
        shared: &Shared<'_>,
        (d, r, f): (Dim, Read, Format),
    ) -> Option<String> {
        if !res.images.contains_key(&(d, f)) {
            return Some(format!(
                "{} lacks SAMPLED_IMAGE or TRANSFER_DST in optimalTilingFeatures",
                f.vk_name()
            ));
        }
        if r == Read::Filtered {
            return lacks_linear_filter(shared, f);
        }
        None
    }

    fn bindings<'a, 'g>(
        &self,
        res: &'a Resources<'g>,
        _: &'a Shared<'g>,
        (d, r, f): (Dim, Read, Format),
    ) -> Vec<(u32, Binding<'a, 'g>)> {
        let image = Binding::SampledImage(&res.images[&(d, f)]);
        match r {
            Read::Load => vec![(0, image)],
            Read::Nearest => vec![(0, image), (1, Binding::Sampler(&res.nearest))],
            Read::Filtered => vec![(0, image), (1, Binding::Sampler(&res.linear))],
        }
    }
}

/// The kernel of dimension `d`, read `r`, format `f` and pattern `p`.
const fn kernel_of(d: Dim, r: Read, f: Format, p: Pattern) -> KernelId {
    let op = if matches!(r, Read::Load) {
        "_load_w"
    } else {
        "_sample_w"
    };
    named(&[
        Text("texture_dims_"),
        Text(d.ident()),
        Text(op),
        Number(f.channels()),
        Text("_"),
        Text(p.ident()),
    ])
}
check_built!(kernel_of; Dim::ALL, [Read::Load, Read::Nearest, Read::Filtered], Format::ALL, Pattern::ALL);
