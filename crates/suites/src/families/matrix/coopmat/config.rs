//! The cooperative-matrix configurations with a row: element types, the table, and the exact
//! CPU model of what the kernels compute (shared by the subgroup- and workgroup-scope families).

use crate::data::ThreadSum;
use crate::families::instructions::{exact, pieces, word};
use crate::families::Unit;
use crate::kernels::{named, KernelId, Part, Part::Number, Part::Text};
use ash::vk;
use perftest_gpu::{
    CoopMatEntry, COMPONENT_BFLOAT16, COMPONENT_FLOAT8_E4M3, COMPONENT_FLOAT8_E5M2,
};

/// Rows of C beyond M: accumulator j of either kernel starts from rows j… (at most 8).
const ACC_ROWS: usize = 8;

/// A matrix element type.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Elem {
    F16,
    Bf16,
    E4m3,
    E5m2,
    F32,
    S8,
    U8,
    S32,
    U32,
}

impl Elem {
    /// The name in test and kernel names.
    pub const fn name(self) -> &'static str {
        match self {
            Elem::F16 => "f16",
            Elem::Bf16 => "bf16",
            Elem::E4m3 => "e4m3",
            Elem::E5m2 => "e5m2",
            Elem::F32 => "f32",
            Elem::S8 => "s8",
            Elem::U8 => "u8",
            Elem::S32 => "s32",
            Elem::U32 => "u32",
        }
    }

    /// The GLSL type.
    pub(crate) fn glsl(self) -> &'static str {
        match self {
            Elem::F16 => "float16_t",
            Elem::Bf16 => "bfloat16_t",
            Elem::E4m3 => "floate4m3_t",
            Elem::E5m2 => "floate5m2_t",
            Elem::F32 => "float",
            Elem::S8 => "int8_t",
            Elem::U8 => "uint8_t",
            Elem::S32 => "int",
            Elem::U32 => "uint",
        }
    }

    /// `VkComponentTypeKHR`, raw.
    pub(crate) fn vk(self) -> i32 {
        match self {
            Elem::F16 => vk::ComponentTypeKHR::FLOAT16.as_raw(),
            Elem::Bf16 => COMPONENT_BFLOAT16,
            Elem::E4m3 => COMPONENT_FLOAT8_E4M3,
            Elem::E5m2 => COMPONENT_FLOAT8_E5M2,
            Elem::F32 => vk::ComponentTypeKHR::FLOAT32.as_raw(),
            Elem::S8 => vk::ComponentTypeKHR::SINT8.as_raw(),
            Elem::U8 => vk::ComponentTypeKHR::UINT8.as_raw(),
            Elem::S32 => vk::ComponentTypeKHR::SINT32.as_raw(),
            Elem::U32 => vk::ComponentTypeKHR::UINT32.as_raw(),
        }
    }

    /// The name of a raw component type, for the row of unlisted configurations.
    pub(crate) fn raw_name(raw: i32) -> String {
        const ALL: [Elem; 9] = [
            Elem::F16,
            Elem::Bf16,
            Elem::E4m3,
            Elem::E5m2,
            Elem::F32,
            Elem::S8,
            Elem::U8,
            Elem::S32,
            Elem::U32,
        ];
        let other = [
            (vk::ComponentTypeKHR::FLOAT64, "f64"),
            (vk::ComponentTypeKHR::SINT16, "s16"),
            (vk::ComponentTypeKHR::UINT16, "u16"),
            (vk::ComponentTypeKHR::SINT64, "s64"),
            (vk::ComponentTypeKHR::UINT64, "u64"),
        ];
        ALL.iter()
            .find(|e| e.vk() == raw)
            .map(|e| e.name().to_string())
            .or_else(|| {
                other
                    .iter()
                    .find(|(t, _)| t.as_raw() == raw)
                    .map(|(_, n)| n.to_string())
            })
            .unwrap_or_else(|| format!("type {raw}"))
    }

    pub(crate) fn unsigned(self) -> bool {
        matches!(self, Elem::U8 | Elem::U32)
    }

    pub(crate) fn float(self) -> bool {
        matches!(
            self,
            Elem::F16 | Elem::Bf16 | Elem::E4m3 | Elem::E5m2 | Elem::F32
        )
    }
}

