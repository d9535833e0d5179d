//! Test families: the [`Spec`] each family module implements, and the registry the rest of
//! the crate iterates (the runner, the catalog and the reporters never name a family).

use crate::data::{Mismatch, ThreadSum, TEXTURE_SIZE};
use crate::format::{ChannelType, Format};
use crate::kernels::{named, KernelId, Part};
use crate::model::Fault;
use crate::model::{Pattern, Suite};
use anyhow::Result;
use ash::vk;
use perftest_gpu::pipeline::Binding;
use perftest_gpu::resources::{Buffer, BufferView, Image, Memory, Shape, Usage};
use perftest_gpu::{Gpu, Instance};
use std::collections::HashMap;

/// Declares the registry, one line per family, in run order within each suite (an extended
/// run puts every family's uniform-load probes last).
macro_rules! registry {
    ($($family:path,)*) => {
        /// Every family, in run order.
        pub static REGISTRY: &[&dyn Family] = &[$(&$family,)*];
    };
}

// One folder per group of the README's suites table; branch and pitfalls are one family each.
mod branch;
mod formats;
mod instructions;
mod loads;
mod matrix;
mod memory;
mod pitfalls;
mod writes;

registry! {
    loads::storage_texel_buffer::StorageTexelBuffer,
    loads::storage_image::STORAGE_IMAGE,
    loads::typed_buffer::TypedBuffer,
    loads::raw_buffer::RawBuffer,
    loads::structured_buffer::StructuredBuffer,
    loads::constant_buffer::ConstantBuffer,
    loads::texture_load::TEXTURE_LOAD,
    loads::texture_sample::TextureSample,
    loads::control::Control,
    loads::small_type_buffer::SmallTypeBuffer,
    loads::buffer_reference::BufferReference,
    loads::push_constant::PushConstant,
    loads::shared_memory::SharedMemory,
    formats::texture_dims::TextureDims,
    formats::format_buffer::FormatBuffer,
    formats::format_texture::FormatTexture,
    formats::memory_location::MemoryLocation,
    writes::buffer_store::BufferStore,
    writes::texel_buffer_store::TexelBufferStore,
    writes::image_store::ImageStore,
    writes::shared_store::SHARED_STORE,
    writes::buffer_atomic::BufferAtomic,
    writes::image_atomic::ImageAtomic,
    writes::shared_atomic::SHARED_ATOMIC,
    instructions::alu::Alu,
    instructions::subgroup_ops::SubgroupOps,
    instructions::shared_bank::SharedBank,
    instructions::occupancy::Occupancy,
    branch::Branch,
    pitfalls::Pitfalls,
    matrix::dot_product::DotProduct,
    matrix::peak::Peak,
    matrix::coopmat::Coopmat,
    matrix::coopmat2::Coopmat2,
    memory::bandwidth::read::Bandwidth,
    memory::bandwidth::write::BandwidthWrite,
    memory::transfer::Transfer,
    memory::pointer_chase::PointerChase,
    memory::stride_chase::StrideChase,
}

/// The CSV's description of a test's source.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Columns {
    /// The `family` column, e.g. `typed_buffer`.
    pub family: &'static str,
    /// The `resource` column: the Vulkan descriptor type (or `none`, `push constants` …).
    pub resource: &'static str,
    /// The `format` column: a Vulkan format, or the GLSL type read from a plain buffer.
    pub format: String,
}

/// What every family reads from on one device: the input, uploaded once, and how to reach it.
pub struct Shared<'g> {
    pub gpu: &'g Gpu<'g>,
    pub instance: &'g Instance,
    /// The 16 KB of input bytes (see [`crate::data::input`]).
    pub data: Vec<u8>,
    /// The input in device-local memory, usable as every kind of buffer and as a copy source.
    pub input: Buffer<'g>,
    /// The input's device address, where buffer device addresses are enabled (else 0).
    pub address: u64,
    /// An injected fault, if any.
    pub fault: Option<Fault>,
}

impl<'g> Shared<'g> {
    /// The input bound whole as the storage buffer at binding 0, where the kernels that read
    /// it as words (`uint words[]`) declare it.
    pub fn input_binding(&self) -> Vec<(u32, Binding<'_, 'g>)> {
        vec![(0, Binding::StorageBuffer(&self.input, self.input.size))]
    }

    /// The device's support for `format`.
    pub fn format_properties(&self, format: Format) -> vk::FormatProperties {
        self.instance.format_properties(self.gpu.info, format.vk())
    }

    /// Why `format` cannot be declared in a storage image or texel buffer here, if it cannot
    /// (the extended formats need `shaderStorageImageExtendedFormats`).
    pub fn storage_format_undeclarable(&self, format: Format) -> Option<String> {
        (format.is_extended_storage_format()
            && !self.gpu.info.features.shader_storage_extended_formats)
            .then(|| {
                format!(
                    "{} in a shader needs shaderStorageImageExtendedFormats, which the device lacks",
                    format.vk_name()
                )
            })
    }
}

/// The verify dispatch of one test, recorded and submitted by the runner.
pub type Dispatch<'a> = dyn FnMut() -> Result<()> + 'a;

/// What `--verify` of a write test returns: `Ok(Ok(()))` when the memory matches the reference.
pub type Checked = Result<std::result::Result<(), Mismatch>>;

