//! What moving data costs outside a kernel: buffer copies and fills (device, host, BAR; on the compute and a transfer queue), empty dispatches, a submit round trip, timestamps.

use super::{lacks_feature, Checked, Columns, Shared, Spec, Unit};
use crate::data::{Mismatch, ThreadSum};
use crate::gpu::{Gpu, Queue};
use crate::model::{size_name, Fault, Pattern, Suite};
use crate::pipeline::{record_compute_barrier, Binding, Pipeline, PushConstants};
use crate::resources::{
    describe_memory_type, memory_type_heap_bytes, record_fill, record_transfer_copy,
    record_transfer_fill,
    Buffer, Memory, Residence,
};
use crate::timer::Timer;
use anyhow::{Context as _, Result};
use ash::vk;
use std::sync::Mutex;

/// Copy and fill sizes: small (what a command costs beside its bytes), an L2-sized set, and a
/// set no cache holds.
const SIZES: [u64; 3] = [1 << 20, 16 << 20, 1 << 30];

/// Dispatches (or submissions) per sample of the dispatch-cost rows.
const DISPATCHES: u32 = 1024;
/// Submissions per sample of the one-submit-per-dispatch row (each is a host call).
const SUBMITS: u32 = 256;
/// Timestamps written back to back per sample of the timestamp row.
const TIMESTAMPS: u32 = 1024;
/// At most this many bytes move per submission, so no submission nears the hang timeout.
const BYTES_PER_SUBMIT: u64 = 4 << 30;

/// Host-visible memory, by the property flags that make it what it is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Host {
    /// `HOST_VISIBLE | HOST_COHERENT`, not cached: write-combined system memory (upload).
    Coherent,
    /// `HOST_VISIBLE | HOST_COHERENT | HOST_CACHED`: cached system memory (readback).
    Cached,
    /// `DEVICE_LOCAL | HOST_VISIBLE`: video memory the host maps through the PCIe BAR.
    Bar,
}

impl Host {
    const ALL: [Host; 3] = [Host::Coherent, Host::Cached, Host::Bar];

    fn residence(self) -> Residence {
        match self {
            Host::Coherent => Residence::Host,
            Host::Cached => Residence::HostCached,
            Host::Bar => Residence::DeviceHost,
        }
    }

    fn name(self) -> &'static str {
        match self {
            Host::Coherent => "host-coherent",
            Host::Cached => "host-cached",
            Host::Bar => "BAR",
        }
    }
}

/// Where one end of a copy lives.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Place {
    /// Device-local memory the host cannot map.
    Device,
    /// Host-visible memory of one kind.
    Host(Host),
}

impl Place {
    fn residence(self) -> Residence {
        match self {
            Place::Device => Residence::Device,
            Place::Host(h) => h.residence(),
        }
    }

    fn name(self) -> &'static str {
        match self {
            Place::Device => "device",
            Place::Host(h) => h.name(),
        }
    }
}

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
    const ALL: [Submission; 3] = [
        Submission::BackToBack,
        Submission::Barriers,
        Submission::SubmitEach,
    ];

    fn name(self) -> String {
        match self {
            Submission::BackToBack => format!("{DISPATCHES} empty dispatches, one command buffer"),
            Submission::Barriers => {
                format!("{DISPATCHES} empty dispatches, one command buffer, a barrier after each")
            }
            Submission::SubmitEach => format!("{SUBMITS} empty dispatches, one submit each"),
        }
    }

    fn count(self) -> u32 {
        match self {
            Submission::SubmitEach => SUBMITS,
            _ => DISPATCHES,
        }
    }
}

/// One test of the family.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Variant {
    /// `vkCmdCopyBuffer` of `SIZES[size]` bytes.
    Copy {
        from: Place,
        to: Place,
        queue: Queue,
        size: usize,
    },
    /// `vkCmdFillBuffer` of `SIZES[size]` bytes of device-local memory.
    Fill { queue: Queue, size: usize },
    /// Empty dispatches of one workgroup.
    Dispatches(Submission),
    /// Submit one empty dispatch and wait for it, again and again.
    RoundTrip,
    /// Timestamps written back to back, nothing between them.
    Timestamps,
}

