//! The Vulkan context: loader, instance, device enumeration, and one `Gpu` per physical device.

use crate::matrix;
use anyhow::{bail, Context as _, Result};
use ash::vk;
use std::ffi::{c_void, CStr, CString};
use std::sync::atomic::{AtomicUsize, Ordering};

/// Messages the validation layer (or any layer) reported through `VK_EXT_debug_utils`.
pub static VALIDATION_MESSAGES: AtomicUsize = AtomicUsize::new(0);

pub use crate::device::{record_full_barrier, Calibrated, Gpu, Queue};
pub use crate::matrix::{
    CoopMatEntry, Coopmat2, FlexibleEntry, MatrixSupport, COMPONENT_BFLOAT16,
    COMPONENT_FLOAT8_E4M3, COMPONENT_FLOAT8_E5M2,
};

/// A queue family: its index and its timestamps' valid bits.
type QueueFamily = (u32, u32);

/// No Vulkan loader, or no usable device: the application exits 3 on it.
#[derive(Debug)]
pub struct NoVulkan(pub String);

impl std::fmt::Display for NoVulkan {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for NoVulkan {}

const VALIDATION_LAYER: &CStr = c"VK_LAYER_KHRONOS_validation";

/// What to say when the loader finds no driver or no device.
#[cfg(not(windows))]
pub const NO_DEVICE: &str = "no Vulkan device found. Install a Vulkan driver (for a CPU \
    device: `sudo apt install mesa-vulkan-drivers`), or check VK_DRIVER_FILES / \
    VK_ICD_FILENAMES if set";
/// What to say when the loader finds no driver or no device.
#[cfg(windows)]
pub const NO_DEVICE: &str = "no Vulkan device found. Install or update your GPU's driver \
    (NVIDIA, AMD and Intel drivers include Vulkan; on a laptop, the drivers of both GPUs), or \
    check VK_DRIVER_FILES / VK_ICD_FILENAMES if set";

/// Kind of physical device, in the order the default selection prefers them.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum DeviceType {
    Discrete,
    Integrated,
    Virtual,
    Other,
    Cpu,
}

impl DeviceType {
    fn from_vk(t: vk::PhysicalDeviceType) -> Self {
        match t {
            vk::PhysicalDeviceType::DISCRETE_GPU => DeviceType::Discrete,
            vk::PhysicalDeviceType::INTEGRATED_GPU => DeviceType::Integrated,
            vk::PhysicalDeviceType::VIRTUAL_GPU => DeviceType::Virtual,
            vk::PhysicalDeviceType::CPU => DeviceType::Cpu,
            _ => DeviceType::Other,
        }
    }

    /// Lower-case name, as `--list-devices` prints it.
    pub fn name(self) -> &'static str {
        match self {
            DeviceType::Discrete => "discrete",
            DeviceType::Integrated => "integrated",
            DeviceType::Virtual => "virtual",
            DeviceType::Other => "other",
            DeviceType::Cpu => "cpu",
        }
    }
}

/// A PCI address: domain, bus, device, function.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PciAddress {
    pub domain: u32,
    pub bus: u32,
    pub device: u32,
    pub function: u32,
}

impl std::fmt::Display for PciAddress {
    /// As Linux names it in sysfs: `0000:65:00.0`.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "{:04x}:{:02x}:{:02x}.{:x}",
            self.domain, self.bus, self.device, self.function
        )
    }
}

