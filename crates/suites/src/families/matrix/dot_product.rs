//! The matrix suite's dot products: packed 4×8-bit (signed, unsigned, mixed; plain and
//! accumulating-saturating), 2×16-bit, and half and bfloat16 pairs, in operations per clock
//! per compute unit (a multiply-add counts two) and clocks per dependent dot product
//! (`glsl/matrix/dot_product.comp`). The CPU reference replays every chain exactly.

use crate::data::ThreadSum;
use crate::families::instructions::{encode32, exact, word, Chains};
use crate::families::{Shared, Unit};
use crate::kernels::{check_built, named, KernelId, Part::Text};
use crate::model::Suite;
use half::{bf16, f16};

/// Dot-product instruction timings.
pub struct DotProduct;

/// Chains per thread, rounds per loop iteration, loop iterations (the kernel's).
const CHAINS: usize = 16;
const ROUNDS: u32 = 16;
const ITER: u32 = 64;

/// One dot product (the kernel's `OP`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Dot {
    S8x4,
    U8x4,
    S8U8x4,
    S8x4Sat,
    U8x4Sat,
    S8U8x4Sat,
    S16x2,
    U16x2,
    F16x2,
    Bf16x2,
}

impl Dot {
    /// Every dot product, in run order (the kernel's `OP` values).
    pub const ALL: [Dot; 10] = [
        Dot::S8x4,
        Dot::U8x4,
        Dot::S8U8x4,
        Dot::S8x4Sat,
        Dot::U8x4Sat,
        Dot::S8U8x4Sat,
        Dot::S16x2,
        Dot::U16x2,
        Dot::F16x2,
        Dot::Bf16x2,
    ];

    /// (kernel label, test name, CSV format, multiply-adds per dot product).
    const fn info(self) -> (&'static str, &'static str, &'static str, u64) {
        match self {
            Dot::S8x4 => (
                "s8x4",
                "matrix: dot 4x8-bit packed signed (+add)",
                "int8_t x4",
                4,
            ),
            Dot::U8x4 => (
                "u8x4",
                "matrix: dot 4x8-bit packed unsigned (+add)",
                "uint8_t x4",
                4,
            ),
            Dot::S8U8x4 => (
                "s8u8x4",
                "matrix: dot 4x8-bit packed mixed (+add)",
                "int8_t x4, uint8_t x4",
                4,
            ),
            Dot::S8x4Sat => (
                "s8x4_sat",
                "matrix: dot 4x8-bit packed signed accumulate-saturate",
                "int8_t x4",
                4,
            ),
            Dot::U8x4Sat => (
                "u8x4_sat",
                "matrix: dot 4x8-bit packed unsigned accumulate-saturate",
                "uint8_t x4",
                4,
            ),
            Dot::S8U8x4Sat => (
                "s8u8x4_sat",
                "matrix: dot 4x8-bit packed mixed accumulate-saturate",
                "int8_t x4, uint8_t x4",
                4,
            ),
            Dot::S16x2 => ("s16x2", "matrix: dot 2x16-bit signed (+add)", "i16vec2", 2),
            Dot::U16x2 => (
                "u16x2",
                "matrix: dot 2x16-bit unsigned (+add)",
                "u16vec2",
                2,
            ),
            Dot::F16x2 => ("f16x2", "matrix: dot f16vec2", "f16vec2", 2),
            Dot::Bf16x2 => ("bf16x2", "matrix: dot bf16vec2", "bf16vec2", 2),
        }
    }

    fn is_float(self) -> bool {
        matches!(self, Dot::F16x2 | Dot::Bf16x2)
    }

