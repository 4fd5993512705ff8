package com.contactverify;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.contactverify.Models.CodeSecretRotation;
import com.contactverify.Models.Health;
import com.contactverify.Models.SendEntry;
import com.contactverify.Models.VerifyResult;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.net.http.HttpClient;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.NoSuchElementException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Executor;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

class ClientTest {
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final String ENTRY = "{\"data\":{\"requestId\":\"0190a7c2-0000-7000-8000-000000000001\",\"channel\":\"EMAIL\","
      + "\"status\":\"pending\",\"expiresAt\":\"2030-01-01T00:10:00.000Z\",\"to\":\"j***@example.com\","
      + "\"risk\":{\"score\":12,\"level\":\"low\",\"signals\":[{\"name\":\"number_type\",\"weight\":12,\"detail\":\"mobile\"}]}}}";
  private ScriptedServer server;
  private ContactVerifyClient cv;

  @BeforeEach
  void start() throws Exception {
    server = new ScriptedServer();
    cv = new ContactVerifyClient(server.url(), "cv_live_key");
  }

  @AfterEach
  void stop() { server.close(); }

  private JsonNode body(int i) throws Exception { return JSON.readTree(server.seen.get(i).body()); }

  @Test
  void sendsEveryOptionOfTheBuilderAndReadsTypedFields() throws Exception {
    server.answer(200, ENTRY);
    SendEntry sent = cv.sendCode(SendCode.email("jane@example.com").purpose("sign-in").customMessage("Welcome back")
        .locale("es-MX").idempotencyKey("order-42"));
    assertEquals(Map.of("channel", "EMAIL", "email", "jane@example.com", "purpose", "sign-in",
        "customMessage", "Welcome back", "locale", "es-MX"), JSON.convertValue(body(0), Map.class));
    ScriptedServer.Seen request = server.seen.get(0);
    assertEquals("POST", request.method());
    assertEquals("/v1/contact/send-code", request.pathAndQuery());
    assertEquals("order-42", request.header("Idempotency-Key"));
    assertEquals("Bearer cv_live_key", request.header("Authorization"));
    assertEquals(Channel.EMAIL, sent.channel());
    assertEquals(EntryStatus.PENDING, sent.status());
    assertEquals(Instant.parse("2030-01-01T00:10:00Z"), sent.expiresAt());
    assertEquals(RiskLevel.LOW, sent.risk().level());
    assertEquals(12, sent.risk().signals().get(0).weight());
  }

  @Test
  void smsAndWhatsappCarryDeliveryTypeAndCountry() throws Exception {
    server.answer(200, ENTRY).answer(200, ENTRY);
    cv.sendCode(SendCode.sms("0612345678").country("FR").deliveryType(DeliveryType.CALL));
    cv.sendCode(SendCode.whatsapp("+33612345678").purpose("sign-up"));
    assertEquals(Map.of("channel", "SMS", "phone", "0612345678", "country", "FR", "deliveryType", "CALL"),
        JSON.convertValue(body(0), Map.class));
    assertEquals(Map.of("channel", "WHATSAPP", "phone", "+33612345678", "purpose", "sign-up"),
        JSON.convertValue(body(1), Map.class));
    assertNotEquals(server.seen.get(0).header("Idempotency-Key"), server.seen.get(1).header("Idempotency-Key"),
        "each send has its own random key");
  }

