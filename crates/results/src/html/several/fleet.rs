//! A fleet: many runs of one GPU and driver, judged by the fleet verdict's rules (`perftest fleet`, docs/fleet.md): degraded items by machine and subsystem, and each run's deviation from the median per test.

use super::{change_axis, metric, pct, style, FLEET_RUNS};
use crate::fleet::{self, text::finding_line, Gpu, Status};
use crate::html::chart::{self, DotRow};
use crate::html::runs::{Run, SuiteKey};
use crate::html::svg::{self, esc, Marker};
use crate::html::table;
use crate::{median, Catalog};

/// One test across the fleet: the median and each run's value.
struct Spread<'a> {
    test: &'a str,
    unit: &'static str,
    median: f64,
    /// Per run: its value.
    runs: Vec<Option<f64>>,
}

/// Every test that at least [`FLEET_RUNS`] runs timed, with the median (for the strip and
/// the table; the verdict judges items, not tests).
fn spreads<'a>(runs: &[Run], suites: &'a [(SuiteKey, Vec<String>)]) -> Vec<Spread<'a>> {
    let mut out = Vec::new();
    for (key, tests) in suites {
        for t in tests {
            let values: Vec<Option<(f64, &'static str)>> = runs
                .iter()
                .map(|r| metric(r.row(t)?, key).filter(|(v, _)| *v > 0.0))
                .collect();
            let present: Vec<&(f64, &str)> = values.iter().flatten().collect();
            if present.len() < FLEET_RUNS || present.iter().any(|p| p.1 != present[0].1) {
                continue;
            }
            out.push(Spread {
                test: t,
                unit: present[0].1,
                median: median(present.iter().map(|p| p.0)),
                runs: values.iter().map(|v| v.map(|(v, _)| v)).collect(),
            });
        }
    }
    out
}

/// The runs as the fleet verdict takes them: each run one GPU, its machine and UUID from
/// its rows (or its JSON device entry).
pub fn gpus(runs: &[Run]) -> Vec<Gpu> {
    runs.iter()
        .map(|r| {
            let uuid = r.first(|row| row.device_uuid.clone());
            let uuid = if uuid.is_empty() {
                r.json
                    .iter()
                    .find_map(|(d, _)| d.uuid.clone())
                    .unwrap_or_default()
            } else {
                uuid
            };
            Gpu {
                label: r.label.clone(),
                host: r.first(|row| row.host.clone()),
                uuid,
                device: r
                    .rows
                    .first()
                    .map_or_else(String::new, |row| row.device_name.clone()),
                driver: r
                    .rows
                    .first()
                    .map_or_else(String::new, |row| row.driver.clone()),
                rows: r.rows.clone(),
                file: Default::default(),
            }
        })
        .collect()
}

