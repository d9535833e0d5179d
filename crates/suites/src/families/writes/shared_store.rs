//! `groupshared{float4} store`: 256 stores per thread into a shared `vec4[512]`; under
//! `--verify`, group 0 copies its table to a host-visible buffer.

use crate::families::writes::{
    final_contents, stores_1d, Channel, Contents, Kind, Layout, SharedTable, SHARED_ELEMENTS,
};
use crate::kernels::{check_built, named, KernelId, Part::Text};
use crate::model::Pattern;

/// Stores to workgroup memory.
pub static SHARED_STORE: SharedTable = SharedTable {
    name: "groupshared{float4} store",
    family: "shared_store",
    format: "vec4",
    layout: LAYOUT,
    kernel: kernel_of,
    expected,
};

const LAYOUT: Layout = Layout {
    channel: Channel::Float,
    channels: 4,
};

/// The table one group leaves in pattern `p`.
fn expected(p: Pattern) -> Contents {
    let stores = stores_1d(p, Kind::Float, SHARED_ELEMENTS);
    final_contents(&stores, SHARED_ELEMENTS, LAYOUT)
}

/// The kernel of pattern `p`.
const fn kernel_of(p: Pattern) -> KernelId {
    named(&[Text("shared_store_w4_"), Text(p.ident())])
}
check_built!(kernel_of; Pattern::ALL);
