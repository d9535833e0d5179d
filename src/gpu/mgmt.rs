//! The driver's management interface (NVIDIA's NVML, loaded at run time): the GPU's own word on its clocks, power, temperature and why a clock is held down, sampled while rows are timed.

use super::DeviceInfo;
use std::ffi::{c_char, c_int, c_uint, c_ulonglong, c_void};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

type Handle = *mut c_void;
type Ret = c_int;

/// The NVML entry points used here (NVML's C API, stable since r440).
struct Api {
    _lib: libloading::Library,
    by_uuid: unsafe extern "C" fn(*const c_char, *mut Handle) -> Ret,
    clock: unsafe extern "C" fn(Handle, c_uint, *mut c_uint) -> Ret,
    max_clock: unsafe extern "C" fn(Handle, c_uint, *mut c_uint) -> Ret,
    power: unsafe extern "C" fn(Handle, *mut c_uint) -> Ret,
    power_limit: unsafe extern "C" fn(Handle, *mut c_uint) -> Ret,
    temperature: unsafe extern "C" fn(Handle, c_uint, *mut c_uint) -> Ret,
    reasons: unsafe extern "C" fn(Handle, *mut c_ulonglong) -> Ret,
}

const NVML_CLOCK_SM: c_uint = 1;
const NVML_CLOCK_MEM: c_uint = 2;
const NVML_TEMPERATURE_GPU: c_uint = 0;

/// The clock-event (throttle) reasons NVML reports, by bit, as nvidia-smi names them.
pub const REASONS: [(u64, &str); 9] = [
    (0x1, "idle"),
    (0x2, "application clocks setting"),
    (0x4, "power cap"),
    (0x8, "hardware slowdown"),
    (0x20, "sync boost"),
    (0x40, "thermal slowdown"),
    (0x80, "hardware thermal slowdown"),
    (0x100, "power brake"),
    (0x200, "display clock setting"),
];

/// The reasons of `bits`, joined with `+` (empty for none).
pub fn reason_names(bits: u64) -> String {
    REASONS
        .iter()
        .filter(|(bit, _)| bits & bit != 0)
        .map(|(_, name)| *name)
        .collect::<Vec<_>>()
        .join("+")
}

/// The reasons that hold a busy GPU's clock down (not idle, not a setting the user chose).
pub const THROTTLE: u64 = 0x4 | 0x8 | 0x40 | 0x80 | 0x100;

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

/// One Vulkan device's management device, where the platform has one.
pub struct Management {
    api: Arc<Api>,
    handle: SendHandle,
}

#[derive(Clone, Copy)]
struct SendHandle(Handle);
// SAFETY: NVML device handles are process-wide and NVML is thread-safe.
unsafe impl Send for SendHandle {}
// SAFETY: as above.
unsafe impl Sync for SendHandle {}

impl Management {
    /// The management device of `info`, matched by its Vulkan device UUID (NVIDIA's Vulkan
    /// device UUID is NVML's GPU UUID), or why there is none.
    pub fn open(info: &DeviceInfo) -> Result<Management, String> {
        if info.vendor_id != 0x10de {
            return Err(format!(
                "no management interface read for vendor {:04x} (NVML is NVIDIA's)",
                info.vendor_id
            ));
        }
        let api = Arc::new(load()?);
        let uuid = nvml_uuid(&info.uuid);
        let c = std::ffi::CString::new(uuid.clone()).map_err(|e| e.to_string())?;
        let mut handle: Handle = std::ptr::null_mut();
        // SAFETY: a NUL-terminated string and a place for the handle.
        let ret = unsafe { (api.by_uuid)(c.as_ptr(), &mut handle) };
        if ret != 0 || handle.is_null() {
            return Err(format!("NVML knows no GPU {uuid} (error {ret})"));
        }
        Ok(Management {
            api,
            handle: SendHandle(handle),
        })
    }

    /// One reading now (each field absent where NVML does not give it).
    pub fn read(&self) -> Reading {
        let h = self.handle.0;
        let a = &self.api;
        let u = |f: &dyn Fn(&mut c_uint) -> Ret| {
            let mut v: c_uint = 0;
            (f(&mut v) == 0).then_some(v)
        };
        // SAFETY (each call): a valid handle and a place for the value.
        Reading {
            sm_mhz: u(&|v| unsafe { (a.clock)(h, NVML_CLOCK_SM, v) }).map(f64::from),
            mem_mhz: u(&|v| unsafe { (a.clock)(h, NVML_CLOCK_MEM, v) }).map(f64::from),
            power_w: u(&|v| unsafe { (a.power)(h, v) }).map(|mw| f64::from(mw) / 1000.0),
            temp_c: u(&|v| unsafe { (a.temperature)(h, NVML_TEMPERATURE_GPU, v) }).map(f64::from),
            reasons: {
                let mut bits: c_ulonglong = 0;
                (unsafe { (a.reasons)(h, &mut bits) } == 0).then_some(bits)
            },
        }
    }

