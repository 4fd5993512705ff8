//! The service's models, mirroring the named schemas of its OpenAPI document
//! (`clients/openapi.json`): `tests/drift.rs` fails when a field or an enum value of the document
//! is missing here, or the reverse.

use serde::{Deserialize, Deserializer, Serialize, Serializer};
use std::collections::BTreeMap;
use std::fmt;
use std::str::FromStr;
use time::OffsetDateTime;

/// A string that is not one of an enum's values (from [`FromStr`]).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct UnknownValue {
    /// The enum's name, e.g. `Channel`.
    pub kind: &'static str,
    /// The string that was given.
    pub value: String,
}

impl fmt::Display for UnknownValue {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{:?} is not a {}", self.value, self.kind)
    }
}

impl std::error::Error for UnknownValue {}

/// An enum of the document's string values: `as_str`, `Display`, `FromStr`, serde as that
/// string, and `ALL` (every variant, in the document's order). `Name (else Unknown) { .. }` makes
/// an open enum: a value this version does not know yet deserializes as `Unknown` (the answer
/// still parses) where a closed enum's answer is refused; `FromStr` stays strict for both.
macro_rules! string_enum {
    ($(#[$meta:meta])* $name:ident { $($(#[$vmeta:meta])* $variant:ident = $value:literal,)+ }) => {
        string_enum!(@base $(#[$meta])* $name { $($(#[$vmeta])* $variant = $value,)+ });

        impl<'de> Deserialize<'de> for $name {
            fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
                let s = std::borrow::Cow::<'de, str>::deserialize(deserializer)?;
                s.parse().map_err(serde::de::Error::custom)
            }
        }
    };
    ($(#[$meta:meta])* $name:ident (else $fallback:ident) { $($(#[$vmeta:meta])* $variant:ident = $value:literal,)+ }) => {
        string_enum!(@base $(#[$meta])* $name { $($(#[$vmeta])* $variant = $value,)+ });

        impl<'de> Deserialize<'de> for $name {
            fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
                let s = std::borrow::Cow::<'de, str>::deserialize(deserializer)?;
                Ok(s.parse().unwrap_or($name::$fallback))
            }
        }
    };
    (@base $(#[$meta:meta])* $name:ident { $($(#[$vmeta:meta])* $variant:ident = $value:literal,)+ }) => {
        $(#[$meta])*
        #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
        #[non_exhaustive]
        pub enum $name {
            $($(#[$vmeta])* $variant,)+
        }

        impl $name {
            /// Every value, in the order of the document.
            pub const ALL: &'static [$name] = &[$($name::$variant,)+];

            /// The value as the service writes it.
            pub fn as_str(self) -> &'static str {
                match self {
                    $($name::$variant => $value,)+
                }
            }
        }

        impl fmt::Display for $name {
            fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str(self.as_str())
            }
        }

        impl FromStr for $name {
            type Err = UnknownValue;
            fn from_str(s: &str) -> Result<Self, UnknownValue> {
                match s {
                    $($value => Ok($name::$variant),)+
                    _ => Err(UnknownValue { kind: stringify!($name), value: s.to_string() }),
                }
            }
        }

        impl Serialize for $name {
            fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
                serializer.serialize_str(self.as_str())
            }
        }
    };
}

string_enum! {
    /// A delivery channel (schema `Channel`).
    Channel {
        Email = "EMAIL",
        Sms = "SMS",
        WhatsApp = "WHATSAPP",
        Voice = "VOICE",
        /// Silent network authentication: the app opens the entry's `silent.url` on the device
        /// over mobile data, then [`Client::verify_silent`](crate::Client::verify_silent) asks
        /// the provider.
        Silent = "SILENT",
    }
}

string_enum! {
    /// How a WHATSAPP code is delivered (schema `DeliveryType`): a message (the default) or a call.
    DeliveryType {
        Text = "TEXT",
        Call = "CALL",
    }
}

string_enum! {
    /// The state of a verification request (schema `VerificationStatus`): pending, then verified,
    /// expired, failed (attempts used up) or canceled (superseded, or its dual sibling verified).
    VerificationStatus {
        Pending = "pending",
        Verified = "verified",
        Expired = "expired",
        Failed = "failed",
        Canceled = "canceled",
    }
}

string_enum! {
    /// How a request was verified (schema `VerificationMethod`): the code typed, the email's
    /// magic link, or the mobile network (SILENT).
    VerificationMethod (else Unknown) {
        Code = "code",
        Link = "link",
        Silent = "silent",
        /// A method this version does not know yet.
        Unknown = "unknown",
    }
}

string_enum! {
    /// Where the message (or call) that carries the code is (schema `DeliveryState`); the last
    /// four are calls'.
    DeliveryState (else Unknown) {
        Queued = "queued",
        Sent = "sent",
        Delivered = "delivered",
        Undelivered = "undelivered",
        AwaitingPermission = "awaiting_permission",
        Calling = "calling",
        Answered = "answered",
        Completed = "completed",
        /// A state this version does not know yet.
        Unknown = "unknown",
    }
}

string_enum! {
    /// Why a SILENT request fell back to a code (schema `FallbackReason`).
    FallbackReason (else Unknown) {
        ProviderFailed = "provider_failed",
        Rejected = "rejected",
        Timeout = "timeout",
        /// A reason this version does not know yet.
        Unknown = "unknown",
    }
}

string_enum! {
    /// What became of a SILENT request's fallback (`Verification.fallback.state`): waiting for
    /// `silentTimeoutSeconds`, its code sent, or not needed.
    FallbackState (else Unknown) {
        Scheduled = "scheduled",
        Fired = "fired",
        Dropped = "dropped",
        /// A state this version does not know yet.
        Unknown = "unknown",
    }
}

string_enum! {
    /// What the provider concluded of a SILENT check (`VerifyCodeResult.silent.outcome`):
    /// `Pending`, the device has not completed `silent.url` yet, call again.
    SilentOutcome (else Unknown) {
        Verified = "verified",
        Pending = "pending",
        Rejected = "rejected",
        InvalidNumber = "invalid_number",
        Unavailable = "unavailable",
        /// An outcome this version does not know yet.
        Unknown = "unknown",
    }
}

string_enum! {
    /// The state of one channel of a send (schema `SendCodeEntryStatus`): `Undelivered` only in a
    /// dual answer whose other channel was delivered.
    EntryStatus {
        Pending = "pending",
        Undelivered = "undelivered",
    }
}

string_enum! {
    /// Why the channel of an undelivered entry was not delivered (`SendCodeEntryError.code`).
    EntryErrorCode {
        DeliveryFailed = "DELIVERY_FAILED",
        InvalidDestination = "INVALID_DESTINATION",
        /// No request was made for this entry: verify with the other entry's `request_id`.
        ChannelUnavailable = "CHANNEL_UNAVAILABLE",
    }
}

string_enum! {
    /// The band of a risk score (schema `RiskLevel`).
    RiskLevel {
        Low = "low",
        Medium = "medium",
        High = "high",
    }
}

string_enum! {
    /// The service's overall state (schema `HealthStatus`); `Down` is answered with 503.
    HealthStatus {
        Ok = "ok",
        Degraded = "degraded",
        Down = "down",
    }
}

string_enum! {
    /// Whether a service the API depends on answers (schema `ServiceState`).
    ServiceState {
        Up = "up",
        Down = "down",
    }
}

string_enum! {
    /// A provider's state by its circuit breaker and its check (schema `ProviderState`).
    ProviderState {
        Up = "up",
        Down = "down",
        Unknown = "unknown",
    }
}

string_enum! {
    /// What becomes of a channel's live codes (schema `LiveCodes`).
    LiveCodes {
        Delivered = "delivered",
        Outbox = "outbox",
        Refused = "refused",
    }
}

string_enum! {
    /// The contract's stable error codes (schema `ErrorCode`), and three of this library's own:
    /// `NetworkError` (no answer; status 0), `NoOutboxCode` (the test helper found no code;
    /// status 0) and `Unknown` (a code this version does not know, or an answer that was not
    /// the service's error body).
    ErrorCode {
        ValidationError = "VALIDATION_ERROR",
        InvalidJson = "INVALID_JSON",
        InvalidDestination = "INVALID_DESTINATION",
        UnsupportedNumber = "UNSUPPORTED_NUMBER",
        Unauthorized = "UNAUTHORIZED",
        Forbidden = "FORBIDDEN",
        ChannelNotEnabled = "CHANNEL_NOT_ENABLED",
        ContactBlocked = "CONTACT_BLOCKED",
        RiskTooHigh = "RISK_TOO_HIGH",
        NotFound = "NOT_FOUND",
        RequestTimeout = "REQUEST_TIMEOUT",
        IdempotencyKeyInUse = "IDEMPOTENCY_KEY_IN_USE",
        PayloadTooLarge = "PAYLOAD_TOO_LARGE",
        UnsupportedMediaType = "UNSUPPORTED_MEDIA_TYPE",
        IdempotencyKeyReused = "IDEMPOTENCY_KEY_REUSED",
        RateLimited = "RATE_LIMITED",
        TooManyAttempts = "TOO_MANY_ATTEMPTS",
        HeadersTooLarge = "HEADERS_TOO_LARGE",
        Internal = "INTERNAL",
        DeliveryFailed = "DELIVERY_FAILED",
        Unavailable = "UNAVAILABLE",
        ChannelUnavailable = "CHANNEL_UNAVAILABLE",
        /// No answer came (connection refused, timeout, unreadable body); status 0.
        NetworkError = "NETWORK_ERROR",
        /// [`TestOutbox::latest_outbox_code`](crate::TestOutbox::latest_outbox_code) found no
        /// code; status 0.
        NoOutboxCode = "NO_OUTBOX_CODE",
        /// Not a code of this version, or not the service's error body (a proxy's page).
        Unknown = "UNKNOWN",
    }
}

impl ErrorCode {
    /// The codes this library makes itself; the service never answers them.
    pub const LIBRARY_ONLY: &'static [ErrorCode] =
        &[ErrorCode::NetworkError, ErrorCode::NoOutboxCode, ErrorCode::Unknown];
}

/// One signal of a risk score.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct RiskSignal {
    /// `destination_velocity`, `unconverted_sends`, `wrong_code_ratio`, `number_type`, ...
    pub name: String,
    /// What it added to the score.
    pub weight: i64,
    pub detail: String,
}

/// The fraud score of a send (0-100) and the signals behind it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Risk {
    pub score: u32,
    pub level: RiskLevel,
    #[serde(default)]
    pub signals: Vec<RiskSignal>,
}

/// Why one channel of a dual send was not delivered.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct SendCodeEntryError {
    pub code: EntryErrorCode,
    pub message: String,
}

/// One channel of a send: keep `request_id` to verify the code.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct SendCodeEntry {
    pub request_id: String,
    pub channel: Channel,
    pub status: EntryStatus,
    /// When the code stops working.
    #[serde(with = "time::serde::rfc3339")]
    pub expires_at: OffsetDateTime,
    /// The masked destination, e.g. `j***@example.com`.
    pub to: String,
    /// WHATSAPP only.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub delivery_type: Option<DeliveryType>,
    /// Set on the undelivered entry of a dual answer.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub error: Option<SendCodeEntryError>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub risk: Option<Risk>,
    /// SILENT only: the URL the app opens on the device.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub silent: Option<SilentCheck>,
    /// SILENT with a fallback: the code sent at once because the silent start failed.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub fallback: Option<SilentFallback>,
}

/// How the device proves it holds the SIM: open `url` from the app over mobile data (not Wi-Fi),
/// then [`Client::verify_silent`](crate::Client::verify_silent) (or
/// [`verify_code`](crate::Client::verify_code) with the code the URL answered, when the provider
/// hands one out).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct SilentCheck {
    pub url: String,
}

