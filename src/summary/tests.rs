//! The summary rules on synthetic curves and on the committed H100 results.
