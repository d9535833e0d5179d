//! One device, many tests: builds the inputs once, then verifies or times each test.

use crate::catalog::{Family, Filter, Format, TestCase};
use crate::data;
use crate::gpu::{Gpu, Instance};
use crate::kernels::KERNEL_COUNT;
use crate::pipeline::{Binding, Pipeline, PushConstants, ShaderStatistic};
use crate::resources::{record_copy, Buffer, BufferView, Image, Memory, Sampler};
use anyhow::{Context as _, Result};
use ash::vk;
use std::collections::HashMap;

mod timing;
pub use timing::{Calibration, MAX_DISPATCH_MS};

mod table {
    include!(concat!(env!("OUT_DIR"), "/kernel_table.rs"));
}
pub use table::{SHADERC_SPIRV_VERSION, SPIRV, SPIRV_ASM};
const _: () = assert!(SPIRV.len() == KERNEL_COUNT);

/// What a run does with each test.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Mode {
    /// Warm up, then time `samples` dispatches.
    Time,
    /// One dispatch with the output write on, compared with the CPU reference.
    Verify,
}

/// Deliberate faults, for testing that failures are caught (hidden `--fault`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum Fault {
    /// Compute the `--verify` reference from corrupted input: every test must mismatch.
    Reference,
    /// Record an invalid barrier: the validation layer must object.
    InvalidBarrier,
}

/// How each test is run.
#[derive(Clone, Copy, Debug)]
pub struct Settings {
    /// Workgroups per dispatch (256 threads each); `None` = calibrated per device.
    pub groups: Option<u32>,
    /// Untimed dispatches before the timed ones.
    pub warmup: u32,
    /// Timed dispatches; `None` = as many as fit the per-test time budget (5 to 30).
    pub samples: Option<u32>,
    /// Time or verify.
    pub mode: Mode,
    /// An injected fault, if any.
    pub fault: Option<Fault>,
}

/// Outcome of one test.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Status {
    /// Timed, or verified equal to the reference.
    Ok,
    /// The device lacks a feature the test needs; `reason` says which.
    Unsupported,
    /// `--verify` found a difference from the reference.
    Mismatch,
    /// A Vulkan call failed.
    Error,
}

impl Status {
    /// Lower-case name for reports.
    pub fn name(self) -> &'static str {
        match self {
            Status::Ok => "ok",
            Status::Unsupported => "unsupported",
            Status::Mismatch => "mismatch",
            Status::Error => "error",
        }
    }
}

/// Timing statistics of one test, per dispatch.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Stats {
    pub median_ms: f64,
    pub min_ms: f64,
    pub mean_ms: f64,
    /// Coefficient of variation (sample standard deviation / mean), in percent.
    pub cv_pct: f64,
    pub samples: u32,
}

impl Stats {
    /// Statistics of `times`; `None` when empty or not all finite and positive.
    pub fn from_times(times: &[f64]) -> Option<Stats> {
        if times.is_empty() || times.iter().any(|t| !t.is_finite() || *t <= 0.0) {
            return None;
        }
        let mut sorted = times.to_vec();
        sorted.sort_by(f64::total_cmp);
        let n = sorted.len();
        let median = if n % 2 == 1 {
            sorted[n / 2]
        } else {
            (sorted[n / 2 - 1] + sorted[n / 2]) / 2.0
        };
        let mean = sorted.iter().sum::<f64>() / n as f64;
        let var = if n > 1 {
            sorted.iter().map(|t| (t - mean).powi(2)).sum::<f64>() / (n - 1) as f64
        } else {
            0.0
        };
        Some(Stats {
            median_ms: median,
            min_ms: sorted[0],
            mean_ms: mean,
            cv_pct: 100.0 * var.sqrt() / mean,
            samples: n as u32,
        })
    }
}

/// The result of one test on one device: plain data for the reporters.
#[derive(Clone, Debug)]
pub struct Measurement {
    pub test: TestCase,
    pub status: Status,
    /// Present when timed successfully.
    pub stats: Option<Stats>,
    /// Why the test is unsupported, failed or mismatched; for an ok test, a note on how it
    /// ran (e.g. a dispatch capped to the watchdog budget); else empty.
    pub reason: String,
    /// Workgroups per dispatch actually run.
    pub groups: u32,
    /// The driver's statistics of the kernel, where the device reports them.
    pub shader_stats: Vec<ShaderStatistic>,
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
    nearest: Sampler<'g>,
    linear: Sampler<'g>,
    output: Buffer<'g>,
    /// Dispatch size, clock and warm-up decided for this device.
    pub calibration: Calibration,
}