/// The code a SILENT request fell back to (schema `SilentFallback`): either request id verifies it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct SilentFallback {
    pub request_id: String,
    pub channel: Channel,
    pub status: EntryStatus,
    pub reason: FallbackReason,
    #[serde(with = "time::serde::rfc3339")]
    pub expires_at: OffsetDateTime,
}

/// What the provider concluded of a SILENT check, and why in a sentence.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct SilentResult {
    pub outcome: SilentOutcome,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub reason: Option<String>,
}

/// A verification request as it is now (schema `Verification`), from
/// [`Client::get_verification`](crate::Client::get_verification) and
/// [`Client::cancel_verification`](crate::Client::cancel_verification). `verified_at` and
/// `method` are set only when `status` is verified.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Verification {
    pub request_id: String,
    pub channel: Channel,
    pub status: VerificationStatus,
    /// The masked destination.
    pub to: String,
    #[serde(with = "time::serde::rfc3339")]
    pub created_at: OffsetDateTime,
    #[serde(with = "time::serde::rfc3339")]
    pub expires_at: OffsetDateTime,
    /// Checks left (shared by both requests of a dual pair).
    pub attempts_remaining: u32,
    /// WHATSAPP only.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub delivery_type: Option<DeliveryType>,
    #[serde(
        default,
        with = "time::serde::rfc3339::option",
        skip_serializing_if = "Option::is_none"
    )]
    pub verified_at: Option<OffsetDateTime>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub method: Option<VerificationMethod>,
    /// The other request of a dual send.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub sibling_request_id: Option<String>,
    pub delivery: VerificationDelivery,
    /// SILENT with a fallback: the fallback and what became of it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub fallback: Option<VerificationFallback>,
}

