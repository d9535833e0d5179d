//! What a device offers for matrix and dot-product work: `VK_KHR_cooperative_matrix` and its
//! list of configurations, integer dot products, bfloat16 and float8 shader types.
//!
//! ash 0.38 (Vulkan headers 1.3.281) predates `VK_KHR_shader_bfloat16` and
//! `VK_EXT_shader_float8`: their feature structures are declared here, with the values of the
//! Vulkan headers that define them.

use ash::vk;
use std::ffi::{c_void, CStr};

/// `VK_KHR_shader_bfloat16`.
pub const BFLOAT16_EXTENSION: &CStr = c"VK_KHR_shader_bfloat16";
/// `VK_EXT_shader_float8`.
pub const FLOAT8_EXTENSION: &CStr = c"VK_EXT_shader_float8";
/// `VK_NV_cooperative_matrix2`.
pub const COOPMAT2_EXTENSION: &CStr = c"VK_NV_cooperative_matrix2";

/// `VkComponentTypeKHR` values of the extensions newer than ash's headers.
pub const COMPONENT_BFLOAT16: i32 = 1_000_141_000;
/// `VK_COMPONENT_TYPE_FLOAT8_E4M3_EXT`.
pub const COMPONENT_FLOAT8_E4M3: i32 = 1_000_491_002;
/// `VK_COMPONENT_TYPE_FLOAT8_E5M2_EXT`.
pub const COMPONENT_FLOAT8_E5M2: i32 = 1_000_491_003;

/// The oldest validation layer that knows `VK_KHR_cooperative_matrix` (header 1.3.255).
const LAYER_KNOWS_COOPMAT: u32 = vk::make_api_version(0, 1, 3, 255);
/// A validation layer older than 1.4 knows neither bfloat16 nor float8 (both 1.4 extensions).
const LAYER_KNOWS_1_4_TYPES: u32 = vk::make_api_version(0, 1, 4, 0);

