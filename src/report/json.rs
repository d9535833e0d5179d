//! The JSON result file: every row plus the full context (devices, limits, features,
//! calibration, provenance), written when the run ends (a regular file atomically).

use super::{result_row, Reporter, Row};
use crate::error::Failure;
use crate::gpu::DeviceInfo;
use crate::kernels;
use crate::provenance;
use crate::runner::{Calibration, TimeSpent};
use anyhow::{Context as _, Result};
use perftest_results::document;
use perftest_results::gzip::Output;
use perftest_results::output::OutFile;
use serde_json::{json, Map, Value};
use std::collections::BTreeMap;
use std::io::Write;
use std::path::Path;

/// Collects rows and writes them at the end, to an output opened as every output is
/// ([`OutFile`]): a regular file (or one not there yet) through a temporary file beside it,
/// renamed into place, so an existing file is replaced whole or not at all; anything else
/// (`/dev/null`, `/dev/full`, a FIFO, a terminal) opened now and written in place, never
/// replaced. Symlinks are followed: the file they point to is written, the link stays.
pub struct Json {
    /// Where the document goes (`None` once written).
    out: Option<OutFile>,
    /// Gzip-compressed (a path ending in `.gz`).
    gzip: bool,
    devices: Vec<document::Device>,
    rows: Vec<Value>,
}

impl Json {
    /// Checks and opens the output now (a device or FIFO is opened at once: opening a FIFO
    /// waits for its reader), so that an unwritable, read-only or folder path fails before
    /// any test runs.
    pub fn create(path: &Path) -> Result<Self, Failure> {
        Ok(Json {
            out: Some(OutFile::open("--json", path, &[])?),
            gzip: perftest_results::gzip::is_gzip_path(path),
            devices: Vec::new(),
            rows: Vec::new(),
        })
    }
}

/// The device's entry in `devices`, in the vocabulary the results crate reads it back with.
fn device_entry(d: &DeviceInfo, cal: Option<&Calibration>) -> document::Device {
    let l = &d.limits;
    let f = &d.features;
    let features = [
        ("shaderSubgroupClock", f.shader_subgroup_clock),
        ("shaderDeviceClock", f.shader_device_clock),
        ("pipelineExecutableInfo", f.pipeline_executable_info),
        (
            "shaderStorageImageExtendedFormats",
            f.shader_storage_extended_formats,
        ),
        ("storageBuffer8BitAccess", f.storage_buffer_8bit),
        ("storageBuffer16BitAccess", f.storage_buffer_16bit),
        ("scalarBlockLayout", f.scalar_block_layout),
        ("bufferDeviceAddress", f.buffer_device_address),
        ("subgroupBallot", f.subgroup_ballot),
        ("shaderBufferInt64Atomics", f.buffer_int64_atomics),
        ("shaderBufferFloat32AtomicAdd", f.buffer_float32_atomic_add),
        ("subgroupShuffle", f.subgroup_shuffle),
        ("subgroupArithmetic", f.subgroup_arithmetic),
        ("shaderFloat16", f.shader_float16),
        ("shaderFloat64", f.shader_float64),
        ("shaderInt64", f.shader_int64),
    ];
    document::Device {
        id: super::device_id(d),
        driver_name: d.driver_name.clone(),
        driver_info: d.driver_info.clone(),
        driver_version: d.driver_version_string(),
        api_version: d.api_version_string(),
        uuid: Some(d.uuid_string()),
        compute_units: d.compute_units.map(|(n, _)| n),
        compute_units_source: d.compute_units.map(|(_, s)| s.to_string()),
        subgroup_size: Some(d.subgroup_size),
        // Through a JSON value an f32 is written as the f64 it widens to: as before.
        timestamp_period_ns: f64::from(d.timestamp_period),
        timestamp_valid_bits: d.compute_queue.map(|(_, b)| b),
        features: features
            .into_iter()
            .map(|(name, has)| (name.to_string(), has))
            .collect(),
        extensions_used: extensions_used(d).into_iter().map(String::from).collect(),
        limits: document::Limits {
            max_compute_shared_memory_size: l.max_compute_shared_memory_size,
            max_compute_work_group_invocations: l.max_compute_work_group_invocations,
            max_compute_work_group_count: l.max_compute_work_group_count,
            max_uniform_buffer_range: l.max_uniform_buffer_range,
            max_storage_buffer_range: l.max_storage_buffer_range,
            max_push_constants_size: l.max_push_constants_size,
            max_texel_buffer_elements: l.max_texel_buffer_elements,
            max_image_dimension_2d: l.max_image_dimension2_d,
        },
        calibration: cal.map(|c| document::Calibration {
            groups: c.groups,
            auto: c.auto,
            baseline_full_ms: c.baseline_full_ms,
            warmup_ms: c.warmup_ms,
            warmup_settled: Some(c.warmup_settled),
            warmup_first_clock_mhz: c.warmup_first_mhz,
            open_clock_mhz: c.open_mhz,
            clock_method: Some(c.clock_method.clone()),
            clock_mhz: c.clock_mhz,
            steady_clock_mhz: c.clock_mhz,
            clock_floor: Some(crate::runner::CLOCK_FLOOR),
        }),
        time_s: None,
    }
}

