//! perftest's suites: the test model, every test family with its kernels (built from `glsl/` by `build.rs`) and CPU reference, and the catalog.

pub mod catalog;
pub mod data;
pub mod families;
pub mod format;
pub mod kernels;
pub mod model;
pub mod provenance;
