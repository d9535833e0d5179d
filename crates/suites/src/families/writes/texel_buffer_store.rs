//! `RWBuffer<F>.Store`: 256 stores per thread through a storage texel buffer of 1024 texels
//! (`imageStore`), for the nine formats.

use crate::data::ThreadSum;
use crate::families::writes::{self, Target};
use crate::families::{each, per_pattern, Checked, Columns, Dispatch, Shared, Spec, TexelViews};
use crate::format::Format;
use crate::kernels::{check_built, KernelId, Part};
use crate::model::{Pattern, Suite};
use anyhow::Result;
use ash::vk;
use perftest_gpu::pipeline::Binding;
use perftest_gpu::resources::Buffer;

/// Stores through storage texel buffers (HLSL's `RWBuffer<T>`).
pub struct TexelBufferStore;

/// One buffer, a view of it per format the device can store to, and the read-back buffer.
pub struct Resources<'g> {
    target: Buffer<'g>,
    views: TexelViews<'g>,
    readback: Buffer<'g>,
}

impl Spec for TexelBufferStore {
    type Variant = Format;
    type Resources<'g> = Resources<'g>;

    fn tests(&self) -> Vec<(Suite, Format, Pattern)> {
        each(Suite::Write, Format::ALL, &Pattern::ALL)
    }

    fn name(&self, f: Format) -> String {
        format!("RWBuffer<{}>.Store", f.buffer_name())
    }

    fn columns(&self, f: Format) -> Columns {
        Columns {
            family: "texel_buffer_store",
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

    /// Verified from the memory written (see [`Spec::verify_writes`]), not per thread.
    fn reference(&self, _: Format, _: Pattern, _: &[u8]) -> Vec<ThreadSum> {
        Vec::new()
    }

    fn create<'g>(&self, shared: &Shared<'g>) -> Result<Resources<'g>> {
        let target = writes::target_buffer(shared, vk::BufferUsageFlags::STORAGE_TEXEL_BUFFER)?;
        let views = TexelViews::new(
            shared,
            &target,
            vk::FormatFeatureFlags::STORAGE_TEXEL_BUFFER,
        )?;
        Ok(Resources {
            target,
            views,
            readback: writes::readback_buffer(shared)?,
        })
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

    fn verify_writes(
        &self,
        res: &Resources<'_>,
        shared: &Shared<'_>,
        f: Format,
        p: Pattern,
        _groups: u32,
        dispatch: &mut Dispatch<'_>,
    ) -> Option<Checked> {
        let target = Target::Buffer(&res.target);
        Some(writes::verify_texel_stores(
            shared,
            target,
            &res.readback,
            f,
            p,
            dispatch,
        ))
    }
}

/// The kernel of format `f` and pattern `p`.
const fn kernel_of(f: Format, p: Pattern) -> KernelId {
    per_pattern("texel_buffer_store_", Part::Text(f.qualifier()), p)
}
check_built!(kernel_of; Format::ALL, Pattern::ALL);
