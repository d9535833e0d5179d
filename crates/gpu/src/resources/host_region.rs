//! Host memory the process allocates and a device imports (`VK_EXT_external_memory_host`), instead of the device's driver allocating and pinning its own.

use anyhow::{anyhow, Result};
use std::alloc::Layout;
use std::ptr::NonNull;

/// The size of a huge page on x86-64 and most Linux hosts: what a region is aligned to.
const HUGE_PAGE: usize = 2 << 20;

/// A region of host memory, aligned as the device that imports it asks, every page written
/// once on the host's cores (faulted in before the driver pins it).
pub struct HostRegion {
    ptr: NonNull<u8>,
    layout: Layout,
}

// SAFETY: the region is plain memory the process owns; the host never reads or writes it
// after it is made (only its device's copies do), so moving or sharing the pointer between
// threads is sound.
unsafe impl Send for HostRegion {}
// SAFETY: as for Send: no host access through `&HostRegion`.
unsafe impl Sync for HostRegion {}

impl HostRegion {
    /// A region of `len` bytes aligned to `align` (a power of two, `len` a multiple of it),
    /// each page written on the host's cores. On Linux a region of 2 MB or more is aligned to
    /// 2 MB and asks for 2 MB pages (`MADV_HUGEPAGE`; the kernel may still give 4 KB ones).
    pub fn new(len: usize, align: usize) -> Result<Self> {
        anyhow::ensure!(
            len > 0 && align.is_power_of_two() && len.is_multiple_of(align),
            "a host region of {len} bytes is not whole units of {align}"
        );
        let align = if len >= HUGE_PAGE {
            align.max(HUGE_PAGE)
        } else {
            align
        };
        let layout = Layout::from_size_align(len, align)
            .map_err(|e| anyhow!("a host region of {len} bytes aligned to {align}: {e}"))?;
        // SAFETY: the layout's size is not zero.
        let ptr = NonNull::new(unsafe { std::alloc::alloc(layout) })
            .ok_or_else(|| anyhow!("allocating {len} bytes of host memory"))?;
        let region = HostRegion { ptr, layout };
        region.ask_huge_pages();
        // Every page faulted in here, on every core, rather than one at a time inside the
        // driver when a device pins it.
        let threads = std::thread::available_parallelism().map_or(4, |n| n.get());
        let per = len.div_ceil(threads).next_multiple_of(align.max(4096));
        // SAFETY: the region's `len` bytes were just allocated and nothing else refers to them.
        let bytes = unsafe { std::slice::from_raw_parts_mut(region.ptr.as_ptr(), len) };
        std::thread::scope(|s| {
            for part in bytes.chunks_mut(per) {
                s.spawn(move || part.fill(0));
            }
        });
        Ok(region)
    }

    /// Asks the kernel to back the region with 2 MB pages, before its pages are first
    /// touched: 512 times fewer faults to fill it, and to free it (on an H200's host, 1 GB of
    /// 4 KB pages took 0.036 s to free, of 2 MB pages 0.003 s:
    /// `results/h200/huge-1129/thp-probe.txt`). Advice only: refused or unsupported, the
    /// region keeps 4 KB pages.
    #[cfg(target_os = "linux")]
    fn ask_huge_pages(&self) {
        if self.layout.size() >= HUGE_PAGE {
            // SAFETY: the range is the region's own allocation, not yet touched; MADV_HUGEPAGE
            // changes no contents and no mapping, only how the kernel backs the pages.
            unsafe {
                libc::madvise(
                    self.ptr.as_ptr().cast(),
                    self.layout.size(),
                    libc::MADV_HUGEPAGE,
                )
            };
        }
    }

    #[cfg(not(target_os = "linux"))]
    fn ask_huge_pages(&self) {}

    /// The region's first byte.
    pub fn as_ptr(&self) -> *mut u8 {
        self.ptr.as_ptr()
    }

    /// Its size in bytes.
    pub fn len(&self) -> usize {
        self.layout.size()
    }

    /// Whether it is empty (never: a region has bytes).
    pub fn is_empty(&self) -> bool {
        self.layout.size() == 0
    }
}