  @Test
  void aDualSendAnswersOneEntryPerChannel() throws Exception {
    server.answer(200, "{\"data\":[{\"requestId\":\"a\",\"channel\":\"EMAIL\",\"status\":\"pending\",\"expiresAt\":\"2030-01-01T00:10:00Z\",\"to\":\"x\"},"
        + "{\"requestId\":\"b\",\"channel\":\"SMS\",\"status\":\"undelivered\",\"expiresAt\":\"2030-01-01T00:10:00Z\",\"to\":\"y\","
        + "\"error\":{\"code\":\"DELIVERY_FAILED\",\"message\":\"no route\"}}]}");
    List<SendEntry> both = cv.sendCodeDual(SendCode.dual(Channel.EMAIL, Channel.SMS).withEmail("j@example.com").withPhone("+33612345678"));
    assertEquals(List.of("EMAIL", "SMS"), JSON.convertValue(body(0).get("channels"), List.class));
    assertEquals(List.of(Channel.EMAIL, Channel.SMS), both.stream().map(SendEntry::channel).toList());
    assertEquals(EntryStatus.UNDELIVERED, both.get(1).status());
    assertEquals("DELIVERY_FAILED", both.get(1).error().code());
    assertThrows(IllegalArgumentException.class, () -> cv.sendCode(SendCode.dual(Channel.EMAIL, Channel.SMS)));
    assertThrows(IllegalArgumentException.class, () -> cv.sendCodeDual(SendCode.email("j@example.com")));
    assertThrows(IllegalArgumentException.class, () -> SendCode.dual(Channel.SMS, Channel.SMS));
  }

  @Test
  void theBuilderIsImmutable() {
    SendCode base = SendCode.email("j@example.com").purpose("sign-in");
    SendCode spanish = base.locale("es");
    assertFalse(base.body().containsKey("locale"));
    assertEquals("es", spanish.body().get("locale"));
  }

  @Test
  void aWrongCodeIsAnAnswerNotAnException() throws Exception {
    server.answer(200, "{\"data\":{\"verified\":false,\"channel\":\"EMAIL\",\"requestId\":\"r\",\"status\":\"pending\",\"attemptsRemaining\":4}}");
    VerifyResult result = cv.verifyCode("r", "000000");
    assertFalse(result.verified());
    assertEquals(VerificationStatus.PENDING, result.status());
    assertEquals(4, result.attemptsRemaining());
    assertEquals(Map.of("requestId", "r", "otpCode", "000000"), JSON.convertValue(body(0), Map.class));
  }

  private static final String VERIFICATION = "{\"data\":{\"requestId\":\"0190a7c2-0000-7000-8000-000000000001\",\"channel\":\"EMAIL\","
      + "\"status\":\"verified\",\"to\":\"j***@example.com\",\"createdAt\":\"2030-01-01T00:00:00.000Z\","
      + "\"expiresAt\":\"2030-01-01T00:10:00.000Z\",\"attemptsRemaining\":4,\"verifiedAt\":\"2030-01-01T00:01:12.000Z\","
      + "\"method\":\"link\",\"siblingRequestId\":\"0190a7c2-0000-7000-8000-000000000002\","
      + "\"delivery\":{\"status\":\"delivered\",\"provider\":\"smtp\",\"updatedAt\":\"2030-01-01T00:00:02.000Z\"}}}";

  @Test
  void getVerificationReadsEveryFieldOfTheResource() throws Exception {
    server.answer(200, VERIFICATION);
    Models.Verification v = cv.getVerification("0190a7c2-0000-7000-8000-000000000001");
    ScriptedServer.Seen request = server.seen.get(0);
    assertEquals("GET", request.method());
    assertEquals("/v1/contact/verifications/0190a7c2-0000-7000-8000-000000000001", request.pathAndQuery());
    assertEquals("Bearer cv_live_key", request.header("Authorization"));
    assertEquals("", request.body());
    assertEquals(Channel.EMAIL, v.channel());
    assertEquals(VerificationStatus.VERIFIED, v.status());
    assertEquals("j***@example.com", v.to());
    assertEquals(Instant.parse("2030-01-01T00:00:00Z"), v.createdAt());
    assertEquals(Instant.parse("2030-01-01T00:10:00Z"), v.expiresAt());
    assertEquals(4, v.attemptsRemaining());
    assertNull(v.deliveryType());
    assertEquals(Instant.parse("2030-01-01T00:01:12Z"), v.verifiedAt());
    assertEquals(VerificationMethod.LINK, v.method());
    assertEquals("0190a7c2-0000-7000-8000-000000000002", v.siblingRequestId());
    assertEquals(DeliveryState.DELIVERED, v.delivery().status());
    assertEquals("smtp", v.delivery().provider());
    assertEquals(Instant.parse("2030-01-01T00:00:02Z"), v.delivery().updatedAt());
    assertNull(v.fallback());
  }