    /// One step of a chain at value `x` with the round's constant word `k`, as 32-bit words
    /// (the integer chains; the float chains run in [`Dot::thread`]).
    fn step(self, x: u32, k: u32) -> u32 {
        let sb = |v: u32, i: u32| (v >> (8 * i)) as u8 as i8 as i32;
        let ub = |v: u32, i: u32| (v >> (8 * i)) as u8 as i32;
        let sh = |v: u32, i: u32| (v >> (16 * i)) as u16 as i16 as i64;
        let uh = |v: u32, i: u32| (v >> (16 * i)) as u16 as i64;
        let dot = |a: &dyn Fn(u32, u32) -> i32, b: &dyn Fn(u32, u32) -> i32| -> i64 {
            (0..4).map(|i| a(x, i) as i64 * b(k, i) as i64).sum()
        };
        match self {
            Dot::S8x4 => (dot(&sb, &sb) as i32).wrapping_add(x as i32) as u32,
            Dot::U8x4 => (dot(&ub, &ub) as u32).wrapping_add(x),
            Dot::S8U8x4 => (dot(&sb, &ub) as i32).wrapping_add(x as i32) as u32,
            Dot::S8x4Sat => (dot(&sb, &sb) + x as i32 as i64)
                .clamp(i32::MIN as i64, i32::MAX as i64) as i32 as u32,
            Dot::U8x4Sat => (dot(&ub, &ub) + x as i64).min(u32::MAX as i64) as u32,
            Dot::S8U8x4Sat => (dot(&sb, &ub) + x as i32 as i64)
                .clamp(i32::MIN as i64, i32::MAX as i64) as i32
                as u32,
            Dot::S16x2 => {
                let d: i64 = (0..2).map(|i| sh(x, i) * sh(k, i)).sum();
                (d as i32).wrapping_add(x as i32) as u32
            }
            Dot::U16x2 => {
                let d: i64 = (0..2).map(|i| uh(x, i) * uh(k, i)).sum();
                (d as u32).wrapping_add(x)
            }
            Dot::F16x2 | Dot::Bf16x2 => unreachable!("float chains step in thread()"),
        }
    }

    /// What thread `l` (or latency lane `l`) writes after `iterations` loop iterations.
    fn thread(self, input: &[u8], l: usize, iterations: u32, latency: bool) -> ThreadSum {
        let w = |j: usize| word(input, (l * 16 + j) & 4095);
        let v = |j: usize| word(input, (l * 16 + j + 2048) & 4095);
        let k = |r: u32| word(input, 4064 + (r & 3) as usize);
        // Which chains step, and with which round index.
        let schedule = |mut upd: Box<dyn FnMut(usize, u32) + '_>| {
            for _ in 0..iterations {
                for r in 0..ROUNDS {
                    if latency && self.is_float() {
                        upd(0, r);
                    } else if latency {
                        for j in 0..ROUNDS {
                            upd(0, j);
                        }
                    } else {
                        for c in 0..CHAINS {
                            upd(c, r);
                        }
                    }
                }
            }
        };
        if self.is_float() {
            // (x, y) → (x/2 + y/2 rounded once, x): both products are exact.
            let unit = |w: u32, mask: u32| f32::from_bits(0x3F80_0000 | (w & mask));
            let mut x: [[f64; 2]; CHAINS] = match self {
                Dot::F16x2 => std::array::from_fn(|j| {
                    [
                        unit(w(j), 0x007F_E000) as f64,
                        unit(v(j), 0x007F_E000) as f64,
                    ]
                }),
                _ => std::array::from_fn(|j| {
                    [
                        unit(w(j), 0x007F_0000) as f64,
                        unit(v(j), 0x007F_0000) as f64,
                    ]
                }),
            };
            let round = |d: f64| match self {
                Dot::F16x2 => f16::from_f64(d).to_f64(),
                _ => bf16::from_f64(d).to_f64(),
            };
            schedule(Box::new(|c, _| {
                let [a, b] = x[c];
                x[c] = [b, round(0.5 * a + 0.5 * b)];
            }));
            let f = |p: [f64; 2]| p[0] as f32 + p[1] as f32;
            exact(std::array::from_fn(|q| {
                ((f(x[4 * q]) + f(x[4 * q + 1])) + f(x[4 * q + 2])) + f(x[4 * q + 3])
            }))
        } else {
            let mut x: [u32; CHAINS] = std::array::from_fn(w);
            schedule(Box::new(|c, r| x[c] = self.step(x[c], k(r))));
            exact(encode32(&x))
        }
    }
}

impl Chains for DotProduct {
    type Op = Dot;
    const ALL: &'static [Dot] = &Dot::ALL;
    const SUITE: Suite = Suite::Matrix;
    const FAMILY: &'static str = "dot_product";

