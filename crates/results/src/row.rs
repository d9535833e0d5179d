//! One result row, typed: the CSV's columns and the JSON's row keys, written and read through serde.

use serde::{Deserialize, Deserializer, Serialize, Serializer};
use serde_json::Value;

use crate::vocab::{ClockEvents, Conditions, Mode, Status, Unit};

/// One result row: one (device, test) of a run, one field per column of [`COLUMNS`], in its
/// order (the CSV header is the field names). Numbers are written with the decimals their
/// column has always had (see [`num`]); a number that does not exist is `None` (an empty
/// cell, JSON `null`). Reading is lenient where files differ: a column an older file lacks
/// reads as empty, a count written as `4096.0` reads as 4096, a JSON `null` as empty text.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct Row {
    #[serde(deserialize_with = "whole")]
    pub device_index: u32,
    pub device_name: String,
    pub device_type: String,
    /// PCI id, hex (`0x10de`).
    pub vendor_id: String,
    pub device_id: String,
    pub driver: String,
    pub api_version: String,
    /// 1-based position of the test in the full suite (stable under `--filter`).
    #[serde(deserialize_with = "whole")]
    pub test_index: u32,
    pub test: String,
    pub family: String,
    pub resource: String,
    pub format: String,
    pub pattern: String,
    /// `time` or `verify`; `None` in files older than the column.
    #[serde(with = "crate::vocab::word_opt")]
    pub mode: Option<Mode>,
    /// Workgroups of the dispatch run; `None` for a test that never ran.
    #[serde(deserialize_with = "whole_opt")]
    pub groups: Option<u32>,
    #[serde(deserialize_with = "positive_count")]
    pub loads_per_dispatch: Option<u64>,
    #[serde(serialize_with = "fixed::<6, _>", deserialize_with = "non_negative")]
    pub ms_median: Option<f64>,
    #[serde(serialize_with = "fixed::<6, _>", deserialize_with = "non_negative")]
    pub ms_min: Option<f64>,
    #[serde(serialize_with = "fixed::<6, _>", deserialize_with = "non_negative")]
    pub ms_mean: Option<f64>,
    #[serde(serialize_with = "fixed::<3, _>", deserialize_with = "non_negative")]
    pub cv_pct: Option<f64>,
    #[serde(deserialize_with = "whole_opt")]
    pub samples: Option<u32>,
    /// Throughput over the baseline's; four significant digits at least (see [`significant`]).
    #[serde(serialize_with = "significant4", deserialize_with = "non_negative")]
    pub ratio: Option<f64>,
    #[serde(serialize_with = "fixed::<3, _>", deserialize_with = "non_negative")]
    pub gloads_per_s: Option<f64>,
    #[serde(serialize_with = "fixed::<3, _>", deserialize_with = "non_negative")]
    pub gbytes_per_s: Option<f64>,
    /// `ok`, `unsupported`, `mismatch`, `error` or `interrupted`; `None` in a file without
    /// the column.
    #[serde(with = "crate::vocab::word_opt")]
    pub status: Option<Status>,
    pub reason: String,
    #[serde(serialize_with = "fixed::<1, _>", deserialize_with = "non_negative")]
    pub clock_mhz: Option<f64>,
    #[serde(deserialize_with = "whole_opt")]
    pub compute_units: Option<u32>,
    #[serde(serialize_with = "fixed::<4, _>", deserialize_with = "non_negative")]
    pub loads_per_clk_per_cu: Option<f64>,
    #[serde(serialize_with = "fixed::<3, _>", deserialize_with = "non_negative")]
    pub bytes_per_clk_per_cu: Option<f64>,
    /// Untimed dispatches per test (`None` in files older than the column).
    #[serde(deserialize_with = "whole_opt")]
    pub warmup: Option<u32>,
    pub tool_version: String,
    pub git_commit: String,
    pub shaderc_version: String,
    pub spirv_hash: String,
    pub driver_version: String,
    /// As the device reports it (an `f32`, written as it prints: `1`, `1.0416666`).
    #[serde(serialize_with = "shortest", deserialize_with = "number_f32")]
    pub timestamp_period_ns: Option<f32>,
    #[serde(deserialize_with = "whole_opt")]
    pub timestamp_valid_bits: Option<u32>,
    pub conditions: Conditions,
    #[serde(serialize_with = "fixed::<2, _>", deserialize_with = "number")]
    pub drift_pct: Option<f64>,
    pub memory: String,
    #[serde(
        serialize_with = "fixed::<LATENCY_CLK_DECIMALS, _>",
        deserialize_with = "non_negative"
    )]
    pub latency_clk: Option<f64>,
    /// What the `loads` columns count: `loads`, `ops`, `flops`, `bytes`, …; `None` in
    /// files older than the column.
    #[serde(with = "crate::vocab::word_opt")]
    pub unit: Option<Unit>,
    #[serde(serialize_with = "fixed::<2, _>", deserialize_with = "non_negative")]
    pub latency_spread_pct: Option<f64>,
    #[serde(serialize_with = "fixed::<1, _>", deserialize_with = "non_negative")]
    pub driver_sm_mhz: Option<f64>,
    #[serde(serialize_with = "fixed::<1, _>", deserialize_with = "non_negative")]
    pub driver_mem_mhz: Option<f64>,
    #[serde(serialize_with = "fixed::<1, _>", deserialize_with = "non_negative")]
    pub power_w: Option<f64>,
    #[serde(serialize_with = "fixed::<0, _>", deserialize_with = "number")]
    pub temp_c: Option<f64>,
    pub clock_events: ClockEvents,
    /// The machine's name (`--host`, else the host name; empty in files older than the
    /// column): which GPUs share a machine.
    pub host: String,
    /// The device's UUID as Vulkan reports it (`deviceUUID`, as `--list-devices` prints it;
    /// empty in files older than the column): which GPU a row is from, across runs.
    pub device_uuid: String,
    /// Nanoseconds per operation of a dependent chain (the latency and instruction suites):
    /// `latency_clk` at the row's clock, or timed with timestamps around dispatches where the
    /// device has no shader-core clock (a CPU device); empty in files older than the column.
    #[serde(
        serialize_with = "fixed::<LATENCY_NS_DECIMALS, _>",
        deserialize_with = "non_negative"
    )]
    pub latency_ns: Option<f64>,
    /// The host CPU's data caches as the kernel reports them, in a CPU device's rows
    /// (lavapipe's device is the host CPU): `L1d 48 KB 12-way 64 B lines; L2 2 MB …`
    /// ([`crate::cpu_caches::cell`]); empty for a GPU, off Linux, and in files older than
    /// the column.
    #[serde(with = "crate::cpu_caches")]
    pub host_caches: Vec<crate::cpu_caches::CpuCache>,
    /// The subgroup width the row's kernel ran at, as the kernel read it (`gl_SubgroupSize`),
    /// for tests whose result depends on it (the subgroup operations): the width its
    /// reference replayed, which a driver may choose unlike the device's `subgroupSize`;
    /// empty for other tests and in files older than the column.
    #[serde(deserialize_with = "whole_opt")]
    pub subgroup_size: Option<u32>,
    /// The working set (bytes) the row's chase ran, for a point of a curve over the working
    /// set whose size the runner knows as a number (the latency sweep's rows, its edge
    /// probes); empty for other rows and in files older than the column. Read through
    /// [`Row::working_set`], which falls back to the size the name says.
    #[serde(deserialize_with = "whole_opt")]
    pub working_set_bytes: Option<u64>,
}

