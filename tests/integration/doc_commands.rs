//! Every perftest command the README and docs/ show, run as written on lavapipe (a run cut to
//! its first tests), and every test name and table header their shown outputs hold, checked
//! against the tool's own.

use crate::common::{
    assert_no_validation_messages, lavapipe, perftest, root, stderr, stdout, tempdir,
};
use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

/// The README and every manual under docs/, relative to the repository root.
fn manuals() -> Vec<PathBuf> {
    let mut files = vec![PathBuf::from("README.md")];
    let mut docs: Vec<_> = std::fs::read_dir(root().join("docs"))
        .unwrap()
        .map(|e| PathBuf::from("docs").join(e.unwrap().file_name()))
        .filter(|p| p.extension().is_some_and(|e| e == "md"))
        .collect();
    docs.sort();
    files.extend(docs);
    files
}

/// A command or an output as a manual shows it.
#[derive(Debug, Clone)]
struct Shown {
    file: String,
    line: usize,
    text: String,
}

impl std::fmt::Display for Shown {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}:{}: `{}`", self.file, self.line, self.text)
    }
}

/// A fenced block: its info string and numbered lines (continuations joined).
struct Block {
    info: String,
    lines: Vec<(usize, String)>,
}

/// The fenced blocks of `text`, and the lines outside them with their numbers.
fn split(text: &str) -> (Vec<Block>, Vec<(usize, &str)>) {
    let (mut blocks, mut prose) = (Vec::new(), Vec::new());
    let mut open: Option<Block> = None;
    for (i, line) in text.lines().enumerate() {
        let n = i + 1;
        if let Some(info) = line.trim_start().strip_prefix("```") {
            match open.take() {
                Some(b) => blocks.push(b),
                None => {
                    open = Some(Block {
                        info: info.trim().to_string(),
                        lines: Vec::new(),
                    })
                }
            }
        } else if let Some(b) = &mut open {
            match b.lines.last_mut() {
                Some((_, last)) if last.ends_with('\\') => {
                    last.pop();
                    last.push_str(line.trim_start());
                }
                _ => b.lines.push((n, line.to_string())),
            }
        } else {
            prose.push((n, line));
        }
    }
    (blocks, prose)
}

/// The inline code spans of a line.
fn code_spans(line: &str) -> Vec<&str> {
    line.split('`').skip(1).step_by(2).collect()
}

/// The perftest command a piece of shell runs, where it runs one: `perftest …` or
/// `cargo run --release [-- …]`, the comment after ` # ` left out.
fn as_perftest(segment: &str) -> Option<String> {
    let segment = match segment.find(" # ") {
        Some(at) => &segment[..at],
        None => segment,
    }
    .trim();
    if segment == "perftest" || segment.starts_with("perftest ") {
        return Some(segment.to_string());
    }
    let rest = segment.strip_prefix("cargo run --release")?;
    let args = rest.trim_start().strip_prefix("--").unwrap_or(rest).trim();
    Some(format!("perftest {args}").trim_end().to_string())
}

/// Every perftest command the manuals show: in shell blocks (each `;`/`&&` part), on lines of
/// other blocks that start with one, and in inline code.
fn shown_commands() -> Vec<Shown> {
    let mut found = Vec::new();
    for path in manuals() {
        let file = path.display().to_string();
        let text = std::fs::read_to_string(root().join(&path)).unwrap();
        let (blocks, prose) = split(&text);
        for b in &blocks {
            let shell = matches!(b.info.as_str(), "sh" | "bash" | "shell" | "console");
            for (n, line) in &b.lines {
                let parts: Vec<&str> = if shell {
                    line.split(" && ").flat_map(|p| p.split(" ; ")).collect()
                } else {
                    vec![line.as_str()]
                };
                for part in parts {
                    if let Some(text) = as_perftest(part) {
                        found.push(Shown {
                            file: file.clone(),
                            line: *n,
                            text,
                        });
                    }
                }
            }
        }
        for (n, line) in prose {
            for span in code_spans(line) {
                if let Some(text) = as_perftest(span) {
                    found.push(Shown {
                        file: file.clone(),
                        line: n,
                        text,
                    });
                }
            }
        }
    }
    found
}

/// What a placeholder of the manuals stands for when the command is run: the words a reader
/// replaces, and the optional or repeated parts (`[…]`, `…`), which are left out.
const PLACEHOLDERS: &[(&str, &str)] = &[
    ("--reference NAME", "--reference 3090"),
    ("--suite S", "--suite pitfalls"),
    ("--filter <name>", "--filter \"Pitfall switch\""),
];

