//! `RWTexture2D<F>.Load`: one texel per iteration, 16×16 per thread, through a storage image.

use crate::families::loads::ImageLoad;
use crate::families::per_pattern;
use crate::format::Format;
use crate::kernels::{check_built, KernelId, Part};
use crate::model::{Pattern, Suite};
use perftest_gpu::resources::Usage;

/// 32×32 storage images filled from the input, one per format, read with `imageLoad`.
pub static STORAGE_IMAGE: ImageLoad = ImageLoad {
    hlsl: "RWTexture2D",
    family: "storage_image",
    usage: Usage::Storage,
    suites: &[(Suite::Extended, &Pattern::ALL)],
    kernel: kernel_of,
};

/// The kernel of format `f` and pattern `p`.
const fn kernel_of(f: Format, p: Pattern) -> KernelId {
    per_pattern("storage_image_", Part::Text(f.qualifier()), p)
}
check_built!(kernel_of; Format::ALL, Pattern::ALL);
