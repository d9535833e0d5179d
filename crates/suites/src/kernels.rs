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

/// One piece of a kernel's name as a family composes it (see [`named`]): text, or a number
/// written in decimal.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Part<'a> {
    Text(&'a str),
    Number(u32),
}

/// How the name `parts` spell compares with `name`, byte by byte: -1, 0 or 1.
const fn compare(parts: &[Part], name: &[u8]) -> i8 {
    let mut at = 0;
    let mut i = 0;
    while i < parts.len() {
        // The part's bytes: its text, or its number's digits (most significant first).
        let mut digits = [0u8; 10];
        let (bytes, len): (&[u8], usize) = match parts[i] {
            Part::Text(t) => (t.as_bytes(), t.len()),
            Part::Number(n) => {
                let mut count = 0;
                let mut v = n;
                loop {
                    count += 1;
                    v /= 10;
                    if v == 0 {
                        break;
                    }
                }
                let (mut v, mut k) = (n, count);
                while k > 0 {
                    k -= 1;
                    digits[k] = b'0' + (v % 10) as u8;
                    v /= 10;
                }
                (&digits, count)
            }
        };
        let mut j = 0;
        while j < len {
            if at == name.len() {
                return 1;
            }
            if bytes[j] != name[at] {
                return if bytes[j] < name[at] { -1 } else { 1 };
            }
            at += 1;
            j += 1;
        }
        i += 1;
    }
    if at == name.len() {
        0
    } else {
        -1
    }
}

/// The kernel whose name `parts` spell (`[Text("typed_buffer_w"), Number(4), Text("_random")]`),
/// looked up in the table `build.rs` generates. A `const fn`: a family's table of ids built in a
/// `const` fails the build where it names a kernel no template declares; called at run time,
/// that panics.
pub const fn named(parts: &[Part]) -> KernelId {
    let (mut lo, mut hi) = (0, table::NAMES.len());
    while lo < hi {
        let mid = (lo + hi) / 2;
        match compare(parts, table::NAMES[mid].as_bytes()) {
            0 => return KernelId(mid as u16),
            c if c < 0 => hi = mid,
            _ => lo = mid + 1,
        }
    }
    panic!("a family names a kernel that no glsl/ template's `// @kernels` line declares")
}

/// Fails the build where `$kernel`, a `const fn` of one value of each list (a test's
/// variant's parts, its pattern), names a kernel that no glsl/ template's `// @kernels` line
/// declares, for any combination of the lists' values: a family states the kernels its tests
/// run.
macro_rules! check_built {
    ($kernel:path; $($list:expr),+) => {
        const _: () = check_built!(@each $kernel; []; $($list),+);
    };
    (@each $kernel:path; [$($value:expr),*];) => {{
        $kernel($($value),*);
    }};
    (@each $kernel:path; [$($value:expr),*]; $list:expr $(, $rest:expr)*) => {{
        let list = $list;
        let mut i = 0;
        while i < list.len() {
            let value = list[i];
            check_built!(@each $kernel; [$($value,)* value]; $($rest),*);
            i += 1;
        }
    }};
}
pub(crate) use check_built;

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
        // A name in parts finds the same kernel, its numbers in decimal.
        for (i, k) in all().iter().enumerate() {
            assert_eq!(named(&[Part::Text(k.name)]), KernelId(i as u16));
        }
        assert_eq!(
            named(&[
                Part::Text("typed_buffer_w"),
                Part::Number(4),
                Part::Text("_random")
            ]),
            id::TYPED_BUFFER_W4_RANDOM
        );
        assert_eq!(
            named(&[Part::Text("occupancy_r"), Part::Number(128)]).name(),
            "occupancy_r128"
        );
        const BUILT: KernelId = named(&[Part::Text("clock_w1_uniform")]);
        assert_eq!(BUILT, id::CLOCK_W1_UNIFORM);
        assert_eq!(
            id::CLOCK_REALTIME_W1_UNIFORM.name(),
            "clock_realtime_w1_uniform"
        );
    }
}
