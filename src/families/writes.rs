//! What the write families share: where each store or atomic lands and what it writes
//! (mirroring `glsl/write.glsl` and the atomic templates), the CPU model of the memory one
//! dispatch leaves behind, and the `--verify` steps — clear, dispatch, read back, compare.

use super::{Checked, Dispatch, Shared};
use crate::catalog::Pattern;
use crate::data::{self, Mismatch};
use crate::format::{ChannelType, Format};
use crate::resources::{record_clear, record_full_barrier, record_readback, Buffer, Image, Memory};
use crate::runner::Fault;
use anyhow::Result;
use ash::vk;

/// Stores (or atomics) each thread performs: 256, or 16×16 in the 2-D kernels.
pub const PER_THREAD: u32 = 256;
/// Elements of every store and atomic target (16 KB of `vec4` at most); 32×32 for images.
pub const ELEMENTS: u32 = 1024;
/// Elements of the shared-memory tables (`groupshared`): 8 KB of `vec4`, within the 16 KB
/// of workgroup memory every device offers next to `common.glsl`'s 4 KB.
pub const SHARED_ELEMENTS: u32 = 512;

/// How a store kernel computes its values (`KIND` in `glsl/write.glsl`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    /// Odd multiples of 1/16 in [-32, 64): exact in half and float.
    Float,
    /// Four bytes stepping together, stored to UNORM8 channels.
    Unorm8,
    /// 32-bit unsigned integers, always odd.
    Uint,
}

/// How one channel of written memory is stored.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Channel {
    Unorm8,
    Half,
    Float,
    Uint,
    Uint64,
}

impl Channel {
    /// Bytes per channel.
    pub const fn bytes(self) -> usize {
        match self {
            Channel::Unorm8 => 1,
            Channel::Half => 2,
            Channel::Float | Channel::Uint => 4,
            Channel::Uint64 => 8,
        }
    }

    /// The channel's bits at the start of `b`.
    fn read(self, b: &[u8]) -> u64 {
        let mut raw = [0u8; 8];
        raw[..self.bytes()].copy_from_slice(&b[..self.bytes()]);
        u64::from_le_bytes(raw)
    }

    /// The bits of `value`, a number the kernels store exactly (for UNORM8: the byte).
    fn encode(self, value: f64) -> u64 {
        match self {
            Channel::Unorm8 | Channel::Uint | Channel::Uint64 => value as u64,
            Channel::Half => half::f16::from_f64(value).to_bits() as u64,
            Channel::Float => (value as f32).to_bits() as u64,
        }
    }

    /// The bits as a reader wants them: a number, or a byte and its UNORM value.
    fn show(self, raw: u64) -> String {
        match self {
            Channel::Unorm8 => format!("{raw} ({:.4})", raw as f64 / 255.0),
            Channel::Half => half::f16::from_bits(raw as u16).to_string(),
            Channel::Float => f32::from_bits(raw as u32).to_string(),
            Channel::Uint | Channel::Uint64 => raw.to_string(),
        }
    }

    /// Whether `got` is what the kernel should have left: exactly, except that a float stored
    /// to UNORM8 may round to either neighbouring byte (Vulkan allows both).
    fn matches(self, want: u64, got: u64) -> bool {
        match self {
            Channel::Unorm8 => want.abs_diff(got) <= 1,
            _ => want == got,
        }
    }
}

/// The layout of one element (texel) of written memory.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Layout {
    pub channel: Channel,
    pub channels: usize,
}

impl Layout {
    /// Bytes per element.
    pub const fn bytes(self) -> usize {
        self.channel.bytes() * self.channels
    }
}

/// How the store kernels write a texel format: the values they compute and how it stores them.
pub fn format_layout(f: Format) -> (Kind, Layout) {
    let (kind, channel) = match f.channel_type() {
        ChannelType::Unorm8 => (Kind::Unorm8, Channel::Unorm8),
        ChannelType::Float16 => (Kind::Float, Channel::Half),
        ChannelType::Float32 => (Kind::Float, Channel::Float),
    };
    let layout = Layout {
        channel,
        channels: f.channels() as usize,
    };
    (kind, layout)
}

/// Written memory: the raw bits of each channel of each element (unused channels 0).
pub type Contents = Vec<[u64; 4]>;

/// Start element of thread `local` of a 1-D store kernel, also its value seed.
pub fn store_start_1d(p: Pattern, local: u32) -> u32 {
    match p {
        Pattern::Linear => local,
        Pattern::Random => local.wrapping_mul(0x3504_f333) & 255,
        _ => 0,
    }
}

