//! The integration tests that time nothing, in one binary: one link instead of eighteen, and
//! libtest runs them two at a time across files (the tests that judge timings — clock, drift,
//! faults, sizing, slurm, whole_run — stay in binaries of their own, each run alone).

#[path = "../common/mod.rs"]
mod common;

mod analysis;
mod bandwidth;
mod cli;
mod devices;
mod doc_commands;
mod docs;
mod fleet;
mod formats;
mod latency;
mod matrix;
mod outputs;
mod references;
mod report;
mod reproduce;
mod safety;
mod spirv;
mod subgroup;
mod suite;
mod summary;
mod transfer;
