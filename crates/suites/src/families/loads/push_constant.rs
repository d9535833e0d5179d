//! `PushConstant{float4[6]} load`: one vec4 of a push-constant array per iteration (the index
//! wraps modulo 6: six vec4 and the 32-byte header fill the smallest maxPushConstantsSize).

use crate::data::{self, ThreadSum};
use crate::families::{each, Columns, Shared, Spec};
use crate::kernels::{check_built, named, KernelId, Part::Text};
use crate::model::{Pattern, Suite};
use anyhow::Result;

/// The first 96 bytes of the input, pushed as `vec4[6]` with every dispatch.
pub struct PushConstant;

impl Spec for PushConstant {
    type Variant = ();
    type Resources<'g> = ();

    fn tests(&self) -> Vec<(Suite, (), Pattern)> {
        each(Suite::Extended, [()], &Pattern::ALL)
    }

    fn name(&self, _: ()) -> String {
        "PushConstant{float4[6]} load".into()
    }

    fn columns(&self, _: ()) -> Columns {
        Columns {
            family: "push_constant",
            resource: "push constants",
            format: "vec4".into(),
        }
    }

    fn bytes_per_load(&self, _: ()) -> Option<u32> {
        Some(16)
    }

    fn kernel(&self, _: (), p: Pattern) -> KernelId {
        kernel_of(p)
    }

    fn reference(&self, _: (), p: Pattern, input: &[u8]) -> Vec<ThreadSum> {
        data::sum_1d(p, |i| data::words(input, 4 * (i % 6) as usize, 4))
    }

    fn create<'g>(&self, _: &Shared<'g>) -> Result<()> {
        Ok(())
    }
}

/// The kernel of pattern `p`.
const fn kernel_of(p: Pattern) -> KernelId {
    named(&[Text("push_constant_w4_"), Text(p.ident())])
}
check_built!(kernel_of; Pattern::ALL);
