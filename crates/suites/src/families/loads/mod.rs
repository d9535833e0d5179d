//! The load suites: original, control, extended (and the ceiling's unrolled loads): each resource's load loop.

pub(super) mod buffer_reference;
pub(super) mod constant_buffer;
pub(super) mod control;
pub(super) mod push_constant;
pub(super) mod raw_buffer;
pub(super) mod shared_memory;
pub(super) mod small_type_buffer;
pub(super) mod storage_image;
pub(super) mod storage_texel_buffer;
pub(super) mod structured_buffer;
pub(super) mod texture_load;
pub(super) mod texture_sample;
pub(super) mod typed_buffer;
