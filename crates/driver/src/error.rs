//! What can stop the driver.

use thiserror::Error;

/// What can stop a plan, a solve or its summary.
#[derive(Debug, Error)]
pub enum DriverError {
    /// Work refused before it starts, with the estimate that refused it.
    #[error("{0}")]
    Refused(String),
    #[error(transparent)]
    Rules(#[from] chopsticks_rules::RulesError),
    #[error(transparent)]
    Solve(#[from] chopsticks_solve::SolveError),
    #[error(transparent)]
    Distributed(#[from] chopsticks_distributed::DistributedError),
    /// A worker process of a solve on loopback that failed, with what it said
    /// and what to run next.
    #[error("{0}")]
    Worker(String),
    #[error("{what}: {source}")]
    Io {
        what: String,
        source: std::io::Error,
    },
}

impl DriverError {
    /// An input or output error, with what was being done.
    pub(crate) fn io(what: impl Into<String>) -> impl FnOnce(std::io::Error) -> DriverError {
        let what = what.into();
        move |source| DriverError::Io { what, source }
    }
}