/// How a column's cells are typed where the format has types (JSON).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    /// A number (written empty / null when absent).
    Number,
    /// Text, even when it looks like a number (ids, hashes, versions).
    Text,
}

use Kind::{Number, Text};

/// The result columns, in order, with their kinds: the CSV header and the JSON row keys
/// ([`Row`]'s fields, in its order). New columns are only ever appended.
pub const COLUMNS: &[(&str, Kind)] = &[
    ("device_index", Number),
    ("device_name", Text),
    ("device_type", Text),
    ("vendor_id", Text),
    ("device_id", Text),
    ("driver", Text),
    ("api_version", Text),
    ("test_index", Number),
    ("test", Text),
    ("family", Text),
    ("resource", Text),
    ("format", Text),
    ("pattern", Text),
    ("mode", Text),
    ("groups", Number),
    ("loads_per_dispatch", Number),
    ("ms_median", Number),
    ("ms_min", Number),
    ("ms_mean", Number),
    ("cv_pct", Number),
    ("samples", Number),
    ("ratio", Number),
    ("gloads_per_s", Number),
    ("gbytes_per_s", Number),
    ("status", Text),
    ("reason", Text),
    ("clock_mhz", Number),
    ("compute_units", Number),
    ("loads_per_clk_per_cu", Number),
    ("bytes_per_clk_per_cu", Number),
    ("warmup", Number),
    ("tool_version", Text),
    ("git_commit", Text),
    ("shaderc_version", Text),
    ("spirv_hash", Text),
    ("driver_version", Text),
    ("timestamp_period_ns", Number),
    ("timestamp_valid_bits", Number),
    ("conditions", Text),
    ("drift_pct", Number),
    ("memory", Text),
    ("latency_clk", Number),
    ("unit", Text),
    ("latency_spread_pct", Number),
    ("driver_sm_mhz", Number),
    ("driver_mem_mhz", Number),
    ("power_w", Number),
    ("temp_c", Number),
    ("clock_events", Text),
    ("host", Text),
    ("device_uuid", Text),
    ("latency_ns", Number),
    ("host_caches", Text),
    ("subgroup_size", Number),
    ("working_set_bytes", Number),
];

