//! `RWBuffer<F>.Load`: one element per iteration through a storage texel buffer (`imageLoad`).

use crate::data::{self, ThreadSum};
use crate::families::{each, per_pattern, Columns, Shared, Spec, TexelViews};
use crate::format::Format;
use crate::kernels::{check_built, KernelId, Part};
use crate::model::{Pattern, Suite};
use anyhow::Result;
use ash::vk;
use perftest_gpu::pipeline::Binding;
use perftest_gpu::resources::{record_copy, Buffer, Memory};

/// Storage texel buffer views over a copy of the input, one per format.
pub struct StorageTexelBuffer;

/// The copy and its views. A view's format must support every texel usage of its buffer, so
/// these cannot share the input buffer (which is also a uniform texel buffer).
pub struct Resources<'g> {
    buffer: Buffer<'g>,
    views: TexelViews<'g>,
}

impl Spec for StorageTexelBuffer {
    type Variant = Format;
    type Resources<'g> = Resources<'g>;

    fn tests(&self) -> Vec<(Suite, Format, Pattern)> {
        each(Suite::Extended, Format::ALL, &Pattern::ALL)
    }

    fn name(&self, f: Format) -> String {
        format!("RWBuffer<{}>.Load", f.buffer_name())
    }

    fn columns(&self, f: Format) -> Columns {
        Columns {
            family: "storage_texel_buffer",
            resource: "STORAGE_TEXEL_BUFFER",
            format: f.vk_name().into(),
        }
    }

    fn bytes_per_load(&self, f: Format) -> Option<u32> {
        Some(f.bytes())
    }

    fn kernel(&self, f: Format, p: Pattern) -> KernelId {
        kernel_of(f, p)
    }

    fn reference(&self, f: Format, p: Pattern, input: &[u8]) -> Vec<ThreadSum> {
        data::sum_1d(p, |i| {
            data::widen(f.decode(&input[(i * f.bytes()) as usize..]), f.channels())
        })
    }

    fn create<'g>(&self, shared: &Shared<'g>) -> Result<Resources<'g>> {
        let usage = vk::BufferUsageFlags::STORAGE_TEXEL_BUFFER | vk::BufferUsageFlags::TRANSFER_DST;
        let size = shared.input.size;
        let buffer = Buffer::new(
            shared.gpu,
            "storage texel input",
            size,
            usage,
            Memory::DeviceLocal,
        )?;
        let views = TexelViews::new(
            shared,
            &buffer,
            vk::FormatFeatureFlags::STORAGE_TEXEL_BUFFER,
        )?;
        Ok(Resources { buffer, views })
    }

    fn record_upload(
        &self,
        res: &Resources<'_>,
        shared: &Shared<'_>,
        d: &ash::Device,
        cmd: vk::CommandBuffer,
    ) {
        record_copy(d, cmd, &shared.input, &res.buffer, shared.input.size);
    }

    fn unsupported(&self, res: &Resources<'_>, shared: &Shared<'_>, f: Format) -> Option<String> {
        res.views.unsupported(shared, f)
    }

    fn bindings<'a, 'g>(
        &self,
        res: &'a Resources<'g>,
        _: &'a Shared<'g>,
        f: Format,
    ) -> Vec<(u32, Binding<'a, 'g>)> {
        res.views.bindings(f)
    }
}

/// The kernel of format `f` and pattern `p`.
const fn kernel_of(f: Format, p: Pattern) -> KernelId {
    per_pattern("storage_texel_buffer_", Part::Text(f.qualifier()), p)
}
check_built!(kernel_of; Format::ALL, Pattern::ALL);
