//! The instruction suite's shared-memory loads: 32-bit loads with 1, 2, 4 … 32 words between
//! neighbouring lanes (the cost of bank conflicts) and 16-byte loads, in loads per clock per
//! compute unit, with the latency of a dependent load at each stride (`glsl/instructions/shared_bank.comp`).

use crate::data::ThreadSum;
use crate::families::instructions::{encode32, exact, pieces, word};
use crate::families::{Columns, Latency, Shared, Spec};
use crate::kernels::{
    check_built, id, named, KernelId,
    Part::{Number, Text},
};
use crate::model::{Pattern, Suite};
use anyhow::Result;
use perftest_gpu::pipeline::Binding;

/// Shared-memory load timings.
pub struct SharedBank;

/// Loop iterations of the throughput kernel; 16 loads each.
const ITERATIONS: u32 = 256;
const LOADS_PER_ITERATION: u32 = 16;

/// The load: 32-bit at a stride (in words), or 16-byte at stride 1.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Load {
    Stride(u32),
    Vec4,
}

impl Load {
    const ALL: [Load; 7] = [
        Load::Stride(1),
        Load::Stride(2),
        Load::Stride(4),
        Load::Stride(8),
        Load::Stride(16),
        Load::Stride(32),
        Load::Vec4,
    ];
}

impl Spec for SharedBank {
    type Variant = Load;
    type Resources<'g> = ();

    fn tests(&self) -> Vec<(Suite, Load, Pattern)> {
        crate::families::each(Suite::Instructions, Load::ALL, &[Pattern::Linear])
    }

    fn name(&self, v: Load) -> String {
        match v {
            Load::Stride(s) => format!("shared u32 load, stride {s}"),
            Load::Vec4 => "shared uvec4 load, stride 1".into(),
        }
    }

    /// One kernel per load: the name carries no pattern.
    fn test_name(&self, v: Load, _: Pattern) -> String {
        self.name(v)
    }

    fn columns(&self, v: Load) -> Columns {
        Columns {
            family: "shared_bank",
            resource: "shared memory",
            format: match v {
                Load::Stride(_) => "uint",
                Load::Vec4 => "uvec4",
            }
            .into(),
        }
    }

    fn bytes_per_load(&self, v: Load) -> Option<u32> {
        Some(match v {
            Load::Stride(_) => 4,
            Load::Vec4 => 16,
        })
    }

    fn kernel(&self, v: Load, _: Pattern) -> KernelId {
        kernel_of(v)
    }

    fn reference(&self, v: Load, _: Pattern, input: &[u8]) -> Vec<ThreadSum> {
        (0..256u32)
            .map(|lane| match v {
                Load::Stride(stride) => {
                    let mut s = [0u32; 4];
                    for i in 0..ITERATIONS {
                        let at = (lane * stride + 16 * i) & 2047;
                        for k in 0..16 {
                            let w = word(input, (at + k) as usize);
                            s[k as usize & 3] = s[k as usize & 3].wrapping_add(w);
                        }
                    }
                    let h = s[0].wrapping_mul(31).wrapping_add(s[1]);
                    let g = s[2].wrapping_mul(31).wrapping_add(s[3]);
                    exact(pieces(h, g))
                }
                Load::Vec4 => {
                    let mut s = [[0u32; 4]; 4];
                    for i in 0..ITERATIONS {
                        let at = (lane + 16 * i) & 511;
                        for k in 0..16 {
                            for (c, acc) in s[k as usize & 3].iter_mut().enumerate() {
                                let w = word(input, (4 * (at + k)) as usize + c);
                                *acc = acc.wrapping_add(w);
                            }
                        }
                    }
                    exact(encode32(&std::array::from_fn(|j| s[j / 4][j % 4])))
                }
            })
            .collect()
    }

    fn tolerance(&self, _: Load) -> f32 {
        0.0
    }

    fn ops_per_thread(&self, _: Load) -> u64 {
        (ITERATIONS * LOADS_PER_ITERATION) as u64
    }

    fn dispatch_groups(
        &self,
        _: Load,
        _: Pattern,
        calibrated: u32,
        compute_units: Option<u32>,
    ) -> u32 {
        crate::families::instructions::whole_waves(calibrated, compute_units)
    }

    /// A dependent 32-bit load at each stride (a 16-byte one would need arithmetic to chain).
    fn latency(&self, v: Load) -> Option<Latency> {
        match v {
            Load::Stride(s) => Some(Latency::reporting_width(latency_of(s), LOADS_PER_ITERATION)),
            Load::Vec4 => None,
        }
    }

    fn latency_reference(
        &self,
        v: Load,
        _: &[u8],
        iterations: u32,
        size: u32,
        _: u32,
    ) -> Vec<ThreadSum> {
        let Load::Stride(stride) = v else {
            return Vec::new();
        };
        let lanes = size.min(crate::model::LATENCY_GROUP_SIZE as u32);
        let loads = iterations * LOADS_PER_ITERATION;
        (0..lanes)
            .map(|lane| {
                let start = (lane * stride) & 2047;
                exact(pieces((start + 32 * loads) & 2047, start))
            })
            .collect()
    }

    fn create<'g>(&self, _: &Shared<'g>) -> Result<()> {
        Ok(())
    }

    fn unsupported(&self, _: &(), _: &Shared<'_>, _: Load) -> Option<String> {
        None
    }

    fn bindings<'a, 'g>(
        &self,
        _: &'a (),
        s: &'a Shared<'g>,
        _: Load,
    ) -> Vec<(u32, Binding<'a, 'g>)> {
        s.input_binding()
    }
}

/// The kernel of load `v`.
const fn kernel_of(v: Load) -> KernelId {
    match v {
        Load::Stride(s) => named(&[Text("shared_bank_s"), Number(s)]),
        Load::Vec4 => id::SHARED_BANK_VEC4,
    }
}
check_built!(kernel_of; Load::ALL);

/// The latency kernel of loads `stride` words apart.
const fn latency_of(stride: u32) -> KernelId {
    named(&[Text("shared_bank_latency_s"), Number(stride)])
}
check_built!(latency_of; [1, 2, 4, 8, 16, 32]);
