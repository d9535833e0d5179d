//! `RWTexture2D<F>.Store`: 16×16 stores per thread into a 32×32 storage image (`imageStore`),
//! for the nine formats.

use crate::data::{ThreadSum, TEXTURE_SIZE};
use crate::families::writes::{self, Target, ELEMENTS};
use crate::families::{each, per_pattern, Checked, Columns, Dispatch, Shared, Spec};
use crate::format::Format;
use crate::kernels::{check_built, KernelId, Part};
use crate::model::{Pattern, Suite};
use anyhow::Result;
use ash::vk;
use perftest_gpu::pipeline::Binding;
use perftest_gpu::resources::{Buffer, Image};
use std::collections::HashMap;

/// Stores through storage images (HLSL's `RWTexture2D<T>`).
pub struct ImageStore;

/// A writable image per format the device can store to and copy, and the read-back buffer.
pub struct Resources<'g> {
    images: HashMap<Format, Image<'g>>,
    readback: Buffer<'g>,
}

/// What a writable image needs from its format.
const NEEDED: vk::FormatFeatureFlags = vk::FormatFeatureFlags::from_raw(
    vk::FormatFeatureFlags::STORAGE_IMAGE.as_raw()
        | vk::FormatFeatureFlags::TRANSFER_SRC.as_raw()
        | vk::FormatFeatureFlags::TRANSFER_DST.as_raw(),
);

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
        let mut images = HashMap::new();
        for f in Format::ALL {
            let features = shared.format_properties(f).optimal_tiling_features;
            if features.contains(NEEDED) && shared.storage_format_undeclarable(f).is_none() {
                let image = Image::new_writable(shared.gpu, f.vk_name(), f.vk(), TEXTURE_SIZE)?;
                images.insert(f, image);
            }
        }
        Ok(Resources {
            images,
            readback: writes::readback_buffer(shared)?,
        })
    }

    fn record_upload(
        &self,
        res: &Resources<'_>,
        _: &Shared<'_>,
        d: &ash::Device,
        cmd: vk::CommandBuffer,
    ) {
        for image in res.images.values() {
            image.record_clear(d, cmd, true);
        }
    }

    fn unsupported(&self, res: &Resources<'_>, shared: &Shared<'_>, f: Format) -> Option<String> {
        shared.storage_format_undeclarable(f).or_else(|| {
            (!res.images.contains_key(&f)).then(|| {
                format!(
                    "{} lacks STORAGE_IMAGE, TRANSFER_SRC or TRANSFER_DST in optimalTilingFeatures",
                    f.vk_name()
                )
            })
        })
    }

    fn bindings<'a, 'g>(
        &self,
        res: &'a Resources<'g>,
        _: &'a Shared<'g>,
        f: Format,
    ) -> Vec<(u32, Binding<'a, 'g>)> {
        vec![(0, Binding::StorageImage(&res.images[&f]))]
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
        let (kind, layout) = writes::format_layout(f);
        let stores = writes::stores_2d(p, kind);
        let expected = writes::final_contents(&stores, ELEMENTS, layout);
        Some(writes::verify(
            shared,
            Target::Image(&res.images[&f]),
            &res.readback,
            layout,
            "texel",
            expected,
            dispatch,
        ))
    }
}

/// The kernel of format `f` and pattern `p`.
const fn kernel_of(f: Format, p: Pattern) -> KernelId {
    per_pattern("image_store_", Part::Text(f.qualifier()), p)
}
check_built!(kernel_of; Format::ALL, Pattern::ALL);
