//! The JSON result file: every row plus the full context (devices, limits, features,
//! calibration, provenance), written when the run ends (a regular file atomically).

use super::{result_row, Reporter, Row};
use crate::error::Failure;
use crate::gpu::{version_string, DeviceInfo};
use crate::kernels;
use crate::provenance;
use crate::runner::{Calibration, TimeSpent};
use anyhow::{Context as _, Result};
use perftest_results::gzip::Output;
use perftest_results::output::OutFile;
use serde_json::{json, Map, Value};
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
    devices: Vec<Value>,
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

fn device_json(d: &DeviceInfo, cal: Option<&Calibration>) -> Value {
    let l = &d.limits;
    json!({
        "index": d.index,
        "name": d.name,
        "type": d.device_type.name(),
        "vendor_id": format!("0x{:04x}", d.vendor_id),
        "device_id": format!("0x{:04x}", d.device_id),
        "driver_name": d.driver_name,
        "driver_info": d.driver_info,
        "driver_version": d.driver_version_string(),
        "api_version": version_string(d.api_version),
        "uuid": d.uuid_string(),
        "compute_units": d.compute_units.map(|(n, _)| n),
        "compute_units_source": d.compute_units.map(|(_, s)| s),
        "subgroup_size": d.subgroup_size,
        "timestamp_period_ns": d.timestamp_period,
        "timestamp_valid_bits": d.compute_queue.map(|(_, b)| b),
        "features": {
            "shaderSubgroupClock": d.features.shader_subgroup_clock,
            "shaderDeviceClock": d.features.shader_device_clock,
            "pipelineExecutableInfo": d.features.pipeline_executable_info,
            "shaderStorageImageExtendedFormats": d.features.shader_storage_extended_formats,
            "storageBuffer8BitAccess": d.features.storage_buffer_8bit,
            "storageBuffer16BitAccess": d.features.storage_buffer_16bit,
            "scalarBlockLayout": d.features.scalar_block_layout,
            "bufferDeviceAddress": d.features.buffer_device_address,
            "subgroupBallot": d.features.subgroup_ballot,
            "shaderBufferInt64Atomics": d.features.buffer_int64_atomics,
            "shaderBufferFloat32AtomicAdd": d.features.buffer_float32_atomic_add,
            "subgroupShuffle": d.features.subgroup_shuffle,
            "subgroupArithmetic": d.features.subgroup_arithmetic,
            "shaderFloat16": d.features.shader_float16,
            "shaderFloat64": d.features.shader_float64,
            "shaderInt64": d.features.shader_int64,
        },
        "extensions_used": extensions_used(d),
        "limits": {
            "maxComputeSharedMemorySize": l.max_compute_shared_memory_size,
            "maxComputeWorkGroupInvocations": l.max_compute_work_group_invocations,
            "maxComputeWorkGroupCount": l.max_compute_work_group_count,
            "maxUniformBufferRange": l.max_uniform_buffer_range,
            "maxStorageBufferRange": l.max_storage_buffer_range,
            "maxPushConstantsSize": l.max_push_constants_size,
            "maxTexelBufferElements": l.max_texel_buffer_elements,
            "maxImageDimension2D": l.max_image_dimension2_d,
        },
        "calibration": cal.map(|c| json!({
            "groups": c.groups,
            "auto": c.auto,
            "baseline_full_ms": c.baseline_full_ms,
            "warmup_ms": c.warmup_ms,
            "warmup_settled": c.warmup_settled,
            "warmup_first_clock_mhz": c.warmup_first_mhz,
            "open_clock_mhz": c.open_mhz,
            "clock_method": c.clock_method,
            "clock_mhz": c.clock_mhz,
            "steady_clock_mhz": c.clock_mhz,
            "clock_floor": crate::runner::CLOCK_FLOOR,
        })),
    })
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
        self.devices.push(device_json(device, calibration));
        Ok(())
    }

    fn end_device(&mut self, device: &DeviceInfo, spent: &TimeSpent) -> Result<()> {
        let mut time = Map::new();
        time.insert("total".into(), json!(round_ms(spent.total_s)));
        for (phase, s) in &spent.phases {
            time.insert(phase.name().into(), json!(round_ms(*s)));
        }
        time.insert("other".into(), json!(round_ms(spent.other_s())));
        if let Some(d) = self
            .devices
            .iter_mut()
            .rev()
            .find(|d| d["index"] == json!(device.index))
        {
            d["time_s"] = Value::Object(time);
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
