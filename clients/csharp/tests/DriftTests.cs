// The models are written by hand and held to the service's OpenAPI document here: a field, an enum
// value or an error code the document adds (or drops) fails these tests until the library follows.
// The document is $CV_OPENAPI, by default the repository's clients/openapi.json.
using System;
using System.Collections.Generic;
using System.IO;
using System.Json;
using System.Linq;
using System.Reflection;
using System.Runtime.Serialization;
using ContactVerify;

public sealed class DriftTests
{
    private static readonly JsonObject Schemas = (JsonObject)JsonValue.Parse(
        File.ReadAllText(Environment.GetEnvironmentVariable("CV_OPENAPI") ?? "../openapi.json"))["components"]["schemas"];

    /// <summary>Each model and the document's schema it mirrors.</summary>
    private static readonly Dictionary<string, Type> Models = new Dictionary<string, Type>
    {
        { "SendCodeEntry", typeof(SendEntry) }, { "SendCodeEntryError", typeof(EntryError) }, { "Risk", typeof(Risk) },
        { "RiskSignal", typeof(RiskSignal) }, { "VerifyCodeResult", typeof(VerifyResult) }, { "ErrorDetail", typeof(ErrorDetail) },
        { "Health", typeof(Health) }, { "ChannelHealth", typeof(ChannelHealth) }, { "ProviderHealth", typeof(ProviderHealth) },
        { "PumpingBreakerCount", typeof(PumpingBreakerCount) }, { "InstancesHealth", typeof(InstancesHealth) },
        { "CodeSecretRotation", typeof(CodeSecretRotation) }, { "OutboxMessage", typeof(OutboxMessage) },
        { "Verification", typeof(Verification) }, { "VerificationDelivery", typeof(VerificationDelivery) },
        { "SendLink", typeof(SendLink) }, { "SilentFallback", typeof(SilentFallback) },
    };

    /// <summary>Each enum and the document's schema it mirrors.</summary>
    private static readonly Dictionary<string, Type> Enums = new Dictionary<string, Type>
    {
        { "Channel", typeof(Channel) }, { "DeliveryType", typeof(DeliveryType) }, { "VerificationStatus", typeof(VerificationStatus) },
        { "SendCodeEntryStatus", typeof(EntryStatus) }, { "RiskLevel", typeof(RiskLevel) }, { "HealthStatus", typeof(HealthStatus) },
        { "ServiceState", typeof(ServiceState) }, { "ProviderState", typeof(ProviderState) }, { "LiveCodes", typeof(LiveCodes) },
        { "ErrorCode", typeof(ErrorCode) }, { "VerificationMethod", typeof(VerificationMethod) },
        { "DeliveryState", typeof(DeliveryState) }, { "FallbackReason", typeof(FallbackReason) },
    };

    /// <summary>Values of the library's own, not the service's.</summary>
    private static readonly HashSet<string> LibraryOnly = new HashSet<string> { "ErrorCode.NETWORK_ERROR" };
    /// <summary>Other names of phone the document accepts that SendCodeRequest does not offer, on purpose.</summary>
    private static readonly string[] SendAliases = { "whatsappNumber", "phoneNumber" };

    private readonly List<string> _problems = new List<string>();

    private static string Pascal(string name) => char.ToUpperInvariant(name[0]) + name.Substring(1);

    private static string Camel(string name) => char.ToLowerInvariant(name[0]) + name.Substring(1);

    private static IEnumerable<string> Properties(JsonValue schema) =>
        schema.ContainsKey("properties") ? ((JsonObject)schema["properties"]).Keys.OrderBy(k => k, StringComparer.Ordinal) : Enumerable.Empty<string>();

    private void CheckModel(string at, JsonValue schema, Type type, ICollection<string> skip = null, ICollection<string> extra = null)
    {
        var props = type.GetProperties(BindingFlags.Public | BindingFlags.Instance).ToDictionary(p => Camel(p.Name));
        foreach (var name in Properties(schema))
        {
            if (skip != null && skip.Contains(name)) continue;
            PropertyInfo p;
            if (!props.TryGetValue(name, out p)) _problems.Add(at + "." + name + " is in the document but " + type.Name + " has no " + Pascal(name));
            else CheckType(at + "." + name, schema["properties"][name], p.PropertyType);
        }
        foreach (var name in props.Keys.OrderBy(k => k, StringComparer.Ordinal))
            if (!schema["properties"].ContainsKey(name) && (extra == null || !extra.Contains(name)))
                _problems.Add(at + "." + name + " (" + type.Name + "." + Pascal(name) + ") is not in the document");
    }