    fn name(&self, d: Dot) -> &'static str {
        d.info().1
    }

    fn format(&self, d: Dot) -> &'static str {
        d.info().2
    }

    fn kernel(&self, d: Dot) -> KernelId {
        kernel_of(d)
    }

    fn latency_kernel(&self, d: Dot) -> KernelId {
        kernel_of_kind(d, "_latency")
    }

    fn iterations(&self, _: Dot) -> u32 {
        ITER
    }

    /// Dot products per thread, each its multiply-adds counted twice.
    fn ops_per_thread(&self, d: Dot) -> u64 {
        (ITER * ROUNDS) as u64 * CHAINS as u64 * 2 * d.info().3
    }

    fn latency_ops(&self, d: Dot) -> u32 {
        if d.is_float() {
            ROUNDS
        } else {
            ROUNDS * ROUNDS
        }
    }

    fn thread(&self, d: Dot, input: &[u8], l: usize, iterations: u32, latency: bool) -> ThreadSum {
        d.thread(input, l, iterations, latency)
    }

    fn unit(&self, d: Dot) -> Unit {
        if d.is_float() {
            Unit::Flops
        } else {
            Unit::Ops
        }
    }

    fn unsupported(&self, s: &Shared<'_>, d: Dot) -> Option<String> {
        let info = s.gpu.info;
        let (f, m) = (info.features, &info.matrix);
        match d {
            Dot::F16x2 => crate::families::lacks_feature(f.shader_float16, "shaderFloat16"),
            Dot::Bf16x2 => match m.held_back.as_ref() {
                Some(why)
                    if info
                        .extensions
                        .iter()
                        .any(|e| e == "VK_KHR_shader_bfloat16") =>
                {
                    Some(why.clone())
                }
                _ => crate::families::lacks_feature(m.bfloat16.1, "shaderBFloat16DotProduct"),
            },
            _ if !m.integer_dot => Some(
                "the device lacks shaderIntegerDotProduct (VK_KHR_shader_integer_dot_product)"
                    .into(),
            ),
            Dot::S16x2 | Dot::U16x2 => {
                crate::families::lacks_feature(f.shader_int16, "shaderInt16")
            }
            _ => None,
        }
    }

    /// Whether the driver says the instruction is accelerated (one instruction).
    fn device_note(&self, s: &Shared<'_>, d: Dot) -> Option<String> {
        let m = &s.gpu.info.matrix;
        let accelerated = match d {
            Dot::S8x4 => m.dot4x8_accelerated[0],
            Dot::U8x4 => m.dot4x8_accelerated[1],
            Dot::S8U8x4 => m.dot4x8_accelerated[2],
            Dot::S8x4Sat => m.dot4x8_accelerated[3],
            Dot::U8x4Sat => m.dot4x8_accelerated[4],
            Dot::S8U8x4Sat => m.dot4x8_accelerated[5],
            Dot::S16x2 => m.dot16_accelerated[0],
            Dot::U16x2 => m.dot16_accelerated[1],
            Dot::F16x2 | Dot::Bf16x2 => return None,
        };
        Some(format!(
            "the driver reports this dot product {}accelerated",
            if accelerated { "" } else { "not " }
        ))
    }
}

/// The kernel of `d`.
const fn kernel_of(d: Dot) -> KernelId {
    kernel_of_kind(d, "_t")
}

/// The kernel of `d` of kind `kind`: `_t` (throughput) or `_latency`.
const fn kernel_of_kind(d: Dot, kind: &str) -> KernelId {
    named(&[Text("dot_"), Text(d.info().0), Text(kind)])
}
check_built!(kernel_of_kind; Dot::ALL, ["_t", "_latency"]);

#[cfg(test)]
mod tests {
    use super::*;
    use crate::families::Spec;
    use crate::model::Pattern;

    #[test]
    fn integer_steps_match_the_instructions() {
        // bytes of x: 1, -1 (0xFF), 2, -128; of k: 3, 4, 0xFF, 1.
        let (x, k) = (0x80_02_FF_01u32, 0x01_FF_04_03u32);
        assert_eq!(Dot::S8x4.step(x, k) as i32, 3 - 4 - 2 - 128 + x as i32);
        assert_eq!(Dot::U8x4.step(x, k), 3 + 255 * 4 + 2 * 255 + 128 + x);
        assert_eq!(
            Dot::S8U8x4.step(x, k) as i32,
            3 - 4 + 2 * 255 - 128 + x as i32
        );
        assert_eq!(Dot::U8x4Sat.step(u32::MAX - 1, k), u32::MAX);
        assert_eq!(Dot::S8x4Sat.step(0x7FFF_FFF0, 0x7F7F_7F7F), i32::MAX as u32);
        assert_eq!(
            Dot::S16x2.step(0xFFFF_0002, 0x0003_0005) as i32,
            10 - 3 + 0xFFFF_0002u32 as i32
        );
    }

    #[test]
    fn chains_differ_by_thread_and_by_operation() {
        let input = crate::data::input();
        for d in Dot::ALL {
            let r = DotProduct.reference(d, Pattern::Linear, &input);
            assert_ne!(r[0].sum, r[1].sum, "{d:?}");
        }
        let a = DotProduct.reference(Dot::S8x4, Pattern::Linear, &input);
        let b = DotProduct.reference(Dot::S8U8x4, Pattern::Linear, &input);
        assert_ne!(a[0].sum, b[0].sum);
    }
}
