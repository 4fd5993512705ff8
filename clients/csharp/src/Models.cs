using System;
using System.Collections.Generic;

namespace ContactVerify
{
    // The answers of the API. Each property is the JSON member of the same name in PascalCase
    // (expiresAt: ExpiresAt); the drift test holds them to the OpenAPI document.

    /// <summary>One signal that added to a send's risk score.</summary>
    public sealed class RiskSignal
    {
        public string Name { get; set; }
        public int Weight { get; set; }
        public string Detail { get; set; }

        internal static RiskSignal From(IDictionary<string, object> o) => o == null ? null
            : new RiskSignal { Name = o.Str("name"), Weight = o.Int("weight"), Detail = o.Str("detail") };
    }

    /// <summary>A send's risk score (0-100), its level and the signals behind it.</summary>
    public sealed class Risk
    {
        public int Score { get; set; }
        public RiskLevel Level { get; set; }
        public IReadOnlyList<RiskSignal> Signals { get; set; }

        internal static Risk From(IDictionary<string, object> o) => o == null ? null
            : new Risk { Score = o.Int("score"), Level = o.Enum<RiskLevel>("level"), Signals = o.List("signals", RiskSignal.From) };
    }

    /// <summary>Why one channel of a send was not delivered (Status Undelivered).</summary>
    public sealed class EntryError
    {
        public string Code { get; set; }
        public string Message { get; set; }

        internal static EntryError From(IDictionary<string, object> o) => o == null ? null
            : new EntryError { Code = o.Str("code"), Message = o.Str("message") };
    }

    /// <summary>
    /// SILENT only: open Url from the app on the user's device over mobile data (not Wi-Fi), then call
    /// VerifyCodeAsync with the request id alone (or with the code the URL answered, when the provider hands one out).
    /// </summary>
    public sealed class SilentStart
    {
        public string Url { get; set; }

        internal static SilentStart From(IDictionary<string, object> o) => o == null ? null : new SilentStart { Url = o.Str("url") };
    }

    /// <summary>The code a SILENT request fell back to (SendCodeRequest.Fallback): either request id verifies it.</summary>
    public sealed class SilentFallback
    {
        /// <summary>The fallback code's request (the SILENT request's dual sibling).</summary>
        public string RequestId { get; set; }
        public Channel Channel { get; set; }
        public EntryStatus Status { get; set; }
        public FallbackReason Reason { get; set; }
        public DateTimeOffset ExpiresAt { get; set; }

        internal static SilentFallback From(IDictionary<string, object> o) => o == null ? null : new SilentFallback
        {
            RequestId = o.Str("requestId"),
            Channel = o.Enum<Channel>("channel"),
            Status = o.Enum<EntryStatus>("status"),
            Reason = o.Enum<FallbackReason>("reason"),
            ExpiresAt = o.Time("expiresAt") ?? default(DateTimeOffset),
        };
    }

    /// <summary>SILENT only: what the provider concluded, and why (a sentence, never a code or a number).</summary>
    public sealed class SilentCheck
    {
        public SilentOutcome Outcome { get; set; }
        public string Reason { get; set; }

        internal static SilentCheck From(IDictionary<string, object> o) => o == null ? null
            : new SilentCheck { Outcome = o.Enum<SilentOutcome>("outcome"), Reason = o.Str("reason") };
    }

    /// <summary>
    /// send-code's link option (EMAIL only; the service needs PUBLIC_BASE_URL): the email carries a magic link beside
    /// the code, and the first of the two used consumes both. <c>new SendLink()</c> ends on the service's own
    /// "verified" page; <c>new SendLink { RedirectUrl = "https://app.example.com/welcome" }</c> on your page (an
    /// origin of the account's linkRedirectOrigins), with requestId and status=verified added to its query.
    /// </summary>
    public sealed class SendLink
    {
        public string RedirectUrl { get; set; }

        internal IDictionary<string, object> Body()
        {
            var body = new Dictionary<string, object>();
            if (RedirectUrl != null) body["redirectUrl"] = RedirectUrl;
            return body;
        }
    }

    /// <summary>What became of the message (or call) that carries the code.</summary>
    public sealed class VerificationDelivery
    {
        /// <summary>Unknown for a state newer than this library.</summary>
        public DeliveryState Status { get; set; }
        /// <summary>The provider that took the message, or "outbox"; null before one did.</summary>
        public string Provider { get; set; }
        /// <summary>When the state last moved (the request's creation until it first did).</summary>
        public DateTimeOffset UpdatedAt { get; set; }

