using System;
using System.Collections.Generic;
using System.Json;
using System.Linq;
using System.Net.Http;
using System.Threading;
using System.Threading.Tasks;
using ContactVerify;

public sealed class ClientTests : IDisposable
{
    private const string Entry = "{\"data\":{\"requestId\":\"0190a7c2-0000-7000-8000-000000000001\",\"channel\":\"EMAIL\","
        + "\"status\":\"pending\",\"expiresAt\":\"2030-01-01T00:10:00.000Z\",\"to\":\"j***@example.com\","
        + "\"risk\":{\"score\":12,\"level\":\"low\",\"signals\":[{\"name\":\"number_type\",\"weight\":12,\"detail\":\"mobile\"}]}}}";
    private static readonly Dictionary<string, string> RetryNow = new Dictionary<string, string> { { "Retry-After", "0" } };
    private readonly ScriptedServer _server = new ScriptedServer();
    private readonly ContactVerifyClient _cv;

    public ClientTests() { _cv = new ContactVerifyClient(_server.Url, "cv_live_key"); }

    public void Dispose() { _cv.Dispose(); _server.Dispose(); }

    private JsonObject Body(int i) => (JsonObject)JsonValue.Parse(_server[i].Body);

    private static string Members(JsonObject o) => string.Join(",", o.OrderBy(p => p.Key).Select(p => p.Key + "=" + (string)p.Value));

    [Test]
    public async Task SendsEveryOptionOfTheBuilderAndReadsTypedFields()
    {
        _server.Answer(200, Entry);
        var sent = await _cv.SendCodeAsync(SendCodeRequest.ByEmail("jane@example.com").WithPurpose("sign-in")
            .WithCustomMessage("Welcome back").WithLocale("es-MX").WithIdempotencyKey("order-42"));
        Assert.Equal("channel=EMAIL,customMessage=Welcome back,email=jane@example.com,locale=es-MX,purpose=sign-in", Members(Body(0)), "body");
        Assert.Equal("POST", _server[0].Method);
        Assert.Equal("/v1/contact/send-code", _server[0].PathAndQuery);
        Assert.Equal("order-42", _server[0].Headers["Idempotency-Key"]);
        Assert.Equal("Bearer cv_live_key", _server[0].Headers["Authorization"]);
        Assert.Equal(Channel.Email, sent.Channel);
        Assert.Equal(EntryStatus.Pending, sent.Status);
        Assert.Equal(new DateTimeOffset(2030, 1, 1, 0, 10, 0, TimeSpan.Zero), sent.ExpiresAt);
        Assert.Equal(RiskLevel.Low, sent.Risk.Level);
        Assert.Equal(12, sent.Risk.Signals[0].Weight);
        Assert.Equal(null, sent.DeliveryType);
    }

    [Test]
    public async Task AnObjectInitializerCarriesDeliveryTypeAndCountry()
    {
        _server.Answer(200, Entry).Answer(200, Entry);
        await _cv.SendCodeAsync(new SendCodeRequest { Channel = Channel.Sms, Phone = "0612345678", Country = "FR", DeliveryType = DeliveryType.Call });
        await _cv.SendCodeAsync(SendCodeRequest.ByWhatsApp("+33612345678").WithPurpose("sign-up"));
        Assert.Equal("channel=SMS,country=FR,deliveryType=CALL,phone=0612345678", Members(Body(0)), "SMS body");
        Assert.Equal("channel=WHATSAPP,phone=+33612345678,purpose=sign-up", Members(Body(1)), "WhatsApp body");
        Assert.True(_server[0].Headers["Idempotency-Key"] != _server[1].Headers["Idempotency-Key"], "each send has its own random key");
    }

