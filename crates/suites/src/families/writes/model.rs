//! The CPU model of the write kernels: where each store or atomic lands and what it writes
//! (mirroring `glsl/writes/write.glsl` and the atomic templates), and the memory one dispatch leaves.

use super::{Channel, Contents, Layout};
use crate::data;
use crate::model::Pattern;

/// Stores (or atomics) each thread performs: 256, or 16×16 in the 2-D kernels.
pub const PER_THREAD: u32 = 256;

/// How a store kernel computes its values (`KIND` in `glsl/writes/write.glsl`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    /// Odd multiples of 1/16 in [-32, 64): exact in half and float.
    Float,
    /// Four bytes stepping together, stored to UNORM8 channels.
    Unorm8,
    /// 32-bit unsigned integers, always odd.
    Uint,
}

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
/// `VALUE_INIT` / `VALUE_STEP` in `glsl/writes/write.glsl`): numbers, or bytes for UNORM8.
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
