//! Every test of the suite as plain data: small enums, names derived from them, run order.

pub use crate::kernels::Pattern;
use crate::kernels::{Kernel, Template};
use ash::vk;

/// The texel formats of the original suite, in its order (the same enum the kernel
/// permutations use for storage-image declarations).
pub use crate::kernels::ImageFormat as Format;

/// How a channel is stored.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ChannelType {
    /// 8-bit unsigned normalised.
    Unorm8,
    /// IEEE half float.
    Float16,
    /// IEEE single float.
    Float32,
}

impl Format {
    /// Storage type of each channel.
    pub const fn channel_type(self) -> ChannelType {
        match self {
            Format::R8 | Format::Rg8 | Format::Rgba8 => ChannelType::Unorm8,
            Format::R16f | Format::Rg16f | Format::Rgba16f => ChannelType::Float16,
            Format::R32f | Format::Rg32f | Format::Rgba32f => ChannelType::Float32,
        }
    }

    /// Bytes per element / texel.
    pub const fn bytes(self) -> u32 {
        let per_channel = match self.channel_type() {
            ChannelType::Unorm8 => 1,
            ChannelType::Float16 => 2,
            ChannelType::Float32 => 4,
        };
        per_channel * self.channels()
    }

    /// The Vulkan format.
    pub const fn vk(self) -> vk::Format {
        match self {
            Format::R8 => vk::Format::R8_UNORM,
            Format::Rg8 => vk::Format::R8G8_UNORM,
            Format::Rgba8 => vk::Format::R8G8B8A8_UNORM,
            Format::R16f => vk::Format::R16_SFLOAT,
            Format::Rg16f => vk::Format::R16G16_SFLOAT,
            Format::Rgba16f => vk::Format::R16G16B16A16_SFLOAT,
            Format::R32f => vk::Format::R32_SFLOAT,
            Format::Rg32f => vk::Format::R32G32_SFLOAT,
            Format::Rgba32f => vk::Format::R32G32B32A32_SFLOAT,
        }
    }

    /// The name as the original printed it for buffers (`R16f`); textures capitalise the F.
    pub const fn buffer_name(self) -> &'static str {
        match self {
            Format::R8 => "R8",
            Format::Rg8 => "RG8",
            Format::Rgba8 => "RGBA8",
            Format::R16f => "R16f",
            Format::Rg16f => "RG16f",
            Format::Rgba16f => "RGBA16f",
            Format::R32f => "R32f",
            Format::Rg32f => "RG32f",
            Format::Rgba32f => "RGBA32f",
        }
    }

    /// Whether a shader may declare this format for a storage image or texel buffer only
    /// with `shaderStorageImageExtendedFormats` (SPIR-V's StorageImageExtendedFormats).
    pub const fn is_extended_storage_format(self) -> bool {
        !matches!(
            self,
            Format::Rgba8 | Format::Rgba16f | Format::R32f | Format::Rgba32f
        )
    }

    /// The name as the original printed it for textures (`R16F`).
    pub fn texture_name(self) -> String {
        self.buffer_name().replace('f', "F")
    }

    /// The Vulkan format name without its `VK_FORMAT_` prefix, for the CSV.
    pub const fn vk_name(self) -> &'static str {
        match self {
            Format::R8 => "R8_UNORM",
            Format::Rg8 => "R8G8_UNORM",
            Format::Rgba8 => "R8G8B8A8_UNORM",
            Format::R16f => "R16_SFLOAT",
            Format::Rg16f => "R16G16_SFLOAT",
            Format::Rgba16f => "R16G16B16A16_SFLOAT",
            Format::R32f => "R32_SFLOAT",
            Format::Rg32f => "R32G32_SFLOAT",
            Format::Rgba32f => "R32G32B32A32_SFLOAT",
        }
    }
}

/// Sampler filter of a sampled-texture test.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Filter {
    Nearest,
    Bilinear,
}

/// Dimensionality of a kernel's loop (for the control kernels).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Shape {
    /// 256 iterations over elements (buffer kernels).
    OneD,
    /// 16×16 iterations over texels (texture kernels).
    TwoD,
}

/// A group of tests selected with `--suite`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, clap::ValueEnum)]
pub enum Suite {
    /// The 138 tests of the Direct3D 11 original, in its order and with its names.
    Original,
    /// The loops without loads: the issue-rate ceiling of each kernel shape.
    Control,
    /// Vulkan-native ways to read the same data, and the subgroup-broadcast probe.
    Extended,
}

