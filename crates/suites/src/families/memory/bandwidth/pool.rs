//! The bandwidth suite's data: the pools of words (device-local buffers and their texel views) and the images, each made when a test of theirs first asks.

use super::super::bands::{words, Bands};
use super::sets::{hash32, size_bytes, word, Texels};
use super::STAGING_BYTES;
use anyhow::{Context as _, Result};
use ash::vk;
use perftest_gpu::resources::{
    record_copy_to_offset, record_update, Buffer, BufferView, Image, Memory, Shape, Usage,
};
use perftest_gpu::{Gpu, Instance};

/// One pool of data: a device-local buffer filled with [`word`]s, and its texel views per size.
pub(super) struct Pool<'g> {
    pub(super) data: Buffer<'g>,
    /// Per size of the pool and view format (RGBA32F uniform, R32F uniform, RGBA32F
    /// storage): the view over the size's first bytes, `None` past maxTexelBufferElements.
    pub(super) views: Vec<[Option<BufferView<'g>>; 3]>,
}

/// The view formats a pool holds, in [`Pool::views`] order.
const VIEW_FORMATS: [(vk::Format, vk::FormatFeatureFlags); 3] = [
    (
        vk::Format::R32G32B32A32_SFLOAT,
        vk::FormatFeatureFlags::UNIFORM_TEXEL_BUFFER,
    ),
    (
        vk::Format::R32_SFLOAT,
        vk::FormatFeatureFlags::UNIFORM_TEXEL_BUFFER,
    ),
    (
        vk::Format::R32G32B32A32_SFLOAT,
        vk::FormatFeatureFlags::STORAGE_TEXEL_BUFFER,
    ),
];

impl<'g> Pool<'g> {
    /// A pool of `bytes` holding the sizes `sizes`, its device address written into `check`
    /// at `address_at`.
    pub(super) fn new(
        gpu: &'g Gpu<'g>,
        instance: &Instance,
        check: &Buffer<'g>,
        address_at: u64,
        bytes: u64,
        sizes: std::ops::Range<usize>,
    ) -> Result<Self> {
        let mut usage = vk::BufferUsageFlags::STORAGE_BUFFER
            | vk::BufferUsageFlags::UNIFORM_BUFFER
            | vk::BufferUsageFlags::UNIFORM_TEXEL_BUFFER
            | vk::BufferUsageFlags::STORAGE_TEXEL_BUFFER
            | vk::BufferUsageFlags::TRANSFER_DST;
        if gpu.info.features.buffer_device_address {
            usage |= vk::BufferUsageFlags::SHADER_DEVICE_ADDRESS;
        }
        let data = Buffer::new(gpu, "bandwidth data", bytes, usage, Memory::DeviceLocal)?;
        upload_words(gpu, &data).context("uploading the bandwidth data")?;
        let limits = &gpu.info.limits;
        let views = sizes
            .map(|size| {
                let bytes = size_bytes(size);
                let mut out: [Option<BufferView<'g>>; 3] = [None, None, None];
                for (slot, (format, feature)) in VIEW_FORMATS.iter().enumerate() {
                    let texel = if *format == vk::Format::R32_SFLOAT {
                        4
                    } else {
                        16
                    };
                    let supported = instance
                        .format_properties(gpu.info, *format)
                        .buffer_features
                        .contains(*feature);
                    // (A size beyond the pool is over the heap's share: unsupported anyway.)
                    let fits = bytes <= data.size;
                    if fits && supported && bytes / texel <= limits.max_texel_buffer_elements as u64
                    {
                        out[slot] = Some(BufferView::new_at(gpu, &data, *format, 0, bytes)?);
                    }
                }
                Ok(out)
            })
            .collect::<Result<Vec<_>>>()?;
        if gpu.info.features.buffer_device_address {
            // The kernel finds the pool's address in the check buffer's header.
            let address = data.device_address().to_le_bytes();
            gpu.submit(|d, cmd| record_update(d, cmd, check, address_at, &address))
                .context("writing the data's device address")?;
        }
        Ok(Pool { data, views })
    }
}

/// Fills the device-local `data` (with TRANSFER_DST usage) with the data's [`word`]s, through
/// a staging buffer of at most [`STAGING_BYTES`].
pub(super) fn upload_words<'g>(gpu: &'g Gpu<'g>, data: &Buffer<'g>) -> Result<()> {
    let bytes = data.size;
    Bands::new(gpu, "bandwidth staging", bytes.min(STAGING_BYTES))?.upload(
        bytes as usize,
        4,
        |at, part| words(at, part, word),
        |d, cmd, staging, at, len| record_copy_to_offset(d, cmd, staging, data, at, len),
    )
}

/// An image of `texels`, `width` × `height` (the region of its pool's sets: see
/// [`image_extent`](super::image_extent)), filled with the data's texels (see
/// [`Texels::sum`]) in bands of rows.
pub(super) fn filled_image<'g>(
    gpu: &'g Gpu<'g>,
    texels: Texels,
    width: u32,
    height: u32,
) -> Result<Image<'g>> {
    let name = format!("bandwidth {texels:?} image");
    let shape = Shape::rect(width, height);
    let image = Image::new(gpu, &name, texels.format(), shape, Usage::SampledStorage)?;
    let row_bytes = width as u64 * texels.bytes();
    let band = (STAGING_BYTES / row_bytes).clamp(1, height as u64);
    // Texel t's bytes, counted row by row over the whole image: four words, or the four
    // bytes of a hash.
    let fill = |at: usize, part: &mut [u8]| match texels {
        Texels::Rgba32f => words(at, part, word),
        Texels::Rgba8 => words(at, part, hash32),
    };
    Bands::new(gpu, "bandwidth image staging", band * row_bytes)?
        .upload(
            height as usize * row_bytes as usize,
            row_bytes as usize,
            fill,
            |d, cmd, staging, at, len| {
                let (row, rows) = ((at / row_bytes) as u32, (len / row_bytes) as u32);
                image.record_fill_rows(d, cmd, staging, row, rows)
            },
        )
        .with_context(|| format!("filling the {name}"))?;
    Ok(image)
}
