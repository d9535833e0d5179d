//! The kernel permutation list: plain data shared by `build.rs` (which compiles it) and the crate (which runs it).
//!
//! This file is included by `build.rs` with `#[path]`, so it must not use anything from the crate.

/// One GLSL template per way of declaring the resource that the kernel reads.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Template {
    /// `textureBuffer` + `texelFetch` (uniform texel buffer).
    TypedBuffer,
    /// `uint[]` storage buffer read word by word (byte-address loads).
    RawBuffer,
    /// `float[]` / `vec2[]` / `vec3[]` / `vec4[]` storage buffer (std430).
    StructuredBuffer,
    /// `vec4[1024]` uniform buffer.
    UniformBuffer,
    /// `texture2D` + `texelFetch` (sampled image, no sampler).
    ImageLoad,
    /// `texture2D` + `sampler` + `textureLod` at texel centres.
    ImageSample,
    /// The 1-D loop and accumulation with the load replaced by arithmetic on the index.
    Control1D,
    /// The 2-D loop and accumulation with the load replaced by arithmetic on the texel.
    Control2D,
    /// Reads the subgroup clock around a dependent arithmetic chain (clock calibration).
    Clock,
    /// `imageBuffer` + `imageLoad` (storage texel buffer, HLSL's `RWBuffer<T>`).
    StorageTexelBuffer,
    /// `image2D` + `imageLoad` (storage image, HLSL's `RWTexture2D<T>`).
    StorageImage,
    /// `vec3[]` storage buffer with `scalar` layout (12-byte stride).
    ScalarBuffer,
    /// `uint8_t[]` storage buffer (`storageBuffer8BitAccess`).
    Uint8Buffer,
    /// `float16_t[]` storage buffer (`storageBuffer16BitAccess`).
    Float16Buffer,
    /// `GL_EXT_buffer_reference` loads through a device address.
    BufferReference,
    /// `vec4[6]` push-constant array.
    PushConstant,
    /// `shared vec4[512]`, filled from the input once per group.
    SharedMemory,
}

/// A texel format spelled in a GLSL image layout qualifier (storage images need one).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ImageFormat {
    R8,
    Rg8,
    Rgba8,
    R16f,
    Rg16f,
    Rgba16f,
    R32f,
    Rg32f,
    Rgba32f,
}

impl ImageFormat {
    /// The nine formats, in the catalog's order.
    pub const ALL: [ImageFormat; 9] = [
        ImageFormat::R8,
        ImageFormat::Rg8,
        ImageFormat::Rgba8,
        ImageFormat::R16f,
        ImageFormat::Rg16f,
        ImageFormat::Rgba16f,
        ImageFormat::R32f,
        ImageFormat::Rg32f,
        ImageFormat::Rgba32f,
    ];

    /// The GLSL layout qualifier, e.g. `rgba16f`.
    pub const fn qualifier(self) -> &'static str {
        match self {
            ImageFormat::R8 => "r8",
            ImageFormat::Rg8 => "rg8",
            ImageFormat::Rgba8 => "rgba8",
            ImageFormat::R16f => "r16f",
            ImageFormat::Rg16f => "rg16f",
            ImageFormat::Rgba16f => "rgba16f",
            ImageFormat::R32f => "r32f",
            ImageFormat::Rg32f => "rg32f",
            ImageFormat::Rgba32f => "rgba32f",
        }
    }

    /// Channels (1, 2 or 4).
    pub const fn channels(self) -> u32 {
        match self {
            ImageFormat::R8 | ImageFormat::R16f | ImageFormat::R32f => 1,
            ImageFormat::Rg8 | ImageFormat::Rg16f | ImageFormat::Rg32f => 2,
            _ => 4,
        }
    }
}

impl Template {
    /// Every template, in catalog order.
    pub const ALL: [Template; 17] = [
        Template::TypedBuffer,
        Template::RawBuffer,
        Template::StructuredBuffer,
        Template::UniformBuffer,
        Template::ImageLoad,
        Template::ImageSample,
        Template::Control1D,
        Template::Control2D,
        Template::Clock,
        Template::StorageTexelBuffer,
        Template::StorageImage,
        Template::ScalarBuffer,
        Template::Uint8Buffer,
        Template::Float16Buffer,
        Template::BufferReference,
        Template::PushConstant,
        Template::SharedMemory,
    ];

