//! The instruction suite's subgroup operations — shuffle, broadcast, ballot, add-reduction —
//! in operations per clock per compute unit and latency (`glsl/instructions/subgroup_ops.comp`). The
//! reference replays every subgroup of the device's size, exactly.

use crate::data::ThreadSum;
use crate::families::instructions::{encode32, word};
use crate::families::{each, Columns, Latency, Shared, Spec, Unit};
use crate::kernels::{check_built, named, KernelId, Part::Text};
use crate::model::{Pattern, Suite};
use anyhow::Result;
use perftest_gpu::pipeline::Binding;

/// Subgroup operation timings.
pub struct SubgroupOps;

/// Loop iterations of the throughput kernel (`ITER`).
const ITERATIONS: u32 = 16;
/// Rounds per iteration (one operation on each of the 16 chains).
const ROUNDS: u32 = 16;
const CHAINS: usize = 16;

/// One subgroup operation (the kernel's `OP`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Op {
    Shuffle,
    Broadcast,
    Ballot,
    Add,
}

impl Op {
    const ALL: [Op; 4] = [Op::Shuffle, Op::Broadcast, Op::Ballot, Op::Add];

    const fn label(self) -> &'static str {
        match self {
            Op::Shuffle => "shuffle",
            Op::Broadcast => "broadcast",
            Op::Ballot => "ballot",
            Op::Add => "add",
        }
    }

    /// One step of every lane of one subgroup (`x[lane]`), as the kernel's `UPD`.
    fn step(self, x: &mut [u32], salt: impl Fn(usize) -> u32) {
        let old = x.to_vec();
        match self {
            Op::Shuffle => {
                for (l, v) in x.iter_mut().enumerate() {
                    *v = old[l ^ 1];
                }
            }
            Op::Broadcast => {
                for (l, v) in x.iter_mut().enumerate() {
                    *v = old[0] ^ salt(l);
                }
            }
            Op::Ballot => {
                // .x of the ballot: lanes 0..32 whose own bit (lane & 31) is set.
                let mask = old
                    .iter()
                    .enumerate()
                    .take(32)
                    .filter(|(l, v)| *v & (1 << (l & 31)) != 0)
                    .fold(0u32, |m, (l, _)| m | 1 << l);
                x.iter_mut().for_each(|v| *v = mask);
            }
            Op::Add => {
                let sum = old.iter().fold(0u32, |s, v| s.wrapping_add(*v));
                for (l, v) in x.iter_mut().enumerate() {
                    *v = sum ^ salt(l);
                }
            }
        }
    }

    /// What `threads` invocations in subgroups of `size` write: every chain after
    /// `steps(chain)` operations.
    fn run(
        self,
        input: &[u8],
        threads: usize,
        size: usize,
        steps: impl Fn(usize) -> u32,
    ) -> Vec<ThreadSum> {
        let mul = word(input, 4064) | 1;
        let salt = |l: usize| (l as u32 + 1).wrapping_mul(mul);
        // x[thread][chain]
        let mut x: Vec<[u32; CHAINS]> = (0..threads)
            .map(|t| std::array::from_fn(|j| word(input, (t * 16 + j) & 4095)))
            .collect();
        for j in 0..CHAINS {
            for first in (0..threads).step_by(size) {
                let lanes = &mut x[first..(first + size).min(threads)];
                let mut chain: Vec<u32> = lanes.iter().map(|c| c[j]).collect();
                for _ in 0..steps(j) {
                    self.step(&mut chain, salt);
                }
                for (c, v) in lanes.iter_mut().zip(chain) {
                    c[j] = v;
                }
            }
        }
        x.iter()
            .map(|c| ThreadSum {
                sum: encode32(c),
                magnitude: [1.0; 4],
            })
            .collect()
    }
}

impl Spec for SubgroupOps {
    type Variant = Op;
    type Resources<'g> = ();

    fn tests(&self) -> Vec<(Suite, Op, Pattern)> {
        each(Suite::Instructions, Op::ALL, &[Pattern::Linear])
    }

