//! The instruction suite's arithmetic: one test per operation (fp32, fp16 scalar and packed,
//! int32, conversions, transcendentals, fp64, int64), in operations per clock per compute unit
//! and, from a second kernel, clocks per operation of a dependent chain (`glsl/instructions/alu.comp`).
//!
//! The CPU reference replays every chain of every thread. Integer, conversion and correctly
//! rounded float results (add, mul, min/max) must match exactly; an fma may be fused or not
//! (SPIR-V lets a driver split it), so each thread's tolerance is the distance between its
//! fused and its unfused chains (fp32, fp64; fp16 fma multiplies by a runtime 1.0 and is
//! exact either way); transcendental chains are held to bounds derived from Vulkan's
//! precision requirements (see [`Op::chain_bound`]).

use crate::data::ThreadSum;
use crate::families::instructions::{
    encode32, exact, pieces, ulp32, within, word, Chains, TOLERANCE_UNIT,
};
use crate::families::{lacks_feature, Shared, Unit};
use crate::kernels::{check_built, named, KernelId, Part::Text};
use crate::model::Suite;
use half::f16;

/// Arithmetic instruction timings.
pub struct Alu;

/// Chains per thread (independent in the throughput kernel).
const CHAINS: usize = 16;
/// Rounds per loop iteration: one operation on each chain.
const ROUNDS: u32 = 16;

/// One operation (the kernel's `OP`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Op {
    Fp32Add,
    Fp32Mul,
    Fp32Fma,
    Fp32MinMax,
    Fp16Add,
    Fp16Fma,
    Fp16x2Add,
    Fp16x2Fma,
    Fp16x2MulAdd,
    Int32Add,
    Int32Mul,
    Int32Mad,
    Int32Bitops,
    Int32Xorshift,
    Int32MinMax,
    CvtF32I32,
    CvtF32F16,
    Sqrt,
    InverseSqrt,
    Reciprocal,
    Exp2,
    Log2,
    Sin,
    Cos,
    Fp64Add,
    Fp64Fma,
    Int64Add,
    Int64Mul,
}

/// What the device must offer.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Needs {
    Nothing,
    Float16,
    Float64,
    Int64,
}

impl Op {
    /// Every operation, in run order (the kernel's `OP` values: its `@kernels` lines).
    pub const ALL: [Op; 28] = [
        Op::Fp32Add,
        Op::Fp32Mul,
        Op::Fp32Fma,
        Op::Fp32MinMax,
        Op::Fp16Add,
        Op::Fp16Fma,
        Op::Fp16x2Add,
        Op::Fp16x2Fma,
        Op::Fp16x2MulAdd,
        Op::Int32Add,
        Op::Int32Mul,
        Op::Int32Mad,
        Op::Int32Bitops,
        Op::Int32Xorshift,
        Op::Int32MinMax,
        Op::CvtF32I32,
        Op::CvtF32F16,
        Op::Sqrt,
        Op::InverseSqrt,
        Op::Reciprocal,
        Op::Exp2,
        Op::Log2,
        Op::Sin,
        Op::Cos,
        Op::Fp64Add,
        Op::Fp64Fma,
        Op::Int64Add,
        Op::Int64Mul,
    ];