impl Row {
    /// Whether the row ran and was timed (or verified).
    pub fn ok(&self) -> bool {
        self.status == Some(Status::Ok)
    }

    /// Whether the row is a probe of a latency curve's edge (a test's chase at a working set
    /// of its own, bisected after a timed sweep): a latency and no time of its own, which
    /// perftest writes for nothing else.
    pub fn is_probe(&self) -> bool {
        self.ok()
            && self.ms_median.is_none()
            && (self.latency_clk.is_some() || self.latency_ns.is_some())
    }

    /// The working set (bytes) of the row as a point of the curve `curve` names (the rows
    /// `<curve><size>`: `latency: ByteAddressBuffer ` and `1.25 MB`); `None` for a row of
    /// another test. The name says which curve a row is on; the size is `working_set_bytes`,
    /// what the runner ran, where the row has it. A file written before that column (every
    /// result committed before it) has the size only in the name, as the suites spell it:
    /// this is the one place a curve row's size is read from there.
    pub fn working_set(&self, curve: &str) -> Option<u64> {
        crate::size::on_curve(&self.test, curve, self.working_set_bytes)
    }

    /// Nanoseconds per load (operation) of a row that ran: the median dispatch time over
    /// the dispatch's loads, so that rows of different dispatch sizes compare.
    pub fn ns_per_op(&self) -> Option<f64> {
        let ms = self.ms_median.filter(|_| self.ok())?;
        let loads = self.loads_per_dispatch.filter(|l| *l > 0)?;
        Some(ms * 1e6 / loads as f64)
    }

    /// The row's own spread, % (`latency_spread_pct` for a latency row: the spread of its
    /// chains; else `cv_pct`, the spread of its samples).
    pub fn spread_pct(&self) -> Option<f64> {
        self.latency_spread_pct.or(self.cv_pct)
    }

    /// The row as a `--json` file's `results` entry: the CSV's cells keyed by column, a
    /// number column's cell as the number it prints (`0.135000` as 0.135, a count as an
    /// integer), an empty cell (number or text) as `null`.
    pub fn to_json(&self) -> serde_json::Result<serde_json::Map<String, Value>> {
        let Value::Object(mut obj) = serde_json::to_value(self)? else {
            unreachable!("a struct serialises to an object")
        };
        // The fixed-decimal columns serialise as their CSV text (`6.00`, which a number
        // cannot carry): JSON gets the number that text says, as the file always held.
        for (column, kind) in COLUMNS {
            if let Some(v) = obj.get_mut(*column) {
                let Value::String(text) = v else { continue };
                *v = match (kind, text.parse::<u64>(), text.parse::<f64>()) {
                    _ if text.is_empty() => Value::Null,
                    (Number, Ok(n), _) => Value::from(n),
                    (Number, _, Ok(x)) => Value::from(x),
                    _ => continue,
                };
            }
        }
        Ok(obj)
    }
}

