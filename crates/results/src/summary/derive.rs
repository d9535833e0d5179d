//! The rules that turn one GPU's rows into the summary's items (docs/summary.md says each).

use super::curve::{self, Point, Span};
use super::vendor::{self, Figure};
use super::{Device, Item, Quantity, Row, Section, Subsystem, Summary, Unit, Worse};
use crate::vocab::Unit as Counted;
use crate::{Catalog, Suite, Words};

pub use super::parts::LATENCY;
pub(super) use super::parts::{item, num, points};
/// The bandwidth curve: 16-byte coalesced loads from a storage buffer.
pub const BANDWIDTH: &str = "bandwidth: ByteAddressBuffer.Load4 ";
/// The chase through a uniform buffer (the constant path), 4 to 64 KB.
pub const UNIFORM: &str = "latency: cbuffer{uint4} ";
/// The chase through shared memory, 4 to 64 KB.
pub const SHARED: &str = "latency: groupshared{uint} ";
/// The chase through registers: the loop's own arithmetic, without a load.
pub const REGISTERS: &str = "latency: registers{uint}, no load";
/// The load-to-use chase (`p = *p`), whose latency a level gives beside its curve's: its
/// uint2 form, the one where the device has no 64-bit integers in shaders (or a file older
/// than [`LOAD_TO_USE_64`]).
pub const LOAD_TO_USE: &str = "latency: BufferReference<uint2> load-to-use ";
/// The load-to-use chase's uint64_t form (`shaderInt64`), whose dependent path is the load
/// alone: the summary's where its rows ran (docs/latency.md).
pub const LOAD_TO_USE_64: &str = "latency: BufferReference<uint64_t> load-to-use ";

/// The load-to-use chase the summary reads: the uint64_t form where a row of it has a
/// latency, else the uint2 form.
pub fn load_to_use_prefix(d: &Device) -> &'static str {
    if points(d, LOAD_TO_USE_64, |r| r.latency_clk.or(r.latency_ns)).is_empty() {
        LOAD_TO_USE
    } else {
        LOAD_TO_USE_64
    }
}
/// The stride sweep: `<prefix><size>, <stride> B apart`.
pub const STRIDE: &str = "latency by stride: ByteAddressBuffer ";

/// The summary of one GPU.
pub fn summary(d: &Device, catalog: &Catalog) -> Summary {
    let mut heading = if d.driver.is_empty() {
        d.name.clone()
    } else {
        format!("{} ({})", d.name, d.driver)
    };
    if !d.which.is_empty() {
        heading = format!("{heading}, {}", d.which);
    }
    Summary {
        heading,
        device: d.name.clone(),
        files: d.files.clone(),
        rows: d.rows.len(),
        sections: [
            Some(device_section(d)),
            Some(caches(d)),
            super::host_cpu::section(d),
            Some(host(d)),
            Some(arithmetic(d)),
            Some(dispatch(d)),
            Some(loads(d, catalog)),
            Some(super::units::section(d)),
        ]
        .into_iter()
        .flatten()
        .collect(),
    }
}

fn device_section(d: &Device) -> Section {
    let cus: Vec<f64> = d
        .rows
        .iter()
        .filter_map(|r| r.compute_units.map(f64::from))
        .collect();
    let units = if cus.is_empty() {
        item(
            "compute units",
            Err("no compute_units in the rows (the driver does not say)".into()),
            None,
            vendor::figure(&d.name, "compute_units"),
            "",
        )
    } else {
        let n = curve::median(cus.iter().copied());
        item(
            "compute units",
            Ok(format!("{n:.0}")),
            Some((n, n)),
            vendor::figure(&d.name, "compute_units"),
            "compute_units of the rows",
        )
        .with([Quantity::of(n, Unit::Count)])
    };
    let clocks: Vec<f64> = d
        .rows
        .iter()
        .filter(|r| r.ok())
        .filter_map(|r| r.clock_mhz)
        .collect();
    let clock = if clocks.is_empty() {
        item(
            "shader clock",
            Err("no clock_mhz in the rows (a CPU device, or no shaderSubgroupClock)".into()),
            None,
            None,
            "",
        )
    } else {
        let lo = clocks.iter().copied().fold(f64::INFINITY, f64::min);
        let hi = clocks.iter().copied().fold(0.0, f64::max);
        let median = curve::median(clocks.iter().copied());
        item(
            "shader clock",
            Ok(format!("{median:.0} MHz ({lo:.0}–{hi:.0})")),
            None,
            None,
            format!("clock_mhz of {} rows: median (range)", clocks.len()),
        )
        .with([
            Quantity::of(median, Unit::Mhz),
            Quantity::range(lo, hi, Unit::Mhz),
        ])
    };
    Section {
        title: "Device".into(),
        items: vec![units, clock],
    }
}

/// A latency row's figure in the curve's unit: ns where the run has no shader clock, else clk.
fn latency_of(r: &Row, in_ns: bool) -> Option<f64> {
    if in_ns {
        r.latency_ns
    } else {
        r.latency_clk
    }
}

/// The `prefix <size>` rows' latencies, in the curve's unit (see [`latency_of`]).
fn latency_points(d: &Device, prefix: &str, in_ns: bool) -> Vec<Point> {
    points(d, prefix, |r| latency_of(r, in_ns))
}

/// `PREFIX 4 KB … 160 KB (22 rows)`.
fn range_text(prefix: &str, points: &[Point], s: Span) -> String {
    rows_text(prefix, &points[s.first..=s.last])
}

/// `PREFIX 4 KB … 160 KB (22 rows)` of `points` (in size order, at least one).
fn rows_text<'a>(prefix: &str, points: impl IntoIterator<Item = &'a Point>) -> String {
    let points: Vec<&Point> = points.into_iter().collect();
    let (a, b) = (points[0].size, points[points.len() - 1].size);
    format!(
        "{}{} … {} ({} rows)",
        prefix,
        curve::size_name(a),
        curve::size_name(b),
        points.len()
    )
}

/// A cache level: its plateau on the latency curve (where that curve has levels) and the
/// bandwidth plateau that goes with it.
struct Level {
    name: String,
    subsystem: Subsystem,
    index: usize,
    memory: bool,
    lat: Option<Span>,
    bw: Result<Span, String>,
    /// Whether the next level is this one's far part (see [`far_parts`]).
    has_far_part: bool,
}

/// A latency step with no bandwidth step of its own, after a cache past L1, is that cache's
/// far part, not a level of its own: the H100's L2 is two partitions, and a load that misses
/// in the near one is served from the far one at about twice the latency and the same
/// bandwidth once enough loads are in flight. Such a level is named `<cache> far part`, and
/// the cache's size is its edge (the near part's edge is the near partition's).
fn far_parts(levels: &mut [Level]) {
    for i in 1..levels.len() {
        let (before, rest) = levels.split_at_mut(i);
        let (near, far) = (&mut before[i - 1], &mut rest[0]);
        let same_bw = matches!((&near.bw, &far.bw), (Ok(a), Ok(b)) if a == b);
        let near_is_far = matches!(near.subsystem, Subsystem::FarPart(_));
        if same_bw && near.index >= 1 && !near.memory && !far.memory && !near_is_far {
            near.has_far_part = true;
            far.name = format!("{} far part", near.name);
            far.subsystem = Subsystem::FarPart(u8::try_from(near.index + 1).unwrap_or(u8::MAX));
        }
    }
}

