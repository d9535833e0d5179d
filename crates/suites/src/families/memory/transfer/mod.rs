//! What moving data costs outside a kernel: buffer copies and fills (device, host, BAR; on the compute and a transfer queue), empty dispatches, a submit round trip, timestamps.

use crate::data::{compare_exact_par, Mismatch, ThreadSum};
use crate::families::memory::bandwidth::fill_with;
use crate::families::{Checked, Columns, Shared, Spec, Unit};
use crate::kernels::{id, KernelId};
use crate::model::{size_name, Fault, Pattern, Suite};
use anyhow::{Context as _, Result};
use ash::vk;
use perftest_gpu::pipeline::{Binding, Pipeline};
use perftest_gpu::resources::{
    describe_memory_type, memory_type_heap_bytes, record_fill, record_readback,
    record_transfer_copy, record_transfer_fill, Buffer, HostRegion, Memory, Residence,
};
use perftest_gpu::timer::Timer;
use perftest_gpu::{Gpu, Queue};
use std::sync::Mutex;

mod commands;
mod dispatch;
use commands::time_commands;
use dispatch::{Submission, DISPATCHES};

/// Copy and fill sizes: small (what a command costs beside its bytes), an L2-sized set, and a
/// set no cache holds.
const SIZES: [u64; 3] = [1 << 20, 16 << 20, 1 << 30];

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
    /// Dispatches of one workgroup: empty, or the dependent chain.
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
        let h = format!("{self:?}").bytes().fold(0x811C_9DC5u32, |h, b| {
            (h ^ b as u32).wrapping_mul(0x0100_0193)
        });
        h | 1
    }
}

/// Word `i` of what a copy's source holds (and its destination must hold after).
fn pattern(seed: u32, i: u32) -> u32 {
    let x = (i ^ seed).wrapping_mul(0x9E37_79B1);
    x ^ (x >> 15)
}

/// [`TIMESTAMPS`] timestamps written back to back in one submission, in ms after the first.
fn timestamps(gpu: &Gpu<'_>) -> Result<Vec<f64>> {
    let stamps = Timer::new(gpu, TIMESTAMPS / 2)?;
    gpu.submit(|d, cmd| {
        stamps.record_reset(d, cmd);
        for i in 0..TIMESTAMPS / 2 {
            stamps.record_start(d, cmd, i);
            stamps.record_end(d, cmd, i);
        }
    })?;
    Ok(stamps
        .read_intervals()?
        .into_iter()
        .flat_map(|(s, e)| [s, e])
        .collect())
}

