//! perftest: GPU shader load-throughput microbenchmark, a Vulkan port of PerfTest; the application over the workspace's crates.

mod app;
pub mod cli;
mod fleet;
pub mod report;
pub mod select;

pub use app::{run, EXIT_INTERRUPTED};
pub use perftest_gpu as gpu;
pub use perftest_results::{compare, error, html, published, summary};
pub use perftest_runner as runner;
pub use perftest_suites::{catalog, data, families, kernels, model, provenance};