/// A SILENT request's fallback: `reason` and `request_id` (the fallback code's request) once it
/// fired.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct VerificationFallback {
    pub channel: Channel,
    pub state: FallbackState,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub reason: Option<FallbackReason>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub request_id: Option<String>,
}

/// What became of the message (or call) that carries the code (schema `VerificationDelivery`).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct VerificationDelivery {
    pub status: DeliveryState,
    /// The provider that took the message (`outbox` for the built-in outbox); `None` before one did.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub provider: Option<String>,
    /// When the delivery state last moved.
    #[serde(with = "time::serde::rfc3339")]
    pub updated_at: OffsetDateTime,
}

/// The answer to a code check. A wrong code is `verified: false`, not an error.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct VerifyCodeResult {
    /// True only on the call that consumed the code.
    pub verified: bool,
    /// The channel on which the matching code was delivered.
    pub channel: Channel,
    pub request_id: String,
    /// The request's state after this call.
    pub status: VerificationStatus,
    pub attempts_remaining: u32,
    /// SILENT only: what the provider concluded.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub silent: Option<SilentResult>,
    /// SILENT: the fallback code the failed check of this call sent.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub fallback: Option<SilentFallback>,
}

/// One problem with one field of a request.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ErrorDetail {
    /// A dotted path into the body, e.g. `channels`.
    pub field: String,
    pub message: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub channel: Option<Channel>,
}

