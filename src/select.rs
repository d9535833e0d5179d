//! Device choice: by `--device N`, or the default preference order.

use crate::error::Failure;
use crate::gpu::{DeviceInfo, DeviceType};

/// The chosen device and why it was chosen.
pub struct Choice {
    pub index: usize,
    pub why: String,
}

/// One line per device, as the run header and error messages print them.
pub fn summary_lines(devices: &[DeviceInfo]) -> Vec<String> {
    devices
        .iter()
        .map(|d| {
            format!(
                "  {}: {} ({}, {:04x}:{:04x}, Vulkan {})",
                d.index,
                d.name,
                d.device_type.name(),
                d.vendor_id,
                d.device_id,
                d.api_version_string()
            )
        })
        .collect()
}

/// The detailed listing of `--list-devices`.
pub fn details(devices: &[DeviceInfo]) -> String {
    let mut s = String::new();
    for d in devices {
        s += &format!("{}: {}\n", d.index, d.name);
        s += &format!("   type:    {}\n", d.device_type.name());
        s += &format!(
            "   id:      {:04x}:{:04x} (vendor:device)\n",
            d.vendor_id, d.device_id
        );
        s += &format!("   driver:  {}\n", d.driver());
        s += &format!("   vulkan:  {}\n", d.api_version_string());
        s += &format!("   uuid:    {}\n", d.uuid_string());
        // The driver's own limits, where its management interface knows the device.
        if let Ok(mgmt) = crate::gpu::mgmt::Management::open(d) {
            let l = mgmt.limits();
            let mhz = |v: Option<u32>| v.map_or("?".into(), |v| format!("{v} MHz"));
            s += &format!(
                "   limits:  shader clock {}, memory clock {}, power {} ({})\n",
                mhz(l.max_sm_mhz),
                mhz(l.max_mem_mhz),
                l.power_limit_w.map_or("?".into(), |w| format!("{w:.0} W")),
                mgmt.kind()
            );
        }
    }
    s
}

/// Picks the devices named by `selectors` (each comma-separated list of selectors, in order,
/// without repeats), or the default one when there are none.
///
/// A selector is an index, `all`, a type (`discrete`, `integrated`, `virtual`, `cpu`,
/// `other`), `vid:did` in hex, a deviceUUID or a unique prefix of it (hex, dashes optional),
/// or a case-insensitive substring of the name. A selector that matches nothing, or a name
/// that matches several devices, is a usage error that lists the devices.
pub fn choose(devices: &[DeviceInfo], selectors: &[String]) -> Result<Vec<Choice>, Failure> {
    let listing = || format!("available devices:\n{}", summary_lines(devices).join("\n"));
    let selectors: Vec<&str> = selectors
        .iter()
        .flat_map(|s| s.split(','))
        .map(str::trim)
        .filter(|s| !s.is_empty())
        .collect();
    if selectors.is_empty() {
        let best = devices
            .iter()
            .min_by_key(|d| (d.device_type, d.index))
            .expect("at least one device");
        let kind = match best.device_type {
            DeviceType::Discrete => "the first discrete GPU".to_string(),
            t => format!("no discrete GPU found; the first {} device", t.name()),
        };
        return Ok(vec![Choice {
            index: best.index,
            why: format!("{kind} (use --device to choose another)"),
        }]);
    }
    let mut out: Vec<Choice> = Vec::new();
    for sel in selectors {
        let matched =
            matches(devices, sel).map_err(|m| Failure::Usage(format!("{m}; {}", listing())))?;
        if matched.is_empty() {
            return Err(Failure::Usage(format!(
                "--device {sel:?} matches no device; {}",
                listing()
            )));
        }
        for index in matched {
            if !out.iter().any(|c| c.index == index) {
                out.push(Choice {
                    index,
                    why: format!("selected by --device {sel}"),
                });
            }
        }
    }
    Ok(out)
}

/// The devices one selector names, or why it is ambiguous.
fn matches(devices: &[DeviceInfo], sel: &str) -> Result<Vec<usize>, String> {
    let lower = sel.to_lowercase();
    let all = || devices.iter().map(|d| d.index).collect::<Vec<_>>();
    if lower == "all" {
        return Ok(all());
    }
    if let Ok(index) = sel.parse::<usize>() {
        if index < devices.len() {
            return Ok(vec![index]);
        }
        // A number of one or two digits is an index, and only that: `--device 1` on a node
        // whose GPU 1 is gone must not run on the GPU whose name holds a 1 ("H100") or
        // whose UUID starts with one. A longer number is perhaps part of a name ("4090") or
        // of a UUID.
        let other = match sel.len() {
            ..=2 => Vec::new(),
            _ => name_or_uuid(devices, sel)?,
        };
        return if !other.is_empty() {
            Ok(other)
        } else {
            Err(format!(
                "--device {index} does not exist ({} device{} found)",
                devices.len(),
                if devices.len() == 1 { "" } else { "s" }
            ))
        };
    }
    let by_type = ["discrete", "integrated", "virtual", "cpu", "other"];
    if by_type.contains(&lower.as_str()) {
        return Ok(devices
            .iter()
            .filter(|d| d.device_type.name() == lower)
            .map(|d| d.index)
            .collect());
    }
    if let Some((v, d)) = lower.split_once(':') {
        if let (Ok(v), Ok(d)) = (u32::from_str_radix(v, 16), u32::from_str_radix(d, 16)) {
            return Ok(devices
                .iter()
                .filter(|x| x.vendor_id == v && x.device_id == d)
                .map(|x| x.index)
                .collect());
        }
    }
    name_or_uuid(devices, sel)
}

