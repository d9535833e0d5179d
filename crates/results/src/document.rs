//! The `--json` document's context as types: its device entries and the top-level fields read back, filled by the writer and read by the report and the fleet.

use serde::de::DeserializeOwned;
use serde::{Deserialize, Deserializer, Serialize};
use serde_json::Value;
use std::collections::BTreeMap;

/// The parts of a `perftest --json` document read back besides its `results` (which are
/// read as [`Row`](crate::row::Row)s). Fields it does not name are ignored; a field that is
/// missing or of another type reads as empty, never as an error: before these types the
/// readers picked these fields by key and passed over what they did not find.
#[derive(Clone, Debug, Default, PartialEq, Deserialize)]
pub struct Document {
    /// One entry per device run, in run order. An entry that does not read as a [`Device`]
    /// (a hand-edited file) is left out: the device then has no entry, as a reader that
    /// found no usable entry had none.
    #[serde(default, deserialize_with = "devices")]
    pub devices: Vec<Device>,
    /// The run's arguments, the program first (`None` where the file has no list of them).
    #[serde(default, deserialize_with = "lenient")]
    pub command_line: Option<Vec<String>>,
}

impl Document {
    /// The document's parts from its parsed JSON (a document that is no object has none).
    pub fn from_value(doc: &Value) -> Document {
        Document::deserialize(doc).unwrap_or_default()
    }

    /// The entry of device `index` (the first, should a file name one index twice).
    pub fn device(&self, index: u32) -> Option<&Device> {
        self.devices.iter().find(|d| d.id.index == index)
    }
}

/// One device's entry in `devices`: its properties, features, limits and calibration.
/// Every field but `index` may be missing (a file older than the field reads it empty);
/// `Option` fields the writer may leave unknown are written as `null`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Device {
    /// Which device: its index, name, type and PCI ids.
    #[serde(flatten)]
    pub id: DeviceId,
    #[serde(default)]
    pub driver_name: String,
    #[serde(default)]
    pub driver_info: String,
    /// The driver version, decoded as its vendor numbers it.
    #[serde(default)]
    pub driver_version: String,
    /// The Vulkan version (`1.3.277`).
    #[serde(default)]
    pub api_version: String,
    /// The device UUID (`xxxxxxxx-xxxx-…`): one GPU of a fleet.
    #[serde(default)]
    pub uuid: Option<String>,
    /// Streaming multiprocessors / compute units, where an extension tells.
    #[serde(default)]
    pub compute_units: Option<u32>,
    /// The extension `compute_units` came from.
    #[serde(default)]
    pub compute_units_source: Option<String>,
    #[serde(default)]
    pub subgroup_size: Option<u32>,
    /// Nanoseconds per timestamp tick.
    #[serde(default)]
    pub timestamp_period_ns: f64,
    /// The compute queue's timestamp bits (`None`: no compute queue found).
    #[serde(default)]
    pub timestamp_valid_bits: Option<u32>,
    /// Each feature perftest asks about, by its Vulkan name, and whether the device has
    /// it (a map: a file older than a feature lacks its name).
    #[serde(default)]
    pub features: BTreeMap<String, bool>,
    /// The optional device extensions perftest enabled.
    #[serde(default)]
    pub extensions_used: Vec<String>,
    #[serde(default)]
    pub limits: Limits,
    /// The run's calibration on this device (`None`: a run that calibrates nothing).
    #[serde(default)]
    pub calibration: Option<Calibration>,
    /// Seconds spent, in total and by phase: added when the device's tests end, so an
    /// interrupted run (and a file older than it) has none, and no key.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub time_s: Option<BTreeMap<String, f64>>,
}

/// What names a device in both result files: its index, name, type and PCI ids, the JSON
/// entry's first keys (`index`, `name`, `type`, `vendor_id`, `device_id`) and a row's first
/// columns (`device_index`, `device_name`, `device_type`, `vendor_id`, `device_id`). The
/// writer makes it once per device and gives it to both; a [`Row`](crate::row::Row) spells
/// the columns out, a CSV record being flat (the csv crate writes no flattened struct).
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct DeviceId {
    /// The device's index (`--device N`), as the rows' `device_index`.
    pub index: u32,
    #[serde(default)]
    pub name: String,
    /// `discrete`, `integrated`, `cpu`, … as the rows' `device_type`.
    #[serde(default, rename = "type")]
    pub device_type: String,
    /// PCI vendor id as hex (`0x10de`).
    #[serde(default)]
    pub vendor_id: String,
    /// PCI device id as hex (`0x2330`).
    #[serde(default)]
    pub device_id: String,
}

/// The device limits the document keeps, by their Vulkan names.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(default, rename_all = "camelCase")]
pub struct Limits {
    pub max_compute_shared_memory_size: u32,
    pub max_compute_work_group_invocations: u32,
    pub max_compute_work_group_count: [u32; 3],
    pub max_uniform_buffer_range: u32,
    pub max_storage_buffer_range: u32,
    pub max_push_constants_size: u32,
    pub max_texel_buffer_elements: u32,
    #[serde(rename = "maxImageDimension2D")]
    pub max_image_dimension_2d: u32,
}

