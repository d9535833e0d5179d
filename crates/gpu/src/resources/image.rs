//! Images (sampled, storage, any shape and format) and their views, filled and read back.

use super::buffer::{allocate, free};
use super::{record_full_barrier, Buffer};
use crate::Gpu;
use anyhow::{Context as _, Result};
use ash::vk;
use gpu_allocator::vulkan::Allocation;
use gpu_allocator::MemoryLocation;

/// A single-mip image of any [`Shape`], its memory and a view of it.
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

/// What shaders do with an image made in optimal tiling: its usages (each also filled or
/// cleared by a transfer) and the layout shaders see it in.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Usage {
    /// Sampled, filled by a copy, read in `SHADER_READ_ONLY_OPTIMAL`.
    Sampled,
    /// Loaded as a storage image (`imageLoad`), filled by a copy, in `GENERAL`.
    Storage,
    /// Both sampled and loaded as a storage image, filled by a copy, in `GENERAL` (the
    /// latency suite's chain, the bandwidth suite's working sets).
    SampledStorage,
    /// Written by shaders (`imageStore`), cleared and read back by copies, in `GENERAL` (see
    /// [`Image::record_clear`], [`Image::record_copy_to`]).
    Writable,
}

impl Usage {
    /// The image's usage flags besides `TRANSFER_DST` (every image has it), and its layout.
    fn flags(self) -> (vk::ImageUsageFlags, vk::ImageLayout) {
        use vk::ImageUsageFlags as U;
        match self {
            Usage::Sampled => (U::SAMPLED, vk::ImageLayout::SHADER_READ_ONLY_OPTIMAL),
            Usage::Storage => (U::STORAGE, vk::ImageLayout::GENERAL),
            Usage::SampledStorage => (U::SAMPLED | U::STORAGE, vk::ImageLayout::GENERAL),
            Usage::Writable => (U::STORAGE | U::TRANSFER_SRC, vk::ImageLayout::GENERAL),
        }
    }

    /// The format features (optimal tiling) an image of this usage needs.
    pub fn format_features(self) -> vk::FormatFeatureFlags {
        use vk::FormatFeatureFlags as F;
        match self {
            Usage::Sampled => F::SAMPLED_IMAGE | F::TRANSFER_DST,
            Usage::Storage => F::STORAGE_IMAGE | F::TRANSFER_DST,
            Usage::SampledStorage => F::SAMPLED_IMAGE | F::STORAGE_IMAGE | F::TRANSFER_DST,
            Usage::Writable => F::STORAGE_IMAGE | F::TRANSFER_SRC | F::TRANSFER_DST,
        }
    }
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