/// What a test's count (`loads_per_dispatch`, `gloads_per_s`, `loads_per_clk_per_cu`) counts:
/// the results' unit, the word its rows' `unit` column holds.
pub use perftest_results::Unit;

/// How a test's dependent-chain latency is measured: a kernel that runs one subgroup through
/// `ITERATIONS` (the first push-constant word) iterations of `ops_per_iteration` dependent
/// operations between two reads of the subgroup clock (see `runner/latency.rs`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Latency {
    /// The kernel (declared by the family's template).
    pub kernel: KernelId,
    /// Dependent operations per loop iteration.
    pub ops_per_iteration: u32,
    /// Operations to run, untimed, before the timed runs (in dispatches of at most
    /// `runner/latency.rs`'s chunk): a pointer chase walks its whole working set first, so
    /// that a set that fits a cache is in it.
    pub warm_ops: u64,
    /// Whether the caches are emptied before each chain instead of the walk of `warm_ops`
    /// (a pointer chase whose cycle is longer than that walk and the timed steps after it):
    /// the walk leaves in the caches only lines behind the chain's position, none of which
    /// its timed steps reach again, so what it does for them is to push out what the last
    /// chain (another order over the same lines) left there, which the runner's eviction fill
    /// does in a fraction of a millisecond instead of a second. The timed dispatches' own
    /// untimed steps (`warm_iterations`) still run first.
    pub evict_first: bool,
    /// The `readStart` of each further chain timed like the test's own (a pointer chase's
    /// chains of other seeds through the same lines): the row's latency is then the median
    /// over all chains, and their spread is reported beside it. Empty: the test's own only.
    pub chains: Vec<u32>,
    /// Iterations of the shorter timed run (the longer one runs twice as many); 0: the
    /// runner's default (a chain whose steps cost differently samples more of them).
    pub timed_iterations: u32,
    /// Iterations each timed dispatch runs first, untimed (its kernel takes them in the high 16
    /// bits of the iteration count): what must be in a cache that a new dispatch finds cold
    /// (an SM's L1). 0: none.
    pub warm_iterations: u32,
    /// Whether the test's own kernel, dispatched as one group with `elementsMask = N`, walks N
    /// iterations of the chain from where the last dispatch left it (a pointer chase): where
    /// the device has no shader-core clock (a CPU device, or no `shaderSubgroupClock`), the
    /// latency is then timed in nanoseconds with timestamps around such dispatches of two
    /// lengths.
    pub timestamped: bool,
    /// Whether the latency kernel (run by its first subgroup alone) writes the subgroup width
    /// it runs at (`gl_SubgroupSize`, a float) into the output buffer's last vec4: the lanes
    /// whose results the runner compares, which a driver may choose unlike the device's
    /// `subgroupSize` (docs/instructions.md, *The subgroup width*).
    pub reports_subgroup_size: bool,
}

impl Latency {
    /// The latency of `kernel`, every other field its default (one chain, no warming, the
    /// runner's iterations, timed with the subgroup clock).
    pub fn of(kernel: KernelId) -> Self {
        Latency {
            kernel,
            ops_per_iteration: 0,
            warm_ops: 0,
            evict_first: false,
            chains: Vec::new(),
            timed_iterations: 0,
            warm_iterations: 0,
            timestamped: false,
            reports_subgroup_size: false,
        }
    }

    /// The latency of `kernel`, `ops_per_iteration` dependent operations per iteration, which
    /// writes the subgroup width it runs at (the instruction and matrix kernels, whose lanes'
    /// results depend on it); every other field as [`Latency::of`].
    pub fn reporting_width(kernel: KernelId, ops_per_iteration: u32) -> Self {
        Latency {
            ops_per_iteration,
            reports_subgroup_size: true,
            ..Latency::of(kernel)
        }
    }
}

/// The kernel `<family><variant>_<pattern>` (a format's channel count or qualifier as the
/// variant), as the families that declare a kernel per format and pattern name them: a
/// `const fn`, so a name no template declares fails the build (`check_built!`).
pub(crate) const fn per_pattern(family: &str, variant: Part<'_>, p: Pattern) -> KernelId {
    named(&[
        Part::Text(family),
        variant,
        Part::Text("_"),
        Part::Text(p.ident()),
    ])
}

/// A family's chase at a working set none of its tests has: what the runner verifies and
/// times, as a latency test's, for its refinement of a curve's edge (see [`Spec::probe`]).
pub struct Probe<'a, 'g> {
    /// The row's test name (`latency: ByteAddressBuffer 176 KB`).
    pub name: String,
    /// The working set, bytes.
    pub bytes: u64,
    /// The probe's own chains, bound at 0 as its test's table is.
    pub table: Buffer<'g>,
    /// The family's state buffer, bound at 1 (the probe's chains start at line 0 in it).
    pub state: &'a Buffer<'g>,
    /// How its latency is measured, as a test's: its chains' `readStart`s after the first.
    pub latency: Latency,
    /// The first chain's `readStart`.
    pub read_start: u32,
    /// Each chain's successor of every line (chain `c` has `readStart` `read_start + c`):
    /// where a walk ends, for the verify run.
    pub next: Vec<Vec<u32>>,
}