/// Word i of `got` against `want(i)`, exactly.
fn compare_words(
    got: &[u8],
    want: impl Fn(u32) -> u32 + Sync,
) -> std::result::Result<(), Mismatch> {
    compare_exact_par("word", got.len() / 4, |i| {
        let w = &got[4 * i..4 * i + 4];
        (want(i as u32), u32::from_le_bytes([w[0], w[1], w[2], w[3]]))
    })
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

/// The current test's buffers; the host buffers the run's copies need, made (pinned) once
/// while the device was set up ([`Spec::prepare_run`]) and kept to its end; and one device
/// buffer the test before left unused, kept while the tests go on at its size. A GB of host
/// memory pinned takes 0.3–0.4 s on an H200 and stalls the driver's calls of every device of
/// the process meanwhile: on a node of four, a GPU timing a row then idled up to 1.8 s
/// (`results/h200x4/node6-1128`). The health profile's two 1 GB host copies (host-coherent,
/// each way) take one GB, imported at setup (see [`buffer`]).
#[derive(Default)]
struct Buffers<'g> {
    current: Option<Held<'g>>,
    spare: Option<(Place, u64, Buffer<'g>)>,
    /// The host buffers made at setup, by where and how large, while no test holds them.
    kept: Vec<(Place, u64, Buffer<'g>)>,
    /// Where and how large the host buffers made at setup are.
    pinned: Vec<(Place, u64)>,
}

/// The dispatch-cost kernels and their marks, and the buffers of the current copy test.
pub struct Resources<'g> {
    gpu: &'g Gpu<'g>,
    /// The kernel the dispatch rows time (it touches no memory).
    empty: Pipeline<'g>,
    /// What `--verify` runs in its place: each dispatch marks its word.
    mark: Pipeline<'g>,
    /// The dependent chain's kernel.
    chain: Pipeline<'g>,
    /// The words the marking and chain kernels write (device-local).
    marks: Buffer<'g>,
    held: Mutex<Buffers<'g>>,
}

/// A buffer of `bytes` in `place`, usable as a copy source and destination.
fn buffer<'g>(gpu: &'g Gpu<'g>, name: &str, place: Place, bytes: u64) -> Result<Buffer<'g>> {
    let usage = vk::BufferUsageFlags::TRANSFER_SRC | vk::BufferUsageFlags::TRANSFER_DST;
    // Host-coherent memory is the process's own, imported by the device where it can: the
    // device's own allocation of it (a GB pinned) took 0.37–0.44 s on an H200 and stalled
    // every other device's driver calls, so on a node the pins went one after another; the
    // import took 0.12–0.15 s with the region's pages faulted in on every core, and every
    // host-coherent copy read as before (results/h200/import-1129). One region per buffer:
    // whether a driver takes the same pages into two devices was not seen (no node was lent
    // after). Host-cached memory stays the driver's: imported, its 16 MB copies from the
    // device read 22 % faster there (52.4 GB/s against 39–43), another memory than the row
    // has measured.
    let importable = gpu
        .host_import_alignment()
        .filter(|&a| bytes.is_multiple_of(a));
    if let (Place::Host(Host::Coherent), Some(at_least)) = (place, importable) {
        // 2 MB where the size allows: the host's large pages, where it makes them.
        let align = if bytes.is_multiple_of(2 << 20) {
            at_least.max(2 << 20)
        } else {
            at_least
        };
        let region = std::sync::Arc::new(HostRegion::new(bytes as usize, align as usize)?);
        if let Some(b) = Buffer::import(gpu, name, region, usage, place.residence())? {
            return Ok(b);
        }
    }
    Buffer::new(gpu, name, bytes, usage, Memory::In(place.residence()))
}

impl<'g> Resources<'g> {
    /// The buffers of `v`: the last test's where they fit (a copy back the other way reuses
    /// both), or the spare one, the others made now, after what is not reused is freed but
    /// for one buffer of `v`'s size (the spare). A buffer serves either queue: its sharing is
    /// exclusive, and what a test reads it first writes on its own queue (a buffer first used
    /// by another queue family holds undefined contents there, the spec's rule, and none of
    /// them is read).
    fn held(&self, v: Variant) -> Result<std::sync::MutexGuard<'_, Buffers<'g>>> {
        let mut held = self
            .held
            .lock()
            .map_err(|_| anyhow::anyhow!("transfer buffers lock poisoned"))?;
        if held.current.as_ref().is_some_and(|h| h.variant == v) {
            return Ok(held);
        }
        // The last test's buffers, the spare and the kept ones, by where they are and how
        // large.
        let mut spare: Vec<(Place, u64, Buffer<'g>)> = held.spare.take().into_iter().collect();
        spare.append(&mut held.kept);
        if let Some(h) = held.current.take() {
            let bytes = h.variant.bytes();
            if let (Variant::Copy { from, .. }, Some(b)) = (h.variant, h.from) {
                spare.push((from, bytes, b));
            }
            let to = match h.variant {
                Variant::Copy { to, .. } => to,
                _ => Place::Device,
            };
            spare.push((to, bytes, h.to));
        }
        let bytes = v.bytes();
        let mut reuse = |place: Place| {
            let at = spare
                .iter()
                .position(|(p, b, _)| (*p, *b) == (place, bytes))?;
            Some(spare.swap_remove(at).2)
        };
        let (from, to) = match v {
            Variant::Copy { from, to, .. } => (Some((from, reuse(from))), (to, reuse(to))),
            _ => (None, (Place::Device, reuse(Place::Device))),
        };
        // The host buffers made at setup back to where they are kept; the rest freed before
        // allocating, but for the last one left of this size.
        let (kept, rest): (Vec<_>, Vec<_>) = spare
            .into_iter()
            .partition(|(p, b, _)| held.pinned.contains(&(*p, *b)));
        held.kept = kept;
        held.spare = rest.into_iter().rev().find(|(_, b, _)| *b == bytes);
        let make = |(place, found): (Place, Option<Buffer<'g>>), name| match found {
            Some(b) => Ok(b),
            None => buffer(self.gpu, name, place, bytes),
        };
        let from = from.map(|f| make(f, "copy source")).transpose()?;
        let to = make(to, "copy destination")?;
        held.current = Some(Held {
            variant: v,
            from,
            to,
        });
        Ok(held)
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

    /// The kernel a dispatch row times (the others time no kernel of their own).
    fn kernel(&self, v: Variant, _: Pattern) -> KernelId {
        match v {
            Variant::Dispatches(Submission::Chain) => id::DISPATCH_CHAIN,
            _ => id::DISPATCH_EMPTY,
        }
    }

    fn reference(&self, _: Variant, _: Pattern, _: &[u8]) -> Vec<ThreadSum> {
        Vec::new()
    }

    /// Copies to or from system memory cross the host link; a submission per dispatch or a
    /// wait for each is the CPU's work, timed with it. Copies within the GPU (BAR memory is
    /// video memory) share nothing with another GPU.
    fn shares_host(&self, v: Variant) -> bool {
        let system = |p: Place| matches!(p, Place::Host(Host::Coherent | Host::Cached));
        match v {
            Variant::Copy { from, to, .. } => system(from) || system(to),
            Variant::Dispatches(Submission::SubmitEach) | Variant::RoundTrip => true,
            Variant::Dispatches(_) | Variant::Fill { .. } | Variant::Timestamps => false,
        }
    }

    /// A copy to or from system memory (not BAR memory, which is video memory).
    fn over_host_link(&self, v: Variant) -> bool {
        let system = |p: Place| matches!(p, Place::Host(Host::Coherent | Host::Cached));
        matches!(v, Variant::Copy { from, to, .. } if system(from) || system(to))
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
            | vk::BufferUsageFlags::TRANSFER_SRC
            | vk::BufferUsageFlags::TRANSFER_DST;
        // Device-local: the chain's loads and stores stay on the GPU while timed.
        let marks = Buffer::new(
            gpu,
            "dispatch marks",
            4 * DISPATCHES as u64,
            usage,
            Memory::DeviceLocal,
        )?;
        // Binding 0 is the marks (the empty kernel declares no descriptor: the set only gives
        // the layout something to hold).
        let pipeline = |kernel: KernelId| -> Result<Pipeline<'g>> {
            Pipeline::new(
                gpu,
                kernel.kernel().spirv,
                &[(0, Binding::StorageBuffer(&marks, marks.size))],
            )
        };
        Ok(Resources {
            gpu,
            empty: pipeline(id::DISPATCH_EMPTY)?,
            mark: pipeline(id::DISPATCH_MARK)?,
            chain: pipeline(id::DISPATCH_CHAIN)?,
            marks,
            held: Mutex::new(Buffers::default()),
        })
    }

    fn unsupported(&self, _: &Resources<'_>, shared: &Shared<'_>, v: Variant) -> Option<String> {
        let gpu = shared.gpu;
        if v.queue() == Queue::Transfer && !gpu.has_queue(Queue::Transfer) {
            return Some("the device has no transfer-only queue family with timestamps".into());
        }
        let places = match v {
            Variant::Copy { from, to, .. } => vec![from, to],
            Variant::Fill { .. } => vec![Place::Device],
            Variant::Dispatches(_) | Variant::RoundTrip | Variant::Timestamps => return None,
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

    fn memory(&self, r: &Resources<'_>, shared: &Shared<'_>, v: Variant) -> Option<String> {
        let Variant::Copy { from, to, .. } = v else {
            return None;
        };
        // Whether the test's own buffer at `p` is an imported host region (see [`buffer`]).
        let imported = |p: Place| {
            r.held.lock().is_ok_and(|h| {
                h.current.as_ref().is_some_and(|c| {
                    c.variant == v
                        && match (c.from.as_ref(), p == from) {
                            (Some(b), true) => b.is_imported(),
                            _ => p == to && c.to.is_imported(),
                        }
                })
            })
        };
        let describe = |p: Place| {
            let what = p
                .residence()
                .memory_type(shared.gpu, u32::MAX)
                .map(|i| describe_memory_type(shared.gpu, i))
                .unwrap_or_default();
            if imported(p) {
                format!(
                    "{what}, the process's own host memory imported (VK_EXT_external_memory_host)"
                )
            } else {
                what
            }
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

    /// The host buffers of the run's copies to and from system memory, one per place and
    /// size (see [`Buffers`]).
    fn prepare_run(&self, r: &Resources<'_>, shared: &Shared<'_>, tests: &[Variant]) -> Result<()> {
        let mut held = r
            .held
            .lock()
            .map_err(|_| anyhow::anyhow!("transfer buffers lock poisoned"))?;
        for v in tests {
            let Variant::Copy { from, to, .. } = *v else {
                continue;
            };
            if self.unsupported(r, shared, *v).is_some() {
                continue;
            }
            for place in [from, to] {
                let key = (place, v.bytes());
                if matches!(place, Place::Host(Host::Coherent | Host::Cached))
                    && !held.pinned.contains(&key)
                {
                    held.kept.push((
                        place,
                        key.1,
                        buffer(r.gpu, "host copy buffer", place, key.1)?,
                    ));
                    held.pinned.push(key);
                }
            }
        }
        Ok(())
    }

    fn prepare_self(&self, r: &Resources<'_>, _: &Shared<'_>, v: Variant) -> Result<()> {
        if matches!(v, Variant::Copy { .. } | Variant::Fill { .. }) {
            drop(r.held(v)?);
        }
        Ok(())
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
                let h = held.current.as_ref().context("no buffers")?;
                let per_submit = (BYTES_PER_SUBMIT / v.bytes()).clamp(1, 256) as u32;
                time_commands(
                    gpu,
                    v.queue(),
                    warmup,
                    samples,
                    per_submit,
                    |d, cmd| match &h.from {
                        Some(from) => record_transfer_copy(d, cmd, from, &h.to, v.bytes()),
                        None => record_transfer_fill(d, cmd, &h.to, v.bytes(), 0),
                    },
                )
            }
            Variant::Timestamps => {
                let mut times = Vec::new();
                for _ in 0..warmup.min(1) + samples {
                    let stamps = timestamps(gpu)?;
                    let span = stamps.last().unwrap_or(&0.0) - stamps.first().unwrap_or(&0.0);
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
                    Self::run_dispatches(r, v, false, None)?;
                }
                let timer = Timer::new(gpu, samples.max(1))?;
                gpu.submit(|d, cmd| timer.record_reset(d, cmd))?;
                for i in 0..samples {
                    Self::run_dispatches(r, v, false, Some((&timer, i)))?;
                }
                let times = if samples == 0 {
                    Vec::new()
                } else {
                    timer.read_ms()?
                };
                Ok(times.iter().map(|t| t / count as f64).collect())
            }
        }
    }

    // Long on purpose: one arm per kind of self-timed test (copies, fills, dispatches, the
    // round trip, timestamps), each its own readback and comparison.
    fn verify_self(&self, r: &Resources<'_>, shared: &Shared<'_>, v: Variant) -> Checked {
        let gpu = shared.gpu;
        // --fault reference: the CPU expects other words, so every row must fail.
        let skew = u32::from(shared.fault == Some(Fault::Reference));
        match v {
            Variant::Copy { .. } | Variant::Fill { .. } => {
                let held = r.held(v)?;
                let h = held.current.as_ref().context("no buffers")?;
                let (bytes, seed, queue) = (v.bytes(), v.seed(), v.queue());
                // One host buffer carries the pattern up and the result back: written in
                // place, then overwritten with other words before the copy back, so that a
                // copy that never happened cannot pass.
                let mut staging = Buffer::new(
                    gpu,
                    "copy check",
                    bytes,
                    vk::BufferUsageFlags::TRANSFER_SRC | vk::BufferUsageFlags::TRANSFER_DST,
                    Memory::Readback,
                )?;
                if let Some(from) = &h.from {
                    fill_with(&mut staging.mapped_mut()?[..bytes as usize], 0, |i| {
                        pattern(seed, i as u32).to_le_bytes()
                    });
                    gpu.submit_to(queue, |d, cmd| {
                        record_transfer_copy(d, cmd, &staging, from, bytes)
                    })?;
                }
                // The destination and the check buffer other words first.
                gpu.submit_to(queue, |d, cmd| {
                    record_transfer_fill(d, cmd, &h.to, bytes, !seed);
                    record_transfer_fill(d, cmd, &staging, bytes, !seed);
                })?;
                gpu.submit_to(queue, |d, cmd| match &h.from {
                    Some(from) => record_transfer_copy(d, cmd, from, &h.to, bytes),
                    None => record_transfer_fill(d, cmd, &h.to, bytes, seed),
                })?;
                gpu.submit_to(queue, |d, cmd| {
                    record_transfer_copy(d, cmd, &h.to, &staging, bytes)
                })?;
                let got = &staging.mapped()?[..bytes as usize];
                Ok(match &h.from {
                    Some(_) => compare_words(got, |i| pattern(seed, i) ^ skew),
                    None => compare_words(got, |_| seed ^ skew),
                })
            }
            Variant::Timestamps => {
                let flat = timestamps(gpu)?;
                // Each timestamp is written once all earlier work is done: never earlier
                // (--fault reference expects the opposite, so the row must fail).
                let back = flat.windows(2).position(|w| (w[1] < w[0]) == (skew == 0));
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
                let bytes = 4 * count as u64;
                let readback = Buffer::new(
                    gpu,
                    "dispatch marks readback",
                    bytes,
                    vk::BufferUsageFlags::TRANSFER_DST,
                    Memory::Readback,
                )?;
                gpu.submit(|d, cmd| {
                    record_fill(d, cmd, &r.marks, 0);
                    record_fill(d, cmd, &readback, !0);
                })?;
                Self::run_dispatches(r, v, true, None)?;
                gpu.submit(|d, cmd| record_readback(d, cmd, &r.marks, &readback, bytes))?;
                let got = readback.read_bytes(bytes as usize)?;
                // Each dispatch's own mark, or the chain's count: i + 1 either way.
                Ok(compare_words(&got, |i| i + 1 + skew))
            }
        }
    }
}
