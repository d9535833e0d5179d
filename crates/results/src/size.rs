//! Working-set sizes as the suites name them (`4 KB`, `1.25 MB`, `1 GB`), written and read back.

/// The name of a working-set size as the suites write it: `4 KB`, `1.25 MB`, `1 GB`.
pub fn size_name(bytes: u64) -> String {
    let (value, unit) = if bytes >= 1 << 30 {
        (bytes as f64 / (1u64 << 30) as f64, "GB")
    } else if bytes >= 1 << 20 {
        (bytes as f64 / (1u64 << 20) as f64, "MB")
    } else {
        (bytes as f64 / 1024.0, "KB")
    };
    let text = format!("{value:.2}");
    let text = text.trim_end_matches('0').trim_end_matches('.');
    format!("{text} {unit}")
}

/// The size a test name ends with after `prefix` (`latency: ByteAddressBuffer 1.25 MB`),
/// in bytes; `None` where the rest is not exactly a size (another resource whose name
/// starts the same).
pub fn size_after(test: &str, prefix: &str) -> Option<u64> {
    let rest = test.strip_prefix(prefix)?;
    let (number, unit) = rest.split_once(' ')?;
    let scale = match unit {
        "KB" => 1u64 << 10,
        "MB" => 1 << 20,
        "GB" => 1 << 30,
        _ => return None,
    };
    let v: f64 = number.parse().ok()?;
    (v > 0.0 && number.chars().all(|c| c.is_ascii_digit() || c == '.'))
        .then(|| (v * scale as f64).round() as u64)
}

/// The working set (bytes) of test `test` as a point of the curve `curve` names (the tests
/// `<curve><size>`); `None` for a test of another curve. The name says which curve; the size
/// is `bytes`, the number the runner ran it at, where known, else the size the name ends
/// with (a file written before the runner gave the number): the one rule both a row
/// ([`Row::working_set`](crate::Row::working_set)) and a test of the catalog are placed by.
pub fn on_curve(test: &str, curve: &str, bytes: Option<u64>) -> Option<u64> {
    let named = size_after(test, curve)?;
    Some(bytes.unwrap_or(named))
}

/// A working set's name as [`size_name`] writes it (`1.25 MB`), in bytes.
pub fn size_bytes(text: &str) -> Option<u64> {
    size_after(text, "")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_size_a_test_or_probe_is_named_by_reads_back_as_itself() {
        // The probes' grids (4 KB below 1 MB, a quarter MB above) and the sweeps' points up
        // to 1 GB: a name the suites write is one this reads back exactly.
        let fine = (1..256u64).map(|k| k * (4 << 10));
        let coarse = (4..4096u64).map(|q| q * (256 << 10));
        for bytes in fine.chain(coarse) {
            let name = size_name(bytes);
            assert_eq!(size_bytes(&name), Some(bytes), "{bytes} B named {name}");
        }
        assert_eq!(size_name(896 << 10), "896 KB");
        assert_eq!(size_name(1_310_720), "1.25 MB");
        assert_eq!(size_name(1 << 30), "1 GB");
    }
}