        internal static VerificationDelivery From(IDictionary<string, object> o) => o == null ? null : new VerificationDelivery
        {
            Status = o.Enum<DeliveryState>("status"),
            Provider = o.Str("provider"),
            UpdatedAt = o.Time("updatedAt") ?? default(DateTimeOffset),
        };
    }

    /// <summary>A SILENT request's fallback (SendCodeRequest.Fallback) and what became of it.</summary>
    public sealed class VerificationFallback
    {
        public Channel Channel { get; set; }
        public FallbackState State { get; set; }
        /// <summary>Why it fired; null before.</summary>
        public FallbackReason? Reason { get; set; }
        /// <summary>The sibling request that carries the code, once it fired.</summary>
        public string RequestId { get; set; }

        internal static VerificationFallback From(IDictionary<string, object> o) => o == null ? null : new VerificationFallback
        {
            Channel = o.Enum<Channel>("channel"),
            State = o.Enum<FallbackState>("state"),
            Reason = o.Get("reason") == null ? (FallbackReason?)null : o.Enum<FallbackReason>("reason"),
            RequestId = o.Str("requestId"),
        };
    }

    /// <summary>A verification request as a resource (GetVerificationAsync, CancelVerificationAsync).</summary>
    public sealed class Verification
    {
        public string RequestId { get; set; }
        public Channel Channel { get; set; }
        /// <summary>Its state now (of a verified dual pair, the request whose code matched is Verified, the other Canceled).</summary>
        public VerificationStatus Status { get; set; }
        /// <summary>The destination, masked.</summary>
        public string To { get; set; }
        public DateTimeOffset CreatedAt { get; set; }
        public DateTimeOffset ExpiresAt { get; set; }
        /// <summary>Checks left (shared by both requests of a dual pair).</summary>
        public int AttemptsRemaining { get; set; }
        /// <summary>WHATSAPP only.</summary>
        public DeliveryType? DeliveryType { get; set; }
        /// <summary>Once verified.</summary>
        public DateTimeOffset? VerifiedAt { get; set; }
        /// <summary>How it was verified, once it is (Unknown for a method newer than this library).</summary>
        public VerificationMethod? Method { get; set; }
        /// <summary>The other request of a dual send; null for one channel.</summary>
        public string SiblingRequestId { get; set; }
        public VerificationDelivery Delivery { get; set; }
        /// <summary>A SILENT send with a fallback: the fallback and what became of it; else null.</summary>
        public VerificationFallback Fallback { get; set; }

        internal static Verification From(IDictionary<string, object> o) => o == null ? null : new Verification
        {
            RequestId = o.Str("requestId"),
            Channel = o.Enum<Channel>("channel"),
            Status = o.Enum<VerificationStatus>("status"),
            To = o.Str("to"),
            CreatedAt = o.Time("createdAt") ?? default(DateTimeOffset),
            ExpiresAt = o.Time("expiresAt") ?? default(DateTimeOffset),
            AttemptsRemaining = o.Int("attemptsRemaining"),
            DeliveryType = o.Get("deliveryType") == null ? (DeliveryType?)null : o.Enum<DeliveryType>("deliveryType"),
            VerifiedAt = o.Time("verifiedAt"),
            Method = o.Get("method") == null ? (VerificationMethod?)null : o.Enum<VerificationMethod>("method"),
            SiblingRequestId = o.Str("siblingRequestId"),
            Delivery = VerificationDelivery.From(o.Obj("delivery")),
            Fallback = VerificationFallback.From(o.Obj("fallback")),
        };
    }

    /// <summary>One channel of a send: keep RequestId to verify the code.</summary>
    public sealed class SendEntry
    {
        public string RequestId { get; set; }
        public Channel Channel { get; set; }
        public EntryStatus Status { get; set; }
        public DateTimeOffset ExpiresAt { get; set; }
        /// <summary>The destination, masked (j***@example.com).</summary>
        public string To { get; set; }
        public DeliveryType? DeliveryType { get; set; }
        public EntryError Error { get; set; }
        public Risk Risk { get; set; }
        /// <summary>SILENT only: the URL the app opens on the device.</summary>
        public SilentStart Silent { get; set; }
        /// <summary>SILENT with a fallback: the code sent at once because the silent start failed.</summary>
        public SilentFallback Fallback { get; set; }