    /// The template's file name inside `glsl/`.
    pub const fn file(self) -> &'static str {
        match self {
            Template::TypedBuffer => "typed_buffer.comp",
            Template::RawBuffer => "raw_buffer.comp",
            Template::StructuredBuffer | Template::ScalarBuffer => "structured_buffer.comp",
            Template::UniformBuffer => "uniform_buffer.comp",
            Template::ImageLoad => "image_load.comp",
            Template::ImageSample => "image_sample.comp",
            Template::Control1D => "control_1d.comp",
            Template::Control2D => "control_2d.comp",
            Template::Clock => "clock.comp",
            Template::StorageTexelBuffer => "storage_texel_buffer.comp",
            Template::StorageImage => "storage_image.comp",
            Template::Uint8Buffer | Template::Float16Buffer => "small_type_buffer.comp",
            Template::BufferReference => "buffer_reference.comp",
            Template::PushConstant => "push_constant.comp",
            Template::SharedMemory => "shared_memory.comp",
        }
    }

    /// A file-name-safe name, distinct for templates that share a file.
    pub const fn ident(self) -> &'static str {
        match self {
            Template::TypedBuffer => "typed_buffer",
            Template::RawBuffer => "raw_buffer",
            Template::StructuredBuffer => "structured_buffer",
            Template::UniformBuffer => "uniform_buffer",
            Template::ImageLoad => "image_load",
            Template::ImageSample => "image_sample",
            Template::Control1D => "control_1d",
            Template::Control2D => "control_2d",
            Template::Clock => "clock",
            Template::StorageTexelBuffer => "storage_texel_buffer",
            Template::StorageImage => "storage_image",
            Template::ScalarBuffer => "scalar_buffer",
            Template::Uint8Buffer => "uint8_buffer",
            Template::Float16Buffer => "float16_buffer",
            Template::BufferReference => "buffer_reference",
            Template::PushConstant => "push_constant",
            Template::SharedMemory => "shared_memory",
        }
    }

    /// The load widths (channels, or 32-bit words for raw loads) each template is built for.
    /// Storage images and texel buffers take theirs from the format.
    pub const fn widths(self) -> &'static [u32] {
        match self {
            Template::TypedBuffer
            | Template::ImageLoad
            | Template::ImageSample
            | Template::BufferReference => &[1, 2, 4],
            Template::StructuredBuffer | Template::RawBuffer => &[1, 2, 3, 4],
            Template::ScalarBuffer => &[3],
            Template::Clock | Template::Uint8Buffer | Template::Float16Buffer => &[1],
            _ => &[4],
        }
    }

    /// The formats each template is built for (`None` when the declaration has none).
    pub const fn formats(self) -> &'static [Option<ImageFormat>] {
        match self {
            Template::StorageTexelBuffer | Template::StorageImage => &[
                Some(ImageFormat::R8),
                Some(ImageFormat::Rg8),
                Some(ImageFormat::Rgba8),
                Some(ImageFormat::R16f),
                Some(ImageFormat::Rg16f),
                Some(ImageFormat::Rgba16f),
                Some(ImageFormat::R32f),
                Some(ImageFormat::Rg32f),
                Some(ImageFormat::Rgba32f),
            ],
            _ => &[None],
        }
    }

    /// The start patterns each template is built for.
    pub const fn patterns(self) -> &'static [Pattern] {
        match self {
            Template::Control1D | Template::Control2D => &[Pattern::Linear],
            Template::Clock => &[Pattern::Uniform],
            // The original families also get the subgroup-broadcast probe.
            Template::TypedBuffer
            | Template::RawBuffer
            | Template::StructuredBuffer
            | Template::UniformBuffer
            | Template::ImageLoad
            | Template::ImageSample => &Pattern::WITH_BROADCAST,
            _ => &Pattern::ALL,
        }
    }

    /// Template-specific definitions beyond WIDTH, PATTERN and FORMAT.
    pub const fn extra_defines(self) -> &'static [(&'static str, &'static str)] {
        match self {
            Template::ScalarBuffer => &[("SCALAR_LAYOUT", "1")],
            Template::Uint8Buffer => &[("ELEMENT_BITS", "8")],
            Template::Float16Buffer => &[("ELEMENT_BITS", "16")],
            _ => &[],
        }
    }

    /// Whether the kernel runs 16×16 workgroups over a 2-D texel grid (else 256×1 over elements).
    pub const fn is_2d(self) -> bool {
        matches!(
            self,
            Template::ImageLoad
                | Template::ImageSample
                | Template::Control2D
                | Template::StorageImage
        )
    }
}

