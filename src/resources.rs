//! RAII buffers, views, images and samplers over gpu-allocator, named by intent.

use crate::gpu::Gpu;
use anyhow::{anyhow, Context as _, Result};
use ash::vk;
use gpu_allocator::vulkan::{Allocation, AllocationCreateDesc, AllocationScheme};
use gpu_allocator::MemoryLocation;

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
        // SAFETY: valid device and create info.
        let handle = unsafe { d.create_buffer(&info, None) }
            .with_context(|| format!("vkCreateBuffer ({name}, {size} bytes)"))?;
        let mut buffer = Buffer {
            gpu,
            handle,
            allocation: None,
            size,
            memory_type: None,
        };
        let mut requirements = unsafe { d.get_buffer_memory_requirements(handle) };
        if let Memory::In(residence) = memory {
            // Only the chosen type is allowed, so gpu-allocator allocates from exactly it.
            let index = residence
                .memory_type(gpu, requirements.memory_type_bits)
                .map_err(|e| anyhow!("{name}: {e} for this buffer"))?;
            requirements.memory_type_bits = 1 << index;
            buffer.memory_type = Some(index);
        }
        let allocation = gpu
            .allocator
            .lock()
            .map_err(|_| anyhow!("allocator lock poisoned"))?
            .allocate(&AllocationCreateDesc {
                name,
                requirements,
                location: memory.location(),
                linear: true,
                allocation_scheme: AllocationScheme::GpuAllocatorManaged,
            })
            .with_context(|| format!("allocating {size} bytes for {name}"))?;
        let (memory, offset) = (unsafe { allocation.memory() }, allocation.offset());
        // Owned by the buffer from here, so Drop frees it even if binding fails.
        buffer.allocation = Some(allocation);
        // SAFETY: the allocation satisfies the buffer's requirements and outlives it.
        unsafe { d.bind_buffer_memory(handle, memory, offset) }
            .with_context(|| format!("vkBindBufferMemory ({name})"))?;
        Ok(buffer)
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
    }
}

/// Returns an allocation to the allocator (a poisoned lock leaks it rather than panicking
/// in a destructor).
fn free(gpu: &Gpu<'_>, allocation: Option<Allocation>) {
    if let (Some(a), Ok(mut alloc)) = (allocation, gpu.allocator.lock()) {
        let _ = alloc.free(a);
    }
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

/// A single-mip image (2-D unless made with [`Image::new_shaped`]), its memory and a view of it.
pub struct Image<'g> {
    gpu: &'g Gpu<'g>,
    /// The image.
    pub handle: vk::Image,
    /// A view of mip 0, every layer.
    pub view: vk::ImageView,
    allocation: Option<Allocation>,
    /// Dimensions, size and layers.
    pub shape: Shape,
    /// The layout shaders read it in, once filled.
    pub layout: vk::ImageLayout,
}

/// An image's dimensions: the view type shaders see, the size in texels and the layers.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Shape {
    pub view: vk::ImageViewType,
    pub extent: vk::Extent3D,
    pub layers: u32,
}

impl Shape {
    /// A `size`×`size` 2-D image.
    pub fn square(size: u32) -> Shape {
        Shape {
            view: vk::ImageViewType::TYPE_2D,
            extent: vk::Extent3D {
                width: size,
                height: size,
                depth: 1,
            },
            layers: 1,
        }
    }

    fn image_type(self) -> vk::ImageType {
        match self.view {
            vk::ImageViewType::TYPE_1D | vk::ImageViewType::TYPE_1D_ARRAY => vk::ImageType::TYPE_1D,
            vk::ImageViewType::TYPE_3D => vk::ImageType::TYPE_3D,
            _ => vk::ImageType::TYPE_2D,
        }
    }
}

impl<'g> Image<'g> {
    /// A sampled image of `format`, `size`×`size`, that can be filled by a copy and is then
    /// read in `SHADER_READ_ONLY_OPTIMAL`.
    pub fn new_sampled(
        gpu: &'g Gpu<'g>,
        name: &str,
        format: vk::Format,
        size: u32,
    ) -> Result<Self> {
        Self::new_shaped(gpu, name, format, Shape::square(size))
    }