impl Variant {
    fn bytes(self) -> u64 {
        match self {
            Variant::Copy { size, .. } | Variant::Fill { size, .. } => SIZES[size],
            _ => 0,
        }
    }

    fn queue(self) -> Queue {
        match self {
            Variant::Copy { queue, .. } | Variant::Fill { queue, .. } => queue,
            _ => Queue::Compute,
        }
    }

    /// A seed that differs between tests, so a buffer left by another test cannot pass.
    fn seed(self) -> u32 {
        let h = format!("{self:?}")
            .bytes()
            .fold(0x811C_9DC5u32, |h, b| (h ^ b as u32).wrapping_mul(0x0100_0193));
        h | 1
    }
}

/// Word `i` of what a copy's source holds (and its destination must hold after).
fn pattern(seed: u32, i: u32) -> u32 {
    let x = (i ^ seed).wrapping_mul(0x9E37_79B1);
    x ^ (x >> 15)
}

/// The family: copies and fills of the bandwidth suite, and what a dispatch costs.
pub struct Transfer;

/// The buffers of the test that ran last (made for the first call, kept for the next ones
/// of the same test: a GB of pinned host memory is slow to allocate).
struct Held<'g> {
    variant: Variant,
    from: Option<Buffer<'g>>,
    to: Buffer<'g>,
}

/// The dispatch-cost kernel and its marks, and the buffers of the current copy test.
pub struct Resources<'g> {
    gpu: &'g Gpu<'g>,
    dispatch: Option<Pipeline<'g>>,
    marks: Buffer<'g>,
    held: Mutex<Option<Held<'g>>>,
}

/// A buffer of `bytes` in `place`, usable as a copy source and destination.
fn buffer<'g>(gpu: &'g Gpu<'g>, name: &str, place: Place, bytes: u64) -> Result<Buffer<'g>> {
    let usage = vk::BufferUsageFlags::TRANSFER_SRC | vk::BufferUsageFlags::TRANSFER_DST;
    Buffer::new(gpu, name, bytes, usage, Memory::In(place.residence()))
}

impl<'g> Resources<'g> {
    /// The buffers of `v`: the last test's where they fit (a copy back the other way reuses
    /// both), the others made now, after what is not reused is freed.
    fn held(&self, v: Variant) -> Result<std::sync::MutexGuard<'_, Option<Held<'g>>>> {
        let mut held = self
            .held
            .lock()
            .map_err(|_| anyhow::anyhow!("transfer buffers lock poisoned"))?;
        if held.as_ref().is_some_and(|h| h.variant == v) {
            return Ok(held);
        }
        // The last test's buffers, by where they are, how large and for which queue.
        let mut spare: Vec<(Place, u64, Queue, Buffer<'g>)> = Vec::new();
        if let Some(h) = held.take() {
            let (bytes, queue) = (h.variant.bytes(), h.variant.queue());
            if let (Variant::Copy { from, .. }, Some(b)) = (h.variant, h.from) {
                spare.push((from, bytes, queue, b));
            }
            let to = match h.variant {
                Variant::Copy { to, .. } => to,
                _ => Place::Device,
            };
            spare.push((to, bytes, queue, h.to));
        }
        let (bytes, queue) = (v.bytes(), v.queue());
        let mut reuse = |place: Place| {
            let at = spare
                .iter()
                .position(|(p, b, q, _)| (*p, *b, *q) == (place, bytes, queue))?;
            Some(spare.swap_remove(at).3)
        };
        let (from, to) = match v {
            Variant::Copy { from, to, .. } => (Some((from, reuse(from))), (to, reuse(to))),
            _ => (None, (Place::Device, reuse(Place::Device))),
        };
        drop(spare); // free the rest before allocating
        let make = |(place, found): (Place, Option<Buffer<'g>>), name| match found {
            Some(b) => Ok(b),
            None => buffer(self.gpu, name, place, bytes),
        };
        let from = from.map(|f| make(f, "copy source")).transpose()?;
        let to = make(to, "copy destination")?;
        *held = Some(Held {
            variant: v,
            from,
            to,
        });
        Ok(held)
    }
}

/// Runs `work` `warmup` times untimed, then `samples` times each between two timestamps, on
/// `queue`, at most `per_submit` runs per submission; returns the timed durations in ms.
fn time_commands<'g>(
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
    Ok(if samples == 0 { Vec::new() } else { timer.read_ms()? })
}