/// The services the API depends on.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Services {
    pub database: ServiceState,
    pub rate_limit_store: ServiceState,
}

/// A provider of a channel, or the carrier lookup provider.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ProviderHealth {
    /// e.g. `twilio`, or `outbox`.
    pub name: String,
    pub state: ProviderState,
    /// What its last check found beyond its state (`whatsapp-call`: `calling ENABLED`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub detail: Option<String>,
}

/// One channel's health.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ChannelHealth {
    /// Whether the channel works for live traffic.
    pub operational: bool,
    pub providers: Vec<ProviderHealth>,
    pub live_codes: LiveCodes,
    /// A sentence for operators when some live codes of this channel are not delivered.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub note: Option<String>,
}

/// SMS-pumping breakers tripped now for one country.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct PumpingBreakerCount {
    pub country: String,
    pub count: u32,
}

/// The instances serving on the service's database, as the answering one last saw them: with
/// `live` above 1, any `without_redis` (instances without `REDIS_URL`) makes the status degraded.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct InstancesHealth {
    pub live: u32,
    pub without_redis: u32,
}

/// A rotation of `CODE_SECRET` in progress (`CODE_SECRET_PREVIOUS` set; never a secret): once every
/// instance is past `removable_after`, `CODE_SECRET_PREVIOUS` can be removed (and the service restarted).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct CodeSecretRotation {
    /// How many previous code secrets are still accepted.
    pub previous_secrets: u32,
    /// When the answering instance started accepting them (its start).
    #[serde(with = "time::serde::rfc3339")]
    pub since: OffsetDateTime,
    /// From then on, no code sent under a previous secret since `since` is still alive.
    #[serde(with = "time::serde::rfc3339")]
    pub removable_after: OffsetDateTime,
}