/// One configuration: M×N×K, A×B + C (the result has C's type), saturating or not.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Config {
    pub m: u32,
    pub n: u32,
    pub k: u32,
    pub a: Elem,
    pub b: Elem,
    pub c: Elem,
    pub saturating: bool,
}

pub(crate) const fn cfg(
    m: u32,
    n: u32,
    k: u32,
    a: Elem,
    b: Elem,
    c: Elem,
    saturating: bool,
) -> Config {
    Config {
        m,
        n,
        k,
        a,
        b,
        c,
        saturating,
    }
}

use Elem::*;
/// Every configuration with a row (the kernels' `@kernels` lines, in the same order): NVIDIA's
/// 16×16×16, 16×8×16 and 16×8×8 half, 16×16×32 and 16×8×32 int8, bfloat16 and float8; AMD's
/// 16×16×16 int8 with and without saturation; Intel's 8×8 and 8×16 shapes.
pub const CONFIGS: [Config; 24] = [
    cfg(16, 16, 16, F16, F16, F16, false),
    cfg(16, 16, 16, F16, F16, F32, false),
    cfg(16, 8, 16, F16, F16, F16, false),
    cfg(16, 8, 16, F16, F16, F32, false),
    cfg(16, 8, 8, F16, F16, F16, false),
    cfg(16, 8, 8, F16, F16, F32, false),
    cfg(8, 8, 16, F16, F16, F32, false),
    cfg(8, 16, 16, F16, F16, F32, false),
    cfg(16, 16, 16, Bf16, Bf16, F32, false),
    cfg(16, 8, 16, Bf16, Bf16, F32, false),
    cfg(16, 16, 32, E4m3, E4m3, F32, false),
    cfg(16, 16, 32, E4m3, E4m3, F16, false),
    cfg(16, 16, 32, E5m2, E5m2, F32, false),
    cfg(16, 16, 32, E5m2, E5m2, F16, false),
    cfg(16, 16, 32, S8, S8, S32, false),
    cfg(16, 16, 32, U8, U8, U32, false),
    cfg(16, 8, 32, S8, S8, S32, false),
    cfg(16, 8, 32, U8, U8, U32, false),
    cfg(16, 16, 16, S8, S8, S32, false),
    cfg(16, 16, 16, U8, U8, U32, false),
    cfg(16, 16, 16, S8, S8, S32, true),
    cfg(16, 16, 16, U8, U8, U32, true),
    cfg(8, 8, 32, S8, S8, S32, false),
    cfg(8, 16, 32, S8, S8, S32, false),
];

impl Config {
    /// The configuration's kernel of `family`: `{family}16x16x16_f16_f16_f32[_sat]`, then
    /// `tail` (`_t`, `_latency`; coopmat2's `_w128`; `Text("")` where a part is not needed).
    pub(crate) const fn kernel(&self, family: &str, tail: [Part; 3]) -> KernelId {
        named(&[
            Text(family),
            Number(self.m),
            Text("x"),
            Number(self.n),
            Text("x"),
            Number(self.k),
            Text("_"),
            Text(self.a.name()),
            Text("_"),
            Text(self.b.name()),
            Text("_"),
            Text(self.c.name()),
            Text(if self.saturating { "_sat" } else { "" }),
            tail[0],
            tail[1],
            tail[2],
        ])
    }

    /// Whether the driver's entry `e` is this configuration.
    pub(crate) fn is(&self, e: &CoopMatEntry) -> bool {
        (e.m, e.n, e.k) == (self.m, self.n, self.k)
            && (e.a, e.b, e.c, e.result) == (self.a.vk(), self.b.vk(), self.c.vk(), self.c.vk())
            && e.saturating == self.saturating
            && e.scope == vk::ScopeKHR::SUBGROUP.as_raw()
    }

