//! The memory hierarchy: the bandwidth suite (reads, stores, copies, transfers, dispatch costs) and the latency suite (the chase over working sets, and by stride).

mod bands;
pub(super) mod bandwidth;
pub(super) mod pointer_chase;
pub(super) mod stride_chase;
pub(super) mod transfer;
