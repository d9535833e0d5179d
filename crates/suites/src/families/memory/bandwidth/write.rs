//! The bandwidth suite's stores, shader copies and reads of host memory: the read sweep's access over the same working sets, 4 KB to 1 GB.

use super::pool::upload_words;
use super::sets::{
    bytes_of, element_sum, group_start, size_bytes, sums_of_groups, texel_of, word, Texels,
};
use super::{
    check_buffer, check_groups, fault_skew, image_extent, over_heap, over_image_dimension,
    over_storage_range, pool_bytes, sweep_spec, verify_group_sums, why, Access, PerPool,
    GROUP_ELEMENTS, LOADS_PER_THREAD,
};
use crate::data::{compare_exact_par, Mismatch};
use crate::families::{Checked, Dispatch, Shared, Spec};
use crate::kernels::{id, KernelId};
use crate::model::Pattern;
use anyhow::{anyhow, Context as _, Result};
use ash::vk;
use perftest_gpu::pipeline::Binding;
use perftest_gpu::resources::{
    device_local_heap_bytes, memory_type_heap_bytes, record_fill, record_readback, Buffer, Image,
    Memory, Residence, Shape, Usage,
};
use perftest_gpu::Gpu;
use std::sync::Mutex;

/// The grid-stride copy's groups per compute unit: on the H100, 64 per SM (8448) copied 1 GB
/// at 1.46 TB/s in two processes, 8, 16, 30, 31, 32, 128 and 256 per SM at 1.40–1.43
/// (results/h100/copy-grid-stride/).
const GRID_STRIDE_GROUPS_PER_UNIT: u32 = 64;
/// The smallest set of the cold host reads: one group's elements (1 MB), so that a grid of
/// whole groups reads each element exactly once.
const COLD_MIN_BYTES: u64 = 16 * GROUP_ELEMENTS as u64;

/// What the kernel does with each element.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Op {
    /// Stores to a storage buffer of uvec4.
    StoreBuffer,
    /// Loads from one storage buffer, stores to another.
    CopyBuffer,
    /// Loads from a storage buffer in host-visible, host-coherent memory.
    ReadHost,
    /// Stores to an RGBA32F storage image.
    StoreImage,
    /// [`Op::CopyBuffer`]'s copy with a grid-stride access: at each step the whole grid copies
    /// one contiguous window (the plain loop a shader author writes), not a chunk per group.
    CopyGridStride,
    /// [`Op::StoreImage`]'s stores with the grid-stride access.
    StoreImageGridStride,
    /// [`Op::StoreImage`]'s stores laid out in rows of the image, not 8×8 blocks.
    StoreImageRows,
    /// Rows and the grid-stride access.
    StoreImageRowsGridStride,
    /// [`Op::ReadHost`]'s loads with the grid-stride access, a grid that reads each element
    /// once per dispatch, and the caches emptied before each: the host link alone, the same
    /// in every run (the chunked row reads a set ~2–4000 times per dispatch, from the L2
    /// where it keeps what it read).
    ReadHostCold,
}

