//! The matrix suite's cooperative matrices: one row per configuration of a fixed table (the
//! union of what NVIDIA, AMD and Intel drivers list), run where the driver lists it, in
//! operations per clock per compute unit and clocks per dependent multiply-add
//! (`glsl/coopmat.comp`), and one row naming whatever the driver lists beyond the table.
//!
//! Inputs are small integers (see the kernel) that keep every partial sum exact in any order
//! of accumulation, so every row — float types included — is compared exactly.

use super::instructions::{exact, pieces, whole_waves, word};
use super::{Columns, Latency, Shared, Spec, Unit};
use crate::data::ThreadSum;
use crate::gpu::{
    CoopMatEntry, DeviceInfo, COMPONENT_BFLOAT16, COMPONENT_FLOAT8_E4M3, COMPONENT_FLOAT8_E5M2,
};
use crate::model::{Pattern, Suite};
use crate::pipeline::Binding;
use anyhow::Result;
use ash::vk;

/// Cooperative-matrix throughput and latency.
pub struct Coopmat;

/// Independent accumulators per subgroup (the kernel's `ACC`).
const ACC: usize = 8;
/// Pairs of multiply-adds per accumulator, for a subgroup of 32 (the kernel's `ITER`).
const ITER: u64 = 128;
/// Rows of C beyond M: accumulator j of either kernel starts from rows j… (at most 8).
const ACC_ROWS: usize = 8;
/// Dependent pairs per latency iteration (the kernel's `UNROLL`).
const UNROLL: u32 = 4;

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
    pub fn name(self) -> &'static str {
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
    pub(super) fn glsl(self) -> &'static str {
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
    pub(super) fn vk(self) -> i32 {
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
    pub(super) fn raw_name(raw: i32) -> String {
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

    fn unsigned(self) -> bool {
        matches!(self, Elem::U8 | Elem::U32)
    }

    fn float(self) -> bool {
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

pub(super) const fn cfg(m: u32, n: u32, k: u32, a: Elem, b: Elem, c: Elem, saturating: bool) -> Config {
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
    /// `16x16x16_f16_f16_f32[_sat]`, as kernel names print it.
    fn label(&self) -> String {
        format!(
            "{}x{}x{}_{}_{}_{}{}",
            self.m,
            self.n,
            self.k,
            self.a.name(),
            self.b.name(),
            self.c.name(),
            if self.saturating { "_sat" } else { "" }
        )
    }

    /// Whether the driver's entry `e` is this configuration.
    fn is(&self, e: &CoopMatEntry) -> bool {
        (e.m, e.n, e.k) == (self.m, self.n, self.k)
            && (e.a, e.b, e.c, e.result) == (self.a.vk(), self.b.vk(), self.c.vk(), self.c.vk())
            && e.saturating == self.saturating
            && e.scope == vk::ScopeKHR::SUBGROUP.as_raw()
    }

    /// The unit of its counts: flops for float accumulators, ops for integer ones.
    pub(super) fn unit(&self) -> Unit {
        if self.c.float() {
            Unit::Flops
        } else {
            Unit::Ops
        }
    }

    /// A, B1, B2 (row-major) and C (`(M + ACC)·N` elements) as the kernel fills them (words
    /// wrap at the input's 4096).
    fn matrices(&self, input: &[u8]) -> (Vec<i64>, Vec<i64>, Vec<i64>, Vec<i64>) {
        let small = |w: u32, u: bool| if u { (w % 3) as i64 } else { (w % 5) as i64 - 2 };
        let small_c = |w: u32, u: bool| if u { (w % 5) as i64 } else { (w % 9) as i64 - 4 };
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
    pub(super) fn result(&self, input: &[u8], j: usize, pairs: u64) -> Vec<i32> {
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
    pub(super) fn lane(results: &[Vec<i32>], lane: usize, subgroup_size: usize) -> ThreadSum {
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

/// A test of the family: a configuration, or the row of listed configurations without one.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Variant {
    Config(usize),
    Unlisted,
}

/// The driver's entries that no row covers, as `16x16x16 f16*f16+f32=f32 subgroup` strings.
fn unlisted(info: &DeviceInfo) -> Vec<String> {
    info.matrix
        .entries
        .iter()
        .filter(|e| !CONFIGS.iter().any(|c| c.is(e)))
        .map(describe)
        .collect()
}

/// An entry as `16x16x16 f16*f16+f32=f32 subgroup [saturating]`.
pub(super) fn describe(e: &CoopMatEntry) -> String {
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

impl Spec for Coopmat {
    type Variant = Variant;
    type Resources<'g> = ();

    fn tests(&self) -> Vec<(Suite, Variant, Pattern)> {
        (0..CONFIGS.len())
            .map(Variant::Config)
            .chain([Variant::Unlisted])
            .map(|v| (Suite::Matrix, v, Pattern::Linear))
            .collect()
    }

    fn name(&self, v: Variant) -> String {
        match v {
            Variant::Config(i) => {
                let c = &CONFIGS[i];
                format!(
                    "matrix: coopmat {}x{}x{} {}*{}+{} subgroup{}",
                    c.m,
                    c.n,
                    c.k,
                    c.a.name(),
                    c.b.name(),
                    c.c.name(),
                    if c.saturating { " saturating" } else { "" }
                )
            }
            Variant::Unlisted => "matrix: coopmat configurations without a row".into(),
        }
    }

    fn test_name(&self, v: Variant, _: Pattern) -> String {
        self.name(v)
    }

    fn columns(&self, v: Variant) -> Columns {
        let format = match v {
            Variant::Config(i) => {
                let c = &CONFIGS[i];
                format!("{}*{}+{}", c.a.glsl(), c.b.glsl(), c.c.glsl())
            }
            Variant::Unlisted => "-".into(),
        };
        Columns {
            family: "coopmat",
            resource: "none",
            format,
        }
    }

    fn bytes_per_load(&self, _: Variant) -> Option<u32> {
        None
    }

    fn kernel(&self, v: Variant, _: Pattern) -> String {
        let i = match v {
            Variant::Config(i) => i,
            // Never built: the row is always unsupported.
            Variant::Unlisted => 0,
        };
        format!("coopmat_{}_t", CONFIGS[i].label())
    }

    fn reference(&self, v: Variant, p: Pattern, input: &[u8]) -> Vec<ThreadSum> {
        self.reference_for(v, p, input, 32)
    }

    fn reference_for(&self, v: Variant, _: Pattern, input: &[u8], sg: u32) -> Vec<ThreadSum> {
        let Variant::Config(i) = v else {
            return Vec::new();
        };
        let c = &CONFIGS[i];
        let pairs = ITER * sg as u64 / 32;
        let results: Vec<Vec<i32>> = (0..ACC).map(|j| c.result(input, j, pairs)).collect();
        let sg = sg.max(1) as usize;
        (0..256).map(|t| Config::lane(&results, t % sg, sg)).collect()
    }

    fn tolerance(&self, _: Variant) -> f32 {
        0.0
    }

    /// Multiply-adds of a workgroup (the same whatever its subgroup size: see the kernel),
    /// two operations each, per thread.
    fn ops_per_thread(&self, v: Variant) -> u64 {
        let Variant::Config(i) = v else { return 0 };
        let c = &CONFIGS[i];
        let per_thread = ITER * 2 * ACC as u64 / 32;
        per_thread * 2 * (c.m * c.n * c.k) as u64
    }

    fn unit(&self, v: Variant) -> Unit {
        match v {
            Variant::Config(i) => CONFIGS[i].unit(),
            Variant::Unlisted => Unit::Ops,
        }
    }

    fn dispatch_groups(&self, _: Variant, _: Pattern, calibrated: u32, units: Option<u32>) -> u32 {
        whole_waves(calibrated, units)
    }

    fn latency(&self, v: Variant) -> Option<Latency> {
        let Variant::Config(i) = v else { return None };
        Some(Latency {
            kernel: format!("coopmat_{}_latency", CONFIGS[i].label()),
            ops_per_iteration: 2 * UNROLL,
            ..Default::default()
        })
    }

    fn latency_reference(
        &self,
        v: Variant,
        input: &[u8],
        iterations: u32,
        subgroup_size: u32,
        _: u32,
    ) -> Vec<ThreadSum> {
        let Variant::Config(i) = v else {
            return Vec::new();
        };
        let c = &CONFIGS[i];
        let results = [c.result(input, 0, (iterations * UNROLL) as u64)];
        let sg = subgroup_size.max(1) as usize;
        let lanes = sg.min(crate::model::LATENCY_GROUP_SIZE);
        (0..lanes).map(|l| Config::lane(&results, l, sg)).collect()
    }

    fn create<'g>(&self, _: &Shared<'g>) -> Result<()> {
        Ok(())
    }

    fn unsupported(&self, _: &(), s: &Shared<'_>, v: Variant) -> Option<String> {
        let info = s.gpu.info;
        let m = &info.matrix;
        if !m.coopmat_offered {
            return Some("the device lacks VK_KHR_cooperative_matrix".into());
        }
        if !m.coopmat {
            return m.held_back.clone();
        }
        let Variant::Config(i) = v else {
            let missing = unlisted(info);
            return Some(if missing.is_empty() {
                format!(
                    "every configuration the driver lists ({}) has its own row",
                    m.entries.len()
                )
            } else {
                format!(
                    "the driver lists {} configuration(s) without a row here: {}",
                    missing.len(),
                    missing.join("; ")
                )
            });
        };
        let c = &CONFIGS[i];
        if !m.entries.iter().any(|e| c.is(e)) {
            return Some("the driver lists no such cooperative-matrix configuration".into());
        }
        let f = info.features;
        let needs = |e: Elem| match e {
            F16 => (!f.shader_float16).then_some("shaderFloat16"),
            Bf16 => (!m.bfloat16.2).then_some("shaderBFloat16CooperativeMatrix"),
            E4m3 | E5m2 => (!m.float8.1).then_some("shaderFloat8CooperativeMatrix"),
            S8 | U8 => (!f.shader_int8).then_some("shaderInt8"),
            _ => None,
        };
        [c.a, c.b, c.c].into_iter().find_map(needs).map(|n| {
            match &m.held_back {
                Some(why) if matches!(n, "shaderBFloat16CooperativeMatrix" | "shaderFloat8CooperativeMatrix") => why.clone(),
                _ => format!("the device lacks {n}"),
            }
        })
    }

    fn bindings<'a, 'g>(&self, _: &'a (), s: &'a Shared<'g>, _: Variant) -> Vec<(u32, Binding<'a, 'g>)> {
        vec![(0, Binding::StorageBuffer(&s.input, s.input.size))]
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_configuration_has_both_kernels() {
        for i in 0..CONFIGS.len() {
            let v = Variant::Config(i);
            assert!(crate::kernels::named(&Coopmat.kernel(v, Pattern::Linear)).is_ok());
            assert!(crate::kernels::named(&Coopmat.latency(v).unwrap().kernel).is_ok());
        }
    }

    #[test]
    fn results_stay_exact_in_every_type() {
        // Every partial sum of every row stays within f16's exact integers (2048), for
        // subgroups of 4 to 128 and the latency kernel's longest timed run.
        let input = crate::data::input();
        for c in CONFIGS {
            let (a, b1, b2, _) = c.matrices(&input);
            let bound = |v: &[i64]| v.iter().map(|x| x.abs()).max().unwrap();
            assert!(bound(&a) <= 2 && bound(&b1) <= 2 && bound(&b2) <= 3);
            let longest = (ITER * 128 / 32).max(16 * UNROLL as u64);
            for j in 0..ACC {
                let r = c.result(&input, j, longest);
                let worst = r.iter().map(|x| x.unsigned_abs()).max().unwrap();
                let limit = if c.b.unsigned() { u32::MAX } else { 2048 - 2 * 2 * c.k };
                assert!(worst <= limit, "{c:?}: {worst}");
            }
        }
    }

    #[test]
    fn the_reference_sees_every_element_and_pair() {
        let input = crate::data::input();
        let c = CONFIGS[1];
        let r = Coopmat.reference_for(Variant::Config(1), Pattern::Linear, &input, 32);
        assert_eq!(r.len(), 256);
        assert_eq!(r[0], r[32], "subgroups repeat");
        assert_ne!(r[0], r[1], "lanes differ");
        // One pair more changes the result: the pairs are counted.
        assert_ne!(c.result(&input, 0, 3), c.result(&input, 0, 4));
        let names: Vec<String> = Coopmat.tests().iter().map(|t| Coopmat.name(t.1)).collect();
        assert_eq!(names[1], "matrix: coopmat 16x16x16 f16*f16+f32 subgroup");
        assert_eq!(Coopmat.ops_per_thread(Variant::Config(1)), 64 * 2 * 4096);
    }
}