impl<'g> Probe<'_, 'g> {
    /// The kernel's bindings (the runner adds its output at 2).
    pub fn bindings(&self) -> Vec<(u32, Binding<'_, 'g>)> {
        vec![
            (0, Binding::StorageBuffer(&self.table, self.table.size)),
            (1, Binding::StorageBuffer(self.state, self.state.size)),
        ]
    }

    /// The line chain `c` reaches after `steps` steps from line 0.
    pub fn reached(&self, c: usize, steps: u64) -> u32 {
        (0..steps).fold(0, |line, _| self.next[c][line as usize])
    }
}

/// Creates a device-local buffer with `usage` holding `bytes`, and its host-visible staging
/// copy (copied over by `record_copy`, in `record_upload` or a submission of the family's own).
pub fn upload<'g>(
    gpu: &'g Gpu<'g>,
    name: &str,
    bytes: &[u8],
    usage: vk::BufferUsageFlags,
) -> Result<(Buffer<'g>, Buffer<'g>)> {
    let size = bytes.len() as u64;
    let mut staging = Buffer::new(
        gpu,
        &format!("{name} (staging)"),
        size,
        vk::BufferUsageFlags::TRANSFER_SRC,
        Memory::Upload,
    )?;
    staging.write(bytes)?;
    let usage = usage | vk::BufferUsageFlags::TRANSFER_DST;
    let buffer = Buffer::new(gpu, name, size, usage, Memory::DeviceLocal)?;
    Ok((staging, buffer))
}

/// `Some("the device lacks NAME")` when `ok` is false.
pub fn lacks_feature(ok: bool, name: &str) -> Option<String> {
    (!ok).then(|| format!("the device lacks {name}"))
}

/// The names of the format features an image of `usage` needs ([`Usage::format_features`]),
/// for a row's `unsupported` reason.
fn feature_names(usage: Usage) -> &'static str {
    match usage {
        Usage::Sampled => "SAMPLED_IMAGE or TRANSFER_DST",
        Usage::Storage => "STORAGE_IMAGE or TRANSFER_DST",
        Usage::SampledStorage => "SAMPLED_IMAGE, STORAGE_IMAGE or TRANSFER_DST",
        Usage::Writable => "STORAGE_IMAGE, TRANSFER_SRC or TRANSFER_DST",
    }
}

/// 32×32 images of one use, one per format whose `optimalTilingFeatures` hold what the use
/// needs (and, for a storage image, that a shader can declare): shared by the texture,
/// storage-image and image-store families.
pub struct FormatImages<'g> {
    images: HashMap<Format, Image<'g>>,
    usage: Usage,
}

impl<'g> FormatImages<'g> {
    /// The images of `usage` this device offers.
    pub fn new(shared: &Shared<'g>, usage: Usage) -> Result<Self> {
        let needed = usage.format_features();
        let mut images = HashMap::new();
        for f in Format::ALL {
            let supported = shared
                .format_properties(f)
                .optimal_tiling_features
                .contains(needed);
            let declarable =
                usage == Usage::Sampled || shared.storage_format_undeclarable(f).is_none();
            if supported && declarable {
                let (gpu, name) = (shared.gpu, f.vk_name());
                let shape = Shape::square(TEXTURE_SIZE);
                let image = Image::new(gpu, name, f.vk(), shape, usage)?;
                images.insert(f, image);
            }
        }
        Ok(FormatImages { images, usage })
    }

    /// The image of `f`; only asked for a format [`FormatImages::unsupported`] accepts.
    pub fn get(&self, f: Format) -> &Image<'g> {
        &self.images[&f]
    }

    /// The image of `f` bound at 0, sampled or as a storage image as its use says; only asked
    /// for a format [`FormatImages::unsupported`] accepts.
    pub fn bindings(&self, f: Format) -> Vec<(u32, Binding<'_, 'g>)> {
        let image = self.get(f);
        let binding = match self.usage {
            Usage::Sampled => Binding::SampledImage(image),
            Usage::Storage | Usage::SampledStorage | Usage::Writable => {
                Binding::StorageImage(image)
            }
        };
        vec![(0, binding)]
    }

    /// Every image, in no particular order.
    pub fn values(&self) -> impl Iterator<Item = &Image<'g>> {
        self.images.values()
    }

    /// Records filling every image from `input` (cleared instead, for stores: each write
    /// test's `--verify` clears its image again).
    pub fn record_upload(&self, d: &ash::Device, cmd: vk::CommandBuffer, input: &Buffer<'_>) {
        for image in self.images.values() {
            match self.usage {
                Usage::Writable => image.record_clear(d, cmd, true),
                Usage::Sampled | Usage::Storage | Usage::SampledStorage => {
                    image.record_fill(d, cmd, input)
                }
            }
        }
    }

    /// Why there is no image of `f`, if there is none.
    pub fn unsupported(&self, shared: &Shared<'_>, f: Format) -> Option<String> {
        if self.usage != Usage::Sampled {
            if let Some(why) = shared.storage_format_undeclarable(f) {
                return Some(why);
            }
        }
        let needs = feature_names(self.usage);
        (!self.images.contains_key(&f))
            .then(|| format!("{} lacks {needs} in optimalTilingFeatures", f.vk_name()))
    }
}

