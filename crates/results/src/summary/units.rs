//! The write path and the units the load curves do not read — buffer and image stores per cache level, atomics, texture filtering, shared memory, subgroup operations — as items the fleet verdict judges (docs/summary.md, *The write path and other units*).

use super::curve::{self, Point};
use super::parts::{item, num, points};
use super::{Device, Quantity, Section, Subsystem, Unit, Worse};
use crate::row::Row;

/// The buffer-store bandwidth curve over the working set (16-byte stores).
pub const BUFFER_STORES: &str = "bandwidth: RWByteAddressBuffer.Store4 ";
/// The image-store bandwidth curve over the working set (RGBA32F texels).
pub const IMAGE_STORES: &str = "bandwidth: RWTexture2D<RGBA32F>.Store ";

/// The store curves' bands of working sets: each an item, judged on the curve's powers of
/// two within it (the same rows on every GPU, whatever its plateaus): an L1's sizes, an L2's,
/// and memory's on every current GPU.
const BANDS: [(&str, u64, u64); 3] = [
    ("16 KB – 256 KB", 16 << 10, 256 << 10),
    ("1 MB – 32 MB", 1 << 20, 32 << 20),
    ("128 MB – 1 GB", 128 << 20, 1 << 30),
];

/// The floor (%) of the smallest band's items: stores into 16 KB – 256 KB move with where
/// their buffer lies — on one H200, 64 MB of device memory taken first moved the image band's
/// median 14.7 % and single rows of it by up to 53 % (`results/h200x4/node2-1128`); a healthy
/// H100's buffer band read 10.4 % below its fleet (`results/h100/time-1128`) — so a GPU is
/// called on it only beyond this.
pub const SMALL_STORES_FLOOR_PCT: f64 = 20.0;

/// One unit item: what it is, its subsystem, and its rows (the same selection in the health
/// profile and a whole run).
struct UnitItem {
    what: &'static str,
    subsystem: Subsystem,
    tests: &'static [&'static str],
}

/// The units the load curves do not read, a few rows each.
const UNITS: [UnitItem; 4] = [
    UnitItem {
        what: "atomics (device memory)",
        subsystem: Subsystem::WritePath,
        tests: &[
            "RWByteAddressBuffer.InterlockedAdd uniform",
            "RWByteAddressBuffer.InterlockedAdd linear",
            "RWByteAddressBuffer.InterlockedAdd random",
        ],
    },
    UnitItem {
        what: "texture filtering (bilinear)",
        subsystem: Subsystem::TextureFilter,
        tests: &[
            "Texture2D<RGBA8>.Sample(bilinear) uniform",
            "Texture2D<RGBA8>.Sample(bilinear) linear",
            "Texture2D<RGBA8>.Sample(bilinear) random",
        ],
    },
    UnitItem {
        what: "shared memory",
        subsystem: Subsystem::SharedMemory,
        tests: &[
            "groupshared{float4} load uniform",
            "groupshared{float4} load linear",
            "groupshared{float4} load random",
            "groupshared{float4} store uniform",
            "groupshared{float4} store linear",
            "groupshared{float4} store random",
        ],
    },
    UnitItem {
        what: "subgroup operations",
        subsystem: Subsystem::Subgroup,
        tests: &[
            "subgroup shuffle",
            "subgroup broadcast (+xor)",
            "subgroup ballot (+bit test)",
            "subgroup add (+xor)",
        ],
    },
];

/// Whether the health profile runs `test` (its working set `working_set`, as
/// [`super::health::in_profile`] takes it) for this section: the store curves' powers of two
/// within a band, and every unit's rows; by name, as that function says why.
pub fn in_profile(test: &str, working_set: Option<u64>) -> bool {
    if let Some(bytes) = [BUFFER_STORES, IMAGE_STORES]
        .iter()
        .find_map(|p| crate::size::on_curve(test, p, working_set))
    {
        return bytes.is_power_of_two() && BANDS.iter().any(|b| (b.1..=b.2).contains(&bytes));
    }
    UNITS.iter().any(|u| u.tests.contains(&test))
}

/// A store curve's items: one per band, its rows' median bandwidth.
fn store_items(d: &Device, prefix: &str, what: &str) -> Vec<super::Item> {
    let bw: Vec<Point> = points(d, prefix, |r| r.gbytes_per_s);
    BANDS
        .iter()
        .map(|(band, lo, hi)| {
            let on: Vec<&Point> = bw
                .iter()
                .filter(|p| p.size.is_power_of_two() && (*lo..=*hi).contains(&p.size))
                .collect();
            let name = format!("{what} stores, {band}");
            if on.is_empty() {
                return item(
                    name,
                    Err(format!("no {prefix}<size> row in it ran")),
                    None,
                    None,
                    "",
                );
            }
            let tbps = curve::median(on.iter().map(|p| p.value)) / 1000.0;
            let it = item(
                name,
                Ok(format!("{} TB/s", num(tbps))),
                None,
                None,
                format!(
                    "{prefix}{} … {} ({} rows)",
                    curve::size_name(on[0].size),
                    curve::size_name(on[on.len() - 1].size),
                    on.len()
                ),
            )
            .with([Quantity::of(tbps, Unit::TerabytesPerSecond)])
            .judged(
                Subsystem::WritePath,
                Worse::Lower,
                on.iter().map(|p| p.test.clone()).collect(),
            );
            if *hi <= BANDS[0].2 {
                it.floor(SMALL_STORES_FLOOR_PCT)
            } else {
                it
            }
        })
        .collect()
}

/// The section: the store curves' levels, then each unit (its rows' median throughput, in
/// the rows' own unit; judged row by row).
pub fn section(d: &Device) -> Section {
    let mut items = store_items(d, BUFFER_STORES, "buffer");
    items.extend(store_items(d, IMAGE_STORES, "image"));
    for u in &UNITS {
        let rows: Vec<&Row> = u
            .tests
            .iter()
            .filter_map(|t| d.get(t))
            .filter(|r| r.ok() && r.ms_median.is_some())
            .collect();
        if rows.is_empty() {
            let why = format!("no `{}` … row ran", u.tests[0]);
            items.push(item(u.what, Err(why), None, None, ""));
            continue;
        }
        let per_clk = curve::median(rows.iter().filter_map(|r| r.loads_per_clk_per_cu));
        let rate = curve::median(rows.iter().filter_map(|r| r.gloads_per_s));
        // Short, as the summary's other values (the table's column is its longest value).
        let value = if per_clk.is_nan() {
            format!("{} G/s", num(rate))
        } else {
            format!("{}/clk/CU, {} G/s", num(per_clk), num(rate))
        };
        let figures = (!per_clk.is_nan())
            .then(|| Quantity::of(per_clk, Unit::LoadsPerClockPerCu))
            .into_iter()
            .chain((!rate.is_nan()).then(|| Quantity::of(rate, Unit::GigaloadsPerSecond)));
        let from = format!("{} … ({} rows)", rows[0].test, rows.len());
        items.push(
            item(u.what, Ok(value), None, None, from)
                .with(figures)
                .judged(
                    u.subsystem,
                    Worse::Lower,
                    rows.iter().map(|r| r.test.clone()).collect(),
                ),
        );
    }
    Section {
        title: "The write path and other units (the fleet verdict judges each row against its \
                fleet's)"
            .to_string(),
        items,
    }
}