impl Access for Op {
    const ALL: &'static [Op] = &[
        Op::StoreBuffer,
        Op::CopyBuffer,
        Op::ReadHost,
        Op::StoreImage,
        Op::CopyGridStride,
        Op::StoreImageGridStride,
        Op::StoreImageRows,
        Op::StoreImageRowsGridStride,
        Op::ReadHostCold,
    ];

    fn name(self) -> &'static str {
        match self {
            Op::StoreBuffer => "RWByteAddressBuffer.Store4",
            Op::CopyBuffer => "copy ByteAddressBuffer.Load4 to RWByteAddressBuffer.Store4",
            Op::ReadHost => "ByteAddressBuffer.Load4 from host-coherent memory",
            Op::StoreImage => "RWTexture2D<RGBA32F>.Store",
            Op::CopyGridStride => {
                "copy ByteAddressBuffer.Load4 to RWByteAddressBuffer.Store4, grid-stride"
            }
            Op::StoreImageGridStride => "RWTexture2D<RGBA32F>.Store, grid-stride",
            Op::StoreImageRows => "RWTexture2D<RGBA32F>.Store, rows",
            Op::StoreImageRowsGridStride => "RWTexture2D<RGBA32F>.Store, rows, grid-stride",
            Op::ReadHostCold => "ByteAddressBuffer.Load4 from host-coherent memory, once, cold",
        }
    }

    fn kernel(self) -> KernelId {
        match self {
            Op::StoreBuffer => id::BANDWIDTH_STORE_BUFFER,
            Op::CopyBuffer => id::BANDWIDTH_COPY_BUFFER,
            Op::ReadHost => id::BANDWIDTH_READ_HOST,
            Op::StoreImage => id::BANDWIDTH_STORE_IMAGE,
            Op::CopyGridStride => id::BANDWIDTH_COPY_GRID_STRIDE,
            Op::StoreImageGridStride => id::BANDWIDTH_STORE_IMAGE_GRID_STRIDE,
            Op::StoreImageRows => id::BANDWIDTH_STORE_IMAGE_ROWS,
            Op::StoreImageRowsGridStride => id::BANDWIDTH_STORE_IMAGE_ROWS_GRID_STRIDE,
            Op::ReadHostCold => id::BANDWIDTH_READ_HOST_COLD,
        }
    }

    fn columns(self) -> (&'static str, &'static str) {
        if self.image() {
            ("STORAGE_IMAGE", "R32G32B32A32_SFLOAT")
        } else {
            ("STORAGE_BUFFER", "uvec4")
        }
    }

    /// 16 bytes per element: stored, copied (read once and written once) or read.
    fn bytes(self) -> u64 {
        16
    }

    /// Every size for stores and copies; reads of host memory and the grid-stride copy one
    /// size per octave (past the L2 every size reads at the bus's rate, and each such row is
    /// slow to time; the grid-stride copy is the chunked copy's yardstick); the cold host
    /// reads from [`COLD_MIN_BYTES`] on.
    fn runs_at(self, size: usize) -> bool {
        (!self.per_octave() || size.is_multiple_of(4))
            && (self != Op::ReadHostCold || size_bytes(size) >= COLD_MIN_BYTES)
    }
}

impl Op {
    /// Whether it stores to the image.
    fn image(self) -> bool {
        matches!(
            self,
            Op::StoreImage
                | Op::StoreImageGridStride
                | Op::StoreImageRows
                | Op::StoreImageRowsGridStride
        )
    }

    /// Whether it takes the grid-stride access (else a chunk per group from a hashed start).
    fn grid_stride(self) -> bool {
        matches!(
            self,
            Op::CopyGridStride
                | Op::StoreImageGridStride
                | Op::StoreImageRowsGridStride
                | Op::ReadHostCold
        )
    }

    /// Whether it reads the host-memory buffer.
    fn reads_host(self) -> bool {
        matches!(self, Op::ReadHost | Op::ReadHostCold)
    }

    /// Whether it runs one size per octave only (each such row is slow to time, or is a
    /// variation of a row swept at every size).
    fn per_octave(self) -> bool {
        !matches!(self, Op::StoreBuffer | Op::CopyBuffer | Op::StoreImage)
    }
}

/// One test: an operation over a working set.
type Variant = super::Variant<Op>;

/// What a buffer of the family holds.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Role {
    /// Where stores and copies go (device-local).
    Destination,
    /// What copies read: [`word`]s, device-local.
    Source,
    /// What the host-memory reads read: [`word`]s, host-visible and coherent.
    Host,
}

/// `bandwidth: <operation> <size>` for stores, copies and reads of host memory.
pub struct BandwidthWrite;

/// Buffers per role and pool, the images per pool, and the checksums.
pub struct Resources<'g> {
    gpu: &'g Gpu<'g>,
    /// Per [`Role`], in its order.
    buffers: [PerPool<Buffer<'g>>; 3],
    images: PerPool<Image<'g>>,
    check: Buffer<'g>,
    /// `--verify`'s host copy of what a store wrote, kept for the next row (a gigabyte of
    /// pinned memory takes longer to allocate than to check), grown when a row needs more.
    readback: Mutex<Option<Buffer<'g>>>,
}

