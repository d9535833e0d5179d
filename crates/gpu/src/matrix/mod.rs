//! What a device offers for matrix and dot-product work: `VK_KHR_cooperative_matrix` and its
//! list of configurations, `VK_NV_cooperative_matrix2`'s flexible dimensions, integer dot
//! products, bfloat16 and float8 shader types (the structures of the extensions newer than
//! ash 0.38's headers are in `ext.rs`).

mod ext;

use ash::vk;
use ext::{flexible_entries, Coopmat2Properties};
pub(super) use ext::{Bfloat16Features, Coopmat2Features, Float8Features};
use std::ffi::CStr;

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

/// One entry of `vkGetPhysicalDeviceCooperativeMatrixFlexibleDimensionsPropertiesNV`: sizes
/// are multiples of the granularities (up to the maximum dimension).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct FlexibleEntry {
    /// M, N and K granularity, in `entry.m`, `entry.n`, `entry.k`.
    pub entry: CoopMatEntry,
    /// Invocations of the workgroup, for workgroup scope.
    pub invocations: u32,
}

/// `VK_NV_cooperative_matrix2` as enabled.
#[derive(Clone, Debug, Default)]
pub struct Coopmat2 {
    /// `cooperativeMatrixWorkgroupScope` and `cooperativeMatrixFlexibleDimensions` enabled.
    pub enabled: bool,
    /// `cooperativeMatrixWorkgroupScopeMaxWorkgroupSize`.
    pub max_workgroup_size: u32,
    /// `cooperativeMatrixFlexibleDimensionsMaxDimension`.
    pub max_dimension: u32,
    /// `cooperativeMatrixWorkgroupScopeReservedSharedMemory`.
    pub reserved_shared_memory: u32,
    /// Every flexible-dimension configuration the driver lists.
    pub entries: Vec<FlexibleEntry>,
}

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
    /// `VK_NV_cooperative_matrix2`'s workgroup scope and flexible dimensions, where enabled.
    pub coopmat2: Coopmat2,
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
    pub coopmat2: Coopmat2Features,
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
        let mut coopmat2 = Coopmat2Features::default();
        coopmat2.workgroup_scope = self.coopmat2.enabled.into();
        coopmat2.flexible_dimensions = self.coopmat2.enabled.into();
        Enables {
            coopmat2,
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
// Long on purpose: one chain of property and feature queries whose chained structs
// must all live through the calls.
pub(super) fn query(
    entry: &ash::Entry,
    instance: &ash::Instance,
    handle: vk::PhysicalDevice,
    api_version: u32,
    has: &dyn Fn(&CStr) -> bool,
    layer: Option<u32>,
) -> MatrixSupport {
    // A validation layer that does not know a structure reports it in any chain (even a
    // query's): under one too old, those extensions are not queried at all, only held back.
    let layer_knows_coopmat = layer.is_none_or(|v| v >= LAYER_KNOWS_COOPMAT);
    let new_types_ok = layer.is_none_or(|v| v >= LAYER_KNOWS_1_4_TYPES);
    let offers_coopmat = has(ash::khr::cooperative_matrix::NAME);
    let offers_new = [BFLOAT16_EXTENSION, FLOAT8_EXTENSION, COOPMAT2_EXTENSION]
        .iter()
        .any(|e| has(e));
    let has_coopmat = offers_coopmat && layer_knows_coopmat;
    let has_dot =
        api_version >= vk::API_VERSION_1_3 || has(ash::khr::shader_integer_dot_product::NAME);
    let has_bf16 = has(BFLOAT16_EXTENSION) && new_types_ok;
    let has_fp8 = has(FLOAT8_EXTENSION) && new_types_ok;
    let has_coopmat2 = has(COOPMAT2_EXTENSION) && new_types_ok;
    let mut coopmat2 = Coopmat2Features::default();
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
    if has_coopmat2 {
        features2 = features2.push_next(&mut coopmat2);
    }
    // SAFETY: a valid physical device; the chain holds structures of the offered extensions.
    unsafe { instance.get_physical_device_features2(handle, &mut features2) };
    let mut dot_props = vk::PhysicalDeviceShaderIntegerDotProductProperties::default();
    let mut coopmat2_props = Coopmat2Properties::default();
    {
        let mut props2 = vk::PhysicalDeviceProperties2::default();
        if has_dot {
            props2 = props2.push_next(&mut dot_props);
        }
        if has_coopmat2 {
            props2 = props2.push_next(&mut coopmat2_props);
        }
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
    if offers_coopmat && !layer_knows_coopmat {
        held_back = Some(format!(
            "the validation layer ({}) predates VK_KHR_cooperative_matrix (1.3.255), so \
             perftest leaves it off under --validation; run without --validation",
            layer_name(layer.unwrap_or_default())
        ));
    }
    let coopmat_on = coopmat_offered;
    let on = |offered: bool, flag: vk::Bool32| offered && flag == vk::TRUE;
    let bfloat16 = (
        on(has_bf16, bf16.shader_bfloat16_type),
        on(has_bf16, bf16.shader_bfloat16_dot_product),
        on(has_bf16, bf16.shader_bfloat16_cooperative_matrix) && coopmat_on,
    );
    let float8 = (
        on(has_fp8, fp8.shader_float8),
        on(has_fp8, fp8.shader_float8_cooperative_matrix) && coopmat_on,
    );
    if !new_types_ok && offers_new && held_back.is_none() {
        held_back = Some(format!(
            "the validation layer ({}) is older than 1.4, which perftest needs to know \
             VK_KHR_shader_bfloat16, VK_EXT_shader_float8 and VK_NV_cooperative_matrix2, so it \
             leaves them off under --validation; run without --validation",
            layer_name(layer.unwrap_or_default())
        ));
    }
    let coopmat2_on = has_coopmat2
        && coopmat2.workgroup_scope == vk::TRUE
        && coopmat2.flexible_dimensions == vk::TRUE
        && coopmat_on
        && api_version >= vk::API_VERSION_1_3;
    let coopmat2 = Coopmat2 {
        enabled: coopmat2_on,
        max_workgroup_size: coopmat2_props.workgroup_scope_max_workgroup_size,
        max_dimension: coopmat2_props.flexible_dimensions_max_dimension,
        reserved_shared_memory: coopmat2_props.workgroup_scope_reserved_shared_memory,
        entries: if has_coopmat2 && coopmat_offered {
            flexible_entries(entry, instance, handle)
        } else {
            Vec::new()
        },
    };
    let p = &dot_props;
    let t = |b: vk::Bool32| b == vk::TRUE;
    MatrixSupport {
        // Offered, as far as perftest can tell: under an older layer the extension's name.
        coopmat_offered: coopmat_offered || (offers_coopmat && !layer_knows_coopmat),
        coopmat: coopmat_on,
        held_back,
        entries,
        bfloat16,
        float8,
        coopmat2_offered: has(COOPMAT2_EXTENSION),
        coopmat2,
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