/// The decimals `latency_clk` is written with.
pub const LATENCY_CLK_DECIMALS: usize = 2;
/// The decimals `latency_ns` is written with.
pub const LATENCY_NS_DECIMALS: usize = 3;

/// `v` as a file holds it, written with `decimals` and read back: what a reader of the file
/// (the summary) judges, where the writer must judge the same (the runner's edge probes).
/// Through the writer's own text rather than arithmetic rounding, which can land a half
/// the other way than `format!` does.
pub fn as_written(v: f64, decimals: usize) -> f64 {
    num(Some(v), decimals).parse().unwrap_or(v)
}

/// A number with `decimals`, or an empty cell when absent or not finite.
pub fn num(v: Option<f64>, decimals: usize) -> String {
    match v {
        Some(v) if v.is_finite() => format!("{v:.decimals$}"),
        _ => String::new(),
    }
}

/// `v` with at least four decimals and at least `digits` significant digits (a ratio of
/// 0.00065 keeps its digits, where four decimals would round it by 8 %).
pub fn significant(v: Option<f64>, digits: i32) -> String {
    match v {
        Some(v) if v.is_finite() && v != 0.0 => {
            let magnitude = v.abs().log10().floor() as i32;
            let decimals = (digits - 1 - magnitude).max(4) as usize;
            format!("{v:.decimals$}")
        }
        _ => num(v, 4),
    }
}

/// Writes a cell's text, or nothing (an empty cell, JSON `null`) when there is none.
fn cell<S: Serializer>(text: String, s: S) -> Result<S::Ok, S::Error> {
    if text.is_empty() {
        s.serialize_none()
    } else {
        s.serialize_str(&text)
    }
}

/// `v` with `D` decimals, as the CSV has always written it.
fn fixed<const D: usize, S: Serializer>(v: &Option<f64>, s: S) -> Result<S::Ok, S::Error> {
    cell(num(*v, D), s)
}

/// The ratio's text: see [`significant`].
fn significant4<S: Serializer>(v: &Option<f64>, s: S) -> Result<S::Ok, S::Error> {
    cell(significant(*v, 4), s)
}

/// An `f32` as it prints (its shortest exact text: `1`, `1.0416666`).
fn shortest<S: Serializer>(v: &Option<f32>, s: S) -> Result<S::Ok, S::Error> {
    cell(
        v.filter(|v| v.is_finite())
            .map_or_else(String::new, |v| v.to_string()),
        s,
    )
}

/// A cell as read: what a deserialiser of CSV (text) or JSON (numbers, text, null) gives.
/// A number keeps the text it was read from where the deserialiser gives it (a CSV cell, a
/// JSON string), so that an error quotes the file (`1e400`, not `inf`).
enum Given {
    Empty,
    Number(f64, String),
    Text(String),
}