    /// (kernel label, test name, CSV format, loop iterations, operations counted per update,
    /// dependent operations per update, what it needs).
    // Long on purpose: one row per operation, the table every other method reads.
    const fn info(
        self,
    ) -> (
        &'static str,
        &'static str,
        &'static str,
        u32,
        u32,
        u32,
        Needs,
    ) {
        use Needs::*;
        match self {
            Op::Fp32Add => ("fp32_add", "fp32 add", "float", 64, 1, 1, Nothing),
            Op::Fp32Mul => ("fp32_mul", "fp32 mul", "float", 64, 1, 1, Nothing),
            Op::Fp32Fma => ("fp32_fma", "fp32 fma", "float", 64, 1, 1, Nothing),
            Op::Fp32MinMax => ("fp32_minmax", "fp32 min/max", "float", 64, 1, 1, Nothing),
            Op::Fp16Add => ("fp16_add", "fp16 add", "float16_t", 64, 1, 1, Float16),
            Op::Fp16Fma => ("fp16_fma", "fp16 fma", "float16_t", 64, 1, 1, Float16),
            Op::Fp16x2Add => (
                "fp16x2_add",
                "fp16x2 add (packed)",
                "f16vec2",
                64,
                2,
                1,
                Float16,
            ),
            Op::Fp16x2Fma => (
                "fp16x2_fma",
                "fp16x2 fma (packed)",
                "f16vec2",
                64,
                2,
                1,
                Float16,
            ),
            Op::Fp16x2MulAdd => (
                "fp16x2_muladd",
                "fp16x2 mul+add (packed)",
                "f16vec2",
                64,
                2,
                1,
                Float16,
            ),
            Op::Int32Add => ("int32_add", "int32 add", "uint", 64, 1, 1, Nothing),
            Op::Int32Mul => ("int32_mul", "int32 mul", "uint", 32, 1, 1, Nothing),
            Op::Int32Mad => ("int32_mad", "int32 mad", "uint", 32, 1, 1, Nothing),
            Op::Int32Bitops => (
                "int32_bitops",
                "int32 xor/and/or",
                "uint",
                64,
                1,
                1,
                Nothing,
            ),
            Op::Int32Xorshift => (
                "int32_xorshift",
                "int32 shift+xor (xorshift)",
                "uint",
                32,
                2,
                2,
                Nothing,
            ),
            Op::Int32MinMax => ("int32_minmax", "int32 min/max", "uint", 64, 1, 1, Nothing),
            Op::CvtF32I32 => (
                "cvt_f32_i32",
                "convert f32<->i32 (+xor, +add)",
                "float, int",
                32,
                2,
                2,
                Nothing,
            ),
            Op::CvtF32F16 => (
                "cvt_f32_f16",
                "convert f32<->f16 (+add, +mul)",
                "float, float16_t",
                32,
                2,
                2,
                Float16,
            ),
            Op::Sqrt => ("sqrt", "fp32 sqrt", "float", 16, 1, 1, Nothing),
            Op::InverseSqrt => ("rsqrt", "fp32 inversesqrt", "float", 16, 1, 1, Nothing),
            Op::Reciprocal => ("rcp", "fp32 1/x (+add)", "float", 16, 1, 1, Nothing),
            Op::Exp2 => ("exp2", "fp32 exp2", "float", 16, 1, 1, Nothing),
            Op::Log2 => ("log2", "fp32 log2 (+add)", "float", 16, 1, 1, Nothing),
            Op::Sin => ("sin", "fp32 sin (+add)", "float", 16, 1, 1, Nothing),
            Op::Cos => ("cos", "fp32 cos", "float", 16, 1, 1, Nothing),
            Op::Fp64Add => ("fp64_add", "fp64 add", "double", 32, 1, 1, Float64),
            Op::Fp64Fma => ("fp64_fma", "fp64 fma", "double", 32, 1, 1, Float64),
            Op::Int64Add => ("int64_add", "int64 add", "uint64_t", 32, 1, 1, Int64),
            Op::Int64Mul => ("int64_mul", "int64 mul", "uint64_t", 16, 1, 1, Int64),
        }
    }

