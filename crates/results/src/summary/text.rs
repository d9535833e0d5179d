//! The summary as plain text: one table per GPU, the vendor's sources numbered under it.

use super::Summary;

/// Every summary, one after the other.
pub fn text(summaries: &[Summary]) -> String {
    summaries.iter().map(one).collect::<Vec<_>>().join("\n")
}

/// The cells of each item's line: what, measured, published, ratio, from; and the sources.
pub fn cells(s: &Summary) -> (Vec<Option<[String; 5]>>, Vec<String>) {
    let mut sources: Vec<String> = Vec::new();
    let mut lines = Vec::new();
    for section in &s.sections {
        lines.push(None);
        for it in &section.items {
            let published = match &it.vendor {
                Some(f) => {
                    let n = match sources.iter().position(|x| *x == f.source) {
                        Some(i) => i + 1,
                        None => {
                            sources.push(f.source.clone());
                            sources.len()
                        }
                    };
                    format!("{} [{n}]", f.text())
                }
                None => String::new(),
            };
            let (value, from) = match &it.value {
                Ok(v) => (v.clone(), it.from.clone()),
                Err(why) => ("-".to_string(), format!("left out: {why}")),
            };
            lines.push(Some([
                it.what.clone(),
                value,
                published,
                it.ratio_text(),
                from,
            ]));
        }
    }
    (lines, sources)
}

fn one(s: &Summary) -> String {
    let (lines, sources) = cells(s);
    let header = [
        "what".to_string(),
        "measured".into(),
        "published".into(),
        "ratio".into(),
        "from".into(),
    ];
    let mut width = [0usize; 4];
    for l in lines.iter().flatten().chain(std::iter::once(&header)) {
        for (w, c) in width.iter_mut().zip(l) {
            *w = (*w).max(c.chars().count());
        }
    }
    let row = |c: &[String; 5]| {
        let mut out = String::from("  ");
        for (i, w) in width.iter().enumerate() {
            out += &c[i];
            out += &" ".repeat(w - c[i].chars().count() + 2);
        }
        out += &c[4];
        out.trim_end().to_string() + "\n"
    };
    let mut out = format!(
        "Summary: {} — {} rows from {}\n",
        s.heading,
        s.rows,
        s.files.join(", ")
    );
    let mut sections = s.sections.iter();
    for l in &lines {
        match l {
            None => {
                let title = &sections.next().map_or("", |x| x.title.as_str());
                out += &format!("{title}\n");
                if title == &"Device" {
                    out += &row(&header);
                }
            }
            Some(c) => out += &row(c),
        }
    }
    if !sources.is_empty() {
        out += "Published figures:\n";
        for (i, src) in sources.iter().enumerate() {
            out += &format!("  [{}] {src}\n", i + 1);
        }
    }
    out
}
