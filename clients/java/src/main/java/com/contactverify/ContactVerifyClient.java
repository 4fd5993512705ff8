package com.contactverify;

import com.contactverify.Models.Health;
import com.contactverify.Models.SendEntry;
import com.contactverify.Models.Verification;
import com.contactverify.Models.VerifyResult;
import com.fasterxml.jackson.core.type.TypeReference;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;

/**
 * A client of the contact verification API. Every call has a blocking form and an ...Async form
 * returning a CompletableFuture. Retries 503 and 429 RATE_LIMITED answers that carry a
 * Retry-After of at most 10 s, at most maxRetries times (2); never TOO_MANY_ATTEMPTS or another
 * 4xx. Every send carries an Idempotency-Key kept across its retries, so a retry never sends a
 * second code. Thread-safe.
 */
public final class ContactVerifyClient {
  public static final String VERSION = "0.2.0";

  private final Transport transport;
  private final String apiKey;

  /** A client with the defaults: a new HttpClient, 10 s timeout, 2 retries. */
  public ContactVerifyClient(String baseUrl, String apiKey) {
    this(builder(baseUrl, apiKey));
  }

  private ContactVerifyClient(Builder b) {
    this.apiKey = b.apiKey;
    HttpClient http = b.http != null ? b.http : HttpClient.newBuilder().connectTimeout(b.timeout).build();
    this.transport = new Transport(b.baseUrl, b.apiKey, http, b.timeout, b.maxRetries, b.maxRetryAfterSeconds);
  }

  /** {@code ContactVerifyClient.builder(url, key).httpClient(http).maxRetries(0).build()}. */
  public static Builder builder(String baseUrl, String apiKey) { return new Builder(baseUrl, apiKey); }

  /** The same client (and HttpClient) with another retry limit. */
  public ContactVerifyClient withMaxRetries(int maxRetries) {
    return builder(transport.baseUrl, apiKey).httpClient(transport.http).timeout(transport.timeout)
        .maxRetries(maxRetries).maxRetryAfterSeconds(transport.maxRetryAfterSeconds).build();
  }

  /** Sends a code on one channel: {@code cv.sendCode(SendCode.email(email).purpose("sign-in"))}. */
  public SendEntry sendCode(SendCode request) { return Transport.join(sendCodeAsync(request)); }

  public CompletableFuture<SendEntry> sendCodeAsync(SendCode request) {
    if (request.isDual()) throw new IllegalArgumentException("a dual request is sent with sendCodeDual");
    return send(request).thenApply(data -> Json.MAPPER.convertValue(data, SendEntry.class));
  }

  /** Sends codes on two channels at once (SendCode.dual): one entry per channel, in order. */
  public List<SendEntry> sendCodeDual(SendCode request) { return Transport.join(sendCodeDualAsync(request)); }

  public CompletableFuture<List<SendEntry>> sendCodeDualAsync(SendCode request) {
    if (!request.isDual()) throw new IllegalArgumentException("a one-channel request is sent with sendCode");
    return send(request).thenApply(data -> Json.MAPPER.convertValue(data, new TypeReference<List<SendEntry>>() {}));
  }

  private CompletableFuture<com.fasterxml.jackson.databind.JsonNode> send(SendCode request) {
    String key = request.idempotencyKey() != null ? request.idempotencyKey() : UUID.randomUUID().toString();
    return transport.call("POST", "/v1/contact/send-code", request.body(), Map.of("Idempotency-Key", key))
        .thenApply(answer -> answer.get("data"));
  }

  /**
   * Checks a code; a wrong code is {@code verified() == false}, not an exception. A code of digits
   * goes as otpCode; any other (the code a SILENT provider's URL handed the device) as code.
   */
  public VerifyResult verifyCode(String requestId, String otpCode) { return Transport.join(verifyCodeAsync(requestId, otpCode)); }