    const fn label(self) -> &'static str {
        self.info().0
    }

    /// Loop iterations of the throughput kernel (`ITER`).
    fn iterations(self) -> u32 {
        self.info().3
    }

    /// Whether the operation combines neighbouring chains (`RING` in the kernel).
    fn ring(self) -> bool {
        matches!(
            self,
            Op::Int32Add
                | Op::Int32Mul
                | Op::Int32Mad
                | Op::Int32Bitops
                | Op::Int64Add
                | Op::Int64Mul
        )
    }

    /// Whether the result is compared within a tolerance (else exactly).
    fn tolerant(self) -> bool {
        matches!(
            self,
            Op::Fp32Fma
                | Op::Fp64Fma
                | Op::Sqrt
                | Op::InverseSqrt
                | Op::Reciprocal
                | Op::Exp2
                | Op::Log2
                | Op::Sin
                | Op::Cos
        )
    }

    /// How far a chain of `steps` operations may end from the correctly rounded chain (which
    /// the reference computes), at `value`, under Vulkan's precision requirements: a bound
    /// per operation, carried through the chain. The chains contract towards a fixed point
    /// (a factor L < 1 per step), so an error of e per step stays below e / (1 − L):
    /// sqrt → 1 (L = 1/2; sqrt inherits 1/inversesqrt's 2 + 2.5 ULP): 16 ULP of 1;
    /// inversesqrt → 1 (L = 1/2, 2 ULP): 8 ULP; exp2(−x) → 0.641 (L = 0.44, 3 + 2|x| ULP):
    /// 16 ULP of 1; log2(x) + c → 4 (L = 0.36, 3 ULP): 2^-18; sin(x) + c → 1.93 (L = 0.35,
    /// absolute error 2^-11): 2^-10; cos(x) → 0.739 (L = 0.67, 2^-11): 2^-9; 1/x + c → 1.28
    /// (L = 0.61, 3 ULP): 2^-18.
    fn chain_bound(self, steps: u32, _value: f64) -> f64 {
        if steps == 0 {
            return 0.0;
        }
        match self {
            Op::Sqrt => 2f64.powi(-19),
            Op::InverseSqrt => 2f64.powi(-20),
            Op::Exp2 => 2f64.powi(-19),
            Op::Log2 => 2f64.powi(-18),
            Op::Sin => 2f64.powi(-10),
            Op::Cos => 2f64.powi(-9),
            // 1/x + c → 1.28 (L = 0.61, 2.5 + 0.5 ULP a step): 2^-18.
            Op::Reciprocal => 2f64.powi(-18),
            _ => 0.0,
        }
    }
}

/// [1, 2) with the word's 23 mantissa bits (`unit32` in the kernel).
fn unit32(w: u32) -> f32 {
    f32::from_bits(0x3F80_0000 | (w & 0x007F_FFFF))
}
/// [1, 2) with 10 mantissa bits (`unit10`).
fn unit10(w: u32) -> f32 {
    f32::from_bits(0x3F80_0000 | (w & 0x007F_E000))
}
/// [2^-10, 2^-9) (`small32`).
fn small32(w: u32) -> f32 {
    f32::from_bits(0x3A80_0000 | (w & 0x007F_FFFF))
}
/// [1 − 2^-12, 1) (`near1`).
fn near1(w: u32) -> f32 {
    f32::from_bits(0x3F7F_F000 | (w & 0x0000_0FFF))
}
/// A half-float addend in [2^-10, 2^-9).
fn small_half(w: u32) -> f16 {
    f16::from_f32(small32(w & 0xFFFF_E000))
}

/// Runs the 16 chains through `iterations` loop iterations the way the kernel does: the
/// throughput kernel's rounds (every chain once, with the round's index; a ring chain with the
/// one [`ring_stride`] further on), or the latency kernel's (a self chain: x0 sixteen times,
/// with indices 0…15; a ring: each chain from the one before, with its own index).
fn run<T: Copy>(
    x: &mut [T; CHAINS],
    ring: bool,
    latency: bool,
    iterations: u32,
    upd: impl Fn(T, T, u32) -> T,
) {
    for _ in 0..iterations {
        for r in 0..ROUNDS {
            for j in 0..CHAINS {
                match (ring, latency) {
                    (true, false) => x[j] = upd(x[j], x[(j + ring_stride(r)) % CHAINS], r),
                    (true, true) => x[j] = upd(x[j], x[(j + CHAINS - 1) % CHAINS], j as u32),
                    (false, false) => x[j] = upd(x[j], x[j], r),
                    (false, true) => x[0] = upd(x[0], x[0], j as u32),
                }
            }
        }
    }
}

