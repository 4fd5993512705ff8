using System.Collections.Generic;
using System.Runtime.Serialization;

namespace ContactVerify
{
    /// <summary>The send-code body: Channel for one channel, Channels for two at once.</summary>
    [DataContract]
    public sealed class SendRequest
    {
        [DataMember(Name = "channel", EmitDefaultValue = false)] public string Channel { get; set; }
        [DataMember(Name = "channels", EmitDefaultValue = false)] public List<string> Channels { get; set; }
        [DataMember(Name = "email", EmitDefaultValue = false)] public string Email { get; set; }
        [DataMember(Name = "phone", EmitDefaultValue = false)] public string Phone { get; set; }
        [DataMember(Name = "country", EmitDefaultValue = false)] public string Country { get; set; }
        [DataMember(Name = "deliveryType", EmitDefaultValue = false)] public string DeliveryType { get; set; }
        [DataMember(Name = "purpose", EmitDefaultValue = false)] public string Purpose { get; set; }
        [DataMember(Name = "customMessage", EmitDefaultValue = false)] public string CustomMessage { get; set; }
        /// <summary>The recipient's BCP 47 language tag (es, pt-BR, de-AT); English when unsupported.</summary>
        [DataMember(Name = "locale", EmitDefaultValue = false)] public string Locale { get; set; }
    }

    [DataContract]
    public sealed class RiskSignal
    {
        [DataMember(Name = "name")] public string Name { get; set; }
        [DataMember(Name = "weight")] public double Weight { get; set; }
        [DataMember(Name = "detail")] public string Detail { get; set; }
    }

    [DataContract]
    public sealed class Risk
    {
        [DataMember(Name = "score")] public int Score { get; set; }
        [DataMember(Name = "level")] public string Level { get; set; }
        [DataMember(Name = "signals")] public List<RiskSignal> Signals { get; set; }
    }

    [DataContract]
    public sealed class EntryError
    {
        [DataMember(Name = "code")] public string Code { get; set; }
        [DataMember(Name = "message")] public string Message { get; set; }
    }

    /// <summary>One channel of a send: keep RequestId to verify the code.</summary>
    [DataContract]
    public sealed class SendEntry
    {
        [DataMember(Name = "requestId")] public string RequestId { get; set; }
        [DataMember(Name = "channel")] public string Channel { get; set; }
        [DataMember(Name = "status")] public string Status { get; set; }
        [DataMember(Name = "expiresAt")] public string ExpiresAt { get; set; }
        [DataMember(Name = "to")] public string To { get; set; }
        [DataMember(Name = "deliveryType", EmitDefaultValue = false)] public string DeliveryType { get; set; }
        [DataMember(Name = "error", EmitDefaultValue = false)] public EntryError Error { get; set; }
        [DataMember(Name = "risk", EmitDefaultValue = false)] public Risk Risk { get; set; }
    }

    /// <summary>A wrong code is Verified false, not an exception.</summary>
    [DataContract]
    public sealed class VerifyResult
    {
        [DataMember(Name = "verified")] public bool Verified { get; set; }
        [DataMember(Name = "channel")] public string Channel { get; set; }
        [DataMember(Name = "requestId")] public string RequestId { get; set; }
        [DataMember(Name = "status")] public string Status { get; set; }
        [DataMember(Name = "attemptsRemaining")] public int AttemptsRemaining { get; set; }
    }

    [DataContract]
    public sealed class Health
    {
        [DataMember(Name = "status")] public string Status { get; set; }
        [DataMember(Name = "version")] public string Version { get; set; }
        [DataMember(Name = "uptimeSeconds")] public double UptimeSeconds { get; set; }
    }

    [DataContract]
    public sealed class ErrorDetail
    {
        [DataMember(Name = "field")] public string Field { get; set; }
        [DataMember(Name = "message")] public string Message { get; set; }
        [DataMember(Name = "channel", EmitDefaultValue = false)] public string Channel { get; set; }
    }

    [DataContract]
    internal sealed class ErrorBody
    {
        [DataMember(Name = "error")] public ErrorFields Error { get; set; }
    }

    [DataContract]
    internal sealed class ErrorFields
    {
        [DataMember(Name = "code")] public string Code { get; set; }
        [DataMember(Name = "message")] public string Message { get; set; }
        [DataMember(Name = "details")] public List<ErrorDetail> Details { get; set; }
    }

    [DataContract]
    internal sealed class Envelope<T>
    {
        [DataMember(Name = "data")] public T Data { get; set; }
    }
}
