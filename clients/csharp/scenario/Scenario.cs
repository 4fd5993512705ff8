// Runs clients/scenario.json ($CV_SCENARIO) with this library against a running service (see clients/README.md).
using System;
using System.Collections.Generic;
using System.IO;
using System.Json;
using System.Linq;
using System.Net.Http;
using System.Collections;
using System.Globalization;
using System.Text.RegularExpressions;
using System.Threading.Tasks;
using ContactVerify;

public static class Scenario
{
    private static readonly Dictionary<string, string> Vars = new Dictionary<string, string>();

    public static int Main()
    {
        return RunAll().GetAwaiter().GetResult();
    }

    private static async Task<int> RunAll()
    {
        var scenario = JsonValue.Parse(File.ReadAllText(Env("CV_SCENARIO")));
        Vars["lang"] = "csharp";
        Vars["runId"] = Env("CV_RUN_ID");
        foreach (var pair in (JsonObject)scenario["vars"]) Vars[pair.Key] = (string)Expand(pair.Value);
        var clients = new Dictionary<string, ContactVerifyClient>
        {
            { "default", new ContactVerifyClient(Env("CV_BASE_URL"), Env("CV_API_KEY")) },
            { "badKey", new ContactVerifyClient(Env("CV_BASE_URL"), "cv_live_not_a_real_key_000000000000") },
            { "stub", new ContactVerifyClient(Env("CV_STUB_URL"), Env("CV_API_KEY")) },
            { "test", new ContactVerifyClient(Env("CV_BASE_URL"), Env("CV_TEST_API_KEY")) },
        };
        var steps = (JsonArray)scenario["steps"];
        var failed = 0;
        foreach (var step in steps)
        {
            try
            {
                await Run(step, clients, (string)scenario["codePattern"]);
                Console.WriteLine("ok   " + (string)step["name"]);
            }
            catch (Exception e)
            {
                failed++;
                Console.WriteLine("FAIL " + (string)step["name"] + ": " + e.Message);
            }
        }
        Console.WriteLine((steps.Count - failed) + " passed, " + failed + " failed");
        return failed == 0 ? 0 : 1;
    }

    private static string Env(string name) => Environment.GetEnvironmentVariable(name) ?? throw new Exception(name + " is not set");

    private static JsonValue Expand(JsonValue v)
    {
        if (v == null) return null;
        if (v.JsonType == JsonType.String)
            return new JsonPrimitive(Regex.Replace((string)v, @"\{(\w+)\}", m => Vars.TryGetValue(m.Groups[1].Value, out var s) ? s : m.Value));
        if (v is JsonArray a) return new JsonArray(a.Select(Expand));
        if (v is JsonObject o) return new JsonObject(o.Select(p => new KeyValuePair<string, JsonValue>(p.Key, Expand(p.Value))));
        return v;
    }

    private static string Mismatch(JsonValue expected, JsonValue actual, string at)
    {
        if (expected is JsonArray e)
        {
            if (!(actual is JsonArray a) || a.Count != e.Count) return at + ": expected a list of " + e.Count + ", got " + actual;
            for (var i = 0; i < e.Count; i++)
            {
                var m = Mismatch(e[i], a[i], at + "[" + i + "]");
                if (m != null) return m;
            }
            return null;
        }
        if (expected is JsonObject eo)
        {
            if (!(actual is JsonObject ao)) return at + ": expected an object, got " + actual;
            foreach (var p in eo)
            {
                var m = Mismatch(p.Value, ao.ContainsKey(p.Key) ? ao[p.Key] : null, at + "." + p.Key);
                if (m != null) return m;
            }
            return null;
        }
        return actual != null && expected.ToString() == actual.ToString() ? null : at + ": expected " + expected + ", got " + actual;
    }

    private static JsonValue Pick(JsonValue data, string path)
    {
        foreach (var key in Regex.Replace(path, @"\[(\d+)\]", ".$1").Split('.').Where(k => k.Length > 0))
            data = data == null ? null : data is JsonArray a ? a[int.Parse(key)] : data.ContainsKey(key) ? data[key] : null;
        return data;
    }

    /// <summary>A model as the service writes it: camelCase members, enums by their API value, times in ISO 8601.</summary>
    private static JsonValue AsJson(object value)
    {
        if (value == null) return null;
        if (value is string s) return new JsonPrimitive(s);
        if (value is bool b) return new JsonPrimitive(b);
        if (value is int i) return new JsonPrimitive(i);
        if (value is long l) return new JsonPrimitive(l);
        if (value is Enum e) return new JsonPrimitive(WireValue.Of(e));
        if (value is DateTimeOffset t) return new JsonPrimitive(t.ToString("o", CultureInfo.InvariantCulture));
        if (value is IDictionary d)
        {
            var o = new JsonObject();
            foreach (DictionaryEntry pair in d) o[pair.Key is Enum k ? WireValue.Of(k) : pair.Key.ToString()] = AsJson(pair.Value);
            return o;
        }
        if (value is IEnumerable items) return new JsonArray(items.Cast<object>().Select(AsJson));
        var json = new JsonObject();
        foreach (var p in value.GetType().GetProperties())
        {
            var v = p.GetValue(value);
            if (v != null) json[char.ToLowerInvariant(p.Name[0]) + p.Name.Substring(1)] = AsJson(v);
        }
        return json;
    }

