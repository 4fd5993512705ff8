//! Client of the contact verification service: send one-time codes by EMAIL, SMS or WHATSAPP
//! and verify them.
//!
//! Retries 503 and `429 RATE_LIMITED` answers that carry `Retry-After`, at most `max_retries`
//! times; never `TOO_MANY_ATTEMPTS` or another 4xx. Every send carries an `Idempotency-Key` kept
//! across its retries, so a retry never sends a second code.

use serde::{Deserialize, Serialize};
use std::fmt;
use std::thread::sleep;
use std::time::Duration;

pub const VERSION: &str = "0.1.0";

/// The send-code body: `channel` for one channel, `channels` for two at once.
#[derive(Debug, Clone, Default, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct SendRequest {
    #[serde(skip_serializing_if = "Option::is_none")]
    pub channel: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub channels: Option<Vec<String>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub email: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub phone: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub country: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub delivery_type: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub purpose: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub custom_message: Option<String>,
    /// The recipient's BCP 47 language tag (`es`, `pt-BR`, `de-AT`); English when unsupported.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub locale: Option<String>,
}

#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct RiskSignal {
    pub name: String,
    pub weight: f64,
    #[serde(default)]
    pub detail: Option<String>,
}

#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct Risk {
    pub score: u32,
    pub level: String,
    #[serde(default)]
    pub signals: Vec<RiskSignal>,
}

#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct EntryError {
    pub code: String,
    pub message: String,
}

/// One channel of a send: keep `request_id` to verify the code.
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct SendEntry {
    pub request_id: String,
    pub channel: String,
    pub status: String,
    pub expires_at: String,
    pub to: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub delivery_type: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub error: Option<EntryError>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub risk: Option<Risk>,
}

/// A wrong code is `verified: false`, not an error.
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct VerifyResult {
    pub verified: bool,
    pub channel: String,
    pub request_id: String,
    pub status: String,
    pub attempts_remaining: u32,
}

#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct ErrorDetail {
    pub field: String,
    pub message: String,
    #[serde(default)]
    pub channel: Option<String>,
}

/// Every failed call: the service's error body, with the HTTP status and `Retry-After`. `code` is
/// the contract's stable code (`TOO_MANY_ATTEMPTS`, `RATE_LIMITED`, `UNAUTHORIZED`, ...), or
/// `NETWORK_ERROR` with `status` 0 when no answer came.
#[derive(Debug, Clone)]
pub struct Error {
    pub status: u16,
    pub code: String,
    pub message: String,
    pub details: Vec<ErrorDetail>,
    pub retry_after: Option<u64>,
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} {}: {}", self.status, self.code, self.message)
    }
}

impl std::error::Error for Error {}

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

#[derive(Deserialize)]
struct Envelope<T> {
    data: T,
}

/// A client of the API; build it with [`Client::new`] and adjust the public fields.
pub struct Client {
    base_url: String,
    api_key: String,
    /// Retries of 503 and of 429 RATE_LIMITED with Retry-After (default 2).
    pub max_retries: u32,
    /// A longer Retry-After is not waited for: the error is returned (default 10 s).
    pub max_retry_after: Duration,
    agent: ureq::Agent,
}

impl Client {
    /// A client with a 10 s timeout and 2 retries.
    pub fn new(base_url: &str, api_key: &str) -> Self {
        Client {
            base_url: base_url.trim_end_matches('/').to_string(),
            api_key: api_key.to_string(),
            max_retries: 2,
            max_retry_after: Duration::from_secs(10),
            agent: ureq::AgentBuilder::new().timeout(Duration::from_secs(10)).build(),
        }
    }

    /// Sends a code on one channel (`request.channel`).
    pub fn send_code(&self, request: &SendRequest, retries: Option<u32>) -> Result<SendEntry, Error> {
        self.send(request, None, retries)
    }

    /// Sends a code on two channels at once; one entry per channel, in the order of `channels`.
    pub fn send_code_dual(&self, request: &SendRequest, retries: Option<u32>) -> Result<Vec<SendEntry>, Error> {
        self.send(request, None, retries)
    }

