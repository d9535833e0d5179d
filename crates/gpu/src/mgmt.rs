//! The driver's management interface (NVIDIA's NVML, loaded at run time; Linux's sysfs for amdgpu and i915/xe): the GPU's own word on its clocks, power, temperature and why a clock is held down, sampled while rows are timed.

use super::DeviceInfo;
use crate::flight::Flight;
use nvml_wrapper::bitmasks::device::ThrottleReasons;
use nvml_wrapper::enum_wrappers::device::{Clock as NvmlClock, TemperatureSensor};
use nvml_wrapper::error::NvmlError;
use nvml_wrapper::{Device, Nvml};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

/// The reasons that hold a busy GPU's clock down (not idle, not a setting the user chose, not
/// another GPU's sync boost), as NVML's bitmask.
pub const THROTTLE: u64 = ThrottleReasons::SW_POWER_CAP
    .union(ThrottleReasons::HW_SLOWDOWN)
    .union(ThrottleReasons::SW_THERMAL_SLOWDOWN)
    .union(ThrottleReasons::HW_THERMAL_SLOWDOWN)
    .union(ThrottleReasons::HW_POWER_BRAKE_SLOWDOWN)
    .bits();

/// One reading of the device.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Reading {
    pub sm_mhz: Option<f64>,
    pub mem_mhz: Option<f64>,
    pub power_w: Option<f64>,
    pub temp_c: Option<f64>,
    pub reasons: Option<u64>,
}

/// What the driver said while a row was timed: the mean clocks and power, the highest
/// temperature and every reason seen.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Sampled {
    pub sm_mhz: Option<f64>,
    pub mem_mhz: Option<f64>,
    pub power_w: Option<f64>,
    pub temp_c: Option<f64>,
    pub reasons: Option<u64>,
    pub samples: u32,
}

impl Sampled {
    /// The summary of `readings`.
    pub fn of(readings: &[Reading]) -> Sampled {
        fn mean(v: impl Iterator<Item = f64>) -> Option<f64> {
            let (n, sum) = v.fold((0u32, 0.0), |(n, s), x| (n + 1, s + x));
            (n > 0).then(|| sum / n as f64)
        }
        Sampled {
            sm_mhz: mean(readings.iter().filter_map(|r| r.sm_mhz)),
            mem_mhz: mean(readings.iter().filter_map(|r| r.mem_mhz)),
            power_w: mean(readings.iter().filter_map(|r| r.power_w)),
            temp_c: readings.iter().filter_map(|r| r.temp_c).reduce(f64::max),
            reasons: readings
                .iter()
                .filter_map(|r| r.reasons)
                .reduce(|a, b| a | b),
            samples: readings.len() as u32,
        }
    }
}

/// The device's limits, for `--list-devices`.
#[derive(Clone, Copy, Debug, Default)]
pub struct Limits {
    pub max_sm_mhz: Option<u32>,
    pub max_mem_mhz: Option<u32>,
    pub power_limit_w: Option<f64>,
}

/// A device's PCIe link at its most: the generation's transfer rate and the lane count the
/// driver gives as the maximum.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Link {
    /// Transfers per second per lane, in billions (2.5, 5, 8, 16, 32, 64).
    pub gt_per_s: f64,
    /// Lanes.
    pub width: u32,
}

impl Link {
    /// The link of PCIe generation `generation` (1–6) with `width` lanes.
    pub fn of_generation(generation: u32, width: u32) -> Option<Link> {
        let gt_per_s = match generation {
            1 => 2.5,
            2 => 5.0,
            3 => 8.0,
            4 => 16.0,
            5 => 32.0,
            6 => 64.0,
            _ => return None,
        };
        (width > 0).then_some(Link { gt_per_s, width })
    }