  public CompletableFuture<VerifyResult> verifyCodeAsync(String requestId, String otpCode) {
    Objects.requireNonNull(otpCode, "otpCode (verifyCode(requestId) checks a SILENT request without one)");
    return verify(requestId, otpCode);
  }

  /**
   * Checks a SILENT request without a code: the service asks the provider whether the device
   * completed silent().url(); silent().outcome() says what it concluded (PENDING: call again).
   */
  public VerifyResult verifyCode(String requestId) { return Transport.join(verifyCodeAsync(requestId)); }

  public CompletableFuture<VerifyResult> verifyCodeAsync(String requestId) { return verify(requestId, null); }

  private CompletableFuture<VerifyResult> verify(String requestId, String code) {
    Map<String, String> body = new LinkedHashMap<>();
    body.put("requestId", Objects.requireNonNull(requestId, "requestId"));
    if (code != null) body.put(code.matches("[0-9]+") ? "otpCode" : "code", code);
    return transport.call("POST", "/v1/contact/verify-code", body, null)
        .thenApply(answer -> Json.MAPPER.convertValue(answer.get("data"), VerifyResult.class));
  }

  /**
   * A verification request as it is now: its status, how it was verified, what became of its
   * message. Another account's, another mode's or an unknown id is a NOT_FOUND.
   */
  public Verification getVerification(String requestId) { return Transport.join(getVerificationAsync(requestId)); }

  public CompletableFuture<Verification> getVerificationAsync(String requestId) {
    return transport.call("GET", verificationPath(requestId), null, null)
        .thenApply(answer -> Json.MAPPER.convertValue(answer.get("data"), Verification.class));
  }

  /**
   * Cancels a pending request (and its dual sibling): its code no longer verifies. A request
   * already settled is answered as it is, unchanged, so a repeated cancel is harmless.
   */
  public Verification cancelVerification(String requestId) { return Transport.join(cancelVerificationAsync(requestId)); }

  public CompletableFuture<Verification> cancelVerificationAsync(String requestId) {
    return transport.call("POST", verificationPath(requestId) + "/cancel", null, null)
        .thenApply(answer -> Json.MAPPER.convertValue(answer.get("data"), Verification.class));
  }

  private static String verificationPath(String requestId) {
    String id = URLEncoder.encode(Objects.requireNonNull(requestId, "requestId"), StandardCharsets.UTF_8).replace("+", "%20");
    return "/v1/contact/verifications/" + id;
  }

  /** The service's health (no key needed). */
  public Health health() { return Transport.join(healthAsync()); }

  public CompletableFuture<Health> healthAsync() {
    return transport.call("GET", "/health", null, null).thenApply(answer -> Json.MAPPER.convertValue(answer, Health.class));
  }

  /** The client's settings. */
  public static final class Builder {
    private final String baseUrl;
    private final String apiKey;
    private HttpClient http;
    private Duration timeout = Duration.ofSeconds(10);
    private int maxRetries = 2;
    private int maxRetryAfterSeconds = 10;

    private Builder(String baseUrl, String apiKey) {
      this.baseUrl = Objects.requireNonNull(baseUrl, "baseUrl");
      this.apiKey = Objects.requireNonNull(apiKey, "apiKey");
    }

    /** Your own java.net.http.HttpClient (proxy, executor, SSL context); its connect timeout is yours. */
    public Builder httpClient(HttpClient http) { this.http = http; return this; }

    /** The timeout of each request (10 s). */
    public Builder timeout(Duration timeout) { this.timeout = timeout; return this; }

    /** Retries of a 503 or of a short RATE_LIMITED per call (2). */
    public Builder maxRetries(int maxRetries) { this.maxRetries = maxRetries; return this; }

    /** The longest Retry-After waited for (10 s); a longer one is raised at once. */
    public Builder maxRetryAfterSeconds(int seconds) { this.maxRetryAfterSeconds = seconds; return this; }

    public ContactVerifyClient build() { return new ContactVerifyClient(this); }
  }
}