/// Why the device cannot sample `f` with a linear filter, if it cannot (optional in Vulkan;
/// `--fault no-linear-filter` pretends so for the 32-bit float formats).
pub fn lacks_linear_filter(shared: &Shared<'_>, f: Format) -> Option<String> {
    let linear = shared
        .format_properties(f)
        .optimal_tiling_features
        .contains(vk::FormatFeatureFlags::SAMPLED_IMAGE_FILTER_LINEAR);
    let injected =
        shared.fault == Some(Fault::NoLinearFilter) && f.channel_type() == ChannelType::Float32;
    (!linear || injected).then(|| {
        format!(
            "{} lacks SAMPLED_IMAGE_FILTER_LINEAR (linear filtering of this format is optional in Vulkan)",
            f.vk_name()
        )
    })
}

/// Views of one buffer, 1024 elements each, for every format whose `bufferFeatures` hold a
/// texel-buffer usage (shared by the uniform and storage texel-buffer families).
pub struct TexelViews<'g> {
    views: HashMap<Format, BufferView<'g>>,
    usage: vk::FormatFeatureFlags,
}

impl<'g> TexelViews<'g> {
    /// Views of `buffer` for `usage` (`UNIFORM_TEXEL_BUFFER` or `STORAGE_TEXEL_BUFFER`; a
    /// storage format must also be declarable in a shader).
    pub fn new(
        shared: &Shared<'g>,
        buffer: &Buffer<'g>,
        usage: vk::FormatFeatureFlags,
    ) -> Result<Self> {
        let storage = usage == vk::FormatFeatureFlags::STORAGE_TEXEL_BUFFER;
        let mut views = HashMap::new();
        for f in Format::ALL {
            let supported = shared.format_properties(f).buffer_features.contains(usage);
            if supported && !(storage && shared.storage_format_undeclarable(f).is_some()) {
                let range = 1024 * f.bytes() as u64;
                views.insert(f, BufferView::new(shared.gpu, buffer, f.vk(), range)?);
            }
        }
        Ok(TexelViews { views, usage })
    }

    /// The view of `f` bound at 0, as the texel buffer of the views' usage; only asked for a
    /// format [`TexelViews::unsupported`] accepts.
    pub fn bindings(&self, f: Format) -> Vec<(u32, Binding<'_, 'g>)> {
        let view = &self.views[&f];
        let binding = if self.usage == vk::FormatFeatureFlags::STORAGE_TEXEL_BUFFER {
            Binding::StorageTexelBuffer(view)
        } else {
            Binding::TexelBuffer(view)
        };
        vec![(0, binding)]
    }

    /// Why there is no view of `f`, if there is none.
    pub fn unsupported(&self, shared: &Shared<'_>, f: Format) -> Option<String> {
        if self.usage == vk::FormatFeatureFlags::STORAGE_TEXEL_BUFFER {
            if let Some(why) = shared.storage_format_undeclarable(f) {
                return Some(why);
            }
        }
        let usage = if self.usage == vk::FormatFeatureFlags::STORAGE_TEXEL_BUFFER {
            "STORAGE_TEXEL_BUFFER"
        } else {
            "UNIFORM_TEXEL_BUFFER"
        };
        (!self.views.contains_key(&f))
            .then(|| format!("{} lacks {usage} in bufferFeatures", f.vk_name()))
    }
}