/// Element that a 1-D store kernel thread starting at `start` stores at iteration `i`, in a
/// target of `elements` elements.
pub fn store_element_1d(p: Pattern, start: u32, i: u32, elements: u32) -> u32 {
    let stride = if p == Pattern::Uniform { 1 } else { 256 };
    (start + i * stride) & (elements - 1)
}

/// Start texel of thread `(x, y)` of a 2-D (16×16) store kernel.
pub fn store_start_2d(p: Pattern, x: u32, y: u32) -> (u32, u32) {
    match p {
        Pattern::Linear => (x, y),
        Pattern::Random => {
            let q = (y * 16 + x).wrapping_mul(0x3504_f333) & 255;
            (q & 15, q >> 4)
        }
        _ => (0, 0),
    }
}

/// Texel that a 2-D store kernel thread starting at `start` stores at iteration `(x, y)`.
pub fn store_texel_2d(p: Pattern, start: (u32, u32), x: u32, y: u32) -> (u32, u32) {
    let stride = if p == Pattern::Uniform { 1 } else { 16 };
    ((start.0 + x * stride) & 31, (start.1 + y * stride) & 31)
}

/// The four channel values a store kernel stores at iteration `i` from `seed` (see
/// `VALUE_INIT` / `VALUE_STEP` in `glsl/write.glsl`): numbers, or bytes for UNORM8.
pub fn store_value(kind: Kind, seed: u32, i: u32) -> [f64; 4] {
    match kind {
        Kind::Float => {
            let base = (seed & 63) as f64 - 32.0;
            [0.0625, 0.3125, 0.5625, 0.8125].map(|c| base + c + i as f64 * 0.125)
        }
        Kind::Unorm8 => {
            let packed = seed
                .wrapping_mul(0x0103_0507)
                .wrapping_add(0x8060_4020)
                .wrapping_add(i.wrapping_mul(0x0101_0101));
            packed.to_le_bytes().map(f64::from)
        }
        Kind::Uint => {
            let k = [0x9E37_79B1u32, 0x85EB_CA77, 0xC2B2_AE3D, 0x27D4_EB2F];
            let step = [0x2_0002u32, 0x4_0004, 0x6_0006, 0x8_0008];
            [0, 1, 2, 3].map(|c| {
                ((seed.wrapping_mul(k[c]) | 1).wrapping_add(i.wrapping_mul(step[c]))) as f64
            })
        }
    }
}

/// One store of a group: thread, iteration, element, value.
#[derive(Clone, Copy, Debug)]
pub struct Store {
    pub thread: u32,
    pub iteration: u32,
    pub element: usize,
    pub value: [f64; 4],
}

/// Every store of one group of a 1-D store kernel over `elements` elements.
pub fn stores_1d(p: Pattern, kind: Kind, elements: u32) -> Vec<Store> {
    let mut out = Vec::with_capacity((256 * PER_THREAD) as usize);
    for thread in 0..256 {
        let start = store_start_1d(p, thread);
        for iteration in 0..PER_THREAD {
            out.push(Store {
                thread,
                iteration,
                element: store_element_1d(p, start, iteration, elements) as usize,
                value: store_value(kind, start, iteration),
            });
        }
    }
    out
}

/// Every store of one group of a 2-D store kernel over a 32×32 image (row-major elements).
pub fn stores_2d(p: Pattern, kind: Kind) -> Vec<Store> {
    let mut out = Vec::with_capacity((256 * PER_THREAD) as usize);
    for thread in 0..256 {
        let start = store_start_2d(p, thread % 16, thread / 16);
        let seed = start.1 * 16 + start.0;
        for y in 0..16 {
            for x in 0..16 {
                let (tx, ty) = store_texel_2d(p, start, x, y);
                let iteration = y * 16 + x;
                out.push(Store {
                    thread,
                    iteration,
                    element: (ty * 32 + tx) as usize,
                    value: store_value(kind, seed, iteration),
                });
            }
        }
    }
    out
}

/// The memory `stores` leave in `elements` elements cleared to zero: each element holds the
/// value of its last store (the patterns make that the same whatever order threads run in, as
/// a unit test checks). Every group stores the same, so one group stands for all.
pub fn final_contents(stores: &[Store], elements: u32, layout: Layout) -> Contents {
    let mut out = vec![[0u64; 4]; elements as usize];
    let mut ordered: Vec<&Store> = stores.iter().collect();
    ordered.sort_by_key(|s| (s.iteration, s.thread));
    for s in ordered {
        let element = &mut out[s.element];
        for (raw, value) in element.iter_mut().zip(s.value).take(layout.channels) {
            *raw = layout.channel.encode(value);
        }
    }
    out
}

