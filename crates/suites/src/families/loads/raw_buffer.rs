//! `ByteAddressBuffer.Load{,2,3,4}`: consecutive 32-bit words per iteration from a storage buffer.

use crate::data::{self, ThreadSum};
use crate::families::{each, Columns, Shared, Spec};
use crate::kernels::{
    check_built, named, KernelId,
    Part::{Number, Text},
};
use crate::model::{Pattern, Suite};
use anyhow::Result;
use perftest_gpu::pipeline::Binding;

/// Word-addressed loads from the input bound as `uint[]` (HLSL's `ByteAddressBuffer`).
pub struct RawBuffer;

/// How many words each load reads, and whether it starts 4 bytes into the buffer.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Load {
    words: u32,
    unaligned: bool,
}

impl Spec for RawBuffer {
    type Variant = Load;
    type Resources<'g> = ();

    fn tests(&self) -> Vec<(Suite, Load, Pattern)> {
        let mut t = each(Suite::Original, LOADS, &Pattern::ALL);
        t.extend(each(Suite::Extended, LOADS, &Pattern::UNIFORM_PROBES));
        t.extend(each(Suite::Ceiling, LOADS, &[Pattern::LinearCeiling]));
        t
    }

    fn name(&self, l: Load) -> String {
        let n = if l.words == 1 {
            String::new()
        } else {
            l.words.to_string()
        };
        let u = if l.unaligned { " unaligned" } else { "" };
        format!("ByteAddressBuffer.Load{n}{u}")
    }

    fn columns(&self, l: Load) -> Columns {
        Columns {
            family: if l.unaligned {
                "raw_buffer_unaligned"
            } else {
                "raw_buffer"
            },
            resource: "STORAGE_BUFFER",
            format: match l.words {
                1 => "uint".into(),
                n => format!("uint x{n}"),
            },
        }
    }

    fn bytes_per_load(&self, l: Load) -> Option<u32> {
        Some(4 * l.words)
    }

    fn kernel(&self, l: Load, p: Pattern) -> KernelId {
        kernel_of(l, p)
    }

    fn read_start(&self, l: Load) -> u32 {
        if l.unaligned {
            4
        } else {
            0
        }
    }

    fn reference(&self, l: Load, p: Pattern, input: &[u8]) -> Vec<ThreadSum> {
        // Byte address of element j: j × stride + readStart (Load3 has a 12-byte stride).
        let stride = 4 * l.words;
        data::sum_1d(p, |j| {
            let address = j * stride + self.read_start(l);
            data::widen(data::words(input, address as usize / 4, l.words), l.words)
        })
    }

    fn create<'g>(&self, _: &Shared<'g>) -> Result<()> {
        Ok(())
    }

    fn bindings<'a, 'g>(
        &self,
        _: &'a (),
        s: &'a Shared<'g>,
        _: Load,
    ) -> Vec<(u32, Binding<'a, 'g>)> {
        // The whole 16 KB (the original bound 4 KB; see docs/original.md).
        s.input_binding()
    }
}

/// Every load the tests make, in the original's order: Load, Load2, Load3, Load4, then Load2
/// and Load4 unaligned.
const LOADS: [Load; 6] = [
    Load {
        words: 1,
        unaligned: false,
    },
    Load {
        words: 2,
        unaligned: false,
    },
    Load {
        words: 3,
        unaligned: false,
    },
    Load {
        words: 4,
        unaligned: false,
    },
    Load {
        words: 2,
        unaligned: true,
    },
    Load {
        words: 4,
        unaligned: true,
    },
];

/// The kernel of load `l` and pattern `p`.
const fn kernel_of(l: Load, p: Pattern) -> KernelId {
    named(&[
        Text("raw_buffer_w"),
        Number(l.words),
        Text("_"),
        Text(p.ident()),
    ])
}
check_built!(kernel_of; LOADS, Pattern::ALL);
check_built!(kernel_of; LOADS, Pattern::UNIFORM_PROBES);
check_built!(kernel_of; LOADS, [Pattern::LinearCeiling]);
