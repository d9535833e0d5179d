//! GPU timestamp queries: the only place where ticks become time.

use crate::gpu::Gpu;
use anyhow::{Context as _, Result};
use ash::vk;

/// A pool of timestamp queries, used in (start, end) pairs around dispatches.
pub struct Timer<'g> {
    gpu: &'g Gpu<'g>,
    pool: vk::QueryPool,
    pairs: u32,
}

impl<'g> Timer<'g> {
    /// A pool for `pairs` timed intervals.
    pub fn new(gpu: &'g Gpu<'g>, pairs: u32) -> Result<Self> {
        let info = vk::QueryPoolCreateInfo::default()
            .query_type(vk::QueryType::TIMESTAMP)
            .query_count(2 * pairs);
        // SAFETY: valid device and create info.
        let pool =
            unsafe { gpu.device().create_query_pool(&info, None) }.context("vkCreateQueryPool")?;
        Ok(Timer { gpu, pool, pairs })
    }

    /// Records the reset of every query; must precede the first `record_*` in a submission.
    pub fn record_reset(&self, d: &ash::Device, cmd: vk::CommandBuffer) {
        // SAFETY: the command buffer is recording, outside a render pass.
        unsafe { d.cmd_reset_query_pool(cmd, self.pool, 0, 2 * self.pairs) };
    }

    /// Records the timestamp that opens interval `pair`: written once all earlier work is done.
    pub fn record_start(&self, d: &ash::Device, cmd: vk::CommandBuffer, pair: u32) {
        // SAFETY: as above; the query index is in range.
        unsafe {
            d.cmd_write_timestamp(
                cmd,
                vk::PipelineStageFlags::BOTTOM_OF_PIPE,
                self.pool,
                2 * pair,
            )
        };
    }

    /// Records the timestamp that closes interval `pair`.
    pub fn record_end(&self, d: &ash::Device, cmd: vk::CommandBuffer, pair: u32) {
        // SAFETY: as above.
        unsafe {
            d.cmd_write_timestamp(
                cmd,
                vk::PipelineStageFlags::BOTTOM_OF_PIPE,
                self.pool,
                2 * pair + 1,
            )
        };
    }

    /// Reads every interval, in milliseconds, after the submission completed.
    pub fn read_ms(&self) -> Result<Vec<f64>> {
        Ok(self.read()?.0)
    }

    /// The duration of every pair, and the span from the first pair's start to the last
    /// pair's end (which also counts any time the GPU spent between the pairs, e.g. on
    /// another process's work), in milliseconds.
    pub fn read(&self) -> Result<(Vec<f64>, f64)> {
        let mut ticks = vec![0u64; 2 * self.pairs as usize];
        // SAFETY: the pool has 2 × pairs queries, all written by the submission that was
        // waited for; WAIT makes the call return only when every result is available.
        unsafe {
            self.gpu.device().get_query_pool_results(
                self.pool,
                0,
                &mut ticks,
                vk::QueryResultFlags::TYPE_64 | vk::QueryResultFlags::WAIT,
            )
        }
        .context("vkGetQueryPoolResults")?;
        let ms = |start: u64, end: u64| {
            ticks_to_ms(
                start,
                end,
                self.gpu.timestamp_valid_bits,
                self.gpu.info.timestamp_period,
            )
        };
        let times = ticks.chunks_exact(2).map(|p| ms(p[0], p[1])).collect();
        let span = match (ticks.first(), ticks.last()) {
            (Some(&first), Some(&last)) => ms(first, last),
            _ => 0.0,
        };
        Ok((times, span))
    }
}

impl Drop for Timer<'_> {
    fn drop(&mut self) {
        // SAFETY: idle GPU.
        unsafe { self.gpu.device().destroy_query_pool(self.pool, None) };
    }
}

/// Milliseconds between two raw timestamps, with only `valid_bits` meaningful (so the
/// difference is taken modulo 2^valid_bits, which also handles a counter wrap).
pub fn ticks_to_ms(start: u64, end: u64, valid_bits: u32, period_ns: f32) -> f64 {
    let mask = if valid_bits >= 64 {
        u64::MAX
    } else {
        (1u64 << valid_bits) - 1
    };
    let delta = end.wrapping_sub(start) & mask;
    delta as f64 * period_ns as f64 / 1e6
}

#[cfg(test)]
mod tests {
    use super::ticks_to_ms;

    #[test]
    fn masks_and_scales() {
        assert_eq!(ticks_to_ms(1000, 3000, 64, 1.0), 0.002);
        // A 36-bit counter that wrapped between the two reads.
        let wrapped = ticks_to_ms((1 << 36) - 10, 10, 36, 1.0);
        assert!((wrapped - 20e-6).abs() < 1e-12);
        // Garbage above the valid bits is ignored.
        assert_eq!(
            ticks_to_ms(0xFF00_0000_0000_0000, 0xAB00_0000_0000_1000, 32, 2.0),
            4096.0 * 2.0 / 1e6
        );
    }
}
