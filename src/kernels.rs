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
    /// `float[]` / `vec2[]` / `vec4[]` storage buffer (std430).
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
}

impl Template {
    /// Every template, in catalog order.
    pub const ALL: [Template; 9] = [
        Template::TypedBuffer,
        Template::RawBuffer,
        Template::StructuredBuffer,
        Template::UniformBuffer,
        Template::ImageLoad,
        Template::ImageSample,
        Template::Control1D,
        Template::Control2D,
        Template::Clock,
    ];

    /// The template's file name inside `glsl/`.
    pub const fn file(self) -> &'static str {
        match self {
            Template::TypedBuffer => "typed_buffer.comp",
            Template::RawBuffer => "raw_buffer.comp",
            Template::StructuredBuffer => "structured_buffer.comp",
            Template::UniformBuffer => "uniform_buffer.comp",
            Template::ImageLoad => "image_load.comp",
            Template::ImageSample => "image_sample.comp",
            Template::Control1D => "control_1d.comp",
            Template::Control2D => "control_2d.comp",
            Template::Clock => "clock.comp",
        }
    }

    /// The load widths (channels, or 32-bit words for raw loads) each template is built for.
    pub const fn widths(self) -> &'static [u32] {
        match self {
            Template::TypedBuffer
            | Template::StructuredBuffer
            | Template::ImageLoad
            | Template::ImageSample => &[1, 2, 4],
            Template::RawBuffer => &[1, 2, 3, 4],
            Template::UniformBuffer | Template::Control1D | Template::Control2D => &[4],
            Template::Clock => &[1],
        }
    }

    /// The start patterns each template is built for.
    pub const fn patterns(self) -> &'static [Pattern] {
        match self {
            Template::Control1D | Template::Control2D => &[Pattern::Linear],
            Template::Clock => &[Pattern::Uniform],
            _ => &Pattern::ALL,
        }
    }

    /// Whether the kernel runs 16×16 workgroups over a 2-D texel grid (else 256×1 over elements).
    pub const fn is_2d(self) -> bool {
        matches!(
            self,
            Template::ImageLoad | Template::ImageSample | Template::Control2D
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
}

impl Pattern {
    /// The three patterns, in run order.
    pub const ALL: [Pattern; 3] = [Pattern::Uniform, Pattern::Linear, Pattern::Random];

    /// The pattern as the original suite prints it.
    pub const fn name(self) -> &'static str {
        match self {
            Pattern::Uniform => "uniform",
            Pattern::Linear => "linear",
            Pattern::Random => "random",
        }
    }

    /// The value of the `PATTERN` define (see `glsl/common.glsl`).
    pub const fn define(self) -> u32 {
        match self {
            Pattern::Uniform => 0,
            Pattern::Linear => 1,
            Pattern::Random => 2,
        }
    }
}

/// One compiled kernel: a template specialised by load width and access pattern.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Kernel {
    /// The GLSL template.
    pub template: Template,
    /// Channels (typed and texture loads, structured element width) or 32-bit words (raw loads).
    pub width: u32,
    /// Start-address pattern.
    pub pattern: Pattern,
}

/// The number of kernels in [`all`]; the generated SPIR-V table has exactly this length.
pub const KERNEL_COUNT: usize = {
    let mut n = 0;
    let mut t = 0;
    while t < Template::ALL.len() {
        n += Template::ALL[t].widths().len() * Template::ALL[t].patterns().len();
        t += 1;
    }
    n
};

/// Every kernel permutation, in a fixed order (the order of the generated SPIR-V table).
pub fn all() -> Vec<Kernel> {
    let mut out = Vec::with_capacity(KERNEL_COUNT);
    for template in Template::ALL {
        for &width in template.widths() {
            for &pattern in template.patterns() {
                out.push(Kernel {
                    template,
                    width,
                    pattern,
                });
            }
        }
    }
    out
}

impl Kernel {
    /// A file-name-safe identifier, e.g. `typed_buffer_w4_random`.
    pub fn stem(&self) -> String {
        let base = self.template.file().trim_end_matches(".comp");
        format!("{base}_w{}_{}", self.width, self.pattern.name())
    }

    /// The preprocessor definitions that specialise the template.
    pub fn defines(&self) -> Vec<(&'static str, String)> {
        vec![
            ("WIDTH", self.width.to_string()),
            ("PATTERN", self.pattern.define().to_string()),
        ]
    }

    /// This kernel's position in [`all`] (and in the generated SPIR-V table).
    pub fn index(&self) -> usize {
        all()
            .iter()
            .position(|k| k == self)
            .unwrap_or_else(|| panic!("kernel {} is not in the permutation list", self.stem()))
    }
}
