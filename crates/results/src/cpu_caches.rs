//! The host CPU's data caches as the kernel reports them (Linux sysfs): the `host_caches` column of a CPU device's rows, which the summary holds lavapipe's latency curve against.

use std::path::Path;

/// Where Linux describes CPU 0's caches, one `index<N>` folder per cache.
pub const SYSFS: &str = "/sys/devices/system/cpu/cpu0/cache";

/// One cache of the host CPU that holds data (a data-only L1 or a unified level; the
/// instruction caches are left out: no chase reads through them).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct CpuCache {
    /// 1, 2, 3, ….
    pub level: u8,
    /// Whether it holds instructions too (`L2`), or data only (`L1d`).
    pub unified: bool,
    pub bytes: u64,
    /// The line size (`coherency_line_size`), bytes; 0 where the kernel does not say.
    pub line: u32,
    /// Its ways (`ways_of_associativity`); 0 where the kernel does not say.
    pub ways: u32,
}

impl CpuCache {
    /// `L1d`, `L2`, `L3`: as lscpu names them.
    pub fn name(&self) -> String {
        if self.unified {
            format!("L{}", self.level)
        } else {
            format!("L{}d", self.level)
        }
    }
}

/// The data caches of the CPU whose sysfs cache folder is `dir` (see [`SYSFS`]), in level
/// order; empty where there is no such folder (not Linux) or it names no data cache.
pub fn read_sysfs(dir: &Path) -> Vec<CpuCache> {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return Vec::new();
    };
    let mut out: Vec<CpuCache> = entries
        .filter_map(|e| e.ok())
        .filter(|e| e.file_name().to_string_lossy().starts_with("index"))
        .filter_map(|e| {
            let read = |file: &str| -> Option<String> {
                Some(
                    std::fs::read_to_string(e.path().join(file))
                        .ok()?
                        .trim()
                        .to_string(),
                )
            };
            let unified = match read("type")?.as_str() {
                "Data" => false,
                "Unified" => true,
                _ => return None,
            };
            Some(CpuCache {
                level: read("level")?.parse().ok()?,
                unified,
                bytes: sysfs_size(&read("size")?)?,
                line: read("coherency_line_size")
                    .and_then(|s| s.parse().ok())
                    .unwrap_or(0),
                ways: read("ways_of_associativity")
                    .and_then(|s| s.parse().ok())
                    .unwrap_or(0),
            })
        })
        .collect();
    out.sort_by_key(|c| (c.level, c.unified));
    out.dedup();
    out
}

/// A size as sysfs writes it: `48K`, `2048K`, `300M`, or bytes.
fn sysfs_size(text: &str) -> Option<u64> {
    let (digits, scale) = match text.as_bytes().last()? {
        b'K' => (&text[..text.len() - 1], 1u64 << 10),
        b'M' => (&text[..text.len() - 1], 1 << 20),
        b'G' => (&text[..text.len() - 1], 1 << 30),
        _ => (text, 1),
    };
    digits.parse::<u64>().ok().map(|n| n * scale)
}

/// The `host_caches` cell of `caches`: `L1d 48 KB 12-way 64 B lines; L2 2 MB 16-way 64 B
/// lines; …` (a ways or line count the kernel does not give is left out).
pub fn cell(caches: &[CpuCache]) -> String {
    caches
        .iter()
        .map(|c| {
            let mut s = format!("{} {}", c.name(), crate::size::size_name(c.bytes));
            if c.ways > 0 {
                s += &format!(" {}-way", c.ways);
            }
            if c.line > 0 {
                s += &format!(" {} B lines", c.line);
            }
            s
        })
        .collect::<Vec<_>>()
        .join("; ")
}

