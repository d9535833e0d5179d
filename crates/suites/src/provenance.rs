//! What was run: tool version, git commit, shaderc version, and a hash of each kernel.

use crate::kernels::Kernel;

/// The crate version.
pub const TOOL_VERSION: &str = env!("CARGO_PKG_VERSION");
/// The commit the source was built from (`git rev-parse --short=12`, `-dirty` with local changes),
/// or `unknown` outside a git checkout.
pub const GIT_COMMIT: &str = env!("PERFTEST_GIT_COMMIT");
/// Version of the shaderc crate (and so of glslang / SPIRV-Tools) that compiled the kernels.
pub const SHADERC_VERSION: &str = env!("PERFTEST_SHADERC_VERSION");

/// 64-bit FNV-1a of `bytes`, as 16 hex digits.
pub fn fnv1a64(bytes: &[u8]) -> String {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for &b in bytes {
        h ^= b as u64;
        h = h.wrapping_mul(0x0000_0100_0000_01b3);
    }
    format!("{h:016x}")
}

/// The hash of a kernel's SPIR-V, identifying exactly what ran.
pub fn spirv_hash(kernel: &Kernel) -> String {
    fnv1a64(kernel.spirv)
}

#[cfg(test)]
mod tests {
    #[test]
    fn fnv_reference_values() {
        assert_eq!(super::fnv1a64(b""), "cbf29ce484222325");
        assert_eq!(super::fnv1a64(b"a"), "af63dc4c8601ec8c");
    }
}
