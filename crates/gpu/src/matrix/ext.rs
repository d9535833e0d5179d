//! Structures and entry points of extensions newer than ash 0.38's headers (Vulkan 1.3.281):
//! `VK_KHR_shader_bfloat16`, `VK_EXT_shader_float8` and `VK_NV_cooperative_matrix2`, declared
//! with the values of the Vulkan headers that define them.

use super::{CoopMatEntry, FlexibleEntry};
use ash::vk;
use std::ffi::c_void;

/// `VkPhysicalDeviceShaderBfloat16FeaturesKHR`.
#[repr(C)]
#[derive(Clone, Copy)]
pub(crate) struct Bfloat16Features {
    s_type: vk::StructureType,
    p_next: *mut c_void,
    pub shader_bfloat16_type: vk::Bool32,
    pub shader_bfloat16_dot_product: vk::Bool32,
    pub shader_bfloat16_cooperative_matrix: vk::Bool32,
}

impl Default for Bfloat16Features {
    fn default() -> Self {
        Bfloat16Features {
            s_type: vk::StructureType::from_raw(1_000_141_000),
            p_next: std::ptr::null_mut(),
            shader_bfloat16_type: 0,
            shader_bfloat16_dot_product: 0,
            shader_bfloat16_cooperative_matrix: 0,
        }
    }
}

// SAFETY: the structure starts with sType and pNext, as every Vulkan structure of a chain does.
unsafe impl vk::ExtendsPhysicalDeviceFeatures2 for Bfloat16Features {}
// SAFETY: as above.
unsafe impl vk::ExtendsDeviceCreateInfo for Bfloat16Features {}

/// `VkPhysicalDeviceShaderFloat8FeaturesEXT`.
#[repr(C)]
#[derive(Clone, Copy)]
pub(crate) struct Float8Features {
    s_type: vk::StructureType,
    p_next: *mut c_void,
    pub shader_float8: vk::Bool32,
    pub shader_float8_cooperative_matrix: vk::Bool32,
}

impl Default for Float8Features {
    fn default() -> Self {
        Float8Features {
            s_type: vk::StructureType::from_raw(1_000_567_000),
            p_next: std::ptr::null_mut(),
            shader_float8: 0,
            shader_float8_cooperative_matrix: 0,
        }
    }
}

// SAFETY: the structure starts with sType and pNext.
unsafe impl vk::ExtendsPhysicalDeviceFeatures2 for Float8Features {}
// SAFETY: as above.
unsafe impl vk::ExtendsDeviceCreateInfo for Float8Features {}

/// `VkPhysicalDeviceCooperativeMatrix2FeaturesNV`.
#[repr(C)]
#[derive(Clone, Copy)]
pub(crate) struct Coopmat2Features {
    s_type: vk::StructureType,
    p_next: *mut c_void,
    pub workgroup_scope: vk::Bool32,
    pub flexible_dimensions: vk::Bool32,
    reductions: vk::Bool32,
    conversions: vk::Bool32,
    per_element_operations: vk::Bool32,
    tensor_addressing: vk::Bool32,
    block_loads: vk::Bool32,
}

impl Default for Coopmat2Features {
    fn default() -> Self {
        Coopmat2Features {
            s_type: vk::StructureType::from_raw(1_000_593_000),
            p_next: std::ptr::null_mut(),
            workgroup_scope: 0,
            flexible_dimensions: 0,
            reductions: 0,
            conversions: 0,
            per_element_operations: 0,
            tensor_addressing: 0,
            block_loads: 0,
        }
    }
}

// SAFETY: the structure starts with sType and pNext.
unsafe impl vk::ExtendsPhysicalDeviceFeatures2 for Coopmat2Features {}
// SAFETY: as above.
unsafe impl vk::ExtendsDeviceCreateInfo for Coopmat2Features {}

