//! `StructuredBuffer<uint8_t|float16_t>.Load`: one 8- or 16-bit element per iteration,
//! converted to float (8/16-bit storage, no 8/16-bit arithmetic).

use crate::data::{self, ThreadSum};
use crate::families::{each, lacks_feature, Columns, Shared, Spec};
use crate::format::Format;
use crate::kernels::{check_built, named, KernelId, Part::Text};
use crate::model::{Pattern, Suite};
use anyhow::Result;
use perftest_gpu::pipeline::Binding;

/// The input bound as a `uint8_t[]` or `float16_t[]` storage buffer.
pub struct SmallTypeBuffer;

/// The element type.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Element {
    Uint8,
    Float16,
}

impl Element {
    fn bytes(self) -> u32 {
        match self {
            Element::Uint8 => 1,
            Element::Float16 => 2,
        }
    }

    fn glsl(self) -> &'static str {
        match self {
            Element::Uint8 => "uint8_t",
            Element::Float16 => "float16_t",
        }
    }
}

impl Spec for SmallTypeBuffer {
    type Variant = Element;
    type Resources<'g> = ();

    fn tests(&self) -> Vec<(Suite, Element, Pattern)> {
        each(
            Suite::Extended,
            [Element::Uint8, Element::Float16],
            &Pattern::ALL,
        )
    }

    fn name(&self, e: Element) -> String {
        format!("StructuredBuffer<{}>.Load", e.glsl())
    }

    fn columns(&self, e: Element) -> Columns {
        Columns {
            family: "small_type_buffer",
            resource: "STORAGE_BUFFER",
            format: e.glsl().into(),
        }
    }

    fn bytes_per_load(&self, e: Element) -> Option<u32> {
        Some(e.bytes())
    }

    fn kernel(&self, e: Element, p: Pattern) -> KernelId {
        kernel_of(e, p)
    }

    fn reference(&self, e: Element, p: Pattern, input: &[u8]) -> Vec<ThreadSum> {
        data::sum_1d(p, |i| {
            let i = i as usize;
            let v = match e {
                Element::Uint8 => input[i] as f32,
                Element::Float16 => Format::R16f.decode(&input[2 * i..])[0],
            };
            [v; 4]
        })
    }

    fn create<'g>(&self, _: &Shared<'g>) -> Result<()> {
        Ok(())
    }

    fn unsupported(&self, _: &(), s: &Shared<'_>, e: Element) -> Option<String> {
        let f = s.gpu.info.features;
        match e {
            Element::Uint8 => lacks_feature(f.storage_buffer_8bit, "storageBuffer8BitAccess"),
            Element::Float16 => lacks_feature(f.storage_buffer_16bit, "storageBuffer16BitAccess"),
        }
    }

    fn bindings<'a, 'g>(
        &self,
        _: &'a (),
        s: &'a Shared<'g>,
        e: Element,
    ) -> Vec<(u32, Binding<'a, 'g>)> {
        vec![(0, Binding::StorageBuffer(&s.input, 1024 * e.bytes() as u64))]
    }
}

/// The kernel of element `e` and pattern `p`.
const fn kernel_of(e: Element, p: Pattern) -> KernelId {
    let element = match e {
        Element::Uint8 => "uint8_buffer_w1_",
        Element::Float16 => "float16_buffer_w1_",
    };
    named(&[Text(element), Text(p.ident())])
}
check_built!(kernel_of; [Element::Uint8, Element::Float16], Pattern::ALL);
