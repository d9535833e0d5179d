//! perftest's GPU layer: the Vulkan context, resources, pipelines, timestamps and driver telemetry; the only `unsafe` of the workspace.

mod context;
mod device;
pub mod flight;
pub mod matrix;
pub mod mgmt;
pub mod pipeline;
pub mod resources;
pub mod timer;

pub use context::*;