impl<'de> Deserialize<'de> for Given {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct Visitor;
        impl<'de> serde::de::Visitor<'de> for Visitor {
            type Value = Given;
            fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
                f.write_str("a number, or an empty cell")
            }
            fn visit_unit<E>(self) -> Result<Given, E> {
                Ok(Given::Empty)
            }
            fn visit_none<E>(self) -> Result<Given, E> {
                Ok(Given::Empty)
            }
            fn visit_some<D: Deserializer<'de>>(self, d: D) -> Result<Given, D::Error> {
                Given::deserialize(d)
            }
            fn visit_bool<E>(self, v: bool) -> Result<Given, E> {
                Ok(Given::Text(v.to_string()))
            }
            fn visit_u64<E>(self, v: u64) -> Result<Given, E> {
                Ok(Given::Number(v as f64, v.to_string()))
            }
            fn visit_i64<E>(self, v: i64) -> Result<Given, E> {
                Ok(Given::Number(v as f64, v.to_string()))
            }
            // A CSV cell of more digits than 64 bits hold (`99999999999999999999999999999999999`)
            // is still a number: the csv crate hands it over as a 128-bit integer.
            fn visit_u128<E>(self, v: u128) -> Result<Given, E> {
                Ok(Given::Number(v as f64, v.to_string()))
            }
            fn visit_i128<E>(self, v: i128) -> Result<Given, E> {
                Ok(Given::Number(v as f64, v.to_string()))
            }
            fn visit_f64<E>(self, v: f64) -> Result<Given, E> {
                Ok(Given::Number(v, v.to_string()))
            }
            fn visit_str<E>(self, v: &str) -> Result<Given, E> {
                // CSV hands every cell over as text; JSON a number, or text where a file
                // was edited by hand.
                let v = v.trim();
                Ok(if v.is_empty() {
                    Given::Empty
                } else {
                    match v.parse::<f64>() {
                        Ok(x) => Given::Number(x, v.to_string()),
                        Err(_) => Given::Text(v.to_string()),
                    }
                })
            }
        }
        d.deserialize_any(Visitor)
    }
}

/// Whether `text` spells a number out of `f64`'s range (`1e400`), rather than `inf` or `NaN`.
fn out_of_range(text: &str) -> bool {
    text.trim_start_matches(['+', '-'])
        .starts_with(|c: char| c.is_ascii_digit() || c == '.')
}

/// A finite number, or `None` for an empty cell; anything else is an error that quotes the
/// cell (the reader names the file, line and column).
fn number<'de, D: Deserializer<'de>>(d: D) -> Result<Option<f64>, D::Error> {
    match Given::deserialize(d)? {
        Given::Empty => Ok(None),
        Given::Number(x, _) if x.is_finite() => Ok(Some(x)),
        Given::Number(_, t) if out_of_range(&t) => Err(serde::de::Error::custom(format!(
            "`{t}` is out of range (beyond ±1.8e308)"
        ))),
        Given::Number(_, t) | Given::Text(t) => {
            Err(serde::de::Error::custom(format!("`{t}` is not a number")))
        }
    }
}

/// [`number`] for a time, rate, clock or count: never below 0 (a negative cell is a damaged
/// or hand-edited file, which would otherwise read as a time of `-1.000`).
fn non_negative<'de, D: Deserializer<'de>>(d: D) -> Result<Option<f64>, D::Error> {
    match number(d)? {
        Some(x) if x < 0.0 => Err(serde::de::Error::custom(format!(
            "`{x}` is negative: a time, rate, clock or count is never below 0"
        ))),
        x => Ok(x),
    }
}

/// [`whole_opt`] for a count that divides a time (`loads_per_dispatch`): never 0, which
/// would compare a time unscaled beside times scaled per load.
fn positive_count<'de, D: Deserializer<'de>>(d: D) -> Result<Option<u64>, D::Error> {
    match whole_opt::<D, u64>(d)? {
        Some(0) => Err(serde::de::Error::custom(
            "`0` is no count of loads: a dispatch that ran performs at least one",
        )),
        n => Ok(n),
    }
}

/// [`number`], as the `f32` it was written from.
fn number_f32<'de, D: Deserializer<'de>>(d: D) -> Result<Option<f32>, D::Error> {
    Ok(number(d)?.map(|v| v as f32))
}

/// A count: a whole number (`4096`, or `4096.0` as older JSON files wrote it), or `None`
/// for an empty cell.
fn whole_opt<'de, D, T>(d: D) -> Result<Option<T>, D::Error>
where
    D: Deserializer<'de>,
    T: TryFrom<u64>,
{
    let bad = |t: &str| serde::de::Error::custom(format!("`{t}` is not a whole number"));
    let too_large = |t: &str| {
        serde::de::Error::custom(format!("`{t}` is out of range (at most {})", max_of::<T>()))
    };
    match Given::deserialize(d)? {
        Given::Empty => Ok(None),
        // Digits are converted as they are, not through an f64 that would round them.
        Given::Number(_, t) if t.parse::<u64>().is_ok() => {
            let n = t.parse::<u64>().unwrap_or_default();
            T::try_from(n).map(Some).map_err(|_| too_large(&t))
        }
        Given::Number(x, t) if x >= 0.0 && x.fract() == 0.0 && x < 2f64.powi(53) => {
            T::try_from(x as u64).map(Some).map_err(|_| too_large(&t))
        }
        Given::Number(x, t) if x >= 0.0 && x.fract() == 0.0 => Err(too_large(&t)),
        Given::Number(_, t) | Given::Text(t) => Err(bad(&t)),
    }
}