/// How the run calibrated the device: the dispatch size, the warm-up, the clock it held.
/// The fields after `warmup_ms` are newer than the first documents: `None` where missing.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct Calibration {
    /// Workgroups per dispatch.
    pub groups: u32,
    /// Whether `groups` was found by calibration (not given with `--groups`).
    pub auto: bool,
    /// The baseline kernel's time at `groups`, ms.
    pub baseline_full_ms: f64,
    /// How long the warm-up ran, ms.
    pub warmup_ms: f64,
    /// Whether the warm-up saw the clock settle.
    pub warmup_settled: Option<bool>,
    /// The clock the warm-up's first window read, MHz.
    pub warmup_first_clock_mhz: Option<f64>,
    /// The clock when the device was opened, before any work.
    pub open_clock_mhz: Option<f64>,
    /// How the clock was measured.
    pub clock_method: Option<String>,
    /// The steady clock after warm-up (the only name older documents give it).
    pub clock_mhz: Option<f64>,
    /// The steady clock after warm-up, under its newer name (written as `clock_mhz` too).
    pub steady_clock_mhz: Option<f64>,
    /// The fraction of the steady clock below which a row counts as throttled.
    pub clock_floor: Option<f64>,
}

impl Calibration {
    /// The steady clock, MHz, under either name.
    pub fn steady_mhz(&self) -> Option<f64> {
        self.steady_clock_mhz.or(self.clock_mhz)
    }
}

/// `T`, or `None` where the field is not one (a reader passes over what it cannot use).
fn lenient<'de, D: Deserializer<'de>, T: DeserializeOwned>(d: D) -> Result<Option<T>, D::Error> {
    Ok(serde_json::from_value(Value::deserialize(d)?).ok())
}

/// The entries of `devices` that read as a [`Device`]; none where it is no list.
fn devices<'de, D: Deserializer<'de>>(d: D) -> Result<Vec<Device>, D::Error> {
    let Value::Array(entries) = Value::deserialize(d)? else {
        return Ok(Vec::new());
    };
    Ok(entries
        .into_iter()
        .filter_map(|e| serde_json::from_value(e).ok())
        .collect())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::compare::read::read_path;
    use std::path::Path;

    /// A committed document, read as the report reads it.
    fn committed(path: &str) -> Document {
        let path = Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("../..")
            .join(path);
        read_path(&path)
            .unwrap()
            .document
            .expect("a JSON result has a document")
    }

    #[test]
    fn a_recent_document_reads_whole() {
        let doc = committed("results/h200x4/speed-1128/health.json.gz");
        assert_eq!(doc.devices.len(), 1);
        let d = doc.device(0).unwrap();
        assert!(d.id.name.contains("H200"), "{}", d.id.name);
        assert_eq!(d.uuid.as_deref().map(str::len), Some(36));
        assert!(d.subgroup_size.is_some() && d.compute_units.is_some());
        assert!(d.time_s.as_ref().is_some_and(|t| t.contains_key("total")));
        let c = d.calibration.as_ref().unwrap();
        assert!(c.steady_clock_mhz.is_some() && c.clock_method.is_some());
        assert_eq!(c.steady_mhz(), c.clock_mhz);
        assert!(d.limits.max_compute_work_group_count[0] > 0);
        assert!(d.features.contains_key("shaderDeviceClock"));
        assert!(doc.device(1).is_none());
        let args = doc.command_line.unwrap();
        assert!(args.iter().any(|a| a == "--json"), "{args:?}");
    }

    #[test]
    fn a_recent_documents_device_entries_write_back_as_they_were() {
        // Read into the writer's type (its `DeviceId` flattened) and written again, an
        // entry is the same keys with the same values as the file holds.
        let path = Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("../../results/h200x4/speed-1128/health.json.gz");
        let bytes = crate::gzip::decompress(&std::fs::read(path).unwrap()).unwrap();
        let doc: Value = serde_json::from_slice(&bytes.bytes).unwrap();
        let entries = doc["devices"].as_array().unwrap();
        assert!(!entries.is_empty());
        for entry in entries {
            let device: Device = serde_json::from_value(entry.clone()).unwrap();
            assert_eq!(serde_json::to_value(&device).unwrap(), *entry);
        }
    }

    #[test]
    fn an_older_document_lacks_newer_fields() {
        // Written before `steady_clock_mhz`, `clock_method` and `time_s`.
        let doc = committed("results/h100/all-run1.json.gz");
        let d = doc.device(0).unwrap();
        assert!(d.time_s.is_none());
        assert!(!d.features.contains_key("shaderDeviceClock"));
        let c = d.calibration.as_ref().unwrap();
        assert_eq!((c.steady_clock_mhz, c.clock_method.as_ref()), (None, None));
        assert!(c.steady_mhz().is_some() && c.steady_mhz() == c.clock_mhz);
    }

    #[test]
    fn what_does_not_read_is_left_out() {
        let doc = serde_json::json!({
            "devices": [{"name": "no index"}, {"index": 1, "uuid": "u", "limits": 7},
                        {"index": 2, "uuid": "v", "future": true}],
            "command_line": [1, 2],
        });
        let doc = Document::from_value(&doc);
        assert_eq!(doc.devices.len(), 1);
        assert_eq!(doc.device(2).unwrap().uuid.as_deref(), Some("v"));
        assert_eq!(doc.command_line, None);
        let none = Document::from_value(&serde_json::json!({"devices": {}}));
        assert_eq!(none, Document::default());
    }
}