/// What a family module implements: its tests, kernels, resources and CPU reference.
pub trait Spec: Sync + 'static {
    /// One variant of the family (a format, a width …); each test is a variant and a pattern.
    type Variant: Copy + std::fmt::Debug + PartialEq;
    /// What the family creates on a device (views, images, samplers), borrowing the device.
    type Resources<'g>: Sync
    where
        Self: 'g;

    /// Every test of the family, in run order, with the suite it belongs to.
    fn tests(&self) -> Vec<(Suite, Self::Variant, Pattern)>;
    /// The name without the pattern, e.g. `Buffer<RGBA8>.Load`.
    fn name(&self, v: Self::Variant) -> String;
    /// The full test name, byte for byte as users know it.
    fn test_name(&self, v: Self::Variant, p: Pattern) -> String {
        format!("{} {}", self.name(v), p.name())
    }
    /// The CSV's `family`, `resource` and `format` columns.
    fn columns(&self, v: Self::Variant) -> Columns;
    /// Bytes each load brings into the shader (for bytes/s figures); `None` when it reads nothing.
    fn bytes_per_load(&self, v: Self::Variant) -> Option<u32>;
    /// The kernel that runs the test (declared by the family's GLSL template), from the table
    /// `build.rs` generates (an `id::` constant, or [`named`](crate::kernels::named)).
    fn kernel(&self, v: Self::Variant, p: Pattern) -> KernelId;
    /// The same kernel reading the clock its own work runs at (glsl/matrix/kernel_clock.glsl),
    /// where the family has one: the runner builds it instead of [`Spec::kernel`] on a device
    /// with a real-time clock in shaders, and the row's clock is what it read (for work whose
    /// clock the probe around it does not see: a batch of tensor-core multiply-adds).
    fn clock_kernel(&self, _v: Self::Variant, _p: Pattern) -> Option<KernelId> {
        None
    }
    /// The `readStart` push constant: byte offset of the first read.
    fn read_start(&self, _v: Self::Variant) -> u32 {
        0
    }
    /// The working set (bytes) where the test is a point of the curve whose edges the runner
    /// refines with [`Spec::probe`] (the storage-buffer chase's sweep); `None` for every other
    /// test.
    fn curve_size(&self, _v: Self::Variant) -> Option<u64> {
        None
    }
    /// The working set (bytes) the test runs over where it is a point of a sweep over sizes
    /// (its name ends with that size, as the suites spell it): the CSV's `working_set_bytes`,
    /// which the summary places the row by. By default its [`Spec::curve_size`].
    fn working_set(&self, v: Self::Variant) -> Option<u64> {
        self.curve_size(v)
    }
    /// Whether this is the test every ratio is relative to (exactly one in the registry).
    fn is_baseline(&self, _v: Self::Variant, _p: Pattern) -> bool {
        false
    }
    /// What each of the 256 threads of a workgroup sums, computed on the CPU from `input`.
    fn reference(&self, v: Self::Variant, p: Pattern, input: &[u8]) -> Vec<ThreadSum>;
    /// The reference on a device whose subgroups have `subgroup_size` invocations (for
    /// kernels whose result depends on it); by default [`Spec::reference`].
    fn reference_for(
        &self,
        v: Self::Variant,
        p: Pattern,
        input: &[u8],
        _subgroup_size: u32,
    ) -> Vec<ThreadSum> {
        self.reference(v, p, input)
    }
    /// Relative tolerance of the sums against the reference, as a fraction of Σ|term|.
    fn tolerance(&self, _v: Self::Variant) -> f32 {
        1e-5
    }
    /// Operations (loads, for a load test) each thread performs per dispatch.
    fn ops_per_thread(&self, _v: Self::Variant) -> u64 {
        crate::model::LOADS_PER_THREAD
    }
    /// What the counts of this test count.
    fn unit(&self, _v: Self::Variant) -> Unit {
        Unit::Loads
    }
    /// What one timed sample of `groups` workgroups counts (the `loads_per_dispatch` column):
    /// by default every thread's [`Spec::ops_per_thread`]; a self-timed test counts its own.
    fn ops_per_dispatch(&self, v: Self::Variant, groups: u32) -> u64 {
        groups as u64 * crate::model::THREADS_PER_GROUP * self.ops_per_thread(v)
    }
    /// Whether the test records and times its own commands (a copy, a fill, empty
    /// dispatches, a submission) instead of dispatches of a kernel from its template: the
    /// runner builds no pipeline for it and calls [`Spec::time_self`] and
    /// [`Spec::verify_self`].
    fn self_timed(&self, _v: Self::Variant) -> bool {
        false
    }
    /// The test of this family whose time this test's ratio is relative to (time over time),
    /// where it is not the baseline's throughput (the default).
    fn ratio_reference(&self, _v: Self::Variant) -> Option<Self::Variant> {
        None
    }
    /// The workgroups to dispatch when calibration chose `calibrated` on a device with
    /// `compute_units` (where known); by default `calibrated`.
    fn dispatch_groups(
        &self,
        _v: Self::Variant,
        _p: Pattern,
        calibrated: u32,
        _compute_units: Option<u32>,
    ) -> u32 {
        calibrated
    }
    /// Whether each timed dispatch of the test starts with the GPU's caches emptied of its
    /// data: the runner fills a buffer larger than any last-level cache before each one,
    /// outside the timed interval. By default false (what earlier dispatches left is kept).
    fn cold(&self, _v: Self::Variant) -> bool {
        false
    }
    /// Whether the test's kernels (its latency kernel too) write the subgroup width they run
    /// at (`gl_SubgroupSize`, as a float) into the output buffer's last vec4, from invocation
    /// 0 of group 0 at every dispatch: a test whose reference depends on the width. The
    /// runner then computes the reference at that width, not at the width the device
    /// reports, and the row carries it (`subgroup_size`): a driver may run a kernel at
    /// another width (lavapipe's shader cache keeps a kernel built at one width for another).
    fn reports_subgroup_size(&self, _v: Self::Variant) -> bool {
        false
    }
    /// Whether the test shares something with the other GPUs of its host — host memory and
    /// the host link, or the CPU's submissions timed with it: when several devices run at
    /// once, such tests run one device at a time. By default false (a kernel on the GPU's
    /// own memory, which another GPU's work does not disturb).
    fn shares_host(&self, _v: Self::Variant) -> bool {
        false
    }
    /// Whether the test's bytes cross the host link (a copy to or from system memory, a
    /// shader's reads of it): a figure above what the link carries says so. By default false.
    fn over_host_link(&self, _v: Self::Variant) -> bool {
        false
    }
    /// The test's latency kernel, if it has one.
    fn latency(&self, _v: Self::Variant) -> Option<Latency> {
        None
    }
    /// What lanes `0..min(subgroup_size, 64)` of the latency kernel write after
    /// `iterations` iterations, run with `readStart = start` (the test's own, or one of its
    /// [`Latency::chains`]) after the verify dispatch of the test's kernel with the same.
    fn latency_reference(
        &self,
        _v: Self::Variant,
        _input: &[u8],
        _iterations: u32,
        _subgroup_size: u32,
        _start: u32,
    ) -> Vec<ThreadSum> {
        Vec::new()
    }
    /// Creates the family's resources on a device.
    /// Test `v`'s chase at `bytes`, a working set none of the family's tests has (a multiple
    /// of 4 KB), where the family can make one: the runner bisects a latency curve's edge
    /// with such probes after the sweep. `None` (the default): it cannot.
    fn probe<'a, 'g>(
        &self,
        _res: &'a Self::Resources<'g>,
        _shared: &Shared<'g>,
        _v: Self::Variant,
        _bytes: u64,
    ) -> Option<Result<Probe<'a, 'g>>> {
        None
    }
    fn create<'g>(&self, shared: &Shared<'g>) -> Result<Self::Resources<'g>>;
    /// Records the copies that fill the resources from `shared.input` (already uploaded).
    fn record_upload(
        &self,
        _res: &Self::Resources<'_>,
        _shared: &Shared<'_>,
        _d: &ash::Device,
        _cmd: vk::CommandBuffer,
    ) {
    }
    /// Why the variant cannot run on this device, if it cannot (the row's `unsupported`
    /// reason); by default every variant runs everywhere.
    fn unsupported(
        &self,
        _res: &Self::Resources<'_>,
        _shared: &Shared<'_>,
        _v: Self::Variant,
    ) -> Option<String> {
        None
    }
    /// The descriptor bindings 0 and 1 of the kernel (binding 2, the output, is the
    /// runner's); by default none (push constants, device addresses, or nothing to read).
    fn bindings<'a, 'g>(
        &self,
        _res: &'a Self::Resources<'g>,
        _shared: &'a Shared<'g>,
        _v: Self::Variant,
    ) -> Vec<(u32, Binding<'a, 'g>)> {
        Vec::new()
    }
    /// The memory type the variant reads from, where the family chooses it (the CSV's
    /// `memory` column); `None` for the shared device-local input and images.
    fn memory(
        &self,
        _res: &Self::Resources<'_>,
        _shared: &Shared<'_>,
        _v: Self::Variant,
    ) -> Option<String> {
        None
    }
    /// A note on how the variant runs on this device, for the row's `reason` (e.g. how a
    /// divergent branch splits this device's subgroups); `None` by default.
    fn device_note(
        &self,
        _res: &Self::Resources<'_>,
        _shared: &Shared<'_>,
        _v: Self::Variant,
    ) -> Option<String> {
        None
    }
    /// A self-timed test's `samples` durations in ms (GPU timestamps), after `warmup` untimed
    /// runs of the same work; one sample is what [`Spec::ops_per_dispatch`] counts.
    fn time_self(
        &self,
        _res: &Self::Resources<'_>,
        _shared: &Shared<'_>,
        _v: Self::Variant,
        _warmup: u32,
        _samples: u32,
    ) -> Result<Vec<f64>> {
        anyhow::bail!("this test has no commands of its own to time")
    }
    /// Makes what a self-timed test's work needs (its buffers) ahead of [`Spec::time_self`],
    /// which makes them itself where this did not: the runner calls it before the test waits
    /// for the node, so that no other device waits through an allocation. Nothing by default.
    fn prepare_self(
        &self,
        _res: &Self::Resources<'_>,
        _shared: &Shared<'_>,
        _v: Self::Variant,
    ) -> Result<()> {
        Ok(())
    }
    /// Makes what the run's selected tests `tests` of the family need throughout the run and
    /// what is better made before any device times (a GB of host memory pinned stalls the
    /// driver's calls of every device of the process for a third of a second or more): the
    /// runner calls it once, while the device is set up, before the other families' resources
    /// are made: `tests` may hold tests the device cannot run, which the family skips (asking
    /// the runner which are supported would make every family's resources first). Nothing by
    /// default.
    fn prepare_run(
        &self,
        _res: &Self::Resources<'_>,
        _shared: &Shared<'_>,
        _tests: &[Self::Variant],
    ) -> Result<()> {
        Ok(())
    }
    /// `--verify` of a self-timed test: runs its work once and compares what it wrote with
    /// the CPU's expectation.
    fn verify_self(
        &self,
        _res: &Self::Resources<'_>,
        _shared: &Shared<'_>,
        _v: Self::Variant,
    ) -> Checked {
        anyhow::bail!("this test has no commands of its own to verify")
    }
    /// `--verify` of a test whose result is the memory it writes: resets that memory, runs
    /// `dispatch` (one dispatch of `groups` workgroups), reads the memory back and compares it
    /// with the CPU reference. `None` (the default): the runner compares each thread's output
    /// with [`Spec::reference`] instead.
    fn verify_writes(
        &self,
        _res: &Self::Resources<'_>,
        _shared: &Shared<'_>,
        _v: Self::Variant,
        _p: Pattern,
        _groups: u32,
        _dispatch: &mut Dispatch<'_>,
    ) -> Option<Checked> {
        None
    }
}

