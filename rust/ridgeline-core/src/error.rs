//! Errors with locations: every user-facing problem says what is wrong and where.

use std::fmt;

/// One located problem: a JSON-pointer-like path (`graph.nodes["erode"].params.iterations`,
/// `heights[12]`, `file.png`) and a message that says what is wrong and what to do.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Diagnostic {
    /// Where the problem is.
    pub path: String,
    /// What is wrong, and what to do about it.
    pub message: String,
}

impl Diagnostic {
    /// Creates a diagnostic.
    pub fn new(path: impl Into<String>, message: impl Into<String>) -> Self {
        Self {
            path: path.into(),
            message: message.into(),
        }
    }
}

impl fmt::Display for Diagnostic {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.path.is_empty() {
            write!(f, "{}", self.message)
        } else {
            write!(f, "{}: {}", self.path, self.message)
        }
    }
}

/// The error type of the core.
#[derive(Debug, thiserror::Error)]
pub enum Error {
    /// Input was rejected; all problems found are listed.
    #[error("{}", join(.0))]
    Invalid(Vec<Diagnostic>),
    /// A long operation was cancelled by its caller.
    #[error("cancelled")]
    Cancelled,
    /// Reading or writing a file failed.
    #[error("{path}: {source}")]
    Io {
        /// The file.
        path: String,
        /// The underlying error.
        #[source]
        source: std::io::Error,
    },
}

fn join(diags: &[Diagnostic]) -> String {
    diags
        .iter()
        .map(ToString::to_string)
        .collect::<Vec<_>>()
        .join("\n")
}

impl Error {
    /// A single located problem.
    pub fn invalid(path: impl Into<String>, message: impl Into<String>) -> Self {
        Error::Invalid(vec![Diagnostic::new(path, message)])
    }

    /// The diagnostics of an `Invalid` error (empty for other kinds).
    pub fn diagnostics(&self) -> &[Diagnostic] {
        match self {
            Error::Invalid(d) => d,
            _ => &[],
        }
    }
}

/// Result alias of the core.
pub type Result<T, E = Error> = std::result::Result<T, E>;

/// Collects diagnostics, then turns them into one error (or none).
#[derive(Default, Debug)]
pub struct Diagnostics(pub Vec<Diagnostic>);

impl Diagnostics {
    /// Records a problem.
    pub fn push(&mut self, path: impl Into<String>, message: impl Into<String>) {
        self.0.push(Diagnostic::new(path, message));
    }

    /// True when nothing was recorded.
    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }

    /// `Ok(())` when empty, else `Error::Invalid` with everything recorded.
    pub fn into_result(self) -> Result<()> {
        if self.0.is_empty() {
            Ok(())
        } else {
            Err(Error::Invalid(self.0))
        }
    }
}