/// A family of tests: what is read, through which kind of resource.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Family {
    /// `Buffer<F>.Load`: uniform texel buffer.
    TypedBuffer(Format),
    /// `ByteAddressBuffer.Load{,2,3,4}`: `words` consecutive 32-bit words from a storage buffer,
    /// starting 4 bytes in when `unaligned`.
    RawBuffer { words: u32, unaligned: bool },
    /// `StructuredBuffer<float|float2|float4>.Load`: std430 storage buffer of `width` floats.
    StructuredBuffer { width: u32 },
    /// `cbuffer{float4} load`: `vec4[1024]` uniform buffer.
    ConstantBuffer,
    /// `Texture2D<F>.Load`: `texelFetch` from a sampled image.
    TextureLoad(Format),
    /// `Texture2D<F>.Sample(filter)`: `textureLod` at texel centres.
    TextureSample(Format, Filter),
    /// `Control: loop 1D|2D`: the loop with the load replaced by index arithmetic.
    Control(Shape),
    /// `RWBuffer<F>.Load`: storage texel buffer, `imageLoad`.
    StorageTexelBuffer(Format),
    /// `RWTexture2D<F>.Load`: storage image, `imageLoad`.
    StorageImage(Format),
    /// `StructuredBuffer<float3>.Load packed`: `vec3[]` with scalar layout (12-byte stride).
    PackedFloat3,
    /// `StructuredBuffer<uint8_t|float16_t>.Load`: 8- or 16-bit storage, converted to float.
    SmallType { bits: u32 },
    /// `BufferReference<float|float2|float4>.Load`: loads through a device address.
    BufferReference { width: u32 },
    /// `PushConstant{float4[6]} load`: a push-constant array (indices wrap modulo 6).
    PushConstant,
    /// `groupshared{float4} load`: shared memory filled once per group.
    SharedMemory,
}

/// One test: a family and an access pattern.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct TestCase {
    /// What is read and how.
    pub family: Family,
    /// Where each thread starts.
    pub pattern: Pattern,
}

/// Loads each thread performs per dispatch (fixed: 256, or 16×16 for textures).
pub const LOADS_PER_THREAD: u64 = 256;
/// Threads per workgroup (256×1 for buffers, 16×16 for textures).
pub const THREADS_PER_GROUP: u64 = 256;
/// The baseline every ratio is relative to, as in the original.
pub const BASELINE: TestCase = TestCase {
    family: Family::TypedBuffer(Format::Rgba8),
    pattern: Pattern::Random,
};

impl Family {
    /// The name without the pattern, e.g. `Buffer<RGBA8>.Load`.
    pub fn name(&self) -> String {
        match *self {
            Family::TypedBuffer(f) => format!("Buffer<{}>.Load", f.buffer_name()),
            Family::RawBuffer { words, unaligned } => {
                let n = if words == 1 {
                    String::new()
                } else {
                    words.to_string()
                };
                let u = if unaligned { " unaligned" } else { "" };
                format!("ByteAddressBuffer.Load{n}{u}")
            }
            Family::StructuredBuffer { width } => {
                let t = if width == 1 {
                    "float".to_string()
                } else {
                    format!("float{width}")
                };
                format!("StructuredBuffer<{t}>.Load")
            }
            Family::ConstantBuffer => "cbuffer{float4} load".to_string(),
            Family::TextureLoad(f) => format!("Texture2D<{}>.Load", f.texture_name()),
            Family::TextureSample(f, filter) => {
                let filter = match filter {
                    Filter::Nearest => "nearest",
                    Filter::Bilinear => "bilinear",
                };
                format!("Texture2D<{}>.Sample({filter})", f.texture_name())
            }
            Family::Control(Shape::OneD) => "Control: loop 1D".to_string(),
            Family::Control(Shape::TwoD) => "Control: loop 2D".to_string(),
            Family::StorageTexelBuffer(f) => format!("RWBuffer<{}>.Load", f.buffer_name()),
            Family::StorageImage(f) => format!("RWTexture2D<{}>.Load", f.texture_name()),
            Family::PackedFloat3 => "StructuredBuffer<float3>.Load packed".to_string(),
            Family::SmallType { bits: 8 } => "StructuredBuffer<uint8_t>.Load".to_string(),
            Family::SmallType { .. } => "StructuredBuffer<float16_t>.Load".to_string(),
            Family::BufferReference { width } => {
                let t = if width == 1 {
                    "float".to_string()
                } else {
                    format!("float{width}")
                };
                format!("BufferReference<{t}>.Load")
            }
            Family::PushConstant => "PushConstant{float4[6]} load".to_string(),
            Family::SharedMemory => "groupshared{float4} load".to_string(),
        }
    }

