//! One device, many tests: builds the inputs once, then verifies or times each test.

use crate::catalog::{Family, Filter, Format, Pattern, TestCase};
use crate::data;
use crate::gpu::{Gpu, Instance};
use crate::kernels::KERNEL_COUNT;
use crate::pipeline::{Binding, Pipeline, PushConstants};
use crate::resources::{record_copy, Buffer, BufferView, Image, Memory, Sampler};
use anyhow::{Context as _, Result};
use ash::vk;
use std::collections::HashMap;

mod measurement;
mod timing;
pub use measurement::{Fault, Measurement, Mode, Settings, Stats, Status};
pub use timing::Calibration;

mod table {
    include!(concat!(env!("OUT_DIR"), "/kernel_table.rs"));
}
pub use table::{SPIRV, SPIRV_ASM};
const _: () = assert!(SPIRV.len() == KERNEL_COUNT);

/// A pipeline built up front (borrowed) or just now (owned).
pub(crate) enum PipelineRef<'a, 'g> {
    Cached(&'a Pipeline<'g>),
    Built(Pipeline<'g>),
}

impl<'g> std::ops::Deref for PipelineRef<'_, 'g> {
    type Target = Pipeline<'g>;
    fn deref(&self) -> &Pipeline<'g> {
        match self {
            PipelineRef::Cached(p) => p,
            PipelineRef::Built(p) => p,
        }
    }
}

/// Whether a shader may declare `f` for a storage image or texel buffer on this device
/// (the extended formats need `shaderStorageImageExtendedFormats`).
fn storage_format_declarable(gpu: &Gpu<'_>, f: Format) -> bool {
    !f.is_extended_storage_format() || gpu.info.features.storage_image_extended_formats
}

/// Whether `e` (or anything it wraps) is VK_ERROR_DEVICE_LOST.
pub fn is_device_lost(e: &anyhow::Error) -> bool {
    e.chain()
        .any(|c| c.downcast_ref::<vk::Result>() == Some(&vk::Result::ERROR_DEVICE_LOST))
}

/// Everything the tests read, created once per device.
pub struct Runner<'g> {
    gpu: &'g Gpu<'g>,
    instance: &'g Instance,
    settings: Settings,
    data: Vec<u8>,
    input: Buffer<'g>,
    views: HashMap<Format, BufferView<'g>>,
    images: HashMap<Format, Image<'g>>,
    /// A copy of the input for storage texel buffer views (a view's format must support
    /// every texel usage of its buffer, so these cannot share the uniform one).
    _storage_input: Buffer<'g>,
    storage_views: HashMap<Format, BufferView<'g>>,
    storage_images: HashMap<Format, Image<'g>>,
    /// Device address of the input, where buffer device addresses are enabled.
    address: u64,
    nearest: Sampler<'g>,
    linear: Sampler<'g>,
    output: Buffer<'g>,
    /// Dispatch size, clock and warm-up decided for this device.
    pub calibration: Calibration,
    /// Pipelines built up front, or why building one failed.
    pipelines: HashMap<TestCase, std::result::Result<Pipeline<'g>, String>>,
}

/// Tests run so far in this process (for fault injection).
static TESTS_RUN: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);