/// Where the host-memory reads' data lives: host-coherent system memory, or where a device
/// has none (one whose memory is all device-local and host-visible: integrated GPUs, CPU
/// drivers) that memory, which the host also reads and writes directly.
fn host_residence(gpu: &Gpu<'_>) -> Residence {
    if Residence::Host.memory_type(gpu, u32::MAX).is_ok() {
        Residence::Host
    } else {
        Residence::DeviceHost
    }
}

/// The heap size of `role`'s buffers, or why the device has no memory for them.
fn heap_of(gpu: &Gpu<'_>, role: Role) -> std::result::Result<u64, String> {
    match role {
        Role::Host => host_residence(gpu)
            .memory_type(gpu, u32::MAX)
            .map(|i| memory_type_heap_bytes(gpu, i)),
        _ => Ok(device_local_heap_bytes(gpu)),
    }
}

impl<'g> Resources<'g> {
    /// `role`'s buffer of `v`'s pool, made (and filled) on first use.
    fn buffer(&self, role: Role, v: Variant) -> std::result::Result<&Buffer<'g>, String> {
        self.buffers[role as usize].get_or_make(v.large(), || {
            let bytes = pool_bytes(v.large(), || heap_of(self.gpu, role))?;
            self.make(role, bytes).map_err(why)
        })
    }

    fn make(&self, role: Role, bytes: u64) -> Result<Buffer<'g>> {
        let usage = vk::BufferUsageFlags::STORAGE_BUFFER
            | vk::BufferUsageFlags::TRANSFER_SRC
            | vk::BufferUsageFlags::TRANSFER_DST;
        let gpu = self.gpu;
        match role {
            Role::Destination => Buffer::new(
                gpu,
                "bandwidth destination",
                bytes,
                usage,
                Memory::DeviceLocal,
            ),
            Role::Host => {
                let mut b = Buffer::new(
                    gpu,
                    "bandwidth host data",
                    bytes,
                    usage,
                    Memory::In(host_residence(gpu)),
                )?;
                let words = bytes_of(0..bytes / 4, |i| word(i).to_le_bytes());
                b.write(&words)?;
                Ok(b)
            }
            Role::Source => {
                let data = Buffer::new(
                    gpu,
                    "bandwidth copy source",
                    bytes,
                    usage,
                    Memory::DeviceLocal,
                )?;
                upload_words(gpu, &data).context("uploading the copy source")?;
                Ok(data)
            }
        }
    }

    /// The image of `v`'s pool, made (and cleared) on first use: the region of every set of
    /// the pool the limits allow.
    fn image(&self, v: Variant) -> std::result::Result<&Image<'g>, String> {
        self.images.get_or_make(v.large(), || {
            let fits = |size| BandwidthWrite::over_limit(Variant { size, ..v }, self.gpu).is_none();
            let (width, height) = image_extent(Texels::Rgba32f.bytes(), v.large(), fits);
            let image = Image::new(
                self.gpu,
                "bandwidth store image",
                vk::Format::R32G32B32A32_SFLOAT,
                Shape::rect(width, height),
                Usage::Writable,
            )
            .map_err(why)?;
            self.gpu
                .submit(|d, cmd| image.record_clear(d, cmd, true))
                .map_err(why)?;
            Ok(image)
        })
    }

    /// `--verify` of a store or copy: what `dispatch` stores into `v`'s destination (or
    /// image), read back whole, against what the groups wrote.
    fn verify_stores(
        &self,
        v: Variant,
        groups: u32,
        dispatch: &mut Dispatch<'_>,
        skew: u32,
    ) -> Checked {
        let err = |e: String| anyhow!(e);
        // An image is read back whole (it holds the pool's largest set).
        let (readback_bytes, width) = if v.access.image() {
            let extent = self.image(v).map_err(err)?.shape.extent;
            (
                16 * extent.width as u64 * extent.height as u64,
                extent.width,
            )
        } else {
            (v.bytes(), 0)
        };
        let mut kept = self
            .readback
            .lock()
            .map_err(|_| anyhow!("a verify panicked"))?;
        if kept.as_ref().is_none_or(|b| b.size < readback_bytes) {
            *kept = None;
            *kept = Some(Buffer::new(
                self.gpu,
                "bandwidth readback",
                readback_bytes,
                vk::BufferUsageFlags::TRANSFER_DST,
                Memory::Readback,
            )?);
        }
        let readback = kept.as_ref().context("no readback buffer")?;
        let gpu = self.gpu;
        if v.access.image() {
            let image = self.image(v).map_err(err)?;
            gpu.submit(|d, cmd| {
                image.record_clear(d, cmd, false);
                record_fill(d, cmd, readback, NOT_READ_BACK);
            })?;
            dispatch()?;
            gpu.submit(|d, cmd| image.record_copy_to(d, cmd, readback))
                .context("reading the image back")?;
        } else {
            let destination = self.buffer(Role::Destination, v).map_err(err)?;
            gpu.submit(|d, cmd| {
                record_fill(d, cmd, destination, 0);
                record_fill(d, cmd, readback, NOT_READ_BACK);
            })?;
            dispatch()?;
            gpu.submit(|d, cmd| record_readback(d, cmd, destination, readback, v.bytes()))?;
        }
        let got = &readback.mapped()?[..readback_bytes as usize];
        Ok(compare_stored(v, groups, width, got, skew))
    }
}