    /// A `width`×`height` 2-D image.
    pub fn rect(width: u32, height: u32) -> Shape {
        let mut shape = Shape::square(width);
        shape.extent.height = height;
        shape
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
    /// An image of `format`, `shape` and `usage` in optimal tiling, with a view of every
    /// layer (compressed formats too): filled by a copy ([`Image::record_fill`],
    /// [`Image::record_fill_rows`]) or cleared ([`Image::record_clear`]), then in the layout
    /// its usage says.
    pub fn new(
        gpu: &'g Gpu<'g>,
        name: &str,
        format: vk::Format,
        shape: Shape,
        usage: Usage,
    ) -> Result<Self> {
        let (flags, layout) = usage.flags();
        Self::create(
            gpu,
            name,
            format,
            shape,
            flags,
            layout,
            vk::ImageTiling::OPTIMAL,
        )
    }

    /// A `size`×`size` sampled image with the given tiling, read in `layout` (the texture
    /// suite's linear tiling and `GENERAL` layout against the usual).
    pub fn new_sampled_as(
        gpu: &'g Gpu<'g>,
        name: &str,
        format: vk::Format,
        size: u32,
        tiling: vk::ImageTiling,
        layout: vk::ImageLayout,
    ) -> Result<Self> {
        let usage = vk::ImageUsageFlags::SAMPLED;
        Self::create(
            gpu,
            name,
            format,
            Shape::square(size),
            usage,
            layout,
            tiling,
        )
    }

    /// Records a copy of `rows` rows of tightly packed texels from `source` (at offset 0) into
    /// the image from row `first_row` on (every layer, every slice; bands of rows only for a
    /// 2-D image of one layer). The first band (`first_row` 0) takes the image from
    /// `UNDEFINED` to `TRANSFER_DST_OPTIMAL`; the band that ends at the last row leaves it in
    /// its read layout for compute shaders.
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
        debug_assert!(self.shape.layers == 1 || (first_row == 0 && rows == extent.height));
        let (dst, write) = (
            vk::ImageLayout::TRANSFER_DST_OPTIMAL,
            vk::AccessFlags::TRANSFER_WRITE,
        );
        let stage = vk::PipelineStageFlags::TRANSFER;
        if first_row == 0 {
            let to_dst = self.transition(
                vk::ImageLayout::UNDEFINED,
                dst,
                vk::AccessFlags::empty(),
                write,
            );
            record_barrier(d, cmd, vk::PipelineStageFlags::TOP_OF_PIPE, stage, to_dst);
        }
        let region = vk::BufferImageCopy::default()
            .image_subresource(
                vk::ImageSubresourceLayers::default()
                    .aspect_mask(vk::ImageAspectFlags::COLOR)
                    .layer_count(self.shape.layers),
            )
            .image_offset(vk::Offset3D {
                x: 0,
                y: first_row as i32,
                z: 0,
            })
            .image_extent(vk::Extent3D {
                height: rows,
                ..extent
            });
        // SAFETY: recording into a command buffer in the recording state; the source buffer
        // holds the band's texels of every layer and was made TRANSFER_SRC; the bands are
        // recorded in order, so the image is in TRANSFER_DST_OPTIMAL after the first.
        unsafe { d.cmd_copy_buffer_to_image(cmd, source.handle, self.handle, dst, &[region]) };
        if first_row + rows == extent.height {
            let to_read = self.transition(dst, self.layout, write, vk::AccessFlags::SHADER_READ);
            record_barrier(
                d,
                cmd,
                stage,
                vk::PipelineStageFlags::COMPUTE_SHADER,
                to_read,
            );
        }
    }

    /// Records a copy of tightly packed texels (or blocks) from `source` (at offset 0) into
    /// the whole image, every layer, leaving it in its read layout for compute shaders.
    pub fn record_fill(&self, d: &ash::Device, cmd: vk::CommandBuffer, source: &Buffer<'_>) {
        self.record_fill_rows(d, cmd, source, 0, self.shape.extent.height);
    }

    /// Records clearing a writable image ([`Usage::Writable`]) to zero in `GENERAL`
    /// layout — from `UNDEFINED` when `first` — between full barriers.
    pub fn record_clear(&self, d: &ash::Device, cmd: vk::CommandBuffer, first: bool) {
        let general = vk::ImageLayout::GENERAL;
        let from = if first {
            vk::ImageLayout::UNDEFINED
        } else {
            general
        };
        let to_general = self.transition(
            from,
            general,
            vk::AccessFlags::MEMORY_WRITE,
            vk::AccessFlags::TRANSFER_WRITE,
        );
        let (all, transfer) = (
            vk::PipelineStageFlags::ALL_COMMANDS,
            vk::PipelineStageFlags::TRANSFER,
        );
        record_barrier(d, cmd, all, transfer, to_general);
        let clear = vk::ClearColorValue::default();
        let range = color_range(self.shape.layers);
        // SAFETY: recording; the image has TRANSFER_DST usage, is in GENERAL layout after the
        // barrier above and is not in use by the host.
        unsafe { d.cmd_clear_color_image(cmd, self.handle, general, &clear, &[range]) };
        record_full_barrier(d, cmd);
    }

