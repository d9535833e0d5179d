//! What the write families share: the CPU model of what their kernels write (`model.rs`:
//! where each store or atomic lands, what it writes, the memory one dispatch leaves behind),
//! how written memory is laid out and compared, the `--verify` steps — clear, dispatch,
//! read back, compare — and the shared-memory families' [`Spec`] ([`SharedTable`]).

// The families of this group.
pub(super) mod buffer_atomic;
pub(super) mod buffer_store;
pub(super) mod image_atomic;
pub(super) mod image_store;
pub(super) mod shared_atomic;
pub(super) mod shared_store;
pub(super) mod texel_buffer_store;

use super::{each, Checked, Columns, Dispatch, Shared, Spec};
use crate::data::{Mismatch, ThreadSum};
use crate::format::{ChannelType, Format};
use crate::kernels::KernelId;
use crate::model::{Fault, Pattern, Suite};
use anyhow::Result;
use ash::vk;
use perftest_gpu::pipeline::Binding;
use perftest_gpu::resources::{
    record_clear, record_full_barrier, record_readback, Buffer, Image, Memory,
};

mod model;
pub use model::*;

/// Elements of every store and atomic target (16 KB of `vec4` at most); 32×32 for images.
pub const ELEMENTS: u32 = 1024;
/// Elements of the shared-memory tables (`groupshared`): 8 KB of `vec4`, within the 16 KB
/// of workgroup memory every device offers next to `common.glsl`'s 4 KB.
pub const SHARED_ELEMENTS: u32 = 512;

/// Workgroups per compute unit of an atomic test on one address (the uniform pattern).
pub const CONTENTION_GROUPS_PER_CU: u32 = 1;
/// Compute units assumed where the device does not say how many it has.
const UNKNOWN_COMPUTE_UNITS: u32 = 16;

/// The dispatch size of an atomic test in pattern `p`. On one address (uniform) every
/// resident group contends for it at once, and the time per group depends on how many do:
/// such a test runs a fixed [`CONTENTION_GROUPS_PER_CU`] group per compute unit (132 on an
/// H100, all resident at once, every SM contending with 256 threads), never the calibrated
/// size cut to the watchdog budget at a size that varies with the probe's timing from run to
/// run. (At 4 per CU the float adds took 40 ms: 6 samples in the per-test budget, whose median
/// still moved 4 %.) The others run `calibrated`.
pub fn atomic_groups(p: Pattern, calibrated: u32, compute_units: Option<u32>) -> u32 {
    match p {
        Pattern::Uniform => {
            let cus = compute_units.unwrap_or(UNKNOWN_COMPUTE_UNITS);
            (cus * CONTENTION_GROUPS_PER_CU).min(calibrated)
        }
        _ => calibrated,
    }
}

/// How one channel of written memory is stored.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Channel {
    Unorm8,
    Half,
    Float,
    Uint,
    Uint64,
}

impl Channel {
    /// Bytes per channel.
    pub const fn bytes(self) -> usize {
        match self {
            Channel::Unorm8 => 1,
            Channel::Half => 2,
            Channel::Float | Channel::Uint => 4,
            Channel::Uint64 => 8,
        }
    }

    /// The channel's bits at the start of `b`.
    fn read(self, b: &[u8]) -> u64 {
        let mut raw = [0u8; 8];
        raw[..self.bytes()].copy_from_slice(&b[..self.bytes()]);
        u64::from_le_bytes(raw)
    }

    /// The bits of `value`, a number the kernels store exactly (for UNORM8: the byte).
    fn encode(self, value: f64) -> u64 {
        match self {
            Channel::Unorm8 | Channel::Uint | Channel::Uint64 => value as u64,
            Channel::Half => half::f16::from_f64(value).to_bits() as u64,
            Channel::Float => (value as f32).to_bits() as u64,
        }
    }

    /// The bits as a reader wants them: a number, or a byte and its UNORM value.
    fn show(self, raw: u64) -> String {
        match self {
            Channel::Unorm8 => format!("{raw} ({:.4})", raw as f64 / 255.0),
            Channel::Half => half::f16::from_bits(raw as u16).to_string(),
            Channel::Float => f32::from_bits(raw as u32).to_string(),
            Channel::Uint | Channel::Uint64 => raw.to_string(),
        }
    }

