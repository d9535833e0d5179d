//! perftest: GPU shader load-throughput microbenchmark, a Vulkan port of PerfTest.

mod app;
pub mod catalog;
pub mod cli;
pub mod compare;
pub mod data;
pub mod error;
pub mod families;
pub mod format;
pub mod gpu;
pub mod html;
pub mod kernels;
pub mod model;
pub mod pipeline;
pub mod provenance;
pub mod published;
pub mod report;
pub mod resources;
pub mod runner;
pub mod select;
pub mod summary;
pub mod timer;

pub use app::{run, EXIT_INTERRUPTED};