impl<'g> Runner<'g> {
    /// Uploads the input and creates every view, image and sampler the device supports.
    pub fn new(gpu: &'g Gpu<'g>, instance: &'g Instance, settings: Settings) -> Result<Self> {
        let data = data::input();
        let size = data.len() as u64;
        let input = Buffer::new(
            gpu,
            "input",
            size,
            vk::BufferUsageFlags::UNIFORM_TEXEL_BUFFER
                | vk::BufferUsageFlags::STORAGE_BUFFER
                | vk::BufferUsageFlags::UNIFORM_BUFFER
                | vk::BufferUsageFlags::TRANSFER_DST
                | vk::BufferUsageFlags::TRANSFER_SRC,
            Memory::DeviceLocal,
        )?;
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
        let output = Buffer::new(
            gpu,
            "output",
            output_size,
            vk::BufferUsageFlags::STORAGE_BUFFER,
            Memory::Readback,
        )?;

        let mut views = HashMap::new();
        let mut images = HashMap::new();
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
        }
        gpu.submit(|d, cmd| {
            record_copy(d, cmd, &staging, &input, size);
            for image in images.values() {
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
            nearest: Sampler::new(gpu, vk::Filter::NEAREST)?,
            linear: Sampler::new(gpu, vk::Filter::LINEAR)?,
            output,
            calibration: Calibration::default(),
        };
        runner.calibration = runner
            .calibrate()
            .context("calibrating the dispatch size")?;
        Ok(runner)
    }

    /// Why `test` cannot run on this device, if it cannot.
    pub fn unsupported_reason(&self, test: &TestCase) -> Option<String> {
        let f = test.family.format()?;
        let props = self.instance.format_properties(self.gpu.info, f.vk());
        match test.family {
            Family::TypedBuffer(_) if !self.views.contains_key(&f) => Some(format!(
                "{} lacks UNIFORM_TEXEL_BUFFER in bufferFeatures",
                f.vk_name()
            )),
            Family::TextureLoad(_) | Family::TextureSample(..) if !self.images.contains_key(&f) => {
                Some(format!(
                    "{} lacks SAMPLED_IMAGE or TRANSFER_DST in optimalTilingFeatures",
                    f.vk_name()
                ))
            }
            Family::TextureSample(_, Filter::Bilinear)
                if !props
                    .optimal_tiling_features
                    .contains(vk::FormatFeatureFlags::SAMPLED_IMAGE_FILTER_LINEAR) =>
            {
                Some(format!(
                    "{} lacks SAMPLED_IMAGE_FILTER_LINEAR (linear filtering of this format is optional in Vulkan)",
                    f.vk_name()
                ))
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
        };
        if let Some(reason) = self.unsupported_reason(test) {
            m.status = Status::Unsupported;
            m.reason = reason;
            return m;
        }
        if let Err(e) = self.run_supported(test, &mut m) {
            m.status = Status::Error;
            m.stats = None;
            m.reason = format!("{e:#}");
        }
        m
    }

    fn run_supported(&self, test: &TestCase, m: &mut Measurement) -> Result<()> {
        let pipeline = self.pipeline(test)?;
        m.shader_stats = pipeline.statistics.clone();
        let (groups, note) = self.size_dispatch(test, &pipeline)?;
        m.groups = groups;
        m.reason = note;
        match self.settings.mode {
            Mode::Time => {
                m.stats = self.time(test, &pipeline, groups)?;
                if m.stats.is_none() {
                    m.status = Status::Error;
                    m.reason = "the timestamps gave no positive duration".into();
                }
            }
            Mode::Verify => {
                if let Err(mismatch) = self.verify(test, &pipeline, groups)? {
                    m.status = Status::Mismatch;
                    m.reason = mismatch.to_string();
                }
            }
        }
        Ok(())
    }

    pub(crate) fn pipeline(&self, test: &TestCase) -> Result<Pipeline<'g>> {
        let spirv = SPIRV[test.kernel().index()];
        let out = (2, Binding::StorageBuffer(&self.output, self.output.size));
        let size = self.input.size;
        let bindings: Vec<(u32, Binding<'_, 'g>)> = match test.family {
            Family::TypedBuffer(f) => vec![(0, Binding::TexelBuffer(&self.views[&f])), out],
            Family::RawBuffer { .. } => vec![(0, Binding::StorageBuffer(&self.input, size)), out],
            Family::StructuredBuffer { width } => vec![
                (
                    0,
                    Binding::StorageBuffer(&self.input, 1024 * 4 * width as u64),
                ),
                out,
            ],
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

    pub(crate) fn constants(test: &TestCase, write_index: u32) -> PushConstants {
        PushConstants {
            elements_mask: 0,
            write_index,
            read_start: test.family.read_start(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn stats_of_known_samples() {
        let s = Stats::from_times(&[3.0, 1.0, 2.0, 4.0]).unwrap();
        assert_eq!(
            (s.median_ms, s.min_ms, s.mean_ms, s.samples),
            (2.5, 1.0, 2.5, 4)
        );
        assert!((s.cv_pct - 100.0 * (5.0f64 / 3.0).sqrt() / 2.5).abs() < 1e-9);
        assert!(Stats::from_times(&[]).is_none());
        assert!(Stats::from_times(&[1.0, 0.0]).is_none());
    }

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
