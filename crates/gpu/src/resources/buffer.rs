//! Buffers (device-local, upload, readback, any memory type) and their texel views.

use super::Memory;
use crate::Gpu;
use anyhow::{anyhow, Context as _, Result};
use ash::vk;
use gpu_allocator::vulkan::{Allocation, AllocationCreateDesc, AllocationScheme};
use gpu_allocator::MemoryLocation;

/// A buffer and its memory, freed on drop.
pub struct Buffer<'g> {
    gpu: &'g Gpu<'g>,
    /// The Vulkan handle.
    pub handle: vk::Buffer,
    allocation: Option<Allocation>,
    /// Size in bytes.
    pub size: u64,
    /// The memory type index, for buffers placed with [`Memory::In`].
    pub memory_type: Option<u32>,
    /// The device memory of an imported host region, and the region (kept while it is).
    imported: Option<(vk::DeviceMemory, std::sync::Arc<super::HostRegion>)>,
}

impl<'g> Buffer<'g> {
    /// Creates a buffer of `size` bytes with `usage`, in `memory`.
    pub fn new(
        gpu: &'g Gpu<'g>,
        name: &str,
        size: u64,
        usage: vk::BufferUsageFlags,
        memory: Memory,
    ) -> Result<Self> {
        let d = gpu.device();
        let info = vk::BufferCreateInfo::default()
            .size(size)
            .usage(usage)
            .sharing_mode(vk::SharingMode::EXCLUSIVE);
        let (mut buffer, mut requirements) = Self::unbound(gpu, name, &info)?;
        let handle = buffer.handle;
        if let Memory::In(residence) = memory {
            // Only the chosen type is allowed, so gpu-allocator allocates from exactly it.
            let index = residence
                .memory_type(gpu, requirements.memory_type_bits)
                .map_err(|e| anyhow!("{name}: {e} for this buffer"))?;
            requirements.memory_type_bits = 1 << index;
            buffer.memory_type = Some(index);
        }
        let allocation = allocate(gpu, name, requirements, memory.location(), true)
            .with_context(|| format!("allocating {size} bytes for {name}"))?;
        // SAFETY: the memory handle is only bound to this resource, which the allocation
        // outlives (it is freed in Drop after the resource is destroyed).
        let (memory, offset) = (unsafe { allocation.memory() }, allocation.offset());
        // Owned by the buffer from here, so Drop frees it even if binding fails.
        buffer.allocation = Some(allocation);
        // SAFETY: the allocation satisfies the buffer's requirements and outlives it.
        unsafe { d.bind_buffer_memory(handle, memory, offset) }
            .with_context(|| format!("vkBindBufferMemory ({name})"))?;
        Ok(buffer)
    }

    /// A buffer made from `info` with no memory bound yet (Drop destroys it), and what memory
    /// it needs.
    fn unbound(
        gpu: &'g Gpu<'g>,
        name: &str,
        info: &vk::BufferCreateInfo<'_>,
    ) -> Result<(Self, vk::MemoryRequirements)> {
        let d = gpu.device();
        // SAFETY: valid device and create info.
        let handle = unsafe { d.create_buffer(info, None) }
            .with_context(|| format!("vkCreateBuffer ({name}, {} bytes)", info.size))?;
        let buffer = Buffer {
            gpu,
            handle,
            allocation: None,
            size: info.size,
            memory_type: None,
            imported: None,
        };
        // SAFETY: `handle` is the buffer just created on `d`.
        let requirements = unsafe { d.get_buffer_memory_requirements(handle) };
        Ok((buffer, requirements))
    }