    /// A sampled image of `format` and `shape` (1-D, 3-D, arrays; compressed formats too)
    /// that can be filled by a copy and is then read in `SHADER_READ_ONLY_OPTIMAL`.
    pub fn new_shaped(
        gpu: &'g Gpu<'g>,
        name: &str,
        format: vk::Format,
        shape: Shape,
    ) -> Result<Self> {
        Self::new(
            gpu,
            name,
            format,
            shape,
            vk::ImageUsageFlags::SAMPLED,
            vk::ImageLayout::SHADER_READ_ONLY_OPTIMAL,
            vk::ImageTiling::OPTIMAL,
        )
    }

    /// A sampled image as [`Image::new_sampled`], with the given tiling, read in `layout`.
    pub fn new_sampled_as(
        gpu: &'g Gpu<'g>,
        name: &str,
        format: vk::Format,
        size: u32,
        tiling: vk::ImageTiling,
        layout: vk::ImageLayout,
    ) -> Result<Self> {
        let usage = vk::ImageUsageFlags::SAMPLED;
        Self::new(
            gpu,
            name,
            format,
            Shape::square(size),
            usage,
            layout,
            tiling,
        )
    }

    /// A storage image of `format`, `size`×`size`, that can be filled by a copy and is then
    /// read in `GENERAL` layout.
    pub fn new_storage(
        gpu: &'g Gpu<'g>,
        name: &str,
        format: vk::Format,
        size: u32,
    ) -> Result<Self> {
        Self::new(
            gpu,
            name,
            format,
            Shape::square(size),
            vk::ImageUsageFlags::STORAGE,
            vk::ImageLayout::GENERAL,
            vk::ImageTiling::OPTIMAL,
        )
    }

    /// An image shaders both sample and load as a storage image, `size`×`size`, filled by a
    /// copy and then read in `GENERAL` layout (the latency suite's chain).
    pub fn new_sampled_storage(
        gpu: &'g Gpu<'g>,
        name: &str,
        format: vk::Format,
        size: u32,
    ) -> Result<Self> {
        Self::new(
            gpu,
            name,
            format,
            Shape::square(size),
            vk::ImageUsageFlags::SAMPLED | vk::ImageUsageFlags::STORAGE,
            vk::ImageLayout::GENERAL,
            vk::ImageTiling::OPTIMAL,
        )
    }

    /// An image shaders both sample and load as a storage image, `width`×`height`, filled in
    /// bands of rows (see [`Image::record_fill_rows`]) and then read in `GENERAL` layout (the
    /// bandwidth suite's working sets).
    pub fn new_sampled_storage_rect(
        gpu: &'g Gpu<'g>,
        name: &str,
        format: vk::Format,
        width: u32,
        height: u32,
    ) -> Result<Self> {
        let mut shape = Shape::square(width);
        shape.extent.height = height;
        Self::new(
            gpu,
            name,
            format,
            shape,
            vk::ImageUsageFlags::SAMPLED | vk::ImageUsageFlags::STORAGE,
            vk::ImageLayout::GENERAL,
            vk::ImageTiling::OPTIMAL,
        )
    }

