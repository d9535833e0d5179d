//! `BufferReference<float|float2|float4>.Load`: one element per iteration through the input's
//! device address (`GL_EXT_buffer_reference`), passed in the push constants.

use crate::data::{self, ThreadSum};
use crate::families::{each, lacks_feature, Columns, Shared, Spec};
use crate::kernels::{
    check_built, named, KernelId,
    Part::{Number, Text},
};
use crate::model::{Pattern, Suite};
use anyhow::Result;

/// Loads through a device address: no descriptor at all.
pub struct BufferReference;

impl Spec for BufferReference {
    /// Floats per element: 1, 2 or 4.
    type Variant = u32;
    type Resources<'g> = ();

    fn tests(&self) -> Vec<(Suite, u32, Pattern)> {
        each(Suite::Extended, [1, 2, 4], &Pattern::ALL)
    }

    fn name(&self, w: u32) -> String {
        match w {
            1 => "BufferReference<float>.Load".into(),
            w => format!("BufferReference<float{w}>.Load"),
        }
    }

    fn columns(&self, w: u32) -> Columns {
        Columns {
            family: "buffer_reference",
            resource: "device address",
            format: match w {
                1 => "float".into(),
                w => format!("vec{w}"),
            },
        }
    }

    fn bytes_per_load(&self, w: u32) -> Option<u32> {
        Some(4 * w)
    }

    fn kernel(&self, w: u32, p: Pattern) -> KernelId {
        kernel_of(w, p)
    }

    fn reference(&self, w: u32, p: Pattern, input: &[u8]) -> Vec<ThreadSum> {
        data::sum_1d(p, |i| {
            data::widen(data::words(input, (i * w) as usize, w), w)
        })
    }

    fn create<'g>(&self, _: &Shared<'g>) -> Result<()> {
        Ok(())
    }

    fn unsupported(&self, _: &(), s: &Shared<'_>, _: u32) -> Option<String> {
        lacks_feature(
            s.gpu.info.features.buffer_device_address,
            "bufferDeviceAddress (Vulkan 1.2)",
        )
    }
}

/// The kernel of `w` floats a load and pattern `p`.
const fn kernel_of(w: u32, p: Pattern) -> KernelId {
    named(&[
        Text("buffer_reference_w"),
        Number(w),
        Text("_"),
        Text(p.ident()),
    ])
}
check_built!(kernel_of; [1, 2, 4], Pattern::ALL);