/// The first word of `got` that differs from `want(i)`, as a mismatch.
fn compare_words(got: &[u8], want: impl Fn(u32) -> u32) -> std::result::Result<(), Mismatch> {
    let words = got
        .chunks_exact(4)
        .map(|c| u32::from_le_bytes([c[0], c[1], c[2], c[3]]));
    let mut first = None;
    let mut count = 0;
    for (i, w) in words.enumerate() {
        let expected = want(i as u32);
        if w != expected {
            count += 1;
            first.get_or_insert((i, expected, w));
        }
    }
    match first {
        None => Ok(()),
        Some((index, expected, got)) => Err(Mismatch {
            unit: "word",
            index,
            component: 0,
            expected: format!("{expected:#010x}"),
            got: format!("{got:#010x}"),
            count,
        }),
    }
}

impl Transfer {
    /// Records the empty dispatches of one sample (marking words from `first` on where
    /// `marks` is a device address; 0 while timed).
    fn record_dispatches(
        pipeline: &Pipeline<'_>,
        d: &ash::Device,
        cmd: vk::CommandBuffer,
        s: Submission,
        marks: u64,
    ) {
        for i in 0..s.count() {
            let constants = PushConstants {
                read_start: i,
                address: marks,
                ..Default::default()
            };
            pipeline.record_dispatch(d, cmd, &constants, 1);
            if s == Submission::Barriers {
                record_compute_barrier(d, cmd);
            }
        }
    }

