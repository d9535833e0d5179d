//! The documentation: every relative link resolves, every manual is reachable, the README is short.

use crate::common::root;
use std::collections::{BTreeSet, HashMap};
use std::path::{Component, Path, PathBuf};

/// The Markdown files whose links are checked: the README, every file under docs/ and the
/// results' README, as paths relative to the repository root.
fn checked_files() -> Vec<PathBuf> {
    let mut files = vec![
        PathBuf::from("README.md"),
        PathBuf::from("results/README.md"),
    ];
    let mut dirs = vec![PathBuf::from("docs")];
    while let Some(dir) = dirs.pop() {
        let entries = std::fs::read_dir(root().join(&dir))
            .unwrap_or_else(|e| panic!("{}: {e}", dir.display()));
        for entry in entries {
            let path = dir.join(entry.unwrap().file_name());
            if root().join(&path).is_dir() {
                dirs.push(path);
            } else if path.extension().is_some_and(|e| e == "md") {
                files.push(path);
            }
        }
    }
    files.sort();
    files
}

/// The lines of a Markdown file outside fenced code blocks, with their 1-based numbers.
fn prose_lines(text: &str) -> Vec<(usize, &str)> {
    let mut fenced = false;
    let mut lines = Vec::new();
    for (i, line) in text.lines().enumerate() {
        if line.trim_start().starts_with("```") {
            fenced = !fenced;
        } else if !fenced {
            lines.push((i + 1, line));
        }
    }
    lines
}

/// `line` without its inline code spans (a link inside backticks is no link).
fn without_code_spans(line: &str) -> String {
    let mut out = String::new();
    let mut rest = line;
    while let Some(start) = rest.find('`') {
        out.push_str(&rest[..start]);
        let ticks = rest[start..].chars().take_while(|&c| c == '`').count();
        let after = &rest[start + ticks..];
        match after.find(&"`".repeat(ticks)) {
            Some(end) => rest = &after[end + ticks..],
            None => {
                rest = after;
                out.push_str(&"`".repeat(ticks));
            }
        }
    }
    out.push_str(rest);
    out
}

/// Every link target of a line: inline links and images `[text](target "title")`, and
/// reference definitions `[label]: target`.
fn link_targets(line: &str) -> Vec<String> {
    let line = without_code_spans(line);
    let mut targets = Vec::new();
    let trimmed = line.trim_start();
    if trimmed.starts_with('[') {
        if let Some(end) = trimmed.find("]:") {
            if let Some(target) = trimmed[end + 2..].split_whitespace().next() {
                targets.push(target.trim_matches(['<', '>']).to_string());
            }
        }
    }
    let mut rest = line.as_str();
    while let Some(at) = rest.find("](") {
        let after = &rest[at + 2..];
        let end = after.find(')').unwrap_or(after.len());
        let target = after[..end].split_whitespace().next().unwrap_or("");
        targets.push(target.trim_matches(['<', '>']).to_string());
        rest = &after[end..];
    }
    targets
}

/// GitHub's anchor for a heading's text: lower case, every character but letters, digits,
/// `_`, `-` and spaces dropped (so inline code's backticks and emphasis go), spaces as `-`.
fn slug(heading: &str) -> String {
    heading
        .trim()
        .to_lowercase()
        .chars()
        .filter(|c| c.is_alphanumeric() || matches!(c, '_' | '-' | ' '))
        .map(|c| if c == ' ' { '-' } else { c })
        .collect()
}

/// The anchors of a Markdown file's headings; a repeated heading's later anchors get `-1`,
/// `-2`… as on GitHub.
fn anchors(text: &str) -> BTreeSet<String> {
    let mut seen: HashMap<String, usize> = HashMap::new();
    let mut anchors = BTreeSet::new();
    for (_, line) in prose_lines(text) {
        let hashes = line.chars().take_while(|&c| c == '#').count();
        if !(1..=6).contains(&hashes) || !line[hashes..].starts_with(' ') {
            continue;
        }
        let base = slug(line[hashes..].trim_end_matches('#'));
        let n = seen.entry(base.clone()).or_insert(0);
        anchors.insert(if *n == 0 {
            base.clone()
        } else {
            format!("{base}-{n}")
        });
        *n += 1;
    }
    anchors
}

/// `path` with `.` and `..` folded, without touching the file system.
fn normalise(path: &Path) -> PathBuf {
    let mut out = PathBuf::new();
    for part in path.components() {
        match part {
            Component::ParentDir => {
                assert!(out.pop(), "{} leaves the repository", path.display());
            }
            Component::CurDir => {}
            other => out.push(other),
        }
    }
    out
}