/// How far on a ring chain's neighbour is in round `r` of the throughput kernel (`RING_ROUND_r`).
fn ring_stride(r: u32) -> usize {
    [1, 2, 4, 3][(r & 3) as usize]
}

/// Operations each chain ran: all of them equally, or (self latency chains) x0 alone.
fn steps(op: Op, latency: bool, iterations: u32, chain: usize) -> u32 {
    match (op.ring(), latency) {
        (false, true) if chain > 0 => 0,
        (false, true) => iterations * ROUNDS * CHAINS as u32,
        _ => iterations * ROUNDS,
    }
}

/// The kernel's float output: four sums of four chains, left to right, in f32.
fn sums(x: &[f32; CHAINS]) -> [f32; 4] {
    std::array::from_fn(|q| ((x[4 * q] + x[4 * q + 1]) + x[4 * q + 2]) + x[4 * q + 3])
}

/// Per output component: the sum of `per_chain`, plus `ulps` ULP of the component.
fn tolerance(per_chain: impl Fn(usize) -> f64, out: [f32; 4], ulps: f64) -> [f64; 4] {
    std::array::from_fn(|q| {
        (4 * q..4 * q + 4).map(&per_chain).sum::<f64>() + ulps * ulp32(out[q] as f64)
    })
}

impl Op {
    /// What thread `l` of the throughput kernel (or lane `l` of the latency kernel, after
    /// `iterations`) writes.
    // Long on purpose: one arm per operation, mirroring the kernel's switch arm for arm, so
    // that a reader holds the two side by side.
    fn thread(self, input: &[u8], l: usize, iterations: u32, latency: bool) -> ThreadSum {
        let w = |j: usize| word(input, (l * 16 + j) & 4095);
        let v = |j: usize| word(input, (l * 16 + j + 2048) & 4095);
        let c = |k: usize| word(input, 4064 + k);
        let ring = self.ring();
        let f32s = |init: fn(u32) -> f32, upd: &dyn Fn(f32, f32, u32) -> f32| {
            let mut x: [f32; CHAINS] = std::array::from_fn(|j| init(w(j)));
            run(&mut x, ring, latency, iterations, upd);
            x
        };
        let u32s = |init: fn(u32) -> u32, upd: &dyn Fn(u32, u32, u32) -> u32| {
            let mut x: [u32; CHAINS] = std::array::from_fn(|j| init(w(j)));
            run(&mut x, ring, latency, iterations, upd);
            encode32(&x)
        };
        let u64s = |odd: u64, upd: &dyn Fn(u64, u64, u32) -> u64| {
            let mut x: [u64; CHAINS] =
                std::array::from_fn(|j| (w(j) as u64) << 32 | v(j) as u64 | odd);
            run(&mut x, ring, latency, iterations, upd);
            encode32(&x.map(|x| x as u32 ^ (x >> 32) as u32))
        };
        let halves = |upd: &dyn Fn(f16, f16, u32) -> f16| {
            let mut x: [f16; CHAINS] = std::array::from_fn(|j| f16::from_f32(unit10(w(j))));
            run(&mut x, ring, latency, iterations, upd);
            x.map(f16::to_f32)
        };
        let pairs = |upd: &dyn Fn([f16; 2], [f16; 2], u32) -> [f16; 2]| {
            let mut x: [[f16; 2]; CHAINS] =
                std::array::from_fn(|j| [f16::from_f32(unit10(w(j))), f16::from_f32(unit10(v(j)))]);
            run(&mut x, ring, latency, iterations, upd);
            let f = |p: [f16; 2]| p[0].to_f32() + p[1].to_f32();
            let out: [f32; 4] = std::array::from_fn(|q| {
                ((f(x[4 * q]) + f(x[4 * q + 1])) + f(x[4 * q + 2])) + f(x[4 * q + 3])
            });
            (x, out)
        };
        let h = |x: f64| f16::from_f64(x);
        let doubles = |upd: &dyn Fn(f64, f64, u32) -> f64| {
            let mut x: [f64; CHAINS] = std::array::from_fn(|j| {
                f64::from_bits(((0x3FF0_0000 | (w(j) & 0x000F_FFFF)) as u64) << 32 | v(j) as u64)
            });
            run(&mut x, ring, latency, iterations, upd);
            x
        };
        match self {
            Op::Fp32Add => {
                let c0 = small32(c(0));
                exact(sums(&f32s(unit32, &|x, _, _| x + c0)))
            }
            Op::Fp32Mul => {
                let m0 = near1(c(0));
                exact(sums(&f32s(unit32, &|x, _, _| x * m0)))
            }
            Op::Fp32Fma => {
                let (m0, c0) = (near1(c(0)), small32(c(1)));
                let fused = f32s(unit32, &|x, _, _| x.mul_add(m0, c0));
                let split = f32s(unit32, &|x, _, _| x * m0 + c0);
                let out = sums(&fused);
                within(
                    out,
                    tolerance(|j| (fused[j] - split[j]).abs() as f64, out, 4.0),
                )
            }
            Op::Fp32MinMax => {
                let hi: [f32; 4] = std::array::from_fn(|k| unit32(c(k)));
                let lo: [f32; 4] = std::array::from_fn(|k| unit32(c(4 + k)));
                exact(sums(&f32s(unit32, &|x, _, r| {
                    let k = (r as usize >> 1) & 3;
                    if r & 1 == 0 {
                        x.min(hi[k])
                    } else {
                        x.max(lo[k])
                    }
                })))
            }
            Op::Fp16Add => {
                let c0 = small_half(c(0));
                exact(sums(&halves(&|x, _, _| h(x.to_f64() + c0.to_f64()))))
            }
            // Half-float fma multiplies by a runtime 1.0 (see the kernel): exact either way.
            Op::Fp16Fma => {
                let c0 = small_half(c(1));
                exact(sums(&halves(&|x, _, _| h(x.to_f64() + c0.to_f64()))))
            }
            Op::Fp16x2Add => {
                let c0 = [small_half(c(0)), small_half(c(1))];
                let (_, out) =
                    pairs(&|x, _, _| std::array::from_fn(|i| h(x[i].to_f64() + c0[i].to_f64())));
                exact(out)
            }
            Op::Fp16x2Fma | Op::Fp16x2MulAdd => {
                let c0 = [small_half(c(2)), small_half(c(3))];
                let (_, out) =
                    pairs(&|x, _, _| std::array::from_fn(|i| h(x[i].to_f64() + c0[i].to_f64())));
                exact(out)
            }
            Op::Int32Add => exact(u32s(|w| w, &|x, y, _| x.wrapping_add(y))),
            Op::Int32Mul => exact(u32s(|w| w | 1, &|x, y, _| x.wrapping_mul(y))),
            Op::Int32Mad => {
                let c0 = c(0) | 1;
                exact(u32s(|w| w, &|x, y, _| x.wrapping_mul(y).wrapping_add(c0)))
            }
            Op::Int32Bitops => exact(u32s(|w| w, &|x, y, r| match r % 4 {
                1 => x & y,
                3 => x | y,
                _ => x ^ y,
            })),
            Op::Int32Xorshift => exact(u32s(|w| w | 1, &|x, _, r| match r % 3 {
                0 => x ^ (x << 13),
                1 => x ^ (x >> 17),
                _ => x ^ (x << 5),
            })),
            Op::Int32MinMax => {
                let hi: [u32; 4] = std::array::from_fn(|k| c(k) | 0xC000_0000);
                let lo: [u32; 4] = std::array::from_fn(|k| c(4 + k) & 0x3FFF_FFFF);
                exact(u32s(|w| w, &|x, _, r| {
                    let k = (r as usize >> 1) & 3;
                    if r & 1 == 0 {
                        x.min(hi[k])
                    } else {
                        x.max(lo[k])
                    }
                }))
            }
            Op::CvtF32I32 => {
                let (k0, c0) = ((c(0) & 0xFF) as i32, small32(c(1)));
                exact(sums(&f32s(|w| unit32(w) * 1024.0, &|x, _, _| {
                    (x as i32 ^ k0) as f32 + c0
                })))
            }
            // Every value is a half (see the kernel): the conversions are exact.
            Op::CvtF32F16 => {
                let k0 = ((c(0) & 3) + 1) as u16;
                exact(sums(&f32s(unit10, &|x, _, r| {
                    let bits = f16::from_f32(x).to_bits();
                    let bits = if r & 1 == 0 { bits + k0 } else { bits - k0 };
                    f16::from_bits(bits).to_f32()
                })))
            }
            Op::Sqrt
            | Op::InverseSqrt
            | Op::Reciprocal
            | Op::Exp2
            | Op::Log2
            | Op::Sin
            | Op::Cos => {
                let c0 = match self {
                    Op::Log2 => f32::from_bits(0x4000_0000 | (c(0) & 0xFFFF)),
                    Op::Reciprocal => f32::from_bits(0x3F00_0000 | (c(0) & 0xFFFF)),
                    Op::Sin => f32::from_bits(0x3F80_0000 | (c(0) & 0xFFFF)),
                    _ => 0.0,
                };
                // The correctly rounded chain: each function in f64, rounded to f32.
                let f = move |x: f32, _: f32, _: u32| -> f32 {
                    let d = x as f64;
                    match self {
                        Op::Sqrt => d.sqrt() as f32,
                        Op::InverseSqrt => (1.0 / d.sqrt()) as f32,
                        Op::Reciprocal => (1.0 / d) as f32 + c0,
                        Op::Exp2 => (-d).exp2() as f32,
                        Op::Log2 => d.log2() as f32 + c0,
                        Op::Sin => d.sin() as f32 + c0,
                        _ => d.cos() as f32,
                    }
                };
                let x = f32s(unit32, &f);
                let out = sums(&x);
                let bound =
                    |j: usize| self.chain_bound(steps(self, latency, iterations, j), x[j] as f64);
                within(out, tolerance(bound, out, 4.0))
            }
            Op::Fp64Add => {
                let c0 = small32(c(0)) as f64;
                let x = doubles(&|x, _, _| x + c0);
                let d = x.iter().skip(1).fold(x[0], |s, x| s + x).to_bits();
                exact(pieces(d as u32, (d >> 32) as u32))
            }
            Op::Fp64Fma => {
                let (m0, c0) = (near1(c(0)) as f64, small32(c(1)) as f64);
                let fused = doubles(&|x, _, _| x.mul_add(m0, c0));
                let split = doubles(&|x, _, _| x * m0 + c0);
                let out: [f32; 4] = std::array::from_fn(|q| {
                    (((fused[4 * q] + fused[4 * q + 1]) + fused[4 * q + 2]) + fused[4 * q + 3])
                        as f32
                });
                within(out, tolerance(|j| (fused[j] - split[j]).abs(), out, 2.0))
            }
            Op::Int64Add => exact(u64s(0, &|x, y, _| x.wrapping_add(y))),
            Op::Int64Mul => exact(u64s(1, &|x, y, _| x.wrapping_mul(y))),
        }
    }
}