impl<'g> Runner<'g> {
    /// Uploads the input and creates every view, image and sampler the device supports.
    /// Builds the pipelines of `tests` up front (so no driver compilation idles the GPU
    /// between timed tests and lets its clocks drop), then calibrates and warms up.
    pub fn new(
        gpu: &'g Gpu<'g>,
        instance: &'g Instance,
        settings: Settings,
        tests: &[TestCase],
    ) -> Result<Self> {
        let data = data::input();
        let size = data.len() as u64;
        let mut usage = vk::BufferUsageFlags::UNIFORM_TEXEL_BUFFER
            | vk::BufferUsageFlags::STORAGE_BUFFER
            | vk::BufferUsageFlags::UNIFORM_BUFFER
            | vk::BufferUsageFlags::TRANSFER_DST
            | vk::BufferUsageFlags::TRANSFER_SRC;
        if gpu.info.features.buffer_device_address {
            usage |= vk::BufferUsageFlags::SHADER_DEVICE_ADDRESS;
        }
        let input = Buffer::new(gpu, "input", size, usage, Memory::DeviceLocal)?;
        let storage_input = Buffer::new(
            gpu,
            "storage input",
            size,
            vk::BufferUsageFlags::STORAGE_TEXEL_BUFFER | vk::BufferUsageFlags::TRANSFER_DST,
            Memory::DeviceLocal,
        )?;
        let address = if gpu.info.features.buffer_device_address {
            input.device_address()
        } else {
            0
        };
        let mut staging = Buffer::new(
            gpu,
            "staging",
            size,
            vk::BufferUsageFlags::TRANSFER_SRC,
            Memory::Upload,
        )?;
        staging.write(&data)?;
        // Room for the largest dispatch any test may run (verify writes one vec4 per thread).
        let max_groups = settings
            .groups
            .unwrap_or(timing::FULL_GROUPS)
            .max(timing::FULL_GROUPS);
        let output_size = max_groups as u64 * 256 * 16;
        let bindable = gpu.info.limits.max_storage_buffer_range as u64;
        if output_size > bindable {
            anyhow::bail!(
                "--groups {max_groups} needs a {output_size}-byte output buffer, more than this \
                 device can bind (maxStorageBufferRange = {bindable}); use at most {} groups",
                bindable / 4096
            );
        }
        let output = Buffer::new(
            gpu,
            "output",
            output_size,
            vk::BufferUsageFlags::STORAGE_BUFFER | vk::BufferUsageFlags::TRANSFER_DST,
            Memory::Readback,
        )?;

        let mut views = HashMap::new();
        let mut images = HashMap::new();
        let mut storage_views = HashMap::new();
        let mut storage_images = HashMap::new();
        for f in Format::ALL {
            let props = instance.format_properties(gpu.info, f.vk());
            if props
                .buffer_features
                .contains(vk::FormatFeatureFlags::UNIFORM_TEXEL_BUFFER)
            {
                views.insert(
                    f,
                    BufferView::new(gpu, &input, f.vk(), 1024 * f.bytes() as u64)?,
                );
            }
            let needed =
                vk::FormatFeatureFlags::SAMPLED_IMAGE | vk::FormatFeatureFlags::TRANSFER_DST;
            if props.optimal_tiling_features.contains(needed) {
                images.insert(
                    f,
                    Image::new_sampled(gpu, f.vk_name(), f.vk(), data::TEXTURE_SIZE)?,
                );
            }
            let declarable = storage_format_declarable(gpu, f);
            if declarable
                && props
                    .buffer_features
                    .contains(vk::FormatFeatureFlags::STORAGE_TEXEL_BUFFER)
            {
                storage_views.insert(
                    f,
                    BufferView::new(gpu, &storage_input, f.vk(), 1024 * f.bytes() as u64)?,
                );
            }
            let needed =
                vk::FormatFeatureFlags::STORAGE_IMAGE | vk::FormatFeatureFlags::TRANSFER_DST;
            if declarable && props.optimal_tiling_features.contains(needed) {
                storage_images.insert(
                    f,
                    Image::new_storage(gpu, f.vk_name(), f.vk(), data::TEXTURE_SIZE)?,
                );
            }
        }
        gpu.submit(|d, cmd| {
            record_copy(d, cmd, &staging, &input, size);
            record_copy(d, cmd, &staging, &storage_input, size);
            for image in images.values().chain(storage_images.values()) {
                image.record_fill(d, cmd, &input);
            }
        })
        .context("uploading the input data")?;
        let mut runner = Runner {
            gpu,
            instance,
            settings,
            data,
            input,
            views,
            images,
            _storage_input: storage_input,
            storage_views,
            storage_images,
            address,
            nearest: Sampler::new(gpu, vk::Filter::NEAREST)?,
            linear: Sampler::new(gpu, vk::Filter::LINEAR)?,
            output,
            calibration: Calibration::default(),
            pipelines: HashMap::new(),
        };
        runner.pipelines = runner.build_pipelines(tests);
        runner.calibration = runner
            .calibrate()
            .context("calibrating the dispatch size")?;
        Ok(runner)
    }