/// Which elements of a set of `n` the first `groups` groups touch (all when a group covers
/// the set): each group's 65536 from its start, wrapping (mirrors the kernel).
fn touched(n: u32, groups: u32) -> Vec<bool> {
    if n <= GROUP_ELEMENTS {
        return vec![true; n as usize];
    }
    // Each group covers [start, start + GROUP_ELEMENTS) wrapping at n: +1 where a range
    // begins, -1 past its end, and a running sum (groups × 65536 marks otherwise).
    let mut edges = vec![0i32; n as usize + 1];
    for g in 0..groups {
        let start = group_start(g, n) as usize;
        let end = start + GROUP_ELEMENTS as usize;
        edges[start] += 1;
        if end <= n as usize {
            edges[end] -= 1;
        } else {
            edges[n as usize] -= 1;
            edges[0] += 1;
            edges[end - n as usize] -= 1;
        }
    }
    let mut covered = 0;
    edges[..n as usize]
        .iter()
        .map(|d| {
            covered += d;
            covered > 0
        })
        .collect()
}

/// Which elements of a set of `n` a grid-stride dispatch of `groups` groups touches: element
/// (i + k T) mod n for invocation i < T = 256 × groups and k < 256, so the first 65536 ×
/// groups, wrapping (all when they reach n) (mirrors the kernel's OP 5).
fn touched_grid_stride(n: u32, groups: u32) -> Vec<bool> {
    let covered = (groups as u64 * GROUP_ELEMENTS as u64).min(n as u64) as usize;
    (0..n as usize).map(|e| e < covered).collect()
}

/// Each group's sum of its elements under the grid-stride walk of `groups` groups over a set
/// of `n` (mirrors the kernel's OP 9): invocation i < T = 256 × groups reads (i + k T) mod n
/// for k < 256, so group g reads elements g·256 + t + k·T (mod n), t < 256.
fn sums_of_grid_stride_groups(
    n: u32,
    groups: u32,
    element: &(impl Fn(u32) -> u32 + Sync),
) -> Vec<u32> {
    let grid = 256 * groups as u64;
    let n = n as u64;
    crate::data::in_parts(groups as usize, |range| {
        range
            .map(|g| {
                let mut sum = 0u32;
                for k in 0..LOADS_PER_THREAD {
                    let window = (g as u64 * 256 + k * grid) % n;
                    for t in 0..256u64 {
                        sum = sum.wrapping_add(element(((window + t) % n) as u32));
                    }
                }
                sum
            })
            .collect::<Vec<u32>>()
    })
    .concat()
}

