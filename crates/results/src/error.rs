//! Failures that map to a documented exit code; everything else exits 1.

/// A failure with its own exit code.
#[derive(Debug)]
pub enum Failure {
    /// Bad arguments or a selection that matches nothing: exit 2.
    Usage(String),
    /// No Vulkan loader or no usable device: exit 3.
    NoVulkan(String),
}

impl Failure {
    /// The process exit code for this failure.
    pub fn exit_code(&self) -> i32 {
        match self {
            Failure::Usage(_) => 2,
            Failure::NoVulkan(_) => 3,
        }
    }
}

impl std::fmt::Display for Failure {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Failure::Usage(m) | Failure::NoVulkan(m) => f.write_str(m),
        }
    }
}

impl std::error::Error for Failure {}