    /// Whether `got` is what the kernel should have left: exactly, except that a float stored
    /// to UNORM8 may round to either neighbouring byte (Vulkan allows both).
    fn matches(self, want: u64, got: u64) -> bool {
        match self {
            Channel::Unorm8 => want.abs_diff(got) <= 1,
            _ => want == got,
        }
    }
}

/// The layout of one element (texel) of written memory.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Layout {
    pub channel: Channel,
    pub channels: usize,
}

impl Layout {
    /// Bytes per element.
    pub const fn bytes(self) -> usize {
        self.channel.bytes() * self.channels
    }
}

/// How the store kernels write a texel format: the values they compute and how it stores them.
pub fn format_layout(f: Format) -> (Kind, Layout) {
    let (kind, channel) = match f.channel_type() {
        ChannelType::Unorm8 => (Kind::Unorm8, Channel::Unorm8),
        ChannelType::Float16 => (Kind::Float, Channel::Half),
        ChannelType::Float32 => (Kind::Float, Channel::Float),
    };
    let layout = Layout {
        channel,
        channels: f.channels() as usize,
    };
    (kind, layout)
}

/// Written memory: the raw bits of each channel of each element (unused channels 0).
pub type Contents = Vec<[u64; 4]>;

/// Compares written memory with the reference, element by element; `unit` names the element
/// (`element`, `texel`) in the mismatch.
pub fn compare(
    layout: Layout,
    unit: &'static str,
    expected: &[[u64; 4]],
    got: &[[u64; 4]],
) -> std::result::Result<(), Mismatch> {
    let mut first: Option<Mismatch> = None;
    let mut count = 0;
    for (index, (want, got)) in expected.iter().zip(got).enumerate() {
        let bad = (0..layout.channels).find(|&c| !layout.channel.matches(want[c], got[c]));
        if let Some(c) = bad {
            count += 1;
            first.get_or_insert(Mismatch {
                unit,
                index,
                component: c,
                expected: layout.channel.show(want[c]),
                got: layout.channel.show(got[c]),
                count: 0,
            });
        }
    }
    match first {
        None => Ok(()),
        Some(m) => Err(Mismatch { count, ..m }),
    }
}

/// Decodes `bytes` into elements of `layout`.
pub fn decode(layout: Layout, bytes: &[u8]) -> Contents {
    bytes
        .chunks_exact(layout.bytes())
        .map(|e| {
            let mut v = [0u64; 4];
            for (c, out) in v.iter_mut().enumerate().take(layout.channels) {
                *out = layout.channel.read(&e[c * layout.channel.bytes()..]);
            }
            v
        })
        .collect()
}

/// A host-visible buffer of 16 KB that write targets are copied into for `--verify`.
pub fn readback_buffer<'g>(shared: &Shared<'g>) -> Result<Buffer<'g>> {
    Buffer::new(
        shared.gpu,
        "write readback",
        16 * 1024,
        vk::BufferUsageFlags::TRANSFER_DST,
        Memory::Readback,
    )
}

/// A device-local buffer of 16 KB that kernels write (with `extra` usages, e.g. texel buffer).
pub fn target_buffer<'g>(shared: &Shared<'g>, extra: vk::BufferUsageFlags) -> Result<Buffer<'g>> {
    Buffer::new(
        shared.gpu,
        "write target",
        16 * 1024,
        extra | vk::BufferUsageFlags::TRANSFER_SRC | vk::BufferUsageFlags::TRANSFER_DST,
        Memory::DeviceLocal,
    )
}

/// A storage buffer that kernels write and the buffer it is read back through: the
/// resources of the buffer store and atomic families.
pub struct StorageTarget<'g> {
    target: Buffer<'g>,
    readback: Buffer<'g>,
}

impl<'g> StorageTarget<'g> {
    /// A 16 KB storage buffer target (see [`target_buffer`]) and its read-back buffer.
    pub fn new(shared: &Shared<'g>) -> Result<Self> {
        Ok(Self {
            target: target_buffer(shared, vk::BufferUsageFlags::STORAGE_BUFFER)?,
            readback: readback_buffer(shared)?,
        })
    }