/// What the kept readback buffer holds before each copy back (no store, copy or image word
/// is ever this): a copy back that never happened cannot pass on an earlier row's words.
const NOT_READ_BACK: u32 = 0xDEAD_BEEF;

/// Word `c` of element `e` after a store (the kernel's `4e + c + 1`).
fn stored(e: u32, c: u32) -> u32 {
    4 * e + c + 1
}

/// Every word of `v`'s set in `got`, what was read back (an image's rows, `width` texels
/// wide), against what `groups` groups store: each element they touched holding what they
/// wrote, every other 0 (`skew` changes each word the CPU expects).
fn compare_stored(
    v: Variant,
    groups: u32,
    width: u32,
    got: &[u8],
    skew: u32,
) -> std::result::Result<(), Mismatch> {
    let n = v.n();
    let touched = if v.access.grid_stride() {
        touched_grid_stride(n, groups)
    } else {
        touched(n, groups)
    };
    let op = v.access;
    let touched = &touched;
    let pair = |i: usize| {
        let (e, c) = ((i / 4) as u32, (i % 4) as u32);
        // Where element e's four words are in what was read back.
        // (Rows: texel (e mod W, e / W) of the W-wide image, read back row by row.)
        let at = match op {
            Op::StoreImage | Op::StoreImageGridStride => {
                let (x, y) = texel_of(e, n);
                4 * (y as usize * width as usize + x as usize)
            }
            _ => 4 * e as usize,
        };
        let want = match (touched[e as usize], op) {
            (false, _) => 0,
            (true, op) if op.image() => ((stored(e, c) & 0xFF_FFFF) as f32).to_bits(),
            (true, Op::StoreBuffer) => stored(e, c),
            (true, _) => word(4 * e as u64 + c as u64),
        };
        let w = 4 * (at + c as usize);
        (
            want ^ skew,
            u32::from_le_bytes([got[w], got[w + 1], got[w + 2], got[w + 3]]),
        )
    };
    compare_exact_par("word", 4 * n as usize, pair)
}

impl BandwidthWrite {
    /// Why the device's limits keep `v` from running, if they do (needs no data): its heap's
    /// share, then an image's size or a storage buffer's range.
    fn over_limit(v: Variant, gpu: &Gpu<'_>) -> Option<String> {
        let limits = &gpu.info.limits;
        let (role, which) = if v.access.reads_host() {
            (Role::Host, "host-coherent memory's")
        } else {
            (Role::Destination, "largest device-local")
        };
        let heap = match heap_of(gpu, role) {
            Ok(heap) => heap,
            Err(why) => return Some(why),
        };
        over_heap(v, heap, which).or_else(|| {
            if v.access.image() {
                over_image_dimension(v, limits)
            } else {
                over_storage_range(v, limits)
            }
        })
    }
}

impl Spec for BandwidthWrite {
    type Variant = Variant;
    type Resources<'g> = Resources<'g>;

    sweep_spec!();

    /// The grid-stride copy runs the grid a shader author would pick, where the compute units
    /// are known: no wider than the set (one element per invocation per step: a wider grid
    /// has several units write the same lines at once), at least one group per unit, at most
    /// [`GRID_STRIDE_GROUPS_PER_UNIT`] per unit; kept under an explicit --groups (the row's
    /// figure depends on it). Elsewhere the calibrated size, as every other row.
    fn dispatch_groups(&self, v: Variant, _: Pattern, calibrated: u32, units: Option<u32>) -> u32 {
        if v.access == Op::ReadHostCold {
            // Each element once: N / 65536 groups (N a multiple of 65536 from 1 MB on).
            return (v.n() / GROUP_ELEMENTS).max(1);
        }
        match units {
            Some(n) if v.access == Op::CopyGridStride && n > 0 => {
                let set = v.n() / crate::model::THREADS_PER_GROUP as u32;
                set.clamp(n, n * GRID_STRIDE_GROUPS_PER_UNIT)
            }
            _ => calibrated,
        }
    }

