//! `perftest report`: one self-contained HTML file (inline SVG and CSS, nothing fetched)
//! from CSV or JSON results: device and provenance, summary, and each suite's figure.

mod chart;
mod runs;
mod several;
mod suites;
mod svg;
mod table;
#[cfg(test)]
mod tests;

use crate::compare::{self, read};
use crate::document::Device;
use crate::output::OutFile;
use crate::published::Reference;
use crate::vocab::{Conditions, Status};
use crate::words::Words;
use crate::Catalog;
use anyhow::{bail, Result};
use runs::{Row, Run, SuiteKey};
use several::Mode;
use std::collections::HashMap;
use std::path::{Path, PathBuf};
use svg::esc;

/// The page's Content-Security-Policy: nothing may be fetched (no script, font, image or
/// style from anywhere but the page itself), so the page opens offline and leaks nothing.
pub const CSP: &str = "default-src 'none'; style-src 'unsafe-inline'; img-src data:";

/// Reads `paths`, builds the report and writes it to `output`, opened as every output is
/// ([`OutFile`]: a regular file replaced through a temporary file beside it, so a failed
/// report leaves no file and an old one untouched; a device or FIFO written in place; a
/// symlink followed; an input or a read-only file refused before anything is read).
pub fn write(
    paths: &[PathBuf],
    references: &[&'static Reference],
    catalog: &Catalog,
    output: &Path,
) -> Result<()> {
    if paths.is_empty() {
        bail!("report needs at least one CSV or JSON file written by perftest");
    }
    let out = OutFile::open("-o", output, paths)?;
    let html = build(paths, references, catalog)?;
    out.write(html.as_bytes())
}

/// The report's HTML for the result files `paths`.
pub fn build(
    paths: &[PathBuf],
    references: &[&'static Reference],
    catalog: &Catalog,
) -> Result<String> {
    let tables = compare::labels(paths)
        .into_iter()
        .zip(paths)
        .map(|(label, p)| Ok((label, read::read_path(p)?)))
        .collect::<Result<Vec<_>>>()?;
    let runs = runs::gather(&tables)?;
    let summaries = crate::summary::summarise(&sources(&tables), catalog);
    Ok(page(&runs, references, &summaries, catalog))
}

/// The report's HTML for `(label, text)` result files.
#[cfg(test)]
fn build_text(inputs: &[(&str, String)], references: &[&'static Reference]) -> Result<String> {
    let catalog = &crate::suite::test_catalog();
    let tables = inputs
        .iter()
        .map(|(label, text)| Ok((label.to_string(), read::read_text(label, text)?)))
        .collect::<Result<Vec<_>>>()?;
    let summaries = crate::summary::summarise(&sources(&tables), catalog);
    Ok(page(
        &runs::gather(&tables)?,
        references,
        &summaries,
        catalog,
    ))
}

/// Each file's name and rows, as the summary reads them.
fn sources(tables: &[(String, read::Table)]) -> Vec<(&str, &[Row])> {
    tables
        .iter()
        .map(|(_, t)| (t.source.as_str(), t.rows.as_slice()))
        .collect()
}

/// Every suite the runs have, in suite order, with its tests in order of first appearance.
fn suites(runs: &[Run], catalog: &Catalog) -> Vec<(SuiteKey, Vec<String>)> {
    let mut out: Vec<(SuiteKey, Vec<String>)> = Vec::new();
    let mut seen: HashMap<String, ()> = HashMap::new();
    for run in runs {
        for row in &run.rows {
            if seen.insert(row.test.clone(), ()).is_some() {
                continue;
            }
            let key = runs::suite_of(row, catalog);
            match out.iter_mut().find(|(k, _)| *k == key) {
                Some((_, tests)) => tests.push(row.test.clone()),
                None => out.push((key, vec![row.test.clone()])),
            }
        }
    }
    out.sort_by(|a, b| a.0.cmp(&b.0));
    out
}

fn page(
    runs: &[Run],
    references: &[&'static Reference],
    summaries: &[crate::summary::Summary],
    catalog: &Catalog,
) -> String {
    let suites = suites(runs, catalog);
    let mode = several::mode(runs);
    let devices: Vec<&str> = runs.iter().fold(Vec::new(), |mut v, r| {
        if !v.contains(&r.device.as_str()) {
            v.push(&r.device);
        }
        v
    });
    let title = format!("perftest report: {}", devices.join(", "));
    let mut body = format!(
        "<header><h1>{}</h1><p>{} run{} from {} file{} · perftest {}</p></header>\n",
        esc(&title),
        runs.len(),
        if runs.len() == 1 { "" } else { "s" },
        runs.iter().map(|r| r.files.len()).sum::<usize>(),
        if runs.iter().map(|r| r.files.len()).sum::<usize>() == 1 {
            ""
        } else {
            "s"
        },
        env!("CARGO_PKG_VERSION")
    );
    let mut nav = vec![
        ("at-a-glance".to_string(), "At a glance".to_string()),
        ("device".to_string(), "Device".to_string()),
        ("summary".into(), "Summary".into()),
    ];
    match mode {
        Mode::SideBySide => nav.push(("changes".into(), "Changes".into())),
        Mode::Fleet => nav.push(("fleet".into(), "Fleet".into())),
        Mode::Single => {}
    }
    nav.extend(
        suites
            .iter()
            .map(|(k, _)| (format!("suite-{}", k.name()), k.name())),
    );
    body += "<nav>";
    body += &nav
        .iter()
        .map(|(id, text)| format!("<a href=\"#{}\">{}</a>", esc(id), esc(text)))
        .collect::<Vec<_>>()
        .join(" · ");
    body += "</nav>\n";
    body += &at_a_glance(summaries);
    body += &provenance(runs);
    body += &summary(runs);
    match mode {
        Mode::SideBySide => body += &several::side_by_side(runs, &suites),
        Mode::Fleet => body += &several::fleet(runs, &suites, catalog),
        Mode::Single => {}
    }
    let view = suites::View {
        runs,
        references,
        fleet: mode == Mode::Fleet,
    };
    for (key, tests) in &suites {
        body += &suites::section(&view, key, tests);
    }
    format!(
        "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">\n\
         <meta http-equiv=\"Content-Security-Policy\" content=\"{CSP}\">\n\
         <meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n\
         <title>{}</title>\n<style>{STYLE}</style></head>\n<body>\n{body}</body></html>\n",
        esc(&title)
    )
}

/// Type-setting: a readable column at a laptop's width; charts scale to it.
const STYLE: &str = "
body{font:15px/1.45 system-ui,-apple-system,'Segoe UI',Roboto,'DejaVu Sans',sans-serif;
 color:#222;margin:0 auto;padding:0 18px 40px;max-width:1000px}
h1{font-size:24px;margin:18px 0 4px}h2{font-size:20px;margin:28px 0 8px;
 border-bottom:1px solid #ccc}h3{font-size:16px;margin:18px 0 6px}
nav{margin:8px 0 12px;font-size:14px}a{color:#2a5db0}
svg.chart{width:100%;height:auto;display:block;font-family:inherit}
svg.chart text{fill:#222}svg.chart .axis{font-weight:600}svg.chart .group{font-weight:600;fill:#555}
figure{margin:10px 0 18px}figcaption{font-size:13px;color:#555}
.scroll{overflow-x:auto;margin:6px 0 12px}
table{border-collapse:collapse;font-size:13px}th,td{padding:2px 8px;border-bottom:1px solid #eee;
 text-align:left;vertical-align:top}th{background:#f4f4f4}th.run{text-align:center}
td.n{text-align:right;font-variant-numeric:tabular-nums}td.test{white-space:nowrap}
td.unsupported{color:#8a6d00}td.failed{color:#b00020;font-weight:600}td.absent{color:#999}
.reason{font-weight:400;color:#666;font-size:12px}
details{margin:6px 0 14px}summary{cursor:pointer;color:#2a5db0}
";

/// What each GPU is, on one screen: `perftest summary` of the report's rows, at its top.
fn at_a_glance(summaries: &[crate::summary::Summary]) -> String {
    let mut out = String::from(
        "<section id=\"at-a-glance\"><h2>At a glance: what the GPU is</h2>\n<p class=\"reason\">\
         Each value derived from the rows by the rules of docs/summary.md (as <code>perftest \
         summary</code> prints it), with the rows it came from, beside the vendor's published \
         figure where perftest knows it.</p>\n",
    );
    let header: Vec<String> = ["what", "measured", "published", "ratio", "from"]
        .iter()
        .map(|h| h.to_string())
        .collect();
    for s in summaries {
        out += &format!("<h3>{}</h3>\n", esc(&s.heading));
        let (lines, sources) = crate::summary::text::cells(s);
        let mut titles = s.sections.iter();
        let mut body: Vec<Vec<String>> = Vec::new();
        let flush = |body: &mut Vec<Vec<String>>, out: &mut String| {
            if !body.is_empty() {
                *out += &table::properties(&header, body);
                body.clear();
            }
        };
        for l in &lines {
            match l {
                None => {
                    flush(&mut body, &mut out);
                    let title = titles.next().map_or("", |t| t.title.as_str());
                    out += &format!("<h4>{}</h4>\n", code_spans(&esc(title)));
                }
                Some(c) => body.push(c.to_vec()),
            }
        }
        flush(&mut body, &mut out);
        for (i, src) in sources.iter().enumerate() {
            out += &format!("<p class=\"reason\">[{}] {}</p>\n", i + 1, esc(src));
        }
    }
    out += "</section>\n";
    out
}

/// Escaped text with its `backquoted` spans (test names in the summary's titles) set as code.
fn code_spans(escaped: &str) -> String {
    escaped
        .split('`')
        .enumerate()
        .map(|(i, part)| {
            if i % 2 == 1 {
                format!("<code>{part}</code>")
            } else {
                part.to_string()
            }
        })
        .collect()
}

/// One column per run: where and with what it ran.
// Long on purpose: one table, a line per fact of provenance.
fn provenance(runs: &[Run]) -> String {
    let json = |r: &Run, f: &dyn Fn(&Device) -> Option<String>| -> String {
        let mut v: Vec<String> = r.json.iter().filter_map(|(d, _)| f(d)).collect();
        v.dedup();
        v.join(", ")
    };
    // Text columns: the first row's that has one, or every distinct one.
    let first = |r: &Run, c: fn(&Row) -> &str| r.first(|row| c(row).to_string());
    let all = |r: &Run, c: fn(&Row) -> &str| {
        let mut v: Vec<&str> = Vec::new();
        for row in &r.rows {
            let x = c(row);
            if !x.is_empty() && !v.contains(&x) {
                v.push(x);
            }
        }
        v.join(", ")
    };
    // A count or number as the file wrote it (`1` ns, `1.0416666` ns).
    let text = |v: Option<String>| v.unwrap_or_default();
    type Line = (&'static str, Box<dyn Fn(&Run) -> String>);
    let lines: Vec<Line> = vec![
        ("device", Box::new(|r| r.device.clone())),
        ("type", Box::new(move |r| first(r, |x| &x.device_type))),
        (
            "PCI id",
            Box::new(move |r| {
                format!(
                    "{}:{}",
                    first(r, |x| &x.vendor_id),
                    first(r, |x| &x.device_id)
                )
                .trim_matches(':')
                .to_string()
            }),
        ),
        ("driver", Box::new(move |r| first(r, |x| &x.driver))),
        (
            "driver version",
            Box::new(move |r| first(r, |x| &x.driver_version)),
        ),
        ("Vulkan", Box::new(move |r| first(r, |x| &x.api_version))),
        (
            "compute units",
            Box::new(move |r| r.first(|x| text(x.compute_units.map(|n| n.to_string())))),
        ),
        (
            "subgroup size",
            Box::new(move |r| json(r, &|d| d.subgroup_size.map(|n| n.to_string()))),
        ),
        ("UUID", Box::new(move |r| json(r, &|d| d.uuid.clone()))),
        (
            "timestamp period",
            Box::new(move |r| {
                let p = r.first(|x| text(x.timestamp_period_ns.map(|p| p.to_string())));
                if p.is_empty() {
                    p
                } else {
                    let bits = r.first(|x| text(x.timestamp_valid_bits.map(|b| b.to_string())));
                    format!("{p} ns, {bits} bits")
                }
            }),
        ),
        ("perftest", Box::new(move |r| all(r, |x| &x.tool_version))),
        ("git commit", Box::new(move |r| all(r, |x| &x.git_commit))),
        ("shaderc", Box::new(move |r| all(r, |x| &x.shaderc_version))),
        ("files", Box::new(|r| r.files.join(", "))),
        (
            "rows repeated",
            Box::new(|r| {
                if r.repeated == 0 {
                    String::new()
                } else {
                    format!(
                        "{} (a later file's row of a test the run had: left out)",
                        r.repeated
                    )
                }
            }),
        ),
        (
            "command line",
            Box::new(|r| {
                r.json
                    .iter()
                    .filter_map(|(_, c)| c.as_ref())
                    .map(|c| c.join(" "))
                    .collect::<Vec<_>>()
                    .join("; ")
            }),
        ),
    ];
    let mut header = vec![String::new()];
    header.extend(runs.iter().map(|r| r.label.clone()));
    let body: Vec<Vec<String>> = lines
        .iter()
        .map(|(name, f)| {
            let mut row = vec![name.to_string()];
            row.extend(runs.iter().map(f));
            row
        })
        .filter(|row| row[1..].iter().any(|c| !c.is_empty()))
        .collect();
    format!(
        "<section id=\"device\"><h2>Device and provenance</h2>\n{}</section>\n",
        table::properties(&header, &body)
    )
}

/// Whether a row failed: neither ok nor unsupported (an error, a mismatch, an interrupted
/// test, or no status at all).
fn failed_row(row: &Row) -> bool {
    !matches!(row.status, Some(Status::Ok | Status::Unsupported))
}

/// Per run: rows by status, rows by conditions, the clock; then every row that failed and
/// the reasons rows were unsupported.
// Long on purpose: one section's tables, in the order the page shows them.
fn summary(runs: &[Run]) -> String {
    let count =
        |r: &Run, status: Status| r.rows.iter().filter(|x| x.status == Some(status)).count();
    let flagged = |r: &Run, c: Conditions| r.rows.iter().filter(|x| x.conditions == c).count();
    let failed = |r: &Run| r.rows.iter().filter(|x| failed_row(x)).count();
    let header = [
        "run",
        "rows",
        "ok",
        "unsupported",
        "failed",
        "re-measured",
        "throttled",
        "contended",
        "disturbed",
        "clock MHz (median, range)",
        "driver clock MHz (median, range)",
        "power W (median, range)",
        "steady clock MHz",
    ]
    .map(String::from);
    let body: Vec<Vec<String>> = runs
        .iter()
        .map(|r| {
            // The median and range of a column over the run's rows; `none` where it has none.
            let spread = |column: fn(&Row) -> Option<f64>, none: &str| {
                let mut v: Vec<f64> = r.rows.iter().filter_map(column).collect();
                v.sort_by(f64::total_cmp);
                match (v.first(), v.last()) {
                    (Some(lo), Some(hi)) => format!("{:.0} ({lo:.0}–{hi:.0})", v[v.len() / 2]),
                    _ => none.to_string(),
                }
            };
            let clock = spread(|x| x.clock_mhz, "no shader clock");
            let driver = spread(|x| x.driver_sm_mhz, "");
            let power = spread(|x| x.power_w, "");
            let steady: Vec<String> = r
                .json
                .iter()
                .filter_map(|(d, _)| d.calibration.as_ref()?.steady_mhz())
                .map(|c| format!("{c:.0}"))
                .collect();
            vec![
                r.label.clone(),
                r.rows.len().to_string(),
                count(r, Status::Ok).to_string(),
                count(r, Status::Unsupported).to_string(),
                failed(r).to_string(),
                flagged(r, Conditions::Remeasured).to_string(),
                flagged(r, Conditions::Throttled).to_string(),
                flagged(r, Conditions::Contended).to_string(),
                flagged(r, Conditions::Disturbed).to_string(),
                clock,
                driver,
                power,
                steady.join(", "),
            ]
        })
        .collect();
    // The steady clock comes from JSON files only, the driver's columns from runs with a
    // management interface: no column where no run has one.
    let (mut header, mut body) = (header.to_vec(), body);
    for at in (header.len() - 3..header.len()).rev() {
        if body.iter().all(|r| r[at].is_empty()) {
            header.remove(at);
            body.iter_mut().for_each(|r| {
                r.remove(at);
            });
        }
    }
    let mut out = String::from("<section id=\"summary\"><h2>Summary</h2>\n");
    out += &table::plain(&header, &body);
    let mut problems: Vec<Vec<String>> = Vec::new();
    for r in runs {
        for x in r.rows.iter().filter(|x| failed_row(x)) {
            problems.push(vec![
                r.label.clone(),
                x.test.clone(),
                x.status.map_or_else(String::new, |s| s.word().to_string()),
                x.reason.clone(),
            ]);
        }
    }
    if !problems.is_empty() {
        out += &format!("<h3>Rows that failed ({})</h3>\n", problems.len());
        out += &table::plain(
            &["run", "test", "status", "reason"].map(String::from),
            &problems,
        );
    }
    let mut reasons: Vec<(String, String, usize)> = Vec::new();
    for r in runs {
        for x in r
            .rows
            .iter()
            .filter(|x| x.status == Some(Status::Unsupported))
        {
            let reason = x.reason.clone();
            match reasons
                .iter_mut()
                .find(|(l, why, _)| *l == r.label && *why == reason)
            {
                Some(e) => e.2 += 1,
                None => reasons.push((r.label.clone(), reason, 1)),
            }
        }
    }
    if !reasons.is_empty() {
        let body: Vec<Vec<String>> = reasons
            .into_iter()
            .map(|(l, why, n)| vec![l, why, n.to_string()])
            .collect();
        out += &format!(
            "<details><summary>Why rows were unsupported ({} reason{})</summary>\n{}</details>\n",
            body.len(),
            if body.len() == 1 { "" } else { "s" },
            table::plain(&["run", "reason", "rows"].map(String::from), &body)
        );
    }
    out += "</section>\n";
    out
}
