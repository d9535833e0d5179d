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
    }
    s
}

/// Picks the device named by `selector` (an index), or the default one.
pub fn choose(devices: &[DeviceInfo], selector: Option<&str>) -> Result<Choice, Failure> {
    let listing = || format!("available devices:\n{}", summary_lines(devices).join("\n"));
    match selector {
        Some(sel) => {
            let index: usize = sel.trim().parse().map_err(|_| {
                Failure::Usage(format!(
                    "--device {sel:?} is not a device index; {}",
                    listing()
                ))
            })?;
            if index >= devices.len() {
                return Err(Failure::Usage(format!(
                    "--device {index} does not exist ({} device{} found); {}",
                    devices.len(),
                    if devices.len() == 1 { "" } else { "s" },
                    listing()
                )));
            }
            Ok(Choice {
                index,
                why: "chosen with --device".into(),
            })
        }
        None => {
            let best = devices
                .iter()
                .min_by_key(|d| (d.device_type, d.index))
                .expect("at least one device");
            let kind = match best.device_type {
                DeviceType::Discrete => "the first discrete GPU".to_string(),
                t => format!("no discrete GPU found; the first {} device", t.name()),
            };
            Ok(Choice {
                index: best.index,
                why: format!("{kind} (use --device N to choose another)"),
            })
        }
    }
}