impl Chains for Alu {
    type Op = Op;
    const ALL: &'static [Op] = &Op::ALL;
    const SUITE: Suite = Suite::Instructions;
    const FAMILY: &'static str = "alu";

    fn name(&self, op: Op) -> &'static str {
        op.info().1
    }

    fn format(&self, op: Op) -> &'static str {
        op.info().2
    }

    fn kernel(&self, op: Op) -> KernelId {
        kernel_of(op)
    }

    fn latency_kernel(&self, op: Op) -> KernelId {
        latency_of(op)
    }

    fn iterations(&self, op: Op) -> u32 {
        op.iterations()
    }

    fn ops_per_thread(&self, op: Op) -> u64 {
        (op.iterations() * ROUNDS) as u64 * CHAINS as u64 * op.info().4 as u64
    }

    fn latency_ops(&self, op: Op) -> u32 {
        ROUNDS * CHAINS as u32 * op.info().5
    }

    fn thread(&self, op: Op, input: &[u8], l: usize, iterations: u32, latency: bool) -> ThreadSum {
        op.thread(input, l, iterations, latency)
    }

    fn tolerance(&self, op: Op) -> f32 {
        if op.tolerant() {
            TOLERANCE_UNIT
        } else {
            0.0
        }
    }

    fn unit(&self, _: Op) -> Unit {
        Unit::Ops
    }

    fn unsupported(&self, s: &Shared<'_>, op: Op) -> Option<String> {
        let f = s.gpu.info.features;
        match op.info().6 {
            Needs::Nothing => None,
            Needs::Float16 => lacks_feature(f.shader_float16, "shaderFloat16"),
            Needs::Float64 => lacks_feature(f.shader_float64, "shaderFloat64"),
            Needs::Int64 => lacks_feature(f.shader_int64, "shaderInt64"),
        }
    }
}