    /// Records a copy of `rows` rows of tightly packed texels from `source` (at offset 0) into
    /// a 2-D image from row `first_row` on. The first band (`first_row` 0) takes the image
    /// from `UNDEFINED` to `TRANSFER_DST_OPTIMAL`; the band that ends at the last row leaves it
    /// in its read layout for compute shaders.
    pub fn record_fill_rows(
        &self,
        d: &ash::Device,
        cmd: vk::CommandBuffer,
        source: &Buffer<'_>,
        first_row: u32,
        rows: u32,
    ) {
        let extent = self.shape.extent;
        debug_assert!(first_row + rows <= extent.height);
        let barrier = |from, to, src, dst| {
            vk::ImageMemoryBarrier::default()
                .src_access_mask(src)
                .dst_access_mask(dst)
                .old_layout(from)
                .new_layout(to)
                .src_queue_family_index(vk::QUEUE_FAMILY_IGNORED)
                .dst_queue_family_index(vk::QUEUE_FAMILY_IGNORED)
                .image(self.handle)
                .subresource_range(color_range(1))
        };
        let region = vk::BufferImageCopy::default()
            .image_subresource(
                vk::ImageSubresourceLayers::default()
                    .aspect_mask(vk::ImageAspectFlags::COLOR)
                    .layer_count(1),
            )
            .image_offset(vk::Offset3D {
                x: 0,
                y: first_row as i32,
                z: 0,
            })
            .image_extent(vk::Extent3D {
                width: extent.width,
                height: rows,
                depth: 1,
            });
        // SAFETY: recording into a command buffer in the recording state; the source buffer
        // holds `rows` rows of texels and was made TRANSFER_SRC; the bands are recorded in
        // order, so the image is in TRANSFER_DST_OPTIMAL after the first.
        unsafe {
            if first_row == 0 {
                d.cmd_pipeline_barrier(
                    cmd,
                    vk::PipelineStageFlags::TOP_OF_PIPE,
                    vk::PipelineStageFlags::TRANSFER,
                    vk::DependencyFlags::empty(),
                    &[],
                    &[],
                    &[barrier(
                        vk::ImageLayout::UNDEFINED,
                        vk::ImageLayout::TRANSFER_DST_OPTIMAL,
                        vk::AccessFlags::empty(),
                        vk::AccessFlags::TRANSFER_WRITE,
                    )],
                );
            }
            d.cmd_copy_buffer_to_image(
                cmd,
                source.handle,
                self.handle,
                vk::ImageLayout::TRANSFER_DST_OPTIMAL,
                &[region],
            );
            if first_row + rows == extent.height {
                d.cmd_pipeline_barrier(
                    cmd,
                    vk::PipelineStageFlags::TRANSFER,
                    vk::PipelineStageFlags::COMPUTE_SHADER,
                    vk::DependencyFlags::empty(),
                    &[],
                    &[],
                    &[barrier(
                        vk::ImageLayout::TRANSFER_DST_OPTIMAL,
                        self.layout,
                        vk::AccessFlags::TRANSFER_WRITE,
                        vk::AccessFlags::SHADER_READ,
                    )],
                );
            }
        }
    }

    /// A storage image that shaders write, in `GENERAL` layout, cleared and read back through
    /// transfers (see [`Image::record_clear`], [`Image::record_copy_to`]).
    pub fn new_writable(
        gpu: &'g Gpu<'g>,
        name: &str,
        format: vk::Format,
        size: u32,
    ) -> Result<Self> {
        Self::new_writable_rect(gpu, name, format, size, size)
    }

    /// As [`Image::new_writable`], `width`×`height` (the bandwidth suite's image stores).
    pub fn new_writable_rect(
        gpu: &'g Gpu<'g>,
        name: &str,
        format: vk::Format,
        width: u32,
        height: u32,
    ) -> Result<Self> {
        let mut shape = Shape::square(width);
        shape.extent.height = height;
        Self::new(
            gpu,
            name,
            format,
            shape,
            vk::ImageUsageFlags::STORAGE | vk::ImageUsageFlags::TRANSFER_SRC,
            vk::ImageLayout::GENERAL,
            vk::ImageTiling::OPTIMAL,
        )
    }

    fn new(
        gpu: &'g Gpu<'g>,
        name: &str,
        format: vk::Format,
        shape: Shape,
        usage: vk::ImageUsageFlags,
        layout: vk::ImageLayout,
        tiling: vk::ImageTiling,
    ) -> Result<Self> {
        let d = gpu.device();
        let info = vk::ImageCreateInfo::default()
            .image_type(shape.image_type())
            .format(format)
            .extent(shape.extent)
            .mip_levels(1)
            .array_layers(shape.layers)
            .samples(vk::SampleCountFlags::TYPE_1)
            .tiling(tiling)
            .usage(usage | vk::ImageUsageFlags::TRANSFER_DST)
            .sharing_mode(vk::SharingMode::EXCLUSIVE)
            .initial_layout(vk::ImageLayout::UNDEFINED);
        // SAFETY: valid device and create info.
        let handle = unsafe { d.create_image(&info, None) }
            .with_context(|| format!("vkCreateImage ({name})"))?;
        let mut image = Image {
            gpu,
            handle,
            view: vk::ImageView::null(),
            allocation: None,
            shape,
            layout,
        };
        let requirements = unsafe { d.get_image_memory_requirements(handle) };
        let allocation = gpu
            .allocator
            .lock()
            .map_err(|_| anyhow!("allocator lock poisoned"))?
            .allocate(&AllocationCreateDesc {
                name,
                requirements,
                location: MemoryLocation::GpuOnly,
                linear: tiling == vk::ImageTiling::LINEAR,
                allocation_scheme: AllocationScheme::GpuAllocatorManaged,
            })
            .with_context(|| format!("allocating memory for {name}"))?;
        let (memory, offset) = (unsafe { allocation.memory() }, allocation.offset());
        // Owned by the image from here, so Drop frees it even if binding fails.
        image.allocation = Some(allocation);
        // SAFETY: the allocation satisfies the image's requirements and outlives it.
        unsafe { d.bind_image_memory(handle, memory, offset) }
            .with_context(|| format!("vkBindImageMemory ({name})"))?;
        let view_info = vk::ImageViewCreateInfo::default()
            .image(handle)
            .view_type(shape.view)
            .format(format)
            .subresource_range(color_range(shape.layers));
        image.view = unsafe { d.create_image_view(&view_info, None) }
            .with_context(|| format!("vkCreateImageView ({name})"))?;
        Ok(image)
    }