/// Whether every element's final value is the same for any interleaving of the threads:
/// the last store of each thread that writes an element must carry the same value.
#[cfg(test)]
pub fn last_store_is_unique(stores: &[Store]) -> bool {
    let mut last: std::collections::HashMap<(usize, u32), (u32, [f64; 4])> = Default::default();
    for s in stores {
        let e = last
            .entry((s.element, s.thread))
            .or_insert((s.iteration, s.value));
        if s.iteration >= e.0 {
            *e = (s.iteration, s.value);
        }
    }
    let mut per_element: std::collections::HashMap<usize, [f64; 4]> = Default::default();
    last.iter()
        .all(|(&(element, _), &(_, value))| *per_element.entry(element).or_insert(value) == value)
}

/// The atomic operation of a test.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Atomic {
    /// `atomicAdd` of a 32-bit uint, result unused.
    Add,
    /// `atomicAdd` of a 32-bit uint, every result summed and kept.
    AddReturn,
    /// `atomicCompSwap(mem, 0, element | 0x80000000)`: the first swap wins.
    CompSwap,
    /// `atomicAdd` of a 64-bit uint.
    Add64,
    /// `atomicAdd` of a float.
    FloatAdd,
}

impl Atomic {
    /// How the target stores one element.
    pub const fn layout(self) -> Layout {
        let channel = match self {
            Atomic::Add64 => Channel::Uint64,
            Atomic::FloatAdd => Channel::Float,
            _ => Channel::Uint,
        };
        Layout {
            channel,
            channels: 1,
        }
    }
}

/// The memory one dispatch of `groups` groups of an atomic kernel leaves in `elements`
/// elements cleared to zero. Every thread `t` applies, at iteration `i`, its operation to
/// element `start(t) + i` (the load suite's start patterns: uniform 0, linear `t`, random
/// `(t * 0x3504f333) & 15`), with the value `(t & 7) + 1 + i` (64-bit: times 0x1FFFFFFFF;
/// float: 1 + ((t + i) & 1)). Sums do not depend on the order: integer sums wrap, and float
/// sums stay exact integers below 2^24 up to 32767 groups.
pub fn atomics(op: Atomic, p: Pattern, groups: u32, elements: u32) -> Contents {
    let mut sums = vec![0u64; elements as usize];
    let mut floats = vec![0u64; elements as usize];
    for t in 0..256u32 {
        let start = data::start_1d(p, t);
        for i in 0..PER_THREAD {
            let e = (start + i) as usize;
            let v = ((t & 7) + 1 + i) as u64;
            match op {
                Atomic::Add | Atomic::AddReturn => sums[e] = (sums[e] + v) & 0xFFFF_FFFF,
                Atomic::CompSwap => sums[e] = e as u64 | 0x8000_0000,
                Atomic::Add64 => sums[e] = sums[e].wrapping_add(v.wrapping_mul(0x1_FFFF_FFFF)),
                Atomic::FloatAdd => floats[e] += 1 + ((t + i) & 1) as u64,
            }
        }
    }
    let g = groups as u64;
    (0..elements as usize)
        .map(|e| {
            let raw = match op {
                Atomic::Add | Atomic::AddReturn => sums[e].wrapping_mul(g) & 0xFFFF_FFFF,
                Atomic::CompSwap => sums[e],
                Atomic::Add64 => sums[e].wrapping_mul(g),
                Atomic::FloatAdd => ((floats[e] * g) as f32).to_bits() as u64,
            };
            [raw, 0, 0, 0]
        })
        .collect()
}

/// Compares written memory with the reference, element by element; `unit` names the element
/// (`element`, `texel`) in the mismatch.
pub fn compare(
    layout: Layout,
    unit: &'static str,
    expected: &[[u64; 4]],
    got: &[[u64; 4]],
) -> std::result::Result<(), Mismatch> {
    let mut first: Option<Mismatch> = None;
    let mut count = 0;
    for (index, (want, got)) in expected.iter().zip(got).enumerate() {
        let bad = (0..layout.channels).find(|&c| !layout.channel.matches(want[c], got[c]));
        if let Some(c) = bad {
            count += 1;
            first.get_or_insert(Mismatch {
                unit,
                index,
                component: c,
                expected: layout.channel.show(want[c]),
                got: layout.channel.show(got[c]),
                count: 0,
            });
        }
    }
    match first {
        None => Ok(()),
        Some(m) => Err(Mismatch { count, ..m }),
    }
}