    [Test]
    public async Task ADualSendAnswersOneEntryPerChannel()
    {
        _server.Answer(200, "{\"data\":[{\"requestId\":\"a\",\"channel\":\"EMAIL\",\"status\":\"pending\",\"expiresAt\":\"2030-01-01T00:10:00Z\",\"to\":\"x\"},"
            + "{\"requestId\":\"b\",\"channel\":\"SMS\",\"status\":\"undelivered\",\"expiresAt\":\"2030-01-01T00:10:00Z\",\"to\":\"y\",\"deliveryType\":\"TEXT\","
            + "\"error\":{\"code\":\"DELIVERY_FAILED\",\"message\":\"no route\"}}]}");
        var both = await _cv.SendCodeDualAsync(SendCodeRequest.Dual(Channel.Email, Channel.Sms).WithEmail("j@example.com").WithPhone("+33612345678"));
        Assert.Equal("[\"EMAIL\", \"SMS\"]", Body(0)["channels"].ToString(), "channels");
        Assert.Equal(Channel.Sms, both[1].Channel);
        Assert.Equal(EntryStatus.Undelivered, both[1].Status);
        Assert.Equal(DeliveryType.Text, both[1].DeliveryType);
        Assert.Equal("DELIVERY_FAILED", both[1].Error.Code);
        Assert.Throws<ArgumentException>(() => _cv.SendCodeAsync(SendCodeRequest.Dual(Channel.Email, Channel.Sms)));
        Assert.Throws<ArgumentException>(() => _cv.SendCodeDualAsync(SendCodeRequest.ByEmail("j@example.com")));
        Assert.Throws<ArgumentException>(() => Task.FromResult(SendCodeRequest.Dual(Channel.Sms, Channel.Sms)));
    }

    [Test]
    public async Task AWrongCodeIsAnAnswerNotAnException()
    {
        _server.Answer(200, "{\"data\":{\"verified\":false,\"channel\":\"EMAIL\",\"requestId\":\"r\",\"status\":\"pending\",\"attemptsRemaining\":4}}");
        var result = await _cv.VerifyCodeAsync("r", "000000");
        Assert.Equal(false, result.Verified);
        Assert.Equal(VerificationStatus.Pending, result.Status);
        Assert.Equal(4, result.AttemptsRemaining);
        Assert.Equal("otpCode=000000,requestId=r", Members(Body(0)), "body");
    }

    private const string VerificationJson = "{\"data\":{\"requestId\":\"0190a7c2-0000-7000-8000-000000000001\",\"channel\":\"EMAIL\","
        + "\"status\":\"verified\",\"to\":\"j***@example.com\",\"createdAt\":\"2030-01-01T00:00:00.000Z\","
        + "\"expiresAt\":\"2030-01-01T00:10:00.000Z\",\"attemptsRemaining\":4,\"verifiedAt\":\"2030-01-01T00:01:12.000Z\","
        + "\"method\":\"link\",\"siblingRequestId\":\"0190a7c2-0000-7000-8000-000000000002\","
        + "\"delivery\":{\"status\":\"delivered\",\"provider\":\"smtp\",\"updatedAt\":\"2030-01-01T00:00:02.000Z\"}}}";

    [Test]
    public async Task GetVerificationReadsEveryFieldOfTheResource()
    {
        _server.Answer(200, VerificationJson);
        var v = await _cv.GetVerificationAsync("0190a7c2-0000-7000-8000-000000000001");
        Assert.Equal("GET", _server[0].Method);
        Assert.Equal("/v1/contact/verifications/0190a7c2-0000-7000-8000-000000000001", _server[0].PathAndQuery);
        Assert.Equal("Bearer cv_live_key", _server[0].Headers["Authorization"]);
        Assert.Equal("", _server[0].Body, "no body");
        Assert.Equal(Channel.Email, v.Channel);
        Assert.Equal(VerificationStatus.Verified, v.Status);
        Assert.Equal("j***@example.com", v.To);
        Assert.Equal(new DateTimeOffset(2030, 1, 1, 0, 0, 0, TimeSpan.Zero), v.CreatedAt);
        Assert.Equal(new DateTimeOffset(2030, 1, 1, 0, 10, 0, TimeSpan.Zero), v.ExpiresAt);
        Assert.Equal(4, v.AttemptsRemaining);
        Assert.Equal(null, v.DeliveryType);
        Assert.Equal(new DateTimeOffset(2030, 1, 1, 0, 1, 12, TimeSpan.Zero), v.VerifiedAt);
        Assert.Equal(VerificationMethod.Link, v.Method);
        Assert.Equal("0190a7c2-0000-7000-8000-000000000002", v.SiblingRequestId);
        Assert.Equal(DeliveryState.Delivered, v.Delivery.Status);
        Assert.Equal("smtp", v.Delivery.Provider);
        Assert.Equal(new DateTimeOffset(2030, 1, 1, 0, 0, 2, TimeSpan.Zero), v.Delivery.UpdatedAt);
        Assert.Equal(null, v.Fallback);
    }