/// What we know about one physical device, read once at start-up.
#[derive(Clone, Debug)]
pub struct DeviceInfo {
    /// Position in the loader's enumeration (the `--device` index).
    pub index: usize,
    pub handle: vk::PhysicalDevice,
    pub name: String,
    pub device_type: DeviceType,
    pub vendor_id: u32,
    pub device_id: u32,
    /// `VkPhysicalDeviceDriverProperties::driverName` (empty before Vulkan 1.2).
    pub driver_name: String,
    /// `VkPhysicalDeviceDriverProperties::driverInfo` (empty before Vulkan 1.2).
    pub driver_info: String,
    /// Raw `driverVersion` (vendor-specific encoding).
    pub driver_version: u32,
    /// The device's Vulkan API version.
    pub api_version: u32,
    /// `deviceUUID`.
    pub uuid: [u8; 16],
    /// Where the device sits on the PCI bus (`VK_EXT_pci_bus_info`), where the driver says:
    /// what matches it to the kernel's sysfs device.
    pub pci: Option<PciAddress>,
    /// Nanoseconds per timestamp tick.
    pub timestamp_period: f32,
    /// A compute queue family whose timestamps are valid, with `timestampValidBits`.
    pub compute_queue: Option<(u32, u32)>,
    /// A transfer-only queue family (no graphics, no compute) whose timestamps are valid,
    /// with `timestampValidBits`: the copy engines of a discrete GPU.
    pub transfer_queue: Option<(u32, u32)>,
    pub limits: vk::PhysicalDeviceLimits,
    /// Device extensions the driver offers.
    pub extensions: Vec<String>,
    /// Compute units (NVIDIA SMs, AMD CUs, Arm cores) and the extension that reported them.
    pub compute_units: Option<(u32, &'static str)>,
    /// Optional features perftest can use on this device.
    pub features: Features,
    /// Default subgroup size.
    pub subgroup_size: u32,
    /// Cooperative matrices, integer dot products, bfloat16 and float8 (the matrix suite).
    pub matrix: MatrixSupport,
}

/// Optional device features perftest uses where present.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Features {
    /// `VK_KHR_shader_clock` `shaderSubgroupClock`: the clock probe and the latency kernels.
    pub shader_subgroup_clock: bool,
    /// `VK_KHR_shader_clock` `shaderDeviceClock`: a real-time clock in the probe, so its
    /// clock is measured inside the shader (immune to launch cost and time slicing).
    pub shader_device_clock: bool,
    /// `VK_KHR_pipeline_executable_properties`: driver statistics per kernel.
    pub pipeline_executable_info: bool,
    /// `shaderStorageImageExtendedFormats`: storage images/texel buffers of r8, rg16f…
    pub shader_storage_extended_formats: bool,
    /// `storageBuffer8BitAccess` (Vulkan 1.2).
    pub storage_buffer_8bit: bool,
    /// `storageBuffer16BitAccess` (Vulkan 1.1).
    pub storage_buffer_16bit: bool,
    /// `scalarBlockLayout` (Vulkan 1.2).
    pub scalar_block_layout: bool,
    /// `bufferDeviceAddress` (Vulkan 1.2).
    pub buffer_device_address: bool,
    /// Subgroup basic operations in compute shaders (`gl_SubgroupInvocationID`).
    pub subgroup_basic: bool,
    /// Subgroup basic + ballot operations in compute shaders (`subgroupBroadcastFirst`).
    pub subgroup_ballot: bool,
    /// `shaderBufferInt64Atomics` (Vulkan 1.2): 64-bit atomics on storage buffers.
    pub buffer_int64_atomics: bool,
    /// `VK_EXT_shader_atomic_float` `shaderBufferFloat32AtomicAdd`.
    pub buffer_float32_atomic_add: bool,
    /// Subgroup shuffle operations in compute shaders (`subgroupShuffle`).
    pub subgroup_shuffle: bool,
    /// Subgroup arithmetic operations in compute shaders (`subgroupAdd`).
    pub subgroup_arithmetic: bool,
    /// `shaderFloat16` (Vulkan 1.2): 16-bit float arithmetic in shaders.
    pub shader_float16: bool,
    /// `shaderFloat64`: 64-bit float arithmetic in shaders.
    pub shader_float64: bool,
    /// `shaderInt64`: 64-bit integer arithmetic in shaders.
    pub shader_int64: bool,
    /// `shaderInt16`: 16-bit integer arithmetic in shaders (the 16-bit offsets pitfall).
    pub shader_int16: bool,
    /// `shaderInt8` (Vulkan 1.2): 8-bit integer arithmetic in shaders (the matrix suite).
    pub shader_int8: bool,
    /// `synchronization2` (Vulkan 1.3): barriers that name storage reads and writes alone
    /// (`SHADER_STORAGE_WRITE` → `SHADER_STORAGE_READ`), the narrowest a dispatch chain needs.
    pub synchronization2: bool,
}