    /// Records a copy of tightly packed texels (or blocks) from `source` (at offset 0) into
    /// the whole image, every layer, leaving it in its read layout for compute shaders.
    pub fn record_fill(&self, d: &ash::Device, cmd: vk::CommandBuffer, source: &Buffer<'_>) {
        let to_dst = vk::ImageMemoryBarrier::default()
            .src_access_mask(vk::AccessFlags::empty())
            .dst_access_mask(vk::AccessFlags::TRANSFER_WRITE)
            .old_layout(vk::ImageLayout::UNDEFINED)
            .new_layout(vk::ImageLayout::TRANSFER_DST_OPTIMAL)
            .src_queue_family_index(vk::QUEUE_FAMILY_IGNORED)
            .dst_queue_family_index(vk::QUEUE_FAMILY_IGNORED)
            .image(self.handle)
            .subresource_range(color_range(self.shape.layers));
        let region = vk::BufferImageCopy::default()
            .buffer_offset(0)
            .image_subresource(
                vk::ImageSubresourceLayers::default()
                    .aspect_mask(vk::ImageAspectFlags::COLOR)
                    .layer_count(self.shape.layers),
            )
            .image_extent(self.shape.extent);
        let to_read = vk::ImageMemoryBarrier::default()
            .src_access_mask(vk::AccessFlags::TRANSFER_WRITE)
            .dst_access_mask(vk::AccessFlags::SHADER_READ)
            .old_layout(vk::ImageLayout::TRANSFER_DST_OPTIMAL)
            .new_layout(self.layout)
            .src_queue_family_index(vk::QUEUE_FAMILY_IGNORED)
            .dst_queue_family_index(vk::QUEUE_FAMILY_IGNORED)
            .image(self.handle)
            .subresource_range(color_range(self.shape.layers));
        // SAFETY: recording into a command buffer in the recording state; the source buffer
        // holds every texel of every layer and was made TRANSFER_SRC.
        unsafe {
            d.cmd_pipeline_barrier(
                cmd,
                vk::PipelineStageFlags::TOP_OF_PIPE,
                vk::PipelineStageFlags::TRANSFER,
                vk::DependencyFlags::empty(),
                &[],
                &[],
                &[to_dst],
            );
            d.cmd_copy_buffer_to_image(
                cmd,
                source.handle,
                self.handle,
                vk::ImageLayout::TRANSFER_DST_OPTIMAL,
                &[region],
            );
            d.cmd_pipeline_barrier(
                cmd,
                vk::PipelineStageFlags::TRANSFER,
                vk::PipelineStageFlags::COMPUTE_SHADER,
                vk::DependencyFlags::empty(),
                &[],
                &[],
                &[to_read],
            );
        }
    }
}

