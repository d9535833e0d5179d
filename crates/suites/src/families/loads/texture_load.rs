//! `Texture2D<F>.Load`: `texelFetch` of one texel of mip 0 per iteration from a sampled image.

use crate::families::loads::ImageLoad;
use crate::families::per_pattern;
use crate::format::Format;
use crate::kernels::{check_built, KernelId, Part};
use crate::model::{Pattern, Suite};
use perftest_gpu::resources::Usage;

/// 32×32 sampled images filled from the input, one per format, read without a sampler.
pub static TEXTURE_LOAD: ImageLoad = ImageLoad {
    hlsl: "Texture2D",
    family: "texture_load",
    usage: Usage::Sampled,
    suites: &[
        (Suite::Original, &Pattern::ALL),
        (Suite::Extended, &Pattern::UNIFORM_PROBES),
        (Suite::Ceiling, &[Pattern::LinearCeiling]),
    ],
    kernel: kernel_of,
};

/// The kernel of format `f` and pattern `p`.
const fn kernel_of(f: Format, p: Pattern) -> KernelId {
    per_pattern("texture_load_w", Part::Number(f.channels()), p)
}
check_built!(kernel_of; Format::ALL, Pattern::ALL);
check_built!(kernel_of; Format::ALL, Pattern::UNIFORM_PROBES);
check_built!(kernel_of; Format::ALL, [Pattern::LinearCeiling]);
