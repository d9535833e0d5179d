//! GPU timestamp queries: the only place where ticks become time.

use crate::{Gpu, Queue};
use anyhow::{Context as _, Result};
use ash::vk;

/// A pool of timestamp queries, used in (start, end) pairs around dispatches.
pub struct Timer<'g> {
    gpu: &'g Gpu<'g>,
    pool: vk::QueryPool,
    pairs: u32,
    /// Timestamp bits of the queue the queries are written on.
    valid_bits: u32,
}

impl<'g> Timer<'g> {
    /// A pool for `pairs` timed intervals on the compute queue.
    pub fn new(gpu: &'g Gpu<'g>, pairs: u32) -> Result<Self> {
        Self::on(gpu, Queue::Compute, pairs)
    }

    /// A pool for `pairs` timed intervals written on `queue` (a transfer queue cannot reset
    /// queries: reset them with [`Timer::record_reset`] in a compute submission first).
    pub fn on(gpu: &'g Gpu<'g>, queue: Queue, pairs: u32) -> Result<Self> {
        let info = vk::QueryPoolCreateInfo::default()
            .query_type(vk::QueryType::TIMESTAMP)
            .query_count(2 * pairs);
        // SAFETY: valid device and create info.
        let pool =
            unsafe { gpu.device().create_query_pool(&info, None) }.context("vkCreateQueryPool")?;
        Ok(Timer {
            gpu,
            pool,
            pairs,
            valid_bits: gpu.timestamp_bits(queue),
        })
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

    /// Every interval's duration in ms, and the span from the first interval's start to the
    /// last one's end (what runs between the intervals included).
    pub fn read(&self) -> Result<(Vec<f64>, f64)> {
        let intervals = self.read_intervals()?;
        let times = intervals.iter().map(|(s, e)| e - s).collect();
        let span = match (intervals.first(), intervals.last()) {
            (Some(first), Some(last)) => last.1 - first.0,
            _ => 0.0,
        };
        Ok((times, span))
    }

    /// Every interval as (start, end) in ms after the first interval's start (waits for them).
    pub fn read_intervals(&self) -> Result<Vec<(f64, f64)>> {
        let mut ticks = vec![0u64; 2 * self.pairs as usize];
        // SAFETY: the pool holds 2·pairs queries, all written by a submission that completed
        // (WAIT blocks until it has); 64-bit results fit the slice exactly.
        unsafe {
            self.gpu.device().get_query_pool_results(
                self.pool,
                0,
                &mut ticks,
                vk::QueryResultFlags::TYPE_64 | vk::QueryResultFlags::WAIT,
            )
        }
        .context("vkGetQueryPoolResults")?;
        let origin = ticks.first().copied().unwrap_or(0);
        let ms = |t: u64| ticks_to_ms(origin, t, self.valid_bits, self.gpu.info.timestamp_period);
        Ok(ticks
            .chunks_exact(2)
            .map(|p| (ms(p[0]), ms(p[1])))
            .collect())
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
