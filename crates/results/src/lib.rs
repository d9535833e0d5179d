//! perftest's results layer: what a run's rows mean and every reader of them (compare, summary, HTML report), without Vulkan.

pub mod compare;
pub mod cpu_caches;
pub mod document;
pub mod error;
pub mod fleet;
pub mod gzip;
pub mod html;
pub mod note;
pub mod output;
pub mod path;
pub mod published;
pub mod row;
pub mod size;
mod stats;
mod suite;
pub mod summary;
pub mod vocab;
pub mod words;
pub mod write;

pub use note::Note;
pub use row::Row;
pub use stats::median;
pub use suite::{Catalog, Suite};
pub use vocab::{ClockEvent, ClockEvents, Conditions, Mode, Status, Unit};
pub use words::Words;
pub use write::CsvWriter;
