//! The bandwidth suite's sweeps over working sets of 4 KB to 1 GB, reads (`read.rs`) and stores, copies and host reads (`write.rs`), and what they share: the sets and their pools, each test's name, columns and kernel, the limits on a set, the groups' checksums.

// The families of the sweep, one template each: glsl/memory/bandwidth.comp and
// glsl/memory/bandwidth_write.comp.
pub(in crate::families) mod read;
pub(in crate::families) mod write;

mod pool;
mod sets;

use crate::data::compare_exact;
use crate::families::{Checked, Columns, Dispatch, Shared};
use crate::kernels::KernelId;
use crate::model::{size_name, Fault, Pattern, Suite, THREADS_PER_GROUP};
use anyhow::Result;
use ash::vk;
use perftest_gpu::resources::{Buffer, Memory};
use perftest_gpu::Gpu;
use sets::{blocks, size_bytes, small_sizes};
use std::sync::OnceLock;

pub(in crate::families) use sets::fill_with;

/// Working sets: four per octave from 4 KB to 1 GB.
const SIZES: usize = 4 * 18 + 1;
/// Accesses per invocation (the kernels' 32 iterations of 8), and so per group 65536.
const LOADS_PER_THREAD: u64 = 256;
/// Elements one group touches (256 invocations × 256).
const GROUP_ELEMENTS: u32 = (THREADS_PER_GROUP * LOADS_PER_THREAD) as u32;
/// Sizes up to this share the small pool; the larger ones the large pool (allocated only when
/// one of them runs, so that a run of small sets never asks for a gigabyte).
const SMALL_POOL_BYTES: u64 = 64 << 20;
/// A pool's memory may take at most this fraction of its heap.
const HEAP_SHARE: u64 = 4;
/// Groups whose checksums `--verify` can read back.
const MAX_CHECK_GROUPS: u32 = 65536;
/// Bytes uploaded per staging copy.
const STAGING_BYTES: u64 = 64 << 20;

/// What a sweep does at each element of a working set: a read through a resource, or a
/// store, a copy or a read of host memory.
pub(in crate::families) trait Access:
    Copy + std::fmt::Debug + PartialEq + 'static
{
    /// Every one, in run order.
    const ALL: &'static [Self];
    /// The name, in the original suite's HLSL spelling.
    fn name(self) -> &'static str;
    /// The kernel.
    fn kernel(self) -> KernelId;
    /// The CSV's `resource` and `format` columns.
    fn columns(self) -> (&'static str, &'static str);
    /// Bytes per access (the `bytes_per_load` column).
    fn bytes(self) -> u64;
    /// Whether it runs at working set `size` (by default at every one).
    fn runs_at(self, _size: usize) -> bool {
        true
    }
}

/// One test: `access` over working set `size` of the sweep.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Variant<A> {
    access: A,
    size: usize,
}

impl<A: Access> Variant<A> {
    /// Every test of the sweep, in run order: each access at the sizes it runs at (the
    /// pattern is not part of the name: every access is coalesced).
    fn all() -> Vec<(Suite, Self, Pattern)> {
        A::ALL
            .iter()
            .flat_map(|&access| {
                (0..SIZES)
                    .filter(move |&size| access.runs_at(size))
                    .map(move |size| (Suite::Bandwidth, Variant { access, size }, Pattern::Linear))
            })
            .collect()
    }

    /// `bandwidth: <access> <size>`.
    fn name(self) -> String {
        format!(
            "bandwidth: {} {}",
            self.access.name(),
            size_name(self.bytes())
        )
    }

    fn columns(self) -> Columns {
        let (resource, format) = self.access.columns();
        Columns {
            family: "bandwidth",
            resource,
            format: format.into(),
        }
    }

    fn bytes(self) -> u64 {
        size_bytes(self.size)
    }

    /// Accesses in the set: the kernel's N.
    fn n(self) -> u32 {
        (self.bytes() / self.access.bytes()) as u32
    }

    /// Whether the set is in the large pool.
    fn large(self) -> bool {
        self.bytes() > SMALL_POOL_BYTES
    }
}