    /// Records copying a writable image (in `GENERAL` layout), tightly packed, to the start of
    /// `buffer`, between full barriers.
    pub fn record_copy_to(&self, d: &ash::Device, cmd: vk::CommandBuffer, buffer: &Buffer<'_>) {
        let region = vk::BufferImageCopy::default()
            .image_subresource(
                vk::ImageSubresourceLayers::default()
                    .aspect_mask(vk::ImageAspectFlags::COLOR)
                    .layer_count(self.shape.layers),
            )
            .image_extent(self.shape.extent);
        let (general, source) = (
            vk::ImageLayout::GENERAL,
            vk::ImageLayout::TRANSFER_SRC_OPTIMAL,
        );
        let (written, any) = (
            vk::AccessFlags::MEMORY_WRITE,
            vk::AccessFlags::MEMORY_READ | vk::AccessFlags::MEMORY_WRITE,
        );
        let all = vk::PipelineStageFlags::ALL_COMMANDS;
        record_barrier(
            d,
            cmd,
            all,
            all,
            self.transition(general, source, written, any),
        );
        // SAFETY: recording; the image has TRANSFER_SRC usage and is in TRANSFER_SRC_OPTIMAL
        // after the barrier above; the buffer has TRANSFER_DST usage and room for every texel.
        unsafe { d.cmd_copy_image_to_buffer(cmd, self.handle, source, buffer.handle, &[region]) };
        record_barrier(
            d,
            cmd,
            all,
            all,
            self.transition(source, general, written, any),
        );
        record_full_barrier(d, cmd);
    }

    /// A transition of every layer of the image from layout `from` to `to`, ordering the
    /// accesses `src` before `dst`.
    fn transition(
        &self,
        from: vk::ImageLayout,
        to: vk::ImageLayout,
        src: vk::AccessFlags,
        dst: vk::AccessFlags,
    ) -> vk::ImageMemoryBarrier<'static> {
        vk::ImageMemoryBarrier::default()
            .src_access_mask(src)
            .dst_access_mask(dst)
            .old_layout(from)
            .new_layout(to)
            .src_queue_family_index(vk::QUEUE_FAMILY_IGNORED)
            .dst_queue_family_index(vk::QUEUE_FAMILY_IGNORED)
            .image(self.handle)
            .subresource_range(color_range(self.shape.layers))
    }

    /// The image, its memory and its view.
    fn create(
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
        // SAFETY: `handle` is the image just created on `d`.
        let requirements = unsafe { d.get_image_memory_requirements(handle) };
        let linear = tiling == vk::ImageTiling::LINEAR;
        let allocation = allocate(gpu, name, requirements, MemoryLocation::GpuOnly, linear)
            .with_context(|| format!("allocating memory for {name}"))?;
        // SAFETY: the memory handle is only bound to this resource, which the allocation
        // outlives (it is freed in Drop after the resource is destroyed).
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
        // SAFETY: the image is live and bound to its memory; the view info refers to locals;
        // the view is destroyed in Drop before the image.
        image.view = unsafe { d.create_image_view(&view_info, None) }
            .with_context(|| format!("vkCreateImageView ({name})"))?;
        Ok(image)
    }
}

/// Records `barrier` between stages `src` and `dst`.
fn record_barrier(
    d: &ash::Device,
    cmd: vk::CommandBuffer,
    src: vk::PipelineStageFlags,
    dst: vk::PipelineStageFlags,
    barrier: vk::ImageMemoryBarrier<'_>,
) {
    // SAFETY: recording into a command buffer in the recording state; the barrier names a
    // live image of the same device.
    unsafe {
        d.cmd_pipeline_barrier(
            cmd,
            src,
            dst,
            vk::DependencyFlags::empty(),
            &[],
            &[],
            &[barrier],
        )
    };
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