    /// The chunked host reads say what else than the link they measure, and where the link
    /// alone is (how far they moved between six runs on two H100s: docs/bandwidth.md).
    fn device_note(&self, _: &Resources<'_>, _: &Shared<'_>, v: Variant) -> Option<String> {
        (v.access == Op::ReadHost).then(|| {
            "each group reads a 1 MB chunk from a random start (chunks overlap, and each \
             dispatch reads the set again): the L2 serves what it keeps of host memory, which \
             differs run to run; `… once, cold` rows read the link alone"
                .into()
        })
    }

    /// The cold host reads: the caches emptied before each dispatch.
    fn cold(&self, v: Variant) -> bool {
        v.access == Op::ReadHostCold
    }

    /// Reads of host memory cross the host link, which every GPU of the host shares.
    fn shares_host(&self, v: Variant) -> bool {
        matches!(v.access, Op::ReadHost | Op::ReadHostCold)
    }

    fn over_host_link(&self, v: Variant) -> bool {
        matches!(v.access, Op::ReadHost | Op::ReadHostCold)
    }

    fn create<'g>(&self, shared: &Shared<'g>) -> Result<Resources<'g>> {
        Ok(Resources {
            gpu: shared.gpu,
            buffers: Default::default(),
            images: PerPool::default(),
            check: check_buffer(shared.gpu, "bandwidth host checksums", 0)?,
            readback: Default::default(),
        })
    }

    /// The device's limits first; then the data, created on the first supported test.
    fn unsupported(&self, r: &Resources<'_>, shared: &Shared<'_>, v: Variant) -> Option<String> {
        if let Some(why) = Self::over_limit(v, shared.gpu) {
            return Some(why);
        }
        if v.access.image() {
            return r
                .image(v)
                .err()
                .map(|e| format!("the image could not be created: {e}"));
        }
        let roles: &[Role] = match v.access {
            Op::StoreBuffer => &[Role::Destination],
            Op::CopyBuffer | Op::CopyGridStride => &[Role::Source, Role::Destination],
            Op::ReadHost | Op::ReadHostCold => &[Role::Host],
            _ => &[],
        };
        roles
            .iter()
            .find_map(|&role| r.buffer(role, v).err())
            .map(|e| format!("the data could not be created: {e}"))
    }

    fn bindings<'a, 'g>(
        &self,
        r: &'a Resources<'g>,
        _: &'a Shared<'g>,
        v: Variant,
    ) -> Vec<(u32, Binding<'a, 'g>)> {
        let slice = |role| {
            r.buffer(role, v)
                .ok()
                .map(|b| Binding::StorageBufferSlice(b, 0, v.bytes()))
        };
        let bound = match v.access {
            Op::StoreBuffer => vec![(1, slice(Role::Destination))],
            Op::CopyBuffer | Op::CopyGridStride => {
                vec![(0, slice(Role::Source)), (1, slice(Role::Destination))]
            }
            Op::ReadHost | Op::ReadHostCold => vec![
                (0, slice(Role::Host)),
                (1, Some(Binding::StorageBuffer(&r.check, r.check.size))),
            ],
            _ => vec![(1, r.image(v).ok().map(Binding::StorageImage))],
        };
        bound
            .into_iter()
            .filter_map(|(n, b)| b.map(|b| (n, b)))
            .collect()
    }

    /// The host buffer's memory type, for the rows that read it. Asked of those alone: the
    /// pool's host buffer is made on first use, and pinning its GB of host memory stalled the
    /// driver's calls for every GPU of the node for 0.3–1 s (a 4×H200 node's trace: three
    /// GPUs idle through another's first 128 MB store row, then re-warmed).
    fn memory(&self, r: &Resources<'_>, shared: &Shared<'_>, v: Variant) -> Option<String> {
        if !v.access.reads_host() {
            return None;
        }
        let b = r.buffer(Role::Host, v).ok()?;
        Some(perftest_gpu::resources::describe_memory_type(
            shared.gpu,
            b.memory_type?,
        ))
    }

    /// Reads: each group's checksum against the CPU's. Stores and copies: the set read back
    /// whole, every element the groups touched holding what they wrote and every other 0.
    fn verify_writes(
        &self,
        r: &Resources<'_>,
        shared: &Shared<'_>,
        v: Variant,
        _: Pattern,
        groups: u32,
        dispatch: &mut Dispatch<'_>,
    ) -> Option<Checked> {
        Some((|| {
            check_groups(groups)?;
            // --fault reference: the CPU expects other words, so every row must mismatch.
            let skew = fault_skew(shared);
            if v.access.reads_host() {
                verify_group_sums(&r.check, 0, groups, dispatch, || {
                    let element = |e: u32| skew.wrapping_add(element_sum(e as u64, 4));
                    Ok(if v.access.grid_stride() {
                        sums_of_grid_stride_groups(v.n(), groups, &element)
                    } else {
                        sums_of_groups(v.n(), groups, &element)
                    })
                })
            } else {
                r.verify_stores(v, groups, dispatch, skew)
            }
        })())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::families::memory::bandwidth::SIZES;

    #[test]
    fn names_derive_from_the_enums() {
        let tests = BandwidthWrite.tests();
        // Host reads, the grid-stride copy and the three other image stores at 4 KB, 8 KB …
        // 1 GB: 19 sizes each; the cold host reads from 1 MB: 11.
        assert_eq!(tests.len(), 3 * SIZES + 5 * 19 + 11);
        let cold = |i: usize| {
            let (_, v, p) = tests[tests.len() - 11 + i];
            BandwidthWrite.test_name(v, p)
        };
        assert_eq!(
            cold(0),
            "bandwidth: ByteAddressBuffer.Load4 from host-coherent memory, once, cold 1 MB"
        );
        assert_eq!(
            cold(10),
            "bandwidth: ByteAddressBuffer.Load4 from host-coherent memory, once, cold 1 GB"
        );
        let name = |i: usize| BandwidthWrite.test_name(tests[i].1, tests[i].2);
        assert_eq!(name(0), "bandwidth: RWByteAddressBuffer.Store4 4 KB");
        assert_eq!(
            name(2 * SIZES + 18),
            "bandwidth: ByteAddressBuffer.Load4 from host-coherent memory 1 GB"
        );
        assert_eq!(
            name(2 * SIZES + 1),
            "bandwidth: ByteAddressBuffer.Load4 from host-coherent memory 8 KB"
        );
    }

    #[test]
    fn touched_marks_what_the_groups_cover() {
        for (n, groups) in [(262_144u32, 7u32), (70_000, 3), (1 << 20, 64)] {
            let mut seen = vec![false; n as usize];
            for g in 0..groups {
                let start = group_start(g, n);
                for e in 0..GROUP_ELEMENTS {
                    seen[((start + e) % n) as usize] = true;
                }
            }
            assert_eq!(touched(n, groups), seen, "{n} elements, {groups} groups");
        }
    }

    #[test]
    fn a_grid_stride_dispatch_touches_the_first_window_of_the_set() {
        // Brute force of the kernel's walk: (i + k T) mod n with the stride reduced mod n.
        for (n, groups) in [(256u32, 3u32), (262_144, 2), (262_144, 5), (70_000, 1)] {
            let grid = 256 * groups;
            let mut seen = vec![false; n as usize];
            for i in 0..grid {
                let mut idx = i % n;
                for _ in 0..256 {
                    seen[idx as usize] = true;
                    idx = (idx + grid % n) % n;
                }
            }
            assert_eq!(
                touched_grid_stride(n, groups),
                seen,
                "{n} elements, {groups} groups"
            );
        }
        let name = BandwidthWrite.test_name(
            Variant {
                access: Op::CopyGridStride,
                size: SIZES - 1,
            },
            Pattern::Linear,
        );
        assert_eq!(
            name,
            "bandwidth: copy ByteAddressBuffer.Load4 to RWByteAddressBuffer.Store4, grid-stride 1 GB"
        );
    }

    #[test]
    fn only_the_grid_stride_copy_picks_its_grid_and_only_where_units_are_known() {
        let v = |op| Variant {
            access: op,
            size: SIZES - 1,
        };
        let groups =
            |op, units| BandwidthWrite.dispatch_groups(v(op), Pattern::Linear, 4096, units);
        assert_eq!(groups(Op::CopyGridStride, Some(132)), 8448);
        // 8 MB: 524288 elements, a grid of 2048 groups (one window is the set); 4 KB: one
        // group per unit.
        let at = |size| {
            BandwidthWrite.dispatch_groups(
                Variant {
                    access: Op::CopyGridStride,
                    size,
                },
                Pattern::Linear,
                4096,
                Some(132),
            )
        };
        assert_eq!(at(4 * 11), 2048);
        assert_eq!(at(0), 132);
        assert_eq!(groups(Op::CopyGridStride, None), 4096);
        assert_eq!(groups(Op::CopyBuffer, Some(132)), 4096);
        assert_eq!(groups(Op::StoreImageGridStride, Some(132)), 4096);
    }

    #[test]
    fn the_cold_host_read_reads_each_element_once_and_only_it_is_cold() {
        let at = |size| Variant {
            access: Op::ReadHostCold,
            size,
        };
        let sizes: Vec<usize> = (0..SIZES)
            .filter(|&s| s % 4 == 0 && size_bytes(s) >= COLD_MIN_BYTES)
            .collect();
        assert_eq!(sizes.len(), 11);
        for size in sizes {
            let v = at(size);
            let groups = BandwidthWrite.dispatch_groups(v, Pattern::Linear, 4096, Some(132));
            // Every invocation's 256 loads, over the whole grid, are the set exactly.
            assert_eq!(
                groups as u64 * GROUP_ELEMENTS as u64,
                v.n() as u64,
                "{size}"
            );
            assert!(BandwidthWrite.cold(v));
        }
        // The brute-force walk: 3 groups over 3 × 65536 elements, each element once; the sums
        // of the groups are those of the elements each read.
        let (n, groups) = (3 * GROUP_ELEMENTS, 3u32);
        let mut seen = vec![0u8; n as usize];
        let mut sums = vec![0u32; groups as usize];
        let element = |e: u32| e.wrapping_mul(2_654_435_761);
        for g in 0..groups {
            for t in 0..256 {
                let mut idx = (g * 256 + t) % n;
                for _ in 0..LOADS_PER_THREAD {
                    seen[idx as usize] += 1;
                    sums[g as usize] = sums[g as usize].wrapping_add(element(idx));
                    idx = (idx + 256 * groups) % n;
                }
            }
        }
        assert!(seen.iter().all(|&s| s == 1));
        assert_eq!(sums_of_grid_stride_groups(n, groups, &element), sums);
        assert!(!BandwidthWrite.cold(Variant {
            access: Op::ReadHost,
            size: 12
        }));
    }

    #[test]
    fn groups_touch_their_own_chunks_of_a_large_set() {
        // A set a group covers: every element, whatever the groups.
        assert!(touched(4096, 1).iter().all(|t| *t));
        // 4 MB of uvec4 (262144 elements): one group touches a quarter, wrapping at the end.
        let n = 262_144;
        let one = touched(n, 1);
        assert_eq!(one.iter().filter(|t| **t).count(), GROUP_ELEMENTS as usize);
        let start = group_start(0, n) as usize;
        assert!(one[start] && one[(start + 65535) % n as usize]);
        assert!(!one[(start + 65536) % n as usize]);
        // Many groups: most of the set.
        assert!(touched(n, 64).iter().filter(|t| **t).count() > n as usize / 2);
    }
}