    fn name(&self, op: Op) -> String {
        match op {
            Op::Shuffle => "subgroup shuffle",
            Op::Broadcast => "subgroup broadcast (+xor)",
            Op::Ballot => "subgroup ballot (+bit test)",
            Op::Add => "subgroup add (+xor)",
        }
        .into()
    }

    /// One kernel per operation: the name carries no pattern.
    fn test_name(&self, op: Op, _: Pattern) -> String {
        self.name(op)
    }

    fn columns(&self, _: Op) -> Columns {
        Columns {
            family: "subgroup_ops",
            resource: "none",
            format: "uint".into(),
        }
    }

    fn bytes_per_load(&self, _: Op) -> Option<u32> {
        None
    }

    fn kernel(&self, op: Op, _: Pattern) -> KernelId {
        kernel_of(op)
    }

    /// The reference for subgroups of 32 (the runner asks for the device's size).
    fn reference(&self, op: Op, p: Pattern, input: &[u8]) -> Vec<ThreadSum> {
        self.reference_for(op, p, input, 32)
    }

    fn reference_for(&self, op: Op, _: Pattern, input: &[u8], size: u32) -> Vec<ThreadSum> {
        op.run(input, 256, size as usize, |_| ITERATIONS * ROUNDS)
    }

    fn tolerance(&self, _: Op) -> f32 {
        0.0
    }

    /// Every kernel writes the width it runs at: the reference replays subgroups of it.
    fn reports_subgroup_size(&self, _: Op) -> bool {
        true
    }

    fn ops_per_thread(&self, _: Op) -> u64 {
        (ITERATIONS * ROUNDS) as u64 * CHAINS as u64
    }

    fn unit(&self, _: Op) -> Unit {
        Unit::Ops
    }

    fn dispatch_groups(
        &self,
        _: Op,
        _: Pattern,
        calibrated: u32,
        compute_units: Option<u32>,
    ) -> u32 {
        crate::families::instructions::whole_waves(calibrated, compute_units)
    }

    fn latency(&self, op: Op) -> Option<Latency> {
        Some(Latency::reporting_width(
            latency_of(op),
            ROUNDS * CHAINS as u32,
        ))
    }

    fn latency_reference(
        &self,
        op: Op,
        input: &[u8],
        iterations: u32,
        size: u32,
        _: u32,
    ) -> Vec<ThreadSum> {
        // One group of 64 invocations: a larger subgroup is only partly filled.
        let lanes = (size as usize).min(crate::model::LATENCY_GROUP_SIZE);
        let steps = |j: usize| {
            if j == 0 {
                iterations * ROUNDS * CHAINS as u32
            } else {
                0
            }
        };
        op.run(input, lanes, lanes, steps)
    }

    fn create<'g>(&self, _: &Shared<'g>) -> Result<()> {
        Ok(())
    }

    fn unsupported(&self, _: &(), s: &Shared<'_>, op: Op) -> Option<String> {
        let info = s.gpu.info;
        let f = info.features;
        if info.subgroup_size < 4 {
            return Some(format!(
                "subgroups of {} invocations (these kernels need at least 4)",
                info.subgroup_size
            ));
        }
        let (ok, what) = match op {
            Op::Shuffle => (f.subgroup_shuffle, "SHUFFLE"),
            Op::Broadcast | Op::Ballot => (f.subgroup_ballot, "BALLOT"),
            Op::Add => (f.subgroup_arithmetic, "ARITHMETIC"),
        };
        (!ok).then(|| {
            format!("subgroup BASIC + {what} operations are not supported in compute shaders")
        })
    }

    fn bindings<'a, 'g>(&self, _: &'a (), s: &'a Shared<'g>, _: Op) -> Vec<(u32, Binding<'a, 'g>)> {
        s.input_binding()
    }
}

/// The kernel of `op`.
const fn kernel_of(op: Op) -> KernelId {
    named(&[Text("subgroup_ops_"), Text(op.label())])
}
check_built!(kernel_of; Op::ALL);

/// The latency kernel of `op`.
const fn latency_of(op: Op) -> KernelId {
    named(&[Text("subgroup_ops_latency_"), Text(op.label())])
}
check_built!(latency_of; Op::ALL);