impl Drop for HostRegion {
    fn drop(&mut self) {
        // SAFETY: allocated in `new` with this layout; the device memory importing it holds
        // an Arc of it, so none is left.
        unsafe { std::alloc::dealloc(self.ptr.as_ptr(), self.layout) };
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::resources::{record_copy, Buffer, Memory, Residence};
    use ash::vk;
    use std::sync::Arc;

    /// The process's resident memory, kB (Linux's `VmRSS`).
    #[cfg(target_os = "linux")]
    fn resident_kb() -> u64 {
        let status = std::fs::read_to_string("/proc/self/status").unwrap();
        let line = status.lines().find(|l| l.starts_with("VmRSS:")).unwrap();
        line.split_whitespace().nth(1).unwrap().parse().unwrap()
    }

    /// A region is aligned as asked, refused where its size is not whole units of that, and
    /// its pages are in memory once it is made (faulted in here, not later inside the driver
    /// that pins them): the process's resident memory grows by the region.
    #[cfg(target_os = "linux")]
    #[test]
    fn a_region_is_aligned_and_its_pages_are_in() {
        let len = 128usize << 20;
        let before = resident_kb();
        let r = HostRegion::new(len, 2 << 20).unwrap();
        let grown = resident_kb().saturating_sub(before);
        assert_eq!(r.len(), len);
        assert!((r.as_ptr() as usize).is_multiple_of(2 << 20));
        assert!(
            grown >= (len as u64 >> 10) * 3 / 4,
            "{grown} kB resident after a region of {} kB",
            len >> 10
        );
        assert!(HostRegion::new(4096 + 1, 4096).is_err());
    }

    /// The `VmFlags` of the mapping of this process that holds `addr` (Linux's smaps).
    #[cfg(target_os = "linux")]
    fn vm_flags(addr: usize) -> String {
        let smaps = std::fs::read_to_string("/proc/self/smaps").unwrap();
        let mut inside = false;
        for line in smaps.lines() {
            let range = line.split_whitespace().next().unwrap_or_default();
            if let Some((a, b)) = range.split_once('-') {
                if let (Ok(a), Ok(b)) = (usize::from_str_radix(a, 16), usize::from_str_radix(b, 16))
                {
                    inside = (a..b).contains(&addr);
                    continue;
                }
            }
            if inside {
                if let Some(flags) = line.strip_prefix("VmFlags:") {
                    return flags.to_string();
                }
            }
        }
        panic!("no mapping holds {addr:#x}");
    }

    /// Whether this process may be given transparent huge pages at all: the kernel has them,
    /// and no `prctl(PR_SET_THP_DISABLE)` (a container's runtime may set it) took them away,
    /// in which case the advice is refused and the mapping carries no `hg` flag.
    #[cfg(target_os = "linux")]
    fn may_have_huge_pages() -> bool {
        let status = std::fs::read_to_string("/proc/self/status").unwrap_or_default();
        std::path::Path::new("/sys/kernel/mm/transparent_hugepage").exists()
            && !status
                .lines()
                .any(|l| l.split_whitespace().collect::<Vec<_>>() == ["THP_enabled:", "0"])
    }

    /// A region of 2 MB or more is aligned to 2 MB whatever its device asks, and asks the
    /// kernel for 2 MB pages (its mapping carries the `hg` flag, where the process may have
    /// transparent huge pages at all); a smaller one keeps its alignment and 4 KB pages.
    #[cfg(target_os = "linux")]
    #[test]
    fn a_large_region_asks_for_huge_pages() {
        let r = HostRegion::new(8 << 20, 4096).unwrap();
        assert!((r.as_ptr() as usize).is_multiple_of(HUGE_PAGE));
        if may_have_huge_pages() {
            let flags = vm_flags(r.as_ptr() as usize);
            assert!(
                flags.split_whitespace().any(|f| f == "hg"),
                "VmFlags:{flags}"
            );
        }
        let small = HostRegion::new(64 << 10, 4096).unwrap();
        assert!((small.as_ptr() as usize).is_multiple_of(4096));
        assert_eq!(small.len(), 64 << 10);
    }

    /// Under lavapipe (the CI's device): a region imported as a buffer is the region's bytes,
    /// copied by the GPU like any buffer's, with the validation layer silent.
    #[test]
    fn an_imported_region_is_copied_as_its_bytes() {
        let instance = crate::Instance::new(true).expect("Vulkan with the validation layer");
        let info = instance
            .devices
            .iter()
            .find(|d| d.device_type == crate::DeviceType::Cpu)
            .expect("lavapipe");
        let gpu = crate::Gpu::new(&instance, info).unwrap();
        let before = crate::VALIDATION_MESSAGES.load(std::sync::atomic::Ordering::Relaxed);
        let len = 1usize << 20;
        let region = Arc::new(HostRegion::new(len, 4096).unwrap());
        let words: Vec<u8> = (0..len / 4)
            .flat_map(|i| (i as u32).wrapping_mul(2_654_435_761).to_le_bytes())
            .collect();
        // SAFETY: the region's bytes, written before any device imports them.
        unsafe { std::slice::from_raw_parts_mut(region.as_ptr(), len) }.copy_from_slice(&words);
        let usage = vk::BufferUsageFlags::TRANSFER_SRC | vk::BufferUsageFlags::TRANSFER_DST;
        let imported = Buffer::import(&gpu, "imported", region, usage, Residence::DeviceHost)
            .unwrap()
            .expect("lavapipe imports host memory");
        assert!(imported.is_imported());
        let out = Buffer::new(&gpu, "out", len as u64, usage, Memory::Readback).unwrap();
        gpu.submit(|d, cmd| record_copy(d, cmd, &imported, &out, len as u64))
            .unwrap();
        assert!(
            out.mapped().unwrap() == &words[..],
            "the copy read other bytes"
        );
        let after = crate::VALIDATION_MESSAGES.load(std::sync::atomic::Ordering::Relaxed);
        assert_eq!(after, before, "the validation layer spoke");
    }
}