    /// One sample of `s` (or of the round trip) with `marks` as the dispatches' device
    /// address (0: nothing written); the sample's duration per dispatch in ms where `timer`.
    fn run_dispatches(
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
                Self::record_dispatches(pipeline, d, cmd, s, marks);
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

impl Spec for Transfer {
    type Variant = Variant;
    type Resources<'g> = Resources<'g>;

    fn tests(&self) -> Vec<(Suite, Variant, Pattern)> {
        let mut v = Vec::new();
        for queue in [Queue::Compute, Queue::Transfer] {
            let mut paths = vec![(Place::Device, Place::Device)];
            for h in Host::ALL {
                paths.push((Place::Host(h), Place::Device));
                paths.push((Place::Device, Place::Host(h)));
            }
            for (from, to) in paths {
                for size in 0..SIZES.len() {
                    v.push(Variant::Copy {
                        from,
                        to,
                        queue,
                        size,
                    });
                }
            }
            v.extend((0..SIZES.len()).map(|size| Variant::Fill { queue, size }));
        }
        v.extend(Submission::ALL.map(Variant::Dispatches));
        v.push(Variant::RoundTrip);
        v.push(Variant::Timestamps);
        v.into_iter()
            .map(|v| (Suite::Bandwidth, v, Pattern::Linear))
            .collect()
    }

    fn name(&self, v: Variant) -> String {
        let on = |q: Queue| match q {
            Queue::Compute => "",
            Queue::Transfer => " on the transfer queue",
        };
        match v {
            Variant::Copy {
                from,
                to,
                queue,
                size,
            } => format!(
                "transfer: vkCmdCopyBuffer {} to {} {}{}",
                from.name(),
                to.name(),
                size_name(SIZES[size]),
                on(queue)
            ),
            Variant::Fill { queue, size } => format!(
                "transfer: vkCmdFillBuffer device {}{}",
                size_name(SIZES[size]),
                on(queue)
            ),
            Variant::Dispatches(s) => format!("dispatch: {}", s.name()),
            Variant::RoundTrip => "dispatch: submit and wait, one empty dispatch each".into(),
            Variant::Timestamps => format!("dispatch: {TIMESTAMPS} timestamps back to back"),
        }
    }

    fn test_name(&self, v: Variant, _: Pattern) -> String {
        self.name(v)
    }

    fn columns(&self, v: Variant) -> Columns {
        let (resource, format) = match v {
            Variant::Copy { from, to, .. } => (
                "vkCmdCopyBuffer",
                format!("{} to {}", from.name(), to.name()),
            ),
            Variant::Fill { .. } => ("vkCmdFillBuffer", "device".into()),
            Variant::Dispatches(_) | Variant::RoundTrip => ("vkCmdDispatch", "none".into()),
            Variant::Timestamps => ("vkCmdWriteTimestamp", "none".into()),
        };
        Columns {
            family: "transfer",
            resource,
            format,
        }
    }

    fn bytes_per_load(&self, v: Variant) -> Option<u32> {
        matches!(v, Variant::Copy { .. } | Variant::Fill { .. }).then_some(1)
    }

    fn kernel(&self, _: Variant, _: Pattern) -> String {
        "dispatch_empty".into()
    }

    fn reference(&self, _: Variant, _: Pattern, _: &[u8]) -> Vec<ThreadSum> {
        Vec::new()
    }

    fn unit(&self, v: Variant) -> Unit {
        match v {
            Variant::Copy { .. } | Variant::Fill { .. } => Unit::Bytes,
            Variant::Dispatches(_) => Unit::Dispatches,
            Variant::RoundTrip => Unit::Submits,
            Variant::Timestamps => Unit::Timestamps,
        }
    }

    /// A sample is one copy (its bytes), or the time per dispatch, submission or timestamp.
    fn ops_per_dispatch(&self, v: Variant, _: u32) -> u64 {
        v.bytes().max(1)
    }

    fn dispatch_groups(&self, v: Variant, _: Pattern, _: u32, _: Option<u32>) -> u32 {
        u32::from(matches!(v, Variant::Dispatches(_) | Variant::RoundTrip))
    }

    fn self_timed(&self, _: Variant) -> bool {
        true
    }

    fn create<'g>(&self, shared: &Shared<'g>) -> Result<Resources<'g>> {
        let gpu = shared.gpu;
        let usage = vk::BufferUsageFlags::STORAGE_BUFFER
            | vk::BufferUsageFlags::TRANSFER_DST
            | if gpu.info.features.buffer_device_address {
                vk::BufferUsageFlags::SHADER_DEVICE_ADDRESS
            } else {
                vk::BufferUsageFlags::empty()
            };
        let marks = Buffer::new(gpu, "dispatch marks", 4 * DISPATCHES as u64, usage, Memory::Readback)?;
        // The kernel reaches its marks by address; binding 0 only gives the set something
        // to hold (the shader declares no descriptor).
        let dispatch = if gpu.info.features.buffer_device_address {
            let kernel = crate::kernels::named("dispatch_empty")?;
            Some(Pipeline::new(
                gpu,
                kernel.spirv,
                &[(0, Binding::StorageBuffer(&marks, marks.size))],
            )?)
        } else {
            None
        };
        Ok(Resources {
            gpu,
            dispatch,
            marks,
            held: Mutex::new(None),
        })
    }

