using System;
using System.Collections.Generic;
using System.Reflection;
using System.Runtime.Serialization;

namespace ContactVerify
{
    // Each member carries the value the API writes ([EnumMember]); Unknown (0) is a value a newer
    // service sent that this version does not know.

    /// <summary>A delivery channel.</summary>
    public enum Channel
    {
        Unknown = 0,
        [EnumMember(Value = "EMAIL")] Email,
        [EnumMember(Value = "SMS")] Sms,
        [EnumMember(Value = "WHATSAPP")] WhatsApp,
        /// <summary>A phone call that reads the code.</summary>
        [EnumMember(Value = "VOICE")] Voice,
        /// <summary>Silent network authentication: no code to type (VerifyCodeAsync with the request id alone).</summary>
        [EnumMember(Value = "SILENT")] Silent,
    }

    /// <summary>How a request was verified: the code typed, the email's magic link, or silent network authentication.</summary>
    public enum VerificationMethod
    {
        Unknown = 0,
        [EnumMember(Value = "code")] Code,
        [EnumMember(Value = "link")] Link,
        [EnumMember(Value = "silent")] Silent,
    }

    /// <summary>Where the message (or call) that carries the code is; the last four are calls'.</summary>
    public enum DeliveryState
    {
        Unknown = 0,
        /// <summary>Not handed to a provider yet.</summary>
        [EnumMember(Value = "queued")] Queued,
        /// <summary>A provider (or the outbox) took it.</summary>
        [EnumMember(Value = "sent")] Sent,
        /// <summary>The provider reported it delivered.</summary>
        [EnumMember(Value = "delivered")] Delivered,
        /// <summary>Refused by every provider, reported undelivered, or a call that failed.</summary>
        [EnumMember(Value = "undelivered")] Undelivered,
        /// <summary>A WhatsApp call waits for the user to allow calls.</summary>
        [EnumMember(Value = "awaiting_permission")] AwaitingPermission,
        [EnumMember(Value = "calling")] Calling,
        /// <summary>The code is being read.</summary>
        [EnumMember(Value = "answered")] Answered,
        [EnumMember(Value = "completed")] Completed,
    }

    /// <summary>Why a SILENT request fell back to a code: its provider failed, the network proved another SIM, or the device did not finish in time.</summary>
    public enum FallbackReason
    {
        Unknown = 0,
        [EnumMember(Value = "provider_failed")] ProviderFailed,
        [EnumMember(Value = "rejected")] Rejected,
        [EnumMember(Value = "timeout")] Timeout,
    }

    /// <summary>What became of a SILENT request's fallback (Verification.Fallback.State).</summary>
    public enum FallbackState
    {
        Unknown = 0,
        /// <summary>Waiting for the account's silentTimeoutSeconds.</summary>
        [EnumMember(Value = "scheduled")] Scheduled,
        /// <summary>Its code was sent: RequestId is the sibling request that carries it.</summary>
        [EnumMember(Value = "fired")] Fired,
        /// <summary>Not needed: the SILENT request settled first.</summary>
        [EnumMember(Value = "dropped")] Dropped,
    }

    /// <summary>What the provider concluded about a SILENT check; Pending: the device has not opened the URL yet, ask again.</summary>
    public enum SilentOutcome
    {
        Unknown = 0,
        [EnumMember(Value = "verified")] Verified,
        [EnumMember(Value = "pending")] Pending,
        [EnumMember(Value = "rejected")] Rejected,
        [EnumMember(Value = "invalid_number")] InvalidNumber,
        [EnumMember(Value = "unavailable")] Unavailable,
    }

    /// <summary>How an SMS or WhatsApp code is delivered: a text message or a voice call.</summary>
    public enum DeliveryType
    {
        Unknown = 0,
        [EnumMember(Value = "TEXT")] Text,
        [EnumMember(Value = "CALL")] Call,
    }

    /// <summary>The state of a verification request.</summary>
    public enum VerificationStatus
    {
        Unknown = 0,
        [EnumMember(Value = "pending")] Pending,
        [EnumMember(Value = "verified")] Verified,
        [EnumMember(Value = "expired")] Expired,
        [EnumMember(Value = "failed")] Failed,
        [EnumMember(Value = "canceled")] Canceled,
    }

    /// <summary>The state of one channel of a send: pending (sent, waiting for the code) or undelivered.</summary>
    public enum EntryStatus
    {
        Unknown = 0,
        [EnumMember(Value = "pending")] Pending,
        [EnumMember(Value = "undelivered")] Undelivered,
    }

    /// <summary>The level of a send's risk score.</summary>
    public enum RiskLevel
    {
        Unknown = 0,
        [EnumMember(Value = "low")] Low,
        [EnumMember(Value = "medium")] Medium,
        [EnumMember(Value = "high")] High,
    }