    [Test]
    public async Task ASilentRequestsFallbackOnTheResource()
    {
        _server.Answer(200, VerificationJson.Replace("\"channel\":\"EMAIL\"", "\"channel\":\"SILENT\"")
            .Replace("\"delivery\":", "\"fallback\":{\"channel\":\"SMS\",\"state\":\"fired\",\"reason\":\"timeout\",\"requestId\":\"f\"},\"delivery\":"));
        var fallback = (await _cv.GetVerificationAsync("s")).Fallback;
        Assert.Equal(Channel.Sms, fallback.Channel);
        Assert.Equal(FallbackState.Fired, fallback.State);
        Assert.Equal(FallbackReason.Timeout, fallback.Reason);
        Assert.Equal("f", fallback.RequestId);
    }

    [Test]
    public async Task AMethodOrDeliveryStateNewerThanTheLibraryReadsAsUnknown()
    {
        _server.Answer(200, VerificationJson.Replace("\"link\"", "\"passkey\"").Replace("\"delivered\"", "\"read\""));
        var v = await _cv.GetVerificationAsync("r");
        Assert.Equal(VerificationMethod.Unknown, v.Method);
        Assert.Equal(DeliveryState.Unknown, v.Delivery.Status);
        Assert.Equal(VerificationStatus.Verified, v.Status);
    }

    [Test]
    public async Task CancelVerificationPostsToItsCancelPath()
    {
        _server.Answer(200, VerificationJson.Replace("\"verified\"", "\"canceled\"")
            .Replace(",\"verifiedAt\":\"2030-01-01T00:01:12.000Z\",\"method\":\"link\"", "").Replace("\"delivered\",\"provider\":\"smtp\"", "\"queued\""));
        var v = await _cv.CancelVerificationAsync("0190a7c2-0000-7000-8000-000000000001");
        Assert.Equal("POST", _server[0].Method);
        Assert.Equal("/v1/contact/verifications/0190a7c2-0000-7000-8000-000000000001/cancel", _server[0].PathAndQuery);
        Assert.Equal(VerificationStatus.Canceled, v.Status);
        Assert.Equal(null, v.Method);
        Assert.Equal(null, v.VerifiedAt);
        Assert.Equal(DeliveryState.Queued, v.Delivery.Status);
        Assert.Equal(null, v.Delivery.Provider);
    }

    [Test]
    public void AnIdIsOnePathSegmentAndAnUnknownOneIsATypedNotFound()
    {
        _server.Answer(404, "{\"error\":{\"code\":\"NOT_FOUND\",\"message\":\"no such request\"}}");
        var e = Assert.Throws<ContactVerifyException>(() => _cv.GetVerificationAsync("../admin/outbox?x=1 2"));
        Assert.Equal("/v1/contact/verifications/..%2Fadmin%2Foutbox%3Fx%3D1%202", _server[0].PathAndQuery);
        Assert.Equal(404, e.Status);
        Assert.Equal(ErrorCode.NotFound, e.ErrorCode);
        Assert.Equal(1, _server.Count, "a 404 is not retried");
        Assert.Throws<ArgumentException>(() => _cv.CancelVerificationAsync(""));
    }

    [Test]
    public async Task TheLinkOptionWithAndWithoutARedirect()
    {
        _server.Answer(200, Entry).Answer(200, Entry).Answer(200, "{\"data\":[]}");
        await _cv.SendCodeAsync(SendCodeRequest.ByEmail("j@example.com").WithLink(new SendLink()));
        await _cv.SendCodeAsync(new SendCodeRequest { Channel = Channel.Email, Email = "j@example.com", Link = new SendLink { RedirectUrl = "https://app.example.com/welcome" } });
        await _cv.SendCodeDualAsync(SendCodeRequest.Dual(Channel.Email, Channel.Sms).WithEmail("j@example.com").WithPhone("+33612345678").WithLink(new SendLink()));
        Assert.Equal("{\"channel\":\"EMAIL\",\"email\":\"j@example.com\",\"link\":{}}", _server[0].Body);
        Assert.Equal("{\"channel\":\"EMAIL\",\"email\":\"j@example.com\",\"link\":{\"redirectUrl\":\"https://app.example.com/welcome\"}}", _server[1].Body);
        Assert.Equal("{}", Body(2)["link"].ToString());
    }

