//! `Buffer<F>.Load`: one typed element per iteration through a uniform texel buffer.

use crate::data::{self, ThreadSum};
use crate::families::{each, per_pattern, Columns, Shared, Spec, TexelViews};
use crate::format::Format;
use crate::kernels::{check_built, KernelId, Part};
use crate::model::{Pattern, Suite};
use anyhow::Result;
use ash::vk;
use perftest_gpu::pipeline::Binding;

/// Uniform texel buffers over the input, one view per format (HLSL's `Buffer<T>`).
pub struct TypedBuffer;

impl Spec for TypedBuffer {
    type Variant = Format;
    type Resources<'g> = TexelViews<'g>;

    fn tests(&self) -> Vec<(Suite, Format, Pattern)> {
        let mut t = each(Suite::Original, Format::ALL, &Pattern::ALL);
        t.extend(each(Suite::Extended, Format::ALL, &Pattern::UNIFORM_PROBES));
        t.extend(each(Suite::Ceiling, Format::ALL, &[Pattern::LinearCeiling]));
        t
    }

    fn name(&self, f: Format) -> String {
        format!("Buffer<{}>.Load", f.buffer_name())
    }

    fn columns(&self, f: Format) -> Columns {
        Columns {
            family: "typed_buffer",
            resource: "UNIFORM_TEXEL_BUFFER",
            format: f.vk_name().into(),
        }
    }

    fn bytes_per_load(&self, f: Format) -> Option<u32> {
        Some(f.bytes())
    }

    fn kernel(&self, f: Format, p: Pattern) -> KernelId {
        kernel_of(f, p)
    }

    fn is_baseline(&self, f: Format, p: Pattern) -> bool {
        (f, p) == (Format::Rgba8, Pattern::Random)
    }

    fn reference(&self, f: Format, p: Pattern, input: &[u8]) -> Vec<ThreadSum> {
        data::sum_1d(p, |i| {
            data::widen(f.decode(&input[(i * f.bytes()) as usize..]), f.channels())
        })
    }

    fn create<'g>(&self, shared: &Shared<'g>) -> Result<Self::Resources<'g>> {
        let usage = vk::FormatFeatureFlags::UNIFORM_TEXEL_BUFFER;
        TexelViews::new(shared, &shared.input, usage)
    }

    fn unsupported(
        &self,
        views: &TexelViews<'_>,
        shared: &Shared<'_>,
        f: Format,
    ) -> Option<String> {
        views.unsupported(shared, f)
    }

    fn bindings<'a, 'g>(
        &self,
        views: &'a Self::Resources<'g>,
        _: &'a Shared<'g>,
        f: Format,
    ) -> Vec<(u32, Binding<'a, 'g>)> {
        views.bindings(f)
    }
}

/// The kernel of format `f` and pattern `p`.
const fn kernel_of(f: Format, p: Pattern) -> KernelId {
    per_pattern("typed_buffer_w", Part::Number(f.channels()), p)
}
check_built!(kernel_of; Format::ALL, Pattern::ALL);
check_built!(kernel_of; Format::ALL, Pattern::UNIFORM_PROBES);
check_built!(kernel_of; Format::ALL, [Pattern::LinearCeiling]);