    fn unsupported(&self, r: &Resources<'_>, shared: &Shared<'_>, v: Variant) -> Option<String> {
        let gpu = shared.gpu;
        if v.queue() == Queue::Transfer && !gpu.has_queue(Queue::Transfer) {
            return Some(
                "the device has no transfer-only queue family with timestamps".into(),
            );
        }
        let places = match v {
            Variant::Copy { from, to, .. } => vec![from, to],
            Variant::Fill { .. } => vec![Place::Device],
            Variant::Dispatches(_) | Variant::RoundTrip => {
                return lacks_feature(r.dispatch.is_some(), "bufferDeviceAddress");
            }
            Variant::Timestamps => return None,
        };
        for place in places {
            let index = match place.residence().memory_type(gpu, u32::MAX) {
                Ok(i) => i,
                Err(why) => return Some(why),
            };
            let heap = memory_type_heap_bytes(gpu, index);
            if v.bytes() > heap / 4 {
                return Some(format!(
                    "{} of {} memory is more than a quarter of its heap ({} MiB)",
                    size_name(v.bytes()),
                    place.name(),
                    heap >> 20
                ));
            }
        }
        None
    }

    fn memory(&self, _: &Resources<'_>, shared: &Shared<'_>, v: Variant) -> Option<String> {
        let Variant::Copy { from, to, .. } = v else {
            return None;
        };
        let describe = |p: Place| {
            p.residence()
                .memory_type(shared.gpu, u32::MAX)
                .map(|i| describe_memory_type(shared.gpu, i))
                .unwrap_or_default()
        };
        Some(format!("from {}; to {}", describe(from), describe(to)))
    }

    fn device_note(&self, _: &Resources<'_>, shared: &Shared<'_>, v: Variant) -> Option<String> {
        let info = shared.gpu.info;
        match v {
            Variant::Timestamps => Some(format!(
                "timestampPeriod {} ns, {} valid bits",
                info.timestamp_period,
                shared.gpu.timestamp_bits(Queue::Compute)
            )),
            Variant::Dispatches(_) | Variant::RoundTrip => {
                Some("ms_median is the time per dispatch (per submission)".into())
            }
            _ => None,
        }
    }

    fn time_self(
        &self,
        r: &Resources<'_>,
        shared: &Shared<'_>,
        v: Variant,
        warmup: u32,
        samples: u32,
    ) -> Result<Vec<f64>> {
        let gpu = shared.gpu;
        match v {
            Variant::Copy { .. } | Variant::Fill { .. } => {
                let held = r.held(v)?;
                let h = held.as_ref().context("no buffers")?;
                let per_submit = (BYTES_PER_SUBMIT / v.bytes()).clamp(1, 256) as u32;
                time_commands(gpu, v.queue(), warmup, samples, per_submit, |d, cmd| {
                    match &h.from {
                        Some(from) => record_transfer_copy(d, cmd, from, &h.to, v.bytes()),
                        None => record_transfer_fill(d, cmd, &h.to, v.bytes(), 0),
                    }
                })
            }
            Variant::Timestamps => {
                let stamps = Timer::new(gpu, TIMESTAMPS / 2)?;
                let mut times = Vec::new();
                for _ in 0..warmup.min(1) + samples {
                    gpu.submit(|d, cmd| {
                        stamps.record_reset(d, cmd);
                        for i in 0..TIMESTAMPS / 2 {
                            stamps.record_start(d, cmd, i);
                            stamps.record_end(d, cmd, i);
                        }
                    })?;
                    let (_, span) = stamps.read()?;
                    times.push(span / (TIMESTAMPS - 1) as f64);
                }
                Ok(times.split_off(warmup.min(1) as usize))
            }
            _ => {
                let count = match v {
                    Variant::Dispatches(s) => s.count(),
                    _ => 1,
                };
                for _ in 0..warmup {
                    Self::run_dispatches(r, v, 0, None)?;
                }
                let timer = Timer::new(gpu, samples.max(1))?;
                gpu.submit(|d, cmd| timer.record_reset(d, cmd))?;
                for i in 0..samples {
                    Self::run_dispatches(r, v, 0, Some((&timer, i)))?;
                }
                let times = if samples == 0 { Vec::new() } else { timer.read_ms()? };
                Ok(times.iter().map(|t| t / count as f64).collect())
            }
        }
    }