    /// A short family identifier for the CSV `family` column.
    pub const fn id(&self) -> &'static str {
        match self {
            Family::TypedBuffer(_) => "typed_buffer",
            Family::RawBuffer {
                unaligned: false, ..
            } => "raw_buffer",
            Family::RawBuffer {
                unaligned: true, ..
            } => "raw_buffer_unaligned",
            Family::StructuredBuffer { .. } => "structured_buffer",
            Family::ConstantBuffer => "constant_buffer",
            Family::TextureLoad(_) => "texture_load",
            Family::TextureSample(_, Filter::Nearest) => "texture_sample_nearest",
            Family::TextureSample(_, Filter::Bilinear) => "texture_sample_bilinear",
            Family::Control(_) => "control",
            Family::StorageTexelBuffer(_) => "storage_texel_buffer",
            Family::StorageImage(_) => "storage_image",
            Family::PackedFloat3 => "structured_buffer_packed",
            Family::SmallType { .. } => "small_type_buffer",
            Family::BufferReference { .. } => "buffer_reference",
            Family::PushConstant => "push_constant",
            Family::SharedMemory => "shared_memory",
        }
    }

    /// The texel format, for families that read through a format.
    pub const fn format(&self) -> Option<Format> {
        match *self {
            Family::TypedBuffer(f)
            | Family::TextureLoad(f)
            | Family::TextureSample(f, _)
            | Family::StorageTexelBuffer(f)
            | Family::StorageImage(f) => Some(f),
            _ => None,
        }
    }

    /// The CSV `format` column: a Vulkan format, or the GLSL type read from a plain buffer.
    pub fn format_name(&self) -> String {
        match *self {
            Family::RawBuffer { words: 1, .. } => "uint".into(),
            Family::RawBuffer { words, .. } => format!("uint x{words}"),
            Family::StructuredBuffer { width: 1 } => "float".into(),
            Family::StructuredBuffer { width } => format!("vec{width}"),
            Family::ConstantBuffer | Family::PushConstant | Family::SharedMemory => "vec4".into(),
            Family::PackedFloat3 => "vec3 (scalar)".into(),
            Family::SmallType { bits: 8 } => "uint8_t".into(),
            Family::SmallType { .. } => "float16_t".into(),
            Family::BufferReference { width: 1 } => "float".into(),
            Family::BufferReference { width } => format!("vec{width}"),
            _ => self
                .format()
                .map(|f| f.vk_name().to_string())
                .unwrap_or_default(),
        }
    }

    /// The Vulkan descriptor type the source is bound as, for the CSV `resource` column
    /// (`none` for the control kernels, which read nothing).
    pub const fn resource_name(&self) -> &'static str {
        match self {
            Family::TypedBuffer(_) => "UNIFORM_TEXEL_BUFFER",
            Family::RawBuffer { .. } | Family::StructuredBuffer { .. } => "STORAGE_BUFFER",
            Family::ConstantBuffer => "UNIFORM_BUFFER",
            Family::TextureLoad(_) | Family::TextureSample(..) => "SAMPLED_IMAGE",
            Family::Control(_) => "none",
            Family::StorageTexelBuffer(_) => "STORAGE_TEXEL_BUFFER",
            Family::StorageImage(_) => "STORAGE_IMAGE",
            Family::PackedFloat3 | Family::SmallType { .. } => "STORAGE_BUFFER",
            Family::BufferReference { .. } => "device address",
            Family::PushConstant => "push constants",
            Family::SharedMemory => "shared memory",
        }
    }

    /// The GLSL template and load width that implement this family.
    pub const fn template_and_width(&self) -> (Template, u32) {
        // (Templates with a format in their declaration take it from `kernel()`.)
        match *self {
            Family::TypedBuffer(f) => (Template::TypedBuffer, f.channels()),
            Family::RawBuffer { words, .. } => (Template::RawBuffer, words),
            Family::StructuredBuffer { width } => (Template::StructuredBuffer, width),
            Family::ConstantBuffer => (Template::UniformBuffer, 4),
            Family::TextureLoad(f) => (Template::ImageLoad, f.channels()),
            Family::TextureSample(f, _) => (Template::ImageSample, f.channels()),
            Family::Control(Shape::OneD) => (Template::Control1D, 4),
            Family::Control(Shape::TwoD) => (Template::Control2D, 4),
            Family::StorageTexelBuffer(f) => (Template::StorageTexelBuffer, f.channels()),
            Family::StorageImage(f) => (Template::StorageImage, f.channels()),
            Family::PackedFloat3 => (Template::ScalarBuffer, 3),
            Family::SmallType { bits: 8 } => (Template::Uint8Buffer, 1),
            Family::SmallType { .. } => (Template::Float16Buffer, 1),
            Family::BufferReference { width } => (Template::BufferReference, width),
            Family::PushConstant => (Template::PushConstant, 4),
            Family::SharedMemory => (Template::SharedMemory, 4),
        }
    }

    /// Byte offset of the first read: raw unaligned loads start 4 bytes into the buffer.
    pub const fn read_start(&self) -> u32 {
        match self {
            Family::RawBuffer {
                unaligned: true, ..
            } => 4,
            _ => 0,
        }
    }

    /// Bytes each load brings into the shader (for bytes/s figures); none for controls.
    pub const fn bytes_per_load(&self) -> Option<u32> {
        Some(match *self {
            Family::TypedBuffer(f)
            | Family::TextureLoad(f)
            | Family::TextureSample(f, _)
            | Family::StorageTexelBuffer(f)
            | Family::StorageImage(f) => f.bytes(),
            Family::RawBuffer { words, .. } => 4 * words,
            Family::StructuredBuffer { width } | Family::BufferReference { width } => 4 * width,
            Family::PackedFloat3 => 12,
            Family::SmallType { bits } => bits / 8,
            Family::ConstantBuffer | Family::PushConstant | Family::SharedMemory => 16,
            Family::Control(_) => return None,
        })
    }
}

