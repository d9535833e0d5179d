//! `RWTexture2D<uint>.InterlockedAdd`: 256 `imageAtomicAdd` per thread on a 32×32 R32_UINT
//! storage image, with the buffer atomics' elements (element e = texel (e % 32, e / 32)).

use crate::data::{ThreadSum, TEXTURE_SIZE};
use crate::families::writes::{self, Atomic, Target, ELEMENTS};
use crate::families::{each, Checked, Columns, Dispatch, Shared, Spec};
use crate::kernels::{check_built, named, KernelId, Part::Text};
use crate::model::{Pattern, Suite};
use anyhow::Result;
use ash::vk;
use perftest_gpu::pipeline::Binding;
use perftest_gpu::resources::{Buffer, Image, Shape, Usage};

/// Atomics on a storage image.
pub struct ImageAtomic;

/// The image, where R32_UINT supports atomics here, and its read-back buffer.
pub struct Resources<'g> {
    image: Option<Image<'g>>,
    readback: Buffer<'g>,
}

const NEEDED: vk::FormatFeatureFlags = vk::FormatFeatureFlags::from_raw(
    vk::FormatFeatureFlags::STORAGE_IMAGE_ATOMIC.as_raw()
        | vk::FormatFeatureFlags::STORAGE_IMAGE.as_raw()
        | vk::FormatFeatureFlags::TRANSFER_SRC.as_raw()
        | vk::FormatFeatureFlags::TRANSFER_DST.as_raw(),
);

impl Spec for ImageAtomic {
    type Variant = ();
    type Resources<'g> = Resources<'g>;

    fn tests(&self) -> Vec<(Suite, (), Pattern)> {
        each(Suite::Write, [()], &Pattern::ALL)
    }

    fn name(&self, _: ()) -> String {
        "RWTexture2D<uint>.InterlockedAdd".into()
    }

    fn columns(&self, _: ()) -> Columns {
        Columns {
            family: "image_atomic",
            resource: "STORAGE_IMAGE",
            format: "R32_UINT".into(),
        }
    }

    fn bytes_per_load(&self, _: ()) -> Option<u32> {
        Some(4)
    }

    fn kernel(&self, _: (), p: Pattern) -> KernelId {
        kernel_of(p)
    }

    /// Verified from the memory written (see [`Spec::verify_writes`]), not per thread.
    fn reference(&self, _: (), _: Pattern, _: &[u8]) -> Vec<ThreadSum> {
        Vec::new()
    }

    /// On one address, a fixed size per compute unit (see [`writes::atomic_groups`]).
    fn dispatch_groups(&self, _: (), p: Pattern, calibrated: u32, cus: Option<u32>) -> u32 {
        writes::atomic_groups(p, calibrated, cus)
    }

    fn create<'g>(&self, shared: &Shared<'g>) -> Result<Resources<'g>> {
        let format = vk::Format::R32_UINT;
        let features = shared
            .instance
            .format_properties(shared.gpu.info, format)
            .optimal_tiling_features;
        let image = if features.contains(NEEDED) {
            Some(Image::new(
                shared.gpu,
                "R32_UINT atomics",
                format,
                Shape::square(TEXTURE_SIZE),
                Usage::Writable,
            )?)
        } else {
            None
        };
        Ok(Resources {
            image,
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
        if let Some(image) = &res.image {
            image.record_clear(d, cmd, true);
        }
    }

    fn unsupported(&self, res: &Resources<'_>, _: &Shared<'_>, _: ()) -> Option<String> {
        res.image.is_none().then(|| {
            "R32_UINT lacks STORAGE_IMAGE_ATOMIC, STORAGE_IMAGE, TRANSFER_SRC or TRANSFER_DST \
             in optimalTilingFeatures"
                .into()
        })
    }

    fn bindings<'a, 'g>(
        &self,
        res: &'a Resources<'g>,
        _: &'a Shared<'g>,
        _: (),
    ) -> Vec<(u32, Binding<'a, 'g>)> {
        let image = res.image.as_ref().expect("bound only where supported");
        vec![(0, Binding::StorageImage(image))]
    }

    fn verify_writes(
        &self,
        res: &Resources<'_>,
        shared: &Shared<'_>,
        _: (),
        p: Pattern,
        groups: u32,
        dispatch: &mut Dispatch<'_>,
    ) -> Option<Checked> {
        let Some(image) = res.image.as_ref() else {
            return Some(Err(anyhow::anyhow!(
                "R32_UINT storage image atomics are unsupported"
            )));
        };
        Some(writes::verify(
            shared,
            Target::Image(image),
            &res.readback,
            Atomic::Add.layout(),
            "texel",
            writes::atomics(Atomic::Add, p, groups, ELEMENTS),
            dispatch,
        ))
    }
}

/// The kernel of pattern `p`.
const fn kernel_of(p: Pattern) -> KernelId {
    named(&[Text("image_atomic_add_"), Text(p.ident())])
}
check_built!(kernel_of; Pattern::ALL);