/// The largest value of the count type `T`, as text.
fn max_of<T: TryFrom<u64>>() -> String {
    // The largest u64 that converts: u32's or u64's maximum (the counts are unsigned).
    if T::try_from(u64::MAX).is_ok() {
        u64::MAX.to_string()
    } else {
        u32::MAX.to_string()
    }
}

/// [`whole_opt`] for a count every row has (0 where a file leaves it empty).
fn whole<'de, D: Deserializer<'de>>(d: D) -> Result<u32, D::Error> {
    Ok(whole_opt(d)?.unwrap_or(0))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_latency_is_judged_as_the_file_holds_it() {
        // Written with three decimals and read back so.
        let v = as_written(8.680_499, LATENCY_NS_DECIMALS);
        assert_eq!(v, 8.68);
        assert_eq!(num(Some(8.680_499), LATENCY_NS_DECIMALS), "8.680");
        assert_eq!(as_written(51.126, LATENCY_CLK_DECIMALS), 51.13);
        assert!(as_written(f64::NAN, 3).is_nan());
    }

    #[test]
    fn small_ratios_keep_four_significant_digits() {
        assert_eq!(significant(Some(0.00064731), 4), "0.0006473");
        assert_eq!(significant(Some(1.41723), 4), "1.4172");
        assert_eq!(significant(Some(12.5), 4), "12.5000");
        assert_eq!(significant(None, 4), "");
    }

    #[test]
    fn a_rows_working_set_is_its_column_else_the_size_its_name_says() {
        let row = |test: &str, bytes| Row {
            test: test.into(),
            working_set_bytes: bytes,
            ..Default::default()
        };
        let curve = "latency: ByteAddressBuffer ";
        // The column wins over the name; a file older than it has the name only.
        let typed = row("latency: ByteAddressBuffer 4 KB", Some(5 << 20));
        assert_eq!(typed.working_set(curve), Some(5 << 20));
        let named = row("latency: ByteAddressBuffer 1.25 MB", None);
        assert_eq!(named.working_set(curve), Some(1_310_720));
        // The name says which curve a row is on, whatever working set it carries.
        assert_eq!(
            typed.working_set("bandwidth: ByteAddressBuffer.Load4 "),
            None
        );
        let beside = row(
            "latency: ByteAddressBuffer beside groupshared{uint[8192]} 4 KB",
            Some(4 << 10),
        );
        assert_eq!(beside.working_set(curve), None);
        // Written and read back, the column keeps its bytes.
        let mut w = csv::Writer::from_writer(Vec::new());
        w.serialize(&typed).unwrap();
        let text = String::from_utf8(w.into_inner().unwrap()).unwrap();
        let read: Row = csv::Reader::from_reader(text.as_bytes())
            .deserialize()
            .next()
            .unwrap()
            .unwrap();
        assert_eq!(read.working_set_bytes, Some(5 << 20));
        assert_eq!(
            Value::Object(typed.to_json().unwrap())["working_set_bytes"],
            serde_json::json!(5u64 << 20)
        );
    }

    #[test]
    fn the_fields_are_the_columns_in_order() {
        let mut w = csv::Writer::from_writer(Vec::new());
        w.serialize(Row::default()).unwrap();
        let text = String::from_utf8(w.into_inner().unwrap()).unwrap();
        let header: Vec<&str> = text.lines().next().unwrap().split(',').collect();
        let columns: Vec<&str> = COLUMNS.iter().map(|(c, _)| *c).collect();
        assert_eq!(header, columns);
    }

    #[test]
    fn numbers_keep_their_decimals_in_csv_and_are_numbers_in_json() {
        let row = Row {
            device_index: 1,
            test: "T".into(),
            groups: Some(8),
            ms_median: Some(0.9021034),
            cv_pct: Some(6.5),
            ratio: Some(0.00064731),
            drift_pct: Some(6.0),
            temp_c: Some(44.6),
            timestamp_period_ns: Some(1.0416666),
            ..Default::default()
        };
        let mut w = csv::WriterBuilder::new()
            .has_headers(false)
            .from_writer(Vec::new());
        w.serialize(&row).unwrap();
        let line = String::from_utf8(w.into_inner().unwrap()).unwrap();
        let cells: Vec<&str> = line.trim_end().split(',').collect();
        let at = |c: &str| cells[COLUMNS.iter().position(|(n, _)| *n == c).unwrap()];
        assert_eq!(
            [
                at("device_index"),
                at("groups"),
                at("ms_median"),
                at("cv_pct")
            ],
            ["1", "8", "0.902103", "6.500"]
        );
        assert_eq!(
            [
                at("ratio"),
                at("drift_pct"),
                at("temp_c"),
                at("timestamp_period_ns")
            ],
            ["0.0006473", "6.00", "45", "1.0416666"]
        );
        assert_eq!(
            [at("ms_min"), at("test_index"), at("reason")],
            ["", "0", ""]
        );
        let json = Value::Object(row.to_json().unwrap());
        assert_eq!(json["ms_median"], serde_json::json!(0.902103));
        assert_eq!(json["drift_pct"], serde_json::json!(6.0));
        assert!(json["temp_c"].is_u64() && json["groups"].is_u64());
        assert_eq!(json["ms_min"], Value::Null);
        assert_eq!(json["test"], "T");
        // Empty text is null too, as an empty number.
        assert_eq!(json["reason"], Value::Null);
    }

    #[test]
    fn the_row_words_are_written_as_ever_and_read_back_typed() {
        let row = Row {
            test: "T".into(),
            mode: Some(Mode::Verify),
            status: Some(Status::Unsupported),
            conditions: Conditions::Remeasured,
            unit: Some(Unit::Flops),
            clock_events: ClockEvents::from_nvml(0x24),
            ..Default::default()
        };
        let mut w = csv::Writer::from_writer(Vec::new());
        w.serialize(&row).unwrap();
        w.serialize(Row::default()).unwrap();
        let text = String::from_utf8(w.into_inner().unwrap()).unwrap();
        let mut r = csv::Reader::from_reader(text.as_bytes());
        let records: Vec<csv::StringRecord> = r.records().map(Result::unwrap).collect();
        let at = |i: usize, c: &str| {
            let col = COLUMNS.iter().position(|(n, _)| *n == c).unwrap();
            records[i][col].to_string()
        };
        let words = ["mode", "status", "conditions", "unit", "clock_events"].map(|c| at(0, c));
        assert_eq!(
            words,
            [
                "verify",
                "unsupported",
                "re-measured",
                "flops",
                "power cap+thermal slowdown"
            ]
        );
        // A row without them writes empty cells, and JSON `null`.
        assert!(["mode", "status", "conditions", "unit", "clock_events"]
            .iter()
            .all(|c| at(1, c).is_empty()));
        let json = Value::Object(Row::default().to_json().unwrap());
        assert_eq!(json["status"], Value::Null);
        assert_eq!(json["conditions"], Value::Null);
        let json = Value::Object(row.to_json().unwrap());
        assert_eq!(json["conditions"], "re-measured");
        // Read back, every word is its type again.
        let read: Vec<Row> = csv::Reader::from_reader(text.as_bytes())
            .deserialize()
            .map(Result::unwrap)
            .collect();
        assert_eq!(read, [row, Row::default()]);
        // A word that is none of the column's is an error naming the words.
        let bad = text.replacen("unsupported", "fine", 1);
        let err = csv::Reader::from_reader(bad.as_bytes())
            .deserialize::<Row>()
            .next()
            .unwrap()
            .unwrap_err()
            .to_string();
        assert!(
            err.contains("`fine` is not one of `ok`, `unsupported`"),
            "{err}"
        );
    }
}