impl Image<'_> {
    /// Records clearing a writable image (see [`Image::new_writable`]) to zero in `GENERAL`
    /// layout — from `UNDEFINED` when `first` — between full barriers.
    pub fn record_clear(&self, d: &ash::Device, cmd: vk::CommandBuffer, first: bool) {
        let to_general = vk::ImageMemoryBarrier::default()
            .src_access_mask(vk::AccessFlags::MEMORY_WRITE)
            .dst_access_mask(vk::AccessFlags::TRANSFER_WRITE)
            .old_layout(if first {
                vk::ImageLayout::UNDEFINED
            } else {
                vk::ImageLayout::GENERAL
            })
            .new_layout(vk::ImageLayout::GENERAL)
            .src_queue_family_index(vk::QUEUE_FAMILY_IGNORED)
            .dst_queue_family_index(vk::QUEUE_FAMILY_IGNORED)
            .image(self.handle)
            .subresource_range(color_range(1));
        // SAFETY: recording; the image has TRANSFER_DST usage and is not in use by the host.
        unsafe {
            d.cmd_pipeline_barrier(
                cmd,
                vk::PipelineStageFlags::ALL_COMMANDS,
                vk::PipelineStageFlags::TRANSFER,
                vk::DependencyFlags::empty(),
                &[],
                &[],
                &[to_general],
            );
            d.cmd_clear_color_image(
                cmd,
                self.handle,
                vk::ImageLayout::GENERAL,
                &vk::ClearColorValue::default(),
                &[color_range(1)],
            );
        }
        record_full_barrier(d, cmd);
    }

    /// Records copying a writable image (in `GENERAL` layout), tightly packed, to the start of
    /// `buffer`, between full barriers.
    pub fn record_copy_to(&self, d: &ash::Device, cmd: vk::CommandBuffer, buffer: &Buffer<'_>) {
        let region = vk::BufferImageCopy::default()
            .image_subresource(
                vk::ImageSubresourceLayers::default()
                    .aspect_mask(vk::ImageAspectFlags::COLOR)
                    .layer_count(1),
            )
            .image_extent(self.shape.extent);
        let layout = |from, to| {
            vk::ImageMemoryBarrier::default()
                .src_access_mask(vk::AccessFlags::MEMORY_WRITE)
                .dst_access_mask(vk::AccessFlags::MEMORY_READ | vk::AccessFlags::MEMORY_WRITE)
                .old_layout(from)
                .new_layout(to)
                .src_queue_family_index(vk::QUEUE_FAMILY_IGNORED)
                .dst_queue_family_index(vk::QUEUE_FAMILY_IGNORED)
                .image(self.handle)
                .subresource_range(color_range(1))
        };
        let general = vk::ImageLayout::GENERAL;
        let source = vk::ImageLayout::TRANSFER_SRC_OPTIMAL;
        let all = vk::PipelineStageFlags::ALL_COMMANDS;
        // SAFETY: recording; the image has TRANSFER_SRC usage, the buffer TRANSFER_DST and
        // room for every texel; the image returns to GENERAL.
        unsafe {
            d.cmd_pipeline_barrier(
                cmd,
                all,
                all,
                vk::DependencyFlags::empty(),
                &[],
                &[],
                &[layout(general, source)],
            );
            d.cmd_copy_image_to_buffer(cmd, self.handle, source, buffer.handle, &[region]);
            d.cmd_pipeline_barrier(
                cmd,
                all,
                all,
                vk::DependencyFlags::empty(),
                &[],
                &[],
                &[layout(source, general)],
            );
        }
        record_full_barrier(d, cmd);
    }
}

/// Records one global memory barrier: what `src` (stages, accesses) wrote is made visible to
/// `dst` (stages, accesses). Every barrier between buffer commands here is one of these.
pub fn record_memory_barrier(
    d: &ash::Device,
    cmd: vk::CommandBuffer,
    src: (vk::PipelineStageFlags, vk::AccessFlags),
    dst: (vk::PipelineStageFlags, vk::AccessFlags),
) {
    let barrier = vk::MemoryBarrier::default()
        .src_access_mask(src.1)
        .dst_access_mask(dst.1);
    // SAFETY: the command buffer is recording, outside a render pass; the stages are the
    // caller's, valid on the queue it records for.
    unsafe {
        d.cmd_pipeline_barrier(
            cmd,
            src.0,
            dst.0,
            vk::DependencyFlags::empty(),
            &[barrier],
            &[],
            &[],
        );
    }
}

/// Records a barrier that orders every earlier command (shaders, transfers) before every later
/// one and the host's reads: for the steps around a verify dispatch, where speed does not count.
pub fn record_full_barrier(d: &ash::Device, cmd: vk::CommandBuffer) {
    use vk::{AccessFlags as A, PipelineStageFlags as S};
    record_memory_barrier(
        d,
        cmd,
        (S::ALL_COMMANDS, A::MEMORY_WRITE),
        (
            S::ALL_COMMANDS | S::HOST,
            A::MEMORY_READ | A::MEMORY_WRITE | A::HOST_READ,
        ),
    );
}