/// The fleet: the verdict (each run healthy, degraded or not judged; the degraded items by
/// machine and subsystem, with the numbers each call rests on), each run's deviations from
/// the median of every test as a strip, and every deviation in a table.
// Long on purpose: the verdict, the strip per run and the table come from one pass.
pub fn fleet(runs: &[Run], suites: &[(SuiteKey, Vec<String>)], catalog: &Catalog) -> String {
    let spreads = spreads(runs, suites);
    let verdict = fleet::judge(&gpus(runs), catalog, fleet::FLOOR_PCT);
    let mut out = format!(
        "<section id=\"fleet\"><h2>Fleet: {} runs of {}</h2>\n<p>Each run judged as \
         <code>perftest fleet</code> judges a GPU (docs/fleet.md): its summary, item by item \
         (L1, L2 and memory bandwidth and latency, the host link, arithmetic and matrix \
         peaks, dispatch, the load path), against the fleet's median of the same rows. A run \
         is <b>degraded</b> in an item where it is slower by more than the largest of three \
         robust standard deviations of the fleet (1.4826 × the median absolute deviation), \
         twice its rows' own spread and {:.0} %; faster is noted, never a fault. Rows a run \
         flagged (<code>throttled</code>, <code>contended</code>, <code>disturbed</code>) are \
         not judged.</p>\n",
        runs.len(),
        esc(&runs[0].device),
        verdict.floor_pct
    );
    let counts: Vec<Vec<String>> = verdict
        .gpus()
        .map(|g| {
            let flagged: usize = g
                .left_out
                .iter()
                .filter(|l| l.cause.is_flagged())
                .map(|l| l.rows)
                .sum();
            vec![
                g.label.clone(),
                g.status.word().to_string(),
                g.findings
                    .iter()
                    .filter(|f| !f.tests.is_empty())
                    .count()
                    .to_string(),
                g.degraded().count().to_string(),
                flagged.to_string(),
            ]
        })
        .collect();
    out += &table::plain(
        &[
            "run",
            "verdict",
            "items judged",
            "degraded",
            "rows flagged (not judged)",
        ]
        .map(String::from),
        &counts,
    );
    // The degraded items by machine, then subsystem; a machine's shared ones once.
    let mut listed: Vec<(String, String, String)> = Vec::new();
    let mut suspect: Vec<(String, String, String)> = Vec::new();
    for m in &verdict.machines {
        listed.push((
            format!("machine {}", m.host),
            m.subsystem.to_string(),
            format!(
                "{} {:+.1} % on every one of its {} GPUs",
                fleet::text::item_name(m.subsystem, &m.item),
                m.deviation_pct,
                m.gpus
            ),
        ));
    }
    for g in verdict.gpus() {
        let machine = if g.host.is_empty() {
            "machine not named".to_string()
        } else {
            format!("machine {}", g.host)
        };
        for f in g.degraded().filter(|f| f.machine.is_none()) {
            listed.push((
                machine.clone(),
                f.subsystem.to_string(),
                format!("{}: {}", g.label, finding_line(f)),
            ));
        }
        for f in g
            .findings
            .iter()
            .filter(|f| f.call == fleet::Call::Unconfirmed && f.machine.is_none())
        {
            suspect.push((
                machine.clone(),
                f.subsystem.to_string(),
                format!("{}: {}", g.label, finding_line(f)),
            ));
        }
    }
    listed.sort();
    suspect.sort();
    if !suspect.is_empty() {
        out += &format!(
            "<h3>Suspect ({}): worse in a run that no other run of its GPU re-measured</h3>\n{}",
            suspect.len(),
            table::plain(
                &["machine", "subsystem", "what"].map(String::from),
                &suspect
                    .iter()
                    .map(|(m, s, w)| vec![m.clone(), s.clone(), w.clone()])
                    .collect::<Vec<_>>(),
            )
        );
    }
    if listed.is_empty() {
        out += if verdict.gpus().any(|g| g.status == Status::NotJudged) {
            "<p>Not every run could be judged (see the table).</p>\n"
        } else if !suspect.is_empty() {
            "<p>No item degraded (confirmed).</p>\n"
        } else {
            "<p>Every run healthy: no item degraded.</p>\n"
        };
    } else {
        out += &format!(
            "<h3>Degraded ({})</h3>\n{}",
            listed.len(),
            table::plain(
                &["machine", "subsystem", "what"].map(String::from),
                &listed
                    .iter()
                    .map(|(m, s, w)| vec![m.clone(), s.clone(), w.clone()])
                    .collect::<Vec<_>>(),
            )
        );
    }
    let styles = [
        (
            style("#aaaaaa", Marker::Dot),
            "a test's deviation".to_string(),
        ),
        (
            style("#e15759", Marker::Ring),
            "a test under a degraded item".into(),
        ),
    ];
    // Each run's verdict by its label (a run the verdict left out as a duplicate has none).
    let under: Vec<Vec<&str>> = runs
        .iter()
        .map(|r| {
            verdict
                .gpus()
                .filter(|g| g.label == r.label)
                .flat_map(|g| g.degraded())
                .flat_map(|f| f.tests.iter().map(String::as_str))
                .collect()
        })
        .collect();
    let rows: Vec<DotRow> = runs
        .iter()
        .enumerate()
        .map(|(i, run)| DotRow {
            label: run.label.clone(),
            group: None,
            dots: spreads
                .iter()
                .filter_map(|s| {
                    let marked = under.get(i).is_some_and(|u| u.contains(&s.test));
                    s.runs[i].map(|v| (v / s.median, usize::from(marked)))
                })
                .collect(),
        })
        .collect();
    if let Some(x) = change_axis(
        "deviation from the fleet's median per test (+ = slower)",
        spreads
            .iter()
            .flat_map(|s| s.runs.iter().flatten().map(|v| v / s.median)),
    ) {
        out += &format!(
            "<figure>{}<figcaption>Each row is one run, each dot one test's deviation from \
             the fleet's median (time per load, or clocks per load for the latency suite).\
             </figcaption></figure>\n",
            chart::dot_plot("Deviation per run", &x, &rows, &styles, Some(1.0))
        );
    }
    let mut header = vec!["test".to_string(), "median".into(), "unit".into()];
    header.extend(runs.iter().map(|r| r.label.clone()));
    let body: Vec<Vec<String>> = spreads
        .iter()
        .map(|s| {
            let mut row = vec![s.test.to_string(), svg::num(s.median), s.unit.to_string()];
            row.extend(s.runs.iter().map(|r| match r {
                Some(v) => pct(v / s.median),
                None => "-".into(),
            }));
            row
        })
        .collect();
    out += &format!(
        "<details><summary>Every run's deviation per test ({})</summary>\n{}</details>\n",
        body.len(),
        table::plain(&header, &body)
    );
    out += "</section>\n";
    out
}