    /// The unit of its counts: flops for float accumulators, ops for integer ones.
    pub(crate) fn unit(&self) -> Unit {
        if self.c.float() {
            Unit::Flops
        } else {
            Unit::Ops
        }
    }

    /// A, B1, B2 (row-major) and C (`(M + ACC)·N` elements) as the kernel fills them (words
    /// wrap at the input's 4096).
    pub(crate) fn matrices(&self, input: &[u8]) -> (Vec<i64>, Vec<i64>, Vec<i64>, Vec<i64>) {
        let small = |w: u32, u: bool| {
            if u {
                (w % 3) as i64
            } else {
                (w % 5) as i64 - 2
            }
        };
        let small_c = |w: u32, u: bool| {
            if u {
                (w % 5) as i64
            } else {
                (w % 9) as i64 - 4
            }
        };
        let (m, n, k) = (self.m as usize, self.n as usize, self.k as usize);
        let w = |i: usize| word(input, i & 4095);
        let a = (0..m * k).map(|i| small(w(i), self.a.unsigned())).collect();
        let b1: Vec<i64> = (0..k * n)
            .map(|i| small(w(1024 + i), self.b.unsigned()))
            .collect();
        let b2 = (0..k * n)
            .map(|i| match self.b.unsigned() {
                true => b1[i],
                false => ((i / n) == (i % n) % k) as i64 - b1[i],
            })
            .collect();
        let c = (0..(m + ACC_ROWS) * n)
            .map(|i| small_c(w(2048 + i), self.c.unsigned()))
            .collect();
        (a, b1, b2, c)
    }

    /// Accumulator `j` after `pairs` pairs of multiply-adds, as 32-bit integers (exact: see
    /// the kernel).
    pub(crate) fn result(&self, input: &[u8], j: usize, pairs: u64) -> Vec<i32> {
        let (a, b1, b2, c) = self.matrices(input);
        let (m, n, k) = (self.m as usize, self.n as usize, self.k as usize);
        let product = |b: &[i64], i: usize, col: usize| -> i64 {
            (0..k).map(|x| a[i * k + x] * b[x * n + col]).sum()
        };
        (0..m * n)
            .map(|e| {
                let (i, col) = (e / n, e % n);
                let step = product(&b1, i, col) + product(&b2, i, col);
                (c[e + j * n] + pairs as i64 * step) as i32
            })
            .collect()
    }

    /// What lane `lane` writes: the sum and hash of its elements of `accumulators`.
    pub(crate) fn lane(results: &[Vec<i32>], lane: usize, subgroup_size: usize) -> ThreadSum {
        let (mut sum, mut hash) = (0u32, 0u32);
        for r in results {
            for &x in r.iter().skip(lane).step_by(subgroup_size) {
                sum = sum.wrapping_add(x as u32);
                hash = hash.wrapping_mul(31).wrapping_add(x as u32);
            }
        }
        exact(pieces(sum, hash))
    }
}

/// An entry as `16x16x16 f16*f16+f32=f32 subgroup [saturating]`.
pub(crate) fn describe(e: &CoopMatEntry) -> String {
    let scope = match vk::ScopeKHR::from_raw(e.scope) {
        vk::ScopeKHR::SUBGROUP => "subgroup".to_string(),
        vk::ScopeKHR::WORKGROUP => "workgroup".to_string(),
        vk::ScopeKHR::DEVICE => "device".to_string(),
        vk::ScopeKHR::QUEUE_FAMILY => "queue family".to_string(),
        s => format!("scope {}", s.as_raw()),
    };
    format!(
        "{}x{}x{} {}*{}+{}={} {scope}{}",
        e.m,
        e.n,
        e.k,
        Elem::raw_name(e.a),
        Elem::raw_name(e.b),
        Elem::raw_name(e.c),
        Elem::raw_name(e.result),
        if e.saturating { " saturating" } else { "" }
    )
}
