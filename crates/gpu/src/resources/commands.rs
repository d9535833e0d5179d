//! The commands that fill, copy and clear buffers, and the barriers around them.

use super::Buffer;
use ash::vk;

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

/// The barrier that orders every earlier command (shaders, transfers) before every later
/// one and the host's reads (the GPU layer ends every submission with it): for the steps
/// around a verify dispatch, where speed does not count.
pub use crate::record_full_barrier;

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

/// Records filling `buffer` with the 32-bit `value`, then a barrier that orders the fill
/// before compute shaders write it.
pub fn record_fill(d: &ash::Device, cmd: vk::CommandBuffer, buffer: &Buffer<'_>, value: u32) {
    record_fill_start(d, cmd, buffer, buffer.size, value);
}

/// Records filling the last 16 bytes of `buffer` with the 32-bit `value`, and a barrier that
/// makes the fill visible to compute shaders (the runner's output buffer keeps a kernel's
/// subgroup width there).
pub fn record_fill_last_vec4(
    d: &ash::Device,
    cmd: vk::CommandBuffer,
    buffer: &Buffer<'_>,
    value: u32,
) {
    use vk::{AccessFlags as A, PipelineStageFlags as S};
    if buffer.size < 16 {
        return;
    }
    let offset = (buffer.size - 16) & !3;
    // SAFETY: the buffer was created with TRANSFER_DST and is at least 16 bytes; the range
    // (16 bytes from a multiple of 4) lies within it.
    unsafe { d.cmd_fill_buffer(cmd, buffer.handle, offset, 16, value) };
    record_memory_barrier(
        d,
        cmd,
        (S::TRANSFER, A::TRANSFER_WRITE),
        (S::COMPUTE_SHADER, A::SHADER_WRITE | A::SHADER_READ),
    );
}

/// Records filling the first `bytes` of `buffer` (rounded down to a multiple of 4; at most
/// the whole buffer) with the 32-bit `value`, and a barrier that makes the fill visible to
/// compute shaders.
pub fn record_fill_start(
    d: &ash::Device,
    cmd: vk::CommandBuffer,
    buffer: &Buffer<'_>,
    bytes: u64,
    value: u32,
) {
    use vk::{AccessFlags as A, PipelineStageFlags as S};
    let bytes = bytes.min(buffer.size) & !3;
    // SAFETY: the buffer was created with TRANSFER_DST; the range lies within it and is a
    // multiple of 4 bytes from offset 0.
    unsafe { d.cmd_fill_buffer(cmd, buffer.handle, 0, bytes, value) };
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
