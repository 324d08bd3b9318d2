//! Why a command failed ([`CliError`]), and so its exit code: 2 for a usage error, 1 for a failure.

use std::fmt;
use std::io;

/// Why a command failed, and so its exit code.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum CliError {
    /// Bad arguments or input from the command line (exit code 2).
    Usage(String),
    /// The command could not do its work: unreadable file, bad record, I/O (exit code 1).
    Failure(String),
    /// Stdout was closed by the reader (`| head`): stop quietly.
    BrokenPipe,
}

impl CliError {
    /// A usage error (exit code 2).
    pub fn usage(msg: impl Into<String>) -> CliError {
        CliError::Usage(msg.into())
    }
    /// A failure (exit code 1).
    pub fn failure(msg: impl Into<String>) -> CliError {
        CliError::Failure(msg.into())
    }
    /// The process exit code for this error.
    pub fn exit_code(&self) -> u8 {
        match self {
            CliError::Usage(_) => 2,
            CliError::Failure(_) | CliError::BrokenPipe => 1,
        }
    }
}

impl fmt::Display for CliError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            CliError::Usage(m) | CliError::Failure(m) => f.write_str(m),
            CliError::BrokenPipe => f.write_str("output closed"),
        }
    }
}

impl std::error::Error for CliError {}

impl From<io::Error> for CliError {
    fn from(e: io::Error) -> CliError {
        if e.kind() == io::ErrorKind::BrokenPipe {
            CliError::BrokenPipe
        } else {
            CliError::Failure(format!("output error: {e}"))
        }
    }
}