    /// What the link carries one way at most, GB/s: transfers × lanes × the line encoding's
    /// share (8b/10b to 5 GT/s, 128b/130b from 8; PCIe 6's FLITs counted whole), before any
    /// packet overhead — an upper bound no copy over it can pass (x16 at 32 GT/s: 63.0).
    pub fn gbytes_per_s(&self) -> f64 {
        let encoding = if self.gt_per_s <= 5.0 {
            0.8
        } else if self.gt_per_s < 64.0 {
            128.0 / 130.0
        } else {
            1.0
        };
        self.gt_per_s * self.width as f64 * encoding / 8.0
    }
}

/// One Vulkan device's management device, where the platform has one.
pub struct Management {
    source: Source,
}

#[derive(Clone)]
enum Source {
    /// NVML's device (shared with the watch's thread: NVML is thread-safe).
    Nvml(Arc<Device<'static>>),
    Sysfs(Sysfs),
}

impl Management {
    /// The management device of `info`: NVIDIA's through NVML, matched by its Vulkan device
    /// UUID (NVIDIA's Vulkan device UUID is NVML's GPU UUID); AMD's and Intel's through the
    /// kernel's sysfs, matched by PCI address; or why there is none.
    pub fn open(info: &DeviceInfo) -> Result<Management, String> {
        match info.vendor_id {
            0x10de => Self::open_nvml(&info.uuid),
            0x1002 | 0x8086 => {
                let pci = info
                    .pci
                    .ok_or("the driver gives no PCI address (VK_EXT_pci_bus_info)")?;
                let dir = std::path::PathBuf::from(format!("/sys/bus/pci/devices/{pci}"));
                Sysfs::open(&dir).map(|s| Management {
                    source: Source::Sysfs(s),
                })
            }
            v => Err(format!(
                "no management interface read for vendor {v:04x} (NVML for NVIDIA, sysfs for \
                 AMD and Intel)"
            )),
        }
    }

    /// NVIDIA's device of Vulkan device UUID `uuid`, through NVML.
    fn open_nvml(uuid: &[u8; 16]) -> Result<Management, String> {
        let uuid = nvml_uuid(uuid);
        let device = nvml()?
            .device_by_uuid(uuid.as_str())
            .map_err(|e| format!("NVML knows no GPU {uuid} ({e})"))?;
        Ok(Management {
            source: Source::Nvml(Arc::new(device)),
        })
    }

    /// One reading now (each field absent where the interface does not give it).
    pub fn read(&self) -> Reading {
        match &self.source {
            Source::Nvml(d) => nvml_read(d),
            Source::Sysfs(s) => s.read(),
        }
    }

    /// Which interface reads the device: `NVML` or `sysfs`.
    pub fn kind(&self) -> &'static str {
        match self.source {
            Source::Nvml(_) => "NVML",
            Source::Sysfs(_) => "sysfs",
        }
    }

    /// The maximum clocks and the power limit.
    pub fn limits(&self) -> Limits {
        match &self.source {
            Source::Nvml(d) => Limits {
                max_sm_mhz: given(d.max_clock_info(NvmlClock::SM)),
                max_mem_mhz: given(d.max_clock_info(NvmlClock::Memory)),
                power_limit_w: given(d.enforced_power_limit()).map(|mw| f64::from(mw) / 1000.0),
            },
            Source::Sysfs(s) => s.limits(),
        }
    }

    /// The device's PCIe link at its most, where the interface gives it (NVML's maximum
    /// generation and width; sysfs's `max_link_speed` and `max_link_width`).
    pub fn link(&self) -> Option<Link> {
        match &self.source {
            Source::Nvml(d) => Link::of_generation(
                given(d.max_pcie_link_gen())?,
                given(d.max_pcie_link_width())?,
            ),
            Source::Sysfs(s) => s.link,
        }
    }