/// A relative link of `file`: the repository path it points to and its anchor, if any;
/// `None` for links out of the repository (a URL, `mailto:`).
fn resolve(file: &Path, target: &str) -> Option<(PathBuf, Option<String>)> {
    if target.contains("://") || target.starts_with("mailto:") {
        return None;
    }
    let (path, anchor) = match target.split_once('#') {
        Some((p, a)) => (p, Some(a.to_string())),
        None => (target, None),
    };
    let resolved = if path.is_empty() {
        file.to_path_buf()
    } else {
        normalise(&file.parent().unwrap().join(path))
    };
    Some((resolved, anchor))
}

#[test]
fn every_relative_link_resolves_to_a_file_and_heading() {
    let mut broken = Vec::new();
    let mut checked = 0;
    for file in checked_files() {
        let text = std::fs::read_to_string(root().join(&file)).unwrap();
        for (number, line) in prose_lines(&text) {
            for target in link_targets(line) {
                let Some((path, anchor)) = resolve(&file, &target) else {
                    continue;
                };
                checked += 1;
                let full = root().join(&path);
                let at = format!("{}:{number}: {target}", file.display());
                if !full.exists() {
                    broken.push(format!("{at}: no file {}", path.display()));
                    continue;
                }
                if let Some(anchor) = anchor {
                    let Ok(target_text) = std::fs::read_to_string(&full) else {
                        broken.push(format!("{at}: an anchor into no text file"));
                        continue;
                    };
                    if !anchors(&target_text).contains(&anchor) {
                        broken.push(format!("{at}: no heading #{anchor} in {}", path.display()));
                    }
                }
            }
        }
    }
    assert!(
        checked > 50,
        "only {checked} relative links found: is the parser broken?"
    );
    assert!(broken.is_empty(), "broken links:\n{}", broken.join("\n"));
}

#[test]
fn every_manual_is_reachable_from_the_readme() {
    let mut reached = BTreeSet::new();
    let mut queue = vec![PathBuf::from("README.md")];
    while let Some(file) = queue.pop() {
        if !reached.insert(file.clone()) {
            continue;
        }
        let text = std::fs::read_to_string(root().join(&file)).unwrap();
        for (_, line) in prose_lines(&text) {
            for target in link_targets(line) {
                if let Some((path, _)) = resolve(&file, &target) {
                    if path.starts_with("docs") && path.extension().is_some_and(|e| e == "md") {
                        queue.push(path);
                    }
                }
            }
        }
    }
    let orphans: Vec<_> = checked_files()
        .into_iter()
        .filter(|f| f.starts_with("docs") && !reached.contains(f))
        .map(|f| f.display().to_string())
        .collect();
    assert!(
        orphans.is_empty(),
        "not linked from the README or a manual it links: {orphans:?}"
    );
}

#[test]
fn the_readme_stays_short_and_starts_with_the_quick_start() {
    let readme = std::fs::read_to_string(root().join("README.md")).unwrap();
    let lines = readme.lines().count();
    assert!(
        lines <= 300,
        "README.md has {lines} lines; move detail into docs/"
    );
    // The two commands come before any other section, and CI runs exactly the second one.
    let first_section = readme.find("\n## ").unwrap();
    let quick_start = readme
        .find("\n## Quick start\n")
        .expect("a Quick start section");
    assert_eq!(
        first_section, quick_start,
        "Quick start is the first section"
    );
    let run = "./scripts/setup.sh && cargo run --release";
    let test = "./scripts/setup.sh && cargo fmt --check && cargo clippy --release --all-targets -- -D warnings && cargo test --release && ./scripts/windows-check.sh";
    assert!(readme.contains(run), "the run command");
    assert!(readme.contains(test), "the test command");
    let ci = std::fs::read_to_string(root().join(".ci/run")).unwrap();
    assert!(
        ci.lines().any(|l| l.trim() == test),
        ".ci/run runs the README's test command"
    );
}

#[test]
fn slugs_follow_github() {
    assert_eq!(slug("Choosing a GPU"), "choosing-a-gpu");
    assert_eq!(
        slug("Figures that hold (issue 28): `h100/stability/`"),
        "figures-that-hold-issue-28-h100stability"
    );
    assert_eq!(
        slug("Is this normal? Against the published results"),
        "is-this-normal-against-the-published-results"
    );
    assert_eq!(
        slug("1. Uniform loads: driver vs elected lane"),
        "1-uniform-loads-driver-vs-elected-lane"
    );
    let twice = anchors("# A\n\n```\n# not a heading\n```\n## A\n");
    assert_eq!(twice, BTreeSet::from(["a".to_string(), "a-1".to_string()]));
    assert_eq!(
        link_targets("see [x](a.md#b) and `[y](c.md)`"),
        vec!["a.md#b"]
    );
}