impl DeviceInfo {
    /// A device that was never enumerated, for tests of what is printed about one (the
    /// crates above test their output with it).
    #[doc(hidden)]
    pub fn for_tests(index: usize, name: &str) -> DeviceInfo {
        DeviceInfo {
            index,
            handle: vk::PhysicalDevice::null(),
            name: name.into(),
            device_type: DeviceType::Discrete,
            vendor_id: 0x10de,
            device_id: 0x2330,
            driver_name: String::new(),
            driver_info: String::new(),
            driver_version: 0,
            api_version: vk::API_VERSION_1_3,
            uuid: [0; 16],
            pci: None,
            timestamp_period: 1.0,
            compute_queue: Some((0, 64)),
            transfer_queue: None,
            limits: Default::default(),
            extensions: Vec::new(),
            compute_units: None,
            features: Default::default(),
            subgroup_size: 32,
            matrix: Default::default(),
        }
    }
}

impl DeviceInfo {
    /// `major.minor.patch` of the device's Vulkan version.
    pub fn api_version_string(&self) -> String {
        version_string(self.api_version)
    }

    /// The vendor and device ids as the outputs write them (`0x10de`, `0x2330`).
    pub fn pci_ids(&self) -> (String, String) {
        (
            format!("0x{:04x}", self.vendor_id),
            format!("0x{:04x}", self.device_id),
        )
    }

    /// The driver as one string: name and info where known, else the raw version.
    pub fn driver(&self) -> String {
        match (self.driver_name.is_empty(), self.driver_info.is_empty()) {
            (false, false) => format!("{} {}", self.driver_name, self.driver_info),
            (false, true) => self.driver_name.clone(),
            _ => format!("driverVersion {:#x}", self.driver_version),
        }
    }

    /// The driver version decoded the way vulkaninfo does for each vendor.
    pub fn driver_version_string(&self) -> String {
        decode_driver_version(self.vendor_id, self.driver_version)
    }

    /// The UUID in the usual 8-4-4-4-12 hex form.
    pub fn uuid_string(&self) -> String {
        let h: String = self.uuid.iter().map(|b| format!("{b:02x}")).collect();
        format!(
            "{}-{}-{}-{}-{}",
            &h[0..8],
            &h[8..12],
            &h[12..16],
            &h[16..20],
            &h[20..32]
        )
    }
}

/// `major.minor.patch` of a packed Vulkan version.
pub fn version_string(v: u32) -> String {
    format!(
        "{}.{}.{}",
        vk::api_version_major(v),
        vk::api_version_minor(v),
        vk::api_version_patch(v)
    )
}

/// A driver version as vulkaninfo decodes it: NVIDIA's 10.8.8.6 bit scheme, Intel's 18.14 on
/// Windows, the standard Vulkan packing otherwise (Mesa, AMD, Arm…).
pub fn decode_driver_version(vendor_id: u32, v: u32) -> String {
    match vendor_id {
        0x10de => format!(
            "{}.{}.{}.{}",
            (v >> 22) & 0x3ff,
            (v >> 14) & 0xff,
            (v >> 6) & 0xff,
            v & 0x3f
        ),
        0x8086 if cfg!(windows) => format!("{}.{}", v >> 14, v & 0x3fff),
        _ => version_string(v),
    }
}

