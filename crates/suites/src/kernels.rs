//! The compiled kernels: every permutation that the GLSL templates declare, built by `build.rs`.

mod table {
    include!(concat!(env!("OUT_DIR"), "/kernel_table.rs"));
}

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

/// Every kernel, sorted by name.
pub fn all() -> &'static [Kernel] {
    &table::KERNELS
}

/// The kernel called `name`, if one is built.
pub fn get(name: &str) -> Option<&'static Kernel> {
    let all = all();
    all.binary_search_by(|k| k.name.cmp(name))
        .ok()
        .map(|i| &all[i])
}

/// The kernel called `name`; every name a family asks for is built (a unit test checks it).
pub fn named(name: &str) -> anyhow::Result<&'static Kernel> {
    get(name).ok_or_else(|| anyhow::anyhow!("no kernel named {name} is built (see glsl/)"))
}

#[cfg(test)]
mod tests {
    #[test]
    fn every_kernel_has_spirv_and_assembly() {
        for k in super::all() {
            assert!(k.spirv.len() > 100, "{}", k.name);
            assert!(k.asm.contains("OpEntryPoint GLCompute"), "{}", k.name);
            assert_eq!(super::get(k.name).map(|g| g.name), Some(k.name));
        }
        assert!(super::get("no_such_kernel").is_none());
    }
}
