//! Under lavapipe the Vulkan device is the host CPU: the latency curve's steps, held against the data caches the kernel lists for that CPU (sysfs), in a test binary of its own so that no other test's lavapipe runs beside it.

mod common;

use common::*;
use serde_json::Value;

/// The data caches Linux lists for CPU 0, as (lscpu's name, bytes), read here on their own
/// (not through perftest's reader, which the test holds to them).
fn sysfs_caches() -> Vec<(String, u64)> {
    let dir = std::path::Path::new("/sys/devices/system/cpu/cpu0/cache");
    let mut out = Vec::new();
    for entry in std::fs::read_dir(dir).expect("the test needs Linux's sysfs cache folder") {
        let path = entry.unwrap().path();
        let read = |f: &str| std::fs::read_to_string(path.join(f)).map(|s| s.trim().to_string());
        let (Ok(level), Ok(kind), Ok(size)) = (read("level"), read("type"), read("size")) else {
            continue;
        };
        let name = match kind.as_str() {
            "Data" => format!("L{level}d"),
            "Unified" => format!("L{level}"),
            _ => continue,
        };
        let bytes: u64 = match size.strip_suffix('K') {
            Some(k) => k.parse::<u64>().unwrap() << 10,
            None => match size.strip_suffix('M') {
                Some(m) => m.parse::<u64>().unwrap() << 20,
                None => size.parse().unwrap(),
            },
        };
        out.push((name, bytes));
    }
    out.sort();
    out.dedup();
    out
}

/// Bytes of a size as perftest names it (`1.25 MB`).
fn bytes_of(text: &str) -> u64 {
    let (n, unit) = text.split_once(' ').unwrap();
    let scale = match unit {
        "KB" => 1u64 << 10,
        "MB" => 1 << 20,
        "GB" => 1 << 30,
        _ => panic!("not a size: {text}"),
    };
    (n.parse::<f64>().unwrap() * scale as f64).round() as u64
}

#[test]
fn lavapipe_finds_the_host_cpus_caches_where_the_kernel_lists_them() {
    let caches = sysfs_caches();
    assert!(
        caches.iter().any(|(n, _)| n == "L1d"),
        "sysfs lists no L1d: {caches:?}"
    );
    // The storage-buffer chase's sweep up to 16 MB (lavapipe binds 128 MB at most, and past
    // 16 MB this VM's curve reads the host's shared L3 and page walks, no cache of its own).
    const LARGEST: u64 = 16 << 20;
    let list = stdout(&run(&["--list-tests", "--suite", "latency"]));
    let names: Vec<&str> = list
        .lines()
        .filter(|l| {
            // `latency: ByteAddressBuffer 1.25 MB`, not another resource's chase beside it.
            l.strip_prefix("latency: ByteAddressBuffer ")
                .and_then(|s| s.split_once(' '))
                .is_some_and(|(n, unit)| n.parse::<f64>().is_ok() && ["KB", "MB"].contains(&unit))
        })
        .filter(|l| bytes_of(l.trim_start_matches("latency: ByteAddressBuffer ")) <= LARGEST)
        .collect();
    assert!(names.len() >= 40, "{names:?}");
    // Four passes, each in an order of its own: lavapipe's timing has spells of seconds
    // about 1.5× slower (an L1 hit reads 11–15 ns in them instead of 8, and no L1 step
    // shows); the summary keeps each size's fastest pass, the CPU's own latency. Two of the
    // three passes of results/lavapipe/host-caches-1127 had spells, and a spell in every pass
    // at the L1's last size but one (40 KB here) would move its step: a fourth pass costs
    // 15–30 s.
    let dir = tempdir("host-caches");
    let mut files = Vec::new();
    for pass in 1..=4 {
        let csv = dir.join(format!("pass{pass}.csv"));
        let seed = pass.to_string();
        let mut args = vec!["--device", lavapipe(), "--suite", "latency", "--shuffle"];
        args.extend(["--seed", seed.as_str()]);
        for n in &names {
            args.extend(["--filter", *n]);
        }
        args.extend(["--csv", csv.to_str().unwrap()]);
        let o = run(&args);
        assert!(o.status.success(), "{}", stderr(&o));
        files.push(csv);
    }
    // Every row carries the host's caches, as sysfs lists them.
    let mut reader = csv::Reader::from_path(&files[0]).unwrap();
    let headers = reader.headers().unwrap().clone();
    let column = headers.iter().position(|h| h == "host_caches").unwrap();
    for record in reader.records() {
        let cell = record.unwrap()[column].to_string();
        for (name, bytes) in &caches {
            let size = perftest_results::summary::size_name(*bytes);
            assert!(
                cell.contains(&format!("{name} {size}")),
                "{cell} lacks {name} {size}"
            );
        }
    }
    let mut args = vec!["summary", "--json", "-"];
    args.extend(files.iter().map(|f| f.to_str().unwrap()));
    let o = run(&args);
    assert!(o.status.success(), "{}", stderr(&o));
    let text = run(&args[..1]
        .iter()
        .chain(&args[3..])
        .copied()
        .collect::<Vec<_>>());
    let doc: Value = serde_json::from_slice(&o.stdout).unwrap();
    let section = doc["gpus"][0]["sections"]
        .as_array()
        .unwrap()
        .iter()
        .find(|s| {
            s["title"]
                .as_str()
                .unwrap()
                .starts_with("The host CPU's caches")
        })
        .unwrap_or_else(|| panic!("no host-CPU section: {}", stdout(&text)));
    let items = section["items"].as_array().unwrap();
    let mut held = 0;
    for (name, bytes) in &caches {
        let item = items
            .iter()
            .find(|i| {
                i["what"]
                    .as_str()
                    .unwrap()
                    .starts_with(&format!("{name} ("))
            })
            .unwrap_or_else(|| panic!("no item for {name}: {}", stdout(&text)));
        let q = &item["quantities"];
        if *bytes > LARGEST {
            let why = item["left_out"].as_str().unwrap_or_default();
            assert!(why.starts_with("past the curve's sizes"), "{name}: {item}");
            continue;
        }
        // The step's range (the plateau's edge, or its half-rise) brackets the kernel's size.
        let (lo, hi) = (q[0]["value"].as_f64(), q[0]["to"].as_f64());
        let (Some(lo), Some(hi)) = (lo, hi) else {
            panic!("{name} ({bytes} B): no step at it\n{}", stdout(&text));
        };
        assert!(
            lo <= *bytes as f64 && *bytes as f64 <= hi,
            "{name}: {bytes} B outside {lo}–{hi}\n{}",
            stdout(&text)
        );
        assert!(item["text"].as_str().unwrap().contains(": holds"), "{item}");
        held += 1;
    }
    // At least the L1d and one more level lie within 16 MB on any CPU lavapipe runs on.
    assert!(held >= 2, "{held} of {caches:?} held\n{}", stdout(&text));
}