        internal static SendEntry From(IDictionary<string, object> o) => o == null ? null : new SendEntry
        {
            RequestId = o.Str("requestId"),
            Channel = o.Enum<Channel>("channel"),
            Status = o.Enum<EntryStatus>("status"),
            ExpiresAt = o.Time("expiresAt") ?? default(DateTimeOffset),
            To = o.Str("to"),
            DeliveryType = o.Get("deliveryType") == null ? (DeliveryType?)null : o.Enum<DeliveryType>("deliveryType"),
            Error = EntryError.From(o.Obj("error")),
            Risk = Risk.From(o.Obj("risk")),
            Silent = SilentStart.From(o.Obj("silent")),
            Fallback = SilentFallback.From(o.Obj("fallback")),
        };
    }

    /// <summary>A wrong code is Verified false, not an exception.</summary>
    public sealed class VerifyResult
    {
        public bool Verified { get; set; }
        public Channel Channel { get; set; }
        public string RequestId { get; set; }
        public VerificationStatus Status { get; set; }
        public int AttemptsRemaining { get; set; }
        /// <summary>SILENT only: what the provider concluded.</summary>
        public SilentCheck Silent { get; set; }
        /// <summary>SILENT: the fallback code the failed check of this call sent.</summary>
        public SilentFallback Fallback { get; set; }

        internal static VerifyResult From(IDictionary<string, object> o) => o == null ? null : new VerifyResult
        {
            Verified = o.Bool("verified"),
            Channel = o.Enum<Channel>("channel"),
            RequestId = o.Str("requestId"),
            Status = o.Enum<VerificationStatus>("status"),
            AttemptsRemaining = o.Int("attemptsRemaining"),
            Silent = SilentCheck.From(o.Obj("silent")),
            Fallback = SilentFallback.From(o.Obj("fallback")),
        };
    }

    /// <summary>One problem of a refused request: the field, the message and, where one is concerned, the channel.</summary>
    public sealed class ErrorDetail
    {
        public string Field { get; set; }
        public string Message { get; set; }
        public Channel? Channel { get; set; }

        internal static ErrorDetail From(IDictionary<string, object> o) => o == null ? null : new ErrorDetail
        {
            Field = o.Str("field"),
            Message = o.Str("message"),
            Channel = o.Get("channel") == null ? (Channel?)null : o.Enum<Channel>("channel"),
        };
    }

    public sealed class ProviderHealth
    {
        public string Name { get; set; }
        public ProviderState State { get; set; }
        /// <summary>What the provider's last check found, where it says more than its state (whatsapp-call's calling setting); else null.</summary>
        public string Detail { get; set; }

        internal static ProviderHealth From(IDictionary<string, object> o) => o == null ? null
            : new ProviderHealth { Name = o.Str("name"), State = o.Enum<ProviderState>("state"), Detail = o.Str("detail") };
    }

    public sealed class ChannelHealth
    {
        public bool Operational { get; set; }
        public IReadOnlyList<ProviderHealth> Providers { get; set; }
        public LiveCodes LiveCodes { get; set; }
        public string Note { get; set; }

        internal static ChannelHealth From(IDictionary<string, object> o) => o == null ? null : new ChannelHealth
        {
            Operational = o.Bool("operational"),
            Providers = o.List("providers", ProviderHealth.From),
            LiveCodes = o.Enum<LiveCodes>("liveCodes"),
            Note = o.Str("note"),
        };
    }

    public sealed class Services
    {
        public ServiceState Database { get; set; }
        public ServiceState RateLimitStore { get; set; }

        internal static Services From(IDictionary<string, object> o) => o == null ? null
            : new Services { Database = o.Enum<ServiceState>("database"), RateLimitStore = o.Enum<ServiceState>("rateLimitStore") };
    }

    public sealed class PumpingBreakerCount
    {
        public string Country { get; set; }
        public int Count { get; set; }

        internal static PumpingBreakerCount From(IDictionary<string, object> o) => o == null ? null
            : new PumpingBreakerCount { Country = o.Str("country"), Count = o.Int("count") };
    }

    /// <summary>The instances serving on the service's database, as the answering one last saw them.</summary>
    public sealed class InstancesHealth
    {
        public int Live { get; set; }
        /// <summary>Of those, how many run without REDIS_URL (with Live above 1, the status is degraded).</summary>
        public int WithoutRedis { get; set; }

        internal static InstancesHealth From(IDictionary<string, object> o) => o == null ? null
            : new InstancesHealth { Live = o.Int("live"), WithoutRedis = o.Int("withoutRedis") };
    }

