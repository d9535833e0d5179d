//! `Buffer<F>.Load` for the extended formats (integers, SNORM, UNORM16, packed, sRGB): one
//! element per iteration through a uniform texel buffer read as float, int or uint.

use crate::data::{self, ThreadSum};
use crate::families::formats::ext_format::{self, ExtFormat};
use crate::families::{each, upload, Columns, Shared, Spec};
use crate::kernels::{
    named, KernelId,
    Part::{Number, Text},
};
use crate::model::{Pattern, Suite};
use anyhow::Result;
use ash::vk;
use perftest_gpu::pipeline::Binding;
use perftest_gpu::resources::{record_copy, Buffer, BufferView};
use std::collections::HashMap;

/// Uniform texel buffers of the extended formats over their own 16 KB input
/// ([`ext_format::input`]), in device-local memory.
pub struct FormatBuffer;

/// The input (device-local), the host copy it is filled from, and one view per format.
pub struct Resources<'g> {
    staging: Buffer<'g>,
    input: Buffer<'g>,
    views: HashMap<ExtFormat, BufferView<'g>>,
}

impl Spec for FormatBuffer {
    type Variant = ExtFormat;
    type Resources<'g> = Resources<'g>;

    fn tests(&self) -> Vec<(Suite, ExtFormat, Pattern)> {
        each(Suite::Formats, ExtFormat::uncompressed(), &Pattern::ALL)
    }

    fn name(&self, f: ExtFormat) -> String {
        format!("Buffer<{}>.Load", f.name())
    }

    fn columns(&self, f: ExtFormat) -> Columns {
        Columns {
            family: "format_buffer",
            resource: "UNIFORM_TEXEL_BUFFER",
            format: f.vk_name(),
        }
    }

    fn bytes_per_load(&self, f: ExtFormat) -> Option<u32> {
        Some(f.bytes())
    }

    fn kernel(&self, f: ExtFormat, p: Pattern) -> KernelId {
        kernel_of(f, p)
    }

    fn reference(&self, f: ExtFormat, p: Pattern, input: &[u8]) -> Vec<ThreadSum> {
        // `input` is the shared input (corrupted by --fault reference): patch it the same way.
        let bytes = patched(input);
        data::sum_1d(p, |i| {
            data::widen(f.decode(&bytes[(i * f.bytes()) as usize..]), f.channels)
        })
    }

    fn tolerance(&self, f: ExtFormat) -> f32 {
        // sRGB → linear: Vulkan sets no precision, and lavapipe approximates it (by a
        // polynomial: about 1e-3 of the sum off).
        if f.encoding == ext_format::Encoding::Srgb8 {
            3e-3
        } else {
            1e-5
        }
    }

    fn create<'g>(&self, shared: &Shared<'g>) -> Result<Resources<'g>> {
        let (staging, input) = upload(
            shared.gpu,
            "format input",
            &ext_format::input(),
            vk::BufferUsageFlags::UNIFORM_TEXEL_BUFFER,
        )?;
        let mut views = HashMap::new();
        for f in ExtFormat::uncompressed() {
            let props = shared.instance.format_properties(shared.gpu.info, f.vk());
            if props
                .buffer_features
                .contains(vk::FormatFeatureFlags::UNIFORM_TEXEL_BUFFER)
            {
                let range = 1024 * f.bytes() as u64;
                views.insert(f, BufferView::new(shared.gpu, &input, f.vk(), range)?);
            }
        }
        Ok(Resources {
            staging,
            input,
            views,
        })
    }

    fn record_upload(
        &self,
        res: &Resources<'_>,
        _: &Shared<'_>,
        d: &ash::Device,
        cmd: vk::CommandBuffer,
    ) {
        record_copy(d, cmd, &res.staging, &res.input, res.input.size);
    }

    fn unsupported(&self, res: &Resources<'_>, _: &Shared<'_>, f: ExtFormat) -> Option<String> {
        (!res.views.contains_key(&f)).then(|| {
            format!(
                "{} lacks UNIFORM_TEXEL_BUFFER in bufferFeatures",
                f.vk_name()
            )
        })
    }

    fn bindings<'a, 'g>(
        &self,
        res: &'a Resources<'g>,
        _: &'a Shared<'g>,
        f: ExtFormat,
    ) -> Vec<(u32, Binding<'a, 'g>)> {
        vec![(0, Binding::TexelBuffer(&res.views[&f]))]
    }
}

/// [`ext_format::input`]'s patch applied to `input` (the shared input, or the corrupted one
/// that `--fault reference` passes).
pub fn patched(input: &[u8]) -> Vec<u8> {
    if input == data::input().as_slice() {
        ext_format::input()
    } else {
        ext_format::patch(input.to_vec())
    }
}

// Fails the build where a test's kernel is not built: every uncompressed format (as
// `ExtFormat::uncompressed` lists them), every pattern.
const _: () = {
    let mut i = 0;
    while i < ext_format::ALL.len() {
        let f = ext_format::ALL[i];
        let mut j = 0;
        while j < Pattern::ALL.len() && !f.is_compressed() {
            kernel_of(f, Pattern::ALL[j]);
            j += 1;
        }
        i += 1;
    }
};

/// The kernel of format `f` and pattern `p`.
const fn kernel_of(f: ExtFormat, p: Pattern) -> KernelId {
    named(&[
        Text("format_buffer_"),
        Text(f.kind().ident()),
        Text("_w"),
        Number(f.channels),
        Text("_"),
        Text(p.ident()),
    ])
}