/// What a test is: everything the catalog, the runner and the reporters read of it, built
/// once from its family's [`Spec`] (see [`Family::describe`]) when the catalog is first used.
#[derive(Clone, Debug)]
pub struct TestInfo {
    /// The test's name, byte for byte as the original printed it where it has one.
    pub name: String,
    /// Its suite.
    pub suite: Suite,
    /// Where each thread starts, and how the loads are issued.
    pub pattern: Pattern,
    /// The CSV's family, resource and format columns.
    pub columns: Columns,
    /// The kernel that runs it (a self-timed test's names the kernel it dispatches, if any).
    pub kernel: KernelId,
    /// The same kernel reading the clock its work runs at, if any (see [`Spec::clock_kernel`]).
    pub clock_kernel: Option<KernelId>,
    /// Bytes each load brings into the shader; `None` for kernels that read nothing.
    pub bytes_per_load: Option<u32>,
    /// The `readStart` push constant.
    pub read_start: u32,
    /// Its working set where it is a point of the refined curve (see [`Spec::curve_size`]).
    pub curve_size: Option<u64>,
    /// Its working set where it is a point of a sweep (see [`Spec::working_set`]).
    pub working_set: Option<u64>,
    /// Whether it is the baseline every ratio is relative to.
    pub is_baseline: bool,
    /// Relative tolerance of the sums, as a fraction of Σ|term|.
    pub tolerance: f32,
    /// What its counts count.
    pub unit: Unit,
    /// Whether it records and times its own commands (see [`Spec::self_timed`]).
    pub self_timed: bool,
    /// The index (in its family) of the test its ratio is relative to, if not the baseline.
    pub ratio_reference: Option<usize>,
    /// Whether each timed dispatch starts with the caches emptied (see [`Spec::cold`]).
    pub cold: bool,
    /// Whether its kernels write the subgroup width they run at (see
    /// [`Spec::reports_subgroup_size`]).
    pub reports_subgroup_size: bool,
    /// Its dependent-chain latency kernel, if any, with that kernel's id.
    pub latency: Option<(Latency, KernelId)>,
    /// Whether it shares the host with other GPUs (see [`Spec::shares_host`]).
    pub shares_host: bool,
    /// Whether its bytes cross the host link (see [`Spec::over_host_link`]).
    pub over_host_link: bool,
}