    /// <summary>
    /// A rotation of CODE_SECRET in progress (CODE_SECRET_PREVIOUS set; never a secret): once every instance
    /// is past RemovableAfter, CODE_SECRET_PREVIOUS can be removed (and the service restarted).
    /// </summary>
    public sealed class CodeSecretRotation
    {
        /// <summary>How many previous code secrets are still accepted.</summary>
        public int PreviousSecrets { get; set; }
        /// <summary>When the answering instance started accepting them (its start).</summary>
        public DateTimeOffset Since { get; set; }
        /// <summary>From then on, no code sent under a previous secret since Since is still alive.</summary>
        public DateTimeOffset RemovableAfter { get; set; }

        internal static CodeSecretRotation From(IDictionary<string, object> o) => o == null ? null : new CodeSecretRotation
        {
            PreviousSecrets = o.Int("previousSecrets"),
            Since = o.Time("since") ?? default(DateTimeOffset),
            RemovableAfter = o.Time("removableAfter") ?? default(DateTimeOffset),
        };
    }

    /// <summary>GET /health.</summary>
    public sealed class Health
    {
        public HealthStatus Status { get; set; }
        public string Version { get; set; }
        public long UptimeSeconds { get; set; }
        public Services Services { get; set; }
        public IReadOnlyDictionary<Channel, ChannelHealth> Channels { get; set; }
        /// <summary>
        /// The carrier lookup provider (LOOKUP_PROVIDER) on the answering instance, null when none is configured:
        /// Down while its circuit is open (the status is then degraded), Up once it answered, Unknown before.
        /// </summary>
        public ProviderHealth Lookups { get; set; }
        public InstancesHealth Instances { get; set; }
        public IReadOnlyList<PumpingBreakerCount> PumpingBreakers { get; set; }
        /// <summary>Null unless a rotation of CODE_SECRET is in progress.</summary>
        public CodeSecretRotation CodeSecretRotation { get; set; }

        internal static Health From(IDictionary<string, object> o)
        {
            if (o == null) return null;
            var channels = new Dictionary<Channel, ChannelHealth>();
            var raw = o.Obj("channels");
            if (raw != null)
                foreach (var pair in raw) channels[WireValue.Parse<Channel>(pair.Key)] = ChannelHealth.From(pair.Value as IDictionary<string, object>);
            return new Health
            {
                Status = o.Enum<HealthStatus>("status"),
                Version = o.Str("version"),
                UptimeSeconds = o.Long("uptimeSeconds"),
                Services = Services.From(o.Obj("services")),
                Channels = channels,
                Lookups = ProviderHealth.From(o.Obj("lookups")),
                Instances = InstancesHealth.From(o.Obj("instances")),
                PumpingBreakers = o.List("pumpingBreakers", PumpingBreakerCount.From),
                CodeSecretRotation = CodeSecretRotation.From(o.Obj("codeSecretRotation")),
            };
        }
    }

    /// <summary>
    /// One message of the outbox (GET /v1/admin/outbox): Status is its request's state now; Code is set
    /// for a test-mode request that is pending.
    /// </summary>
    public sealed class OutboxMessage
    {
        public string Id { get; set; }
        public string AccountId { get; set; }
        public string RequestId { get; set; }
        /// <summary>Shared by both requests of a dual send (a single send's is its RequestId).</summary>
        public string GroupId { get; set; }
        /// <summary>The other request of a dual send; null for a single send.</summary>
        public string SiblingRequestId { get; set; }
        public VerificationStatus Status { get; set; }
        /// <summary>When its request was verified; null unless it is.</summary>
        public DateTimeOffset? VerifiedAt { get; set; }
        /// <summary>How its request was verified; null unless it is.</summary>
        public VerificationMethod? Method { get; set; }
        public Channel Channel { get; set; }
        public string To { get; set; }
        public string Subject { get; set; }
        public string Text { get; set; }
        public string Html { get; set; }
        public string Code { get; set; }
        public DateTimeOffset CreatedAt { get; set; }

        internal static OutboxMessage From(IDictionary<string, object> o) => o == null ? null : new OutboxMessage
        {
            Id = o.Str("id"),
            AccountId = o.Str("accountId"),
            RequestId = o.Str("requestId"),
            GroupId = o.Str("groupId"),
            SiblingRequestId = o.Str("siblingRequestId"),
            Status = o.Enum<VerificationStatus>("status"),
            VerifiedAt = o.Time("verifiedAt"),
            Method = o.Get("method") == null ? (VerificationMethod?)null : o.Enum<VerificationMethod>("method"),
            Channel = o.Enum<Channel>("channel"),
            To = o.Str("to"),
            Subject = o.Str("subject"),
            Text = o.Str("text"),
            Html = o.Str("html"),
            Code = o.Str("code"),
            CreatedAt = o.Time("createdAt") ?? default(DateTimeOffset),
        };
    }
}