/// The optional device extensions perftest enables on this device.
fn extensions_used(d: &DeviceInfo) -> Vec<&'static str> {
    let f = d.features;
    let mut v = Vec::new();
    if f.shader_subgroup_clock {
        v.push("VK_KHR_shader_clock");
    }
    if f.pipeline_executable_info {
        v.push("VK_KHR_pipeline_executable_properties");
    }
    if f.buffer_float32_atomic_add {
        v.push("VK_EXT_shader_atomic_float");
    }
    if let Some((_, src)) = d.compute_units {
        v.push(src);
    }
    v
}

impl Reporter for Json {
    fn begin_device(
        &mut self,
        device: &DeviceInfo,
        calibration: Option<&Calibration>,
    ) -> Result<()> {
        self.devices.push(device_entry(device, calibration));
        Ok(())
    }

    fn end_device(&mut self, device: &DeviceInfo, spent: &TimeSpent) -> Result<()> {
        let mut time = BTreeMap::new();
        time.insert("total".to_string(), round_ms(spent.total_s));
        for (phase, s) in &spent.phases {
            time.insert(phase.name().to_string(), round_ms(*s));
        }
        time.insert("other".to_string(), round_ms(spent.other_s()));
        if let Some(d) = self
            .devices
            .iter_mut()
            .rev()
            .find(|d| d.id.index as usize == device.index)
        {
            d.time_s = Some(time);
        }
        Ok(())
    }

    fn row(&mut self, row: &Row<'_>) -> Result<()> {
        let mut obj = result_row(row).to_json().context("a JSON row")?;
        // The driver's statistics of the kernel: JSON only (a list, no CSV column).
        obj.insert(
            "shader_stats".into(),
            row.measurement
                .shader_stats
                .iter()
                .map(|s| json!({"executable": s.executable, "name": s.name, "value": s.value}))
                .collect(),
        );
        self.rows.push(Value::Object(obj));
        Ok(())
    }

    fn finish(&mut self, interrupted: bool) -> Result<()> {
        let kernels: Map<String, Value> = kernels::all()
            .iter()
            .map(|k| (k.name.to_string(), json!(provenance::spirv_hash(k))))
            .collect();
        let doc = json!({
            "tool": "perftest",
            "host": super::host(),
            "tool_version": provenance::TOOL_VERSION,
            "git_commit": provenance::GIT_COMMIT,
            "shaderc_version": provenance::SHADERC_VERSION,
            "command_line": std::env::args().collect::<Vec<_>>(),
            "interrupted": interrupted,
            "started": super::started_utc(),
            "wall_s": round_ms(super::wall_s()),
            "devices": self.devices,
            "kernel_spirv_hashes": kernels,
            "results": self.rows,
        });
        let out = self.out.take().context("JSON already written")?;
        let gzip = self.gzip;
        out.write_with(|file| {
            let mut out = std::io::BufWriter::new(Output::new(file, gzip));
            serde_json::to_writer_pretty(&mut out, &doc)?;
            out.write_all(b"\n")?;
            out.into_inner().map_err(|e| e.into_error())?.finish()?;
            Ok(())
        })
        // The reporters name the output before its error: the cause alone.
        .map_err(|e| anyhow::anyhow!("{}", e.root_cause()))
    }
}

/// Seconds to the millisecond (a document, not a measurement).
fn round_ms(s: f64) -> f64 {
    (s * 1000.0).round() / 1000.0
}