/// The caches of a `host_caches` cell as [`cell`] writes it; `None` where it is not one.
pub fn parse_cell(text: &str) -> Option<Vec<CpuCache>> {
    if text.trim().is_empty() {
        return Some(Vec::new());
    }
    text.split("; ")
        .map(|part| {
            let words: Vec<&str> = part.split(' ').collect();
            let name = words.first()?.strip_prefix('L')?;
            let (level, unified) = match name.strip_suffix('d') {
                Some(n) => (n, false),
                None => (name, true),
            };
            let size = format!("{} {}", words.get(1)?, words.get(2)?);
            let mut c = CpuCache {
                level: level.parse().ok()?,
                unified,
                bytes: crate::size::size_bytes(&size)?,
                line: 0,
                ways: 0,
            };
            let mut rest = words[3..].iter();
            while let Some(w) = rest.next() {
                if let Some(n) = w.strip_suffix("-way") {
                    c.ways = n.parse().ok()?;
                } else {
                    c.line = w.parse().ok()?;
                    (rest.next() == Some(&"B") && rest.next() == Some(&"lines")).then_some(())?;
                }
            }
            Some(c)
        })
        .collect()
}

/// Writes the `host_caches` cell of a row's caches (empty for none): `#[serde(with)]`.
pub fn serialize<S: serde::Serializer>(caches: &[CpuCache], s: S) -> Result<S::Ok, S::Error> {
    s.serialize_str(&cell(caches))
}

/// Reads a `host_caches` cell (empty, or a JSON `null`: none); one perftest did not write
/// is an error that quotes it, as a bad number is.
pub fn deserialize<'de, D: serde::Deserializer<'de>>(d: D) -> Result<Vec<CpuCache>, D::Error> {
    let text: Option<String> = serde::Deserialize::deserialize(d)?;
    let text = text.unwrap_or_default();
    parse_cell(&text).ok_or_else(|| {
        serde::de::Error::custom(format!(
            "`{text}` is not a list of caches as perftest writes it \
             (`L1d 48 KB 12-way 64 B lines; L2 2 MB …`)"
        ))
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sysfs_folders_read_as_the_data_caches() {
        let dir = std::env::temp_dir().join(format!("perftest-sysfs-{}", std::process::id()));
        let write = |index: &str, files: &[(&str, &str)]| {
            let d = dir.join(index);
            std::fs::create_dir_all(&d).unwrap();
            for (f, v) in files {
                std::fs::write(d.join(f), format!("{v}\n")).unwrap();
            }
        };
        let cache = |level, kind, size, line, ways| {
            [
                ("level", level),
                ("type", kind),
                ("size", size),
                ("coherency_line_size", line),
                ("ways_of_associativity", ways),
            ]
        };
        write("index0", &cache("1", "Data", "48K", "64", "12"));
        write("index1", &cache("1", "Instruction", "32K", "64", "8"));
        write("index2", &cache("2", "Unified", "2048K", "64", "16"));
        write("index3", &cache("3", "Unified", "307200K", "64", "20"));
        let caches = read_sysfs(&dir);
        std::fs::remove_dir_all(&dir).unwrap();
        let l1 = CpuCache {
            level: 1,
            unified: false,
            bytes: 48 << 10,
            line: 64,
            ways: 12,
        };
        let l2 = CpuCache {
            level: 2,
            unified: true,
            bytes: 2 << 20,
            ways: 16,
            ..l1
        };
        let l3 = CpuCache {
            level: 3,
            unified: true,
            bytes: 300 << 20,
            ways: 20,
            ..l1
        };
        assert_eq!(caches, [l1, l2, l3]);
        let text = cell(&caches);
        assert_eq!(
            text,
            "L1d 48 KB 12-way 64 B lines; L2 2 MB 16-way 64 B lines; L3 300 MB 20-way 64 B lines"
        );
        assert_eq!(parse_cell(&text).unwrap(), caches);
        assert_eq!(parse_cell("").unwrap(), []);
        assert_eq!(parse_cell("L2 1.25 MB").unwrap()[0].bytes, 1280 << 10);
        assert!(parse_cell("L2 2 parsecs").is_none());
        assert!(read_sysfs(&dir).is_empty());
    }
}
