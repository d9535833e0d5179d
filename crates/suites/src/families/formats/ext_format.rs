//! The formats of the `formats` suite beyond the original nine: their Vulkan format, the GLSL
//! sampler type that reads them, names, and decoding exactly as Vulkan specifies; the data
//! they read (the shared input, patched so every view is finite); and block-compressed
//! blocks generated so that their decode is known.

use crate::data::{self, INPUT_BYTES};
use ash::vk;

/// Width and height of the 2-D test textures of every format, compressed ones included
/// (the original's 32×32, so every test reads the same texels).
pub const SIZE: u32 = data::TEXTURE_SIZE;

/// The GLSL type a format is read as: `texture*`/`vec4`, `itexture*`/`ivec4` or
/// `utexture*`/`uvec4` (the kernels convert integers to float for the sum).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Kind {
    Float,
    Int,
    Uint,
}

impl Kind {
    /// The kernel-name part (`float`, `int`, `uint`).
    pub const fn ident(self) -> &'static str {
        match self {
            Kind::Float => "float",
            Kind::Int => "int",
            Kind::Uint => "uint",
        }
    }
}

/// How a texel or block is stored.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Encoding {
    /// Unsigned integer channels of this many bits.
    Uint(u32),
    /// Signed (two's complement) integer channels.
    Sint(u32),
    /// Unsigned normalised (16-bit; the 8-bit ones are in the original suite).
    Unorm(u32),
    /// Signed normalised: `max(c / (2^(b-1) - 1), -1)`.
    Snorm(u32),
    /// `A2B10G10R10_UNORM_PACK32`.
    Rgb10A2,
    /// `B10G11R11_UFLOAT_PACK32`: unsigned 11-, 11- and 10-bit floats.
    Rg11B10f,
    /// `E5B9G9R9_UFLOAT_PACK32`: three 9-bit mantissas sharing a 5-bit exponent.
    Rgb9e5,
    /// `R8G8B8A8_SRGB`: sRGB-encoded colour, linear alpha.
    Srgb8,
    /// `BC1_RGBA_UNORM_BLOCK`: 8-byte blocks of 4×4 texels.
    Bc1,
    /// `BC4_UNORM_BLOCK`: 8-byte blocks, one channel.
    Bc4,
    /// `BC5_UNORM_BLOCK`: 16-byte blocks, two channels.
    Bc5,
    /// `BC7_UNORM_BLOCK`: 16-byte blocks, RGBA.
    Bc7,
    /// `ETC2_R8G8B8A8_UNORM_BLOCK`: 16-byte blocks (EAC alpha + ETC2 colour).
    Etc2,
    /// `ASTC_4x4_UNORM_BLOCK`: 16-byte blocks.
    Astc4x4,
}

/// One format of the `formats` suite.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct ExtFormat {
    pub encoding: Encoding,
    /// Channels the format has (1 to 4); a kernel reads and sums this many.
    pub channels: u32,
}

const fn f(encoding: Encoding, channels: u32) -> ExtFormat {
    ExtFormat { encoding, channels }
}

use Encoding::*;

/// Every format, in run order: integers, normalised, packed, sRGB, then block-compressed.
pub const ALL: [ExtFormat; 37] = [
    f(Uint(8), 1),
    f(Uint(8), 2),
    f(Uint(8), 4),
    f(Uint(16), 1),
    f(Uint(16), 2),
    f(Uint(16), 4),
    f(Uint(32), 1),
    f(Uint(32), 2),
    f(Uint(32), 4),
    f(Sint(8), 1),
    f(Sint(8), 2),
    f(Sint(8), 4),
    f(Sint(16), 1),
    f(Sint(16), 2),
    f(Sint(16), 4),
    f(Sint(32), 1),
    f(Sint(32), 2),
    f(Sint(32), 4),
    f(Snorm(8), 1),
    f(Snorm(8), 2),
    f(Snorm(8), 4),
    f(Snorm(16), 1),
    f(Snorm(16), 2),
    f(Snorm(16), 4),
    f(Unorm(16), 1),
    f(Unorm(16), 2),
    f(Unorm(16), 4),
    f(Rgb10A2, 4),
    f(Rg11B10f, 3),
    f(Rgb9e5, 3),
    f(Srgb8, 4),
    f(Bc1, 4),
    f(Bc4, 1),
    f(Bc5, 2),
    f(Bc7, 4),
    f(Etc2, 4),
    f(Astc4x4, 4),
];

