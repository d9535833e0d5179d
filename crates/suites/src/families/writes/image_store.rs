//! `RWTexture2D<F>.Store`: 16×16 stores per thread into a 32×32 storage image (`imageStore`),
//! for the nine formats.

use crate::data::ThreadSum;
use crate::families::writes::{self, Target};
use crate::families::{each, per_pattern, Checked, Columns, Dispatch, FormatImages, Shared, Spec};
use crate::format::Format;
use crate::kernels::{check_built, KernelId, Part};
use crate::model::{Pattern, Suite};
use anyhow::Result;
use ash::vk;
use perftest_gpu::pipeline::Binding;
use perftest_gpu::resources::{Buffer, Usage};

/// Stores through storage images (HLSL's `RWTexture2D<T>`).
pub struct ImageStore;

/// A writable image per format the device can store to and copy, and the read-back buffer.
pub struct Resources<'g> {
    images: FormatImages<'g>,
    readback: Buffer<'g>,
}

impl Spec for ImageStore {
    type Variant = Format;
    type Resources<'g> = Resources<'g>;

    fn tests(&self) -> Vec<(Suite, Format, Pattern)> {
        each(Suite::Write, Format::ALL, &Pattern::ALL)
    }

    fn name(&self, f: Format) -> String {
        format!("RWTexture2D<{}>.Store", f.texture_name())
    }

    fn columns(&self, f: Format) -> Columns {
        Columns {
            family: "image_store",
            resource: "STORAGE_IMAGE",
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
        Ok(Resources {
            images: FormatImages::new(shared, Usage::Writable)?,
            readback: writes::readback_buffer(shared)?,
        })
    }

    fn record_upload(
        &self,
        res: &Resources<'_>,
        shared: &Shared<'_>,
        d: &ash::Device,
        cmd: vk::CommandBuffer,
    ) {
        res.images.record_upload(d, cmd, &shared.input);
    }

    fn unsupported(&self, res: &Resources<'_>, shared: &Shared<'_>, f: Format) -> Option<String> {
        res.images.unsupported(shared, f)
    }

    fn bindings<'a, 'g>(
        &self,
        res: &'a Resources<'g>,
        _: &'a Shared<'g>,
        f: Format,
    ) -> Vec<(u32, Binding<'a, 'g>)> {
        res.images.bindings(f)
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
        let target = Target::Image(res.images.get(f));
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
    per_pattern("image_store_", Part::Text(f.qualifier()), p)
}
check_built!(kernel_of; Format::ALL, Pattern::ALL);
