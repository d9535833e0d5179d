//! The instruction suite's occupancy: one storage-buffer load loop with 16, 48, 112 or 240
//! more values live across it, aimed at 32, 64, 128 and 255 registers per invocation — load
//! throughput against occupancy. The driver's real register count is in `--shader-stats`
//! (`glsl/instructions/occupancy.comp`).

use crate::data::ThreadSum;
use crate::families::instructions::{exact, pieces, word};
use crate::families::{Columns, Shared, Spec};
use crate::kernels::{
    check_built, named, KernelId,
    Part::{Number, Text},
};
use crate::model::{Pattern, Suite};
use anyhow::Result;
use perftest_gpu::pipeline::Binding;

/// Load throughput against occupancy.
pub struct Occupancy;

/// The registers a kernel aims at, and the blocks of 16 live values it holds for it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Registers(u32);

impl Registers {
    const ALL: [Registers; 4] = [Registers(32), Registers(64), Registers(128), Registers(255)];

    /// Blocks of 16 values held live (`REGS` in the kernel): about 16 registers go to the loop.
    fn blocks(self) -> u32 {
        match self.0 {
            32 => 1,
            64 => 3,
            128 => 7,
            _ => 15,
        }
    }
}

/// The kernel's `keep`.
fn keep(w: u32) -> u32 {
    w.wrapping_mul(0x9E37_79B1) ^ (w >> 15)
}

impl Spec for Occupancy {
    type Variant = Registers;
    type Resources<'g> = ();

    fn tests(&self) -> Vec<(Suite, Registers, Pattern)> {
        crate::families::each(Suite::Instructions, Registers::ALL, &[Pattern::Linear])
    }

    fn name(&self, r: Registers) -> String {
        format!("occupancy: load loop, {} registers", r.0)
    }

    /// One kernel per register count: the name carries no pattern.
    fn test_name(&self, r: Registers, _: Pattern) -> String {
        self.name(r)
    }

    fn columns(&self, r: Registers) -> Columns {
        Columns {
            family: "occupancy",
            resource: "STORAGE_BUFFER",
            format: format!("uint + {} live values", 16 * r.blocks()),
        }
    }

    fn bytes_per_load(&self, _: Registers) -> Option<u32> {
        Some(4)
    }

    fn kernel(&self, r: Registers, _: Pattern) -> KernelId {
        kernel_of(r)
    }

    fn reference(&self, r: Registers, _: Pattern, input: &[u8]) -> Vec<ThreadSum> {
        (0..256usize)
            .map(|l| {
                let sum = (0..256).fold(0u32, |s, i| s.wrapping_add(word(input, l + i)));
                let g = (0..16 * r.blocks() as usize).fold(0u32, |g, k| {
                    g.wrapping_mul(31)
                        .wrapping_add(keep(word(input, (l * 16 + k) & 4095)))
                });
                exact(pieces(sum, g))
            })
            .collect()
    }

    fn tolerance(&self, _: Registers) -> f32 {
        0.0
    }

    fn dispatch_groups(
        &self,
        _: Registers,
        _: Pattern,
        calibrated: u32,
        compute_units: Option<u32>,
    ) -> u32 {
        crate::families::instructions::whole_waves(calibrated, compute_units)
    }

    fn create<'g>(&self, _: &Shared<'g>) -> Result<()> {
        Ok(())
    }

    fn unsupported(&self, _: &(), _: &Shared<'_>, _: Registers) -> Option<String> {
        None
    }

    fn bindings<'a, 'g>(
        &self,
        _: &'a (),
        s: &'a Shared<'g>,
        _: Registers,
    ) -> Vec<(u32, Binding<'a, 'g>)> {
        s.input_binding()
    }
}

/// The kernel of `r` registers.
const fn kernel_of(r: Registers) -> KernelId {
    named(&[Text("occupancy_r"), Number(r.0)])
}
check_built!(kernel_of; Registers::ALL);