    /// A buffer over all of `region`, host memory the process allocated, imported into the
    /// device as a memory type of `residence` (`VK_EXT_external_memory_host`); `None` where
    /// the device cannot import it so (no extension, a size or pointer not aligned as it asks,
    /// or no such memory type for a host pointer).
    pub fn import(
        gpu: &'g Gpu<'g>,
        name: &str,
        region: std::sync::Arc<super::HostRegion>,
        usage: vk::BufferUsageFlags,
        residence: super::Residence,
    ) -> Result<Option<Self>> {
        let Some((ext, align)) = gpu.external_host() else {
            return Ok(None);
        };
        let (size, ptr) = (region.len() as u64, region.as_ptr());
        if !size.is_multiple_of(*align) || !(ptr as u64).is_multiple_of(*align) {
            return Ok(None);
        }
        let handle_type = vk::ExternalMemoryHandleTypeFlags::HOST_ALLOCATION_EXT;
        let mut props = vk::MemoryHostPointerPropertiesEXT::default();
        // SAFETY: valid device with the extension enabled; `ptr` is the region's first byte,
        // aligned as the device asks, and the region outlives the call.
        let found = unsafe {
            (ext.fp().get_memory_host_pointer_properties_ext)(
                ext.device(),
                handle_type,
                ptr.cast(),
                &mut props,
            )
        };
        if found != vk::Result::SUCCESS {
            return Ok(None);
        }
        let d = gpu.device();
        let mut external = vk::ExternalMemoryBufferCreateInfo::default().handle_types(handle_type);
        let info = vk::BufferCreateInfo::default()
            .size(size)
            .usage(usage)
            .sharing_mode(vk::SharingMode::EXCLUSIVE)
            .push_next(&mut external);
        let (mut buffer, requirements) = Self::unbound(gpu, name, &info)?;
        let handle = buffer.handle;
        // The type the device's own allocation would take, or none: an import that had to
        // take another type (a cached one, say) would measure other memory under its name.
        let Ok(index) = residence.memory_type(gpu, requirements.memory_type_bits) else {
            return Ok(None);
        };
        if props.memory_type_bits & (1 << index) == 0 {
            return Ok(None);
        }
        let mut import = vk::ImportMemoryHostPointerInfoEXT::default()
            .handle_type(handle_type)
            .host_pointer(ptr.cast());
        let allocate = vk::MemoryAllocateInfo::default()
            .allocation_size(size)
            .memory_type_index(index)
            .push_next(&mut import);
        // A device that refuses (its own limit on imports, pages another of its imports
        // holds) leaves the buffer to the driver's own allocation.
        // SAFETY: the pointer and size are aligned as the device asks, the type is one the
        // device allows for this pointer, and the region outlives the memory (the buffer
        // keeps an Arc of it, and frees the memory in Drop).
        let Ok(memory) = (unsafe { d.allocate_memory(&allocate, None) }) else {
            return Ok(None);
        };
        buffer.imported = Some((memory, region));
        buffer.memory_type = Some(index);
        // SAFETY: the imported memory is as large as the buffer and of an allowed type.
        unsafe { d.bind_buffer_memory(handle, memory, 0) }
            .with_context(|| format!("vkBindBufferMemory ({name}, imported)"))?;
        Ok(Some(buffer))
    }

    /// Whether the buffer's memory is an imported host region ([`Buffer::import`]).
    pub fn is_imported(&self) -> bool {
        self.imported.is_some()
    }

    /// The buffer's device address (the buffer needs SHADER_DEVICE_ADDRESS usage).
    pub fn device_address(&self) -> u64 {
        let info = vk::BufferDeviceAddressInfo::default().buffer(self.handle);
        // SAFETY: only called for buffers created with SHADER_DEVICE_ADDRESS on a device
        // with the bufferDeviceAddress feature enabled.
        unsafe { self.gpu.device().get_buffer_device_address(&info) }
    }

    /// Copies `data` into a host-visible buffer.
    pub fn write(&mut self, data: &[u8]) -> Result<()> {
        self.mapped_mut()?[..data.len()].copy_from_slice(data);
        Ok(())
    }

    /// The mapped bytes of a host-visible buffer, to write in place.
    pub fn mapped_mut(&mut self) -> Result<&mut [u8]> {
        self.allocation
            .as_mut()
            .and_then(|a| a.mapped_slice_mut())
            .context("buffer is not host-visible")
    }

    /// The mapped bytes of a host-visible buffer (read in place: a gigabyte copied out first
    /// costs as long as checking it).
    pub fn mapped(&self) -> Result<&[u8]> {
        self.allocation
            .as_ref()
            .and_then(|a| a.mapped_slice())
            .context("buffer is not host-visible")
    }

    /// Reads the first `count` little-endian 32-bit words of a host-visible buffer.
    pub fn read_u32(&self, count: usize) -> Result<Vec<u32>> {
        Ok(self.mapped()?[..count * 4]
            .chunks_exact(4)
            .map(|c| u32::from_le_bytes([c[0], c[1], c[2], c[3]]))
            .collect())
    }