impl ExtFormat {
    /// The formats that are not block-compressed (these also go through typed buffers).
    pub fn uncompressed() -> impl Iterator<Item = ExtFormat> {
        ALL.into_iter().filter(|f| !f.is_compressed())
    }

    /// Whether the format is block-compressed (4×4 blocks).
    pub const fn is_compressed(self) -> bool {
        matches!(self.encoding, Bc1 | Bc4 | Bc5 | Bc7 | Etc2 | Astc4x4)
    }

    /// The GLSL type it is read as.
    pub const fn kind(self) -> Kind {
        match self.encoding {
            Uint(_) => Kind::Uint,
            Sint(_) => Kind::Int,
            _ => Kind::Float,
        }
    }

    /// Whether linear filtering can exist for it at all (never for integer formats).
    pub fn filterable(self) -> bool {
        self.kind() == Kind::Float
    }

    /// Bytes per texel, or per 4×4 block for compressed formats.
    pub fn bytes(self) -> u32 {
        match self.encoding {
            Uint(b) | Sint(b) | Unorm(b) | Snorm(b) => b / 8 * self.channels,
            Rgb10A2 | Rg11B10f | Rgb9e5 | Srgb8 => 4,
            Bc1 | Bc4 => 8,
            Bc5 | Bc7 | Etc2 | Astc4x4 => 16,
        }
    }

    /// The name in test names: OpenGL's internal-format name without `GL_` (`RGBA8UI`,
    /// `R16_SNORM`, `R11F_G11F_B10F`), or the block format (`BC7`).
    pub fn name(self) -> String {
        let prefix = ["R", "RG", "RGB", "RGBA"][self.channels as usize - 1];
        match self.encoding {
            Uint(b) => format!("{prefix}{b}UI"),
            Sint(b) => format!("{prefix}{b}I"),
            Unorm(b) => format!("{prefix}{b}"),
            Snorm(b) => format!("{prefix}{b}_SNORM"),
            Rgb10A2 => "RGB10_A2".into(),
            Rg11B10f => "R11F_G11F_B10F".into(),
            Rgb9e5 => "RGB9_E5".into(),
            Srgb8 => "SRGB8_ALPHA8".into(),
            Bc1 => "BC1".into(),
            Bc4 => "BC4".into(),
            Bc5 => "BC5".into(),
            Bc7 => "BC7".into(),
            Etc2 => "ETC2_RGBA8".into(),
            Astc4x4 => "ASTC_4x4".into(),
        }
    }

    /// The Vulkan format.
    pub fn vk(self) -> vk::Format {
        use vk::Format as F;
        let by_channels = |[a, b, c]: [F; 3]| match self.channels {
            1 => a,
            2 => b,
            _ => c,
        };
        match self.encoding {
            Uint(8) => by_channels([F::R8_UINT, F::R8G8_UINT, F::R8G8B8A8_UINT]),
            Uint(16) => by_channels([F::R16_UINT, F::R16G16_UINT, F::R16G16B16A16_UINT]),
            Uint(_) => by_channels([F::R32_UINT, F::R32G32_UINT, F::R32G32B32A32_UINT]),
            Sint(8) => by_channels([F::R8_SINT, F::R8G8_SINT, F::R8G8B8A8_SINT]),
            Sint(16) => by_channels([F::R16_SINT, F::R16G16_SINT, F::R16G16B16A16_SINT]),
            Sint(_) => by_channels([F::R32_SINT, F::R32G32_SINT, F::R32G32B32A32_SINT]),
            Snorm(8) => by_channels([F::R8_SNORM, F::R8G8_SNORM, F::R8G8B8A8_SNORM]),
            Snorm(_) => by_channels([F::R16_SNORM, F::R16G16_SNORM, F::R16G16B16A16_SNORM]),
            Unorm(_) => by_channels([F::R16_UNORM, F::R16G16_UNORM, F::R16G16B16A16_UNORM]),
            Rgb10A2 => F::A2B10G10R10_UNORM_PACK32,
            Rg11B10f => F::B10G11R11_UFLOAT_PACK32,
            Rgb9e5 => F::E5B9G9R9_UFLOAT_PACK32,
            Srgb8 => F::R8G8B8A8_SRGB,
            Bc1 => F::BC1_RGBA_UNORM_BLOCK,
            Bc4 => F::BC4_UNORM_BLOCK,
            Bc5 => F::BC5_UNORM_BLOCK,
            Bc7 => F::BC7_UNORM_BLOCK,
            Etc2 => F::ETC2_R8G8B8A8_UNORM_BLOCK,
            Astc4x4 => F::ASTC_4X4_UNORM_BLOCK,
        }
    }