  @Test
  void aSilentRequestsFallbackOnTheResource() {
    server.answer(200, VERIFICATION.replace("\"channel\":\"EMAIL\"", "\"channel\":\"SILENT\"")
        .replace("\"delivery\":", "\"fallback\":{\"channel\":\"SMS\",\"state\":\"fired\",\"reason\":\"timeout\",\"requestId\":\"f\"},\"delivery\":"));
    Models.VerificationFallback fallback = cv.getVerification("s").fallback();
    assertEquals(Channel.SMS, fallback.channel());
    assertEquals(FallbackState.FIRED, fallback.state());
    assertEquals(FallbackReason.TIMEOUT, fallback.reason());
    assertEquals("f", fallback.requestId());
  }

  @Test
  void aMethodOrDeliveryStateNewerThanTheLibraryReadsAsNull() {
    server.answer(200, VERIFICATION.replace("\"link\"", "\"passkey\"").replace("\"delivered\"", "\"read\""));
    Models.Verification v = cv.getVerification("0190a7c2-0000-7000-8000-000000000001");
    assertNull(v.method());
    assertNull(v.delivery().status());
    assertEquals(VerificationStatus.VERIFIED, v.status());
  }

  @Test
  void cancelVerificationPostsToItsCancelPathAndReadsTheResource() throws Exception {
    server.answer(200, VERIFICATION.replace("\"verified\"", "\"canceled\"").replace(",\"verifiedAt\":\"2030-01-01T00:01:12.000Z\",\"method\":\"link\"", "")
        .replace("\"delivered\",\"provider\":\"smtp\"", "\"queued\""));
    Models.Verification v = cv.cancelVerificationAsync("0190a7c2-0000-7000-8000-000000000001").get();
    ScriptedServer.Seen request = server.seen.get(0);
    assertEquals("POST", request.method());
    assertEquals("/v1/contact/verifications/0190a7c2-0000-7000-8000-000000000001/cancel", request.pathAndQuery());
    assertEquals(VerificationStatus.CANCELED, v.status());
    assertNull(v.method());
    assertNull(v.verifiedAt());
    assertEquals(DeliveryState.QUEUED, v.delivery().status());
    assertNull(v.delivery().provider());
  }

  @Test
  void anIdIsOnePathSegmentAndAnUnknownOneIsATypedNotFound() {
    server.answer(404, "{\"error\":{\"code\":\"NOT_FOUND\",\"message\":\"no such request\"}}");
    ContactVerifyException e = assertThrows(ContactVerifyException.class, () -> cv.getVerification("../admin/outbox?x=1 2"));
    assertEquals("/v1/contact/verifications/..%2Fadmin%2Foutbox%3Fx%3D1%202", server.seen.get(0).pathAndQuery());
    assertEquals(404, e.status());
    assertTrue(e.is(ErrorCode.NOT_FOUND));
    assertEquals(1, server.seen.size(), "a 404 is not retried");
  }

  @Test
  void theLinkOptionWithAndWithoutARedirect() throws Exception {
    server.answer(200, ENTRY).answer(200, ENTRY).answer(200, "{\"data\":[]}");
    cv.sendCode(SendCode.email("j@example.com").link(Models.SendLink.toServicePage()));
    cv.sendCode(SendCode.email("j@example.com").link(Models.SendLink.redirectTo("https://app.example.com/welcome")));
    cv.sendCodeDual(SendCode.dual(Channel.EMAIL, Channel.SMS).withEmail("j@example.com").withPhone("+33612345678")
        .link(Models.SendLink.toServicePage()));
    assertEquals("{\"channel\":\"EMAIL\",\"email\":\"j@example.com\",\"link\":{}}", server.seen.get(0).body());
    assertEquals("{\"channel\":\"EMAIL\",\"email\":\"j@example.com\",\"link\":{\"redirectUrl\":\"https://app.example.com/welcome\"}}",
        server.seen.get(1).body());
    assertEquals("{}", body(2).get("link").toString());
    assertThrows(NullPointerException.class, () -> Models.SendLink.redirectTo(null));
  }

