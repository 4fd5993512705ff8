//! Client of the contact verification service: send one-time codes by EMAIL, SMS, WHATSAPP or
//! VOICE, check SILENT requests through the mobile network, verify them, and read or cancel a
//! request.
//!
//! ```no_run
//! use contact_verify::{Client, SendCode};
//!
//! # fn main() -> Result<(), contact_verify::Error> {
//! let cv = Client::new("http://127.0.0.1:8080", "cvk_live_...");
//! let sent = cv.send_code(SendCode::email("jane@example.com").purpose("sign-in"))?;
//! let result = cv.verify_code(&sent.request_id, "042817")?;
//! println!("{}", result.status);
//! # Ok(()) }
//! ```
//!
//! Retries 503 answers (not `CHANNEL_UNAVAILABLE`, which only an operator can fix) and `429
//! RATE_LIMITED` answers whose `Retry-After` is at most `max_retry_after` (10 s), at most
//! `max_retries` times (2); never `TOO_MANY_ATTEMPTS` or another 4xx. Every send carries an
//! `Idempotency-Key` kept across its retries, so a retry never sends a second code.
//!
//! The client is blocking (on `ureq`); with the `tokio` feature, [`AsyncClient`] offers the same
//! calls as futures.

mod error;
mod models;
mod transport;

#[cfg(feature = "tokio")]
mod asynchronous;

pub use error::Error;
pub use models::*;
pub use transport::{HttpRequest, HttpResponse, Transport, TransportError};

#[cfg(feature = "tokio")]
pub use asynchronous::{AsyncClient, AsyncTestOutbox};

/// The `time` crate the models' timestamps come from (`OffsetDateTime`), so you need not add it.
pub use time;
/// The `ureq` crate of the default transport, to build a [`ureq::Agent`] for
/// [`ClientBuilder::agent`].
pub use ureq;

use serde::de::DeserializeOwned;
use serde::Deserialize;
use std::sync::Arc;
use std::thread::sleep;
use std::time::Duration;

/// The library's version (also in its `User-Agent`).
pub const VERSION: &str = env!("CARGO_PKG_VERSION");

/// `Result` with this library's [`Error`].
pub type Result<T, E = Error> = std::result::Result<T, E>;

#[derive(Deserialize)]
struct Envelope<T> {
    data: T,
}

#[derive(Deserialize)]
struct ErrorBody {
    error: ErrorFields,
}

#[derive(Deserialize)]
struct ErrorFields {
    code: String,
    message: String,
    #[serde(default)]
    details: Vec<ErrorDetail>,
}

/// The default transport: a `ureq` agent with a 10 s timeout.
fn default_agent() -> ureq::Agent {
    ureq::AgentBuilder::new().timeout(Duration::from_secs(10)).build()
}

/// A client of the API, made with [`Client::new`] or [`Client::builder`]. Cloning is cheap (the
/// transport is shared), and a client can be used from many threads.
#[derive(Clone)]
pub struct Client {
    http: Http,
    max_retries: u32,
    max_retry_after: Duration,
}

/// Options of a [`Client`]: `Client::builder(base_url, api_key).max_retries(3).build()`.
pub struct ClientBuilder {
    base_url: String,
    api_key: String,
    max_retries: u32,
    max_retry_after: Duration,
    transport: Option<Arc<dyn Transport>>,
}

impl ClientBuilder {
    /// Retries of 503 and of 429 RATE_LIMITED (default 2; 0 turns retries off).
    pub fn max_retries(mut self, retries: u32) -> Self {
        self.max_retries = retries;
        self
    }

    /// A longer `Retry-After` of a 429 is not waited for: the error is returned at once, for the
    /// caller to show (default 10 s). A 503's wait is capped at it.
    pub fn max_retry_after(mut self, wait: Duration) -> Self {
        self.max_retry_after = wait;
        self
    }

    /// Sends through this `ureq` agent (its proxy, TLS settings, timeouts).
    pub fn agent(self, agent: ureq::Agent) -> Self {
        self.transport(agent)
    }

    /// Sends through your own [`Transport`].
    pub fn transport(mut self, transport: impl Transport + 'static) -> Self {
        self.transport = Some(Arc::new(transport));
        self
    }

    pub fn build(self) -> Client {
        Client {
            http: Http {
                base_url: self.base_url.trim_end_matches('/').to_string(),
                token: self.api_key,
                transport: self.transport.unwrap_or_else(|| Arc::new(default_agent())),
            },
            max_retries: self.max_retries,
            max_retry_after: self.max_retry_after,
        }
    }
}

impl Client {
    /// A client with the defaults: 2 retries, a 10 s timeout, `ureq`.
    pub fn new(base_url: impl Into<String>, api_key: impl Into<String>) -> Self {
        Client::builder(base_url, api_key).build()
    }

    /// A client with options of your own.
    pub fn builder(base_url: impl Into<String>, api_key: impl Into<String>) -> ClientBuilder {
        ClientBuilder {
            base_url: base_url.into(),
            api_key: api_key.into(),
            max_retries: 2,
            max_retry_after: Duration::from_secs(10),
            transport: None,
        }
    }

