//! The matrix suite's workgroup-scope cooperative matrices (`VK_NV_cooperative_matrix2`'s
//! flexible dimensions): one M×N×K multiply-add shared by a whole workgroup of W invocations,
//! which a driver may map onto larger tensor-core instructions than a subgroup's
//! (`glsl/matrix/coopmat2.comp`); and one row naming every flexible-dimension configuration the
//! driver lists. Inputs and the exact comparison are coopmat.rs's.

use crate::data::ThreadSum;
use crate::families::instructions::whole_waves;
use crate::families::matrix::coopmat::{cfg, describe, Config, Elem};
use crate::families::{Columns, Shared, Spec, Unit};
use crate::kernels::{
    check_built, KernelId,
    Part::{Number, Text},
};
use crate::model::{Pattern, Suite};
use anyhow::Result;
use ash::vk;
use perftest_gpu::pipeline::Binding;
use perftest_gpu::FlexibleEntry;

/// Workgroup-scope cooperative-matrix throughput.
pub struct Coopmat2;

/// Accumulators per workgroup and pairs of multiply-adds per accumulator (the kernel's).
const ACC: usize = 4;
const ITER: u64 = 64;

use Elem::{Bf16, F16, F32, S32, S8};
/// Every configuration with a row (the kernel's `@kernels` lines, in order), each for
/// workgroups of 128 and 256 invocations: shapes of one Hopper warpgroup instruction
/// (64×N×16) and their doubles, within the 48 KB of shared memory the kernel may use.
const SHAPES: [Config; 7] = [
    cfg(64, 64, 16, F16, F16, F32, false),
    cfg(64, 64, 32, F16, F16, F32, false),
    cfg(64, 128, 16, F16, F16, F32, false),
    cfg(64, 64, 16, F16, F16, F16, false),
    cfg(64, 128, 16, F16, F16, F16, false),
    cfg(64, 64, 16, Bf16, Bf16, F32, false),
    cfg(64, 64, 32, S8, S8, S32, false),
];
/// Workgroup sizes of each shape.
const INVOCATIONS: [u32; 2] = [128, 256];

/// A test of the family.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Variant {
    /// Shape `SHAPES[.0]` with `INVOCATIONS[.1]`.
    Shape(usize, usize),
    /// The row that lists the driver's flexible-dimension configurations.
    Listed,
}

impl Variant {
    fn config(self) -> Option<(Config, u32)> {
        match self {
            Variant::Shape(s, w) => Some((SHAPES[s], INVOCATIONS[w])),
            Variant::Listed => None,
        }
    }
}

/// Whether the driver's flexible-dimension entry `f` allows `c` at workgroup scope for `w`
/// invocations: same types, not saturating, each dimension a multiple of its granularity.
fn fits(c: &Config, w: u32, f: &FlexibleEntry) -> bool {
    let e = &f.entry;
    e.scope == vk::ScopeKHR::WORKGROUP.as_raw()
        && f.invocations == w
        && (e.a, e.b, e.c, e.result) == (c.a.vk(), c.b.vk(), c.c.vk(), c.c.vk())
        && !e.saturating
        && e.m > 0
        && e.n > 0
        && e.k > 0
        && c.m.is_multiple_of(e.m)
        && c.n.is_multiple_of(e.n)
        && c.k.is_multiple_of(e.k)
}

impl Spec for Coopmat2 {
    type Variant = Variant;
    type Resources<'g> = ();

    fn tests(&self) -> Vec<(Suite, Variant, Pattern)> {
        (0..SHAPES.len())
            .flat_map(|s| (0..INVOCATIONS.len()).map(move |w| Variant::Shape(s, w)))
            .chain([Variant::Listed])
            .map(|v| (Suite::Matrix, v, Pattern::Linear))
            .collect()
    }

    fn name(&self, v: Variant) -> String {
        match v.config() {
            Some((c, w)) => format!(
                "matrix: coopmat2 {}x{}x{} {}*{}+{} workgroup of {w}",
                c.m,
                c.n,
                c.k,
                c.a.name(),
                c.b.name(),
                c.c.name()
            ),
            None => "matrix: coopmat2 flexible-dimension configurations".into(),
        }
    }