  @Test
  void aSilentSendWithAFallbackAndItsChecks() throws Exception {
    server.answer(200, "{\"data\":{\"requestId\":\"s\",\"channel\":\"SILENT\",\"status\":\"pending\",\"expiresAt\":\"2030-01-01T00:10:00Z\","
        + "\"to\":\"+1******2671\",\"silent\":{\"url\":\"https://silent.test.invalid/check/s\"}}}");
    SendEntry entry = cv.sendCode(SendCode.silent("+14155552671").fallback(Channel.SMS));
    assertEquals(Map.of("channel", "SILENT", "phone", "+14155552671", "fallback", "SMS"), JSON.convertValue(body(0), Map.class));
    assertEquals(Channel.SILENT, entry.channel());
    assertEquals("https://silent.test.invalid/check/s", entry.silent().url());
    assertNull(entry.fallback());

    server.answer(200, "{\"data\":{\"verified\":false,\"channel\":\"SILENT\",\"requestId\":\"s\",\"status\":\"pending\",\"attemptsRemaining\":4,"
        + "\"silent\":{\"outcome\":\"rejected\",\"reason\":\"another SIM\"},"
        + "\"fallback\":{\"requestId\":\"f\",\"channel\":\"SMS\",\"status\":\"pending\",\"reason\":\"rejected\",\"expiresAt\":\"2030-01-01T00:10:00Z\"}}}");
    VerifyResult check = cv.verifyCode("s");
    assertEquals(Map.of("requestId", "s"), JSON.convertValue(body(1), Map.class), "no code at all");
    assertEquals(SilentOutcome.REJECTED, check.silent().outcome());
    assertEquals("another SIM", check.silent().reason());
    assertEquals("f", check.fallback().requestId());
    assertEquals(Channel.SMS, check.fallback().channel());
    assertEquals(FallbackReason.REJECTED, check.fallback().reason());

    server.answer(200, "{\"data\":{\"verified\":true,\"channel\":\"SILENT\",\"requestId\":\"s\",\"status\":\"verified\",\"attemptsRemaining\":4,"
        + "\"silent\":{\"outcome\":\"verified\"}}}");
    assertTrue(cv.verifyCodeAsync("s", "Ab3_x-9Z").get().verified());
    assertEquals(Map.of("requestId", "s", "code", "Ab3_x-9Z"), JSON.convertValue(body(2), Map.class),
        "a device code of letters goes as code, the document's name for it");
    assertThrows(NullPointerException.class, () -> cv.verifyCode("s", null));
  }

  @Test
  void errorsAreTypedWithDetailsAndRetryAfter() {
    server.answer(400, "{\"error\":{\"code\":\"VALIDATION_ERROR\",\"message\":\"bad\",\"details\":[{\"field\":\"email\",\"message\":\"not an email\",\"channel\":\"EMAIL\"}]}}");
    ContactVerifyException e = assertThrows(ContactVerifyException.class, () -> cv.sendCode(SendCode.email("nope")));
    assertEquals(400, e.status());
    assertTrue(e.is(ErrorCode.VALIDATION_ERROR));
    assertEquals("bad", e.message());
    assertEquals(Channel.EMAIL, e.details().get(0).channel());
    assertEquals("email", e.details().get(0).field());
    assertTrue(e.retryAfter().isEmpty());

    server.answer(429, Map.of("Retry-After", "27"), "{\"error\":{\"code\":\"RATE_LIMITED\",\"message\":\"cooldown\"}}");
    e = assertThrows(ContactVerifyException.class, () -> cv.sendCode(SendCode.email("j@example.com")));
    assertEquals(Duration.ofSeconds(27), e.retryAfter().orElseThrow());
    assertEquals(2, server.seen.size(), "a Retry-After over 10 s is raised at once, not waited for");

    server.answer(409, "{\"error\":{\"code\":\"SOMETHING_NEW\",\"message\":\"from a newer service\"}}");
    e = assertThrows(ContactVerifyException.class, () -> cv.verifyCode("r", "1"));
    assertEquals("SOMETHING_NEW", e.code());
    assertTrue(e.errorCode().isEmpty());
  }