/// `VkPhysicalDeviceShaderBfloat16FeaturesKHR`.
#[repr(C)]
#[derive(Clone, Copy)]
pub(super) struct Bfloat16Features {
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
pub(super) struct Float8Features {
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

/// One entry of `vkGetPhysicalDeviceCooperativeMatrixPropertiesKHR`, as plain data (component
/// types and scope as their raw Vulkan values).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct CoopMatEntry {
    pub m: u32,
    pub n: u32,
    pub k: u32,
    pub a: i32,
    pub b: i32,
    pub c: i32,
    pub result: i32,
    pub saturating: bool,
    pub scope: i32,
}

/// The matrix and dot-product support of one device.
#[derive(Clone, Debug, Default)]
pub struct MatrixSupport {
    /// The driver offers `VK_KHR_cooperative_matrix` with `cooperativeMatrix`.
    pub coopmat_offered: bool,
    /// `cooperativeMatrix` is enabled on the device perftest creates.
    pub coopmat: bool,
    /// Why an offered feature is not enabled (an older validation layer), if one is not.
    pub held_back: Option<String>,
    /// Every configuration the driver lists.
    pub entries: Vec<CoopMatEntry>,
    /// `VK_KHR_shader_bfloat16`: (`shaderBFloat16Type`, `shaderBFloat16DotProduct`,
    /// `shaderBFloat16CooperativeMatrix`), as enabled.
    pub bfloat16: (bool, bool, bool),
    /// `VK_EXT_shader_float8`: (`shaderFloat8`, `shaderFloat8CooperativeMatrix`), as enabled.
    pub float8: (bool, bool),
    /// The driver offers `VK_NV_cooperative_matrix2`.
    pub coopmat2_offered: bool,
    /// `shaderIntegerDotProduct` (Vulkan 1.3 or `VK_KHR_shader_integer_dot_product`).
    pub integer_dot: bool,
    /// Whether the driver says the 4×8-bit packed dot products (signed, unsigned, mixed) and
    /// their accumulating-saturating forms run as one instruction.
    pub dot4x8_accelerated: [bool; 6],
    /// As above, for the 2×16-bit vector dot products (signed, unsigned, mixed).
    pub dot16_accelerated: [bool; 3],
}

/// What the device creation enables: the structures to chain, filled from [`query`]'s results.
pub(super) struct Enables {
    pub coopmat: vk::PhysicalDeviceCooperativeMatrixFeaturesKHR<'static>,
    pub integer_dot: vk::PhysicalDeviceShaderIntegerDotProductFeatures<'static>,
    pub bfloat16: Bfloat16Features,
    pub float8: Float8Features,
}

impl MatrixSupport {
    /// The feature structures to chain into `vkCreateDevice` for what is enabled.
    pub(super) fn enables(&self) -> Enables {
        let mut bfloat16 = Bfloat16Features::default();
        bfloat16.shader_bfloat16_type = self.bfloat16.0.into();
        bfloat16.shader_bfloat16_dot_product = self.bfloat16.1.into();
        bfloat16.shader_bfloat16_cooperative_matrix = self.bfloat16.2.into();
        let mut float8 = Float8Features::default();
        float8.shader_float8 = self.float8.0.into();
        float8.shader_float8_cooperative_matrix = self.float8.1.into();
        Enables {
            coopmat: vk::PhysicalDeviceCooperativeMatrixFeaturesKHR::default()
                .cooperative_matrix(self.coopmat),
            integer_dot: vk::PhysicalDeviceShaderIntegerDotProductFeatures::default()
                .shader_integer_dot_product(self.integer_dot),
            bfloat16,
            float8,
        }
    }
}

/// Reads the device's matrix and dot-product support. `has` tells whether the driver offers an
/// extension; `layer` is the validation layer's spec version where one is enabled (features
/// the layer does not know are held back, so that it stays silent about them).
pub(super) fn query(
    entry: &ash::Entry,
    instance: &ash::Instance,
    handle: vk::PhysicalDevice,
    api_version: u32,
    has: &dyn Fn(&CStr) -> bool,
    layer: Option<u32>,
) -> MatrixSupport {
    let has_coopmat = has(ash::khr::cooperative_matrix::NAME);
    let has_dot =
        api_version >= vk::API_VERSION_1_3 || has(ash::khr::shader_integer_dot_product::NAME);
    let has_bf16 = has(BFLOAT16_EXTENSION);
    let has_fp8 = has(FLOAT8_EXTENSION);
    let mut coopmat = vk::PhysicalDeviceCooperativeMatrixFeaturesKHR::default();
    let mut dot = vk::PhysicalDeviceShaderIntegerDotProductFeatures::default();
    let mut bf16 = Bfloat16Features::default();
    let mut fp8 = Float8Features::default();
    let mut features2 = vk::PhysicalDeviceFeatures2::default();
    if has_coopmat {
        features2 = features2.push_next(&mut coopmat);
    }
    if has_dot {
        features2 = features2.push_next(&mut dot);
    }
    if has_bf16 {
        features2 = features2.push_next(&mut bf16);
    }
    if has_fp8 {
        features2 = features2.push_next(&mut fp8);
    }
    // SAFETY: a valid physical device; the chain holds structures of the offered extensions.
    unsafe { instance.get_physical_device_features2(handle, &mut features2) };
    let mut dot_props = vk::PhysicalDeviceShaderIntegerDotProductProperties::default();
    if has_dot {
        let mut props2 = vk::PhysicalDeviceProperties2::default().push_next(&mut dot_props);
        // SAFETY: as above.
        unsafe { instance.get_physical_device_properties2(handle, &mut props2) };
    }
    let coopmat_offered = has_coopmat && coopmat.cooperative_matrix == vk::TRUE;
    let entries = if coopmat_offered {
        let loader = ash::khr::cooperative_matrix::Instance::new(entry, instance);
        // SAFETY: the extension is offered; a plain query.
        unsafe { loader.get_physical_device_cooperative_matrix_properties(handle) }
            .unwrap_or_default()
            .iter()
            .map(|p| CoopMatEntry {
                m: p.m_size,
                n: p.n_size,
                k: p.k_size,
                a: p.a_type.as_raw(),
                b: p.b_type.as_raw(),
                c: p.c_type.as_raw(),
                result: p.result_type.as_raw(),
                saturating: p.saturating_accumulation == vk::TRUE,
                scope: p.scope.as_raw(),
            })
            .collect()
    } else {
        Vec::new()
    };
    let layer_name = |v: u32| super::version_string(v);
    let mut held_back = None;
    let coopmat_on = match layer {
        Some(v) if coopmat_offered && v < LAYER_KNOWS_COOPMAT => {
            held_back = Some(format!(
                "the validation layer ({}) predates VK_KHR_cooperative_matrix (1.3.255), so \
                 perftest leaves it off under --validation; run without --validation",
                layer_name(v)
            ));
            false
        }
        _ => coopmat_offered,
    };
    let new_types_ok = layer.is_none_or(|v| v >= LAYER_KNOWS_1_4_TYPES);
    let on = |offered: bool, flag: vk::Bool32| offered && flag == vk::TRUE && new_types_ok;
    let bfloat16 = (
        on(has_bf16, bf16.shader_bfloat16_type),
        on(has_bf16, bf16.shader_bfloat16_dot_product),
        on(has_bf16, bf16.shader_bfloat16_cooperative_matrix) && coopmat_on,
    );
    let float8 = (
        on(has_fp8, fp8.shader_float8),
        on(has_fp8, fp8.shader_float8_cooperative_matrix) && coopmat_on,
    );
    if !new_types_ok && (has_bf16 || has_fp8) && held_back.is_none() {
        held_back = Some(format!(
            "the validation layer ({}) predates VK_KHR_shader_bfloat16 and \
             VK_EXT_shader_float8 (Vulkan 1.4 headers), so perftest leaves them off under \
             --validation; run without --validation",
            layer_name(layer.unwrap_or_default())
        ));
    }
    let p = &dot_props;
    let t = |b: vk::Bool32| b == vk::TRUE;
    MatrixSupport {
        coopmat_offered,
        coopmat: coopmat_on,
        held_back,
        entries,
        bfloat16,
        float8,
        coopmat2_offered: has(COOPMAT2_EXTENSION),
        integer_dot: has_dot && dot.shader_integer_dot_product == vk::TRUE,
        dot4x8_accelerated: [
            t(p.integer_dot_product4x8_bit_packed_signed_accelerated),
            t(p.integer_dot_product4x8_bit_packed_unsigned_accelerated),
            t(p.integer_dot_product4x8_bit_packed_mixed_signedness_accelerated),
            t(p.integer_dot_product_accumulating_saturating4x8_bit_packed_signed_accelerated),
            t(p.integer_dot_product_accumulating_saturating4x8_bit_packed_unsigned_accelerated),
            t(p
                .integer_dot_product_accumulating_saturating4x8_bit_packed_mixed_signedness_accelerated),
        ],
        dot16_accelerated: [
            t(p.integer_dot_product16_bit_signed_accelerated),
            t(p.integer_dot_product16_bit_unsigned_accelerated),
            t(p.integer_dot_product16_bit_mixed_signedness_accelerated),
        ],
    }
}