    /// The Vulkan format name without `VK_FORMAT_`, for the CSV.
    pub fn vk_name(self) -> String {
        format!("{:?}", self.vk())
    }

    /// The device feature that makes a compressed format available, if it needs one.
    pub fn feature(self) -> Option<&'static str> {
        match self.encoding {
            Bc1 | Bc4 | Bc5 | Bc7 => Some("textureCompressionBC"),
            Etc2 => Some("textureCompressionETC2"),
            Astc4x4 => Some("textureCompressionASTC_LDR"),
            _ => None,
        }
    }

    /// Decodes one uncompressed texel at `bytes[0..]` into its channels, as Vulkan's texel
    /// input conversion does (channels the format lacks are 0; the kernels never sum them).
    pub fn decode(self, bytes: &[u8]) -> [f32; 4] {
        let mut v = [0.0f32; 4];
        let n = self.channels as usize;
        let word = || u32::from_le_bytes([bytes[0], bytes[1], bytes[2], bytes[3]]);
        match self.encoding {
            Uint(b) | Sint(b) | Unorm(b) | Snorm(b) => {
                let size = b as usize / 8;
                for (c, out) in v.iter_mut().enumerate().take(n) {
                    let mut raw = [0u8; 4];
                    raw[..size].copy_from_slice(&bytes[c * size..(c + 1) * size]);
                    let u = u32::from_le_bytes(raw);
                    // Sign-extend from b bits.
                    let s = ((u << (32 - b)) as i32) >> (32 - b);
                    *out = match self.encoding {
                        Uint(_) => u as f32,
                        Sint(_) => s as f32,
                        Unorm(_) => (u as f64 / ((1u64 << b) - 1) as f64) as f32,
                        _ => ((s as f64) / ((1i64 << (b - 1)) - 1) as f64).max(-1.0) as f32,
                    };
                }
            }
            Rgb10A2 => {
                let w = word();
                for (c, out) in v.iter_mut().enumerate().take(3) {
                    *out = (((w >> (10 * c)) & 0x3FF) as f64 / 1023.0) as f32;
                }
                v[3] = (w >> 30) as f32 / 3.0;
            }
            Rg11B10f => {
                let w = word();
                v[0] = small_float(w & 0x7FF, 6);
                v[1] = small_float((w >> 11) & 0x7FF, 6);
                v[2] = small_float(w >> 22, 5);
            }
            Rgb9e5 => {
                let w = word();
                let scale = 2f64.powi((w >> 27) as i32 - 15 - 9);
                for (c, out) in v.iter_mut().enumerate().take(3) {
                    *out = (((w >> (9 * c)) & 0x1FF) as f64 * scale) as f32;
                }
            }
            Srgb8 => {
                for (c, out) in v.iter_mut().enumerate().take(3) {
                    *out = srgb_to_linear(bytes[c]);
                }
                v[3] = (bytes[3] as f64 / 255.0) as f32;
            }
            Bc1 | Bc4 | Bc5 | Bc7 | Etc2 | Astc4x4 => {
                panic!("{self:?} is block-compressed: use decode_blocks")
            }
        }
        v
    }
}