/// Decodes `bytes` into elements of `layout`.
pub fn decode(layout: Layout, bytes: &[u8]) -> Contents {
    bytes
        .chunks_exact(layout.bytes())
        .map(|e| {
            let mut v = [0u64; 4];
            for (c, out) in v.iter_mut().enumerate().take(layout.channels) {
                *out = layout.channel.read(&e[c * layout.channel.bytes()..]);
            }
            v
        })
        .collect()
}

/// A host-visible buffer of 16 KB that write targets are copied into for `--verify`.
pub fn readback_buffer<'g>(shared: &Shared<'g>) -> Result<Buffer<'g>> {
    Buffer::new(
        shared.gpu,
        "write readback",
        16 * 1024,
        vk::BufferUsageFlags::TRANSFER_DST,
        Memory::Readback,
    )
}

/// A device-local buffer of 16 KB that kernels write (with `extra` usages, e.g. texel buffer).
pub fn target_buffer<'g>(shared: &Shared<'g>, extra: vk::BufferUsageFlags) -> Result<Buffer<'g>> {
    Buffer::new(
        shared.gpu,
        "write target",
        16 * 1024,
        extra | vk::BufferUsageFlags::TRANSFER_SRC | vk::BufferUsageFlags::TRANSFER_DST,
        Memory::DeviceLocal,
    )
}

/// Where a write test's memory is.
pub enum Target<'a, 'g> {
    /// A device-local buffer, cleared to zero and copied to a read-back buffer.
    Buffer(&'a Buffer<'g>),
    /// A writable image, cleared to zero and copied to a read-back buffer.
    Image(&'a Image<'g>),
    /// A host-visible buffer that the kernel's group 0 copies its shared memory into (the
    /// shared-memory kernels): filled with ones first, so a missing copy cannot pass.
    Direct(&'a Buffer<'g>),
}

/// `--verify` of a write test: clears `target`, runs `dispatch`, reads back `elements`
/// elements of `layout` (through `readback` unless direct) and compares them with `expected`
/// (corrupted first under `--fault reference`).
#[allow(clippy::too_many_arguments)]
pub fn verify(
    shared: &Shared<'_>,
    target: Target<'_, '_>,
    readback: &Buffer<'_>,
    layout: Layout,
    unit: &'static str,
    mut expected: Contents,
    dispatch: &mut Dispatch<'_>,
) -> Checked {
    shared.gpu.submit(|d, cmd| match &target {
        Target::Buffer(b) => record_clear(d, cmd, b, 0),
        Target::Image(i) => i.record_clear(d, cmd, false),
        Target::Direct(b) => record_clear(d, cmd, b, 0xFFFF_FFFF),
    })?;
    dispatch()?;
    let bytes = expected.len() * layout.bytes();
    shared.gpu.submit(|d, cmd| match &target {
        Target::Buffer(b) => record_readback(d, cmd, b, readback, bytes as u64),
        Target::Image(i) => i.record_copy_to(d, cmd, readback),
        Target::Direct(_) => record_full_barrier(d, cmd),
    })?;
    let source = match &target {
        Target::Direct(b) => *b,
        _ => readback,
    };
    let got = decode(layout, &source.read_bytes(bytes)?);
    if shared.fault == Some(Fault::Reference) {
        for e in expected.iter_mut().step_by(7) {
            e[0] ^= 0x5A;
        }
    }
    Ok(compare(layout, unit, &expected, &got))
}

#[cfg(test)]
mod tests {
    use super::*;

    const FLOAT4: Layout = Layout {
        channel: Channel::Float,
        channels: 4,
    };

    #[test]
    fn every_store_pattern_leaves_the_same_memory_in_any_order() {
        for p in Pattern::ALL {
            for kind in [Kind::Float, Kind::Unorm8, Kind::Uint] {
                assert!(last_store_is_unique(&stores_1d(p, kind, ELEMENTS)), "{p:?}");
                assert!(last_store_is_unique(&stores_1d(p, kind, SHARED_ELEMENTS)));
                assert!(last_store_is_unique(&stores_2d(p, kind)), "{p:?} 2-D");
            }
        }
        // The check can fail: the load suite's linear pattern (element t + i) has threads
        // store different iterations' values to one element, so the winner would be a race.
        let load_style: Vec<Store> = (0..256)
            .flat_map(|t| {
                (0..PER_THREAD).map(move |i| Store {
                    thread: t,
                    iteration: i,
                    element: (t + i) as usize,
                    value: store_value(Kind::Float, t, i),
                })
            })
            .collect();
        assert!(!last_store_is_unique(&load_style));
    }