fn level_name(i: usize, memory: bool) -> String {
    match (memory, i) {
        (true, _) => "memory".into(),
        (_, 0) => "L1".into(),
        (_, 1) => "L2".into(),
        _ => format!("level {}", i + 1),
    }
}

/// The fleet's subsystem of level `i` (0-based) of the latency curve.
fn level_subsystem(i: usize, memory: bool) -> Subsystem {
    if memory {
        Subsystem::Memory
    } else {
        Subsystem::Cache(u8::try_from(i + 1).unwrap_or(u8::MAX))
    }
}

/// The edge of a level as an item: between the last size on its plateau and the first off it.
fn edge_item(
    what: String,
    points: &[Point],
    s: Span,
    prefix: &str,
    vendor: Option<Figure>,
) -> Item {
    match curve::edge(points, s) {
        Some((a, b)) => {
            let scale = match vendor.as_ref().map(|f| f.unit.as_str()) {
                Some("KB") => 1024.0,
                Some("MB") => 1024.0 * 1024.0,
                _ => 1.0,
            };
            item(
                what,
                Ok(format!("{} – {}", curve::size_name(a), curve::size_name(b))),
                Some((a as f64 / scale, b as f64 / scale)),
                vendor,
                format!(
                    "{prefix}{} (last on the plateau) | {} (first off it)",
                    curve::size_name(a),
                    curve::size_name(b)
                ),
            )
            .with([Quantity::range(a as f64, b as f64, Unit::Bytes)])
        }
        None => item(
            what,
            Err(format!(
                "no step within the sweep ({} … {})",
                curve::size_name(points[0].size),
                curve::size_name(points[points.len() - 1].size)
            )),
            None,
            vendor,
            "",
        ),
    }
}

// Long on purpose: the levels are read from the latency and the bandwidth curves together
// (a level's edges by both), in the order docs/summary.md states the rules.
fn caches(d: &Device) -> Section {
    let mut items = Vec::new();
    // Clocks per load where the rows have them; else nanoseconds (a device without a
    // shader-core clock, whose chase is timed with timestamps: a CPU's caches under lavapipe).
    let clk = points(d, LATENCY, |r| r.latency_clk);
    let in_ns = clk.is_empty();
    let lat = if in_ns {
        points(d, LATENCY, |r| r.latency_ns)
    } else {
        clk
    };
    let bw_rows: Vec<&Row> = d
        .rows
        .iter()
        .filter(|r| r.ok() && r.working_set(BANDWIDTH).is_some())
        .collect();
    // Per clock per compute unit where every row has it (a clock that moved does not move
    // the curve), else bytes per second.
    let per_clk = !bw_rows.is_empty() && bw_rows.iter().all(|r| r.bytes_per_clk_per_cu.is_some());
    let bw = points(d, BANDWIDTH, |r| {
        if per_clk {
            r.bytes_per_clk_per_cu
        } else {
            r.gbytes_per_s
        }
    });
    let (lat_plateaus, bw_plateaus) = (curve::plateaus(&lat), curve::plateaus(&bw));
    // The load-to-use chase over the same sizes, in the curve's unit.
    let load_to_use = latency_points(d, load_to_use_prefix(d), in_ns);
    let no_bw = || {
        if d.rows.iter().any(|r| r.working_set(BANDWIDTH).is_some()) {
            format!("no {BANDWIDTH}<size> row ran")
        } else {
            format!("no {BANDWIDTH}<size> rows: the bandwidth suite did not run")
        }
    };
    let mut levels = Vec::new();
    if !lat_plateaus.is_empty() {
        let n = lat_plateaus.len();
        for (i, s) in lat_plateaus.iter().enumerate() {
            let memory = n >= 2 && i == n - 1 && s.last == lat.len() - 1;
            let lo = lat[s.first].size;
            let hi = if memory { u64::MAX } else { lat[s.last].size };
            let bw = if bw.is_empty() {
                Err(no_bw())
            } else {
                curve::matching(&bw, &bw_plateaus, lo, hi)
                    .ok_or_else(|| "no bandwidth plateau over these sizes".to_string())
            };
            levels.push(Level {
                name: level_name(i, memory),
                subsystem: level_subsystem(i, memory),
                index: i,
                memory,
                lat: Some(*s),
                bw,
                has_far_part: false,
            });
        }
        far_parts(&mut levels);
        let last = lat_plateaus[n - 1];
        if !levels.iter().any(|l| l.memory) {
            let why = if last.last == lat.len() - 1 {
                format!(
                    "one plateau over the whole latency sweep ({} … {}): no step to tell a \
                     cache from memory",
                    curve::size_name(lat[0].size),
                    curve::size_name(lat[lat.len() - 1].size)
                )
            } else {
                format!(
                    "not reached: the latency curve has no plateau at its largest sizes (its \
                     last ends at {}, of {})",
                    curve::size_name(lat[last.last].size),
                    curve::size_name(lat[lat.len() - 1].size)
                )
            };
            items.push(item("memory", Err(why), None, None, ""));
        }
    } else {
        let why = if d.rows.iter().any(|r| r.working_set(LATENCY).is_some()) {
            if lat.is_empty() {
                format!(
                    "the {LATENCY}<size> rows have neither latency_clk nor latency_ns (a file \
                     older than the column, of a device without a shader clock)"
                )
            } else {
                format!(
                    "the {LATENCY}<size> curve has no plateau of {} sizes",
                    curve::MIN_POINTS
                )
            }
        } else {
            format!("no {LATENCY}<size> rows: the latency suite did not run")
        };
        items.push(item(
            "cache levels",
            Err(format!(
                "{why}; levels past L1 are read from the latency curve, so only the \
                 bandwidth curve's first and last plateaus are shown"
            )),
            None,
            None,
            "",
        ));
        if let Some(first) = bw_plateaus.first().filter(|s| s.first == 0) {
            levels.push(Level {
                name: "L1".into(),
                subsystem: Subsystem::Cache(1),
                index: 0,
                memory: false,
                lat: None,
                bw: Ok(*first),
                has_far_part: false,
            });
        }
        if let Some(last) = bw_plateaus
            .last()
            .filter(|s| bw_plateaus.len() >= 2 && s.last == bw.len() - 1)
        {
            levels.push(Level {
                name: "memory".into(),
                subsystem: Subsystem::Memory,
                index: bw_plateaus.len() - 1,
                memory: true,
                lat: None,
                bw: Ok(*last),
                has_far_part: false,
            });
        }
    }
    let mut previous_bw: Option<(Span, String)> = None;
    for level in &levels {
        let size_figure = match (level.memory, level.index) {
            (true, _) => None,
            (_, 0) => vendor::figure(&d.name, "l1_kb"),
            _ => vendor::figure(&d.name, "l2_mb"),
        };
        if let (Some(s), false) = (level.lat, level.memory) {
            // A cache with a far part: the near part's edge is no figure of the cache's size.
            let (what, figure) = if level.has_far_part {
                (format!("{}: near part's edge by latency", level.name), None)
            } else {
                (
                    format!("{}: edge by latency", level.name),
                    size_figure.clone(),
                )
            };
            items.push(edge_item(what, &lat, s, LATENCY, figure));
        }
        // The bandwidth plateau, unless it is the one the level before already has.
        let bw_span = match (&level.bw, &previous_bw) {
            (Ok(s), Some((p, name))) if s == p => Err(format!(
                "no bandwidth step of its own: its sizes lie on {name}'s bandwidth plateau ({})",
                range_text(BANDWIDTH, &bw, *s)
            )),
            (b, _) => b.clone(),
        };
        if let (Ok(s), false) = (&bw_span, level.memory) {
            items.push(edge_item(
                format!("{}: edge by bandwidth", level.name),
                &bw,
                *s,
                BANDWIDTH,
                size_figure,
            ));
        }
        if let Some(s) = level.lat {
            // The level's figure is its sweep rows': an edge's probes crowd its end.
            let rows: Vec<&Row> = lat[s.first..=s.last]
                .iter()
                .filter_map(|p| d.get(&p.test))
                .filter(|r| !r.is_probe())
                .collect();
            let level_median = sweep_median(d, &lat, s);
            let mut figures = Vec::new();
            let value = if in_ns {
                figures.push(Quantity::of(level_median, Unit::Nanoseconds));
                format!(
                    "{} ns (no shader clock: timed with timestamps)",
                    num(level_median)
                )
            } else {
                figures.push(Quantity::of(level_median, Unit::Clocks));
                let ns: Vec<f64> = rows
                    .iter()
                    .filter_map(|r| Some(r.latency_clk? / r.clock_mhz? * 1000.0))
                    .collect();
                let ns = if ns.is_empty() {
                    " (no clock_mhz: ns left out)".to_string()
                } else {
                    let ns = curve::median(ns);
                    figures.push(Quantity::of(ns, Unit::Nanoseconds));
                    format!(", {} ns", num(ns))
                };
                format!("{} clk{ns}", num(level_median))
            };
            items.push(
                item(
                    format!("{}: latency", level.name),
                    Ok(value),
                    None,
                    None,
                    range_text(LATENCY, &lat, s),
                )
                .with(figures)
                .judged(
                    level.subsystem,
                    Worse::Higher,
                    rows.iter().map(|r| r.test.clone()).collect(),
                ),
            );
            if !load_to_use.is_empty() {
                items.push(load_to_use_item(level, &lat, s, &load_to_use, d, in_ns));
            }
        }
        match &bw_span {
            Ok(s) => {
                let rows: Vec<&Row> = bw[s.first..=s.last]
                    .iter()
                    .filter_map(|p| d.get(&p.test))
                    .collect();
                // Memory is approached from above (a set a few times the L2 still finds part
                // of itself there): its figure is the largest set's, a cache's the median.
                let rows = if level.memory {
                    rows[rows.len() - 1..].to_vec()
                } else {
                    rows
                };
                let tbps = curve::median(rows.iter().filter_map(|r| r.gbytes_per_s)) / 1000.0;
                let clk = curve::median(rows.iter().filter_map(|r| r.bytes_per_clk_per_cu));
                let per_clk = if clk.is_nan() {
                    "no clock: B/clk/CU left out, ".to_string()
                } else {
                    format!("{} B/clk/CU, ", num(clk))
                };
                let figures = (!clk.is_nan())
                    .then(|| Quantity::of(clk, Unit::BytesPerClockPerCu))
                    .into_iter()
                    .chain([Quantity::of(tbps, Unit::TerabytesPerSecond)]);
                let figure = if level.memory {
                    vendor::figure(&d.name, "memory_tbps")
                } else {
                    None
                };
                items.push(
                    item(
                        format!("{}: bandwidth", level.name),
                        Ok(format!("{per_clk}{} TB/s", num(tbps))),
                        Some((tbps, tbps)),
                        figure,
                        if level.memory {
                            format!(
                                "{}{} (the largest set of the plateau {})",
                                BANDWIDTH,
                                curve::size_name(bw[s.last].size),
                                range_text("", &bw, *s)
                            )
                        } else {
                            range_text(BANDWIDTH, &bw, *s)
                        },
                    )
                    .with(figures)
                    .judged(
                        level.subsystem,
                        Worse::Lower,
                        rows.iter().map(|r| r.test.clone()).collect(),
                    ),
                );
                previous_bw = Some((*s, level.name.clone()));
            }
            Err(why) => items.push(item(
                format!("{}: bandwidth", level.name),
                Err(why.clone()),
                None,
                None,
                "",
            )),
        }
    }
    items.extend(fetch_granularities(d, &levels, &lat, in_ns));
    items.extend(lines(d, &levels, &lat, &load_to_use, in_ns));
    items.extend(beside_shared(d, &levels, &lat, in_ns));
    items.extend(beside_texture(d, &levels, &lat, in_ns));
    for (prefix, what) in [
        (UNIFORM, "uniform buffer: latency"),
        (SHARED, "shared memory: latency"),
    ] {
        items.extend(path_latency(d, prefix, what, in_ns));
    }
    if let Some(item) = loop_arithmetic(d, in_ns) {
        items.push(item);
    }
    Section {
        title: format!(
            "Caches and memory (the curves of `{}` and `{}` over the working set)",
            LATENCY.trim_end(),
            BANDWIDTH.trim_end()
        ),
        items,
    }
}