impl TestCase {
    /// The display name, byte for byte as the original printed it (control kernels have
    /// a single pattern, so their name carries none).
    pub fn name(&self) -> String {
        match self.family {
            Family::Control(_) => self.family.name(),
            _ => format!("{} {}", self.family.name(), self.pattern.name()),
        }
    }

    /// The kernel that runs this test.
    pub fn kernel(&self) -> Kernel {
        let (template, width) = self.family.template_and_width();
        let format = match self.family {
            Family::StorageTexelBuffer(f) | Family::StorageImage(f) => Some(f),
            _ => None,
        };
        Kernel {
            template,
            width,
            format,
            pattern: self.pattern,
        }
    }

    /// Loads one dispatch of `groups` workgroups performs.
    pub fn loads_per_dispatch(&self, groups: u32) -> u64 {
        groups as u64 * THREADS_PER_GROUP * LOADS_PER_THREAD
    }
}

/// The families of the original suite, in its run order.
fn original_families() -> Vec<Family> {
    let mut f: Vec<Family> = Format::ALL
        .iter()
        .map(|&x| Family::TypedBuffer(x))
        .collect();
    for words in 1..=4 {
        f.push(Family::RawBuffer {
            words,
            unaligned: false,
        });
    }
    for words in [2, 4] {
        f.push(Family::RawBuffer {
            words,
            unaligned: true,
        });
    }
    for width in [1, 2, 4] {
        f.push(Family::StructuredBuffer { width });
    }
    f.push(Family::ConstantBuffer);
    f.extend(Format::ALL.iter().map(|&x| Family::TextureLoad(x)));
    for filter in [Filter::Nearest, Filter::Bilinear] {
        f.extend(
            Format::ALL
                .iter()
                .map(|&x| Family::TextureSample(x, filter)),
        );
    }
    f
}

/// Every test of the original suite (138), in run order.
pub fn original_suite() -> Vec<TestCase> {
    original_families()
        .into_iter()
        .flat_map(|family| {
            Pattern::ALL
                .into_iter()
                .map(move |pattern| TestCase { family, pattern })
        })
        .collect()
}

/// Whether `name` contains `needle` (case-insensitive) starting at a word start: the start
/// of the name or just after a character that is not a letter or digit. So `Buffer<` selects
/// `Buffer<R8>.Load uniform` but not `StructuredBuffer<float>.Load uniform`, and `load4`
/// selects `ByteAddressBuffer.Load4 linear`.
pub fn matches(name: &str, needle: &str) -> bool {
    let name = name.to_lowercase();
    let needle = needle.to_lowercase();
    name.match_indices(&needle).any(|(at, _)| {
        name[..at]
            .chars()
            .next_back()
            .is_none_or(|c| !c.is_alphanumeric())
    })
}

/// The control kernels, one per loop shape.
pub fn control_suite() -> Vec<TestCase> {
    [Shape::OneD, Shape::TwoD]
        .into_iter()
        .map(|shape| TestCase {
            family: Family::Control(shape),
            pattern: Pattern::Linear,
        })
        .collect()
}

