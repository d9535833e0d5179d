//! The matrix suite's cooperative matrices: one row per configuration of a fixed table (the
//! union of what NVIDIA, AMD and Intel drivers list), run where the driver lists it, in
//! operations per clock per compute unit and clocks per dependent multiply-add
//! (`glsl/matrix/coopmat.comp`), and one row naming whatever the driver lists beyond the table.
//!
//! Inputs are small integers (see the kernel) that keep every partial sum exact in any order
//! of accumulation, so every row — float types included — is compared exactly.

mod config;

use crate::data::ThreadSum;
use crate::families::instructions::whole_waves;
use crate::families::{Columns, Latency, Shared, Spec, Unit};
use crate::kernels::{check_built, KernelId, Part::Text};
use crate::model::{Pattern, Suite};
use anyhow::Result;
pub(super) use config::{cfg, describe, Config, Elem, CONFIGS};
use perftest_gpu::pipeline::Binding;
use perftest_gpu::CoopMatEntry;

/// Cooperative-matrix throughput and latency.
pub struct Coopmat;

/// Independent accumulators per subgroup (the kernel's `ACC`).
const ACC: usize = 8;
/// Pairs of multiply-adds per accumulator, for a subgroup of 32 (the kernel's `ITER`).
const ITER: u64 = 128;
/// Dependent pairs per latency iteration (the kernel's `UNROLL`).
const UNROLL: u32 = 4;

/// A test of the family: a configuration, or the row of listed configurations without one.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Variant {
    Config(usize),
    Unlisted,
}

/// The driver's entries that no row covers, as `16x16x16 f16*f16+f32=f32 subgroup` strings.
fn unlisted(entries: &[CoopMatEntry]) -> Vec<String> {
    entries
        .iter()
        .filter(|e| !CONFIGS.iter().any(|c| c.is(e)))
        .map(describe)
        .collect()
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

    fn kernel(&self, v: Variant, _: Pattern) -> KernelId {
        let i = match v {
            Variant::Config(i) => i,
            // Never built: the row is always unsupported.
            Variant::Unlisted => 0,
        };
        kernel_of(CONFIGS[i], "_t")
    }

    fn clock_kernel(&self, v: Variant, _: Pattern) -> Option<KernelId> {
        match v {
            Variant::Config(i) => Some(kernel_of(CONFIGS[i], "_tc")),
            Variant::Unlisted => None,
        }
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
        (0..256)
            .map(|t| Config::lane(&results, t % sg, sg))
            .collect()
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
        Some(Latency::reporting_width(
            kernel_of(CONFIGS[i], "_latency"),
            2 * UNROLL,
        ))
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
            let missing = unlisted(&info.matrix.entries);
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
            Elem::F16 => (!f.shader_float16).then_some("shaderFloat16"),
            Elem::Bf16 => (!m.bfloat16.2).then_some("shaderBFloat16CooperativeMatrix"),
            Elem::E4m3 | Elem::E5m2 => (!m.float8.1).then_some("shaderFloat8CooperativeMatrix"),
            Elem::S8 | Elem::U8 => (!f.shader_int8).then_some("shaderInt8"),
            _ => None,
        };
        [c.a, c.b, c.c]
            .into_iter()
            .find_map(needs)
            .map(|n| match &m.held_back {
                Some(why)
                    if matches!(
                        n,
                        "shaderBFloat16CooperativeMatrix" | "shaderFloat8CooperativeMatrix"
                    ) =>
                {
                    why.clone()
                }
                _ => format!("the device lacks {n}"),
            })
    }

    fn bindings<'a, 'g>(
        &self,
        _: &'a (),
        s: &'a Shared<'g>,
        _: Variant,
    ) -> Vec<(u32, Binding<'a, 'g>)> {
        s.input_binding()
    }
}

/// The kernel of configuration `c` of kind `kind`: `_t` (throughput), `_tc` (the same
/// reading its clock), `_latency`.
const fn kernel_of(c: Config, kind: &str) -> KernelId {
    c.kernel("coopmat_", [Text(kind), Text(""), Text("")])
}
check_built!(kernel_of; CONFIGS, ["_t", "_tc", "_latency"]);

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_configurations_without_a_row_are_named() {
        let entry = |m, c: Elem, saturating| CoopMatEntry {
            m,
            n: 16,
            k: 16,
            a: Elem::F16.vk(),
            b: Elem::F16.vk(),
            c: c.vk(),
            result: c.vk(),
            saturating,
            scope: ash::vk::ScopeKHR::SUBGROUP.as_raw(),
        };
        let listed = [
            entry(16, Elem::F32, false),
            entry(32, Elem::F32, false),
            entry(16, Elem::F16, true),
        ];
        assert_eq!(
            unlisted(&listed),
            [
                "32x16x16 f16*f16+f32=f32 subgroup",
                "16x16x16 f16*f16+f16=f16 subgroup saturating"
            ]
        );
    }

    #[test]
    fn every_configuration_has_both_kernels() {
        for i in 0..CONFIGS.len() {
            let v = Variant::Config(i);
            // Each found in the kernel table (`named` panics where one is not built).
            let kernel = Coopmat.kernel(v, Pattern::Linear).name();
            let latency = Coopmat.latency(v).unwrap().kernel.name();
            assert_eq!(latency.strip_suffix("_latency"), kernel.strip_suffix("_t"));
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
                let limit = if c.b.unsigned() {
                    u32::MAX
                } else {
                    2048 - 2 * 2 * c.k
                };
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
