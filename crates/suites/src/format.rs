//! The texel formats of the original suite: Vulkan format, GLSL qualifier, names and decoding.

use ash::vk;

/// The texel formats of the original suite, in its order.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Format {
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
    /// The nine formats, in the original's order.
    pub const ALL: [Format; 9] = [
        Format::R8,
        Format::Rg8,
        Format::Rgba8,
        Format::R16f,
        Format::Rg16f,
        Format::Rgba16f,
        Format::R32f,
        Format::Rg32f,
        Format::Rgba32f,
    ];

    /// Channels (1, 2 or 4).
    pub const fn channels(self) -> u32 {
        match self {
            Format::R8 | Format::R16f | Format::R32f => 1,
            Format::Rg8 | Format::Rg16f | Format::Rg32f => 2,
            _ => 4,
        }
    }

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

    /// The GLSL image layout qualifier, e.g. `rgba16f` (also the kernels' file-name part).
    pub const fn qualifier(self) -> &'static str {
        match self {
            Format::R8 => "r8",
            Format::Rg8 => "rg8",
            Format::Rgba8 => "rgba8",
            Format::R16f => "r16f",
            Format::Rg16f => "rg16f",
            Format::Rgba16f => "rgba16f",
            Format::R32f => "r32f",
            Format::Rg32f => "rg32f",
            Format::Rgba32f => "rgba32f",
        }
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

    /// Whether a shader may declare this format for a storage image or texel buffer only
    /// with `shaderStorageImageExtendedFormats` (SPIR-V's StorageImageExtendedFormats).
    pub const fn is_extended_storage_format(self) -> bool {
        !matches!(
            self,
            Format::Rgba8 | Format::Rgba16f | Format::R32f | Format::Rgba32f
        )
    }

    /// Decodes one element at `bytes[0..]` into its channels (unused channels 0).
    pub fn decode(self, bytes: &[u8]) -> [f32; 4] {
        let mut v = [0.0f32; 4];
        for (c, out) in v.iter_mut().enumerate().take(self.channels() as usize) {
            *out = match self.channel_type() {
                ChannelType::Unorm8 => bytes[c] as f32 / 255.0,
                ChannelType::Float16 => {
                    half::f16::from_le_bytes([bytes[2 * c], bytes[2 * c + 1]]).to_f32()
                }
                ChannelType::Float32 => f32::from_le_bytes([
                    bytes[4 * c],
                    bytes[4 * c + 1],
                    bytes[4 * c + 2],
                    bytes[4 * c + 3],
                ]),
            };
        }
        v
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn unorm_and_half_decode() {
        assert_eq!(Format::Rg8.decode(&[255, 0]), [1.0, 0.0, 0.0, 0.0]);
        assert_eq!(Format::R16f.decode(&[0x00, 0x3C]), [1.0, 0.0, 0.0, 0.0]);
        assert_eq!(
            Format::R32f.decode(&2.5f32.to_le_bytes()),
            [2.5, 0.0, 0.0, 0.0]
        );
    }

    #[test]
    fn sizes_follow_the_channels() {
        assert_eq!(Format::Rgba32f.bytes(), 16);
        assert_eq!(Format::Rg16f.bytes(), 4);
        assert_eq!(Format::R8.bytes(), 1);
        assert_eq!(Format::Rgba16f.texture_name(), "RGBA16F");
    }
}