/// An unsigned float with a 5-bit exponent (bias 15) and `mantissa_bits` of mantissa, no
/// sign (Vulkan's 11- and 10-bit floats).
fn small_float(bits: u32, mantissa_bits: u32) -> f32 {
    let e = (bits >> mantissa_bits) as i32;
    let m = (bits & ((1 << mantissa_bits) - 1)) as f64 / (1 << mantissa_bits) as f64;
    match e {
        0 => (2f64.powi(-14) * m) as f32,
        31 => panic!("an Inf/NaN 11/10-bit float: the input must be patched"),
        _ => (2f64.powi(e - 15) * (1.0 + m)) as f32,
    }
}

/// Vulkan's sRGB EOTF of an 8-bit code.
fn srgb_to_linear(c: u8) -> f32 {
    let c = c as f64 / 255.0;
    let l = if c <= 0.04045 {
        c / 12.92
    } else {
        ((c + 0.055) / 1.055).powf(2.4)
    };
    l as f32
}

/// The 16 KB input of the uncompressed formats: the shared input with, in every 32-bit word,
/// the exponent of each 11/10-bit float of `B10G11R11_UFLOAT_PACK32` that would be all ones
/// (infinity or NaN) lowered by 16. Every other view of these bytes is finite whatever the
/// bits (integers, normalised, `RGB10_A2`, `RGB9_E5` — which has no infinity — and sRGB).
pub fn input() -> Vec<u8> {
    let bytes = patch(data::input());
    debug_assert_eq!(bytes.len(), INPUT_BYTES);
    bytes
}

/// [`input`]'s patch, applied to any bytes.
pub fn patch(mut bytes: Vec<u8>) -> Vec<u8> {
    for w in bytes.chunks_exact_mut(4) {
        let mut word = u32::from_le_bytes([w[0], w[1], w[2], w[3]]);
        // (exponent's lowest bit, its top bit) of R (bits 6..10), G (17..21), B (27..31).
        for (low, top) in [(6, 10), (17, 21), (27, 31)] {
            if (word >> low) & 0x1F == 0x1F {
                word &= !(1 << top);
            }
        }
        w.copy_from_slice(&word.to_le_bytes());
    }
    bytes
}

/// `own` (data a family derived from the shared input) changed the way `input` differs from
/// the shared input, byte for byte, repeating: so the reference that `--fault reference`
/// computes from a corrupted input is corrupted too.
pub fn follow(input: &[u8], own: &[u8]) -> Vec<u8> {
    let canonical = data::input();
    own.iter()
        .enumerate()
        .map(|(i, b)| b ^ input[i % input.len()] ^ canonical[i % canonical.len()])
        .collect()
}

/// A deterministic stream of 64-bit values (splitmix64) for the generated blocks.
struct Stream(u64);

impl Stream {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }
}

/// A BC4 block (also each half of BC5): endpoints `r0 > r1` and every 3-bit index 0 or 1,
/// so each texel is exactly an endpoint, `r/255` (the interpolated values are exact only
/// within a tolerance in Vulkan, and differ between decoders).
fn bc4_block(s: &mut Stream) -> [u8; 8] {
    let r = s.next();
    let (mut a, mut b) = ((r & 0xFF) as u8, ((r >> 8) & 0xFF) as u8);
    if a == b {
        b = a.wrapping_add(97);
    }
    if a < b {
        std::mem::swap(&mut a, &mut b);
    }
    let mut indices = 0u64;
    for t in 0..16 {
        indices |= ((r >> (16 + t)) & 1) << (3 * t);
    }
    let mut block = [0u8; 8];
    block[0] = a;
    block[1] = b;
    block[2..].copy_from_slice(&indices.to_le_bytes()[..6]);
    block
}