    [Test]
    public async Task ASilentSendWithAFallbackAndItsChecks()
    {
        _server.Answer(200, "{\"data\":{\"requestId\":\"s\",\"channel\":\"SILENT\",\"status\":\"pending\",\"expiresAt\":\"2030-01-01T00:10:00Z\","
            + "\"to\":\"+1******2671\",\"silent\":{\"url\":\"https://silent.test.invalid/check/s\"}}}");
        var entry = await _cv.SendCodeAsync(SendCodeRequest.BySilent("+14155552671").WithFallback(Channel.Sms));
        Assert.Equal("channel=SILENT,fallback=SMS,phone=+14155552671", Members(Body(0)), "body");
        Assert.Equal(Channel.Silent, entry.Channel);
        Assert.Equal("https://silent.test.invalid/check/s", entry.Silent.Url);
        Assert.Equal(null, entry.Fallback);

        _server.Answer(200, "{\"data\":{\"verified\":false,\"channel\":\"SILENT\",\"requestId\":\"s\",\"status\":\"pending\",\"attemptsRemaining\":4,"
            + "\"silent\":{\"outcome\":\"rejected\",\"reason\":\"another SIM\"},"
            + "\"fallback\":{\"requestId\":\"f\",\"channel\":\"SMS\",\"status\":\"pending\",\"reason\":\"rejected\",\"expiresAt\":\"2030-01-01T00:10:00Z\"}}}");
        var check = await _cv.VerifyCodeAsync("s");
        Assert.Equal("requestId=s", Members(Body(1)), "no code at all");
        Assert.Equal(SilentOutcome.Rejected, check.Silent.Outcome);
        Assert.Equal("another SIM", check.Silent.Reason);
        Assert.Equal("f", check.Fallback.RequestId);
        Assert.Equal(Channel.Sms, check.Fallback.Channel);
        Assert.Equal(FallbackReason.Rejected, check.Fallback.Reason);
        Assert.Equal(EntryStatus.Pending, check.Fallback.Status);

        _server.Answer(200, "{\"data\":{\"verified\":true,\"channel\":\"SILENT\",\"requestId\":\"s\",\"status\":\"verified\",\"attemptsRemaining\":4,\"silent\":{\"outcome\":\"verified\"}}}");
        Assert.Equal(true, (await _cv.VerifyCodeAsync("s", "Ab3_x-9Z")).Verified);
        Assert.Equal("code=Ab3_x-9Z,requestId=s", Members(Body(2)), "a device code of letters goes as code, the document's name for it");
        Assert.Throws<ArgumentNullException>(() => _cv.VerifyCodeAsync("s", (string)null));
    }

    [Test]
    public void ErrorsAreTypedWithDetailsAndRetryAfter()
    {
        _server.Answer(400, "{\"error\":{\"code\":\"VALIDATION_ERROR\",\"message\":\"bad\",\"details\":[{\"field\":\"email\",\"message\":\"not an email\",\"channel\":\"EMAIL\"}]}}");
        var e = Assert.Throws<ContactVerifyException>(() => _cv.SendCodeAsync(SendCodeRequest.ByEmail("nope")));
        Assert.Equal(400, e.Status);
        Assert.Equal(ErrorCode.ValidationError, e.ErrorCode);
        Assert.Equal("bad", e.Message);
        Assert.Equal(Channel.Email, e.Details[0].Channel);
        Assert.Equal("email", e.Details[0].Field);
        Assert.Equal(null, e.RetryAfter);

        _server.Answer(429, "{\"error\":{\"code\":\"RATE_LIMITED\",\"message\":\"cooldown\"}}", new Dictionary<string, string> { { "Retry-After", "27" } });
        e = Assert.Throws<ContactVerifyException>(() => _cv.SendCodeAsync(SendCodeRequest.ByEmail("j@example.com")));
        Assert.Equal(TimeSpan.FromSeconds(27), e.RetryAfter);
        Assert.Equal(2, _server.Count, "a Retry-After over 10 s is raised at once, not waited for");

        _server.Answer(409, "{\"error\":{\"code\":\"SOMETHING_NEW\",\"message\":\"from a newer service\"}}");
        e = Assert.Throws<ContactVerifyException>(() => _cv.VerifyCodeAsync("r", "1"));
        Assert.Equal("SOMETHING_NEW", e.Code);
        Assert.Equal(ErrorCode.Unknown, e.ErrorCode);
    }