/// Where each thread starts reading.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Pattern {
    /// Every thread reads the same address each iteration.
    Uniform,
    /// Start = the thread's index in its group: contiguous, coalescing loads.
    Linear,
    /// Start = a hash of the thread's index, masked to stay in the same cache lines.
    Random,
    /// As `Uniform`, but one lane loads and `subgroupBroadcastFirst` shares the value.
    UniformBroadcast,
}

impl Pattern {
    /// The three patterns of the original suite, in run order.
    pub const ALL: [Pattern; 3] = [Pattern::Uniform, Pattern::Linear, Pattern::Random];
    /// The three patterns and the subgroup-broadcast probe.
    pub const WITH_BROADCAST: [Pattern; 4] = [
        Pattern::Uniform,
        Pattern::Linear,
        Pattern::Random,
        Pattern::UniformBroadcast,
    ];

    /// The pattern as test names print it.
    pub const fn name(self) -> &'static str {
        match self {
            Pattern::Uniform => "uniform",
            Pattern::Linear => "linear",
            Pattern::Random => "random",
            Pattern::UniformBroadcast => "uniform (subgroup broadcast)",
        }
    }

    /// A file-name-safe name.
    pub const fn ident(self) -> &'static str {
        match self {
            Pattern::UniformBroadcast => "broadcast",
            p => p.name(),
        }
    }

    /// The value of the `PATTERN` define (see `glsl/common.glsl`).
    pub const fn define(self) -> u32 {
        match self {
            Pattern::Uniform => 0,
            Pattern::Linear => 1,
            Pattern::Random => 2,
            Pattern::UniformBroadcast => 3,
        }
    }
}

/// One compiled kernel: a template specialised by load width, format and access pattern.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Kernel {
    /// The GLSL template.
    pub template: Template,
    /// Channels (typed and texture loads, structured element width) or 32-bit words (raw loads).
    pub width: u32,
    /// The image format in the declaration (storage images and texel buffers only).
    pub format: Option<ImageFormat>,
    /// Start-address pattern.
    pub pattern: Pattern,
}

/// The number of kernels in [`all`]; the generated SPIR-V table has exactly this length.
pub const KERNEL_COUNT: usize = {
    let mut n = 0;
    let mut t = 0;
    while t < Template::ALL.len() {
        let tpl = Template::ALL[t];
        n += tpl.widths().len() * tpl.formats().len() * tpl.patterns().len();
        t += 1;
    }
    n
};

/// Every kernel permutation, in a fixed order (the order of the generated SPIR-V table).
pub fn all() -> Vec<Kernel> {
    let mut out = Vec::with_capacity(KERNEL_COUNT);
    for template in Template::ALL {
        for &format in template.formats() {
            for &width in template.widths() {
                for &pattern in template.patterns() {
                    out.push(Kernel {
                        template,
                        width: format.map_or(width, |f| f.channels()),
                        format,
                        pattern,
                    });
                }
            }
        }
    }
    out
}

impl Kernel {
    /// A file-name-safe identifier, e.g. `typed_buffer_w4_random` or `storage_image_rg16f_linear`.
    pub fn stem(&self) -> String {
        match self.format {
            Some(f) => format!(
                "{}_{}_{}",
                self.template.ident(),
                f.qualifier(),
                self.pattern.ident()
            ),
            None => format!(
                "{}_w{}_{}",
                self.template.ident(),
                self.width,
                self.pattern.ident()
            ),
        }
    }

    /// The preprocessor definitions that specialise the template.
    pub fn defines(&self) -> Vec<(&'static str, String)> {
        let mut d = vec![
            ("WIDTH", self.width.to_string()),
            ("PATTERN", self.pattern.define().to_string()),
        ];
        if let Some(f) = self.format {
            d.push(("FORMAT", f.qualifier().to_string()));
        }
        for (name, value) in self.template.extra_defines() {
            d.push((name, value.to_string()));
        }
        d
    }

    /// This kernel's position in [`all`] (and in the generated SPIR-V table).
    pub fn index(&self) -> usize {
        all()
            .iter()
            .position(|k| k == self)
            .unwrap_or_else(|| panic!("kernel {} is not in the permutation list", self.stem()))
    }
}