/// Records, between full barriers, a copy of the first `size` bytes of `from` into `to`
/// (a read-back of memory that shaders wrote).
pub fn record_readback(
    d: &ash::Device,
    cmd: vk::CommandBuffer,
    from: &Buffer<'_>,
    to: &Buffer<'_>,
    size: u64,
) {
    record_full_barrier(d, cmd);
    // SAFETY: both buffers hold `size` bytes, with TRANSFER usages.
    unsafe {
        d.cmd_copy_buffer(
            cmd,
            from.handle,
            to.handle,
            &[vk::BufferCopy::default().size(size)],
        )
    };
    record_full_barrier(d, cmd);
}

/// Records, between full barriers, filling the whole of `buffer` with the 32-bit `value`.
pub fn record_clear(d: &ash::Device, cmd: vk::CommandBuffer, buffer: &Buffer<'_>, value: u32) {
    record_full_barrier(d, cmd);
    // SAFETY: the buffer was created with TRANSFER_DST.
    unsafe { d.cmd_fill_buffer(cmd, buffer.handle, 0, vk::WHOLE_SIZE, value) };
    record_full_barrier(d, cmd);
}

fn color_range(layers: u32) -> vk::ImageSubresourceRange {
    vk::ImageSubresourceRange::default()
        .aspect_mask(vk::ImageAspectFlags::COLOR)
        .level_count(1)
        .layer_count(layers)
}

impl Drop for Image<'_> {
    fn drop(&mut self) {
        // SAFETY: idle GPU (see Buffer::drop).
        unsafe {
            if self.view != vk::ImageView::null() {
                self.gpu.device().destroy_image_view(self.view, None);
            }
            self.gpu.device().destroy_image(self.handle, None);
        }
        free(self.gpu, self.allocation.take());
    }
}

/// A sampler with REPEAT addressing, one mip, no LOD clamp beyond mip 0.
pub struct Sampler<'g> {
    gpu: &'g Gpu<'g>,
    /// The Vulkan handle.
    pub handle: vk::Sampler,
}

impl<'g> Sampler<'g> {
    /// A sampler with `filter` for magnification and minification.
    pub fn new(gpu: &'g Gpu<'g>, filter: vk::Filter) -> Result<Self> {
        Self::new_with(gpu, filter, vk::SamplerAddressMode::REPEAT, false)
    }

    /// A sampler with `filter` and `address` mode; with `unnormalized`, one that takes texel
    /// coordinates (`unnormalizedCoordinates`: its LOD is clamped to 0, and `address` must
    /// be a CLAMP mode).
    pub fn new_with(
        gpu: &'g Gpu<'g>,
        filter: vk::Filter,
        address: vk::SamplerAddressMode,
        unnormalized: bool,
    ) -> Result<Self> {
        let info = vk::SamplerCreateInfo::default()
            .mag_filter(filter)
            .min_filter(filter)
            .mipmap_mode(vk::SamplerMipmapMode::NEAREST)
            .address_mode_u(address)
            .address_mode_v(address)
            .address_mode_w(address)
            .min_lod(0.0)
            .max_lod(if unnormalized {
                0.0
            } else {
                vk::LOD_CLAMP_NONE
            })
            .unnormalized_coordinates(unnormalized);
        // SAFETY: valid device and create info.
        let handle = unsafe { gpu.device().create_sampler(&info, None) }
            .with_context(|| format!("vkCreateSampler ({filter:?})"))?;
        Ok(Sampler { gpu, handle })
    }
}

impl Drop for Sampler<'_> {
    fn drop(&mut self) {
        // SAFETY: idle GPU (see Buffer::drop).
        unsafe { self.gpu.device().destroy_sampler(self.handle, None) };
    }
}

/// Records filling `buffer` with the 32-bit `value`, then a barrier that orders the fill
/// before compute shaders write it.
pub fn record_fill(d: &ash::Device, cmd: vk::CommandBuffer, buffer: &Buffer<'_>, value: u32) {
    use vk::{AccessFlags as A, PipelineStageFlags as S};
    // SAFETY: the buffer was created with TRANSFER_DST; the whole range is filled.
    unsafe { d.cmd_fill_buffer(cmd, buffer.handle, 0, vk::WHOLE_SIZE, value) };
    record_memory_barrier(
        d,
        cmd,
        (S::TRANSFER, A::TRANSFER_WRITE),
        (S::COMPUTE_SHADER, A::SHADER_WRITE | A::SHADER_READ),
    );
}