/// The loader, the instance and the physical devices it sees.
pub struct Instance {
    pub(crate) entry: ash::Entry,
    pub(crate) instance: ash::Instance,
    debug: Option<(ash::ext::debug_utils::Instance, vk::DebugUtilsMessengerEXT)>,
    /// The validation layer's spec version, where `--validation` enabled it.
    layer_version: Option<u32>,
    /// Every physical device, in enumeration order.
    pub devices: Vec<DeviceInfo>,
}

unsafe extern "system" fn debug_callback(
    severity: vk::DebugUtilsMessageSeverityFlagsEXT,
    _types: vk::DebugUtilsMessageTypeFlagsEXT,
    data: *const vk::DebugUtilsMessengerCallbackDataEXT<'_>,
    _user: *mut c_void,
) -> vk::Bool32 {
    VALIDATION_MESSAGES.fetch_add(1, Ordering::Relaxed);
    // SAFETY: the layer passes a valid callback-data pointer for the duration of the call.
    let message = unsafe { data.as_ref() }
        .and_then(|d| unsafe { d.message_as_c_str() })
        .map(|m| m.to_string_lossy().into_owned())
        .unwrap_or_default();
    eprintln!("validation ({severity:?}): {message}");
    vk::FALSE
}

impl Instance {
    /// Loads Vulkan and enumerates devices. `validation` enables the Khronos validation layer
    /// with synchronisation validation; a layer enabled through `VK_INSTANCE_LAYERS` is
    /// reported through the same callback.
    // Long on purpose: the loader, its layers and extensions, the messenger chained into
    // the instance's create info, and the instance: one sequence of locals that the
    // create call points at.
    pub fn new(validation: bool) -> Result<Self> {
        // PERFTEST_VULKAN_LIBRARY names a loader to use instead of the system one.
        let custom = std::env::var_os("PERFTEST_VULKAN_LIBRARY");
        let loaded = match &custom {
            // SAFETY: loading a Vulkan loader library; nothing else runs during its
            // initialisation.
            Some(path) => unsafe { ash::Entry::load_from(path) },
            // SAFETY: as above, the system's loader.
            None => unsafe { ash::Entry::load() },
        };
        let entry = loaded.map_err(|e| {
            NoVulkan(if let Some(path) = &custom {
                // The variable's own loader, not the system's: the message names it.
                format!(
                    "PERFTEST_VULKAN_LIBRARY={:?} names no Vulkan loader that loads ({e}); \
                     give a loader library's path, or unset the variable for the system's",
                    path
                )
            } else if cfg!(windows) {
                format!(
                    "the Vulkan runtime (vulkan-1.dll) was not found ({e}); install or update \
                     your GPU's driver, which installs it (NVIDIA, AMD and Intel drivers do), or \
                     the Vulkan Runtime from LunarG"
                )
            } else {
                format!(
                    "the Vulkan loader (libvulkan.so.1) was not found ({e}); install it \
                     (Debian/Ubuntu: `sudo apt install libvulkan1 mesa-vulkan-drivers`, or run \
                     scripts/setup.sh)"
                )
            })
        })?;
        // SAFETY: plain queries on a loaded entry.
        let loader_version = unsafe { entry.try_enumerate_instance_version() }
            .ok()
            .flatten()
            .unwrap_or(vk::API_VERSION_1_0);
        if loader_version < vk::API_VERSION_1_1 {
            return Err(NoVulkan(format!(
                "the Vulkan loader supports only Vulkan {}; perftest needs 1.1 or newer",
                version_string(loader_version)
            ))
            .into());
        }
        // SAFETY: a plain query on a loaded entry.
        let layers = unsafe { entry.enumerate_instance_layer_properties() }
            .context("vkEnumerateInstanceLayerProperties")?;
        // SAFETY: a plain query on a loaded entry.
        let extensions = unsafe { entry.enumerate_instance_extension_properties(None) }
            .context("vkEnumerateInstanceExtensionProperties")?;
        let has_ext = |name: &CStr| {
            extensions
                .iter()
                .any(|e| e.extension_name_as_c_str().is_ok_and(|n| n == name))
        };

        let mut layer_names: Vec<*const i8> = Vec::new();
        if validation {
            let present = layers
                .iter()
                .any(|l| l.layer_name_as_c_str().is_ok_and(|n| n == VALIDATION_LAYER));
            if !present {
                bail!(
                    "--validation: the layer VK_LAYER_KHRONOS_validation is not installed \
                     (Debian/Ubuntu: `sudo apt install vulkan-validationlayers`)"
                );
            }
            layer_names.push(VALIDATION_LAYER.as_ptr());
        }
        let layer_version = layers
            .iter()
            .find(|l| l.layer_name_as_c_str().is_ok_and(|n| n == VALIDATION_LAYER))
            .map(|l| l.spec_version)
            .filter(|_| validation);
        let debug_utils = has_ext(ash::ext::debug_utils::NAME);
        let mut ext_names: Vec<*const i8> = Vec::new();
        if debug_utils {
            ext_names.push(ash::ext::debug_utils::NAME.as_ptr());
        }
        let mut flags = vk::InstanceCreateFlags::empty();
        if has_ext(ash::khr::portability_enumeration::NAME) {
            ext_names.push(ash::khr::portability_enumeration::NAME.as_ptr());
            flags |= vk::InstanceCreateFlags::ENUMERATE_PORTABILITY_KHR;
        }

        let app_name = CString::new("perftest").unwrap();
        let app = vk::ApplicationInfo::default()
            .application_name(&app_name)
            .application_version(1)
            .engine_name(&app_name)
            .api_version(loader_version.min(vk::API_VERSION_1_3));
        let enables = [vk::ValidationFeatureEnableEXT::SYNCHRONIZATION_VALIDATION];
        let mut features =
            vk::ValidationFeaturesEXT::default().enabled_validation_features(&enables);
        let messenger_info = vk::DebugUtilsMessengerCreateInfoEXT::default()
            .message_severity(
                vk::DebugUtilsMessageSeverityFlagsEXT::WARNING
                    | vk::DebugUtilsMessageSeverityFlagsEXT::ERROR,
            )
            // GENERAL messages are the loader's own notes (e.g. "VK_INSTANCE_LAYERS is set").
            .message_type(
                vk::DebugUtilsMessageTypeFlagsEXT::VALIDATION
                    | vk::DebugUtilsMessageTypeFlagsEXT::PERFORMANCE,
            )
            .pfn_user_callback(Some(debug_callback));
        let mut info = vk::InstanceCreateInfo::default()
            .application_info(&app)
            .enabled_layer_names(&layer_names)
            .enabled_extension_names(&ext_names)
            .flags(flags);
        if validation {
            info = info.push_next(&mut features);
        }
        // A copy for the instance's pNext chain (which links it): it also catches messages
        // from vkCreateInstance / vkDestroyInstance themselves.
        let mut chained_messenger = messenger_info;
        if debug_utils {
            info = info.push_next(&mut chained_messenger);
        }
        // SAFETY: every pointer in `info` refers to locals that outlive the call.
        let instance = unsafe { entry.create_instance(&info, None) }.map_err(|e| match e {
            vk::Result::ERROR_INCOMPATIBLE_DRIVER => NoVulkan(NO_DEVICE.into()),
            e => NoVulkan(format!("vkCreateInstance failed: {e}")),
        })?;
        let debug = if debug_utils {
            let loader = ash::ext::debug_utils::Instance::new(&entry, &instance);
            // SAFETY: a live instance with VK_EXT_debug_utils enabled; the create info's
            // callback is a `'static` function; the messenger is destroyed in Drop.
            let messenger = unsafe { loader.create_debug_utils_messenger(&messenger_info, None) }
                .context("vkCreateDebugUtilsMessengerEXT")?;
            Some((loader, messenger))
        } else {
            None
        };
        let mut this = Instance {
            entry,
            instance,
            debug,
            layer_version,
            devices: Vec::new(),
        };
        this.devices = this.enumerate()?;
        Ok(this)
    }

