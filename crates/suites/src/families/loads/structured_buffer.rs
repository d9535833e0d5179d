//! `StructuredBuffer<float|float2|float3|float4>.Load`: one element per iteration from a
//! storage buffer, std430 or (`float3 … packed`) scalar layout.

use crate::data::{self, ThreadSum};
use crate::families::{each, lacks_feature, Columns, Shared, Spec};
use crate::kernels::{
    check_built, named, KernelId,
    Part::{Number, Text},
};
use crate::model::{Pattern, Suite};
use anyhow::Result;
use perftest_gpu::pipeline::Binding;

/// Element-typed loads from the input bound as a `float`/`vec2`/`vec3`/`vec4` array.
pub struct StructuredBuffer;

/// The element type.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Element {
    /// `float`, `vec2`, `vec3` or `vec4` in std430 (vec3 has a 16-byte stride).
    Std430(u32),
    /// `vec3` in scalar layout (12-byte stride, `scalarBlockLayout`).
    PackedFloat3,
}

impl Element {
    fn width(self) -> u32 {
        match self {
            Element::Std430(w) => w,
            Element::PackedFloat3 => 3,
        }
    }

    /// Bytes between consecutive elements.
    fn stride(self) -> u32 {
        match self {
            Element::Std430(3) => 16,
            Element::Std430(w) => 4 * w,
            Element::PackedFloat3 => 12,
        }
    }
}

impl Spec for StructuredBuffer {
    type Variant = Element;
    type Resources<'g> = ();

    fn tests(&self) -> Vec<(Suite, Element, Pattern)> {
        let original = [1, 2, 4].map(Element::Std430);
        let mut t = each(Suite::Original, original, &Pattern::ALL);
        let extended = [Element::Std430(3), Element::PackedFloat3];
        t.extend(each(Suite::Extended, extended, &Pattern::ALL));
        t.extend(each(Suite::Extended, original, &Pattern::UNIFORM_PROBES));
        t.extend(each(Suite::Ceiling, original, &[Pattern::LinearCeiling]));
        t
    }

    fn name(&self, e: Element) -> String {
        match e {
            Element::Std430(1) => "StructuredBuffer<float>.Load".into(),
            Element::Std430(w) => format!("StructuredBuffer<float{w}>.Load"),
            Element::PackedFloat3 => "StructuredBuffer<float3>.Load packed".into(),
        }
    }

    fn columns(&self, e: Element) -> Columns {
        let (family, format) = match e {
            Element::Std430(1) => ("structured_buffer", "float".into()),
            Element::Std430(w) => ("structured_buffer", format!("vec{w}")),
            Element::PackedFloat3 => ("structured_buffer_packed", "vec3 (scalar)".into()),
        };
        Columns {
            family,
            resource: "STORAGE_BUFFER",
            format,
        }
    }

    fn bytes_per_load(&self, e: Element) -> Option<u32> {
        Some(4 * e.width())
    }

    fn kernel(&self, e: Element, p: Pattern) -> KernelId {
        kernel_of(e, p)
    }

    fn reference(&self, e: Element, p: Pattern, input: &[u8]) -> Vec<ThreadSum> {
        let words_per_element = e.stride() as usize / 4;
        data::sum_1d(p, |i| {
            let v = data::words(input, i as usize * words_per_element, e.width());
            data::widen(v, e.width())
        })
    }

    fn create<'g>(&self, _: &Shared<'g>) -> Result<()> {
        Ok(())
    }

    fn unsupported(&self, _: &(), s: &Shared<'_>, e: Element) -> Option<String> {
        match e {
            Element::PackedFloat3 => {
                lacks_feature(s.gpu.info.features.scalar_block_layout, "scalarBlockLayout")
            }
            Element::Std430(_) => None,
        }
    }

    fn bindings<'a, 'g>(
        &self,
        _: &'a (),
        s: &'a Shared<'g>,
        e: Element,
    ) -> Vec<(u32, Binding<'a, 'g>)> {
        // 1024 elements of the type.
        let range = 1024 * e.stride() as u64;
        vec![(0, Binding::StorageBuffer(&s.input, range))]
    }
}

/// The kernel of element `e` and pattern `p`.
const fn kernel_of(e: Element, p: Pattern) -> KernelId {
    let (kind, w) = match e {
        Element::Std430(w) => ("structured_buffer_w", w),
        Element::PackedFloat3 => ("scalar_buffer_w", 3),
    };
    named(&[Text(kind), Number(w), Text("_"), Text(p.ident())])
}
check_built!(kernel_of; [Element::Std430(1), Element::Std430(2), Element::Std430(4)], Pattern::ALL);
check_built!(kernel_of; [Element::Std430(3), Element::PackedFloat3], Pattern::ALL);
check_built!(kernel_of; [Element::Std430(1), Element::Std430(2), Element::Std430(4)], Pattern::UNIFORM_PROBES);
check_built!(kernel_of; [Element::Std430(1), Element::Std430(2), Element::Std430(4)], [Pattern::LinearCeiling]);