/// `GET /health` (schema `Health`).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Health {
    pub status: HealthStatus,
    pub version: String,
    pub uptime_seconds: u64,
    pub services: Services,
    pub channels: BTreeMap<Channel, ChannelHealth>,
    /// The carrier lookup provider (`LOOKUP_PROVIDER`) on the answering instance, `None` when none is
    /// configured: `Down` while its circuit is open (the status is then degraded), `Up` once it
    /// answered, `Unknown` before.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub lookups: Option<ProviderHealth>,
    /// `None` from a service that does not say.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub instances: Option<InstancesHealth>,
    #[serde(default)]
    pub pumping_breakers: Vec<PumpingBreakerCount>,
    /// `None` unless a rotation of `CODE_SECRET` is in progress.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub code_secret_rotation: Option<CodeSecretRotation>,
}

/// A message kept by the service's outbox (schema `OutboxMessage`), read by [`crate::TestOutbox`].
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct OutboxMessage {
    pub id: String,
    pub account_id: String,
    pub request_id: String,
    /// Shared by both requests of a dual send (a single send's is its `request_id`).
    pub group_id: String,
    /// The other request of a dual send; `None` for a single send.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub sibling_request_id: Option<String>,
    /// The state of that request now.
    pub status: VerificationStatus,
    pub channel: Channel,
    /// The full destination.
    pub to: String,
    /// EMAIL only.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub subject: Option<String>,
    pub text: String,
    /// EMAIL only.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub html: Option<String>,
    /// Test-mode requests only, while pending: the code in clear.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub code: Option<String>,
    #[serde(with = "time::serde::rfc3339")]
    pub created_at: OffsetDateTime,
    /// When the request was verified; `None` unless it is.
    #[serde(
        default,
        with = "time::serde::rfc3339::option",
        skip_serializing_if = "Option::is_none"
    )]
    pub verified_at: Option<OffsetDateTime>,
    /// How the request was verified; `None` unless it is.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub method: Option<VerificationMethod>,
}

/// A send's magic link (schema `SendLink`, EMAIL only): the email also carries a link, used up
/// with the code. `Link::default()` ends on the service's own "verified" page;
/// `Link::redirect_to(url)` sends the browser to `url` (an origin of the account's
/// `linkRedirectOrigins`) with `requestId` and `status=verified` in its query. The service needs
/// `PUBLIC_BASE_URL`.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Link {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub redirect_url: Option<String>,
}

impl Link {
    /// A link whose browser ends at `url` once it verified.
    pub fn redirect_to(url: impl Into<String>) -> Self {
        Link {
            redirect_url: Some(url.into()),
        }
    }
}

/// A code to send (schema `SendCodeRequest`), built from its channel:
///
/// ```
/// use contact_verify::{Channel, DeliveryType, SendCode};
///
/// let by_email = SendCode::email("jane@example.com").purpose("sign-in").locale("es-MX");
/// let by_call = SendCode::whatsapp("+447911123456").delivery_type(DeliveryType::Call);
/// let both = SendCode::dual(Channel::Email, Channel::Sms)
///     .with_email("sam@example.com")
///     .with_phone("+14155552672");
/// # let _ = (by_email, by_call, both);
/// ```
///
/// Its fields are public, so a struct literal with `..Default::default()` works too.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct SendCode {
    /// One channel ([`Client::send_code`](crate::Client::send_code)).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub channel: Option<Channel>,
    /// Two different channels at once ([`Client::send_code_dual`](crate::Client::send_code_dual)).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub channels: Vec<Channel>,
    /// Required with EMAIL.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub email: Option<String>,
    /// Required with SMS, WHATSAPP, VOICE or SILENT: `+` and the country code.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub phone: Option<String>,
    /// ISO 3166-1 alpha-2; inferred from the number when omitted.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub country: Option<String>,
    /// WHATSAPP only: a message (default) or a call.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub delivery_type: Option<DeliveryType>,
    /// Free text (at most 100 characters), shown in the message and the logs.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub purpose: Option<String>,
    /// Plain text (at most 500 characters) added to the email.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub custom_message: Option<String>,
    /// The recipient's BCP 47 language tag (`es`, `pt-BR`); English when unsupported.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub locale: Option<String>,
    /// EMAIL only: a magic link in the email beside the code.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub link: Option<Link>,
    /// SILENT only (SMS, WHATSAPP or VOICE): the channel of a code sent, as the request's dual
    /// sibling, when the silent check fails or times out.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub fallback: Option<Channel>,
    /// Your own `Idempotency-Key` for this send (a random one otherwise); not part of the body.
    #[serde(skip)]
    pub idempotency_key: Option<String>,
}