/// The [`Spec`](crate::families::Spec) items both sweeps spell the same way, from their
/// [`Variant`]: the tests, the name, columns and kernel, the working set in accesses (the
/// kernel's N) and the accesses per invocation. There is no per-thread reference: `--verify`
/// checks what the groups wrote (`Spec::verify_writes`).
///
/// A macro, not a type: the blanket `impl<C: Chains> Spec for C` leaves no room for a second
/// blanket impl (coherence), and a wrapper (`Sweep<S>` implementing `Spec` over a trait of
/// the sweep's own items) would forward each item the two families implement apart — create,
/// unsupported, bindings, verify_writes, memory, dispatch_groups, device_note, cold,
/// shares_host, over_host_link — and restate `Spec`'s defaults for the ones only one of them
/// overrides: more lines than the ten it shares, and a second place to change with `Spec`.
macro_rules! sweep_spec {
    () => {
        fn tests(&self) -> Vec<($crate::model::Suite, Self::Variant, $crate::model::Pattern)> {
            <Self::Variant>::all()
        }

        fn name(&self, v: Self::Variant) -> String {
            v.name()
        }

        fn test_name(&self, v: Self::Variant, _: $crate::model::Pattern) -> String {
            v.name()
        }

        fn columns(&self, v: Self::Variant) -> $crate::families::Columns {
            v.columns()
        }

        fn bytes_per_load(&self, v: Self::Variant) -> Option<u32> {
            Some(v.access.bytes() as u32)
        }

        fn working_set(&self, v: Self::Variant) -> Option<u64> {
            Some(v.bytes())
        }

        fn kernel(&self, v: Self::Variant, _: $crate::model::Pattern) -> $crate::kernels::KernelId {
            v.access.kernel()
        }

        fn read_start(&self, v: Self::Variant) -> u32 {
            v.n()
        }

        fn reference(
            &self,
            _: Self::Variant,
            _: $crate::model::Pattern,
            _: &[u8],
        ) -> Vec<$crate::data::ThreadSum> {
            Vec::new()
        }

        fn ops_per_thread(&self, _: Self::Variant) -> u64 {
            $crate::families::memory::bandwidth::LOADS_PER_THREAD
        }
    };
}
use sweep_spec;

/// The sizes the small pool (`large` false) or the large pool holds.
fn pool_sizes(large: bool) -> std::ops::Range<usize> {
    if large {
        small_sizes()..SIZES
    } else {
        0..small_sizes()
    }
}

/// The bytes of a pool: the small pool's, or the largest set of the large pool within its
/// heap's share (`heap()`, the heap's bytes, asked only for the large pool).
fn pool_bytes(
    large: bool,
    heap: impl FnOnce() -> std::result::Result<u64, String>,
) -> std::result::Result<u64, String> {
    if !large {
        return Ok(SMALL_POOL_BYTES);
    }
    let share = heap()? / HEAP_SHARE;
    pool_sizes(true)
        .map(size_bytes)
        .filter(|&b| b <= share)
        .max()
        .ok_or_else(|| "no large set fits".into())
}

/// The region of an image that holds each set of a pool that `fits`, as 8x8 blocks of
/// `texel_bytes` texels ([`blocks`]): the widest and the highest of them (one block at least).
fn image_extent(texel_bytes: u64, large: bool, fits: impl Fn(usize) -> bool) -> (u32, u32) {
    let (mut width, mut height) = (8, 8);
    for size in pool_sizes(large).filter(|&s| fits(s)) {
        let (w, h) = blocks((size_bytes(size) / texel_bytes) as u32);
        (width, height) = (width.max(8 * w), height.max(8 * h));
    }
    (width, height)
}

/// Something a pool's tests need, made when the first of them asks: per pool (small, large),
/// the thing or why it could not be made.
struct PerPool<T>([OnceLock<std::result::Result<T, String>>; 2]);

impl<T> Default for PerPool<T> {
    fn default() -> Self {
        PerPool(Default::default())
    }
}