    /// This client with another retry limit (for one call: `cv.with_max_retries(0).health()`).
    pub fn with_max_retries(&self, retries: u32) -> Client {
        Client {
            max_retries: retries,
            ..self.clone()
        }
    }

    /// Sends a code on one channel (`SendCode::email(..)`, `::sms(..)`, `::whatsapp(..)`).
    pub fn send_code(&self, request: SendCode) -> Result<SendCodeEntry> {
        if request.channel.is_none() || !request.channels.is_empty() {
            return Err(Error::library(
                ErrorCode::ValidationError,
                "send_code sends on one channel (SendCode::email, ::sms, ::whatsapp or ::new); \
                 send_code_dual sends SendCode::dual"
                    .into(),
            ));
        }
        self.send(request)
    }

    /// Sends a code on two channels at once (`SendCode::dual(..)`): one entry per channel, in
    /// the order of `channels`. Either code verifies the pair, through either entry's id.
    pub fn send_code_dual(&self, request: SendCode) -> Result<Vec<SendCodeEntry>> {
        if request.channels.len() != 2 || request.channel.is_some() {
            return Err(Error::library(
                ErrorCode::ValidationError,
                "send_code_dual sends two channels (SendCode::dual); send_code sends one".into(),
            ));
        }
        self.send(request)
    }

    fn send<T: DeserializeOwned>(&self, request: SendCode) -> Result<T> {
        let key = request.idempotency_key.clone().unwrap_or_else(random_uuid);
        let body = serde_json::to_vec(&request).expect("a SendCode always serializes");
        self.call("POST", "/v1/contact/send-code", Some(body), Some(key))
            .map(|e: Envelope<T>| e.data)
    }

    /// Checks a code. A wrong code is `Ok` with `verified: false`; attempts used up is the error
    /// [`ErrorCode::TooManyAttempts`].
    pub fn verify_code(&self, request_id: &str, otp_code: &str) -> Result<VerifyCodeResult> {
        let body =
            serde_json::to_vec(&serde_json::json!({ "requestId": request_id, "otpCode": otp_code })).expect("JSON");
        self.call("POST", "/v1/contact/verify-code", Some(body), None)
            .map(|e: Envelope<VerifyCodeResult>| e.data)
    }

    /// Checks a SILENT request whose provider hands out no code: the provider is asked whether
    /// the device completed `silent.url` (`result.silent.outcome`; `Pending`: call again). A
    /// provider that hands the device a code takes [`verify_code`](Self::verify_code) with it.
    pub fn verify_silent(&self, request_id: &str) -> Result<VerifyCodeResult> {
        let body = serde_json::to_vec(&serde_json::json!({ "requestId": request_id })).expect("JSON");
        self.call("POST", "/v1/contact/verify-code", Some(body), None)
            .map(|e: Envelope<VerifyCodeResult>| e.data)
    }

    /// A request as it is now: its status, how and when it was verified, its delivery. An
    /// unknown id (or another account's) is [`ErrorCode::NotFound`].
    pub fn get_verification(&self, request_id: &str) -> Result<Verification> {
        let path = format!("/v1/contact/verifications/{}", percent_encode(request_id));
        self.call("GET", &path, None, None)
            .map(|e: Envelope<Verification>| e.data)
    }

    /// Cancels a pending request and its dual sibling (their codes no longer verify) and returns
    /// it; a settled request is returned as it is, so a repeated cancel is safe.
    pub fn cancel_verification(&self, request_id: &str) -> Result<Verification> {
        let path = format!("/v1/contact/verifications/{}/cancel", percent_encode(request_id));
        // An empty object: the cancel takes no field.
        self.call("POST", &path, Some(b"{}".to_vec()), None)
            .map(|e: Envelope<Verification>| e.data)
    }

    /// The service's health (no key needed).
    pub fn health(&self) -> Result<Health> {
        self.call("GET", "/health", None, None)
    }

    fn call<T: DeserializeOwned>(
        &self,
        method: &'static str,
        path: &str,
        body: Option<Vec<u8>>,
        idempotency_key: Option<String>,
    ) -> Result<T> {
        let mut attempt = 0;
        loop {
            let err = match self.http.once(method, path, body.clone(), idempotency_key.as_deref()) {
                Ok(value) => return Ok(value),
                Err(err) => err,
            };
            match retry_delay(&err, attempt, self.max_retry_after) {
                Some(wait) if attempt < self.max_retries => {
                    sleep(wait);
                    attempt += 1;
                }
                _ => return Err(err),
            }
        }
    }
}

/// How long to wait before retrying this error, if it is retried at all.
fn retry_delay(err: &Error, attempt: u32, max_retry_after: Duration) -> Option<Duration> {
    match (err.status, err.code, err.retry_after) {
        (503, ErrorCode::ChannelUnavailable, _) => None,
        (503, _, Some(wait)) => Some(wait.min(max_retry_after)),
        (503, _, None) => Some(Duration::from_millis(250 << attempt.min(6))),
        (429, ErrorCode::RateLimited, Some(wait)) if wait <= max_retry_after => Some(wait),
        _ => None,
    }
}