  @Test
  void a503IsRetriedWithTheSameIdempotencyKey() throws Exception {
    server.answer(503, Map.of("Retry-After", "0"), "").answer(200, ENTRY);
    cv.sendCode(SendCode.email("j@example.com"));
    assertEquals(2, server.seen.size());
    String key = server.seen.get(0).header("Idempotency-Key");
    assertTrue(key.matches("[0-9a-f]{8}(-[0-9a-f]{4}){3}-[0-9a-f]{12}"), key);
    assertEquals(key, server.seen.get(1).header("Idempotency-Key"));
  }

  @Test
  void retriesStopAtTheLimitAndNeverRetryTooManyAttempts() {
    for (int i = 0; i < 3; i++) server.answer(503, Map.of("Retry-After", "0"), "{\"error\":{\"code\":\"UNAVAILABLE\",\"message\":\"down\"}}");
    ContactVerifyException e = assertThrows(ContactVerifyException.class, () -> cv.health());
    assertEquals(503, e.status());
    assertEquals(3, server.seen.size(), "the first try and two retries");

    server.answer(429, Map.of("Retry-After", "1"), "{\"error\":{\"code\":\"TOO_MANY_ATTEMPTS\",\"message\":\"used up\"}}");
    e = assertThrows(ContactVerifyException.class, () -> cv.verifyCode("r", "1"));
    assertTrue(e.is(ErrorCode.TOO_MANY_ATTEMPTS));
    assertEquals(4, server.seen.size());

    server.answer(503, Map.of("Retry-After", "0"), "");
    e = assertThrows(ContactVerifyException.class, () -> cv.withMaxRetries(0).health());
    assertEquals(5, server.seen.size(), "withMaxRetries(0) does not retry");
  }

  @Test
  void aShortRateLimitIsWaitedForAndRetried() {
    server.answer(429, Map.of("Retry-After", "1"), "{\"error\":{\"code\":\"RATE_LIMITED\",\"message\":\"per second\"}}").answer(200, ENTRY);
    assertEquals(Channel.EMAIL, cv.sendCode(SendCode.email("j@example.com")).channel());
    assertEquals(2, server.seen.size());
  }

  @Test
  void noAnswerIsANetworkError() throws Exception {
    String url = server.url();
    server.close();
    ContactVerifyException e = assertThrows(ContactVerifyException.class,
        () -> new ContactVerifyClient(url, "k").withMaxRetries(0).health());
    assertEquals(0, e.status());
    assertTrue(e.is(ErrorCode.NETWORK_ERROR));
    server = new ScriptedServer();
  }

  @Test
  void theAsyncCallsCompleteWithTheAnswerOrTheTypedError() throws Exception {
    server.answer(200, ENTRY).answer(401, "{\"error\":{\"code\":\"UNAUTHORIZED\",\"message\":\"bad key\"}}");
    CompletableFuture<SendEntry> sent = cv.sendCodeAsync(SendCode.email("j@example.com"));
    assertEquals("0190a7c2-0000-7000-8000-000000000001", sent.get().requestId());
    ExecutionException failed = assertThrows(ExecutionException.class, () -> cv.verifyCodeAsync("r", "1").get());
    ContactVerifyException e = (ContactVerifyException) failed.getCause();
    assertEquals(401, e.status());
    assertTrue(e.is(ErrorCode.UNAUTHORIZED));
  }

