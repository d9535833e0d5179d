//! `RWStructuredBuffer<T>.Store`: 256 stores per thread into a storage buffer of 1024 `uint`,
//! `uvec2`, `uvec4`, `float`, `vec2` or `vec4` (std430).

use crate::data::ThreadSum;
use crate::families::writes::{self, Channel, Kind, Layout, StorageTarget, ELEMENTS};
use crate::families::{each, Checked, Columns, Dispatch, Shared, Spec};
use crate::kernels::{
    check_built, named, KernelId,
    Part::{Number, Text},
};
use crate::model::{Pattern, Suite};
use anyhow::Result;
use perftest_gpu::pipeline::Binding;

/// Stores through a storage buffer (HLSL's `RWStructuredBuffer<T>`).
pub struct BufferStore;

/// The element type: `uint` or `float`, 1, 2 or 4 wide.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Element {
    float: bool,
    width: u32,
}

impl Element {
    fn layout(self) -> Layout {
        Layout {
            channel: if self.float {
                Channel::Float
            } else {
                Channel::Uint
            },
            channels: self.width as usize,
        }
    }
}

impl Spec for BufferStore {
    type Variant = Element;
    /// The target and the buffer it is read back through.
    type Resources<'g> = StorageTarget<'g>;

    fn tests(&self) -> Vec<(Suite, Element, Pattern)> {
        each(Suite::Write, STORED, &Pattern::ALL)
    }

    fn name(&self, e: Element) -> String {
        let ty = if e.float { "float" } else { "uint" };
        let width = if e.width == 1 {
            String::new()
        } else {
            e.width.to_string()
        };
        format!("RWStructuredBuffer<{ty}{width}>.Store")
    }

    fn columns(&self, e: Element) -> Columns {
        let glsl = match (e.float, e.width) {
            (false, 1) => "uint",
            (false, 2) => "uvec2",
            (false, _) => "uvec4",
            (true, 1) => "float",
            (true, 2) => "vec2",
            (true, _) => "vec4",
        };
        Columns {
            family: "buffer_store",
            resource: "STORAGE_BUFFER",
            format: glsl.into(),
        }
    }

    fn bytes_per_load(&self, e: Element) -> Option<u32> {
        Some(4 * e.width)
    }

    fn kernel(&self, e: Element, p: Pattern) -> KernelId {
        kernel_of(e, p)
    }

    /// Verified from the memory written (see [`Spec::verify_writes`]), not per thread.
    fn reference(&self, _: Element, _: Pattern, _: &[u8]) -> Vec<ThreadSum> {
        Vec::new()
    }

    fn create<'g>(&self, shared: &Shared<'g>) -> Result<StorageTarget<'g>> {
        StorageTarget::new(shared)
    }

    fn unsupported(&self, _: &StorageTarget<'_>, _: &Shared<'_>, _: Element) -> Option<String> {
        None
    }

    fn bindings<'a, 'g>(
        &self,
        res: &'a StorageTarget<'g>,
        _: &'a Shared<'g>,
        _: Element,
    ) -> Vec<(u32, Binding<'a, 'g>)> {
        res.bindings()
    }

    fn verify_writes(
        &self,
        res: &StorageTarget<'_>,
        shared: &Shared<'_>,
        e: Element,
        p: Pattern,
        _groups: u32,
        dispatch: &mut Dispatch<'_>,
    ) -> Option<Checked> {
        let kind = if e.float { Kind::Float } else { Kind::Uint };
        let stores = writes::stores_1d(p, kind, ELEMENTS);
        let expected = writes::final_contents(&stores, ELEMENTS, e.layout());
        Some(res.verify(shared, e.layout(), expected, dispatch))
    }
}

/// Every element the tests store: uint and float, 1, 2 and 4 wide.
const STORED: [Element; 6] = [
    Element {
        float: false,
        width: 1,
    },
    Element {
        float: false,
        width: 2,
    },
    Element {
        float: false,
        width: 4,
    },
    Element {
        float: true,
        width: 1,
    },
    Element {
        float: true,
        width: 2,
    },
    Element {
        float: true,
        width: 4,
    },
];

/// The kernel of element `e` and pattern `p`.
const fn kernel_of(e: Element, p: Pattern) -> KernelId {
    let ty = if e.float { "float" } else { "uint" };
    named(&[
        Text("buffer_store_"),
        Text(ty),
        Text("_w"),
        Number(e.width),
        Text("_"),
        Text(p.ident()),
    ])
}
check_built!(kernel_of; STORED, Pattern::ALL);
