//! The summary as JSON (`perftest summary --json`): every item's figures with their units, the published figure and the rows it came from.

use super::{Quantity, Summary};
use serde::Serialize;

#[derive(Serialize)]
struct Document<'a> {
    /// One entry per GPU, in the order the table prints them.
    gpus: Vec<Gpu<'a>>,
}

#[derive(Serialize)]
struct Gpu<'a> {
    heading: &'a str,
    device: &'a str,
    files: &'a [String],
    rows: usize,
    sections: Vec<Section<'a>>,
}

#[derive(Serialize)]
struct Section<'a> {
    title: &'a str,
    items: Vec<Item<'a>>,
}

#[derive(Serialize)]
struct Item<'a> {
    what: &'a str,
    /// The figures, typed (empty where the item is left out).
    quantities: &'a [Quantity],
    /// The value as the table prints it; `None` where it is left out.
    text: Option<&'a str>,
    /// Why the rows cannot support it; `None` where it is measured.
    left_out: Option<&'a str>,
    published: Option<Published<'a>>,
    /// measured / published, low and high (a range where the value is one).
    ratio: Option<(f64, f64)>,
    /// The rows it came from.
    from: &'a str,
    /// The fleet verdict's subsystem of the item, and which way is worse; `None` for what no
    /// GPU is judged on.
    subsystem: Option<String>,
    worse: Option<super::Worse>,
}

#[derive(Serialize)]
struct Published<'a> {
    value: f64,
    unit: &'a str,
    what: &'a str,
    source: &'a str,
}

/// Every summary as one JSON document, pretty-printed.
pub fn json(summaries: &[Summary]) -> serde_json::Result<String> {
    let gpus = summaries
        .iter()
        .map(|s| Gpu {
            heading: &s.heading,
            device: &s.device,
            files: &s.files,
            rows: s.rows,
            sections: s
                .sections
                .iter()
                .map(|x| Section {
                    title: &x.title,
                    items: x
                        .items
                        .iter()
                        .map(|i| Item {
                            what: &i.what,
                            quantities: &i.quantities,
                            text: i.value.as_deref().ok(),
                            left_out: i.value.as_ref().err().map(String::as_str),
                            published: i.vendor.as_ref().map(|f| Published {
                                value: f.value,
                                unit: &f.unit,
                                what: &f.what,
                                source: &f.source,
                            }),
                            ratio: i.ratio(),
                            from: &i.from,
                            subsystem: i.judged.as_ref().map(|j| j.subsystem.to_string()),
                            worse: i.judged.as_ref().map(|j| j.worse),
                        })
                        .collect(),
                })
                .collect(),
        })
        .collect();
    serde_json::to_string_pretty(&Document { gpus })
}
