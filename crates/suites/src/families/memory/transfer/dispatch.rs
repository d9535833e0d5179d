//! What a dispatch costs: empty dispatches recorded back to back, with barriers, one submit each, or submitted and waited for one at a time; and a chain of dependent ones.

use super::{Resources, Transfer, Variant};
use anyhow::Result;
use ash::vk;
use perftest_gpu::pipeline::{
    record_compute_barrier, record_dependency_barrier, Pipeline, PushConstants,
};
use perftest_gpu::timer::Timer;
use perftest_gpu::Queue;

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
    /// A dependent chain: each dispatch reads the word the one before wrote, and writes its
    /// own; one command buffer, the same barrier after each.
    Chain,
    /// One command buffer and one `vkQueueSubmit` each, submitted without waiting.
    SubmitEach,
}

impl Submission {
    pub(super) const ALL: [Submission; 4] = [
        Submission::BackToBack,
        Submission::Barriers,
        Submission::Chain,
        Submission::SubmitEach,
    ];

    pub(super) fn name(self) -> String {
        match self {
            Submission::BackToBack => format!("{DISPATCHES} empty dispatches, one command buffer"),
            Submission::Barriers => {
                format!("{DISPATCHES} empty dispatches, one command buffer, a barrier after each")
            }
            Submission::Chain => format!(
                "{DISPATCHES} dispatches, each reading the word the one before wrote, one \
                 command buffer, a barrier after each"
            ),
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
    /// Records the dispatches of one sample with `pipeline` (the empty kernel, the marking
    /// one of `--verify`, or the chain's). The barrier after each is the narrowest a
    /// dependent chain needs (`pipeline::record_dependency_barrier`): on the H100 it, a
    /// shader-write → shader-read one, an execution-only one, and one chain bound and pushed
    /// once all cost the same per dispatch (results/h100/dispatch-barrier/): what differs is
    /// the kernel — 1.4 µs for one that touches no memory, 1.8–1.9 for one that may store,
    /// 2.3 for the chain's load and store.
    pub(super) fn record_dispatches(
        pipeline: &Pipeline<'_>,
        d: &ash::Device,
        cmd: vk::CommandBuffer,
        s: Submission,
        synchronization2: bool,
    ) {
        for i in 0..s.count() {
            let constants = PushConstants {
                read_start: i,
                ..Default::default()
            };
            pipeline.record_dispatch(d, cmd, &constants, 1);
            if matches!(s, Submission::Barriers | Submission::Chain) {
                record_dependency_barrier(d, cmd, synchronization2);
            }
        }
    }

    /// The kernel `v` runs: the chain's own; else the empty one, or where `verify` the one
    /// that marks each dispatch's word.
    fn kernel_of<'a, 'g>(r: &'a Resources<'g>, v: Variant, verify: bool) -> &'a Pipeline<'g> {
        match (v, verify) {
            (Variant::Dispatches(Submission::Chain), _) => &r.chain,
            (_, true) => &r.mark,
            _ => &r.empty,
        }
    }

    /// One sample of `s` (or of the round trip), with the marking kernel where `verify`; the
    /// sample's duration per dispatch in ms where `timer`.
    pub(super) fn run_dispatches(
        r: &Resources<'_>,
        v: Variant,
        verify: bool,
        timer: Option<(&Timer<'_>, u32)>,
    ) -> Result<()> {
        let pipeline = Self::kernel_of(r, v, verify);
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
                Self::record_dispatches(pipeline, d, cmd, s, gpu.info.features.synchronization2);
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
