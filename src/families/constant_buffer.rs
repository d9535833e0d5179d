//! `cbuffer{float4} load`: one vec4 of a 16 KB uniform-buffer array per iteration.

use super::{each, Columns, Shared, Spec};
use crate::model::{Pattern, Suite};
use crate::data::{self, ThreadSum};
use crate::pipeline::Binding;
use anyhow::Result;

/// The input bound as a `vec4[1024]` uniform buffer (HLSL's constant buffer).
pub struct ConstantBuffer;

impl Spec for ConstantBuffer {
    type Variant = ();
    type Resources<'g> = ();

    fn tests(&self) -> Vec<(Suite, (), Pattern)> {
        let mut t = each(Suite::Original, [()], &Pattern::ALL);
        t.extend(each(Suite::Extended, [()], &Pattern::UNIFORM_PROBES));
        let ceilings = [Pattern::UniformCeiling, Pattern::LinearCeiling];
        t.extend(each(Suite::Ceiling, [()], &ceilings));
        t
    }

    fn name(&self, _: ()) -> String {
        "cbuffer{float4} load".into()
    }

    fn columns(&self, _: ()) -> Columns {
        Columns {
            family: "constant_buffer",
            resource: "UNIFORM_BUFFER",
            format: "vec4".into(),
        }
    }

    fn bytes_per_load(&self, _: ()) -> Option<u32> {
        Some(16)
    }

    fn kernel(&self, _: (), p: Pattern) -> String {
        format!("constant_buffer_w4_{}", p.ident())
    }

    fn reference(&self, _: (), p: Pattern, input: &[u8]) -> Vec<ThreadSum> {
        data::sum_1d(p, |i| data::words(input, 4 * i as usize, 4))
    }

    fn create<'g>(&self, _: &Shared<'g>) -> Result<()> {
        Ok(())
    }

    fn bindings<'a, 'g>(&self, _: &'a (), s: &'a Shared<'g>, _: ()) -> Vec<(u32, Binding<'a, 'g>)> {
        // 16 KB is the smallest maxUniformBufferRange Vulkan allows: supported everywhere.
        vec![(0, Binding::UniformBuffer(&s.input, s.input.size))]
    }
}