    /// The target bound whole at binding 0.
    pub fn bindings<'a>(&'a self) -> Vec<(u32, perftest_gpu::pipeline::Binding<'a, 'g>)> {
        vec![(
            0,
            perftest_gpu::pipeline::Binding::StorageBuffer(&self.target, self.target.size),
        )]
    }

    /// Records zeroing the target (the atomics accumulate on it while timing).
    pub fn record_clear(&self, d: &ash::Device, cmd: vk::CommandBuffer) {
        record_clear(d, cmd, &self.target, 0);
    }

    /// [`verify`] of the target's elements of `layout` against `expected`.
    pub fn verify(
        &self,
        shared: &Shared<'_>,
        layout: Layout,
        expected: Contents,
        dispatch: &mut Dispatch<'_>,
    ) -> Checked {
        let target = Target::Buffer(&self.target);
        verify(
            shared,
            target,
            &self.readback,
            layout,
            "element",
            expected,
            dispatch,
        )
    }
}

/// A write family into a workgroup's table (`groupshared`), one test per pattern: under
/// `--verify`, group 0 copies its table into a host-visible buffer (its resources), which
/// holds one group's writes whatever the dispatch size.
pub struct SharedTable {
    /// The test name without the pattern.
    pub name: &'static str,
    /// The CSV's `family` column.
    pub family: &'static str,
    /// The CSV's `format` column: the table's GLSL type.
    pub format: &'static str,
    /// One element of the table.
    pub layout: Layout,
    /// The kernel of each pattern.
    pub kernel: fn(Pattern) -> KernelId,
    /// What one group leaves in the table in each pattern.
    pub expected: fn(Pattern) -> Contents,
}

impl Spec for SharedTable {
    type Variant = ();
    /// The host-visible buffer group 0's table is copied into.
    type Resources<'g> = Buffer<'g>;

    fn tests(&self) -> Vec<(Suite, (), Pattern)> {
        each(Suite::Write, [()], &Pattern::ALL)
    }

    fn name(&self, _: ()) -> String {
        self.name.into()
    }

    fn columns(&self, _: ()) -> Columns {
        Columns {
            family: self.family,
            resource: "shared memory",
            format: self.format.into(),
        }
    }

    fn bytes_per_load(&self, _: ()) -> Option<u32> {
        Some(self.layout.bytes() as u32)
    }

    fn kernel(&self, _: (), p: Pattern) -> KernelId {
        (self.kernel)(p)
    }

    /// Verified from the memory written (see [`Spec::verify_writes`]), not per thread.
    fn reference(&self, _: (), _: Pattern, _: &[u8]) -> Vec<ThreadSum> {
        Vec::new()
    }

    fn create<'g>(&self, shared: &Shared<'g>) -> Result<Buffer<'g>> {
        Buffer::new(
            shared.gpu,
            &format!("{} result", self.family.replace('_', " ")),
            SHARED_ELEMENTS as u64 * self.layout.bytes() as u64,
            vk::BufferUsageFlags::STORAGE_BUFFER | vk::BufferUsageFlags::TRANSFER_DST,
            Memory::Readback,
        )
    }

    fn bindings<'a, 'g>(
        &self,
        result: &'a Buffer<'g>,
        _: &'a Shared<'g>,
        _: (),
    ) -> Vec<(u32, Binding<'a, 'g>)> {
        vec![(0, Binding::StorageBuffer(result, result.size))]
    }

    fn verify_writes(
        &self,
        result: &Buffer<'_>,
        shared: &Shared<'_>,
        _: (),
        p: Pattern,
        _groups: u32,
        dispatch: &mut Dispatch<'_>,
    ) -> Option<Checked> {
        let expected = (self.expected)(p);
        let target = Target::Direct(result);
        Some(verify(
            shared,
            target,
            result,
            self.layout,
            "element",
            expected,
            dispatch,
        ))
    }
}

/// `--verify` of the stores of format `f` in pattern `p` through `target`: a 32×32 image
/// (whose kernels address texels in two dimensions) or a texel buffer of [`ELEMENTS`] texels.
pub fn verify_texel_stores(
    shared: &Shared<'_>,
    target: Target<'_, '_>,
    readback: &Buffer<'_>,
    f: Format,
    p: Pattern,
    dispatch: &mut Dispatch<'_>,
) -> Checked {
    let (kind, layout) = format_layout(f);
    let stores = match target {
        Target::Image(_) => stores_2d(p, kind),
        Target::Buffer(_) | Target::Direct(_) => stores_1d(p, kind, ELEMENTS),
    };
    let expected = final_contents(&stores, ELEMENTS, layout);
    verify(
        shared, target, readback, layout, "texel", expected, dispatch,
    )
}