impl<T> PerPool<T> {
    /// The pool's (the large one where `large`), made by `make` on first use.
    fn get_or_make(
        &self,
        large: bool,
        make: impl FnOnce() -> std::result::Result<T, String>,
    ) -> std::result::Result<&T, String> {
        self.0[large as usize]
            .get_or_init(make)
            .as_ref()
            .map_err(Clone::clone)
    }

    /// The pool's, if it was made.
    fn made(&self, large: bool) -> Option<&T> {
        self.0[large as usize].get()?.as_ref().ok()
    }
}

/// An error as the rows' reasons spell it: its whole chain.
fn why(e: anyhow::Error) -> String {
    format!("{e:#}")
}

/// "`<size>` exceeds `what`" where the set `v` is over `limit` bytes.
fn exceeds<A: Access>(v: Variant<A>, limit: u64, what: String) -> Option<String> {
    (v.bytes() > limit).then(|| format!("{} exceeds {what}", size_name(v.bytes())))
}

/// Why `v` is over its pool's share of a heap of `heap` bytes (`which` heap), if it is.
fn over_heap<A: Access>(v: Variant<A>, heap: u64, which: &str) -> Option<String> {
    exceeds(
        v,
        heap / HEAP_SHARE,
        format!("a quarter of the {which} heap ({} MB)", heap >> 20),
    )
}

/// Why `v` is over the range of a storage buffer, if it is.
fn over_storage_range<A: Access>(
    v: Variant<A>,
    limits: &vk::PhysicalDeviceLimits,
) -> Option<String> {
    exceeds(
        v,
        limits.max_storage_buffer_range as u64,
        format!(
            "maxStorageBufferRange = {}",
            limits.max_storage_buffer_range
        ),
    )
}

/// Why `v`'s texels, as 8x8 blocks ([`blocks`]), are wider or higher than an image may be,
/// if they are.
fn over_image_dimension<A: Access>(
    v: Variant<A>,
    limits: &vk::PhysicalDeviceLimits,
) -> Option<String> {
    let (w, h) = blocks(v.n());
    let (w, h) = (8 * w, 8 * h);
    (w.max(h) > limits.max_image_dimension2_d).then(|| {
        format!(
            "{} as a {w}x{h} image exceeds maxImageDimension2D = {}",
            size_name(v.bytes()),
            limits.max_image_dimension2_d
        )
    })
}

/// The buffer the kernels write each group's checksum to, after `header` bytes, for
/// `--verify` to read back.
fn check_buffer<'g>(gpu: &'g Gpu<'g>, name: &str, header: u64) -> Result<Buffer<'g>> {
    Buffer::new(
        gpu,
        name,
        header + 4 * MAX_CHECK_GROUPS as u64,
        vk::BufferUsageFlags::STORAGE_BUFFER | vk::BufferUsageFlags::TRANSFER_DST,
        Memory::Readback,
    )
}

/// Whether `--verify` can read back the checksums of `groups` groups.
fn check_groups(groups: u32) -> Result<()> {
    anyhow::ensure!(
        groups <= MAX_CHECK_GROUPS,
        "--verify of the bandwidth suite reads back at most {MAX_CHECK_GROUPS} groups"
    );
    Ok(())
}

/// What `--fault reference` changes in the CPU's values (so that every row must mismatch):
/// 1, else 0.
fn fault_skew(shared: &Shared<'_>) -> u32 {
    u32::from(shared.fault == Some(Fault::Reference))
}

/// `--verify` of a row whose groups each write the sum of what they read: the dispatch, then
/// each group's checksum (after `header` bytes of `check`) against the CPU's, `sums()`.
fn verify_group_sums(
    check: &Buffer<'_>,
    header: u64,
    groups: u32,
    dispatch: &mut Dispatch<'_>,
    sums: impl FnOnce() -> Result<Vec<u32>>,
) -> Checked {
    dispatch()?;
    let skip = header as usize / 4;
    let got = check.read_u32(skip + groups as usize)?;
    let sums = sums()?;
    Ok(compare_exact(
        "group",
        sums.into_iter().zip(got[skip..].iter().copied()),
    ))
}