    /// Starts reading the device on a thread of its own, until the watch is finished: every
    /// `every` while `flight` has work running, and never while it has none. A reading taken
    /// between two submissions or before the first is no reading of the work: an H100 reports
    /// its idle clock whenever it has none, even for a moment (latency rows, each a few ms of
    /// one workgroup, read 345–405 MHz beside a probe's 1979 in a 2-GPU run), so only the
    /// readings that start while a submission is in flight are kept; the thread is woken at
    /// each submission, so a short one is read too.
    pub fn watch(&self, every: Duration, flight: &Arc<Flight>) -> Watch {
        let stop = Arc::new(AtomicBool::new(false));
        let readings = Arc::new(Mutex::new(Vec::new()));
        let me = Management {
            source: self.source.clone(),
        };
        let (s, r, f) = (stop.clone(), readings.clone(), flight.clone());
        let thread = std::thread::spawn(move || {
            let mut last: Option<std::time::Instant> = None;
            while !s.load(Ordering::Relaxed) {
                let wait = every.saturating_sub(last.map_or(every, |t| t.elapsed()));
                if !f.busy() {
                    // Until the next submission (or `finish`) wakes it.
                    std::thread::park();
                } else if !wait.is_zero() {
                    // Parked, not asleep: `finish` wakes it at once (a row must not wait
                    // out the interval: thousands of rows, each idling the GPU up to 10 ms,
                    // add half a minute to a whole run).
                    std::thread::park_timeout(wait);
                } else {
                    last = Some(std::time::Instant::now());
                    let reading = me.read();
                    if let Ok(mut v) = r.lock() {
                        v.push(reading);
                    }
                }
            }
        });
        flight.set_watcher(Some(thread.thread().clone()));
        // Work submitted before the watcher was set woke no one.
        thread.thread().unpark();
        Watch {
            stop,
            readings,
            thread: Some(thread),
            flight: flight.clone(),
        }
    }
}

/// The kernel's sysfs files of an amdgpu or i915/xe device (`/sys/bus/pci/devices/ADDR`).
#[derive(Clone, Debug)]
pub struct Sysfs {
    /// Current and listed shader clock levels (amdgpu `pp_dpm_sclk`) or the actual and
    /// maximum frequency files (i915 `gt_act_freq_mhz`, xe `act_freq`).
    shader: Option<Clock>,
    memory: Option<Clock>,
    /// hwmon: power (µW), power cap (µW), temperature (m°C).
    power: Option<std::path::PathBuf>,
    power_cap: Option<std::path::PathBuf>,
    temp: Option<std::path::PathBuf>,
    /// The PCIe link at its most (`max_link_speed`, `max_link_width`).
    link: Option<Link>,
}

#[derive(Clone, Debug)]
enum Clock {
    /// A `pp_dpm_*` table: levels, the current one starred.
    Levels(std::path::PathBuf),
    /// A file holding the clock in MHz, and the file holding its maximum.
    Mhz(std::path::PathBuf, Option<std::path::PathBuf>),
}

impl Sysfs {
    /// The files of the device at `dir` (a PCI device's sysfs folder), where its driver
    /// exposes them; an error where it exposes none.
    pub fn open(dir: &std::path::Path) -> Result<Sysfs, String> {
        let file = |p: std::path::PathBuf| p.is_file().then_some(p);
        let first = |pattern: &dyn Fn(&std::path::Path) -> Option<std::path::PathBuf>,
                     sub: &str| {
            std::fs::read_dir(dir.join(sub))
                .ok()?
                .filter_map(|e| e.ok())
                .find_map(|e| pattern(&e.path()))
        };
        let hwmon = first(&|p: &std::path::Path| Some(p.to_path_buf()), "hwmon");
        let drm_card = first(
            &|p: &std::path::Path| {
                let name = p.file_name()?.to_string_lossy().into_owned();
                (name.starts_with("card") && !name.contains('-')).then(|| p.to_path_buf())
            },
            "drm",
        );
        let shader = file(dir.join("pp_dpm_sclk"))
            .map(Clock::Levels)
            .or_else(|| {
                let card = drm_card.clone()?;
                file(card.join("gt_act_freq_mhz"))
                    .map(|p| Clock::Mhz(p, file(card.join("gt_max_freq_mhz"))))
            })
            .or_else(|| {
                let freq = dir.join("tile0/gt0/freq0");
                file(freq.join("act_freq")).map(|p| Clock::Mhz(p, file(freq.join("max_freq"))))
            });
        let memory = file(dir.join("pp_dpm_mclk")).map(Clock::Levels);
        let hw = |name: &str| hwmon.as_ref().and_then(|h| file(h.join(name)));
        let s = Sysfs {
            shader,
            memory,
            power: hw("power1_average").or_else(|| hw("power1_input")),
            power_cap: hw("power1_cap"),
            temp: hw("temp1_input"),
            link: sysfs_link(
                &std::fs::read_to_string(dir.join("max_link_speed")).unwrap_or_default(),
                &std::fs::read_to_string(dir.join("max_link_width")).unwrap_or_default(),
            ),
        };
        if s.shader.is_none() && s.power.is_none() && s.temp.is_none() {
            return Err(format!(
                "{} exposes no clock, power or temperature files",
                dir.display()
            ));
        }
        Ok(s)
    }

