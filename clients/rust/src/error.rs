use crate::models::{ErrorCode, ErrorDetail};
use std::fmt;
use std::time::Duration;

/// Every failed call: the service's error body with the HTTP status and `Retry-After`, or one of
/// the library's own codes with `status` 0 ([`ErrorCode::NetworkError`] when no answer came).
///
/// ```no_run
/// # fn demo(cv: &contact_verify::Client) -> Result<(), contact_verify::Error> {
/// use contact_verify::ErrorCode;
/// match cv.verify_code("0190a7c2-5b1e-7c3d-9f00-2b4b4c119497", "042817") {
///     Ok(r) if r.verified => println!("verified"),
///     Ok(r) => println!("wrong code, {} attempts left", r.attempts_remaining),
///     Err(e) if e.code == ErrorCode::TooManyAttempts => println!("send a new code"),
///     Err(e) if e.code == ErrorCode::RateLimited => println!("try again in {:?}", e.retry_after),
///     Err(e) => return Err(e),
/// }
/// # Ok(()) }
/// ```
#[derive(Debug)]
#[non_exhaustive]
pub struct Error {
    /// The HTTP status; 0 when the service did not answer.
    pub status: u16,
    /// The contract's stable code.
    pub code: ErrorCode,
    /// What went wrong and what to do.
    pub message: String,
    /// One entry per problem (validation errors).
    pub details: Vec<ErrorDetail>,
    /// The answer's `Retry-After`: when to try again.
    pub retry_after: Option<Duration>,
    source: Option<Box<dyn std::error::Error + Send + Sync>>,
}

impl Error {
    pub(crate) fn api(
        status: u16,
        code: ErrorCode,
        message: String,
        details: Vec<ErrorDetail>,
        retry_after: Option<Duration>,
    ) -> Self {
        Error {
            status,
            code,
            message,
            details,
            retry_after,
            source: None,
        }
    }

    pub(crate) fn library(code: ErrorCode, message: String) -> Self {
        Error {
            status: 0,
            code,
            message,
            details: Vec::new(),
            retry_after: None,
            source: None,
        }
    }

    pub(crate) fn network(message: String, cause: Option<Box<dyn std::error::Error + Send + Sync>>) -> Self {
        Error {
            source: cause,
            ..Error::library(ErrorCode::NetworkError, message)
        }
    }

    /// Whether the code is worth sending again later as is (a 503 other than
    /// `CHANNEL_UNAVAILABLE`, a rate limit, no answer); the client already retried it within
    /// its limits.
    pub fn is_transient(&self) -> bool {
        matches!(
            self.code,
            ErrorCode::RateLimited | ErrorCode::NetworkError | ErrorCode::IdempotencyKeyInUse
        ) || (self.status == 503 && self.code != ErrorCode::ChannelUnavailable)
    }
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.status == 0 {
            write!(f, "{}: {}", self.code, self.message)
        } else {
            write!(f, "{} {}: {}", self.status, self.code, self.message)
        }
    }
}

impl std::error::Error for Error {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        self.source
            .as_ref()
            .map(|e| e.as_ref() as &(dyn std::error::Error + 'static))
    }
}
