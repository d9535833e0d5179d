//! `groupshared{float4} store`: 256 stores per thread into a shared `vec4[512]`; under
//! `--verify`, group 0 copies its table to a host-visible buffer.

use crate::data::ThreadSum;
use crate::families::writes::{self, Channel, Kind, Layout, SHARED_ELEMENTS};
use crate::families::{each, Checked, Columns, Dispatch, Shared, Spec};
use crate::kernels::{check_built, named, KernelId, Part::Text};
use crate::model::{Pattern, Suite};
use anyhow::Result;
use perftest_gpu::pipeline::Binding;
use perftest_gpu::resources::Buffer;

/// Stores to workgroup memory.
pub struct SharedStore;

const LAYOUT: Layout = Layout {
    channel: Channel::Float,
    channels: 4,
};

impl Spec for SharedStore {
    type Variant = ();
    /// The host-visible buffer group 0's table is copied into.
    type Resources<'g> = Buffer<'g>;

    fn tests(&self) -> Vec<(Suite, (), Pattern)> {
        each(Suite::Write, [()], &Pattern::ALL)
    }

    fn name(&self, _: ()) -> String {
        "groupshared{float4} store".into()
    }

    fn columns(&self, _: ()) -> Columns {
        Columns {
            family: "shared_store",
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

    /// Verified from the memory written (see [`Spec::verify_writes`]), not per thread.
    fn reference(&self, _: (), _: Pattern, _: &[u8]) -> Vec<ThreadSum> {
        Vec::new()
    }

    fn create<'g>(&self, shared: &Shared<'g>) -> Result<Buffer<'g>> {
        writes::shared_result(
            shared,
            "shared store result",
            SHARED_ELEMENTS as u64 * LAYOUT.bytes() as u64,
        )
    }

    fn unsupported(&self, _: &Buffer<'_>, _: &Shared<'_>, _: ()) -> Option<String> {
        None
    }

    fn bindings<'a, 'g>(
        &self,
        result: &'a Buffer<'g>,
        _: &'a Shared<'g>,
        _: (),
    ) -> Vec<(u32, Binding<'a, 'g>)> {
        vec![(0, Binding::StorageBuffer(result, result.size))]
    }

    fn verify_writes(
        &self,
        result: &Buffer<'_>,
        shared: &Shared<'_>,
        _: (),
        p: Pattern,
        _groups: u32,
        dispatch: &mut Dispatch<'_>,
    ) -> Option<Checked> {
        let stores = writes::stores_1d(p, Kind::Float, SHARED_ELEMENTS);
        let expected = writes::final_contents(&stores, SHARED_ELEMENTS, LAYOUT);
        Some(writes::verify_shared(
            shared, result, LAYOUT, expected, dispatch,
        ))
    }
}

/// The kernel of pattern `p`.
const fn kernel_of(p: Pattern) -> KernelId {
    named(&[Text("shared_store_w4_"), Text(p.ident())])
}
check_built!(kernel_of; Pattern::ALL);
