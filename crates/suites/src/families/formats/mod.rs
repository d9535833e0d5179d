//! The formats suite: texture dimensions, every format, where the data lives; and the formats they share.

pub(super) mod ext_format;
pub(super) mod format_buffer;
pub(super) mod format_texture;
pub(super) mod memory_location;
pub(super) mod texture_dims;