/// The kernel of `op`.
const fn kernel_of(op: Op) -> KernelId {
    named(&[Text("alu_"), Text(op.label())])
}
check_built!(kernel_of; Op::ALL);

/// The latency kernel of `op`.
const fn latency_of(op: Op) -> KernelId {
    named(&[Text("alu_latency_"), Text(op.label())])
}
check_built!(latency_of; Op::ALL);

#[cfg(test)]
mod tests {
    use super::*;
    use crate::families::Spec;
    use crate::model::Pattern;

    #[test]
    fn tolerances_are_tight_and_exact_operations_have_none() {
        let input = crate::data::input();
        for op in Op::ALL {
            let reference = Alu.reference(op, Pattern::Linear, &input);
            let tolerance = Spec::tolerance(&Alu, op) as f64;
            let worst = reference
                .iter()
                .flat_map(|t| t.sum.iter().zip(t.magnitude))
                .map(|(s, m)| tolerance * m.max(1.0) as f64 / s.abs().max(1.0) as f64)
                .fold(0.0, f64::max);
            let bound = match op {
                _ if !op.tolerant() => 0.0,
                Op::Sin | Op::Cos => 4.0 * 2f64.powi(-9),
                Op::Reciprocal => 2f64.powi(-10),
                _ => 2f64.powi(-15),
            };
            assert!(
                worst <= bound,
                "{op:?}: relative tolerance {worst:e} > {bound:e}"
            );
            assert!(reference
                .iter()
                .all(|t| t.sum.iter().all(|v| v.is_finite())));
        }
    }