/// The 8×8 blocks of a `SIZE`×`SIZE` texture of a compressed format, row by row, generated
/// so that the decode is known exactly:
/// - BC1: four-colour blocks (`c0 > c1`), every index 0 or 1: each texel is an endpoint,
///   RGB565 widened by bit replication, alpha 1;
/// - BC4, BC5: see [`bc4_block`];
/// - BC7: random blocks in every mode (the first byte never 0, the reserved mode 8); BC7's
///   decode is integer and exact;
/// - ETC2: random colour blocks (all modes, integer decode) with an EAC alpha of non-zero
///   multiplier;
/// - ASTC 4×4: LDR void-extent blocks, one random UNORM16 colour per block.
pub fn blocks(format: ExtFormat) -> Vec<u8> {
    let mut s = Stream(0x5EED_0000 + format.bytes() as u64 * 31 + format.channels as u64);
    let count = (SIZE / 4) * (SIZE / 4);
    let mut out = Vec::new();
    for _ in 0..count {
        match format.encoding {
            Bc1 => {
                let r = s.next();
                let (mut c0, mut c1) = ((r & 0xFFFF) as u16, ((r >> 16) & 0xFFFF) as u16);
                if c0 == c1 {
                    c1 ^= 0x8410;
                }
                if c0 < c1 {
                    std::mem::swap(&mut c0, &mut c1);
                }
                let mut indices = 0u32;
                for t in 0..16 {
                    indices |= (((r >> (32 + t)) & 1) as u32) << (2 * t);
                }
                out.extend_from_slice(&c0.to_le_bytes());
                out.extend_from_slice(&c1.to_le_bytes());
                out.extend_from_slice(&indices.to_le_bytes());
            }
            Bc4 => out.extend_from_slice(&bc4_block(&mut s)),
            Bc5 => {
                out.extend_from_slice(&bc4_block(&mut s));
                out.extend_from_slice(&bc4_block(&mut s));
            }
            Bc7 => {
                let mut b = [0u8; 16];
                b[..8].copy_from_slice(&s.next().to_le_bytes());
                b[8..].copy_from_slice(&s.next().to_le_bytes());
                if b[0] == 0 {
                    b[0] = 0x40; // mode 6
                }
                out.extend_from_slice(&b);
            }
            Etc2 => {
                let mut b = [0u8; 16];
                b[..8].copy_from_slice(&s.next().to_le_bytes());
                b[8..].copy_from_slice(&s.next().to_le_bytes());
                if b[1] & 0xF0 == 0 {
                    b[1] |= 0x30; // alpha multiplier 3
                }
                out.extend_from_slice(&b);
            }
            Astc4x4 => {
                // Void-extent LDR: 0x1FC, HDR bit 0, two reserved 1s, extents all ones.
                out.extend_from_slice(&[0xFC, 0xFD, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF]);
                out.extend_from_slice(&s.next().to_le_bytes());
            }
            _ => panic!("{format:?} is not block-compressed"),
        }
    }
    out
}