/// One base URL and bearer token over a transport: one attempt of a call.
#[derive(Clone)]
struct Http {
    base_url: String,
    token: String,
    transport: Arc<dyn Transport>,
}

impl Http {
    fn once<T: DeserializeOwned>(
        &self,
        method: &'static str,
        path_and_query: &str,
        body: Option<Vec<u8>>,
        idempotency_key: Option<&str>,
    ) -> Result<T> {
        let mut headers = vec![
            ("Accept", "application/json".to_string()),
            ("Authorization", format!("Bearer {}", self.token)),
            ("User-Agent", format!("contact-verify-rust/{}", VERSION)),
        ];
        if body.is_some() {
            headers.push(("Content-Type", "application/json".to_string()));
        }
        if let Some(key) = idempotency_key {
            headers.push(("Idempotency-Key", key.to_string()));
        }
        let request = HttpRequest {
            method,
            url: format!("{}{}", self.base_url, path_and_query),
            headers,
            body,
        };
        let response = self
            .transport
            .call(request)
            .map_err(|e| Error::network(format!("no answer from {}: {}", self.base_url, e), Some(e)))?;
        if (200..300).contains(&response.status) {
            return serde_json::from_slice(&response.body).map_err(|e| {
                Error::network(
                    format!("an unreadable answer from {}{}: {}", self.base_url, path_and_query, e),
                    Some(Box::new(e)),
                )
            });
        }
        let retry_after = response
            .header("Retry-After")
            .and_then(|v| v.trim().parse::<u64>().ok())
            .map(Duration::from_secs);
        Err(match serde_json::from_slice::<ErrorBody>(&response.body) {
            Ok(b) => Error::api(
                response.status,
                b.error.code.parse().unwrap_or(ErrorCode::Unknown),
                b.error.message,
                b.error.details,
                retry_after,
            ),
            Err(_) => Error::api(
                response.status,
                if response.status == 503 {
                    ErrorCode::Unavailable
                } else {
                    ErrorCode::Unknown
                },
                format!("HTTP {} without the service's error body", response.status),
                Vec::new(),
                retry_after,
            ),
        })
    }
}

/// For automated tests with a test-mode key (`cvk_test_…`): reads the codes such a key sent from
/// the service's outbox (`GET /v1/admin/outbox`, with the admin token). Live requests never show
/// their code there.
#[derive(Clone)]
pub struct TestOutbox {
    http: Http,
}

impl TestOutbox {
    /// The outbox of the service at `base_url`, read with its admin token.
    pub fn new(base_url: impl Into<String>, admin_token: impl Into<String>) -> Self {
        TestOutbox::with_transport(base_url, admin_token, default_agent())
    }

    /// The same, through a transport of your own.
    pub fn with_transport(
        base_url: impl Into<String>,
        admin_token: impl Into<String>,
        transport: impl Transport + 'static,
    ) -> Self {
        TestOutbox {
            http: Http {
                base_url: base_url.into().trim_end_matches('/').to_string(),
                token: admin_token.into(),
                transport: Arc::new(transport),
            },
        }
    }

    /// The messages sent to a destination (an email address or a `+` phone number), newest
    /// first.
    pub fn messages(&self, to: &str) -> Result<Vec<OutboxMessage>> {
        let path = format!("/v1/admin/outbox?to={}", percent_encode(to));
        self.http
            .once("GET", &path, None, None)
            .map(|e: Envelope<Vec<OutboxMessage>>| e.data)
    }

    /// The code of the newest message sent to `to`; [`ErrorCode::NoOutboxCode`] when there is
    /// none (no message yet, a live request's, or a request no longer pending).
    pub fn latest_outbox_code(&self, to: &str) -> Result<String> {
        let messages = self.messages(to)?;
        messages.into_iter().next().and_then(|m| m.code).ok_or_else(|| {
            Error::library(
                ErrorCode::NoOutboxCode,
                format!(
                    "no code in the outbox for {} (no message, a live key's, or no longer pending)",
                    to
                ),
            )
        })
    }
}

/// Percent-encodes a query value or a path segment (everything but unreserved characters).
fn percent_encode(value: &str) -> String {
    value
        .bytes()
        .map(|b| match b {
            b'A'..=b'Z' | b'a'..=b'z' | b'0'..=b'9' | b'-' | b'.' | b'_' | b'~' => (b as char).to_string(),
            _ => format!("%{:02X}", b),
        })
        .collect()
}

/// A random (version 4) UUID, the default `Idempotency-Key` of a send.
fn random_uuid() -> String {
    let mut b = [0u8; 16];
    getrandom::getrandom(&mut b).expect("the OS random source");
    b[6] = (b[6] & 0x0f) | 0x40;
    b[8] = (b[8] & 0x3f) | 0x80;
    let hex: String = b.iter().map(|x| format!("{:02x}", x)).collect();
    format!(
        "{}-{}-{}-{}-{}",
        &hex[0..8],
        &hex[8..12],
        &hex[12..16],
        &hex[16..20],
        &hex[20..32]
    )
}