    #[test]
    fn the_runtime_one_is_one() {
        // The kernels' one() is 1.0 | readStart: a nonzero readStart would make it a multiplier
        // just above 1, which rounding to half hides from the fp16 and conversion references.
        assert!(Op::ALL.iter().all(|&op| Spec::read_start(&Alu, op) == 0));
    }

    #[test]
    fn every_thread_and_chain_start_differently() {
        let input = crate::data::input();
        for op in [Op::Fp32Add, Op::Int32Add, Op::Fp64Add, Op::Int64Mul] {
            let r = Alu.reference(op, Pattern::Linear, &input);
            assert_ne!(r[0].sum, r[1].sum, "{op:?}");
            assert_ne!(r[0].sum[0], r[0].sum[1], "{op:?}");
        }
    }

    #[test]
    fn latency_chains_run_every_operation_on_one_chain() {
        // After one iteration x0 has taken 256 steps: fp32 add, by c each time.
        let input = crate::data::input();
        let one = Op::Fp32Add.thread(&input, 0, 1, true);
        let none = Op::Fp32Add.thread(&input, 0, 0, true);
        let c0 = small32(word(&input, 4064)) as f64;
        let moved = (one.sum[0] - none.sum[0]) as f64;
        assert!((moved / (256.0 * c0) - 1.0).abs() < 1e-3, "{moved}");
        assert_eq!(one.sum[1..], none.sum[1..], "only chain 0 moves");
    }
}
