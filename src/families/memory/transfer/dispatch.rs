//! What a dispatch costs: empty dispatches recorded back to back, with barriers, one submit each, or submitted and waited for one at a time.

use super::{Resources, Transfer, Variant};
use crate::gpu::Queue;
use crate::pipeline::{record_compute_barrier, record_dependency_barrier, Pipeline, PushConstants};
use crate::timer::Timer;
use anyhow::{Context as _, Result};
use ash::vk;

/// Dispatches (or submissions) per sample of the dispatch-cost rows.
pub(super) const DISPATCHES: u32 = 1024;
/// Submissions per sample of the one-submit-per-dispatch row (each is a host call).
const SUBMITS: u32 = 256;

/// How the dispatch-cost rows submit their empty dispatches.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Submission {
    /// All in one command buffer, back to back, nothing between them.
    BackToBack,
    /// All in one command buffer, a compute-to-compute barrier after each.
    Barriers,
    /// One command buffer and one `vkQueueSubmit` each, submitted without waiting.
    SubmitEach,
}

impl Submission {
    pub(super) const ALL: [Submission; 3] = [
        Submission::BackToBack,
        Submission::Barriers,
        Submission::SubmitEach,
    ];

    pub(super) fn name(self) -> String {
        match self {
            Submission::BackToBack => format!("{DISPATCHES} empty dispatches, one command buffer"),
            Submission::Barriers => {
                format!("{DISPATCHES} empty dispatches, one command buffer, a barrier after each")
            }
            Submission::SubmitEach => format!("{SUBMITS} empty dispatches, one submit each"),
        }
    }

    pub(super) fn count(self) -> u32 {
        match self {
            Submission::SubmitEach => SUBMITS,
            _ => DISPATCHES,
        }
    }
}

impl Transfer {
    /// Records the empty dispatches of one sample (marking words from `first` on where
    /// `marks` is a device address; 0 while timed). The barrier after each is the narrowest a
    /// dependent chain needs (`pipeline::record_dependency_barrier`): on the H100 it, a
    /// shader-write → shader-read one, an execution-only one, and one chain bound and pushed
    /// once all cost the same 1.78–1.84 µs a dispatch (results/h100/dispatch-barrier/): the
    /// GPU draining and relaunching, not the barrier's flushes.
    pub(super) fn record_dispatches(
        pipeline: &Pipeline<'_>,
        d: &ash::Device,
        cmd: vk::CommandBuffer,
        s: Submission,
        marks: u64,
        synchronization2: bool,
    ) {
        for i in 0..s.count() {
            let constants = PushConstants {
                read_start: i,
                address: marks,
                ..Default::default()
            };
            pipeline.record_dispatch(d, cmd, &constants, 1);
            if s == Submission::Barriers {
                record_dependency_barrier(d, cmd, synchronization2);
            }
        }
    }

    /// One sample of `s` (or of the round trip) with `marks` as the dispatches' device
    /// address (0: nothing written); the sample's duration per dispatch in ms where `timer`.
    pub(super) fn run_dispatches(
        r: &Resources<'_>,
        v: Variant,
        marks: u64,
        timer: Option<(&Timer<'_>, u32)>,
    ) -> Result<()> {
        let pipeline = r.dispatch.as_ref().context("no dispatch pipeline")?;
        let gpu = r.gpu;
        let stamp = |d: &ash::Device, cmd, start: bool| {
            if let Some((t, i)) = timer {
                if start {
                    t.record_start(d, cmd, i)
                } else {
                    t.record_end(d, cmd, i)
                }
            }
        };
        match v {
            Variant::Dispatches(Submission::SubmitEach) => {
                let last = SUBMITS - 1;
                gpu.submit_each(Queue::Compute, SUBMITS, |i, d, cmd| {
                    if i == 0 {
                        stamp(d, cmd, true);
                    }
                    let constants = PushConstants {
                        read_start: i,
                        address: marks,
                        ..Default::default()
                    };
                    pipeline.record_dispatch(d, cmd, &constants, 1);
                    if i == last {
                        stamp(d, cmd, false);
                        record_compute_barrier(d, cmd);
                    }
                })
            }
            Variant::Dispatches(s) => gpu.submit(|d, cmd| {
                stamp(d, cmd, true);
                Self::record_dispatches(
                    pipeline,
                    d,
                    cmd,
                    s,
                    marks,
                    gpu.info.features.synchronization2,
                );
                stamp(d, cmd, false);
                // The marks, visible to the host (after the timed interval).
                record_compute_barrier(d, cmd);
            }),
            Variant::RoundTrip => {
                // Submission k dispatches and stamps; the sample is the time between the
                // stamps of two submissions, the host's wait and resubmission between them.
                for k in 0..2u32 {
                    gpu.submit(|d, cmd| {
                        let constants = PushConstants {
                            read_start: k,
                            address: marks,
                            ..Default::default()
                        };
                        pipeline.record_dispatch(d, cmd, &constants, 1);
                        stamp(d, cmd, k == 0);
                        record_compute_barrier(d, cmd);
                    })?;
                }
                Ok(())
            }
            _ => anyhow::bail!("not a dispatch test"),
        }
    }
}