/// The `SIZE`×`SIZE` texels, row-major, that `blocks` decode to, each as Vulkan returns it
/// (BC and ETC2 by the `texture2ddecoder` crate, whose 8-bit results are exact for these
/// blocks; ASTC void-extent colours as UNORM16).
pub fn decode_blocks(format: ExtFormat, blocks: &[u8]) -> Vec<[f32; 4]> {
    let per_row = (SIZE / 4) as usize;
    let size = SIZE as usize;
    let mut texels = vec![[0.0f32; 4]; size * size];
    for (i, block) in blocks.chunks_exact(format.bytes() as usize).enumerate() {
        let mut px = [0u32; 16];
        let decoded: [[f32; 4]; 16] = if format.encoding == Astc4x4 {
            let c = |k: usize| u16::from_le_bytes([block[8 + 2 * k], block[9 + 2 * k]]);
            let rgba = [0, 1, 2, 3].map(|k| (c(k) as f64 / 65535.0) as f32);
            [rgba; 16]
        } else {
            match format.encoding {
                Bc1 => texture2ddecoder::decode_bc1a_block(block, &mut px),
                Bc4 => texture2ddecoder::decode_bc4_block(block, &mut px),
                Bc5 => texture2ddecoder::decode_bc5_block(block, &mut px),
                Bc7 => texture2ddecoder::decode_bc7_block(block, &mut px),
                Etc2 => texture2ddecoder::decode_etc2_rgba8_block(block, &mut px),
                _ => unreachable!(),
            }
            // The crate writes 0xAARRGGBB.
            px.map(|p| [16, 8, 0, 24].map(|shift| (((p >> shift) & 0xFF) as f64 / 255.0) as f32))
        };
        let (bx, by) = (i % per_row, i / per_row);
        for (t, v) in decoded.iter().enumerate() {
            let (x, y) = (bx * 4 + t % 4, by * 4 + t / 4);
            texels[y * size + x] = *v;
        }
    }
    texels
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_and_formats_are_unique() {
        let names: std::collections::HashSet<String> = ALL.iter().map(|f| f.name()).collect();
        let vks: std::collections::HashSet<String> = ALL.iter().map(|f| f.vk_name()).collect();
        assert_eq!((names.len(), vks.len()), (ALL.len(), ALL.len()));
        assert_eq!(f(Uint(8), 4).vk_name(), "R8G8B8A8_UINT");
        assert_eq!(f(Snorm(16), 2).name(), "RG16_SNORM");
    }

    #[test]
    fn decoding_follows_vulkan() {
        let sn = f(Snorm(8), 2);
        assert_eq!(sn.decode(&[0x80, 0x7F]), [-1.0, 1.0, 0.0, 0.0]);
        assert_eq!(f(Sint(16), 1).decode(&[0xFE, 0xFF]), [-2.0, 0.0, 0.0, 0.0]);
        assert_eq!(
            f(Uint(32), 1).decode(&0xFFFF_FFFFu32.to_le_bytes())[0],
            4294967296.0
        );
        assert_eq!(f(Unorm(16), 1).decode(&[0xFF, 0xFF])[0], 1.0);
        // R = 1.0 (e 15, m 0), G = 2.0 (e 16), B = 0.5 (10-bit: e 14).
        let w: u32 = (15 << 6) | ((16 << 6) << 11) | ((14 << 5) << 22);
        assert_eq!(
            f(Rg11B10f, 3).decode(&w.to_le_bytes())[..3],
            [1.0, 2.0, 0.5]
        );
        // Shared exponent 15 + 9 - 0: mantissa 1 → 1.0; 256 → 256.
        let w: u32 = 1 | (256 << 9) | (24 << 27);
        assert_eq!(
            f(Rgb9e5, 3).decode(&w.to_le_bytes())[..3],
            [1.0, 256.0, 0.0]
        );
        let srgb = f(Srgb8, 4).decode(&[0, 255, 188, 51]);
        assert_eq!(srgb[..2], [0.0, 1.0]);
        assert!((srgb[2] - 0.5029).abs() < 1e-3 && srgb[3] == 0.2);
        let w: u32 = 1023 | (3 << 30);
        assert_eq!(f(Rgb10A2, 4).decode(&w.to_le_bytes()), [1.0, 0.0, 0.0, 1.0]);
    }

    #[test]
    fn every_texel_of_the_input_is_finite() {
        let bytes = input();
        for fmt in ExtFormat::uncompressed() {
            for t in bytes.chunks_exact(fmt.bytes() as usize) {
                assert!(fmt.decode(t).iter().all(|v| v.is_finite()), "{fmt:?}");
            }
        }
    }

    #[test]
    fn generated_blocks_decode_to_known_texels() {
        for fmt in ALL.into_iter().filter(|f| f.is_compressed()) {
            let b = blocks(fmt);
            assert_eq!(b.len() as u32, (SIZE / 4) * (SIZE / 4) * fmt.bytes());
            let t = decode_blocks(fmt, &b);
            // Neighbouring texels differ somewhere (a wrong texel changes the sums).
            let differ = (1..t.len()).filter(|&i| t[i] != t[i - 1]).count();
            assert!(differ > t.len() / 4 || fmt.encoding == Astc4x4, "{fmt:?}");
        }
        // BC4 texels are exact endpoints: one of the block's two bytes / 255.
        let b = blocks(f(Bc4, 1));
        let t = decode_blocks(f(Bc4, 1), &b);
        let ends = [b[0] as f32 / 255.0, b[1] as f32 / 255.0];
        assert!(ends.contains(&t[0][0]) && ends.contains(&t[3 * 32 + 3][0]));
    }
}