/// The levels of another load path's latency curve (`prefix` and a size), by the curve
/// rules: each plateau's median over its sizes, and a first size below the first plateau, a
/// level too small for three sizes of the sweep (`≤ 4 KB: 47.4, 6–64 KB: 112 clk`). Only
/// where the run has the rows.
fn path_latency(d: &Device, prefix: &str, what: &str, in_ns: bool) -> Option<Item> {
    let pts = latency_points(d, prefix, in_ns);
    let first = pts.first()?;
    let (unit, typed) = if in_ns {
        ("ns", Unit::Nanoseconds)
    } else {
        ("clk", Unit::Clocks)
    };
    let mut levels = Vec::new();
    let mut figures = Vec::new();
    let plateaus = curve::plateaus(&pts);
    if let Some(p) = plateaus.first().filter(|p| p.first > 0) {
        if first.value * (1.0 + curve::TOLERANCE) < p.median(&pts) {
            levels.push(format!(
                "≤ {}: {}",
                curve::size_name(first.size),
                num(first.value)
            ));
            figures.push(Quantity::of(first.value, typed).over(first.size, first.size));
        }
    }
    for p in &plateaus {
        let (a, b) = (pts[p.first].size, pts[p.last].size);
        levels.push(format!("{}: {}", short_range(a, b), num(p.median(&pts))));
        figures.push(Quantity::of(p.median(&pts), typed).over(a, b));
    }
    let value = if levels.is_empty() {
        Err(format!(
            "no plateau of {} sizes ({} rows)",
            curve::MIN_POINTS,
            pts.len()
        ))
    } else {
        Ok(format!("{} {unit}", levels.join(", ")))
    };
    Some(item(what, value, None, None, rows_text(prefix, &pts)).with(figures))
}

/// The working set and the stride of a stride-sweep row (`<STRIDE>4 MB, 32 B apart`). From
/// the name: a stride row carries no `working_set_bytes` (its sizes are no point of a curve
/// over the working set) and no column holds its stride.
pub fn stride_of(test: &str) -> Option<(u64, u32)> {
    let (size, stride) = test.strip_prefix(STRIDE)?.split_once(", ")?;
    let stride = stride.strip_suffix(" B apart")?.parse().ok()?;
    Some((curve::size_after(size, "")?, stride))
}