    [Test]
    public async Task A503IsRetriedWithTheSameIdempotencyKey()
    {
        _server.Answer(503, "", RetryNow).Answer(200, Entry);
        await _cv.SendCodeAsync(SendCodeRequest.ByEmail("j@example.com"));
        Assert.Equal(2, _server.Count);
        var key = _server[0].Headers["Idempotency-Key"];
        Assert.True(System.Text.RegularExpressions.Regex.IsMatch(key, "^[0-9a-f]{8}(-[0-9a-f]{4}){3}-[0-9a-f]{12}$"), key);
        Assert.Equal(key, _server[1].Headers["Idempotency-Key"]);
    }

    [Test]
    public void RetriesStopAtTheLimitAndNeverRetryTooManyAttempts()
    {
        for (var i = 0; i < 3; i++) _server.Answer(503, "{\"error\":{\"code\":\"UNAVAILABLE\",\"message\":\"down\"}}", RetryNow);
        var e = Assert.Throws<ContactVerifyException>(() => _cv.HealthAsync());
        Assert.Equal(503, e.Status);
        Assert.Equal(3, _server.Count, "the first try and two retries");

        _server.Answer(429, "{\"error\":{\"code\":\"TOO_MANY_ATTEMPTS\",\"message\":\"used up\"}}", new Dictionary<string, string> { { "Retry-After", "1" } });
        e = Assert.Throws<ContactVerifyException>(() => _cv.VerifyCodeAsync("r", "1"));
        Assert.Equal(ErrorCode.TooManyAttempts, e.ErrorCode);
        Assert.Equal(4, _server.Count);

        _server.Answer(503, "", RetryNow);
        Assert.Throws<ContactVerifyException>(() => _cv.WithMaxRetries(0).HealthAsync());
        Assert.Equal(5, _server.Count, "WithMaxRetries(0) does not retry");
    }

    [Test]
    public async Task AShortRateLimitIsWaitedForAndRetried()
    {
        _server.Answer(429, "{\"error\":{\"code\":\"RATE_LIMITED\",\"message\":\"per second\"}}", new Dictionary<string, string> { { "Retry-After", "1" } }).Answer(200, Entry);
        Assert.Equal(Channel.Email, (await _cv.SendCodeAsync(SendCodeRequest.ByEmail("j@example.com"))).Channel);
        Assert.Equal(2, _server.Count);
    }

    [Test]
    public void NoAnswerIsANetworkError()
    {
        var url = _server.Url;
        _server.Dispose();
        var e = Assert.Throws<ContactVerifyException>(() => new ContactVerifyClient(url, "k").WithMaxRetries(0).HealthAsync());
        Assert.Equal(0, e.Status);
        Assert.Equal(ErrorCode.NetworkError, e.ErrorCode);
    }

    [Test]
    public void ACanceledCallIsCanceledNotANetworkError()
    {
        var canceled = new CancellationTokenSource();
        canceled.Cancel();
        Assert.Throws<OperationCanceledException>(() => _cv.HealthAsync(canceled.Token));
    }

    private sealed class CountingHandler : DelegatingHandler
    {
        public int Calls;
        public CountingHandler() : base(new HttpClientHandler()) { }

        protected override Task<HttpResponseMessage> SendAsync(HttpRequestMessage request, CancellationToken cancel)
        {
            Interlocked.Increment(ref Calls);
            return base.SendAsync(request, cancel);
        }
    }

    [Test]
    public async Task AnInjectedHttpClientCarriesTheCallsAndIsNotDisposed()
    {
        var handler = new CountingHandler();
        var http = new HttpClient(handler);
        _server.Answer(200, "{\"status\":\"ok\",\"version\":\"1.2.3\",\"uptimeSeconds\":5,"
            + "\"services\":{\"database\":\"up\",\"rateLimitStore\":\"up\"},"
            + "\"channels\":{\"EMAIL\":{\"operational\":true,\"providers\":[{\"name\":\"smtp\",\"state\":\"up\"}],\"liveCodes\":\"delivered\"},"
            + "\"WHATSAPP\":{\"operational\":true,\"providers\":[{\"name\":\"whatsapp-call\",\"state\":\"up\",\"detail\":\"calling ENABLED\"}]}},"
            + "\"lookups\":{\"name\":\"twilio\",\"state\":\"down\"}}");
        Health health;
        using (var cv = new ContactVerifyClient(_server.Url, "k", new ContactVerifyClientOptions { HttpClient = http }))
            health = await cv.HealthAsync();
        Assert.Equal(1, handler.Calls, "calls through the injected client");
        Assert.Equal(HealthStatus.Ok, health.Status);
        Assert.Equal(ServiceState.Up, health.Services.RateLimitStore);
        Assert.Equal(LiveCodes.Delivered, health.Channels[Channel.Email].LiveCodes);
        Assert.Equal(ProviderState.Up, health.Channels[Channel.Email].Providers[0].State);
        Assert.Equal(null, health.Channels[Channel.Email].Providers[0].Detail);
        Assert.Equal("calling ENABLED", health.Channels[Channel.WhatsApp].Providers[0].Detail);
        Assert.Equal("twilio", health.Lookups.Name);
        Assert.Equal(ProviderState.Down, health.Lookups.State);
        Assert.Equal(null, health.PumpingBreakers);
        Assert.Equal(null, health.CodeSecretRotation);
        _server.Answer(200, "{\"status\":\"degraded\",\"version\":\"1\",\"uptimeSeconds\":1,\"channels\":{}}");
        Assert.Equal("degraded", JsonValue.Parse(await http.GetStringAsync(_server.Url + "/health"))["status"].ToString().Trim('"'), "still usable after Dispose");
    }

