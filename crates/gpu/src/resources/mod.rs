//! RAII buffers, views, images and samplers over gpu-allocator, named by intent: where memory
//! lives here; each kind in its own file, and the commands that move data between them.

use crate::Gpu;
use ash::vk;
use gpu_allocator::MemoryLocation;

mod buffer;
mod commands;
mod host_region;
mod image;
mod sampler;
pub use buffer::{vec4_at, Buffer, BufferView};
pub use commands::*;
pub use host_region::HostRegion;
pub use image::{Image, Shape, Usage};
pub use sampler::Sampler;

/// Where a buffer lives, by what it is for.
#[derive(Clone, Copy, Debug)]
pub enum Memory {
    /// Read by shaders only; filled through a copy.
    DeviceLocal,
    /// Written by the host, copied from by the GPU.
    Upload,
    /// Written by the GPU, read by the host.
    Readback,
    /// Read by shaders from a memory type chosen by its property flags (the type is recorded
    /// in [`Buffer::memory_type`]); host-visible kinds are written through a mapping.
    In(Residence),
}

/// Which kind of memory a shader-read buffer is placed in, chosen by property flags.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Residence {
    /// `DEVICE_LOCAL`, preferably not `HOST_VISIBLE`: video memory.
    Device,
    /// `HOST_VISIBLE | HOST_COHERENT` without `DEVICE_LOCAL`, preferably not `HOST_CACHED`:
    /// system memory the GPU reads over the bus (Direct3D 12's upload heap).
    Host,
    /// `DEVICE_LOCAL | HOST_VISIBLE | HOST_COHERENT`: video memory the host maps through
    /// the PCIe BAR (all of it with resizable BAR).
    DeviceHost,
    /// `HOST_VISIBLE | HOST_COHERENT | HOST_CACHED` without `DEVICE_LOCAL`: system memory
    /// the CPU caches (Direct3D 12's readback heap).
    HostCached,
}

impl Residence {
    /// The flags the memory type must have, must not have, and had better not have.
    fn flags(
        self,
    ) -> (
        vk::MemoryPropertyFlags,
        vk::MemoryPropertyFlags,
        vk::MemoryPropertyFlags,
    ) {
        use vk::MemoryPropertyFlags as F;
        match self {
            Residence::Device => (F::DEVICE_LOCAL, F::empty(), F::HOST_VISIBLE),
            Residence::Host => (
                F::HOST_VISIBLE | F::HOST_COHERENT,
                F::DEVICE_LOCAL,
                F::HOST_CACHED,
            ),
            Residence::DeviceHost => (
                F::DEVICE_LOCAL | F::HOST_VISIBLE | F::HOST_COHERENT,
                F::empty(),
                F::empty(),
            ),
            Residence::HostCached => (
                F::HOST_VISIBLE | F::HOST_COHERENT | F::HOST_CACHED,
                F::DEVICE_LOCAL,
                F::empty(),
            ),
        }
    }

    /// The memory type of `gpu` for this kind among `allowed` (a `memoryTypeBits` mask), or
    /// why there is none.
    pub fn memory_type(self, gpu: &Gpu<'_>, allowed: u32) -> std::result::Result<u32, String> {
        let props = memory_properties(gpu);
        let (need, never, avoid) = self.flags();
        let types = &props.memory_types[..props.memory_type_count as usize];
        let fits = |i: usize, t: &vk::MemoryType| {
            allowed & (1 << i) != 0
                && t.property_flags.contains(need)
                && !t.property_flags.intersects(never)
        };
        let candidates: Vec<usize> = (0..types.len()).filter(|&i| fits(i, &types[i])).collect();
        candidates
            .iter()
            .find(|&&i| !types[i].property_flags.intersects(avoid))
            .or(candidates.first())
            .map(|&i| i as u32)
            .ok_or_else(|| {
                let without = if never.is_empty() {
                    String::new()
                } else {
                    format!(" without {never:?}")
                };
                format!("the device offers no memory type that is {need:?}{without}")
            })
    }
}

/// The device's memory types and heaps.
/// The size of the device's largest `DEVICE_LOCAL` memory heap, in bytes.
pub fn device_local_heap_bytes(gpu: &Gpu<'_>) -> u64 {
    let props = memory_properties(gpu);
    props.memory_heaps[..props.memory_heap_count as usize]
        .iter()
        .filter(|h| h.flags.contains(vk::MemoryHeapFlags::DEVICE_LOCAL))
        .map(|h| h.size)
        .max()
        .unwrap_or(0)
}

/// The size in bytes of the heap that memory type `index` allocates from.
pub fn memory_type_heap_bytes(gpu: &Gpu<'_>, index: u32) -> u64 {
    let props = memory_properties(gpu);
    props.memory_heaps[props.memory_types[index as usize].heap_index as usize].size
}

fn memory_properties(gpu: &Gpu<'_>) -> vk::PhysicalDeviceMemoryProperties {
    // SAFETY: plain query on a valid physical device.
    unsafe {
        gpu.ash_instance()
            .get_physical_device_memory_properties(gpu.info.handle)
    }
}

/// Memory type `index` of `gpu` in words: `type 4 (DEVICE_LOCAL | HOST_VISIBLE | HOST_COHERENT),
/// heap 0 (80 GiB, DEVICE_LOCAL)`, for the CSV's `memory` column.
pub fn describe_memory_type(gpu: &Gpu<'_>, index: u32) -> String {
    let props = memory_properties(gpu);
    let t = props.memory_types[index as usize];
    let heap = props.memory_heaps[t.heap_index as usize];
    let size = heap.size as f64;
    let size = if size >= (1u64 << 30) as f64 {
        format!("{:.0} GiB", size / (1u64 << 30) as f64)
    } else {
        format!("{:.0} MiB", size / (1u64 << 20) as f64)
    };
    format!(
        "type {index} ({:?}), heap {} ({size}, {:?})",
        t.property_flags, t.heap_index, heap.flags
    )
}

impl Memory {
    fn location(self) -> MemoryLocation {
        match self {
            Memory::DeviceLocal | Memory::In(Residence::Device) => MemoryLocation::GpuOnly,
            Memory::Upload | Memory::In(_) => MemoryLocation::CpuToGpu,
            Memory::Readback => MemoryLocation::GpuToCpu,
        }
    }
}