/// The `--suite` values `perftest --help` lists, `all` aside.
fn suites_in_help() -> Vec<String> {
    let o = std::process::Command::new(env!("CARGO_BIN_EXE_perftest"))
        .arg("--help")
        .output()
        .unwrap();
    let help = String::from_utf8(o.stdout).unwrap();
    let start = help.find("--suite <SUITE>").expect("--suite in --help");
    let values = &help[start..];
    let values = &values[values.find("[possible values: ").unwrap() + 18..];
    let values = &values[..values.find(']').unwrap()];
    values
        .split(", ")
        .filter(|v| *v != "all")
        .map(str::to_string)
        .collect()
}

#[test]
fn the_readme_suite_table_lists_every_suite_with_its_test_count() {
    let readme = std::fs::read_to_string(root().join("README.md")).unwrap();
    let section = &readme[readme.find("\n## The suites\n").expect("a suites section")..];
    let section = &section[..section[1..].find("\n## ").unwrap_or(section.len())];
    // | `suite` | tests | what it answers | manual |
    let rows: HashMap<String, String> = section
        .lines()
        .filter_map(|l| {
            let cells: Vec<&str> = l.split('|').map(str::trim).collect();
            let name = cells.get(1)?.strip_prefix('`')?.strip_suffix('`')?;
            Some((name.to_string(), cells.get(2)?.to_string()))
        })
        .collect();
    let suites = suites_in_help();
    assert!(suites.len() >= 11, "suites in --help: {suites:?}");
    for suite in &suites {
        let count = rows
            .get(suite)
            .unwrap_or_else(|| panic!("README's suite table has no row for `{suite}`"));
        let o = std::process::Command::new(env!("CARGO_BIN_EXE_perftest"))
            .args(["--list-tests", "--suite", suite])
            .output()
            .unwrap();
        assert!(o.status.success(), "--list-tests --suite {suite}");
        let tests = String::from_utf8(o.stdout).unwrap().lines().count();
        assert_eq!(
            count,
            &tests.to_string(),
            "README's test count of `{suite}`"
        );
    }
    assert_eq!(
        rows.len(),
        suites.len(),
        "rows for suites --help lacks: {rows:?}"
    );
}

/// Whitespace runs as one space: the manual wraps its sentences anywhere.
fn one_line(text: &str) -> String {
    text.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// A promise of the manual's prose is held by a test that quotes it on a `// Claim: PATH:
/// "TEXT"` line just above its `#[test]`: the test fails when the tool breaks the promise,
/// and this fails when the prose no longer says what the test holds (reword the claim and
/// check the test), or a claim is attached to no test.
#[test]
fn every_claim_a_test_holds_is_still_in_the_manual() {
    let mut claims = 0;
    let mut wrong = Vec::new();
    let files = ["tests", "tests/integration"]
        .iter()
        .flat_map(|d| std::fs::read_dir(root().join(d)).unwrap())
        .map(|e| e.unwrap().path());
    for path in files {
        if path.extension().is_none_or(|e| e != "rs") {
            continue;
        }
        let text = std::fs::read_to_string(&path).unwrap();
        let lines: Vec<&str> = text.lines().collect();
        for (i, line) in lines.iter().enumerate() {
            let Some(rest) = line.trim_start().strip_prefix("// Claim: ") else {
                continue;
            };
            claims += 1;
            let at = format!("{}:{}", path.display(), i + 1);
            let Some((doc, quoted)) = rest.split_once(": \"") else {
                wrong.push(format!("{at}: not `// Claim: PATH: \"TEXT\"`"));
                continue;
            };
            let quoted = quoted.strip_suffix('"').unwrap_or(quoted);
            let held = lines[i + 1..]
                .iter()
                .take(4)
                .any(|l| l.trim_start().starts_with("#[test]"));
            if !held {
                wrong.push(format!("{at}: no #[test] right below the claim"));
            }
            match std::fs::read_to_string(root().join(doc)) {
                Ok(manual) if one_line(&manual).contains(&one_line(quoted)) => {}
                Ok(_) => wrong.push(format!("{at}: {doc} no longer says \"{quoted}\"")),
                Err(e) => wrong.push(format!("{at}: {doc}: {e}")),
            }
        }
    }
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
    // The promises fixed for issue 49 and the devices' at least.
    assert!(claims >= 12, "only {claims} claims held by tests");
}
