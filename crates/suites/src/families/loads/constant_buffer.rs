//! `cbuffer{float4} load`: one vec4 of a 16 KB uniform-buffer array per iteration, and the
//! random pattern over 1 to 32 distinct addresses per 32 lanes.

use crate::data::{self, ThreadSum};
use crate::families::{each, Columns, Shared, Spec};
use crate::kernels::{
    check_built, named, KernelId,
    Part::{Number, Text},
};
use crate::model::{Pattern, Suite};
use anyhow::Result;
use perftest_gpu::pipeline::Binding;

/// The input bound as a `vec4[1024]` uniform buffer (HLSL's constant buffer).
pub struct ConstantBuffer;

/// The original's loop, or its random pattern narrowed to `n` distinct addresses per 32 lanes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Variant {
    Original,
    /// Start `(local_index × 0x3504f333) & (n − 1)`: lanes l and l + n of a 32-lane subgroup
    /// share an address, and every n-lane run reads n distinct ones. `n = 16` is the original
    /// random pattern; 1 is uniform; 32 as many addresses as linear, out of order.
    Spread(u32),
    /// The pattern's loop with its index wrapped to the first 32 elements (512 bytes), so
    /// that every load hits a small constant cache, whatever the addresses per subgroup.
    Within512,
}

/// `Within512`'s index mask: 32 `vec4`s.
const WITHIN_MASK: u32 = 31;

/// The spreads, in run order.
const SPREADS: [u32; 6] = [1, 2, 4, 8, 16, 32];

impl Spec for ConstantBuffer {
    type Variant = Variant;
    type Resources<'g> = ();

    fn tests(&self) -> Vec<(Suite, Variant, Pattern)> {
        let original = [Variant::Original];
        let mut t = each(Suite::Original, original, &Pattern::ALL);
        t.extend(each(Suite::Extended, original, &Pattern::UNIFORM_PROBES));
        let spreads = SPREADS.map(Variant::Spread);
        t.extend(each(Suite::Extended, spreads, &[Pattern::Random]));
        let within = [Pattern::Linear, Pattern::Random];
        t.extend(each(Suite::Extended, [Variant::Within512], &within));
        let ceilings = [Pattern::UniformCeiling, Pattern::LinearCeiling];
        t.extend(each(Suite::Ceiling, original, &ceilings));
        t
    }

    fn name(&self, _: Variant) -> String {
        "cbuffer{float4} load".into()
    }

    fn test_name(&self, v: Variant, p: Pattern) -> String {
        match v {
            Variant::Original => format!("{} {}", self.name(v), p.name()),
            Variant::Spread(n) => {
                let s = if n == 1 { "" } else { "es" };
                format!("{} random, {n} address{s} per 32 lanes", self.name(v))
            }
            Variant::Within512 => format!("{} {}, within 512 bytes", self.name(v), p.name()),
        }
    }

    fn columns(&self, _: Variant) -> Columns {
        Columns {
            family: "constant_buffer",
            resource: "UNIFORM_BUFFER",
            format: "vec4".into(),
        }
    }

    fn bytes_per_load(&self, _: Variant) -> Option<u32> {
        Some(16)
    }

    fn kernel(&self, v: Variant, p: Pattern) -> KernelId {
        kernel_of(v, p)
    }

    fn reference(&self, v: Variant, p: Pattern, input: &[u8]) -> Vec<ThreadSum> {
        let load = |i: u32| data::words(input, 4 * i as usize, 4);
        match v {
            Variant::Original => data::sum_1d(p, load),
            Variant::Spread(n) => (0..256u32)
                .map(|local| {
                    let start = local.wrapping_mul(0x3504_f333) & (n - 1);
                    let mut acc = ThreadSum::default();
                    (0..256).for_each(|i| acc.add(load(start + i)));
                    acc
                })
                .collect(),
            Variant::Within512 => (0..256u32)
                .map(|local| {
                    let start = data::start_1d(p, local);
                    let mut acc = ThreadSum::default();
                    (0..256).for_each(|i| acc.add(load((start + i) & WITHIN_MASK)));
                    acc
                })
                .collect(),
        }
    }

    fn create<'g>(&self, _: &Shared<'g>) -> Result<()> {
        Ok(())
    }

    fn bindings<'a, 'g>(
        &self,
        _: &'a (),
        s: &'a Shared<'g>,
        _: Variant,
    ) -> Vec<(u32, Binding<'a, 'g>)> {
        // 16 KB is the smallest maxUniformBufferRange Vulkan allows: supported everywhere.
        vec![(0, Binding::UniformBuffer(&s.input, s.input.size))]
    }
}

/// The kernel of variant `v` and pattern `p`.
const fn kernel_of(v: Variant, p: Pattern) -> KernelId {
    match v {
        Variant::Original => named(&[Text("constant_buffer_w4_"), Text(p.ident())]),
        Variant::Spread(n) => named(&[Text("constant_buffer_w4_spread"), Number(n)]),
        Variant::Within512 => named(&[
            Text("constant_buffer_w4_"),
            Text(p.ident()),
            Text("_within512"),
        ]),
    }
}
check_built!(kernel_of; [Variant::Original], Pattern::ALL);
check_built!(kernel_of; [Variant::Original], Pattern::UNIFORM_PROBES);
check_built!(kernel_of; [Variant::Spread(1), Variant::Spread(2), Variant::Spread(4), Variant::Spread(8), Variant::Spread(16), Variant::Spread(32)], [Pattern::Random]);
check_built!(kernel_of; [Variant::Within512], [Pattern::Linear, Pattern::Random]);
check_built!(kernel_of; [Variant::Original], [Pattern::UniformCeiling, Pattern::LinearCeiling]);