    fn test_name(&self, v: Variant, _: Pattern) -> String {
        self.name(v)
    }

    fn columns(&self, v: Variant) -> Columns {
        Columns {
            family: "coopmat2",
            resource: "none",
            format: match v.config() {
                Some((c, _)) => format!("{}*{}+{}", c.a.glsl(), c.b.glsl(), c.c.glsl()),
                None => "-".into(),
            },
        }
    }

    fn bytes_per_load(&self, _: Variant) -> Option<u32> {
        None
    }

    fn kernel(&self, v: Variant, _: Pattern) -> KernelId {
        // The listing row is never built (always unsupported).
        let (c, w) = v.config().unwrap_or((SHAPES[0], INVOCATIONS[0]));
        kernel_of(c, w, "")
    }

    fn clock_kernel(&self, v: Variant, _: Pattern) -> Option<KernelId> {
        v.config().map(|(c, w)| kernel_of(c, w, "_tc"))
    }

    fn reference(&self, v: Variant, _: Pattern, input: &[u8]) -> Vec<ThreadSum> {
        let Some((c, _)) = v.config() else {
            return Vec::new();
        };
        let results: Vec<Vec<i32>> = (0..ACC).map(|j| c.result(input, j, ITER)).collect();
        (0..256).map(|s| Config::lane(&results, s, 256)).collect()
    }

    fn tolerance(&self, _: Variant) -> f32 {
        0.0
    }

    /// A workgroup's multiply-adds, two operations each, over its 256 output slots.
    fn ops_per_thread(&self, v: Variant) -> u64 {
        let Some((c, _)) = v.config() else { return 0 };
        ITER * 2 * ACC as u64 * 2 * (c.m * c.n * c.k) as u64 / 256
    }

    fn unit(&self, v: Variant) -> Unit {
        v.config().map_or(Unit::Ops, |(c, _)| c.unit())
    }

    fn dispatch_groups(&self, _: Variant, _: Pattern, calibrated: u32, units: Option<u32>) -> u32 {
        whole_waves(calibrated, units)
    }