/// Input files the commands name, present in the directory they run in (an H100 run of the
/// original suite; commands that write them replace them).
const INPUTS: &[&str] = &[
    "RUN.csv",
    "run.csv",
    "A.csv",
    "B.csv",
    "before.csv",
    "after.csv",
];

/// The shell text that runs `shown`, or why it is not run here.
fn runnable(shown: &Shown) -> Result<String, &'static str> {
    let mut text = shown.text.clone();
    for (from, to) in PLACEHOLDERS {
        text = text.replace(from, to);
    }
    // Optional parts: `[MORE.csv|RUN.json …]`, `[--reference NAME]…`.
    while let (Some(a), Some(b)) = (text.find('['), text.find(']')) {
        if b < a {
            break;
        }
        let end = if text[b + 1..].starts_with('…') {
            b + 1 + '…'.len_utf8()
        } else {
            b + 1
        };
        text.replace_range(a..end, "");
    }
    let text = text.replace('…', "");
    let words: Vec<&str> = text.split_whitespace().collect();
    if words
        .iter()
        .any(|w| w.chars().all(|c| c.is_ascii_uppercase()) && w.len() > 1)
    {
        return Err("a placeholder this test does not know");
    }
    // `perftest compare` / `report` / `summary` / `fleet` alone name a subcommand: its help is what runs.
    if words.len() == 2 && matches!(words[1], "compare" | "report" | "summary" | "fleet") {
        return Ok(format!("{} --help", text.trim()));
    }
    Ok(text.trim().to_string())
}

/// Runs `shell` (a perftest command line) with bash in `dir`, `perftest` on the PATH, every
/// run cut to its first 3 tests; returns its exit code, stdout and stderr.
fn run_in(dir: &Path, shell: &str) -> (Option<i32>, String, String) {
    let bin = Path::new(env!("CARGO_BIN_EXE_perftest"));
    let path = format!(
        "{}:{}",
        bin.parent().unwrap().display(),
        std::env::var("PATH").unwrap_or_default()
    );
    let o = std::process::Command::new("bash")
        .args(["-c", shell])
        .current_dir(dir)
        .env("PATH", path)
        .env("PERFTEST_FIRST_TESTS", "3")
        .env("MESA_SHADER_CACHE_DIR", crate::common::shader_cache(None))
        .env("VK_INSTANCE_LAYERS", "VK_LAYER_KHRONOS_validation")
        .output()
        .expect("bash runs");
    assert_no_validation_messages(&o);
    (o.status.code(), stdout(&o), stderr(&o))
}

#[test]
fn every_command_the_manuals_show_runs_as_written() {
    lavapipe(); // the device every run lands on (the only one in CI), or a clear message
    let dir = tempdir("doc-commands");
    let seed = root().join("results/h100/original-run1.csv");
    for input in INPUTS {
        std::fs::copy(&seed, dir.join(input)).unwrap();
    }
    std::os::unix::fs::symlink(root().join("results"), dir.join("results")).unwrap();
    let shown = shown_commands();
    // The manuals show about 30; a parser that finds none would pass everything.
    assert!(
        shown.len() >= 25,
        "only {} commands found: {shown:#?}",
        shown.len()
    );
    let mut failures = Vec::new();
    let mut ran = 0;
    // A command line shown in several places (plain `perftest`: ten) runs once: the same text
    // in the same folder does the same thing, and each run is seconds of lavapipe.
    let mut outcome: std::collections::HashMap<String, (Option<i32>, String, String)> =
        Default::default();
    for s in &shown {
        let shell = match runnable(s) {
            Ok(shell) => shell,
            Err(why) => {
                failures.push(format!("{s}: not run: {why}"));
                continue;
            }
        };
        let (code, out, err) = outcome
            .entry(shell.clone())
            .or_insert_with(|| run_in(&dir, &shell))
            .clone();
        ran += 1;
        if code != Some(0) {
            failures.push(format!(
                "{s}: `{shell}` exited {code:?}\nstdout:\n{}\nstderr:\n{err}",
                out.lines().take(20).collect::<Vec<_>>().join("\n")
            ));
        }
    }
    assert!(
        failures.is_empty(),
        "{} of {} shown commands failed:\n\n{}",
        failures.len(),
        shown.len(),
        failures.join("\n\n")
    );
    assert_eq!(ran, shown.len());
}