    [Test]
    public async Task HealthReadsARotationOfTheCodeSecret()
    {
        _server.Answer(200, "{\"status\":\"ok\",\"version\":\"1.2.3\",\"uptimeSeconds\":5,\"channels\":{},"
            + "\"codeSecretRotation\":{\"previousSecrets\":1,\"since\":\"2030-01-01T00:00:00.000Z\",\"removableAfter\":\"2030-01-02T00:00:00.000Z\"}}");
        var rotation = (await _cv.HealthAsync()).CodeSecretRotation;
        Assert.Equal(1, rotation.PreviousSecrets);
        Assert.Equal(new DateTimeOffset(2030, 1, 1, 0, 0, 0, TimeSpan.Zero), rotation.Since);
        Assert.Equal(new DateTimeOffset(2030, 1, 2, 0, 0, 0, TimeSpan.Zero), rotation.RemovableAfter);
    }

    [Test]
    public async Task TheTestHelperReadsTheNewestCodeWithTheAdminToken()
    {
        var two = "{\"data\":[{\"id\":\"msg_2\",\"accountId\":\"acc\",\"requestId\":\"r2\",\"status\":\"pending\",\"channel\":\"EMAIL\",\"to\":\"j+1@example.com\",\"text\":\"Your code is 654321\",\"code\":\"654321\",\"createdAt\":\"2030-01-01T00:00:02Z\"},"
            + "{\"id\":\"msg_1\",\"accountId\":\"acc\",\"requestId\":\"r1\",\"status\":\"canceled\",\"channel\":\"EMAIL\",\"to\":\"j+1@example.com\",\"text\":\"Your code is 123456\",\"code\":\"123456\",\"createdAt\":\"2030-01-01T00:00:01Z\"}]}";
        _server.Answer(200, two).Answer(200, two);
        var outbox = new TestOutbox(_server.Url, "admin-token");
        Assert.Equal("654321", await outbox.LatestOutboxCodeAsync("j+1@example.com"));
        Assert.Equal("GET", _server[0].Method);
        Assert.Equal("/v1/admin/outbox?to=j%2B1%40example.com", _server[0].PathAndQuery);
        Assert.Equal("Bearer admin-token", _server[0].Headers["Authorization"]);
        var messages = await outbox.MessagesAsync("j+1@example.com");
        Assert.Equal(VerificationStatus.Canceled, messages[1].Status);
        Assert.Equal(new DateTimeOffset(2030, 1, 1, 0, 0, 1, TimeSpan.Zero), messages[1].CreatedAt);

        _server.Answer(200, "{\"data\":[]}");
        Assert.Throws<InvalidOperationException>(() => outbox.LatestOutboxCodeAsync("nobody@example.com"));
        _server.Answer(200, "{\"data\":[{\"id\":\"m\",\"channel\":\"SMS\",\"to\":\"+33612345678\",\"text\":\"live\",\"createdAt\":\"2030-01-01T00:00:01Z\"}]}");
        Assert.Throws<InvalidOperationException>(() => outbox.LatestOutboxCodeAsync("+33612345678"));
        _server.Answer(401, "{\"error\":{\"code\":\"UNAUTHORIZED\",\"message\":\"admin token\"}}");
        Assert.Equal(ErrorCode.Unauthorized, Assert.Throws<ContactVerifyException>(() => outbox.LatestOutboxCodeAsync("x")).ErrorCode);
    }
}
