//! Timing recorded commands between timestamps on any queue.

use anyhow::Result;
use ash::vk;
use perftest_gpu::timer::Timer;
use perftest_gpu::{Gpu, Queue};

/// Runs `work` `warmup` times untimed, then `samples` times each between two timestamps, on
/// `queue`, at most `per_submit` runs per submission; returns the timed durations in ms.
pub(super) fn time_commands<'g>(
    gpu: &'g Gpu<'g>,
    queue: Queue,
    warmup: u32,
    samples: u32,
    per_submit: u32,
    work: impl Fn(&ash::Device, vk::CommandBuffer),
) -> Result<Vec<f64>> {
    let timer = Timer::on(gpu, queue, samples.max(1))?;
    // A transfer queue cannot reset queries (vkCmdResetQueryPool needs compute or graphics).
    gpu.submit(|d, cmd| timer.record_reset(d, cmd))?;
    let (mut warm, mut next) = (warmup, 0);
    while warm > 0 || next < samples {
        let w = warm.min(per_submit);
        let n = (samples - next).min(per_submit.saturating_sub(w).max(1));
        gpu.submit_to(queue, |d, cmd| {
            (0..w).for_each(|_| work(d, cmd));
            for i in next..next + n {
                timer.record_start(d, cmd, i);
                work(d, cmd);
                timer.record_end(d, cmd, i);
            }
        })?;
        warm -= w;
        next += n;
    }
    Ok(if samples == 0 {
        Vec::new()
    } else {
        timer.read_ms()?
    })
}
