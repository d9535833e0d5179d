//! What the four families of the instruction suite (`alu`, `subgroup_ops`, `shared_bank`,
//! `occupancy`) and the matrix suite's arithmetic share: the input as 32-bit words, the exact
//! 16-bit encoding of integer results, tolerances given per thread, whole waves of compute
//! units, and the [`Spec`] of the families that time each operation in chains ([`Chains`]).

// The families of this group.
pub(super) mod alu;
pub(super) mod occupancy;
pub(super) mod shared_bank;
pub(super) mod subgroup_ops;

use crate::data::ThreadSum;
use crate::families::{each, Columns, Latency, Shared, Spec, Unit};
use crate::kernels::KernelId;
use crate::model::{latency_lanes, Pattern, Suite};
use anyhow::Result;
use perftest_gpu::pipeline::Binding;

/// The unit of the instruction families' tolerances: their [`crate::families::Spec::tolerance`]
/// is this (or 0, for results compared exactly), and each reference component's `magnitude`
/// is its absolute tolerance divided by it, so that `tolerance × magnitude` — what
/// [`crate::data::compare`] allows — is that absolute tolerance, thread by thread.
pub const TOLERANCE_UNIT: f32 = 1.0 / (1u64 << 40) as f32;

/// Word `i` of the input (the kernels read it as `uint words[]`).
pub fn word(input: &[u8], i: usize) -> u32 {
    u32::from_le_bytes([
        input[4 * i],
        input[4 * i + 1],
        input[4 * i + 2],
        input[4 * i + 3],
    ])
}

/// A reference compared exactly (with a tolerance of 0).
pub fn exact(sum: [f32; 4]) -> ThreadSum {
    ThreadSum {
        sum,
        magnitude: [1.0; 4],
    }
}

/// A reference compared within `tolerance` (absolute, per component).
pub fn within(sum: [f32; 4], tolerance: [f64; 4]) -> ThreadSum {
    ThreadSum {
        sum,
        magnitude: tolerance.map(|t| (t / TOLERANCE_UNIT as f64) as f32),
    }
}

/// Two 32-bit results in 16-bit pieces, as the kernels' `encode32` writes them.
pub fn pieces(h: u32, g: u32) -> [f32; 4] {
    [
        (h & 0xFFFF) as f32,
        (h >> 16) as f32,
        (g & 0xFFFF) as f32,
        (g >> 16) as f32,
    ]
}

/// `((a0·31 + a1)·31 + …)·31 + a7`, wrapping, as the kernels' `encode32` hashes.
pub fn hash8(a: &[u32]) -> u32 {
    a.iter()
        .fold(0u32, |h, &x| h.wrapping_mul(31).wrapping_add(x))
}

/// The kernels' `encode32` of sixteen words.
pub fn encode32(x: &[u32; 16]) -> [f32; 4] {
    pieces(hash8(&x[..8]), hash8(&x[8..]))
}

/// The calibrated dispatch rounded down to a multiple of the compute units, where known: every
/// unit then runs the same number of groups, and no unit works alone at the end while the
/// others idle (4096 groups on 132 SMs would leave 4 SMs a 32nd group: 3 % of the time).
pub fn whole_waves(calibrated: u32, compute_units: Option<u32>) -> u32 {
    match compute_units {
        Some(n) if n > 0 && calibrated >= n => calibrated / n * n,
        _ => calibrated,
    }
}

/// A family of one test per operation, each timed by independent chains of it and, from a
/// second kernel, by one dependent chain (`alu`, and the matrix suite's `peak` and
/// `dot_product`): what it says of each operation. Its [`Spec`] is written once, below: one
/// kernel per operation whose name carries no pattern, the input's words bound at 0, whole
/// waves, and a latency kernel that writes the width it runs at.
pub trait Chains: Sync + 'static {
    /// One operation: one test.
    type Op: Copy + std::fmt::Debug + PartialEq;
    /// Every operation, in run order.
    const ALL: &'static [Self::Op];
    /// The suite of every test.
    const SUITE: Suite;
    /// The CSV's `family` column.
    const FAMILY: &'static str;

    /// The test name.
    fn name(&self, op: Self::Op) -> &'static str;
    /// The CSV's `format` column: the operands' GLSL type.
    fn format(&self, op: Self::Op) -> &'static str;
    /// The throughput kernel.
    fn kernel(&self, op: Self::Op) -> KernelId;
    /// The throughput kernel reading its own clock, where there is one (see
    /// [`Spec::clock_kernel`]); none by default.
    fn clock_kernel(&self, _op: Self::Op) -> Option<KernelId> {
        None
    }
    /// The latency kernel.
    fn latency_kernel(&self, op: Self::Op) -> KernelId;
    /// Loop iterations of the throughput kernel.
    fn iterations(&self, op: Self::Op) -> u32;
    /// Operations each thread of the throughput kernel performs (see [`Spec::ops_per_thread`]).
    fn ops_per_thread(&self, op: Self::Op) -> u64;
    /// Dependent operations per loop iteration of the latency kernel.
    fn latency_ops(&self, op: Self::Op) -> u32;
    /// What thread `lane` of the throughput kernel (`latency`: lane `lane` of the latency
    /// kernel) writes after `iterations` loop iterations.
    fn thread(
        &self,
        op: Self::Op,
        input: &[u8],
        lane: usize,
        iterations: u32,
        latency: bool,
    ) -> ThreadSum;
    /// Relative tolerance of the sums (see [`Spec::tolerance`]); 0 by default: exact.
    fn tolerance(&self, _op: Self::Op) -> f32 {
        0.0
    }
    /// What the counts count.
    fn unit(&self, op: Self::Op) -> Unit;
    /// Why the device cannot run `op`, if it cannot.
    fn unsupported(&self, shared: &Shared<'_>, op: Self::Op) -> Option<String>;
    /// A note on how `op` runs on this device (see [`Spec::device_note`]); none by default.
    fn device_note(&self, _shared: &Shared<'_>, _op: Self::Op) -> Option<String> {
        None
    }
}

