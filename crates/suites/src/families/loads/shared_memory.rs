//! `groupshared{float4} load`: each group copies 512 vec4 of the input into shared memory once,
//! then runs the load loop over shared memory: the in-core reference point.

use crate::data::{self, ThreadSum};
use crate::families::{each, Columns, Shared, Spec};
use crate::kernels::{check_built, named, KernelId, Part::Text};
use crate::model::{Pattern, Suite};
use anyhow::Result;
use perftest_gpu::pipeline::Binding;

/// Loads from workgroup memory, filled from the input bound as a storage buffer.
pub struct SharedMemory;

impl Spec for SharedMemory {
    type Variant = ();
    type Resources<'g> = ();

    fn tests(&self) -> Vec<(Suite, (), Pattern)> {
        each(Suite::Extended, [()], &Pattern::ALL)
    }

    fn name(&self, _: ()) -> String {
        "groupshared{float4} load".into()
    }

    fn columns(&self, _: ()) -> Columns {
        Columns {
            family: "shared_memory",
            resource: "shared memory",
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
        data::sum_1d(p, |i| data::words(input, 4 * i as usize, 4))
    }

    fn create<'g>(&self, _: &Shared<'g>) -> Result<()> {
        Ok(())
    }

    fn bindings<'a, 'g>(&self, _: &'a (), s: &'a Shared<'g>, _: ()) -> Vec<(u32, Binding<'a, 'g>)> {
        s.input_binding()
    }
}

/// The kernel of pattern `p`.
const fn kernel_of(p: Pattern) -> KernelId {
    named(&[Text("shared_memory_w4_"), Text(p.ident())])
}
check_built!(kernel_of; Pattern::ALL);