/// The stride curve's knee: the smallest stride from which the curve rises no further — no
/// larger stride costs more than [`curve::TOLERANCE`] above it (`points`: stride and latency,
/// in stride order). Below the granularity a level is filled in, a step misses once every
/// granularity / stride steps, so the curve rises with the stride up to it and is flat after
/// (a dip past the knee, as the H100's memory shows at 512 B apart, is no rise).
pub fn knee(points: &[(u32, f64)]) -> Result<usize, String> {
    let (first, last) = match (points.first(), points.last()) {
        (Some(f), Some(l)) if points.len() >= curve::MIN_POINTS => (f, l),
        _ => {
            return Err(format!(
                "{} strides: the rule needs {}",
                points.len(),
                curve::MIN_POINTS
            ))
        }
    };
    let on = |i: usize| {
        let top = points[i..].iter().fold(0.0f64, |m, p| m.max(p.1));
        top <= (1.0 + curve::TOLERANCE) * points[i].1
    };
    let knee = (0..points.len())
        .find(|&i| on(i))
        .unwrap_or(points.len() - 1);
    if knee == 0 {
        return Err(format!(
            "no step: {} to {} B apart cost the same ({} to {})",
            first.0,
            last.0,
            num(first.1),
            num(last.1)
        ));
    }
    if knee == points.len() - 1 {
        return Err(format!(
            "still rising at {} B apart, the largest stride ({}, {} at {} B apart)",
            last.0,
            num(last.1),
            num(points[knee - 1].1),
            points[knee - 1].0
        ));
    }
    Ok(knee)
}

/// Each stride-sweep set's knee, as the fetch granularity of the level whose latency plateau
/// holds the set (memory: from its first size up): the bytes it serves the level above at a
/// time. A set on the first level (every load hits) gives none; one between plateaus says so.
fn fetch_granularities(d: &Device, levels: &[Level], lat: &[Point], in_ns: bool) -> Vec<Item> {
    // Each set's rows: (stride, latency, test).
    type Set = (u64, Vec<(u32, f64, String)>);
    let mut sets: Vec<Set> = Vec::new();
    for r in d.rows.iter().filter(|r| r.ok()) {
        let Some((size, stride)) = stride_of(&r.test) else {
            continue;
        };
        let Some(v) = latency_of(r, in_ns).filter(|v| *v > 0.0) else {
            continue;
        };
        match sets.iter_mut().find(|s| s.0 == size) {
            Some(s) => s.1.push((stride, v, r.test.clone())),
            None => sets.push((size, vec![(stride, v, r.test.clone())])),
        }
    }
    sets.sort_by_key(|s| s.0);
    let unit = if in_ns { "ns" } else { "clk" };
    let mut items = Vec::new();
    // (A set at one stride only is a point of the line's curve: see `lines`.)
    sets.retain(|s| s.1.len() >= curve::MIN_POINTS);
    for (size, mut rows) in sets {
        rows.sort_by_key(|r| r.0);
        let set = curve::size_name(size);
        let from = format!(
            "{STRIDE}{set}, {} … {} B apart ({} rows)",
            rows[0].0,
            rows[rows.len() - 1].0,
            rows.len()
        );
        let level = levels.iter().find(|l| {
            l.lat.is_some_and(|s| {
                size >= lat[s.first].size && (l.memory || size <= lat[s.last].size)
            })
        });
        let Some(level) = level else {
            let why = if levels.iter().any(|l| l.lat.is_some()) {
                "lies on no plateau of the latency curve (between two levels)"
            } else {
                "has no latency level to lie on (the curve of the cache levels above has none)"
            };
            items.push(item(
                format!("fetch granularity ({set} set)"),
                Err(format!("the {set} set {why}")),
                None,
                None,
                from,
            ));
            continue;
        };
        if level.index == 0 && !level.memory {
            continue;
        }
        let points: Vec<(u32, f64)> = rows.iter().map(|r| (r.0, r.1)).collect();
        let what = format!("{}: fetch granularity", level.name);
        items.push(match knee(&points) {
            Ok(k) => {
                let (g, at) = points[k];
                item(
                    what,
                    Ok(format!(
                        "{g} B (a {set} set: {} {unit} a step at {} B apart, rising to {} at \
                         {g} B and no further)",
                        num(points[0].1),
                        points[0].0,
                        num(at)
                    )),
                    None,
                    None,
                    from,
                )
                .with([Quantity::of(g as f64, Unit::Bytes).over(size, size)])
            }
            Err(why) => item(what, Err(format!("a {set} set: {why}")), None, None, from),
        });
    }
    items
}

/// Each cache's line (the unit it allocates), where the run has the stride sweep's sets read
/// 32 bytes apart over the cache's sizes: a set read whole fills its lines, one read a word
/// per 128-byte line (the chase) fills one line per 128 bytes, so where the lines hold `L` ≤
/// 128 bytes the chase's edge lies 128 / `L` times the whole set's; and the load-to-use chase
/// (a word per 256 bytes) ends where the chase does only where `L` ≤ 128. `L` is the power of
/// two within both edges' ranges. For L1 always (an item saying what is missing where the
/// run cannot tell); for a later level (not a far part: the near part's line is the cache's)
/// where a set read whole lies on its plateau.
fn lines(
    d: &Device,
    levels: &[Level],
    lat: &[Point],
    load_to_use: &[Point],
    in_ns: bool,
) -> Vec<Item> {
    let mut whole: Vec<Point> = d
        .rows
        .iter()
        .filter(|r| r.ok())
        .filter_map(|r| {
            let (size, stride) = stride_of(&r.test)?;
            let value = latency_of(r, in_ns);
            (stride == 32).then_some(Point {
                size,
                value: value.filter(|v| *v > 0.0)?,
                test: r.test.clone(),
            })
        })
        .collect();
    whole.sort_by_key(|p| p.size);
    if whole.len() < curve::MIN_POINTS {
        return Vec::new();
    }
    let whole_plateaus = curve::plateaus(&whole);
    let ltu_plateaus = curve::plateaus(load_to_use);
    let from = format!(
        "{STRIDE}{} … {}, 32 B apart ({} rows) | {}, {}",
        curve::size_name(whole[0].size),
        curve::size_name(whole[whole.len() - 1].size),
        whole.len(),
        LATENCY.trim_end(),
        load_to_use_prefix(d).trim_end()
    );
    let mut items = Vec::new();
    for level in levels
        .iter()
        .filter(|l| !l.memory && !matches!(l.subsystem, Subsystem::FarPart(_)))
    {
        let span = level.lat.map(|s| (lat[s.first].size, lat[s.last].size));
        let on_level =
            span.is_some_and(|(lo, hi)| whole.iter().any(|p| (lo..=hi).contains(&p.size)));
        if level.index > 0 && !on_level {
            continue;
        }
        let what = format!("{}: line", level.name);
        let result = line_of(
            level,
            lat,
            &whole,
            &whole_plateaus,
            load_to_use,
            &ltu_plateaus,
        );
        items.push(match result {
            Ok((line, words)) => item(what, Ok(words), None, None, from.clone())
                .with([Quantity::of(line as f64, Unit::Bytes)]),
            Err(why) => item(what, Err(why), None, None, from.clone()),
        });
    }
    items
}