    private static Type GenericArgument(Type type, Type definition, int index)
    {
        var match = new[] { type }.Concat(type.GetInterfaces()).FirstOrDefault(t => t.IsGenericType && t.GetGenericTypeDefinition() == definition);
        return match == null ? null : match.GetGenericArguments()[index];
    }

    private void CheckType(string at, JsonValue schema, Type type)
    {
        type = Nullable.GetUnderlyingType(type) ?? type;
        if (schema.ContainsKey("$ref"))
        {
            var name = ((string)schema["$ref"]).Replace("#/components/schemas/", "");
            var target = Schemas[name];
            Type expected;
            if (target.ContainsKey("enum") && (!Enums.TryGetValue(name, out expected) || expected != type))
                _problems.Add(at + " is the enum " + name + " in the document, " + type.Name + " in the library");
            else if (target.ContainsKey("properties") && (!Models.TryGetValue(name, out expected) || expected != type))
                _problems.Add(at + " is the schema " + name + " in the document, " + type.Name + " in the library");
        }
        else if (schema.ContainsKey("format") && (string)schema["format"] == "date-time" && type != typeof(DateTimeOffset))
            _problems.Add(at + " is a date-time in the document, " + type.Name + " in the library");
        else if (schema.ContainsKey("items"))
        {
            var item = GenericArgument(type, typeof(IReadOnlyList<>), 0);
            if (item == null) _problems.Add(at + " is an array in the document, " + type.Name + " in the library");
            else CheckType(at + "[]", schema["items"], item);
        }
        else if (schema.ContainsKey("additionalProperties") && schema["additionalProperties"].JsonType == JsonType.Object)
        {
            var value = GenericArgument(type, typeof(IReadOnlyDictionary<,>), 1);
            if (value == null) _problems.Add(at + " is a map in the document, " + type.Name + " in the library");
            else CheckType(at + "{}", schema["additionalProperties"], value);
        }
        else if (schema.ContainsKey("properties"))
            CheckModel(at, schema, type);
    }

    private void NoProblems()
    {
        if (_problems.Count > 0) throw new AssertionException(_problems.Count + " difference(s) with the document:\n  " + string.Join("\n  ", _problems));
    }

    [Test]
    public void TheModelsMatchTheDocument()
    {
        foreach (var m in Models)
        {
            if (!Schemas.ContainsKey(m.Key)) _problems.Add("the document has no schema " + m.Key);
            else CheckModel(m.Key, Schemas[m.Key], m.Value);
        }
        NoProblems();
    }

    [Test]
    public void TheEnumsAndErrorCodesMatchTheDocument()
    {
        foreach (var e in Enums)
        {
            var doc = new SortedSet<string>(((JsonArray)Schemas[e.Key]["enum"]).Select(v => (string)v), StringComparer.Ordinal);
            var lib = new SortedSet<string>(StringComparer.Ordinal);
            foreach (var field in e.Value.GetFields(BindingFlags.Public | BindingFlags.Static))
            {
                var wire = field.GetCustomAttribute<EnumMemberAttribute>();
                if (wire != null && !LibraryOnly.Contains(e.Key + "." + wire.Value)) lib.Add(wire.Value);
            }
            foreach (var v in doc.Except(lib)) _problems.Add(e.Key + " \"" + v + "\" is in the document but not in " + e.Value.Name);
            foreach (var v in lib.Except(doc)) _problems.Add(e.Value.Name + " \"" + v + "\" is not in the document (" + e.Key + ")");
        }
        NoProblems();
    }

    [Test]
    public void SendCodeRequestOffersEveryMemberOfTheRequest()
    {
        var schema = Schemas["SendCodeRequest"];
        foreach (var alias in SendAliases)
            if (!schema["properties"].ContainsKey(alias)) _problems.Add("the alias " + alias + " is no longer in the document: drop it from the test");
        CheckModel("SendCodeRequest", schema, typeof(SendCodeRequest), SendAliases, new[] { "idempotencyKey" });
        foreach (var name in Properties(schema).Except(SendAliases))
        {
            if (name == "channel" || name == "channels") continue;
            if (typeof(SendCodeRequest).GetMethod("With" + Pascal(name)) == null) _problems.Add("SendCodeRequest has no With" + Pascal(name) + "(...)");
        }
        NoProblems();
    }

    [Test]
    public void TheExceptionCarriesEveryMemberOfApiError()
    {
        var schema = Schemas["ApiError"];
        foreach (var name in Properties(schema))
        {
            var p = typeof(ContactVerifyException).GetProperty(Pascal(name));
            if (p == null) _problems.Add("ApiError." + name + " is in the document but ContactVerifyException has no " + Pascal(name));
            else if (name == "details") CheckType("ApiError.details", schema["properties"][name], p.PropertyType);
        }
        NoProblems();
    }
}
