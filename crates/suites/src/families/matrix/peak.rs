//! The matrix suite's arithmetic peaks from vkpeak's table that the instruction suite has no
//! row for: vec4 fma of fp32, fp16 and fp64, vec4 int32 multiply-add, and int16 and int8
//! multiply-add, scalar and vec4 (`glsl/matrix/peak.comp`), in operations per clock per compute unit
//! (a multiply-add counts two) and clocks per dependent operation. The CPU replays every chain
//! exactly: float chains multiply by a runtime 1.0, so each step is x + c rounded once.

use crate::data::ThreadSum;
use crate::families::instructions::{encode32, exact, word, Chains};
use crate::families::{lacks_feature, Shared, Unit};
use crate::kernels::{check_built, named, KernelId, Part::Text};
use crate::model::Suite;
use half::f16;

/// Arithmetic peaks.
pub struct Peak;

const CHAINS: usize = 16;
const ROUNDS: u32 = 16;
const ITER: u32 = 32;

/// One operation (the kernel's `OP`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Op {
    Fp32x4,
    Fp16x4,
    Fp64x4,
    Int32x4,
    Int16,
    Int16x4,
    Int8,
    Int8x4,
}

impl Op {
    /// Every operation, in run order.
    pub const ALL: [Op; 8] = [
        Op::Fp32x4,
        Op::Fp16x4,
        Op::Fp64x4,
        Op::Int32x4,
        Op::Int16,
        Op::Int16x4,
        Op::Int8,
        Op::Int8x4,
    ];

    /// (kernel label, test name, CSV format, lanes per operation).
    const fn info(self) -> (&'static str, &'static str, &'static str, u64) {
        match self {
            Op::Fp32x4 => ("fp32x4", "matrix: peak fp32 vec4 fma", "vec4", 4),
            Op::Fp16x4 => ("fp16x4", "matrix: peak fp16 vec4 fma", "f16vec4", 4),
            Op::Fp64x4 => ("fp64x4", "matrix: peak fp64 vec4 fma", "dvec4", 4),
            Op::Int32x4 => ("int32x4", "matrix: peak int32 vec4 mul+add", "uvec4", 4),
            Op::Int16 => ("int16", "matrix: peak int16 mul+add", "uint16_t", 1),
            Op::Int16x4 => ("int16x4", "matrix: peak int16 vec4 mul+add", "u16vec4", 4),
            Op::Int8 => ("int8", "matrix: peak int8 mul+add", "uint8_t", 1),
            Op::Int8x4 => ("int8x4", "matrix: peak int8 vec4 mul+add", "u8vec4", 4),
        }
    }

    fn is_float(self) -> bool {
        matches!(self, Op::Fp32x4 | Op::Fp16x4 | Op::Fp64x4)
    }

    /// Steps each chain takes: every chain every round, or (latency) chain 0 sixteen times.
    fn steps(latency: bool, iterations: u32, chain: usize) -> u32 {
        match (latency, chain) {
            (false, _) => iterations * ROUNDS,
            (true, 0) => iterations * ROUNDS * ROUNDS,
            (true, _) => 0,
        }
    }

    /// What thread `l` (or latency lane `l`) writes after `iterations` loop iterations.
    fn thread(self, input: &[u8], l: usize, iterations: u32, latency: bool) -> ThreadSum {
        let w = |i: usize| word(input, (l * 64 + i) & 4095);
        let c = |k: usize| word(input, 4064 + k);
        let steps = |j: usize| Op::steps(latency, iterations, j);
        if self.is_float() {
            let unit10 = |x: u32| f32::from_bits(0x3F80_0000 | (x & 0x007F_E000));
            let small10 = |x: u32| f32::from_bits(0x3A80_0000 | (x & 0x007F_E000));
            let add: [f32; 4] = std::array::from_fn(|k| small10(c(k)));
            // Chain j's components after its steps, each x + c rounded in the type, as f32.
            let chain = |j: usize| -> [f32; 4] {
                std::array::from_fn(|k| {
                    let x0 = unit10(w(4 * j + k));
                    let n = steps(j);
                    match self {
                        Op::Fp32x4 => (0..n).fold(x0, |x, _| x + add[k]),
                        Op::Fp16x4 => {
                            let ck = f16::from_f32(add[k]).to_f64();
                            (0..n)
                                .fold(f16::from_f32(x0), |x, _| f16::from_f64(x.to_f64() + ck))
                                .to_f32()
                        }
                        _ => (0..n).fold(x0 as f64, |x, _| x + add[k] as f64) as f32,
                    }
                })
            };
            let x: Vec<[f32; 4]> = (0..CHAINS).map(chain).collect();
            let f = |p: [f32; 4]| ((p[0] + p[1]) + p[2]) + p[3];
            exact(std::array::from_fn(|q| {
                ((f(x[4 * q]) + f(x[4 * q + 1])) + f(x[4 * q + 2])) + f(x[4 * q + 3])
            }))
        } else {
            let (lanes, bits) = match self {
                Op::Int32x4 => (4, 32),
                Op::Int16 => (1, 16),
                Op::Int16x4 => (4, 16),
                Op::Int8 => (1, 8),
                _ => (4, 8),
            };
            let mask = if bits == 32 {
                u32::MAX
            } else {
                (1u32 << bits) - 1
            };
            let (m, a): ([u32; 4], [u32; 4]) = if lanes == 1 {
                ([(c(0) | 1) & mask; 4], [c(1) & mask; 4])
            } else {
                (
                    std::array::from_fn(|k| (c(k) | 1) & mask),
                    std::array::from_fn(|k| c(4 + k) & mask),
                )
            };
            let fold = |j: usize| -> u32 {
                let comp = |k: usize| {
                    let x0 = w(if lanes == 1 { 4 * j } else { 4 * j + k }) & mask;
                    (0..steps(j)).fold(x0, |x, _| x.wrapping_mul(m[k]).wrapping_add(a[k]) & mask)
                };
                if lanes == 1 {
                    comp(0)
                } else {
                    (0..4).fold(0u32, |h, k| h.wrapping_mul(31).wrapping_add(comp(k)))
                }
            };
            let x: [u32; 16] = std::array::from_fn(fold);
            exact(encode32(&x))
        }
    }
}