/// The line of `level` by the rule of [`lines`], with the edges it came from in words, or why
/// there is none.
fn line_of(
    level: &Level,
    lat: &[Point],
    whole: &[Point],
    whole_plateaus: &[curve::Span],
    load_to_use: &[Point],
    ltu_plateaus: &[curve::Span],
) -> Result<(u64, String), String> {
    let span = |x: u64, y: u64| format!("{} – {}", curve::size_name(x), curve::size_name(y));
    let (s, (a, b)) = level
        .lat
        .and_then(|s| Some((s, curve::edge(lat, s)?)))
        .ok_or_else(|| format!("no {} edge on the latency curve", level.name))?;
    let (lo, hi) = (lat[s.first].size, lat[s.last].size);
    let (a32, b32) = curve::matching(whole, whole_plateaus, lo, hi)
        .and_then(|p| curve::edge(whole, p))
        .ok_or_else(|| {
            format!(
                "no edge of the set read whole within {} … {}",
                curve::size_name(whole[0].size),
                curve::size_name(whole[whole.len() - 1].size)
            )
        })?;
    let (lo, hi) = (128.0 * a32 as f64 / b as f64, 128.0 * b32 as f64 / a as f64);
    let fits: Vec<u64> = [16u64, 32, 64, 128]
        .into_iter()
        .filter(|l| (lo..=hi).contains(&(*l as f64)))
        .collect();
    let ltu_edge = level.lat.and_then(|s| {
        let p = curve::matching(
            load_to_use,
            ltu_plateaus,
            lat[s.first].size,
            lat[s.last].size,
        )?;
        curve::edge(load_to_use, p)
    });
    let line = match (fits.as_slice(), ltu_edge) {
        ([128], Some((la, lb))) if la <= b && a <= lb => 128,
        ([128], Some((la, lb))) => {
            return Err(format!(
                "the set read whole ends at {} and the chase at {} (a line of 128 B or \
                 more), but the load-to-use chase at {}: not where the chase does",
                span(a32, b32),
                span(a, b),
                span(la, lb)
            ))
        }
        ([128], None) => {
            return Err(format!(
                "the set read whole ends at {} and the chase at {}: a line of 128 B or more, \
                 and no load-to-use edge to tell which",
                span(a32, b32),
                span(a, b)
            ))
        }
        ([l], _) => *l,
        _ => {
            return Err(format!(
                "the set read whole ends at {} and the chase at {}: no single line fits \
                 (128 × {:.2} to {:.2})",
                span(a32, b32),
                span(a, b),
                lo / 128.0,
                hi / 128.0
            ))
        }
    };
    let ltu = ltu_edge.map_or(String::new(), |(la, lb)| {
        format!("; a word per 256 B: {}", span(la, lb))
    });
    Ok((
        line,
        format!(
            "{line} B (edges: 32 B apart {}; a word per 128 B {}{ltu})",
            span(a32, b32),
            span(a, b)
        ),
    ))
}

/// `6–64 KB` (one unit where both sizes have it), else `512 KB–2 MB`.
fn short_range(a: u64, b: u64) -> String {
    let (a, b) = (curve::size_name(a), curve::size_name(b));
    match (a.split_once(' '), b.split_once(' ')) {
        (Some((x, u)), Some((y, v))) if u == v => format!("{x}–{y} {u}"),
        _ => format!("{a}–{b}"),
    }
}

/// The raw-buffer chase in a pipeline that also declares and uses shared memory, and how
/// much it declares.
pub const BESIDE_SHARED: &str = "latency: ByteAddressBuffer beside groupshared{uint[8192]} ";
const BESIDE_SHARED_BYTES: u64 = 32 << 10;

/// Whether the L1 the chase sees shrinks when the pipeline uses shared memory (where the two
/// share an SM's storage and the driver splits it by what the pipeline declares): the L1 edge
/// of the chase beside 32 KB of shared memory against the chase's own. Lower by at least the
/// 32 KB: the split follows the pipeline; the same (ranges that meet): it does not, and
/// whether the two share storage is not seen; lower by less: said as it is. Only where the
/// run has the rows.
fn beside_shared(d: &Device, levels: &[Level], lat: &[Point], in_ns: bool) -> Option<Item> {
    let beside = latency_points(d, BESIDE_SHARED, in_ns);
    if beside.len() < curve::MIN_POINTS {
        return None;
    }
    let what = "L1 beside 32 KB of shared memory";
    let from = format!(
        "{} | {}",
        rows_text(BESIDE_SHARED, &beside),
        LATENCY.trim_end()
    );
    let span = |x: u64, y: u64| format!("{} – {}", curve::size_name(x), curve::size_name(y));
    let Some((a, b)) = levels
        .iter()
        .find(|l| l.index == 0 && !l.memory)
        .and_then(|l| curve::edge(lat, l.lat?))
    else {
        return Some(item(
            what,
            Err("no L1 edge on the latency curve".into()),
            None,
            None,
            from,
        ));
    };
    let Some((c, e)) = curve::matching(&beside, &curve::plateaus(&beside), 0, b)
        .and_then(|p| curve::edge(&beside, p))
    else {
        return Some(item(
            what,
            Err(format!(
                "no edge of the chase beside shared memory within {} … {}",
                curve::size_name(beside[0].size),
                curve::size_name(beside[beside.len() - 1].size)
            )),
            None,
            None,
            from,
        ));
    };
    let kb = |x: u64| x >> 10;
    let how = if c <= b && a <= e {
        "the same edge".to_string()
    } else if e < a {
        // The drop lies between the nearest and the farthest ends of the two ranges.
        let (least, most) = (a - e, b - c);
        let follows = (least..=most).contains(&BESIDE_SHARED_BYTES);
        format!(
            "{}–{} KB lower: {}",
            kb(least),
            kb(most),
            if follows { "gives way" } else { "not 32 KB" }
        )
    } else {
        "above it alone".to_string()
    };
    let value = format!("{} ({how})", span(c, e));
    let from = format!("{from} {} (its L1 edge alone)", span(a, b));
    Some(
        item(what, Ok(value), None, None, from).with([Quantity::range(
            c as f64,
            e as f64,
            Unit::Bytes,
        )]),
    )
}

/// The texel-fetch chase with each step paired with a step of the raw-buffer chase over a set
/// of its own, and that set's size.
pub const BESIDE_TEXTURE: &str =
    "latency: Texture2D<float>.Load beside ByteAddressBuffer{uint[32768]} ";
const BESIDE_TEXTURE_BYTES: u64 = 128 << 10;
/// The texel-fetch chase alone.
pub const TEXTURE_LOAD: &str = "latency: Texture2D<float>.Load ";

