//! The compiled kernels: every permutation that the GLSL templates declare, built by `build.rs`, each with a typed id.

mod table {
    include!(concat!(env!("OUT_DIR"), "/kernel_table.rs"));
}

pub use table::id;

/// One compiled kernel.
#[derive(Debug)]
pub struct Kernel {
    /// Its name, e.g. `typed_buffer_w4_random` (also the file name in `spirv/`).
    pub name: &'static str,
    /// Its template's folder under `glsl/` (a suite group, e.g. `loads`; empty at the top),
    /// and so its disassembly's under `spirv/`.
    pub group: &'static str,
    /// The SPIR-V.
    pub spirv: &'static [u8],
    /// Its disassembly, for review and for the tests that check what the loop holds.
    pub asm: &'static str,
}

/// A built kernel: its position in the table `build.rs` generates ([`id`] names every one).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct KernelId(u16);

impl KernelId {
    /// The kernel itself.
    pub fn kernel(self) -> &'static Kernel {
        &table::KERNELS[self.0 as usize]
    }

    /// The kernel's name.
    pub fn name(self) -> &'static str {
        self.kernel().name
    }
}

/// Every kernel, sorted by name.
pub fn all() -> &'static [Kernel] {
    &table::KERNELS
}

/// The id of the kernel called `name`, if one is built.
pub fn id_of(name: &str) -> Option<KernelId> {
    table::index(name).map(KernelId)
}

/// The kernel called `name`, if one is built.
pub fn get(name: &str) -> Option<&'static Kernel> {
    id_of(name).map(KernelId::kernel)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_kernel_has_spirv_assembly_and_its_id() {
        for (i, k) in all().iter().enumerate() {
            assert!(k.spirv.len() > 100, "{}", k.name);
            assert!(k.asm.contains("OpEntryPoint GLCompute"), "{}", k.name);
            assert_eq!(id_of(k.name), Some(KernelId(i as u16)), "{}", k.name);
            assert_eq!(KernelId(i as u16).name(), k.name);
        }
        assert!(get("no_such_kernel").is_none());
        assert_eq!(
            id::CLOCK_REALTIME_W1_UNIFORM.name(),
            "clock_realtime_w1_uniform"
        );
    }
}