    fn create<'g>(&self, _: &Shared<'g>) -> Result<()> {
        Ok(())
    }

    fn unsupported(&self, _: &(), s: &Shared<'_>, v: Variant) -> Option<String> {
        let info = s.gpu.info;
        let m = &info.matrix;
        let c2 = &m.coopmat2;
        if !m.coopmat2_offered {
            return Some("the device lacks VK_NV_cooperative_matrix2".into());
        }
        if info.api_version < vk::API_VERSION_1_3 {
            return Some("its SPIR-V 1.6 kernels need Vulkan 1.3".into());
        }
        if !c2.enabled {
            return Some(m.held_back.clone().unwrap_or_else(|| {
                "the device lacks cooperativeMatrixWorkgroupScope or \
                 cooperativeMatrixFlexibleDimensions"
                    .into()
            }));
        }
        let Some((c, w)) = v.config() else {
            let listed: Vec<String> = c2
                .entries
                .iter()
                .map(|f| format!("{} ({} invocations)", describe(&f.entry), f.invocations))
                .collect();
            return Some(format!(
                "granularities the driver lists ({}; largest dimension {}, workgroups up to {}, \
                 {} bytes of shared memory reserved): {}",
                listed.len(),
                c2.max_dimension,
                c2.max_workgroup_size,
                c2.reserved_shared_memory,
                listed.join("; ")
            ));
        };
        if w > c2.max_workgroup_size {
            return Some(format!(
                "cooperativeMatrixWorkgroupScopeMaxWorkgroupSize is {}",
                c2.max_workgroup_size
            ));
        }
        if c.m.max(c.n).max(c.k) > c2.max_dimension {
            return Some(format!(
                "cooperativeMatrixFlexibleDimensionsMaxDimension is {}",
                c2.max_dimension
            ));
        }
        let fits = c2.entries.iter().any(|f| fits(&c, w, f));
        if !fits {
            return Some(format!(
                "the driver lists no workgroup-scope flexible-dimension configuration of these \
                 types for {w} invocations whose granularity divides {}x{}x{}",
                c.m, c.n, c.k
            ));
        }
        let f = info.features;
        match c.a {
            F16 => crate::families::lacks_feature(f.shader_float16, "shaderFloat16"),
            S8 => crate::families::lacks_feature(f.shader_int8, "shaderInt8"),
            Bf16 => crate::families::lacks_feature(m.bfloat16.2, "shaderBFloat16CooperativeMatrix"),
            _ => None,
        }
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

/// The kernel of shape `c` in workgroups of `w`, of kind `kind`: `` (throughput) or `_tc`
/// (the same reading its clock).
const fn kernel_of(c: Config, w: u32, kind: &str) -> KernelId {
    c.kernel("coopmat2_", [Text("_w"), Number(w), Text(kind)])
}
check_built!(kernel_of; SHAPES, INVOCATIONS, ["", "_tc"]);

#[cfg(test)]
mod tests {
    use super::*;
    use perftest_gpu::CoopMatEntry;

    /// A workgroup-scope f16 × f16 + f32 granularity, as the H100's driver lists them.
    fn h100(m: u32, n: u32, k: u32, invocations: u32) -> FlexibleEntry {
        let f16 = Elem::F16.vk();
        let f32 = Elem::F32.vk();
        FlexibleEntry {
            entry: CoopMatEntry {
                m,
                n,
                k,
                a: f16,
                b: f16,
                c: f32,
                result: f32,
                saturating: false,
                scope: vk::ScopeKHR::WORKGROUP.as_raw(),
            },
            invocations,
        }
    }

    #[test]
    fn a_shape_fits_a_granularity_of_its_types_and_workgroup() {
        let c = SHAPES[0]; // 64x64x16 f16*f16+f32
        assert!(fits(&c, 128, &h100(32, 16, 16, 128)));
        assert!(fits(&c, 256, &h100(32, 32, 16, 256)));
        assert!(
            !fits(&c, 128, &h100(32, 32, 16, 256)),
            "another workgroup size"
        );
        assert!(
            !fits(&SHAPES[3], 128, &h100(32, 16, 16, 128)),
            "f16 accumulators"
        );
        assert!(
            !fits(&c, 128, &h100(48, 16, 16, 128)),
            "64 is no multiple of 48"
        );
        let mut subgroup = h100(16, 16, 16, 128);
        subgroup.entry.scope = vk::ScopeKHR::SUBGROUP.as_raw();
        assert!(!fits(&c, 128, &subgroup));
    }

    #[test]
    fn every_shape_has_its_kernels_and_fits_shared_memory() {
        for (_, v, p) in Coopmat2.tests() {
            if let Some((c, _)) = v.config() {
                // Found in the kernel table (`named` panics where it is not built).
                assert!(
                    Coopmat2.kernel(v, p).name().starts_with("coopmat2_"),
                    "{v:?}"
                );
                let size = |e: Elem| match e {
                    F32 | S32 => 4,
                    S8 => 1,
                    _ => 2,
                };
                let bytes = c.m * c.k * size(c.a)
                    + 2 * c.k * c.n * size(c.b)
                    + (c.m * c.n + ACC as u32) * size(c.c)
                    + 4096;
                assert!(bytes <= 48 * 1024, "{v:?}: {bytes}");
            }
        }
        assert_eq!(
            Coopmat2.name(Variant::Shape(0, 0)),
            "matrix: coopmat2 64x64x16 f16*f16+f32 workgroup of 128"
        );
        // 64 pairs × 4 accumulators × 2 of 64·64·16 multiply-adds, two operations each.
        assert_eq!(
            Coopmat2.ops_per_thread(Variant::Shape(0, 0)),
            64 * 8 * 2 * 65536 / 256
        );
    }
}