impl Chains for Peak {
    type Op = Op;
    const ALL: &'static [Op] = &Op::ALL;
    const SUITE: Suite = Suite::Matrix;
    const FAMILY: &'static str = "peak";

    fn name(&self, op: Op) -> &'static str {
        op.info().1
    }

    fn format(&self, op: Op) -> &'static str {
        op.info().2
    }

    fn kernel(&self, op: Op) -> KernelId {
        kernel_of(op)
    }

    fn clock_kernel(&self, op: Op) -> Option<KernelId> {
        // ALU work, whose time follows the probe's clock (docs/timing.md): the same reading
        // here holds the in-kernel clock to the probe's where the two should agree.
        Some(kernel_of_kind(op, "_tc"))
    }

    fn latency_kernel(&self, op: Op) -> KernelId {
        kernel_of_kind(op, "_latency")
    }

    fn iterations(&self, _: Op) -> u32 {
        ITER
    }

    /// Multiply-adds per thread (one per lane of each operation), two operations each.
    fn ops_per_thread(&self, op: Op) -> u64 {
        (ITER * ROUNDS) as u64 * CHAINS as u64 * op.info().3 * 2
    }

    fn latency_ops(&self, _: Op) -> u32 {
        ROUNDS * ROUNDS
    }

    fn thread(&self, op: Op, input: &[u8], l: usize, iterations: u32, latency: bool) -> ThreadSum {
        op.thread(input, l, iterations, latency)
    }

    fn unit(&self, op: Op) -> Unit {
        if op.is_float() {
            Unit::Flops
        } else {
            Unit::Ops
        }
    }

    fn unsupported(&self, s: &Shared<'_>, op: Op) -> Option<String> {
        let f = s.gpu.info.features;
        match op {
            Op::Fp16x4 => lacks_feature(f.shader_float16, "shaderFloat16"),
            Op::Fp64x4 => lacks_feature(f.shader_float64, "shaderFloat64"),
            Op::Int16 | Op::Int16x4 => lacks_feature(f.shader_int16, "shaderInt16"),
            Op::Int8 | Op::Int8x4 => lacks_feature(f.shader_int8, "shaderInt8"),
            Op::Fp32x4 | Op::Int32x4 => None,
        }
    }
}

/// The kernel of `op`.
const fn kernel_of(op: Op) -> KernelId {
    kernel_of_kind(op, "_t")
}

/// The kernel of `op` of kind `kind`: `_t` (throughput), `_tc` (the same reading its clock),
/// `_latency`.
const fn kernel_of_kind(op: Op, kind: &str) -> KernelId {
    named(&[Text("peak_"), Text(op.info().0), Text(kind)])
}
check_built!(kernel_of_kind; Op::ALL, ["_t", "_tc", "_latency"]);

#[cfg(test)]
mod tests {
    use super::*;
    use crate::families::Spec;

    #[test]
    fn chains_move_and_differ() {
        let input = crate::data::input();
        for op in Op::ALL {
            let none = op.thread(&input, 0, 0, false);
            let some = op.thread(&input, 0, 1, false);
            assert_ne!(none.sum, some.sum, "{op:?}: the chains moved");
            assert_ne!(
                op.thread(&input, 1, 1, false).sum,
                some.sum,
                "{op:?}: threads differ"
            );
        }
        // 32 iterations × 16 rounds × 16 chains × 4 lanes × 2.
        assert_eq!(
            Spec::ops_per_thread(&Peak, Op::Fp32x4),
            32 * 16 * 16 * 4 * 2
        );
        assert_eq!(Spec::ops_per_thread(&Peak, Op::Int8), 32 * 16 * 16 * 2);
    }
}