    fn verify_self(&self, r: &Resources<'_>, shared: &Shared<'_>, v: Variant) -> Checked {
        let gpu = shared.gpu;
        // --fault reference: the CPU expects other words, so every row must fail.
        let skew = u32::from(shared.fault == Some(Fault::Reference));
        match v {
            Variant::Copy { .. } | Variant::Fill { .. } => {
                let held = r.held(v)?;
                let h = held.as_ref().context("no buffers")?;
                let (bytes, seed, queue) = (v.bytes(), v.seed(), v.queue());
                let words = (bytes / 4) as u32;
                let staging = |name| {
                    Buffer::new(
                        gpu,
                        name,
                        bytes,
                        vk::BufferUsageFlags::TRANSFER_SRC | vk::BufferUsageFlags::TRANSFER_DST,
                        Memory::Readback,
                    )
                };
                // The source gets the pattern, the destination other words first.
                if let Some(from) = &h.from {
                    let mut upload = staging("copy pattern")?;
                    let data: Vec<u8> = (0..words).flat_map(|i| pattern(seed, i).to_le_bytes()).collect();
                    upload.write(&data)?;
                    gpu.submit_to(queue, |d, cmd| {
                        record_transfer_copy(d, cmd, &upload, from, bytes);
                        record_transfer_fill(d, cmd, &h.to, bytes, !seed);
                    })?;
                } else {
                    gpu.submit_to(queue, |d, cmd| record_transfer_fill(d, cmd, &h.to, bytes, !seed))?;
                }
                gpu.submit_to(queue, |d, cmd| match &h.from {
                    Some(from) => record_transfer_copy(d, cmd, from, &h.to, bytes),
                    None => record_transfer_fill(d, cmd, &h.to, bytes, seed),
                })?;
                let readback = staging("copy readback")?;
                gpu.submit_to(queue, |d, cmd| record_transfer_copy(d, cmd, &h.to, &readback, bytes))?;
                let got = readback.read_bytes(bytes as usize)?;
                Ok(match &h.from {
                    Some(_) => compare_words(&got, |i| pattern(seed, i) ^ skew),
                    None => compare_words(&got, |_| seed ^ skew),
                })
            }
            Variant::Timestamps => {
                let stamps = Timer::new(gpu, TIMESTAMPS / 2)?;
                gpu.submit(|d, cmd| {
                    stamps.record_reset(d, cmd);
                    for i in 0..TIMESTAMPS / 2 {
                        stamps.record_start(d, cmd, i);
                        stamps.record_end(d, cmd, i);
                    }
                })?;
                let flat: Vec<f64> = stamps
                    .read_intervals()?
                    .into_iter()
                    .flat_map(|(s, e)| [s, e])
                    .collect();
                // Each timestamp is written once all earlier work is done: never earlier
                // (--fault reference expects the opposite, so the row must fail).
                let back = flat
                    .windows(2)
                    .position(|w| (w[1] < w[0]) == (skew == 0));
                Ok(match back {
                    None => Ok(()),
                    Some(i) => Err(Mismatch {
                        unit: "timestamp",
                        index: i + 1,
                        component: 0,
                        expected: format!(">= {:.6} ms", flat[i]),
                        got: format!("{:.6} ms", flat[i + 1]),
                        count: 1,
                    }),
                })
            }
            _ => {
                let count = match v {
                    Variant::Dispatches(s) => s.count(),
                    _ => 2,
                };
                gpu.submit(|d, cmd| record_fill(d, cmd, &r.marks, 0))?;
                Self::run_dispatches(r, v, r.marks.device_address(), None)?;
                let got = r.marks.read_bytes(4 * count as usize)?;
                Ok(compare_words(&got, |i| i + 1 + skew))
            }
        }
    }
}
