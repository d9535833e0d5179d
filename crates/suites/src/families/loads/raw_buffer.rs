//! `ByteAddressBuffer.Load{,2,3,4}`: consecutive 32-bit words per iteration from a storage buffer.

use crate::data::{self, ThreadSum};
use crate::families::{each, Columns, Shared, Spec};
use crate::kernels::{
    named, KernelId,
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

/// The original's order: Load, Load2, Load3, Load4, then Load2 and Load4 unaligned.
fn loads() -> Vec<Load> {
    let aligned = (1..=4).map(|words| Load {
        words,
        unaligned: false,
    });
    let unaligned = [2, 4].map(|words| Load {
        words,
        unaligned: true,
    });
    aligned.chain(unaligned).collect()
}

impl Spec for RawBuffer {
    type Variant = Load;
    type Resources<'g> = ();

    fn tests(&self) -> Vec<(Suite, Load, Pattern)> {
        let mut t = each(Suite::Original, loads(), &Pattern::ALL);
        t.extend(each(Suite::Extended, loads(), &Pattern::UNIFORM_PROBES));
        t.extend(each(Suite::Ceiling, loads(), &[Pattern::LinearCeiling]));
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
        named(&[
            Text("raw_buffer_w"),
            Number(l.words),
            Text("_"),
            Text(p.ident()),
        ])
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
        vec![(0, Binding::StorageBuffer(&s.input, s.input.size))]
    }
}