/// Whether the L1 and the texture path are one storage: the pair's time less the texture
/// chase's alone, at each size where the texture alone stays on its first plateau, against
/// that difference at the smallest size (the buffer set in the L1). A rise of at least half
/// the buffer chase's step from L1 to the next level means the texture's lines, hitting in
/// their own cache, evict the buffer's: one storage (said with the pair's first edge, where
/// the rise begins); less, up to the texture's edge: separate. Only where the run has the
/// rows, and where the buffer set lies on the L1's plateau.
// Long on purpose: one reading of one pair of curves, in the steps the comment above
// gives (the buffer chase's step, the pair less the texture at each size they share, the
// rise and where it begins).
fn beside_texture(d: &Device, levels: &[Level], lat: &[Point], in_ns: bool) -> Option<Item> {
    let pair = latency_points(d, BESIDE_TEXTURE, in_ns);
    if pair.len() < curve::MIN_POINTS {
        return None;
    }
    let kb = BESIDE_TEXTURE_BYTES >> 10;
    let what = "L1 shared with the texture path";
    let tex = latency_points(d, TEXTURE_LOAD, in_ns);
    let from = format!(
        "{} | {} | {}{kb} KB",
        rows_text(BESIDE_TEXTURE, &pair),
        if tex.is_empty() {
            TEXTURE_LOAD.trim_end().to_string()
        } else {
            rows_text(TEXTURE_LOAD, &tex)
        },
        LATENCY
    );
    let left_out = |why: String| Some(item(what, Err(why), None, None, from.clone()));
    let unit = if in_ns { "ns" } else { "clk" };
    // The buffer chase's step from its L1 to the next level.
    let l1 = levels.iter().find(|l| l.index == 0 && !l.memory);
    let next = levels.iter().find(|l| l.index == 1);
    let (Some(l1), Some(next)) = (l1.and_then(|l| l.lat), next.and_then(|l| l.lat)) else {
        return left_out("no L1 and next level on the latency curve".into());
    };
    let on_l1 = lat[l1.first..=l1.last]
        .iter()
        .any(|p| p.size == BESIDE_TEXTURE_BYTES);
    if !on_l1 {
        return left_out(format!(
            "the {kb} KB buffer set is not on the L1's plateau ({} … {})",
            curve::size_name(lat[l1.first].size),
            curve::size_name(lat[l1.last].size)
        ));
    }
    let step = next.median(lat) - l1.median(lat);
    if step <= l1.median(lat) * curve::TOLERANCE {
        // A CPU's curve can read its next level below its L1 (its timing's slow and fast
        // spells): no miss to look for.
        return left_out(format!(
            "the chase's next level is not slower than its L1 ({} against {} {unit})",
            num(next.median(lat)),
            num(l1.median(lat))
        ));
    }
    let Some(t) = curve::plateaus(&tex).first().copied() else {
        return left_out("no plateau on the texel-fetch chase alone".into());
    };
    let tex_end = tex[t.last].size;
    // The pair less the texture alone, at each size both have on the texture's plateau.
    let rises: Vec<(u64, f64)> = pair
        .iter()
        .filter(|p| p.size <= tex_end)
        .filter_map(|p| {
            let alone = tex[t.first..=t.last].iter().find(|q| q.size == p.size)?;
            Some((p.size, p.value - alone.value))
        })
        .collect();
    let Some(&(_, base)) = rises.first() else {
        return left_out("no size of the pair on the texture's first plateau".into());
    };
    let most = rises
        .iter()
        .map(|&(_, v)| v - base)
        .fold(f64::NEG_INFINITY, f64::max);
    let figures = [Quantity::of(
        most,
        if in_ns {
            Unit::Nanoseconds
        } else {
            Unit::Clocks
        },
    )];
    let of = format!(
        "+{} of {} {unit} at {}",
        num(most),
        num(step),
        curve::size_name(tex_end)
    );
    let from = format!("{from} (the step from L1: {} {unit})", num(step));
    if most >= step / 2.0 {
        let edge = curve::plateaus(&pair)
            .first()
            .and_then(|&p| curve::edge(&pair, p));
        let Some((a, b)) = edge else {
            return left_out("the pair rises with no edge of its own".into());
        };
        let value = format!(
            "one storage (past {} of texture the {kb} KB buffer set misses: {of})",
            short_range(a, b)
        );
        return Some(
            item(what, Ok(value), None, None, from).with(
                [Quantity::range(a as f64, b as f64, Unit::Bytes)]
                    .into_iter()
                    .chain(figures),
            ),
        );
    }
    let value = format!("separate (the {kb} KB buffer set stays: {of})");
    Some(item(what, Ok(value), None, None, from).with(figures))
}

/// The latency suite's chase through registers (the same index arithmetic, a multiply and a
/// shift where the load was): at most what the loop's own arithmetic adds to every level's
/// latency of the curve, so that a load's own latency can be read off. Only where the run
/// has the row, in the curve's unit.
fn loop_arithmetic(d: &Device, in_ns: bool) -> Option<Item> {
    let r = d.get(REGISTERS).filter(|r| r.ok())?;
    let mut figures = Vec::new();
    let value = if in_ns {
        figures.push(Quantity::of(r.latency_ns?, Unit::Nanoseconds));
        format!("≤ {} ns per step", num(r.latency_ns?))
    } else {
        let clk = r.latency_clk?;
        figures.push(Quantity::of(clk, Unit::Clocks));
        match r.clock_mhz {
            Some(mhz) => {
                figures.push(Quantity::of(clk / mhz * 1000.0, Unit::Nanoseconds));
                format!(
                    "≤ {} clk, {} ns per step",
                    num(clk),
                    num(clk / mhz * 1000.0)
                )
            }
            None => format!("≤ {} clk per step", num(clk)),
        }
    };
    Some(
        item(
            "the chase's own arithmetic",
            Ok(value),
            None,
            None,
            format!("{REGISTERS} (part of every level's latency above)"),
        )
        .with(figures),
    )
}

/// The median of plateau `s` of `lat` over the sweep's rows, without the edge probes a timed
/// run adds near its ends (all of its points where it has only those).
fn sweep_median(d: &Device, lat: &[Point], s: Span) -> f64 {
    let sweep: Vec<f64> = lat[s.first..=s.last]
        .iter()
        .filter(|p| d.get(&p.test).is_none_or(|r| !r.is_probe()))
        .map(|p| p.value)
        .collect();
    if sweep.is_empty() {
        s.median(lat)
    } else {
        curve::median(sweep)
    }
}

/// A level's load-to-use latency: the median of the load-to-use chase's rows over the sizes
/// of the level's latency plateau (memory: from its first size up), in the curve's unit.
fn load_to_use_item(
    level: &Level,
    lat: &[Point],
    s: Span,
    load_to_use: &[Point],
    d: &Device,
    in_ns: bool,
) -> Item {
    let lo = lat[s.first].size;
    let hi = if level.memory {
        u64::MAX
    } else {
        lat[s.last].size
    };
    let on: Vec<&Point> = load_to_use
        .iter()
        .filter(|p| p.size >= lo && p.size <= hi)
        .collect();
    let what = format!("{}: load-to-use latency", level.name);
    if on.is_empty() {
        return item(
            what,
            Err(format!(
                "no {}<size> row over the level's sizes ({} … {})",
                load_to_use_prefix(d),
                curve::size_name(lo),
                curve::size_name(lat[s.last].size)
            )),
            None,
            None,
            "",
        );
    };
    let median = curve::median(on.iter().map(|p| p.value));
    // What the indexed chase of the same level adds: its index arithmetic, in the curve's unit.
    let indexed = sweep_median(d, lat, s) - median;
    let unit = if in_ns { "ns" } else { "clk" };
    let under = format!("{} {unit} under the indexed chase", num(indexed));
    let mut figures = Vec::new();
    let value = if in_ns {
        figures.push(Quantity::of(median, Unit::Nanoseconds));
        format!("{} ns (p = *p, {under}; no shader clock)", num(median))
    } else {
        figures.push(Quantity::of(median, Unit::Clocks));
        let ns = curve::median(on.iter().filter_map(|p| {
            let r = d.get(&p.test)?;
            Some(r.latency_clk? / r.clock_mhz? * 1000.0)
        }));
        if ns.is_nan() {
            format!("{} clk (p = *p, {under})", num(median))
        } else {
            figures.push(Quantity::of(ns, Unit::Nanoseconds));
            format!("{} clk, {} ns (p = *p, {under})", num(median), num(ns))
        }
    };
    item(
        what,
        Ok(value),
        None,
        None,
        rows_text(load_to_use_prefix(d), on),
    )
    .with(figures)
}