    // Long on purpose: one properties chain per device; the chained structs must live
    // through the one call that fills them.
    fn enumerate(&self) -> Result<Vec<DeviceInfo>> {
        // SAFETY: the instance is valid for the lifetime of `self`.
        let handles = unsafe { self.instance.enumerate_physical_devices() }
            .context("vkEnumeratePhysicalDevices")?;
        let mut out = Vec::new();
        for (index, handle) in handles.into_iter().enumerate() {
            // SAFETY: `handle` was just enumerated from this live instance.
            let props = unsafe { self.instance.get_physical_device_properties(handle) };
            let extensions: Vec<String> =
                // SAFETY: as above, a plain query of an enumerated device.
                unsafe { self.instance.enumerate_device_extension_properties(handle) }
                    .context("vkEnumerateDeviceExtensionProperties")?
                    .iter()
                    .map(|e| c_string(e.extension_name_as_c_str()))
                    .collect();
            let has = |name: &CStr| extensions.iter().any(|e| *e == *name.to_string_lossy());
            let mut id = vk::PhysicalDeviceIDProperties::default();
            let mut driver = vk::PhysicalDeviceDriverProperties::default();
            let has_driver_props = props.api_version >= vk::API_VERSION_1_2;
            let mut subgroup = vk::PhysicalDeviceSubgroupProperties::default();
            let mut sm = vk::PhysicalDeviceShaderSMBuiltinsPropertiesNV::default();
            let mut amd = vk::PhysicalDeviceShaderCorePropertiesAMD::default();
            let mut arm = vk::PhysicalDeviceShaderCoreBuiltinsPropertiesARM::default();
            let mut pci = vk::PhysicalDevicePCIBusInfoPropertiesEXT::default();
            let has_pci = has(ash::ext::pci_bus_info::NAME);
            let mut props2 = vk::PhysicalDeviceProperties2::default()
                .push_next(&mut id)
                .push_next(&mut subgroup);
            if has_driver_props {
                props2 = props2.push_next(&mut driver);
            }
            let has_sm = has(ash::nv::shader_sm_builtins::NAME);
            let has_amd = has(ash::amd::shader_core_properties::NAME);
            let has_arm = has(ash::arm::shader_core_builtins::NAME);
            if has_sm {
                props2 = props2.push_next(&mut sm);
            }
            if has_amd {
                props2 = props2.push_next(&mut amd);
            }
            if has_arm {
                props2 = props2.push_next(&mut arm);
            }
            if has_pci {
                props2 = props2.push_next(&mut pci);
            }
            // SAFETY: an enumerated device; every struct chained into `props2` is a local
            // that outlives the call, chained only where the device has its extension.
            unsafe {
                self.instance
                    .get_physical_device_properties2(handle, &mut props2)
            };
            let compute_units = if has_sm && sm.shader_sm_count > 0 {
                Some((sm.shader_sm_count, "VK_NV_shader_sm_builtins"))
            } else if has_amd && amd.compute_units_per_shader_array > 0 {
                let cus = amd.shader_engine_count
                    * amd.shader_arrays_per_engine_count
                    * amd.compute_units_per_shader_array;
                Some((cus, "VK_AMD_shader_core_properties"))
            } else if has_arm && arm.shader_core_count > 0 {
                Some((arm.shader_core_count, "VK_ARM_shader_core_builtins"))
            } else {
                None
            };
            let features = self.features(handle, props.api_version, &has, &subgroup);
            let matrix = matrix::query(
                &self.entry,
                &self.instance,
                handle,
                props.api_version,
                &has,
                self.layer_version,
            );
            let (driver_name, driver_info) = if has_driver_props {
                (
                    c_string(driver.driver_name_as_c_str()),
                    c_string(driver.driver_info_as_c_str()),
                )
            } else {
                (String::new(), String::new())
            };
            let (compute_queue, transfer_queue) = self.queues(handle);
            out.push(DeviceInfo {
                index,
                handle,
                name: c_string(props.device_name_as_c_str()),
                device_type: DeviceType::from_vk(props.device_type),
                vendor_id: props.vendor_id,
                device_id: props.device_id,
                driver_name,
                driver_info,
                driver_version: props.driver_version,
                api_version: props.api_version,
                uuid: id.device_uuid,
                pci: has_pci.then_some(PciAddress {
                    domain: pci.pci_domain,
                    bus: pci.pci_bus,
                    device: pci.pci_device,
                    function: pci.pci_function,
                }),
                timestamp_period: props.limits.timestamp_period,
                compute_queue,
                transfer_queue,
                limits: props.limits,
                extensions,
                compute_units,
                features,
                subgroup_size: subgroup.subgroup_size,
                matrix,
            });
        }
        Ok(out)
    }