/// A family as the rest of the crate sees it: its tests described once, and what they do,
/// addressed by their index in the family.
pub trait Family: Sync {
    /// Every test of the family, in its order; the catalog calls it once. Panics where a test
    /// names a kernel `build.rs` did not build: a unit test of the catalog catches that.
    fn describe(&self) -> Vec<TestInfo>;
    /// The CPU reference of test `i`.
    fn reference(&self, i: usize, input: &[u8]) -> Vec<ThreadSum>;
    /// The CPU reference of test `i` on a device with subgroups of `subgroup_size`.
    fn reference_for(&self, i: usize, input: &[u8], subgroup_size: u32) -> Vec<ThreadSum>;
    /// What one timed sample of test `i` of `groups` workgroups counts.
    fn ops_per_dispatch(&self, i: usize, groups: u32) -> u64;
    /// The workgroups test `i` dispatches when calibration chose `calibrated`.
    fn dispatch_groups(&self, i: usize, calibrated: u32, compute_units: Option<u32>) -> u32;
    /// The CPU reference of test `i`'s latency kernel (see [`Spec::latency_reference`]).
    fn latency_reference(
        &self,
        i: usize,
        input: &[u8],
        iterations: u32,
        subgroup_size: u32,
        start: u32,
    ) -> Vec<ThreadSum>;
    /// Creates the family's resources on a device.
    fn bind<'g>(&'static self, shared: &Shared<'g>) -> Result<Box<dyn Bound<'g> + 'g>>;
}