    private static T? EnumArg<T>(JsonValue args, string name) where T : struct
    {
        if (!args.ContainsKey(name)) return null;
        var value = WireValue.Parse<T>((string)args[name]);
        if (Convert.ToInt32(value) == 0) throw new Exception(name + " " + args[name] + " is not a value of " + typeof(T).Name);
        return value;
    }

    private static string Text(JsonValue args, string name) => args.ContainsKey(name) ? (string)args[name] : null;

    private static async Task Run(JsonValue step, Dictionary<string, ContactVerifyClient> clients, string pattern)
    {
        var client = clients[step.ContainsKey("client") ? (string)step["client"] : "default"];
        var args = Expand(step.ContainsKey("args") ? step["args"] : new JsonObject());
        var expect = step.ContainsKey("expect") ? step["expect"] : new JsonObject();
        if (step.ContainsKey("retries")) client = client.WithMaxRetries((int)step["retries"]);
        JsonValue answer;
        try
        {
            switch ((string)step["op"])
            {
                case "health":
                    answer = AsJson(await client.HealthAsync());
                    break;
                case "sendCode":
                    var request = new SendCodeRequest
                    {
                        Channel = EnumArg<Channel>(args, "channel"), Email = Text(args, "email"), Phone = Text(args, "phone"),
                        Country = Text(args, "country"), DeliveryType = EnumArg<DeliveryType>(args, "deliveryType"),
                        Purpose = Text(args, "purpose"), CustomMessage = Text(args, "customMessage"),
                        Locale = Text(args, "locale"), IdempotencyKey = Text(args, "idempotencyKey"),
                        Link = args.ContainsKey("link") ? new SendLink { RedirectUrl = Text(args["link"], "redirectUrl") } : null,
                        Fallback = EnumArg<Channel>(args, "fallback"),
                    };
                    if (args.ContainsKey("channels"))
                    {
                        request.Channels = ((JsonArray)args["channels"]).Select(c => WireValue.Parse<Channel>((string)c)).ToList();
                        answer = AsJson(await client.SendCodeDualAsync(request));
                    }
                    else answer = AsJson(await client.SendCodeAsync(request));
                    break;
                case "verifyCode":
                    answer = AsJson(args.ContainsKey("otpCode")
                        ? await client.VerifyCodeAsync(Text(args, "requestId"), Text(args, "otpCode"))
                        : await client.VerifyCodeAsync(Text(args, "requestId")));
                    break;
                case "getVerification":
                    answer = AsJson(await client.GetVerificationAsync(Text(args, "requestId")));
                    break;
                case "cancelVerification":
                    answer = AsJson(await client.CancelVerificationAsync(Text(args, "requestId")));
                    break;
                case "latestOutboxCode":
                    var code = await new TestOutbox(Env("CV_BASE_URL"), Env("CV_ADMIN_TOKEN")).LatestOutboxCodeAsync(Text(args, "to"));
                    answer = new JsonObject(new KeyValuePair<string, JsonValue>("code", code));
                    break;
                case "outboxCode":
                    answer = await OutboxCode(Text(args, "to"), pattern);
                    break;
                default:
                    throw new Exception("unknown op " + step["op"]);
            }
        }
        catch (ContactVerifyException e)
        {
            if (!expect.ContainsKey("error")) throw;
            var want = expect["error"];
            if (e.Status != (int)want["status"] || e.Code != (string)want["code"])
                throw new Exception("expected " + want["status"] + " " + want["code"] + ", got " + e.Status + " " + e.Code);
            if (want.ContainsKey("retryAfterAtLeast") && (e.RetryAfter ?? TimeSpan.Zero).TotalSeconds < (int)want["retryAfterAtLeast"])
                throw new Exception("expected RetryAfter >= " + want["retryAfterAtLeast"]);
            return;
        }
        if (expect.ContainsKey("error")) throw new Exception("expected " + expect["error"]["code"] + ", got an answer");
        if (expect.ContainsKey("ok"))
        {
            var m = Mismatch(Expand(expect["ok"]), answer, "data");
            if (m != null) throw new Exception(m);
        }
        if (expect.ContainsKey("present"))
            foreach (var path in (JsonArray)expect["present"])
                if (Pick(answer, (string)path) == null) throw new Exception("data." + (string)path + " is missing");
        if (step.ContainsKey("save"))
            foreach (var p in (JsonObject)step["save"]) Vars[p.Key] = (string)Pick(answer, (string)p.Value);
    }

    private static async Task<JsonValue> OutboxCode(string to, string pattern)
    {
        using (var http = new HttpClient())
        {
            http.DefaultRequestHeaders.TryAddWithoutValidation("Authorization", "Bearer " + Env("CV_ADMIN_TOKEN"));
            var items = (JsonArray)JsonValue.Parse(await http.GetStringAsync(Env("CV_BASE_URL") + "/v1/admin/outbox?to=" + Uri.EscapeDataString(to)))["data"];
            var match = Regex.Match(items.Count > 0 ? (string)items[0]["text"] : "", pattern);
            if (!match.Success) throw new Exception("no code in the outbox for " + to);
            return new JsonObject(new KeyValuePair<string, JsonValue>("code", match.Groups[1].Value));
        }
    }
}