    /// The features perftest reads of an enumerated device (`has`: whether it lists an
    /// extension), each `false` where the device or its Vulkan version lacks it.
    // Long on purpose: one `vkGetPhysicalDeviceFeatures2` chain of every feature struct the
    // device's version and extensions allow, built and read in one place.
    fn features(
        &self,
        handle: vk::PhysicalDevice,
        api_version: u32,
        has: &dyn Fn(&CStr) -> bool,
        subgroup: &vk::PhysicalDeviceSubgroupProperties<'_>,
    ) -> Features {
        let mut clock = vk::PhysicalDeviceShaderClockFeaturesKHR::default();
        let mut exec = vk::PhysicalDevicePipelineExecutablePropertiesFeaturesKHR::default();
        let mut atomic_float = vk::PhysicalDeviceShaderAtomicFloatFeaturesEXT::default();
        let has_atomic_float = has(ash::ext::shader_atomic_float::NAME);
        let has_clock = has(ash::khr::shader_clock::NAME);
        let has_exec = has(ash::khr::pipeline_executable_properties::NAME);
        let is_12 = api_version >= vk::API_VERSION_1_2;
        let mut v11 = vk::PhysicalDeviceVulkan11Features::default();
        let mut v12 = vk::PhysicalDeviceVulkan12Features::default();
        let mut storage16 = vk::PhysicalDevice16BitStorageFeatures::default();
        let is_13 = api_version >= vk::API_VERSION_1_3;
        let mut sync2 = vk::PhysicalDeviceSynchronization2Features::default();
        let mut features2 = vk::PhysicalDeviceFeatures2::default();
        if is_12 {
            features2 = features2.push_next(&mut v11).push_next(&mut v12);
        } else {
            features2 = features2.push_next(&mut storage16);
        }
        if has_clock {
            features2 = features2.push_next(&mut clock);
        }
        if has_exec {
            features2 = features2.push_next(&mut exec);
        }
        if has_atomic_float {
            features2 = features2.push_next(&mut atomic_float);
        }
        if is_13 {
            features2 = features2.push_next(&mut sync2);
        }
        // SAFETY: as above: locals chained only where the device has their extension.
        unsafe {
            self.instance
                .get_physical_device_features2(handle, &mut features2)
        };
        let stages_ok = subgroup
            .supported_stages
            .contains(vk::ShaderStageFlags::COMPUTE);
        let ops = vk::SubgroupFeatureFlags::BASIC | vk::SubgroupFeatureFlags::BALLOT;
        let has_ops = |more| {
            stages_ok
                && subgroup
                    .supported_operations
                    .contains(vk::SubgroupFeatureFlags::BASIC | more)
        };
        let core = features2.features;
        Features {
            shader_subgroup_clock: has_clock && clock.shader_subgroup_clock == vk::TRUE,
            shader_device_clock: has_clock
                && clock.shader_subgroup_clock == vk::TRUE
                && clock.shader_device_clock == vk::TRUE,
            pipeline_executable_info: has_exec && exec.pipeline_executable_info == vk::TRUE,
            shader_storage_extended_formats: core.shader_storage_image_extended_formats == vk::TRUE,
            storage_buffer_8bit: is_12 && v12.storage_buffer8_bit_access == vk::TRUE,
            storage_buffer_16bit: if is_12 {
                v11.storage_buffer16_bit_access == vk::TRUE
            } else {
                storage16.storage_buffer16_bit_access == vk::TRUE
            },
            scalar_block_layout: is_12 && v12.scalar_block_layout == vk::TRUE,
            buffer_device_address: is_12 && v12.buffer_device_address == vk::TRUE,
            subgroup_basic: has_ops(vk::SubgroupFeatureFlags::BASIC),
            subgroup_ballot: stages_ok && subgroup.supported_operations.contains(ops),
            buffer_int64_atomics: is_12 && v12.shader_buffer_int64_atomics == vk::TRUE,
            buffer_float32_atomic_add: has_atomic_float
                && atomic_float.shader_buffer_float32_atomic_add == vk::TRUE,
            subgroup_shuffle: has_ops(vk::SubgroupFeatureFlags::SHUFFLE),
            subgroup_arithmetic: has_ops(vk::SubgroupFeatureFlags::ARITHMETIC),
            shader_float16: is_12 && v12.shader_float16 == vk::TRUE,
            shader_float64: core.shader_float64 == vk::TRUE,
            shader_int64: core.shader_int64 == vk::TRUE,
            shader_int16: core.shader_int16 == vk::TRUE,
            shader_int8: is_12 && v12.shader_int8 == vk::TRUE,
            synchronization2: is_13 && sync2.synchronization2 == vk::TRUE,
        }
    }

