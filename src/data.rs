//! Deterministic input data, format decoding, and the CPU references that `--verify` compares with.

use crate::catalog::{ChannelType, Family, Format, Pattern, Shape, TestCase};

/// Size of the input every test reads from (the original's 16 KB working set).
pub const INPUT_BYTES: usize = 16 * 1024;
/// Width and height of the test textures.
pub const TEXTURE_SIZE: u32 = 32;

/// The 16 KB of input, identical on every run and machine.
///
/// Every 32-bit word is a normal float in ±[2^-6, 16); its upper and lower 16-bit halves are
/// normal half floats in ±[1, 4) and ±[2^-3, 16), so every view of the same bytes (R8 … RGBA32F,
/// raw words) reads finite, non-zero, non-denormal values, and neighbouring channels differ, so
/// a swapped or dropped channel changes the sums.
pub fn input() -> Vec<u8> {
    let mut state = 0x9E37_79B9_7F4A_7C15u64;
    let mut out = Vec::with_capacity(INPUT_BYTES);
    for _ in 0..INPUT_BYTES / 4 {
        let r = splitmix64(&mut state);
        let sign = (r & 1) as u32;
        let exp32 = 121 + ((r >> 1) % 10) as u32; // 2^-6 .. 2^3
        let mant7 = ((r >> 8) & 0x7F) as u32;
        let half_sign = ((r >> 16) & 1) as u32;
        let half_exp = 12 + ((r >> 17) % 7) as u32; // 2^-3 .. 2^3
        let half_mant = ((r >> 24) & 0x3FF) as u32;
        let low = (half_sign << 15) | (half_exp << 10) | half_mant;
        let word = (sign << 31) | (exp32 << 23) | (mant7 << 16) | low;
        out.extend_from_slice(&word.to_le_bytes());
    }
    out
}