    /// The maximum clocks and the power limit.
    pub fn limits(&self) -> Limits {
        let (h, a) = (self.handle.0, &self.api);
        let mut v: c_uint = 0;
        // SAFETY (each call): a valid handle and a place for the value.
        let max_sm = (unsafe { (a.max_clock)(h, NVML_CLOCK_SM, &mut v) } == 0).then_some(v);
        let max_mem = (unsafe { (a.max_clock)(h, NVML_CLOCK_MEM, &mut v) } == 0).then_some(v);
        let limit = (unsafe { (a.power_limit)(h, &mut v) } == 0).then(|| f64::from(v) / 1000.0);
        Limits {
            max_sm_mhz: max_sm,
            max_mem_mhz: max_mem,
            power_limit_w: limit,
        }
    }

    /// Starts reading the device every `every` on a thread of its own, until the watch is
    /// finished.
    pub fn watch(&self, every: Duration) -> Watch {
        let stop = Arc::new(AtomicBool::new(false));
        let readings = Arc::new(Mutex::new(Vec::new()));
        let me = Management {
            api: self.api.clone(),
            handle: self.handle,
        };
        let (s, r) = (stop.clone(), readings.clone());
        let thread = std::thread::spawn(move || loop {
            let reading = me.read();
            if let Ok(mut v) = r.lock() {
                v.push(reading);
            }
            if s.load(Ordering::Relaxed) {
                break;
            }
            std::thread::sleep(every);
        });
        Watch {
            stop,
            readings,
            thread: Some(thread),
        }
    }
}

/// Readings being taken (see [`Management::watch`]).
pub struct Watch {
    stop: Arc<AtomicBool>,
    readings: Arc<Mutex<Vec<Reading>>>,
    thread: Option<std::thread::JoinHandle<()>>,
}

impl Watch {
    /// Stops reading (after one last reading) and sums up what was read.
    pub fn finish(mut self) -> Sampled {
        self.stop.store(true, Ordering::Relaxed);
        if let Some(t) = self.thread.take() {
            let _ = t.join();
        }
        let readings = self.readings.lock().map(|v| v.clone()).unwrap_or_default();
        Sampled::of(&readings)
    }
}

impl Drop for Watch {
    fn drop(&mut self) {
        self.stop.store(true, Ordering::Relaxed);
        if let Some(t) = self.thread.take() {
            let _ = t.join();
        }
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

/// NVML's library, initialised once for the process.
fn load() -> Result<Api, String> {
    let names: &[&str] = if cfg!(windows) {
        &["nvml.dll"]
    } else {
        &["libnvidia-ml.so.1", "libnvidia-ml.so"]
    };
    let mut why = String::new();
    for name in names {
        // SAFETY: loading NVIDIA's library runs its initialisers, which have no preconditions.
        match unsafe { libloading::Library::new(name) } {
            Ok(lib) => return bind(lib),
            Err(e) => why = format!("{name}: {e}"),
        }
    }
    Err(format!("NVML is not installed ({why})"))
}

fn bind(lib: libloading::Library) -> Result<Api, String> {
    // SAFETY: each symbol is looked up by its C name and given NVML's C signature.
    unsafe {
        macro_rules! sym {
            ($name:literal) => {
                *lib.get(concat!($name, "\0").as_bytes())
                    .map_err(|e| format!("NVML has no {}: {e}", $name))?
            };
        }
        let init: unsafe extern "C" fn() -> Ret = sym!("nvmlInit_v2");
        let ret = init();
        if ret != 0 {
            return Err(format!("nvmlInit_v2 failed (error {ret})"));
        }
        let reasons = match lib.get(b"nvmlDeviceGetCurrentClocksEventReasons\0") {
            Ok(f) => *f,
            Err(_) => sym!("nvmlDeviceGetCurrentClocksThrottleReasons"),
        };
        Ok(Api {
            by_uuid: sym!("nvmlDeviceGetHandleByUUID"),
            clock: sym!("nvmlDeviceGetClockInfo"),
            max_clock: sym!("nvmlDeviceGetMaxClockInfo"),
            power: sym!("nvmlDeviceGetPowerUsage"),
            power_limit: sym!("nvmlDeviceGetEnforcedPowerLimit"),
            temperature: sym!("nvmlDeviceGetTemperature"),
            reasons,
            _lib: lib,
        })
    }
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

    #[test]
    fn a_row_sums_up_its_readings() {
        let r = |sm, reasons| Reading {
            sm_mhz: Some(sm),
            mem_mhz: Some(2619.0),
            power_w: Some(sm / 4.0),
            temp_c: Some(sm / 40.0),
            reasons: Some(reasons),
        };
        let s = Sampled::of(&[r(1980.0, 0), r(1800.0, 0x4), r(1980.0, 0x40)]);
        assert_eq!(s.sm_mhz, Some(1920.0));
        assert_eq!(s.temp_c, Some(49.5));
        assert_eq!(s.reasons, Some(0x44));
        assert_eq!(reason_names(0x44), "power cap+thermal slowdown");
        assert_eq!(Sampled::of(&[]).sm_mhz, None);
    }
}