    /// The first compute queue family with timestamps, and a transfer-only one with
    /// timestamps where the device has it.
    fn queues(&self, handle: vk::PhysicalDevice) -> (Option<QueueFamily>, Option<QueueFamily>) {
        // SAFETY: a plain query of an enumerated device.
        let families = unsafe {
            self.instance
                .get_physical_device_queue_family_properties(handle)
        };
        let compute_queue = families
            .iter()
            .enumerate()
            .find(|(_, f)| {
                f.queue_flags.contains(vk::QueueFlags::COMPUTE) && f.timestamp_valid_bits > 0
            })
            .map(|(i, f)| (i as u32, f.timestamp_valid_bits));
        let transfer_queue = families
            .iter()
            .enumerate()
            .find(|(_, f)| {
                f.queue_flags.contains(vk::QueueFlags::TRANSFER)
                    && !f
                        .queue_flags
                        .intersects(vk::QueueFlags::COMPUTE | vk::QueueFlags::GRAPHICS)
                    && f.timestamp_valid_bits > 0
            })
            .map(|(i, f)| (i as u32, f.timestamp_valid_bits));
        (compute_queue, transfer_queue)
    }

    /// Format features of `format` on `device`.
    pub fn format_properties(
        &self,
        device: &DeviceInfo,
        format: vk::Format,
    ) -> vk::FormatProperties {
        // SAFETY: plain query on a valid physical device.
        unsafe {
            self.instance
                .get_physical_device_format_properties(device.handle, format)
        }
    }
}

fn c_string(s: Result<&CStr, std::ffi::FromBytesUntilNulError>) -> String {
    s.map(|s| s.to_string_lossy().into_owned())
        .unwrap_or_default()
}

impl Drop for Instance {
    fn drop(&mut self) {
        // SAFETY: every Gpu borrows the Instance, so all devices are gone by now.
        unsafe {
            if let Some((loader, messenger)) = self.debug.take() {
                loader.destroy_debug_utils_messenger(messenger, None);
            }
            self.instance.destroy_instance(None);
        }
    }
}