/// Records a buffer-to-buffer copy of `size` bytes followed by a barrier that makes it
/// visible to compute shaders (and to later transfers).
pub fn record_copy(
    d: &ash::Device,
    cmd: vk::CommandBuffer,
    from: &Buffer<'_>,
    to: &Buffer<'_>,
    size: u64,
) {
    record_copy_to_offset(d, cmd, from, to, 0, size);
}

/// As [`record_copy`], into `to` from byte `offset` on.
pub fn record_copy_to_offset(
    d: &ash::Device,
    cmd: vk::CommandBuffer,
    from: &Buffer<'_>,
    to: &Buffer<'_>,
    offset: u64,
    size: u64,
) {
    debug_assert!(size <= from.size && offset + size <= to.size);
    let region = vk::BufferCopy::default().dst_offset(offset).size(size);
    use vk::{AccessFlags as A, PipelineStageFlags as S};
    // SAFETY: `from` holds `size` bytes and `to` `offset + size`, with TRANSFER usages.
    unsafe { d.cmd_copy_buffer(cmd, from.handle, to.handle, &[region]) };
    record_memory_barrier(
        d,
        cmd,
        (S::TRANSFER, A::TRANSFER_WRITE),
        (
            S::COMPUTE_SHADER | S::TRANSFER,
            A::SHADER_READ | A::TRANSFER_READ | A::UNIFORM_READ,
        ),
    );
}

/// A barrier after transfer writes, before later transfers and the host touch the memory
/// (valid on a transfer-only queue, unlike the barriers above that name compute stages).
fn record_transfer_barrier(d: &ash::Device, cmd: vk::CommandBuffer) {
    use vk::{AccessFlags as A, PipelineStageFlags as S};
    record_memory_barrier(
        d,
        cmd,
        (S::TRANSFER, A::TRANSFER_WRITE),
        (
            S::TRANSFER | S::HOST,
            A::TRANSFER_READ | A::TRANSFER_WRITE | A::HOST_READ,
        ),
    );
}

/// Records a copy of `size` bytes from the start of `from` to the start of `to`, then a
/// transfer barrier: valid on any queue, for timing copies back to back.
pub fn record_transfer_copy(
    d: &ash::Device,
    cmd: vk::CommandBuffer,
    from: &Buffer<'_>,
    to: &Buffer<'_>,
    size: u64,
) {
    debug_assert!(size <= from.size && size <= to.size);
    let region = vk::BufferCopy::default().size(size);
    // SAFETY: both buffers hold `size` bytes and have TRANSFER_SRC / TRANSFER_DST usage.
    unsafe { d.cmd_copy_buffer(cmd, from.handle, to.handle, &[region]) };
    record_transfer_barrier(d, cmd);
}

/// Records filling the first `size` bytes (a multiple of 4) of `buffer` with `value`, then a
/// transfer barrier: valid on any queue.
pub fn record_transfer_fill(
    d: &ash::Device,
    cmd: vk::CommandBuffer,
    buffer: &Buffer<'_>,
    size: u64,
    value: u32,
) {
    debug_assert!(size <= buffer.size && size.is_multiple_of(4));
    // SAFETY: the buffer has TRANSFER_DST usage and holds `size` bytes.
    unsafe { d.cmd_fill_buffer(cmd, buffer.handle, 0, size, value) };
    record_transfer_barrier(d, cmd);
}

/// Records a write of `data` (at most 65536 bytes, a multiple of 4) into `buffer` at `offset`
/// (a multiple of 4; the buffer needs TRANSFER_DST), visible to the shaders after it.
pub fn record_update(
    d: &ash::Device,
    cmd: vk::CommandBuffer,
    buffer: &Buffer<'_>,
    offset: u64,
    data: &[u8],
) {
    debug_assert!(data.len() <= 65536 && data.len().is_multiple_of(4) && offset.is_multiple_of(4));
    debug_assert!(offset + data.len() as u64 <= buffer.size);
    use vk::{AccessFlags as A, PipelineStageFlags as S};
    // SAFETY: the buffer is alive and the range lies inside it (checked above in debug).
    unsafe { d.cmd_update_buffer(cmd, buffer.handle, offset, data) };
    record_memory_barrier(
        d,
        cmd,
        (S::TRANSFER, A::TRANSFER_WRITE),
        (S::COMPUTE_SHADER, A::SHADER_READ | A::SHADER_WRITE),
    );
}
