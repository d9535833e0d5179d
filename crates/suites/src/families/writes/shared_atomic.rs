//! `groupshared{uint} InterlockedAdd`: 256 `atomicAdd` per thread on a shared `uint[512]`;
//! under `--verify`, group 0 copies its table to a host-visible buffer.

use crate::families::writes::{atomics, Atomic, Contents, SharedTable, SHARED_ELEMENTS};
use crate::kernels::{check_built, named, KernelId, Part::Text};
use crate::model::Pattern;

/// Atomics on workgroup memory.
pub static SHARED_ATOMIC: SharedTable = SharedTable {
    name: "groupshared{uint} InterlockedAdd",
    family: "shared_atomic",
    format: "uint",
    layout: Atomic::Add.layout(),
    kernel: kernel_of,
    expected,
};

/// The table one group leaves in pattern `p`: the sums of one group, whatever the dispatch
/// size.
fn expected(p: Pattern) -> Contents {
    atomics(Atomic::Add, p, 1, SHARED_ELEMENTS)
}

/// The kernel of pattern `p`.
const fn kernel_of(p: Pattern) -> KernelId {
    named(&[Text("shared_atomic_add_"), Text(p.ident())])
}
check_built!(kernel_of; Pattern::ALL);