impl<C: Chains> Spec for C {
    type Variant = C::Op;
    type Resources<'g> = ();

    fn tests(&self) -> Vec<(Suite, C::Op, Pattern)> {
        each(C::SUITE, C::ALL.iter().copied(), &[Pattern::Linear])
    }

    fn name(&self, op: C::Op) -> String {
        Chains::name(self, op).into()
    }

    /// One kernel per operation: the name carries no pattern.
    fn test_name(&self, op: C::Op, _: Pattern) -> String {
        Spec::name(self, op)
    }

    fn columns(&self, op: C::Op) -> Columns {
        Columns {
            family: C::FAMILY,
            resource: "none",
            format: self.format(op).into(),
        }
    }

    fn bytes_per_load(&self, _: C::Op) -> Option<u32> {
        None
    }

    fn kernel(&self, op: C::Op, _: Pattern) -> KernelId {
        Chains::kernel(self, op)
    }

    fn clock_kernel(&self, op: C::Op, _: Pattern) -> Option<KernelId> {
        Chains::clock_kernel(self, op)
    }

    fn reference(&self, op: C::Op, _: Pattern, input: &[u8]) -> Vec<ThreadSum> {
        let iterations = self.iterations(op);
        (0..256)
            .map(|l| self.thread(op, input, l, iterations, false))
            .collect()
    }

    fn tolerance(&self, op: C::Op) -> f32 {
        Chains::tolerance(self, op)
    }

    fn ops_per_thread(&self, op: C::Op) -> u64 {
        Chains::ops_per_thread(self, op)
    }

    fn unit(&self, op: C::Op) -> Unit {
        Chains::unit(self, op)
    }

    fn dispatch_groups(&self, _: C::Op, _: Pattern, calibrated: u32, units: Option<u32>) -> u32 {
        whole_waves(calibrated, units)
    }

    fn latency(&self, op: C::Op) -> Option<Latency> {
        let kernel = self.latency_kernel(op);
        Some(Latency::reporting_width(kernel, self.latency_ops(op)))
    }

    fn latency_reference(
        &self,
        op: C::Op,
        input: &[u8],
        iterations: u32,
        subgroup_size: u32,
        _: u32,
    ) -> Vec<ThreadSum> {
        (0..latency_lanes(subgroup_size))
            .map(|l| self.thread(op, input, l, iterations, true))
            .collect()
    }

    fn create<'g>(&self, _: &Shared<'g>) -> Result<()> {
        Ok(())
    }

    fn unsupported(&self, _: &(), s: &Shared<'_>, op: C::Op) -> Option<String> {
        Chains::unsupported(self, s, op)
    }

    fn device_note(&self, _: &(), s: &Shared<'_>, op: C::Op) -> Option<String> {
        Chains::device_note(self, s, op)
    }

    fn bindings<'a, 'g>(
        &self,
        _: &'a (),
        s: &'a Shared<'g>,
        _: C::Op,
    ) -> Vec<(u32, Binding<'a, 'g>)> {
        s.input_binding()
    }
}

/// The unit in the last place of `x` (an f32), as f64.
pub fn ulp32(x: f64) -> f64 {
    let x = (x.abs() as f32).max(f32::MIN_POSITIVE);
    (f32::from_bits(x.to_bits() + 1) - x) as f64
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tolerances_survive_the_encoding() {
        let t = within([1.0; 4], [1e-3, 2f64.powi(-20), 0.0, 1.0]);
        for (m, want) in t.magnitude.iter().zip([1e-3, 2f64.powi(-20), 0.0, 1.0]) {
            let back = *m as f64 * TOLERANCE_UNIT as f64;
            assert!((back - want).abs() <= want * 1e-6, "{back} vs {want}");
        }
    }

    #[test]
    fn whole_waves_only_rounds_down() {
        assert_eq!(whole_waves(4096, Some(132)), 4092);
        assert_eq!(whole_waves(4096, None), 4096);
        assert_eq!(whole_waves(100, Some(132)), 100);
        assert_eq!(ulp32(1.0), f32::EPSILON as f64);
    }
}