impl SendCode {
    /// A send on one channel; set its destination with [`with_email`](Self::with_email) or
    /// [`with_phone`](Self::with_phone).
    pub fn new(channel: Channel) -> Self {
        SendCode {
            channel: Some(channel),
            ..Default::default()
        }
    }

    /// A code by email.
    pub fn email(address: impl Into<String>) -> Self {
        SendCode {
            channel: Some(Channel::Email),
            email: Some(address.into()),
            ..Default::default()
        }
    }

    /// A code by SMS.
    pub fn sms(phone: impl Into<String>) -> Self {
        SendCode {
            channel: Some(Channel::Sms),
            phone: Some(phone.into()),
            ..Default::default()
        }
    }

    /// A code by WhatsApp (a message; a call with `.delivery_type(DeliveryType::Call)`).
    pub fn whatsapp(phone: impl Into<String>) -> Self {
        SendCode {
            channel: Some(Channel::WhatsApp),
            phone: Some(phone.into()),
            ..Default::default()
        }
    }

    /// A phone call to `phone` (`+` and the country code) that reads the code.
    pub fn voice(phone: impl Into<String>) -> Self {
        SendCode {
            channel: Some(Channel::Voice),
            phone: Some(phone.into()),
            ..Default::default()
        }
    }

    /// Silent network authentication of `phone` (`+` and the country code): no code to type.
    pub fn silent(phone: impl Into<String>) -> Self {
        SendCode {
            channel: Some(Channel::Silent),
            phone: Some(phone.into()),
            ..Default::default()
        }
    }

    /// Two channels at once (sent with [`Client::send_code_dual`](crate::Client::send_code_dual));
    /// either code verifies the pair.
    pub fn dual(first: Channel, second: Channel) -> Self {
        SendCode {
            channels: vec![first, second],
            ..Default::default()
        }
    }

    /// Sets the email address (EMAIL).
    pub fn with_email(mut self, address: impl Into<String>) -> Self {
        self.email = Some(address.into());
        self
    }

    /// Sets the phone number (SMS, WHATSAPP).
    pub fn with_phone(mut self, phone: impl Into<String>) -> Self {
        self.phone = Some(phone.into());
        self
    }

    /// Sets the country of the number (ISO 3166-1 alpha-2).
    pub fn country(mut self, country: impl Into<String>) -> Self {
        self.country = Some(country.into());
        self
    }

    /// Sets how a WHATSAPP code is delivered.
    pub fn delivery_type(mut self, delivery_type: DeliveryType) -> Self {
        self.delivery_type = Some(delivery_type);
        self
    }

    /// Sets the purpose shown in the message.
    pub fn purpose(mut self, purpose: impl Into<String>) -> Self {
        self.purpose = Some(purpose.into());
        self
    }

    /// Sets a custom message added to the email.
    pub fn custom_message(mut self, message: impl Into<String>) -> Self {
        self.custom_message = Some(message.into());
        self
    }

    /// Sets the recipient's language.
    pub fn locale(mut self, locale: impl Into<String>) -> Self {
        self.locale = Some(locale.into());
        self
    }

    /// Adds a magic link to the email (EMAIL): `.link(Link::default())`.
    pub fn link(mut self, link: Link) -> Self {
        self.link = Some(link);
        self
    }

    /// Sets the channel a SILENT request falls back to (SMS, WHATSAPP or VOICE).
    pub fn fallback(mut self, channel: Channel) -> Self {
        self.fallback = Some(channel);
        self
    }

    /// Sets your own idempotency key: a send repeated with it (and the same body) answers the
    /// first send's entries instead of sending another code.
    pub fn idempotency_key(mut self, key: impl Into<String>) -> Self {
        self.idempotency_key = Some(key.into());
        self
    }
}