/// The extended suite: Vulkan-native resources for the same data and patterns, then the
/// subgroup-broadcast variant of every original family's uniform test.
pub fn extended_suite() -> Vec<TestCase> {
    let mut families: Vec<Family> = Format::ALL
        .iter()
        .map(|&f| Family::StorageTexelBuffer(f))
        .collect();
    families.extend(Format::ALL.iter().map(|&f| Family::StorageImage(f)));
    families.push(Family::StructuredBuffer { width: 3 });
    families.push(Family::PackedFloat3);
    families.push(Family::SmallType { bits: 8 });
    families.push(Family::SmallType { bits: 16 });
    families.extend([1, 2, 4].map(|width| Family::BufferReference { width }));
    families.push(Family::PushConstant);
    families.push(Family::SharedMemory);
    let mut out: Vec<TestCase> = families
        .into_iter()
        .flat_map(|family| {
            Pattern::ALL
                .into_iter()
                .map(move |pattern| TestCase { family, pattern })
        })
        .collect();
    out.extend(original_families().into_iter().map(|family| TestCase {
        family,
        pattern: Pattern::UniformBroadcast,
    }));
    out
}

/// Every test of the given suites, in run order (original, control, extended).
pub fn suites(selected: &[Suite]) -> Vec<TestCase> {
    let mut out = Vec::new();
    if selected.contains(&Suite::Original) {
        out.extend(original_suite());
    }
    if selected.contains(&Suite::Control) {
        out.extend(control_suite());
    }
    if selected.contains(&Suite::Extended) {
        out.extend(extended_suite());
    }
    out
}

/// Every test the tool knows, in run order.
pub fn all_tests() -> Vec<TestCase> {
    suites(&[Suite::Original, Suite::Control, Suite::Extended])
}

/// Tests whose name matches any of `filters`; all of them when empty.
///
/// Each filter selects the tests whose name contains it at a word start (see [`matches`]);
/// only when no name does, it falls back to a plain case-insensitive substring. So
/// `Buffer<` selects the typed-buffer tests and not `StructuredBuffer<`, while `32f` (which
/// starts no word) still selects `R32f`, `RG32f` and `RGBA32f`.
pub fn filter(tests: &[TestCase], filters: &[String]) -> Vec<TestCase> {
    if filters.is_empty() {
        return tests.to_vec();
    }
    let names: Vec<String> = tests.iter().map(|t| t.name()).collect();
    let mut keep = vec![false; tests.len()];
    for f in filters {
        let at_word: Vec<bool> = names.iter().map(|n| matches(n, f)).collect();
        let hits = if at_word.contains(&true) {
            at_word
        } else {
            let needle = f.to_lowercase();
            names
                .iter()
                .map(|n| n.to_lowercase().contains(&needle))
                .collect()
        };
        for (k, h) in keep.iter_mut().zip(hits) {
            *k |= h;
        }
    }
    tests
        .iter()
        .zip(keep)
        .filter_map(|(t, k)| k.then_some(*t))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_match_the_original_list() {
        let expected = include_str!("../tests/data/original-tests.txt");
        let names: Vec<String> = original_suite().iter().map(|t| t.name()).collect();
        let expected: Vec<&str> = expected.lines().collect();
        assert_eq!(names.len(), 138);
        assert_eq!(names, expected);
    }

    #[test]
    fn names_are_unique() {
        let names: std::collections::HashSet<String> =
            all_tests().iter().map(|t| t.name()).collect();
        assert_eq!(names.len(), all_tests().len());
    }

    #[test]
    fn every_test_has_a_kernel() {
        let all = crate::kernels::all();
        for t in all_tests() {
            assert!(all.contains(&t.kernel()), "{} has no kernel", t.name());
        }
    }

    #[test]
    fn filter_is_case_insensitive_and_ors_its_terms() {
        let suite = original_suite();
        assert_eq!(filter(&suite, &["buffer<".into()]).len(), 27);
        assert_eq!(
            filter(&suite, &["CBUFFER".into(), "load4 unaligned".into()]).len(),
            6
        );
        assert_eq!(filter(&suite, &[]).len(), 138);
        assert!(filter(&suite, &["nosuch".into()]).is_empty());
        assert_eq!(
            filter(&suite, &["Buffer<".into()])[26].name(),
            "Buffer<RGBA32f>.Load random"
        );
        assert_eq!(filter(&suite, &["load4".into()]).len(), 6);
        assert_eq!(filter(&suite, &["RGBA32F>.Sample".into()]).len(), 6);
        // No word starts with "32f": plain substring, every 32-bit float format.
        assert_eq!(filter(&suite, &["32f".into()]).len(), 3 * 3 * 4);
    }
}