    /// Why `test` cannot run on this device, if it cannot.
    pub fn unsupported_reason(&self, test: &TestCase) -> Option<String> {
        let features = self.gpu.info.features;
        if test.pattern == Pattern::UniformBroadcast && !features.subgroup_ballot {
            return Some(
                "subgroup BASIC + BALLOT operations are not supported in compute shaders".into(),
            );
        }
        let feature = |ok: bool, name: &str| (!ok).then(|| format!("the device lacks {name}"));
        match test.family {
            Family::PackedFloat3 => {
                return feature(features.scalar_block_layout, "scalarBlockLayout")
            }
            Family::SmallType { bits: 8 } => {
                return feature(features.storage_buffer_8bit, "storageBuffer8BitAccess")
            }
            Family::SmallType { .. } => {
                return feature(features.storage_buffer_16bit, "storageBuffer16BitAccess")
            }
            Family::BufferReference { .. } => {
                return feature(
                    features.buffer_device_address,
                    "bufferDeviceAddress (Vulkan 1.2)",
                )
            }
            _ => {}
        }
        let f = test.family.format()?;
        let props = self.instance.format_properties(self.gpu.info, f.vk());
        let lacks =
            |what: &str, list: &str| Some(format!("{} lacks {what} in {list}", f.vk_name()));
        match test.family {
            Family::TypedBuffer(_) if !self.views.contains_key(&f) => {
                lacks("UNIFORM_TEXEL_BUFFER", "bufferFeatures")
            }
            Family::TextureLoad(_) | Family::TextureSample(..) if !self.images.contains_key(&f) => {
                lacks("SAMPLED_IMAGE or TRANSFER_DST", "optimalTilingFeatures")
            }
            Family::TextureSample(_, Filter::Bilinear)
                if !props
                    .optimal_tiling_features
                    .contains(vk::FormatFeatureFlags::SAMPLED_IMAGE_FILTER_LINEAR)
                    || (self.settings.fault == Some(Fault::NoLinearFilter)
                        && f.channel_type() == crate::catalog::ChannelType::Float32) =>
            {
                Some(format!(
                    "{} lacks SAMPLED_IMAGE_FILTER_LINEAR (linear filtering of this format is optional in Vulkan)",
                    f.vk_name()
                ))
            }
            Family::StorageTexelBuffer(_) | Family::StorageImage(_)
                if !storage_format_declarable(self.gpu, f) =>
            {
                Some(format!(
                    "{} in a shader needs shaderStorageImageExtendedFormats, which the device lacks",
                    f.vk_name()
                ))
            }
            Family::StorageTexelBuffer(_) if !self.storage_views.contains_key(&f) => {
                lacks("STORAGE_TEXEL_BUFFER", "bufferFeatures")
            }
            Family::StorageImage(_) if !self.storage_images.contains_key(&f) => {
                lacks("STORAGE_IMAGE or TRANSFER_DST", "optimalTilingFeatures")
            }
            _ => None,
        }
    }

    /// Runs one test in the configured mode; failures become rows, never panics.
    pub fn run(&self, test: &TestCase) -> Measurement {
        let mut m = Measurement {
            test: *test,
            status: Status::Ok,
            stats: None,
            reason: String::new(),
            groups: self.calibration.groups,
            shader_stats: Vec::new(),
            device_lost: false,
        };
        if let Some(reason) = self.unsupported_reason(test) {
            m.groups = 0;
            m.status = Status::Unsupported;
            m.reason = reason;
            return m;
        }
        if let Err(e) = self.run_supported(test, &mut m) {
            m.status = Status::Error;
            m.stats = None;
            m.reason = format!("{e:#}");
            m.device_lost = is_device_lost(&e);
        }
        m
    }

    fn run_supported(&self, test: &TestCase, m: &mut Measurement) -> Result<()> {
        // Counted over the whole process, so an injected fault hits one device only.
        let n = TESTS_RUN.fetch_add(1, std::sync::atomic::Ordering::Relaxed) + 1;
        match self.settings.fault {
            Some(Fault::DeviceLost) if n == 2 => {
                return Err(anyhow::Error::new(vk::Result::ERROR_DEVICE_LOST))
                    .context("vkQueueSubmit (injected by --fault device-lost)")
            }
            Some(Fault::OutOfMemory) if n == 2 => {
                return Err(anyhow::Error::new(vk::Result::ERROR_OUT_OF_DEVICE_MEMORY))
                    .context("allocating the pipeline (injected by --fault out-of-memory)")
            }
            _ => {}
        }
        let pipeline = self.pipeline_for(test)?;
        let pipeline = &*pipeline;
        m.shader_stats = pipeline.statistics.clone();
        let (groups, estimate_ms, note) = self.size_dispatch(test, pipeline)?;
        m.groups = groups;
        m.reason = note;
        match self.settings.mode {
            Mode::Time => {
                m.stats = self.time(test, pipeline, groups, estimate_ms)?;
                if m.stats.is_none() {
                    m.status = Status::Error;
                    m.reason = "the timestamps gave no positive duration".into();
                }
            }
            Mode::Verify => {
                if let Err(mismatch) = self.verify(test, pipeline, groups)? {
                    m.status = Status::Mismatch;
                    m.reason = mismatch.to_string();
                }
            }
        }
        Ok(())
    }