  @Test
  void anInjectedHttpClientCarriesTheCalls() {
    AtomicInteger ran = new AtomicInteger();
    Executor counting = task -> { ran.incrementAndGet(); new Thread(task).start(); };
    HttpClient http = HttpClient.newBuilder().executor(counting).build();
    server.answer(200, "{\"status\":\"ok\",\"version\":\"1.2.3\",\"uptimeSeconds\":5,"
        + "\"services\":{\"database\":\"up\",\"rateLimitStore\":\"up\"},"
        + "\"channels\":{\"EMAIL\":{\"operational\":true,\"providers\":[{\"name\":\"smtp\",\"state\":\"up\"}],\"liveCodes\":\"delivered\"},"
        + "\"WHATSAPP\":{\"operational\":true,\"providers\":[{\"name\":\"whatsapp-call\",\"state\":\"up\",\"detail\":\"calling ENABLED\"}]}},"
        + "\"lookups\":{\"name\":\"twilio\",\"state\":\"down\"}}");
    Health health = ContactVerifyClient.builder(server.url(), "k").httpClient(http).build().health();
    assertTrue(ran.get() > 0, "the injected client's executor ran the exchange");
    assertEquals(HealthStatus.OK, health.status());
    assertEquals(ServiceState.UP, health.services().rateLimitStore());
    assertEquals(LiveCodes.DELIVERED, health.channels().get(Channel.EMAIL).liveCodes());
    assertEquals(ProviderState.UP, health.channels().get(Channel.EMAIL).providers().get(0).state());
    assertNull(health.channels().get(Channel.EMAIL).providers().get(0).detail());
    assertEquals("calling ENABLED", health.channels().get(Channel.WHATSAPP).providers().get(0).detail());
    assertEquals("twilio", health.lookups().name());
    assertEquals(ProviderState.DOWN, health.lookups().state());
    assertNull(health.pumpingBreakers());
    assertNull(health.codeSecretRotation());
  }

  @Test
  void healthSaysARotationOfTheCodeSecret() {
    server.answer(200, "{\"status\":\"ok\",\"version\":\"1.2.3\",\"uptimeSeconds\":5,"
        + "\"services\":{\"database\":\"up\",\"rateLimitStore\":\"up\"},\"channels\":{},"
        + "\"instances\":{\"live\":1,\"withoutRedis\":0},"
        + "\"codeSecretRotation\":{\"previousSecrets\":1,\"since\":\"2030-01-01T00:00:00.000Z\","
        + "\"removableAfter\":\"2030-01-02T00:00:00.000Z\"}}");
    CodeSecretRotation rotation = new ContactVerifyClient(server.url(), "k").health().codeSecretRotation();
    assertEquals(1, rotation.previousSecrets());
    assertEquals(Instant.parse("2030-01-01T00:00:00Z"), rotation.since());
    assertEquals(Instant.parse("2030-01-02T00:00:00Z"), rotation.removableAfter());
  }

  @Test
  void theTestHelperReadsTheNewestCodeWithTheAdminToken() {
    server.answer(200, "{\"data\":[{\"id\":\"msg_2\",\"accountId\":\"acc\",\"requestId\":\"r2\",\"status\":\"pending\",\"channel\":\"EMAIL\",\"to\":\"j+1@example.com\",\"text\":\"Your code is 654321\",\"code\":\"654321\",\"createdAt\":\"2030-01-01T00:00:02Z\"},"
        + "{\"id\":\"msg_1\",\"accountId\":\"acc\",\"requestId\":\"r1\",\"status\":\"pending\",\"channel\":\"EMAIL\",\"to\":\"j+1@example.com\",\"text\":\"Your code is 123456\",\"code\":\"123456\",\"createdAt\":\"2030-01-01T00:00:01Z\"}]}");
    TestOutbox outbox = new TestOutbox(server.url(), "admin-token");
    assertEquals("654321", outbox.latestOutboxCode("j+1@example.com"));
    ScriptedServer.Seen request = server.seen.get(0);
    assertEquals("GET", request.method());
    assertEquals("/v1/admin/outbox?to=j%2B1%40example.com", request.pathAndQuery());
    assertEquals("Bearer admin-token", request.header("Authorization"));

    server.answer(200, "{\"data\":[]}");
    assertThrows(NoSuchElementException.class, () -> outbox.latestOutboxCode("nobody@example.com"));
    server.answer(200, "{\"data\":[{\"id\":\"m\",\"channel\":\"SMS\",\"to\":\"+33612345678\",\"text\":\"live\",\"createdAt\":\"2030-01-01T00:00:01Z\"}]}");
    assertThrows(NoSuchElementException.class, () -> outbox.latestOutboxCode("+33612345678"), "a live message has no code");
    server.answer(401, "{\"error\":{\"code\":\"UNAUTHORIZED\",\"message\":\"admin token\"}}");
    assertSame(ContactVerifyException.class,
        assertThrows(RuntimeException.class, () -> outbox.latestOutboxCode("x")).getClass());
  }
}