    /// <summary>The service's overall state.</summary>
    public enum HealthStatus
    {
        Unknown = 0,
        [EnumMember(Value = "ok")] Ok,
        [EnumMember(Value = "degraded")] Degraded,
        [EnumMember(Value = "down")] Down,
    }

    /// <summary>The state of one backing service (database, rate-limit store).</summary>
    public enum ServiceState
    {
        Unknown = 0,
        [EnumMember(Value = "up")] Up,
        [EnumMember(Value = "down")] Down,
    }

    /// <summary>The state of one delivery provider.</summary>
    public enum ProviderState
    {
        /// <summary>The service does not know (and a value this version does not know).</summary>
        [EnumMember(Value = "unknown")] Unknown = 0,
        [EnumMember(Value = "up")] Up,
        [EnumMember(Value = "down")] Down,
    }

    /// <summary>What happens to a live code on a channel: delivered, parked in the outbox, or refused.</summary>
    public enum LiveCodes
    {
        Unknown = 0,
        [EnumMember(Value = "delivered")] Delivered,
        [EnumMember(Value = "outbox")] Outbox,
        [EnumMember(Value = "refused")] Refused,
    }

    /// <summary>
    /// The contract's stable error codes (ContactVerifyException.ErrorCode), plus NetworkError: the
    /// library's own, when no answer came.
    /// </summary>
    public enum ErrorCode
    {
        Unknown = 0,
        [EnumMember(Value = "VALIDATION_ERROR")] ValidationError,
        [EnumMember(Value = "INVALID_JSON")] InvalidJson,
        [EnumMember(Value = "INVALID_DESTINATION")] InvalidDestination,
        [EnumMember(Value = "UNSUPPORTED_NUMBER")] UnsupportedNumber,
        [EnumMember(Value = "UNAUTHORIZED")] Unauthorized,
        [EnumMember(Value = "FORBIDDEN")] Forbidden,
        [EnumMember(Value = "CHANNEL_NOT_ENABLED")] ChannelNotEnabled,
        [EnumMember(Value = "CONTACT_BLOCKED")] ContactBlocked,
        [EnumMember(Value = "RISK_TOO_HIGH")] RiskTooHigh,
        [EnumMember(Value = "NOT_FOUND")] NotFound,
        [EnumMember(Value = "REQUEST_TIMEOUT")] RequestTimeout,
        [EnumMember(Value = "IDEMPOTENCY_KEY_IN_USE")] IdempotencyKeyInUse,
        [EnumMember(Value = "PAYLOAD_TOO_LARGE")] PayloadTooLarge,
        [EnumMember(Value = "UNSUPPORTED_MEDIA_TYPE")] UnsupportedMediaType,
        [EnumMember(Value = "IDEMPOTENCY_KEY_REUSED")] IdempotencyKeyReused,
        [EnumMember(Value = "RATE_LIMITED")] RateLimited,
        [EnumMember(Value = "TOO_MANY_ATTEMPTS")] TooManyAttempts,
        [EnumMember(Value = "HEADERS_TOO_LARGE")] HeadersTooLarge,
        [EnumMember(Value = "INTERNAL")] Internal,
        [EnumMember(Value = "DELIVERY_FAILED")] DeliveryFailed,
        [EnumMember(Value = "UNAVAILABLE")] Unavailable,
        [EnumMember(Value = "CHANNEL_UNAVAILABLE")] ChannelUnavailable,
        /// <summary>No answer from the service (connection refused, timeout): Status 0.</summary>
        [EnumMember(Value = "NETWORK_ERROR")] NetworkError,
    }

    /// <summary>The API's spelling of the enums' members.</summary>
    public static class WireValue
    {
        private static readonly Dictionary<Type, Dictionary<string, object>> ByValue = new Dictionary<Type, Dictionary<string, object>>();

        /// <summary>The value as the API writes it (Channel.Email: "EMAIL"); null for Unknown.</summary>
        public static string Of(Enum value)
        {
            var member = value.GetType().GetField(value.ToString(), BindingFlags.Public | BindingFlags.Static);
            var attribute = member == null ? null : member.GetCustomAttribute<EnumMemberAttribute>();
            return attribute == null ? null : attribute.Value;
        }

        /// <summary>The member the API's value names; Unknown for a value this version does not know.</summary>
        public static T Parse<T>(string value) where T : struct
        {
            if (value == null) return default(T);
            Dictionary<string, object> values;
            lock (ByValue)
            {
                if (!ByValue.TryGetValue(typeof(T), out values))
                {
                    values = new Dictionary<string, object>();
                    foreach (var member in Enum.GetValues(typeof(T)))
                    {
                        var wire = Of((Enum)member);
                        if (wire != null) values[wire] = member;
                    }
                    ByValue[typeof(T)] = values;
                }
            }
            object found;
            return values.TryGetValue(value, out found) ? (T)found : default(T);
        }
    }
}