/// Where a write test's memory is.
pub enum Target<'a, 'g> {
    /// A device-local buffer, cleared to zero and copied to a read-back buffer.
    Buffer(&'a Buffer<'g>),
    /// A writable image, cleared to zero and copied to a read-back buffer.
    Image(&'a Image<'g>),
    /// A host-visible buffer that the kernel's group 0 copies its shared memory into (the
    /// shared-memory kernels): filled with ones first, so a missing copy cannot pass.
    Direct(&'a Buffer<'g>),
}

/// `--verify` of a write test: clears `target`, runs `dispatch`, reads back `elements`
/// elements of `layout` (through `readback` unless direct) and compares them with `expected`
/// (corrupted first under `--fault reference`).
pub fn verify(
    shared: &Shared<'_>,
    target: Target<'_, '_>,
    readback: &Buffer<'_>,
    layout: Layout,
    unit: &'static str,
    mut expected: Contents,
    dispatch: &mut Dispatch<'_>,
) -> Checked {
    shared.gpu.submit(|d, cmd| match &target {
        Target::Buffer(b) => record_clear(d, cmd, b, 0),
        Target::Image(i) => i.record_clear(d, cmd, false),
        Target::Direct(b) => record_clear(d, cmd, b, 0xFFFF_FFFF),
    })?;
    dispatch()?;
    let bytes = expected.len() * layout.bytes();
    shared.gpu.submit(|d, cmd| match &target {
        Target::Buffer(b) => record_readback(d, cmd, b, readback, bytes as u64),
        Target::Image(i) => i.record_copy_to(d, cmd, readback),
        Target::Direct(_) => record_full_barrier(d, cmd),
    })?;
    let source = match &target {
        Target::Direct(b) => *b,
        _ => readback,
    };
    let got = decode(layout, &source.read_bytes(bytes)?);
    if shared.fault == Some(Fault::Reference) {
        for e in expected.iter_mut().step_by(7) {
            e[0] ^= 0x5A;
        }
    }
    Ok(compare(layout, unit, &expected, &got))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn one_address_atomics_run_a_fixed_size_per_compute_unit() {
        // Whatever calibration chose, as long as it allows it: one group per CU on one address.
        assert_eq!(atomic_groups(Pattern::Uniform, 4096, Some(132)), 132);
        assert_eq!(atomic_groups(Pattern::Uniform, 3000, Some(132)), 132);
        assert_eq!(
            atomic_groups(Pattern::Uniform, 4096, None),
            UNKNOWN_COMPUTE_UNITS
        );
        // Never more than an explicit or calibrated size allows.
        assert_eq!(atomic_groups(Pattern::Uniform, 8, Some(132)), 8);
        // The other patterns keep the calibrated size.
        for p in [Pattern::Linear, Pattern::Random] {
            assert_eq!(atomic_groups(p, 4096, Some(132)), 4096);
        }
    }

    const FLOAT4: Layout = Layout {
        channel: Channel::Float,
        channels: 4,
    };

    #[test]
    fn every_store_pattern_leaves_the_same_memory_in_any_order() {
        for p in Pattern::ALL {
            for kind in [Kind::Float, Kind::Unorm8, Kind::Uint] {
                assert!(last_store_is_unique(&stores_1d(p, kind, ELEMENTS)), "{p:?}");
                assert!(last_store_is_unique(&stores_1d(p, kind, SHARED_ELEMENTS)));
                assert!(last_store_is_unique(&stores_2d(p, kind)), "{p:?} 2-D");
            }
        }
        // The check can fail: the load suite's linear pattern (element t + i) has threads
        // store different iterations' values to one element, so the winner would be a race.
        let load_style: Vec<Store> = (0..256)
            .flat_map(|t| {
                (0..PER_THREAD).map(move |i| Store {
                    thread: t,
                    iteration: i,
                    element: (t + i) as usize,
                    value: store_value(Kind::Float, t, i),
                })
            })
            .collect();
        assert!(!last_store_is_unique(&load_style));
    }

    #[test]
    fn the_patterns_cover_what_the_readme_says() {
        let touched = |s: &[Store]| {
            let mut e: Vec<usize> = s.iter().map(|s| s.element).collect();
            e.sort();
            e.dedup();
            e.len()
        };
        assert_eq!(
            touched(&stores_1d(Pattern::Uniform, Kind::Float, ELEMENTS)),
            256
        );
        assert_eq!(
            touched(&stores_1d(Pattern::Linear, Kind::Float, ELEMENTS)),
            1024
        );
        assert_eq!(
            touched(&stores_1d(Pattern::Random, Kind::Float, ELEMENTS)),
            1024
        );
        assert_eq!(touched(&stores_2d(Pattern::Uniform, Kind::Float)), 256);
        assert_eq!(touched(&stores_2d(Pattern::Linear, Kind::Float)), 1024);
        assert_eq!(touched(&stores_2d(Pattern::Random, Kind::Float)), 1024);
        // Random is a permutation of the group's threads.
        let mut starts: Vec<u32> = (0..256)
            .map(|t| store_start_1d(Pattern::Random, t))
            .collect();
        starts.sort();
        assert_eq!(starts, (0..256).collect::<Vec<_>>());
    }

    #[test]
    fn values_are_exact_in_every_format_and_never_zero() {
        for seed in 0..256 {
            for i in 0..PER_THREAD {
                for v in store_value(Kind::Float, seed, i) {
                    assert_eq!(half::f16::from_f64(v).to_f64(), v);
                    assert!(v != 0.0 && (-32.0..64.0).contains(&v));
                }
                for v in store_value(Kind::Uint, seed, i) {
                    assert_eq!(v as u32 % 2, 1);
                }
            }
        }
    }

    #[test]
    fn a_kernel_that_skips_its_last_stores_fails() {
        // As the GPU would leave it without the last iteration of every thread.
        for p in Pattern::ALL {
            let all = stores_1d(p, Kind::Float, ELEMENTS);
            let expected = final_contents(&all, ELEMENTS, FLOAT4);
            let short: Vec<Store> = all
                .iter()
                .filter(|s| s.iteration < PER_THREAD - 1)
                .copied()
                .collect();
            let got = final_contents(&short, ELEMENTS, FLOAT4);
            let m = compare(FLOAT4, "element", &expected, &got).unwrap_err();
            assert!(m.count >= 1, "{p:?}");
            assert!(compare(FLOAT4, "element", &expected, &expected).is_ok());
        }
    }

    #[test]
    fn atomic_sums_scale_with_the_groups() {
        let one = atomics(Atomic::Add, Pattern::Uniform, 1, ELEMENTS);
        // Iteration i: every thread adds (t & 7) + 1 + i to element i.
        let per_group: u64 = (0..256u64).map(|t| (t & 7) + 1).sum();
        assert_eq!(one[0][0], per_group);
        assert_eq!(one[5][0], per_group + 256 * 5);
        assert_eq!(one[300][0], 0);
        let three = atomics(Atomic::Add, Pattern::Uniform, 3, ELEMENTS);
        assert_eq!(three[5][0], 3 * one[5][0]);
        let f = atomics(Atomic::FloatAdd, Pattern::Linear, 2, ELEMENTS);
        assert_eq!(f32::from_bits(f[0][0] as u32), 2.0);
        let cas = atomics(Atomic::CompSwap, Pattern::Random, 4, ELEMENTS);
        assert_eq!(cas[3][0], 3 | 0x8000_0000);
        assert_eq!(cas[600][0], 0);
        let wide = atomics(Atomic::Add64, Pattern::Uniform, 1, ELEMENTS);
        assert!(
            wide[0][0] > u32::MAX as u64,
            "the 64-bit sums carry into the high word"
        );
    }

    #[test]
    fn unorm_tolerates_one_step_and_floats_none() {
        let unorm = Layout {
            channel: Channel::Unorm8,
            channels: 1,
        };
        assert!(compare(unorm, "texel", &[[10, 0, 0, 0]], &[[11, 0, 0, 0]]).is_ok());
        assert!(compare(unorm, "texel", &[[10, 0, 0, 0]], &[[12, 0, 0, 0]]).is_err());
        let m = compare(FLOAT4, "element", &[[1, 2, 3, 4]], &[[1, 2, 7, 4]]).unwrap_err();
        assert_eq!((m.index, m.component, m.count), (0, 2, 1));
    }
}