    #[test]
    fn the_patterns_cover_what_the_readme_says() {
        let touched = |s: &[Store]| {
            let mut e: Vec<usize> = s.iter().map(|s| s.element).collect();
            e.sort();
            e.dedup();
            e.len()
        };
        assert_eq!(
            touched(&stores_1d(Pattern::Uniform, Kind::Float, ELEMENTS)),
            256
        );
        assert_eq!(
            touched(&stores_1d(Pattern::Linear, Kind::Float, ELEMENTS)),
            1024
        );
        assert_eq!(
            touched(&stores_1d(Pattern::Random, Kind::Float, ELEMENTS)),
            1024
        );
        assert_eq!(touched(&stores_2d(Pattern::Uniform, Kind::Float)), 256);
        assert_eq!(touched(&stores_2d(Pattern::Linear, Kind::Float)), 1024);
        assert_eq!(touched(&stores_2d(Pattern::Random, Kind::Float)), 1024);
        // Random is a permutation of the group's threads.
        let mut starts: Vec<u32> = (0..256)
            .map(|t| store_start_1d(Pattern::Random, t))
            .collect();
        starts.sort();
        assert_eq!(starts, (0..256).collect::<Vec<_>>());
    }

    #[test]
    fn values_are_exact_in_every_format_and_never_zero() {
        for seed in 0..256 {
            for i in 0..PER_THREAD {
                for v in store_value(Kind::Float, seed, i) {
                    assert_eq!(half::f16::from_f64(v).to_f64(), v);
                    assert!(v != 0.0 && (-32.0..64.0).contains(&v));
                }
                for v in store_value(Kind::Uint, seed, i) {
                    assert_eq!(v as u32 % 2, 1);
                }
            }
        }
    }

    #[test]
    fn a_kernel_that_skips_its_last_stores_fails() {
        // As the GPU would leave it without the last iteration of every thread.
        for p in Pattern::ALL {
            let all = stores_1d(p, Kind::Float, ELEMENTS);
            let expected = final_contents(&all, ELEMENTS, FLOAT4);
            let short: Vec<Store> = all
                .iter()
                .filter(|s| s.iteration < PER_THREAD - 1)
                .copied()
                .collect();
            let got = final_contents(&short, ELEMENTS, FLOAT4);
            let m = compare(FLOAT4, "element", &expected, &got).unwrap_err();
            assert!(m.count >= 1, "{p:?}");
            assert!(compare(FLOAT4, "element", &expected, &expected).is_ok());
        }
    }

    #[test]
    fn atomic_sums_scale_with_the_groups() {
        let one = atomics(Atomic::Add, Pattern::Uniform, 1, ELEMENTS);
        // Iteration i: every thread adds (t & 7) + 1 + i to element i.
        let per_group: u64 = (0..256u64).map(|t| (t & 7) + 1).sum();
        assert_eq!(one[0][0], per_group);
        assert_eq!(one[5][0], per_group + 256 * 5);
        assert_eq!(one[300][0], 0);
        let three = atomics(Atomic::Add, Pattern::Uniform, 3, ELEMENTS);
        assert_eq!(three[5][0], 3 * one[5][0]);
        let f = atomics(Atomic::FloatAdd, Pattern::Linear, 2, ELEMENTS);
        assert_eq!(f32::from_bits(f[0][0] as u32), 2.0);
        let cas = atomics(Atomic::CompSwap, Pattern::Random, 4, ELEMENTS);
        assert_eq!(cas[3][0], 3 | 0x8000_0000);
        assert_eq!(cas[600][0], 0);
        let wide = atomics(Atomic::Add64, Pattern::Uniform, 1, ELEMENTS);
        assert!(
            wide[0][0] > u32::MAX as u64,
            "the 64-bit sums carry into the high word"
        );
    }

    #[test]
    fn unorm_tolerates_one_step_and_floats_none() {
        let unorm = Layout {
            channel: Channel::Unorm8,
            channels: 1,
        };
        assert!(compare(unorm, "texel", &[[10, 0, 0, 0]], &[[11, 0, 0, 0]]).is_ok());
        assert!(compare(unorm, "texel", &[[10, 0, 0, 0]], &[[12, 0, 0, 0]]).is_err());
        let m = compare(FLOAT4, "element", &[[1, 2, 3, 4]], &[[1, 2, 7, 4]]).unwrap_err();
        assert_eq!((m.index, m.component, m.count), (0, 2, 1));
    }
}
