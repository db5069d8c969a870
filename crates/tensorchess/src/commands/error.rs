//! The error every command returns for bad input.

/// A user error: printed as one line, exit status 2.
#[derive(Debug, thiserror::Error)]
#[error("{0}")]
pub struct CliError(pub String);

impl CliError {
    /// An error saying `msg`.
    pub fn new(msg: impl Into<String>) -> Self {
        CliError(msg.into())
    }
}