    /// The test's pipeline: the one built up front, else built now.
    pub(crate) fn pipeline_for(&self, test: &TestCase) -> Result<PipelineRef<'_, 'g>> {
        match self.pipelines.get(test) {
            Some(Ok(p)) => Ok(PipelineRef::Cached(p)),
            Some(Err(e)) => anyhow::bail!("{e}"),
            None => Ok(PipelineRef::Built(self.pipeline(test)?)),
        }
    }

    /// Builds the pipelines of the supported `tests` on several threads (creating pipelines
    /// and descriptor sets of different objects is thread-safe in Vulkan).
    fn build_pipelines(
        &self,
        tests: &[TestCase],
    ) -> HashMap<TestCase, std::result::Result<Pipeline<'g>, String>> {
        let todo: Vec<TestCase> = tests
            .iter()
            .filter(|t| self.unsupported_reason(t).is_none())
            .copied()
            .collect();
        let threads = std::thread::available_parallelism()
            .map_or(4, |n| n.get())
            .min(8);
        let chunk = todo.len().div_ceil(threads).max(1);
        std::thread::scope(|s| {
            let handles: Vec<_> = todo
                .chunks(chunk)
                .map(|part| {
                    s.spawn(move || {
                        part.iter()
                            .map(|t| (*t, self.pipeline(t).map_err(|e| format!("{e:#}"))))
                            .collect::<Vec<_>>()
                    })
                })
                .collect();
            handles
                .into_iter()
                .flat_map(|h| h.join().unwrap_or_default())
                .collect()
        })
    }

    pub(crate) fn pipeline(&self, test: &TestCase) -> Result<Pipeline<'g>> {
        let spirv = SPIRV[test.kernel().index()];
        let out = (2, Binding::StorageBuffer(&self.output, self.output.size));
        let size = self.input.size;
        let bindings: Vec<(u32, Binding<'_, 'g>)> = match test.family {
            Family::TypedBuffer(f) => vec![(0, Binding::TexelBuffer(&self.views[&f])), out],
            Family::RawBuffer { .. } => vec![(0, Binding::StorageBuffer(&self.input, size)), out],
            // 1024 elements of the type: std430 strides 4, 8, 16 (vec3 too) and 16 bytes.
            Family::StructuredBuffer { width } => {
                let stride = if width == 3 { 16 } else { 4 * width as u64 };
                vec![(0, Binding::StorageBuffer(&self.input, 1024 * stride)), out]
            }
            Family::PackedFloat3 => vec![(0, Binding::StorageBuffer(&self.input, 1024 * 12)), out],
            Family::SmallType { bits } => vec![
                (
                    0,
                    Binding::StorageBuffer(&self.input, 1024 * bits as u64 / 8),
                ),
                out,
            ],
            Family::SharedMemory => vec![(0, Binding::StorageBuffer(&self.input, size)), out],
            Family::BufferReference { .. } | Family::PushConstant => vec![out],
            Family::StorageTexelBuffer(f) => {
                vec![
                    (0, Binding::StorageTexelBuffer(&self.storage_views[&f])),
                    out,
                ]
            }
            Family::StorageImage(f) => {
                vec![(0, Binding::StorageImage(&self.storage_images[&f])), out]
            }
            Family::ConstantBuffer => vec![(0, Binding::UniformBuffer(&self.input, size)), out],
            Family::Control(_) => vec![out],
            Family::TextureLoad(f) => vec![(0, Binding::SampledImage(&self.images[&f])), out],
            Family::TextureSample(f, filter) => {
                let sampler = match filter {
                    Filter::Nearest => &self.nearest,
                    Filter::Bilinear => &self.linear,
                };
                vec![
                    (0, Binding::SampledImage(&self.images[&f])),
                    (1, Binding::Sampler(sampler)),
                    out,
                ]
            }
        };
        Pipeline::new(self.gpu, spirv, &bindings)
            .with_context(|| format!("building the pipeline for {}", test.name()))
    }

    pub(crate) fn constants(&self, test: &TestCase, write_index: u32) -> PushConstants {
        let mut array = [0u8; 96];
        array.copy_from_slice(&self.data[..96]);
        PushConstants {
            elements_mask: 0,
            write_index,
            read_start: test.family.read_start(),
            address: self.address,
            array,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_kernel_has_spirv_and_assembly() {
        for k in crate::kernels::all() {
            assert!(SPIRV[k.index()].len() > 100, "{}", k.stem());
            assert!(
                SPIRV_ASM[k.index()].contains("OpEntryPoint GLCompute"),
                "{}",
                k.stem()
            );
        }
    }
}