    fn read(&self) -> Reading {
        let text = |p: &std::path::Path| std::fs::read_to_string(p).ok();
        let number = |p: &Option<std::path::PathBuf>| {
            p.as_deref()
                .and_then(text)
                .and_then(|t| t.trim().parse::<f64>().ok())
        };
        let clock = |c: &Option<Clock>| match c.as_ref()? {
            Clock::Levels(p) => current_level(&text(p)?),
            Clock::Mhz(p, _) => text(p)?.trim().parse().ok(),
        };
        Reading {
            sm_mhz: clock(&self.shader),
            mem_mhz: clock(&self.memory),
            power_w: number(&self.power).map(|uw| uw / 1e6),
            temp_c: number(&self.temp).map(|mc| mc / 1000.0),
            reasons: None,
        }
    }

    fn limits(&self) -> Limits {
        let text = |p: &std::path::Path| std::fs::read_to_string(p).ok();
        let max = |c: &Option<Clock>| match c.as_ref()? {
            Clock::Levels(p) => highest_level(&text(p)?),
            Clock::Mhz(_, Some(m)) => text(m)?.trim().parse().ok(),
            Clock::Mhz(_, None) => None,
        };
        Limits {
            max_sm_mhz: max(&self.shader).map(|v| v as u32),
            max_mem_mhz: max(&self.memory).map(|v| v as u32),
            power_limit_w: self
                .power_cap
                .as_deref()
                .and_then(text)
                .and_then(|t| t.trim().parse::<f64>().ok())
                .map(|uw| uw / 1e6),
        }
    }
}

/// The link sysfs describes: `max_link_speed` as `32.0 GT/s PCIe`, `max_link_width` as `16`.
fn sysfs_link(speed: &str, width: &str) -> Option<Link> {
    let gt_per_s: f64 = speed.split_whitespace().next()?.parse().ok()?;
    let width: u32 = width.trim().parse().ok()?;
    (gt_per_s > 0.0 && width > 0).then_some(Link { gt_per_s, width })
}

/// The levels of an amdgpu `pp_dpm_*` table (`0: 500Mhz`, `1: 2100Mhz *`), MHz, and whether
/// each is the current one.
fn levels(text: &str) -> Vec<(f64, bool)> {
    text.lines()
        .filter_map(|l| {
            let (_, rest) = l.split_once(':')?;
            let mut words = rest.split_whitespace();
            let mhz = words.next()?.to_ascii_lowercase();
            let mhz: f64 = mhz.strip_suffix("mhz")?.parse().ok()?;
            Some((mhz, words.any(|w| w == "*")))
        })
        .collect()
}

/// The current level of a `pp_dpm_*` table, MHz.
pub fn current_level(text: &str) -> Option<f64> {
    levels(text)
        .into_iter()
        .find(|(_, now)| *now)
        .map(|(m, _)| m)
}