fn splitmix64(state: &mut u64) -> u64 {
    *state = state.wrapping_add(0x9E37_79B9_7F4A_7C15);
    let mut z = *state;
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// Decodes one element of `format` at `bytes[0..]` into its channels (unused channels 0).
pub fn decode(format: Format, bytes: &[u8]) -> [f32; 4] {
    let mut v = [0.0f32; 4];
    for (c, out) in v.iter_mut().enumerate().take(format.channels() as usize) {
        *out = match format.channel_type() {
            ChannelType::Unorm8 => bytes[c] as f32 / 255.0,
            ChannelType::Float16 => {
                half::f16::from_le_bytes([bytes[2 * c], bytes[2 * c + 1]]).to_f32()
            }
            ChannelType::Float32 => f32::from_le_bytes(word_bytes(bytes, 4 * c)),
        };
    }
    v
}

fn word_bytes(bytes: &[u8], at: usize) -> [u8; 4] {
    [bytes[at], bytes[at + 1], bytes[at + 2], bytes[at + 3]]
}

fn word(input: &[u8], index: usize) -> f32 {
    f32::from_le_bytes(word_bytes(input, 4 * index))
}

/// Widens a load of `width` channels to four the way the kernels do (.xxxx, .xyxy, .xyzx, .xyzw).
pub fn widen(v: [f32; 4], width: u32) -> [f32; 4] {
    match width {
        1 => [v[0]; 4],
        2 => [v[0], v[1], v[0], v[1]],
        3 => [v[0], v[1], v[2], v[0]],
        _ => v,
    }
}

/// Start element of thread `local` in a 1-D kernel (mirrors `glsl/common.glsl`).
pub fn start_1d(pattern: Pattern, local: u32) -> u32 {
    match pattern {
        Pattern::Uniform | Pattern::UniformBroadcast => 0,
        Pattern::Linear => local,
        Pattern::Random => local.wrapping_mul(0x3504_f333) & 15,
    }
}

/// Start texel of thread `(x, y)` in a 2-D kernel (mirrors `glsl/common.glsl`).
pub fn start_2d(pattern: Pattern, x: u32, y: u32) -> (u32, u32) {
    match pattern {
        Pattern::Uniform | Pattern::UniformBroadcast => (0, 0),
        Pattern::Linear => (x, y),
        Pattern::Random => (
            x.wrapping_mul(0x3504_f333) & 4,
            y.wrapping_mul(0x3504_f333) & 4,
        ),
    }
}

/// What one thread of the reference computes: its sum, and the sum of absolute terms
/// (the scale that tolerances are relative to).
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct ThreadSum {
    /// The vec4 the kernel writes.
    pub sum: [f32; 4],
    /// Σ|term| per component.
    pub magnitude: [f32; 4],
}

impl ThreadSum {
    fn add(&mut self, v: [f32; 4]) {
        for ((sum, magnitude), x) in self.sum.iter_mut().zip(&mut self.magnitude).zip(v) {
            *sum += x;
            *magnitude += x.abs();
        }
    }
}

/// The value the kernel reads at 1-D index `i` (element, or raw byte address) of `family`.
fn load_1d(family: Family, input: &[u8], index: u32) -> [f32; 4] {
    let i = index as usize;
    match family {
        Family::TypedBuffer(f) | Family::StorageTexelBuffer(f) => {
            decode(f, &input[i * f.bytes() as usize..])
        }
        // std430 vec3: 16-byte stride; scalar vec3: 12-byte stride.
        Family::StructuredBuffer { width: 3 } => [
            word(input, 4 * i),
            word(input, 4 * i + 1),
            word(input, 4 * i + 2),
            0.0,
        ],
        Family::PackedFloat3 => [
            word(input, 3 * i),
            word(input, 3 * i + 1),
            word(input, 3 * i + 2),
            0.0,
        ],
        Family::SmallType { bits: 8 } => [input[i] as f32, 0.0, 0.0, 0.0],
        Family::SmallType { .. } => decode(Format::R16f, &input[2 * i..]),
        Family::PushConstant => {
            let e = i % 6;
            [
                word(input, 4 * e),
                word(input, 4 * e + 1),
                word(input, 4 * e + 2),
                word(input, 4 * e + 3),
            ]
        }
        Family::RawBuffer { words, .. } => {
            let mut v = [0.0; 4];
            for (w, out) in v.iter_mut().enumerate().take(words as usize) {
                *out = word(input, i / 4 + w);
            }
            v
        }
        Family::StructuredBuffer { .. }
        | Family::BufferReference { .. }
        | Family::ConstantBuffer
        | Family::SharedMemory => {
            let (_, width) = family.template_and_width();
            let mut v = [0.0; 4];
            for (c, out) in v.iter_mut().enumerate().take(width as usize) {
                *out = word(input, i * width as usize + c);
            }
            v
        }
        _ => unreachable!("{family:?} is not a 1-D family"),
    }
}

/// The texel at `(x, y)` of the test texture of `format` (REPEAT addressing).
pub fn texel(format: Format, input: &[u8], x: u32, y: u32) -> [f32; 4] {
    let (x, y) = (x % TEXTURE_SIZE, y % TEXTURE_SIZE);
    let offset = ((y * TEXTURE_SIZE + x) * format.bytes()) as usize;
    decode(format, &input[offset..])
}

/// The CPU reference: what each of the 256 threads of a workgroup sums (every group is alike,
/// since start addresses depend only on the thread's index in its group).
pub fn reference(test: &TestCase, input: &[u8]) -> Vec<ThreadSum> {
    let (_, width) = test.family.template_and_width();
    (0..256u32)
        .map(|local| {
            let mut acc = ThreadSum::default();
            match test.family {
                Family::TextureLoad(f) | Family::TextureSample(f, _) | Family::StorageImage(f) => {
                    // Texel centres with nearest or bilinear filtering both return the texel.
                    let (sx, sy) = start_2d(test.pattern, local % 16, local / 16);
                    for y in 0..16 {
                        for x in 0..16 {
                            acc.add(widen(texel(f, input, sx + x, sy + y), width));
                        }
                    }
                }
                Family::Control(Shape::OneD) => {
                    let start = start_1d(test.pattern, local);
                    for i in 0..256 {
                        acc.add([(start + i) as f32; 4]);
                    }
                }
                Family::Control(Shape::TwoD) => {
                    let (sx, sy) = start_2d(test.pattern, local % 16, local / 16);
                    for y in 0..16 {
                        for x in 0..16 {
                            acc.add([((sx + x) + 32 * (sy + y)) as f32; 4]);
                        }
                    }
                }
                Family::RawBuffer { words, .. } => {
                    let stride = 4 * words;
                    let start = start_1d(test.pattern, local);
                    for i in 0..256 {
                        let address = start * stride + test.family.read_start() + i * stride;
                        acc.add(widen(load_1d(test.family, input, address), width));
                    }
                }
                _ => {
                    let start = start_1d(test.pattern, local);
                    for i in 0..256 {
                        acc.add(widen(load_1d(test.family, input, start + i), width));
                    }
                }
            }
            acc
        })
        .collect()
}

/// Relative tolerance of a family's sums against the reference, as a fraction of Σ|term|.
///
/// Buffer and texture loads of floats are exact; UNORM8 → float conversion may differ from
/// `c / 255` in the last bit; bilinear filtering at a texel centre has weight exactly 1 but
/// hardware filters at reduced precision.
pub fn tolerance(family: Family) -> f32 {
    match family {
        Family::TextureSample(_, crate::catalog::Filter::Bilinear) => 1e-3,
        _ => 1e-5,
    }
}

/// The first thread and component where `output` differs from `reference`.
#[derive(Clone, Debug, PartialEq)]
pub struct Mismatch {
    /// Index of the thread in the dispatch.
    pub thread: usize,
    /// Component (0 = x … 3 = w).
    pub component: usize,
    /// The reference value.
    pub expected: f32,
    /// What the GPU wrote.
    pub got: f32,
    /// How many of the dispatch's threads differ.
    pub count: usize,
}

impl std::fmt::Display for Mismatch {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "thread {} .{}: expected {}, got {} ({} threads differ)",
            self.thread,
            ["x", "y", "z", "w"][self.component],
            self.expected,
            self.got,
            self.count
        )
    }
}