/// `VkPhysicalDeviceCooperativeMatrix2PropertiesNV`.
#[repr(C)]
#[derive(Clone, Copy)]
pub(super) struct Coopmat2Properties {
    s_type: vk::StructureType,
    p_next: *mut c_void,
    pub workgroup_scope_max_workgroup_size: u32,
    pub flexible_dimensions_max_dimension: u32,
    pub workgroup_scope_reserved_shared_memory: u32,
}

impl Default for Coopmat2Properties {
    fn default() -> Self {
        Coopmat2Properties {
            s_type: vk::StructureType::from_raw(1_000_593_002),
            p_next: std::ptr::null_mut(),
            workgroup_scope_max_workgroup_size: 0,
            flexible_dimensions_max_dimension: 0,
            workgroup_scope_reserved_shared_memory: 0,
        }
    }
}

// SAFETY: the structure starts with sType and pNext.
unsafe impl vk::ExtendsPhysicalDeviceProperties2 for Coopmat2Properties {}

/// `VkCooperativeMatrixFlexibleDimensionsPropertiesNV`.
#[repr(C)]
#[derive(Clone, Copy)]
struct FlexibleProperties {
    s_type: vk::StructureType,
    p_next: *mut c_void,
    m_granularity: u32,
    n_granularity: u32,
    k_granularity: u32,
    a_type: i32,
    b_type: i32,
    c_type: i32,
    result_type: i32,
    saturating_accumulation: vk::Bool32,
    scope: i32,
    workgroup_invocations: u32,
}

/// `vkGetPhysicalDeviceCooperativeMatrixFlexibleDimensionsPropertiesNV`.
type FlexiblePropertiesFn =
    unsafe extern "system" fn(vk::PhysicalDevice, *mut u32, *mut FlexibleProperties) -> vk::Result;

/// The flexible-dimension configurations the driver lists (empty if the query fails).
pub(super) fn flexible_entries(
    entry: &ash::Entry,
    instance: &ash::Instance,
    handle: vk::PhysicalDevice,
) -> Vec<FlexibleEntry> {
    let name = c"vkGetPhysicalDeviceCooperativeMatrixFlexibleDimensionsPropertiesNV";
    // SAFETY: a valid instance; the name is NUL-terminated.
    let Some(f) = (unsafe { entry.get_instance_proc_addr(instance.handle(), name.as_ptr()) })
    else {
        return Vec::new();
    };
    // SAFETY: the loader returned this entry point for this name, whose signature is
    // FlexiblePropertiesFn.
    let f: FlexiblePropertiesFn = unsafe { std::mem::transmute(f) };
    let mut count = 0u32;
    // SAFETY: the count query of a two-call enumeration.
    if unsafe { f(handle, &mut count, std::ptr::null_mut()) } != vk::Result::SUCCESS {
        return Vec::new();
    }
    let blank = FlexibleProperties {
        s_type: vk::StructureType::from_raw(1_000_593_001),
        p_next: std::ptr::null_mut(),
        m_granularity: 0,
        n_granularity: 0,
        k_granularity: 0,
        a_type: 0,
        b_type: 0,
        c_type: 0,
        result_type: 0,
        saturating_accumulation: 0,
        scope: 0,
        workgroup_invocations: 0,
    };
    let mut out = vec![blank; count as usize];
    // SAFETY: `out` holds `count` initialised structures.
    let r = unsafe { f(handle, &mut count, out.as_mut_ptr()) };
    if r != vk::Result::SUCCESS && r != vk::Result::INCOMPLETE {
        return Vec::new();
    }
    out.truncate(count as usize);
    out.iter()
        .map(|p| FlexibleEntry {
            entry: CoopMatEntry {
                m: p.m_granularity,
                n: p.n_granularity,
                k: p.k_granularity,
                a: p.a_type,
                b: p.b_type,
                c: p.c_type,
                result: p.result_type,
                saturating: p.saturating_accumulation == vk::TRUE,
                scope: p.scope,
            },
            invocations: p.workgroup_invocations,
        })
        .collect()
}