/// The best ok row of `tests` by `key`, or why there is none.
fn best<'a>(
    d: &'a Device,
    tests: &[String],
    key: impl Fn(&Row) -> Option<f64>,
) -> Result<(&'a Row, f64), String> {
    let present: Vec<&Row> = tests.iter().filter_map(|t| d.get(t)).collect();
    let Some(first) = present.first() else {
        return Err(match tests {
            // (The cooperative-matrix items list the device's own rows: none of the type.)
            [] => "no row of this kind in the run".to_string(),
            [one] => format!("no `{one}` row"),
            _ => format!("no row of {} (`{}` …)", tests.len(), tests[0]),
        });
    };
    present
        .iter()
        .filter(|r| r.ok())
        .filter_map(|r| Some((*r, key(r)?)))
        .max_by(|a, b| a.1.total_cmp(&b.1))
        .ok_or_else(|| {
            let reason = if first.reason.is_empty() {
                String::new()
            } else {
                format!(" ({})", first.reason)
            };
            let all = if present.len() > 1 {
                format!("every one of {} rows is not ok; ", present.len())
            } else {
                String::new()
            };
            let status = first.status.map_or("", |s| s.word());
            format!("{all}`{}`: {status}{reason}", first.test)
        })
}

/// The host-link rows: 1 GB copies between system memory and the device, either way
/// (`to_device`), on either queue. By name, as every item's rows: no column tells a copy's
/// direction, memory type or queue.
pub fn host_copies(to_device: bool) -> Vec<String> {
    let mut v = Vec::new();
    for q in ["", " on the transfer queue"] {
        for m in ["host-coherent", "host-cached"] {
            v.push(if to_device {
                format!("transfer: vkCmdCopyBuffer {m} to device 1 GB{q}")
            } else {
                format!("transfer: vkCmdCopyBuffer device to {m} 1 GB{q}")
            });
        }
    }
    v
}

/// The health profile's host-link row each way (`to_device`): of [`host_copies`], the copy
/// on the compute queue from or to host-coherent memory. The item is the fastest of the rows
/// a run has, so the other three each way could only hide a slow one; run alone on a node,
/// they took 1.1 s of each GPU's 1.5 s host block and half its pinned memory, in turn
/// (`results/h200x4/node10-1128`), and read within 0.1 % of this one on an H200
/// (`results/h200/ab2-1128`: host-coherent to device 51.34 GB/s, the fastest of four 51.37).
pub fn profile_host_copy(to_device: bool) -> String {
    host_copies(to_device).swap_remove(0)
}

fn host(d: &Device) -> Section {
    let copies = host_copies;
    let items = [("host → device", true), ("device → host", false)]
        .into_iter()
        .map(|(what, to_device)| {
            let tests = copies(to_device);
            let figure = vendor::figure(&d.name, "host_gbps");
            match best(d, &tests, |r| r.gbytes_per_s) {
                Ok((row, g)) => item(
                    what,
                    Ok(format!("{} GB/s", num(g))),
                    Some((g, g)),
                    figure,
                    match tests.iter().filter(|t| d.get(t).is_some()).count() {
                        1 => row.test.clone(),
                        n => format!("{} (fastest of {n})", row.test),
                    },
                )
                .with([Quantity::of(g, Unit::GigabytesPerSecond)])
                .judged(Subsystem::HostLink, Worse::Lower, vec![row.test.clone()]),
                Err(why) => item(what, Err(why), None, figure, ""),
            }
        })
        .collect();
    Section {
        title: "Host link (1 GB copies, either queue)".into(),
        items,
    }
}

/// An arithmetic rate: the best of `tests` (each with the factor that makes its count
/// flops or ops with a multiply-add counted two), per clock per compute unit and per second.
fn rate(
    d: &Device,
    what: &str,
    tests: &[(&str, f64)],
    unit: Counted,
    figure: Option<Figure>,
    subsystem: Subsystem,
) -> Item {
    let names: Vec<String> = tests.iter().map(|(t, _)| t.to_string()).collect();
    let factor = |test: &str| {
        tests
            .iter()
            .find(|(t, _)| *t == test)
            .map_or(1.0, |(_, f)| *f)
    };
    // Ranked per clock where the row has it (rows at other clocks compare), else per second.
    let key = |r: &Row| Some(r.loads_per_clk_per_cu.or(r.gloads_per_s)? * factor(&r.test));
    match best(d, &names, key) {
        Ok((row, _)) => {
            let f = factor(&row.test);
            let per_s = row.gloads_per_s.unwrap_or(f64::NAN) * f / 1000.0;
            let (small, big_unit) = if unit == Counted::Flops {
                (Unit::FlopsPerClockPerCu, Unit::Teraflops)
            } else {
                (Unit::OpsPerClockPerCu, Unit::Teraops)
            };
            let mut figures = Vec::new();
            let per_clk = match row.loads_per_clk_per_cu {
                Some(v) => {
                    figures.push(Quantity::of(v * f, small));
                    format!("{} {unit}/clk/CU, ", num(v * f))
                }
                None => "no clock: per clock left out, ".into(),
            };
            figures.push(Quantity::of(per_s, big_unit));
            let big = if unit == Counted::Flops {
                "TFLOP/s"
            } else {
                "TOP/s"
            };
            let counted = if f == 2.0 {
                " ×2 (a multiply-add counted one op there)"
            } else {
                ""
            };
            let of = if names.len() > 1 {
                format!("; best of {}", names.len())
            } else {
                String::new()
            };
            item(
                what,
                Ok(format!("{per_clk}{} {big}", num(per_s))),
                Some((per_s, per_s)),
                figure,
                format!("{}{counted}{of}", row.test),
            )
            .with(figures)
            .judged(subsystem, Worse::Lower, vec![row.test.clone()])
        }
        Err(why) => item(what, Err(why), None, figure, ""),
    }
}

/// The input type of a cooperative-matrix row (`f16` of `… 16x16x16 f16*f16+f32 …`). From
/// the name: it takes catalog names as well as rows ([`super::health::in_profile`]), and the
/// `format` column spells the types as GLSL does (`float16_t*float16_t+float`) where the
/// items' tables are keyed by the name's short form (`f16`).
pub fn matrix_type(test: &str) -> Option<&str> {
    if !test.starts_with("matrix: coopmat") {
        return None;
    }
    let types = test
        .split(' ')
        .find(|w| w.contains('*') && w.contains('+'))?;
    types.split('*').next()
}

/// An arithmetic item: what, its rows with their factors, its unit, its figure's key, and
/// the subsystem the fleet verdict files it under.
pub type Rate = (
    &'static str,
    &'static [(&'static str, f64)],
    Counted,
    Option<&'static str>,
    Subsystem,
);

/// The arithmetic items: what, the rows (each with the factor that counts a multiply-add
/// two), the unit, and the published figure's key.
pub const RATES: [Rate; 7] = [
    (
        "fp32",
        &[("fp32 fma", 2.0), ("matrix: peak fp32 vec4 fma", 1.0)],
        Counted::Flops,
        Some("fp32_tflops"),
        Subsystem::Arithmetic,
    ),
    (
        "fp16 (not tensor)",
        &[
            ("fp16 fma", 2.0),
            ("fp16x2 fma (packed)", 2.0),
            ("matrix: peak fp16 vec4 fma", 1.0),
        ],
        Counted::Flops,
        Some("fp16_tflops"),
        Subsystem::Arithmetic,
    ),
    (
        "fp64",
        &[("fp64 fma", 2.0), ("matrix: peak fp64 vec4 fma", 1.0)],
        Counted::Flops,
        Some("fp64_tflops"),
        Subsystem::Arithmetic,
    ),
    (
        "int32 multiply-add",
        &[("int32 mad", 2.0), ("matrix: peak int32 vec4 mul+add", 1.0)],
        Counted::Ops,
        Some("int32_tops"),
        Subsystem::Arithmetic,
    ),
    (
        "int8 dot product",
        &[
            ("matrix: dot 4x8-bit packed signed (+add)", 1.0),
            ("matrix: dot 4x8-bit packed unsigned (+add)", 1.0),
            ("matrix: dot 4x8-bit packed mixed (+add)", 1.0),
        ],
        Counted::Ops,
        None,
        Subsystem::Matrix,
    ),
    (
        "fp16 dot product",
        &[("matrix: dot f16vec2", 1.0)],
        Counted::Flops,
        None,
        Subsystem::Matrix,
    ),
    (
        "bf16 dot product",
        &[("matrix: dot bf16vec2", 1.0)],
        Counted::Flops,
        None,
        Subsystem::Matrix,
    ),
];