/// Every test name perftest can run.
fn all_names() -> BTreeSet<String> {
    let o = perftest()
        .args(["--list-tests", "--suite", "all"])
        .output()
        .unwrap();
    assert!(o.status.success());
    stdout(&o).lines().map(String::from).collect()
}

/// How a block of `perftest summary`'s output starts (its heading, or a section's).
const SUMMARY_STARTS: &[&str] = &["Summary: ", "Caches and memory ("];

/// The output blocks of the manuals (no shell info string, not a diagram).
fn shown_outputs() -> Vec<Shown> {
    let mut found = Vec::new();
    for path in manuals() {
        let file = path.display().to_string();
        let text = std::fs::read_to_string(root().join(&path)).unwrap();
        for b in split(&text).0 {
            if !b.info.is_empty() {
                continue;
            }
            // A summary's lines start with what it derived (`L1: latency  51.1 clk …`), not
            // a test; the rows it came from are named after them (and its block is checked
            // against the tool's output in full below).
            if b.lines
                .first()
                .is_some_and(|(_, l)| SUMMARY_STARTS.iter().any(|s| l.starts_with(s)))
            {
                continue;
            }
            for (n, line) in b.lines {
                found.push(Shown {
                    file: file.clone(),
                    line: n,
                    text: line,
                });
            }
        }
    }
    found
}

/// The test name a line of shown output starts with, where it reports one: a row of the
/// default format (`NAME: 0.135ms 1.491x`, `NAME: unsupported (…)`) or of a table (`NAME`,
/// then two or more spaces and a number).
fn row_name(line: &str) -> Option<&str> {
    let line = line.trim();
    if let Some((name, rest)) = line.rsplit_once(": ") {
        let first = rest.split_whitespace().next().unwrap_or("");
        let timed = first
            .trim_end_matches('*')
            .strip_suffix("ms")
            .is_some_and(|ms| ms.parse::<f64>().is_ok());
        if timed || first == "unsupported" || first == "ok" {
            return Some(name);
        }
    }
    let gap = line.find("  ")?;
    let (name, rest) = line.split_at(gap);
    let next = rest.trim_start();
    // A number, or `-` where the device gives none (no clock: no per-clock figure).
    let value = next.starts_with(|c: char| c.is_ascii_digit())
        || next.split_whitespace().next() == Some("-");
    value.then_some(name).filter(|n| {
        n.contains(|c: char| c.is_ascii_alphabetic())
            && !n.starts_with(char::is_numeric)
            && !n.ends_with(':')
    })
}

#[test]
fn every_test_name_in_a_shown_output_is_one_perftest_runs() {
    let names = all_names();
    let mut rows = 0;
    let mut unknown = Vec::new();
    for s in shown_outputs() {
        if let Some(name) = row_name(&s.text) {
            rows += 1;
            if !names.contains(name) {
                unknown.push(format!("{}:{}: {name:?}", s.file, s.line));
            }
        }
    }
    // The README's pitfalls run, outputs.md's rows, the instruction table…
    assert!(
        rows >= 70,
        "only {rows} rows recognised in the manuals' outputs"
    );
    assert!(
        unknown.is_empty(),
        "names no test has:\n{}",
        unknown.join("\n")
    );
}

/// `line`'s words, spaces collapsed.
fn words(line: &str) -> String {
    line.split_whitespace().collect::<Vec<_>>().join(" ")
}

#[test]
fn every_table_header_shown_is_the_one_perftest_prints() {
    // The table header, from a real run (cut to one test).
    let dir = tempdir("doc-headers");
    let (code, out, err) = run_in(
        &dir,
        &format!(
            "perftest --device {} --suite pitfalls --format table --groups 2 --samples 1",
            lavapipe()
        ),
    );
    assert_eq!(code, Some(0), "{err}");
    let table = out
        .lines()
        .find(|l| l.trim_start().starts_with("test "))
        .map(words)
        .unwrap_or_else(|| panic!("no table header in:\n{out}"));
    // The comparison header against the published GPUs.
    let seed = root().join("results/h100/original-run1.csv");
    let (code, out, err) = run_in(
        &dir,
        &format!("perftest compare {} --reference all", seed.display()),
    );
    assert_eq!(code, Some(0), "{err}");
    let ranking = out
        .lines()
        .find(|l| l.trim_start().starts_with("# "))
        .map(words)
        .unwrap_or_else(|| panic!("no ranking header in:\n{out}"));
    let mut checked = 0;
    for s in shown_outputs() {
        let shown = words(&s.text);
        let expected = if shown.starts_with("test ms ") {
            &table
        } else if shown.starts_with("# reference ") {
            &ranking
        } else {
            continue;
        };
        checked += 1;
        assert_eq!(
            &shown, expected,
            "{}:{}: the header shown is not the one printed",
            s.file, s.line
        );
    }
    assert!(checked >= 2, "only {checked} headers found");
}