/// The highest level of a `pp_dpm_*` table, MHz.
pub fn highest_level(text: &str) -> Option<f64> {
    levels(text).into_iter().map(|(m, _)| m).reduce(f64::max)
}

/// Readings being taken (see [`Management::watch`]).
pub struct Watch {
    stop: Arc<AtomicBool>,
    readings: Arc<Mutex<Vec<Reading>>>,
    thread: Option<std::thread::JoinHandle<()>>,
    flight: Arc<Flight>,
}

impl Watch {
    /// The last reading taken so far, if any.
    pub fn latest(&self) -> Option<Reading> {
        self.readings.lock().ok().and_then(|v| v.last().copied())
    }

    /// Stops reading and sums up what was read while work ran.
    pub fn finish(mut self) -> Sampled {
        self.stop_thread();
        let readings = self.readings.lock().map(|v| v.clone()).unwrap_or_default();
        Sampled::of(&readings)
    }

    fn stop_thread(&mut self) {
        self.stop.store(true, Ordering::Relaxed);
        if let Some(t) = self.thread.take() {
            self.flight.set_watcher(None);
            t.thread().unpark();
            let _ = t.join();
        }
    }
}

impl Drop for Watch {
    fn drop(&mut self) {
        self.stop_thread();
    }
}

/// NVML's spelling of a GPU UUID: `GPU-` and the 16 bytes as 8-4-4-4-12 hex digits.
pub fn nvml_uuid(uuid: &[u8; 16]) -> String {
    let h: String = uuid.iter().map(|b| format!("{b:02x}")).collect();
    format!(
        "GPU-{}-{}-{}-{}-{}",
        &h[0..8],
        &h[8..12],
        &h[12..16],
        &h[16..20],
        &h[20..32]
    )
}

/// One reading of NVIDIA's device through NVML.
fn nvml_read(d: &Device) -> Reading {
    Reading {
        sm_mhz: given(d.clock_info(NvmlClock::SM)).map(f64::from),
        mem_mhz: given(d.clock_info(NvmlClock::Memory)).map(f64::from),
        power_w: given(d.power_usage()).map(|mw| f64::from(mw) / 1000.0),
        temp_c: given(d.temperature(TemperatureSensor::Gpu)).map(f64::from),
        reasons: given(d.current_throttle_reasons()).map(|r| r.bits()),
    }
}

/// NVML's answer to one query, or none: a query the GPU or driver does not support (or one
/// that fails now) leaves its reading empty rather than stopping the run.
fn given<T>(answer: Result<T, NvmlError>) -> Option<T> {
    answer.ok()
}

/// NVML, loaded and initialised once for the process (and never shut down or unloaded: every
/// device, run and `--list-devices` line shares it), or why it cannot be.
fn nvml() -> Result<&'static Nvml, String> {
    static NVML: std::sync::OnceLock<Result<Nvml, String>> = std::sync::OnceLock::new();
    NVML.get_or_init(load).as_ref().map_err(Clone::clone)
}