    /// The first `count` bytes of a host-visible buffer.
    pub fn read_bytes(&self, count: usize) -> Result<Vec<u8>> {
        Ok(self.mapped()?[..count].to_vec())
    }

    /// Reads a host-visible buffer as little-endian vec4s.
    pub fn read_vec4(&self, count: usize) -> Result<Vec<[f32; 4]>> {
        let slice = self.mapped()?;
        Ok((0..count).map(|i| vec4_at(slice, i)).collect())
    }
}

/// The `i`th little-endian vec4 of `bytes`.
pub fn vec4_at(bytes: &[u8], i: usize) -> [f32; 4] {
    let c = &bytes[16 * i..16 * i + 16];
    let f = |k: usize| f32::from_le_bytes([c[k], c[k + 1], c[k + 2], c[k + 3]]);
    [f(0), f(4), f(8), f(12)]
}

impl Drop for Buffer<'_> {
    fn drop(&mut self) {
        // SAFETY: the GPU no longer uses the buffer: every submission is waited for.
        unsafe { self.gpu.device().destroy_buffer(self.handle, None) };
        free(self.gpu, self.allocation.take());
        if let Some((memory, _region)) = self.imported.take() {
            // SAFETY: the buffer bound to it is destroyed; the region is freed after it.
            unsafe { self.gpu.device().free_memory(memory, None) };
        }
    }
}

/// Returns an allocation to the allocator (a poisoned lock leaks it rather than panicking
/// in a destructor).
pub(super) fn free(gpu: &Gpu<'_>, allocation: Option<Allocation>) {
    if let (Some(a), Ok(mut alloc)) = (allocation, gpu.allocator.lock()) {
        let _ = alloc.free(a);
    }
}

/// Memory for `requirements` from the device's allocator, at `location`; `linear` for a
/// buffer or a linear-tiled image (gpu-allocator keeps those apart from optimal-tiled images
/// within a page, as Vulkan's buffer-image granularity asks).
pub(super) fn allocate(
    gpu: &Gpu<'_>,
    name: &str,
    requirements: vk::MemoryRequirements,
    location: MemoryLocation,
    linear: bool,
) -> Result<Allocation> {
    let allocation = gpu
        .allocator
        .lock()
        .map_err(|_| anyhow!("allocator lock poisoned"))?
        .allocate(&AllocationCreateDesc {
            name,
            requirements,
            location,
            linear,
            allocation_scheme: AllocationScheme::GpuAllocatorManaged,
        })?;
    Ok(allocation)
}

/// A typed view of a buffer (for texel-buffer descriptors).
pub struct BufferView<'g> {
    gpu: &'g Gpu<'g>,
    /// The Vulkan handle.
    pub handle: vk::BufferView,
}

impl<'g> BufferView<'g> {
    /// A view of the first `range` bytes of `buffer` as `format`.
    pub fn new(
        gpu: &'g Gpu<'g>,
        buffer: &Buffer<'g>,
        format: vk::Format,
        range: u64,
    ) -> Result<Self> {
        Self::new_at(gpu, buffer, format, 0, range)
    }

    /// A view of `range` bytes of `buffer` from `offset` (a multiple of
    /// minTexelBufferOffsetAlignment) as `format`.
    pub fn new_at(
        gpu: &'g Gpu<'g>,
        buffer: &Buffer<'g>,
        format: vk::Format,
        offset: u64,
        range: u64,
    ) -> Result<Self> {
        let info = vk::BufferViewCreateInfo::default()
            .buffer(buffer.handle)
            .format(format)
            .offset(offset)
            .range(range);
        // SAFETY: valid buffer created with a texel-buffer usage.
        let handle = unsafe { gpu.device().create_buffer_view(&info, None) }
            .with_context(|| format!("vkCreateBufferView ({format:?})"))?;
        Ok(BufferView { gpu, handle })
    }
}

impl Drop for BufferView<'_> {
    fn drop(&mut self) {
        // SAFETY: idle GPU (see Buffer::drop).
        unsafe { self.gpu.device().destroy_buffer_view(self.handle, None) };
    }
}