/// Where a shown output comes from, and how today's tool is held to it.
struct Output {
    /// The manual, and the start of the block's first line.
    file: &'static str,
    starts: &'static str,
    /// What printed it: a committed results file, or a command on committed files run now
    /// (from the repository root), whose output must hold the block as shown; `None` for a
    /// block that is no output (a diagram).
    source: Option<Source>,
    /// The command lavapipe runs (cut to its first tests) whose lines must have the shapes of
    /// the block's rows: numbers, `-` and test names redacted (timings and devices differ).
    shape: Option<(&'static str, Shape)>,
}

enum Source {
    File(&'static str),
    Run(&'static str),
}

#[derive(Clone, Copy)]
enum Shape {
    /// Result rows: a test name, then numbers.
    Rows,
    /// `label:  value` lines: the labels.
    Labels,
}

/// Every output block of the manuals. A block not listed fails the test.
const OUTPUTS: &[Output] = &[
    Output {
        file: "docs/fleet.md",
        starts: "  no host, no uuid, NVIDIA H100",
        // The twelve whole H100 runs: two suspect, exit 3 (docs/fleet.md says why).
        source: Some(Source::Run(
            "perftest fleet results/h100/driver/all.csv.gz results/h100/driver/b61aad8/all.csv.gz \
             results/h100/whole-run-1126/all.csv.gz results/h100/whole-run-1126/cold/all.csv.gz \
             results/h100/whole-run-1126/cold-2/all.csv.gz results/h100/whole-run-1126/final/all.csv.gz \
             results/h100/whole-run-1126/grid-64/all.csv.gz results/h100/whole-run-1126/grid-set/all.csv.gz \
             results/h100/whole-run/9f200c9/all-run1.csv.gz results/h100/whole-run/all-run1.csv.gz \
             results/h100/whole-run/all-run2.csv.gz results/h100/workspace-1126/all.csv.gz \
             || [ $? = 3 ]",
        )),
        shape: None,
    },
    Output {
        file: "README.md",
        starts: "perftest: using device 0 (NVIDIA H100",
        source: Some(Source::File("results/h100/pitfalls/run1.txt")),
        shape: Some(("perftest --suite pitfalls", Shape::Rows)),
    },
    Output {
        file: "docs/comparing.md",
        starts: " #  reference",
        source: Some(Source::Run(
            "perftest compare results/h100/original-run1.csv --reference all",
        )),
        shape: None,
    },
    Output {
        file: "docs/instructions.md",
        starts: "operation ",
        source: Some(Source::File(
            "results/h100/instructions/instructions-table.txt",
        )),
        shape: Some(("perftest --suite instructions --format table", Shape::Rows)),
    },
    Output {
        file: "docs/layout.md",
        starts: "CLI args",
        source: None,
        shape: None,
    },
    Output {
        file: "docs/layout.md",
        starts: "Cargo.toml ",
        source: None,
        shape: None,
    },
    Output {
        file: "docs/options.md",
        starts: "0: NVIDIA H100",
        source: Some(Source::File("results/h100/devices.txt")),
        shape: Some(("perftest --list-devices", Shape::Labels)),
    },
    Output {
        file: "docs/outputs.md",
        starts: "Devices:",
        source: Some(Source::File("results/h100/original-run1.txt")),
        shape: Some(("perftest", Shape::Rows)),
    },
    Output {
        file: "docs/outputs.md",
        starts: "bandwidth: ByteAddressBuffer.Load4 from host-coherent memory",
        source: Some(Source::File("results/h100/whole-run/all-run1.txt")),
        shape: None,
    },
    Output {
        file: "docs/outputs.md",
        starts: "test                                                                   ms",
        source: Some(Source::File("results/h100/table.txt")),
        shape: Some((
            "perftest --suite all --filter cbuffer --filter Control --format table",
            Shape::Rows,
        )),
    },
    Output {
        file: "README.md",
        starts: "Caches and memory (the curves",
        source: Some(Source::Run(
            "perftest summary results/h100/driver/b61aad8/all.csv.gz",
        )),
        shape: None,
    },
    Output {
        file: "docs/outputs.md",
        starts: "test                                         original-run1 ms",
        source: Some(Source::Run(
            "perftest compare results/h100/original-run1.csv results/h100/original-run2.csv",
        )),
        shape: None,
    },
];

/// The untagged blocks of the manuals: file, first line number, lines.
fn output_blocks() -> Vec<(String, usize, Vec<String>)> {
    let mut found = Vec::new();
    for path in manuals() {
        let file = path.display().to_string();
        let text = std::fs::read_to_string(root().join(&path)).unwrap();
        for b in split(&text).0.into_iter().filter(|b| b.info.is_empty()) {
            let Some(first) = b.lines.first().map(|(n, _)| *n) else {
                continue;
            };
            // A block of commands is checked by the test above.
            if b.lines.iter().all(|(_, l)| as_perftest(l).is_some()) {
                continue;
            }
            found.push((
                file.clone(),
                first,
                b.lines.into_iter().map(|(_, l)| l).collect(),
            ));
        }
    }
    found
}

/// `line` with its test name, numbers and lone dashes redacted (`Rows`), or its label.
fn shape(line: &str, how: Shape, names: &BTreeSet<String>) -> Option<String> {
    match how {
        Shape::Labels => {
            let (label, _) = line.trim().split_once(':')?;
            Some(label.to_string())
        }
        Shape::Rows => {
            let name = row_name(line).filter(|n| names.contains(*n))?;
            let rest = line.trim().strip_prefix(name)?;
            // The figures, up to the status (`ok`, `disturbed: …`: the state of the GPU).
            let redacted: Vec<String> = rest
                .split_whitespace()
                .map_while(|w| {
                    let core = w.trim_end_matches(['*', 'x']).trim_end_matches("ms");
                    (core == "-" || core.parse::<f64>().is_ok()).then(|| w.replace(core, "N"))
                })
                .collect();
            Some(format!("NAME{}", redacted.join(" ")))
        }
    }
}

/// Whether `shown`'s lines (ellipses left out) appear in `source`'s, in order.
fn in_order(shown: &[String], source: &str) -> Result<(), String> {
    let mut lines = source.lines().map(str::trim_end);
    for want in shown.iter().map(|l| l.trim_end()) {
        if matches!(want.trim(), "…" | "..." | "") || want.trim_start().starts_with("… ") {
            continue;
        }
        if !lines.any(|l| l == want) {
            return Err(format!("not printed (in this order): {want:?}"));
        }
    }
    Ok(())
}

#[test]
fn every_output_shown_is_one_the_tool_printed_in_the_shape_it_prints_today() {
    let names = all_names();
    let dir = tempdir("doc-outputs");
    let mut failures = Vec::new();
    let blocks = output_blocks();
    assert!(
        blocks.len() >= OUTPUTS.len(),
        "only {} output blocks found",
        blocks.len()
    );
    for (file, line, shown) in &blocks {
        let Some(o) = OUTPUTS
            .iter()
            .find(|o| o.file == file && shown[0].starts_with(o.starts))
        else {
            failures.push(format!(
                "{file}:{line}: an output block no entry of OUTPUTS checks"
            ));
            continue;
        };
        let at = format!("{file}:{line}");
        match &o.source {
            None => continue,
            Some(Source::File(path)) => {
                let text = std::fs::read_to_string(root().join(path)).unwrap();
                if let Err(e) = in_order(shown, &text) {
                    failures.push(format!("{at}: as {path} has it? {e}"));
                }
            }
            Some(Source::Run(command)) => {
                let (code, out, err) = run_in(root(), command);
                if code != Some(0) {
                    failures.push(format!("{at}: `{command}` exited {code:?}: {err}"));
                } else if let Err(e) = in_order(shown, &out) {
                    failures.push(format!("{at}: as `{command}` prints it? {e}"));
                }
            }
        }
        if let Some((command, how)) = o.shape {
            let (code, out, err) = run_in(&dir, command);
            if code != Some(0) {
                failures.push(format!("{at}: `{command}` exited {code:?}: {err}"));
                continue;
            }
            let printed: BTreeSet<String> = out
                .lines()
                .chain(err.lines())
                .filter_map(|l| shape(l, how, &names))
                .collect();
            let mut rows = 0;
            for l in shown {
                if let Some(s) = shape(l, how, &names) {
                    rows += 1;
                    if !printed.contains(&s) {
                        failures.push(format!(
                            "{at}: {l:?} has the shape {s:?}; `{command}` prints {printed:?}"
                        ));
                    }
                }
            }
            if rows == 0 {
                failures.push(format!("{at}: no line of the block has a shape to check"));
            }
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}