/// Compares a dispatch's output (one vec4 per thread) with the per-group reference.
pub fn compare(
    family: Family,
    reference: &[ThreadSum],
    output: &[[f32; 4]],
) -> Result<(), Mismatch> {
    let rel = tolerance(family);
    let mut first: Option<Mismatch> = None;
    let mut count = 0;
    for (thread, got) in output.iter().enumerate() {
        let want = &reference[thread % reference.len()];
        let bad = (0..4).find(|&c| {
            let tol = rel * want.magnitude[c].max(1.0);
            // Written so that a NaN from the GPU counts as a mismatch.
            #[allow(clippy::neg_cmp_op_on_partial_ord)]
            let bad = !((got[c] - want.sum[c]).abs() <= tol);
            bad
        });
        if let Some(c) = bad {
            count += 1;
            first.get_or_insert(Mismatch {
                thread,
                component: c,
                expected: want.sum[c],
                got: got[c],
                count: 0,
            });
        }
    }
    match first {
        None => Ok(()),
        Some(m) => Err(Mismatch { count, ..m }),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::catalog::original_suite;

    #[test]
    fn every_view_of_the_input_is_finite_and_normal() {
        let data = input();
        assert_eq!(data.len(), INPUT_BYTES);
        for f in Format::ALL {
            for e in 0..INPUT_BYTES / f.bytes() as usize {
                for (c, v) in decode(f, &data[e * f.bytes() as usize..])
                    .iter()
                    .enumerate()
                {
                    if c < f.channels() as usize && f.channel_type() != ChannelType::Unorm8 {
                        assert!(v.is_normal(), "{f:?} element {e} channel {c} = {v}");
                    }
                }
            }
        }
    }

    #[test]
    fn channels_differ_so_swaps_are_visible() {
        let data = input();
        let t = decode(Format::Rgba8, &data[..]);
        assert!(t[0] != t[1] && t[1] != t[2]);
        let t = decode(Format::Rgba16f, &data[8..]);
        assert!(t[0] != t[1] && t[2] != t[3]);
    }

    #[test]
    fn unorm_and_half_decode() {
        assert_eq!(decode(Format::Rg8, &[255, 0]), [1.0, 0.0, 0.0, 0.0]);
        assert_eq!(decode(Format::R16f, &[0x00, 0x3C]), [1.0, 0.0, 0.0, 0.0]);
        assert_eq!(
            decode(Format::R32f, &2.5f32.to_le_bytes()),
            [2.5, 0.0, 0.0, 0.0]
        );
    }

    #[test]
    fn patterns_follow_the_spec() {
        assert_eq!(start_1d(Pattern::Uniform, 7), 0);
        assert_eq!(start_1d(Pattern::Linear, 7), 7);
        assert!((0..256).all(|i| start_1d(Pattern::Random, i) < 16));
        assert_eq!(start_1d(Pattern::Random, 1), 0x3504_f333 & 15);
        assert_eq!(start_2d(Pattern::Random, 1, 0), (0x3504_f333 & 4, 0));
    }

    #[test]
    fn reference_of_the_uniform_pattern_is_the_same_for_every_thread() {
        for t in original_suite()
            .iter()
            .filter(|t| t.pattern == Pattern::Uniform)
        {
            let r = reference(t, &input());
            assert!(r.iter().all(|s| s.sum == r[0].sum), "{}", t.name());
            assert!(r[0].sum.iter().all(|v| *v != 0.0), "{}", t.name());
        }
    }

    #[test]
    fn compare_detects_a_single_wrong_component() {
        let t = original_suite()[8];
        let r = reference(&t, &input());
        let mut out: Vec<[f32; 4]> = (0..512).map(|i| r[i % 256].sum).collect();
        assert!(compare(t.family, &r, &out).is_ok());
        out[300][2] += 0.5;
        let m = compare(t.family, &r, &out).unwrap_err();
        assert_eq!((m.thread, m.component, m.count), (300, 2, 1));
    }
}