/// The devices whose UUID starts with `sel` (hex, dashes optional), else whose name contains it.
fn name_or_uuid(devices: &[DeviceInfo], sel: &str) -> Result<Vec<usize>, String> {
    let lower = sel.to_lowercase();
    let hex: String = lower.chars().filter(|c| *c != '-').collect();
    if hex.len() >= 4 && hex.chars().all(|c| c.is_ascii_hexdigit()) {
        let by_uuid: Vec<usize> = devices
            .iter()
            .filter(|d| d.uuid_string().replace('-', "").starts_with(&hex))
            .map(|d| d.index)
            .collect();
        if !by_uuid.is_empty() {
            // Identical devices share no UUID, so a prefix naming two is ambiguous.
            return if by_uuid.len() == 1 || hex.len() == 32 {
                Ok(by_uuid)
            } else {
                Err(format!(
                    "--device {sel:?}: UUID prefix matches several devices"
                ))
            };
        }
    }
    let by_name: Vec<usize> = devices
        .iter()
        .filter(|d| d.name.to_lowercase().contains(&lower))
        .map(|d| d.index)
        .collect();
    if by_name.len() > 1 {
        let names: Vec<String> = by_name
            .iter()
            .map(|&i| format!("{i}: {}", devices[i].name))
            .collect();
        return Err(format!(
            "--device {sel:?} matches several devices by name ({}); use an index, a UUID prefix or `all`",
            names.join(", ")
        ));
    }
    Ok(by_name)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn device(
        index: usize,
        name: &str,
        t: DeviceType,
        vendor: u32,
        id: u32,
        uuid0: u8,
    ) -> DeviceInfo {
        let mut uuid = [0u8; 16];
        uuid[0] = uuid0;
        DeviceInfo {
            device_type: t,
            vendor_id: vendor,
            device_id: id,
            uuid,
            ..DeviceInfo::for_tests(index, name)
        }
    }

    fn devices() -> Vec<DeviceInfo> {
        vec![
            device(
                0,
                "Intel(R) UHD Graphics 770",
                DeviceType::Integrated,
                0x8086,
                0x4680,
                0xaa,
            ),
            device(
                1,
                "NVIDIA GeForce RTX 4090",
                DeviceType::Discrete,
                0x10de,
                0x2684,
                0xbb,
            ),
            device(
                2,
                "NVIDIA GeForce RTX 4090",
                DeviceType::Discrete,
                0x10de,
                0x2684,
                0xbc,
            ),
            device(
                3,
                "llvmpipe (LLVM 15.0.6, 256 bits)",
                DeviceType::Cpu,
                0x10005,
                0,
                0xcc,
            ),
        ]
    }

    fn pick(sel: &[&str]) -> Result<Vec<usize>, String> {
        let sel: Vec<String> = sel.iter().map(|s| s.to_string()).collect();
        choose(&devices(), &sel)
            .map(|c| c.into_iter().map(|c| c.index).collect())
            .map_err(|e| e.to_string())
    }

    #[test]
    fn default_prefers_discrete() {
        assert_eq!(pick(&[]).unwrap(), vec![1]);
    }

    #[test]
    fn every_selector_kind() {
        assert_eq!(pick(&["3"]).unwrap(), vec![3]);
        assert_eq!(pick(&["all"]).unwrap(), vec![0, 1, 2, 3]);
        assert_eq!(pick(&["discrete"]).unwrap(), vec![1, 2]);
        assert_eq!(pick(&["cpu"]).unwrap(), vec![3]);
        assert_eq!(pick(&["10de:2684"]).unwrap(), vec![1, 2]);
        assert_eq!(pick(&["10005:0"]).unwrap(), vec![3]);
        assert_eq!(pick(&["bc00"]).unwrap(), vec![2]);
        assert_eq!(pick(&["LLVMpipe"]).unwrap(), vec![3]);
        assert_eq!(pick(&["intel"]).unwrap(), vec![0]);
        assert_eq!(pick(&["cpu,0", "cpu"]).unwrap(), vec![3, 0]);
    }

    #[test]
    fn bad_selectors_are_usage_errors_listing_devices() {
        let e = pick(&["nosuch"]).unwrap_err();
        assert!(
            e.contains("matches no device") && e.contains("llvmpipe"),
            "{e}"
        );
        let e = pick(&["rtx"]).unwrap_err();
        assert!(e.contains("several devices by name"), "{e}");
        let e = pick(&["12"]).unwrap_err();
        assert!(e.contains("does not exist (4 devices found)"), "{e}");
        // Not the index it reads as, though a name holds it ("RTX 4090", "Iris Xe 770") and
        // a UUID starts with it.
        for short in ["4", "9", "77"] {
            let e = pick(&[short]).unwrap_err();
            assert!(
                e.contains("does not exist (4 devices found)"),
                "{short}: {e}"
            );
        }
        // A number that is no index may still be part of a name.
        assert_eq!(pick(&["770"]).unwrap(), vec![0]);
    }
}