/// Loads NVML's library at run time (`nvml-wrapper` opens it with `libloading`: nothing of
/// NVIDIA's is needed to build perftest or to run it without NVIDIA's driver) and initialises it.
fn load() -> Result<Nvml, String> {
    // Linux: the driver installs `libnvidia-ml.so.1` (nvml-wrapper's name); some packagings
    // (a container's, a development install) give only the unversioned name.
    let answer = match Nvml::init() {
        Err(NvmlError::LibloadingError(first)) if cfg!(target_os = "linux") => {
            match Nvml::builder()
                .lib_path(std::ffi::OsStr::new("libnvidia-ml.so"))
                .init()
            {
                // Neither name is there: the usual name's error says so.
                Err(NvmlError::LibloadingError(_)) => Err(NvmlError::LibloadingError(first)),
                answer => answer,
            }
        }
        answer => answer,
    };
    answer.map_err(|e| match e {
        NvmlError::LibloadingError(e) => format!("NVML is not installed ({e})"),
        NvmlError::DriverNotLoaded => "NVML: NVIDIA's driver is not loaded".to_string(),
        NvmlError::NoPermission => "NVML: no permission to talk to NVIDIA's driver".to_string(),
        e => format!("NVML could not start ({e})"),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn uuids_are_spelled_as_nvml_spells_them() {
        let uuid = [
            0x86, 0xfa, 0x07, 0x68, 0x0d, 0xe1, 0xe2, 0x7a, 0x4c, 0x57, 0x07, 0xe1, 0x89, 0x7f,
            0x34, 0x0c,
        ];
        assert_eq!(nvml_uuid(&uuid), "GPU-86fa0768-0de1-e27a-4c57-07e1897f340c");
    }

    fn sample(name: &str) -> std::path::PathBuf {
        std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("../../tests/fixtures/sysfs")
            .join(name)
    }

    #[test]
    fn amdgpu_tables_give_the_starred_level_and_hwmon_its_units() {
        let s = Sysfs::open(&sample("amdgpu")).unwrap();
        let r = s.read();
        assert_eq!(r.sm_mhz, Some(2371.0));
        assert_eq!(r.mem_mhz, Some(1249.0));
        assert_eq!(r.power_w, Some(250.0));
        assert_eq!(r.temp_c, Some(61.0));
        let l = s.limits();
        assert_eq!((l.max_sm_mhz, l.max_mem_mhz), (Some(2482), Some(1249)));
        assert_eq!(l.power_limit_w, Some(327.0));
        // A table without a starred level has no current clock.
        assert_eq!(current_level("0: 500Mhz\n1: 2100Mhz\n"), None);
        assert_eq!(highest_level("garbage\n"), None);
    }

    #[test]
    fn intel_cards_give_their_actual_and_maximum_frequency() {
        let i915 = Sysfs::open(&sample("i915")).unwrap();
        assert_eq!(i915.read().sm_mhz, Some(1450.0));
        assert_eq!(i915.limits().max_sm_mhz, Some(2250));
        assert_eq!(i915.read().power_w, None);
        let xe = Sysfs::open(&sample("xe")).unwrap();
        assert_eq!(xe.read().sm_mhz, Some(1800.0));
        assert_eq!(xe.limits().max_sm_mhz, Some(2400));
    }

    #[test]
    fn a_device_without_the_files_has_no_management_interface() {
        let e = Sysfs::open(&sample("none")).unwrap_err();
        assert!(
            e.contains("exposes no clock, power or temperature files"),
            "{e}"
        );
        assert!(Sysfs::open(&sample("absent")).is_err());
    }

    #[test]
    fn a_watch_reads_while_work_runs_and_stops_without_waiting_out_its_interval() {
        let m = Management {
            source: Source::Sysfs(Sysfs::open(&sample("amdgpu")).unwrap()),
        };
        let flight = Arc::new(Flight::default());
        let start = std::time::Instant::now();
        // No work in flight: nothing is read, however long the watch runs.
        let watch = m.watch(Duration::from_millis(1), &flight);
        std::thread::sleep(Duration::from_millis(30));
        assert_eq!(watch.finish().samples, 0);
        // An interval far longer than the test: a submission is read at once, and nothing
        // waits for the interval in between.
        let watch = m.watch(Duration::from_secs(60), &flight);
        let running = flight.submitted();
        let read = std::time::Instant::now();
        while watch.latest().is_none() && read.elapsed() < Duration::from_secs(10) {
            std::thread::sleep(Duration::from_millis(1));
        }
        drop(running);
        let sampled = watch.finish();
        assert!(
            start.elapsed() < Duration::from_secs(30),
            "finish waited out the interval"
        );
        assert_eq!(sampled.samples, 1);
        assert_eq!(sampled.sm_mhz, Some(2371.0));
        assert_eq!(sampled.power_w, Some(250.0));
    }

    #[test]
    fn a_row_sums_up_its_readings() {
        let r = |sm, reasons| Reading {
            sm_mhz: Some(sm),
            mem_mhz: Some(2619.0),
            power_w: Some(sm / 4.0),
            temp_c: Some(sm / 40.0),
            reasons: Some(reasons),
        };
        let s = Sampled::of(&[r(1980.0, 0), r(1800.0, 0x4), r(1980.0, 0x20)]);
        assert_eq!(s.sm_mhz, Some(1920.0));
        assert_eq!(s.temp_c, Some(49.5));
        assert_eq!(s.reasons, Some(0x24));
        assert_eq!(Sampled::of(&[]).sm_mhz, None);
    }

    #[test]
    fn a_links_rate_is_its_transfers_lanes_and_encoding() {
        // PCIe 5 x16 (an H100 SXM's host link): 32 GT/s × 16 × 128/130 / 8.
        let h100 = Link::of_generation(5, 16).unwrap();
        assert!((h100.gbytes_per_s() - 63.015).abs() < 0.01, "{h100:?}");
        // PCIe 2 x8: 8b/10b.
        assert_eq!(Link::of_generation(2, 8).unwrap().gbytes_per_s(), 4.0);
        assert_eq!(Link::of_generation(7, 16), None);
        assert_eq!(Link::of_generation(4, 0), None);
        assert_eq!(sysfs_link("32.0 GT/s PCIe\n", "16\n"), Some(h100));
        assert_eq!(sysfs_link("Unknown\n", "16\n"), None);
        assert_eq!(sysfs_link("", ""), None);
    }

    #[test]
    fn reasons_are_nvml_bits() {
        // nvml.h's `nvmlClocksEventReason*` values, in NVML's order: the results crate's
        // `ClockEvent` names them by these bits (`1 << i` for the `i`-th).
        let bits = [
            ThrottleReasons::GPU_IDLE,
            ThrottleReasons::APPLICATIONS_CLOCKS_SETTING,
            ThrottleReasons::SW_POWER_CAP,
            ThrottleReasons::HW_SLOWDOWN,
            ThrottleReasons::SYNC_BOOST,
            ThrottleReasons::SW_THERMAL_SLOWDOWN,
            ThrottleReasons::HW_THERMAL_SLOWDOWN,
            ThrottleReasons::HW_POWER_BRAKE_SLOWDOWN,
            ThrottleReasons::DISPLAY_CLOCK_SETTING,
        ];
        for (i, reason) in bits.iter().enumerate() {
            assert_eq!(reason.bits(), 1 << i, "{reason:?}");
        }
        // Power cap, both slowdowns and both thermal ones, the power brake: not idle, not
        // the clock settings, not sync boost.
        assert_eq!(THROTTLE, 0x4 | 0x8 | 0x20 | 0x40 | 0x80);
    }

    #[test]
    fn without_nvidias_driver_nvml_is_absent_and_nothing_panics() {
        // This machine has no NVIDIA driver: the NVML path says why there is no NVML device
        // (a GPU with the driver has no device of an all-zero UUID), twice, with the same
        // word (NVML is loaded once).
        let uuid = [0; 16];
        let first = Management::open_nvml(&uuid)
            .err()
            .expect("an NVML device of UUID 0");
        assert!(first.contains("NVML"), "{first}");
        assert_eq!(Management::open_nvml(&uuid).err(), Some(first.clone()));
        if nvml().is_err() {
            assert!(
                first.starts_with("NVML is not installed")
                    || first.starts_with("NVML: NVIDIA's driver is not loaded"),
                "{first}"
            );
        }
        // A query NVML cannot answer leaves its reading empty.
        assert_eq!(given::<u32>(Err(NvmlError::NotSupported)), None);
        assert_eq!(given::<u32>(Err(NvmlError::Uninitialized)), None);
        assert_eq!(given(Ok(1980u32)), Some(1980));
    }
}