fn arithmetic(d: &Device) -> Section {
    let f = |key: &str| vendor::figure(&d.name, key);
    let mut items: Vec<Item> = RATES
        .iter()
        .map(|(what, tests, unit, key, subsystem)| {
            rate(d, what, tests, *unit, key.and_then(f), *subsystem)
        })
        .collect();
    // The cooperative-matrix rows the device ran, whichever configurations its driver lists.
    let matrix: Vec<&str> = d
        .rows
        .iter()
        .map(|r| r.test.as_str())
        .filter(|n| matrix_type(n).is_some())
        .collect();
    for (label, types, unit, key) in [
        (
            "fp16 matrix",
            &["f16"][..],
            Counted::Flops,
            "fp16_tensor_tflops",
        ),
        (
            "bf16 matrix",
            &["bf16"],
            Counted::Flops,
            "bf16_tensor_tflops",
        ),
        (
            "fp8 matrix",
            &["e4m3", "e5m2"],
            Counted::Flops,
            "fp8_tensor_tflops",
        ),
        (
            "int8 matrix",
            &["s8", "u8"],
            Counted::Ops,
            "int8_tensor_tops",
        ),
    ] {
        let tests: Vec<(&str, f64)> = matrix
            .iter()
            .filter(|n| matrix_type(n).is_some_and(|t| types.contains(&t)))
            .map(|n| (*n, 1.0))
            .collect();
        items.push(rate(d, label, &tests, unit, f(key), Subsystem::Matrix));
    }
    for (label, key, why) in [
        (
            "tf32 matrix",
            "tf32_tensor_tflops",
            "the matrix suite has no tf32 configuration",
        ),
        (
            "fp64 matrix",
            "fp64_tensor_tflops",
            "the matrix suite has no fp64 configuration",
        ),
    ] {
        if let Some(figure) = f(key) {
            items.push(item(label, Err(why.into()), None, Some(figure), ""));
        }
    }
    Section {
        title: "Arithmetic (a multiply-add counts two; at each row's clock)".into(),
        items,
    }
}

/// The dispatch items: what, and the row each is read from.
/// The last two are bound by the host's submission path (a queue submit, a fence wait): the
/// fleet verdict judges them as the host's ([`Subsystem::HostSubmit`]), not the GPU's.
pub const DISPATCH: [(&str, &str); 5] = [
        (
            "back to back",
            "dispatch: 1024 empty dispatches, one command buffer",
        ),
        (
            "dependent (a barrier after each)",
            "dispatch: 1024 empty dispatches, one command buffer, a barrier after each",
        ),
        (
            "chained (each reads the last)",
            "dispatch: 1024 dispatches, each reading the word the one before wrote, one command buffer, a barrier after each",
        ),
        (
            "one submit each",
            "dispatch: 256 empty dispatches, one submit each",
        ),
        (
            "round trip (submit and wait)",
            "dispatch: submit and wait, one empty dispatch each",
        ),
];

fn dispatch(d: &Device) -> Section {
    let items = DISPATCH
        .into_iter()
        .enumerate()
        .map(|(i, (what, test))| {
            let subsystem = if i >= 3 {
                Subsystem::HostSubmit
            } else {
                Subsystem::Dispatch
            };
            match best(d, &[test.to_string()], |r| r.ms_median) {
                Ok((_, ms)) => item(
                    what,
                    Ok(format!("{} µs", num(ms * 1000.0))),
                    None,
                    None,
                    test,
                )
                .with([Quantity::of(ms * 1000.0, Unit::Microseconds)])
                .judged(subsystem, Worse::Higher, vec![test.to_string()]),
                Err(why) => item(what, Err(why), None, None, ""),
            }
        })
        .collect();
    Section {
        title: "Dispatch (per dispatch; the bandwidth suite's dispatch: rows)".into(),
        items,
    }
}

/// The load path: the original suite's best and worst row per pattern. Rows by the pattern
/// their name ends with: the `pattern` column says the same but is text in a row (the typed
/// pattern is the suites' own), and these are the names the published ratios are keyed by.
fn loads(d: &Device, catalog: &Catalog) -> Section {
    let names: Vec<&str> = catalog.names(Suite::Original).collect();
    let published = vendor::published_gpu(&d.name);
    let mut items = Vec::new();
    for pattern in ["uniform", "linear", "random"] {
        let rows: Vec<&Row> = names
            .iter()
            .filter(|n| n.ends_with(&format!(" {pattern}")))
            .filter_map(|n| d.get(n))
            .filter(|r| r.ok())
            .collect();
        if rows.is_empty() {
            items.push(item(
                format!("{pattern}: best and worst"),
                Err(format!("no original-suite `… {pattern}` row ran")),
                None,
                None,
                "",
            ));
            continue;
        }
        let per_clk = rows.iter().all(|r| r.loads_per_clk_per_cu.is_some());
        let key = |r: &Row| {
            if per_clk {
                r.loads_per_clk_per_cu
            } else {
                r.gloads_per_s
            }
        };
        let by = |a: &&&Row, b: &&&Row| key(a).unwrap_or(0.0).total_cmp(&key(b).unwrap_or(0.0));
        let best = rows.iter().max_by(by).unwrap();
        let worst = rows.iter().min_by(by).unwrap();
        for (which, row) in [("best", best), ("worst", worst)] {
            let mut figures = Vec::new();
            let rate = if per_clk {
                let v = row.loads_per_clk_per_cu.unwrap_or(0.0);
                figures.push(Quantity::of(v, Unit::LoadsPerClockPerCu));
                format!("{} loads/clk/CU", num(v))
            } else {
                let v = row.gloads_per_s.unwrap_or(0.0);
                figures.push(Quantity::of(v, Unit::GigaloadsPerSecond));
                format!("{} Gloads/s", num(v))
            };
            figures.extend(row.ratio.map(|r| Quantity::of(r, Unit::Ratio)));
            let ratio = row
                .ratio
                .map_or(String::new(), |r| format!(", ratio {r:.3}"));
            let figure = published.and_then(|p| {
                Some(Figure {
                    device: d.name.clone(),
                    key: "published_ratio".into(),
                    value: p.ratio(&row.test)?,
                    unit: "ratio".into(),
                    what: format!("PerfTest's published ratio on {}", p.heading),
                    source: p.source.clone(),
                })
            });
            items.push(
                item(
                    format!("{pattern}: {which}"),
                    Ok(format!("{rate}{ratio}")),
                    row.ratio.map(|r| (r, r)),
                    figure,
                    format!("{} (of {} {pattern} rows)", row.test, rows.len()),
                )
                .with(figures)
                .judged(Subsystem::LoadPath, Worse::Lower, vec![row.test.clone()]),
            );
        }
    }
    Section {
        title: "Load path (the original suite, per pattern; ratio to Buffer<RGBA8>.Load random)"
            .into(),
        items,
    }
}