    /// Sends with a chosen `Idempotency-Key` (a random one is made otherwise).
    pub fn send<T: serde::de::DeserializeOwned>(
        &self,
        request: &SendRequest,
        idempotency_key: Option<&str>,
        retries: Option<u32>,
    ) -> Result<T, Error> {
        let key = idempotency_key.map(str::to_string).unwrap_or_else(random_uuid);
        let body = serde_json::to_value(request).expect("a SendRequest always serializes");
        let answer: Envelope<T> = self.call("POST", "/v1/contact/send-code", Some(&body), retries, Some(&key))?;
        Ok(answer.data)
    }

    /// Checks a code.
    pub fn verify_code(&self, request_id: &str, otp_code: &str, retries: Option<u32>) -> Result<VerifyResult, Error> {
        let body = serde_json::json!({ "requestId": request_id, "otpCode": otp_code });
        let answer: Envelope<VerifyResult> = self.call("POST", "/v1/contact/verify-code", Some(&body), retries, None)?;
        Ok(answer.data)
    }

    /// The service's health (no key needed), as JSON.
    pub fn health(&self, retries: Option<u32>) -> Result<serde_json::Value, Error> {
        self.call("GET", "/health", None, retries, None)
    }

    fn call<T: serde::de::DeserializeOwned>(
        &self,
        method: &str,
        path: &str,
        body: Option<&serde_json::Value>,
        retries: Option<u32>,
        idempotency_key: Option<&str>,
    ) -> Result<T, Error> {
        let limit = retries.unwrap_or(self.max_retries);
        let mut attempt = 0;
        loop {
            match self.once(method, path, body, idempotency_key) {
                Ok(value) => return Ok(value),
                Err(err) => match self.retry_delay(&err, attempt) {
                    Some(wait) if attempt < limit => {
                        sleep(wait);
                        attempt += 1;
                    }
                    _ => return Err(err),
                },
            }
        }
    }

    fn retry_delay(&self, err: &Error, attempt: u32) -> Option<Duration> {
        match (err.status, err.retry_after) {
            (503, Some(s)) => Some(Duration::from_secs(s).min(self.max_retry_after)),
            (503, None) => Some(Duration::from_millis(250 << attempt)),
            (429, Some(s)) if err.code == "RATE_LIMITED" => {
                Some(Duration::from_secs(s)).filter(|d| *d <= self.max_retry_after)
            }
            _ => None,
        }
    }

    fn once<T: serde::de::DeserializeOwned>(
        &self,
        method: &str,
        path: &str,
        body: Option<&serde_json::Value>,
        idempotency_key: Option<&str>,
    ) -> Result<T, Error> {
        let mut request = self
            .agent
            .request(method, &format!("{}{}", self.base_url, path))
            .set("Accept", "application/json")
            .set("Authorization", &format!("Bearer {}", self.api_key))
            .set("User-Agent", &format!("contact-verify-rust/{}", VERSION));
        if let Some(key) = idempotency_key {
            request = request.set("Idempotency-Key", key);
        }
        let result = match body {
            Some(b) => request.send_json(b.clone()),
            None => request.call(),
        };
        match result {
            Ok(response) => response.into_json::<T>().map_err(|e| network(&self.base_url, &e.to_string())),
            Err(ureq::Error::Status(status, response)) => {
                let retry_after = response.header("Retry-After").and_then(|v| v.trim().parse().ok());
                let parsed = response.into_json::<ErrorBody>().ok();
                let fallback = if status == 503 { "UNAVAILABLE" } else { "INTERNAL" };
                Err(match parsed {
                    Some(b) => Error { status, code: b.error.code, message: b.error.message, details: b.error.details, retry_after },
                    None => Error { status, code: fallback.into(), message: format!("HTTP {}", status), details: vec![], retry_after },
                })
            }
            Err(e) => Err(network(&self.base_url, &e.to_string())),
        }
    }
}

fn network(base_url: &str, why: &str) -> Error {
    Error {
        status: 0,
        code: "NETWORK_ERROR".into(),
        message: format!("No answer from {}: {}", base_url, why),
        details: vec![],
        retry_after: None,
    }
}

fn random_uuid() -> String {
    let mut b = [0u8; 16];
    getrandom::getrandom(&mut b).expect("the OS random source");
    b[6] = (b[6] & 0x0f) | 0x40;
    b[8] = (b[8] & 0x3f) | 0x80;
    let h: Vec<String> = b.iter().map(|x| format!("{:02x}", x)).collect();
    format!("{}-{}-{}-{}-{}", h[0..4].concat(), h[4..6].concat(), h[6..8].concat(), h[8..10].concat(), h[10..16].concat())
}