/// A family's resources on one device.
pub trait Bound<'g>: Sync {
    /// Records the copies that fill the resources from the uploaded input.
    fn record_upload(&self, shared: &Shared<'g>, d: &ash::Device, cmd: vk::CommandBuffer);
    /// Why test `i` cannot run here, if it cannot.
    fn unsupported(&self, shared: &Shared<'g>, i: usize) -> Option<String>;
    /// The bindings of test `i`'s kernel.
    fn bindings<'a>(&'a self, shared: &'a Shared<'g>, i: usize) -> Vec<(u32, Binding<'a, 'g>)>;
    /// The memory type test `i` reads from, where its family chooses it.
    fn memory(&self, shared: &Shared<'g>, i: usize) -> Option<String>;
    /// How test `i` runs on this device, for its row's `reason`, where its family says.
    fn device_note(&self, shared: &Shared<'g>, i: usize) -> Option<String>;
    /// `--verify` of test `i` from the memory it writes, if it is a write test (see
    /// [`Spec::verify_writes`]).
    fn verify_writes(
        &self,
        shared: &Shared<'g>,
        i: usize,
        groups: u32,
        dispatch: &mut Dispatch<'_>,
    ) -> Option<Checked>;
    /// The durations of a self-timed test (see [`Spec::time_self`]).
    fn time_self(
        &self,
        shared: &Shared<'g>,
        i: usize,
        warmup: u32,
        samples: u32,
    ) -> Result<Vec<f64>>;
    /// A self-timed test's buffers, made ahead (see [`Spec::prepare_self`]).
    fn prepare_self(&self, shared: &Shared<'g>, i: usize) -> Result<()>;
    /// What the run's tests `tests` (indices) need made at setup (see [`Spec::prepare_run`]).
    fn prepare_run(&self, shared: &Shared<'g>, tests: &[usize]) -> Result<()>;
    /// `--verify` of a self-timed test (see [`Spec::verify_self`]).
    fn verify_self(&self, shared: &Shared<'g>, i: usize) -> Checked;
    /// Test `i`'s chase at another working set (see [`Spec::probe`]).
    fn probe(&self, shared: &Shared<'g>, i: usize, bytes: u64) -> Option<Result<Probe<'_, 'g>>>;
}

/// Test `i` of `spec`.
fn at<S: Spec>(spec: &S, i: usize) -> (Suite, S::Variant, Pattern) {
    spec.tests()[i]
}

impl<S: Spec> Family for S {
    fn describe(&self) -> Vec<TestInfo> {
        let tests = self.tests();
        tests
            .iter()
            .map(|&(suite, v, p)| TestInfo {
                name: self.test_name(v, p),
                suite,
                pattern: p,
                columns: self.columns(v),
                kernel: self.kernel(v, p),
                clock_kernel: self.clock_kernel(v, p),
                bytes_per_load: self.bytes_per_load(v),
                read_start: self.read_start(v),
                curve_size: self.curve_size(v),
                working_set: self.working_set(v),
                is_baseline: self.is_baseline(v, p),
                tolerance: self.tolerance(v),
                unit: self.unit(v),
                self_timed: self.self_timed(v),
                ratio_reference: self
                    .ratio_reference(v)
                    .and_then(|r| tests.iter().position(|(_, w, _)| *w == r)),
                cold: self.cold(v),
                reports_subgroup_size: self.reports_subgroup_size(v),
                shares_host: self.shares_host(v),
                over_host_link: self.over_host_link(v),
                latency: self.latency(v).map(|l| {
                    let id = l.kernel;
                    (l, id)
                }),
            })
            .collect()
    }
    fn reference(&self, i: usize, input: &[u8]) -> Vec<ThreadSum> {
        let (_, v, p) = at(self, i);
        Spec::reference(self, v, p, input)
    }
    fn reference_for(&self, i: usize, input: &[u8], subgroup_size: u32) -> Vec<ThreadSum> {
        let (_, v, p) = at(self, i);
        Spec::reference_for(self, v, p, input, subgroup_size)
    }
    fn ops_per_dispatch(&self, i: usize, groups: u32) -> u64 {
        Spec::ops_per_dispatch(self, at(self, i).1, groups)
    }
    fn dispatch_groups(&self, i: usize, calibrated: u32, compute_units: Option<u32>) -> u32 {
        let (_, v, p) = at(self, i);
        Spec::dispatch_groups(self, v, p, calibrated, compute_units)
    }
    fn latency_reference(
        &self,
        i: usize,
        input: &[u8],
        iterations: u32,
        subgroup_size: u32,
        start: u32,
    ) -> Vec<ThreadSum> {
        Spec::latency_reference(self, at(self, i).1, input, iterations, subgroup_size, start)
    }
    fn bind<'g>(&'static self, shared: &Shared<'g>) -> Result<Box<dyn Bound<'g> + 'g>> {
        Ok(Box::new(Resources {
            spec: self,
            res: self.create(shared)?,
        }))
    }
}

/// A family's resources together with the family that interprets them.
struct Resources<'g, S: Spec> {
    spec: &'static S,
    res: S::Resources<'g>,
}

impl<'g, S: Spec> Bound<'g> for Resources<'g, S> {
    fn record_upload(&self, shared: &Shared<'g>, d: &ash::Device, cmd: vk::CommandBuffer) {
        self.spec.record_upload(&self.res, shared, d, cmd);
    }
    fn unsupported(&self, shared: &Shared<'g>, i: usize) -> Option<String> {
        self.spec.unsupported(&self.res, shared, at(self.spec, i).1)
    }
    fn bindings<'a>(&'a self, shared: &'a Shared<'g>, i: usize) -> Vec<(u32, Binding<'a, 'g>)> {
        self.spec.bindings(&self.res, shared, at(self.spec, i).1)
    }
    fn memory(&self, shared: &Shared<'g>, i: usize) -> Option<String> {
        self.spec.memory(&self.res, shared, at(self.spec, i).1)
    }
    fn device_note(&self, shared: &Shared<'g>, i: usize) -> Option<String> {
        self.spec.device_note(&self.res, shared, at(self.spec, i).1)
    }
    fn verify_writes(
        &self,
        shared: &Shared<'g>,
        i: usize,
        groups: u32,
        dispatch: &mut Dispatch<'_>,
    ) -> Option<Checked> {
        let (_, v, p) = at(self.spec, i);
        self.spec
            .verify_writes(&self.res, shared, v, p, groups, dispatch)
    }
    fn time_self(
        &self,
        shared: &Shared<'g>,
        i: usize,
        warmup: u32,
        samples: u32,
    ) -> Result<Vec<f64>> {
        self.spec
            .time_self(&self.res, shared, at(self.spec, i).1, warmup, samples)
    }
    fn prepare_self(&self, shared: &Shared<'g>, i: usize) -> Result<()> {
        self.spec
            .prepare_self(&self.res, shared, at(self.spec, i).1)
    }
    fn prepare_run(&self, shared: &Shared<'g>, tests: &[usize]) -> Result<()> {
        let all = self.spec.tests();
        let variants: Vec<S::Variant> = tests.iter().map(|&i| all[i].1).collect();
        self.spec.prepare_run(&self.res, shared, &variants)
    }
    fn verify_self(&self, shared: &Shared<'g>, i: usize) -> Checked {
        self.spec.verify_self(&self.res, shared, at(self.spec, i).1)
    }
    fn probe(&self, shared: &Shared<'g>, i: usize, bytes: u64) -> Option<Result<Probe<'_, 'g>>> {
        self.spec
            .probe(&self.res, shared, at(self.spec, i).1, bytes)
    }
}

/// Every test of a family that has one test per pattern of `patterns` for each of `variants`.
pub fn each<V: Copy>(
    suite: Suite,
    variants: impl IntoIterator<Item = V>,
    patterns: &[Pattern],
) -> Vec<(Suite, V, Pattern)> {
    variants
        .into_iter()
        .flat_map(|v| patterns.iter().map(move |&p| (suite, v, p)))
        .collect()
}
