package com.contactverify;

import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.contactverify.Models.Health;
import com.contactverify.Models.SendEntry;
import com.contactverify.Models.SendRequest;
import com.contactverify.Models.VerifyResult;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.UUID;

/**
 * A client of the contact verification API. Retries 503 and 429 RATE_LIMITED answers that carry
 * Retry-After, at most maxRetries times; never TOO_MANY_ATTEMPTS or another 4xx. Every send
 * carries an Idempotency-Key kept across its retries, so a retry never sends a second code.
 */
public final class ContactVerifyClient {
  public static final String VERSION = "0.1.0";
  private static final ObjectMapper JSON = new ObjectMapper();

  private final String baseUrl;
  private final String apiKey;
  private final Duration timeout;
  private final int maxRetries;
  private final int maxRetryAfterSeconds;
  private final HttpClient http;

  public ContactVerifyClient(String baseUrl, String apiKey) {
    this(baseUrl, apiKey, Duration.ofSeconds(10), 2, 10);
  }

  public ContactVerifyClient(String baseUrl, String apiKey, Duration timeout, int maxRetries, int maxRetryAfterSeconds) {
    this.baseUrl = baseUrl.replaceAll("/+$", "");
    this.apiKey = apiKey;
    this.timeout = timeout;
    this.maxRetries = maxRetries;
    this.maxRetryAfterSeconds = maxRetryAfterSeconds;
    this.http = HttpClient.newBuilder().connectTimeout(timeout).build();
  }

  /** Sends a code on one channel (request.channel()). */
  public SendEntry sendCode(SendRequest request) { return sendCode(request, null, null); }

  public SendEntry sendCode(SendRequest request, String idempotencyKey, Integer retries) {
    return JSON.convertValue(send(request, idempotencyKey, retries), SendEntry.class);
  }

  /** Sends a code on two channels at once (request.channels()); one entry per channel, in order. */
  public List<SendEntry> sendCodeDual(SendRequest request) { return sendCodeDual(request, null, null); }

  public List<SendEntry> sendCodeDual(SendRequest request, String idempotencyKey, Integer retries) {
    return JSON.convertValue(send(request, idempotencyKey, retries), new TypeReference<List<SendEntry>>() {});
  }

  private JsonNode send(SendRequest request, String idempotencyKey, Integer retries) {
    String key = idempotencyKey != null ? idempotencyKey : UUID.randomUUID().toString();
    return call("POST", "/v1/contact/send-code", request, retries, Map.of("Idempotency-Key", key)).get("data");
  }

  public VerifyResult verifyCode(String requestId, String otpCode) { return verifyCode(requestId, otpCode, null); }

  public VerifyResult verifyCode(String requestId, String otpCode, Integer retries) {
    JsonNode data = call("POST", "/v1/contact/verify-code", Map.of("requestId", requestId, "otpCode", otpCode), retries, Map.of()).get("data");
    return JSON.convertValue(data, VerifyResult.class);
  }

  /** The service's health (no key needed). */
  public Health health() { return health(null); }

  public Health health(Integer retries) {
    return JSON.convertValue(call("GET", "/health", null, retries, Map.of()), Health.class);
  }

  private JsonNode call(String method, String path, Object body, Integer retries, Map<String, String> headers) {
    int limit = retries != null ? retries : maxRetries;
    for (int attempt = 0; ; attempt++) {
      try {
        return once(method, path, body, headers);
      } catch (ContactVerifyException e) {
        Double wait = retryDelay(e, attempt);
        if (attempt >= limit || wait == null) throw e;
        try {
          Thread.sleep((long) (wait * 1000));
        } catch (InterruptedException interrupted) {
          Thread.currentThread().interrupt();
          throw e;
        }
      }
    }
  }

  private Double retryDelay(ContactVerifyException e, int attempt) {
    if (e.status() == 503) {
      return e.retryAfter().isPresent() ? (double) Math.min(e.retryAfter().getAsInt(), maxRetryAfterSeconds) : 0.25 * (1 << attempt);
    }
    if (e.status() == 429 && e.code().equals("RATE_LIMITED") && e.retryAfter().isPresent()) {
      int seconds = e.retryAfter().getAsInt();
      return seconds <= maxRetryAfterSeconds ? (double) seconds : null;
    }
    return null;
  }

  private JsonNode once(String method, String path, Object body, Map<String, String> headers) {
    HttpResponse<String> response;
    try {
      HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(baseUrl + path))
          .timeout(timeout)
          .header("Accept", "application/json")
          .header("Authorization", "Bearer " + apiKey)
          .header("User-Agent", "contact-verify-java/" + VERSION);
      headers.forEach(request::header);
      if (body == null) {
        request.GET();
      } else {
        request.header("Content-Type", "application/json")
            .method(method, HttpRequest.BodyPublishers.ofString(JSON.writeValueAsString(body)));
      }
      response = http.send(request.build(), HttpResponse.BodyHandlers.ofString());
    } catch (IOException e) {
      throw new ContactVerifyException(0, "NETWORK_ERROR", "No answer from " + baseUrl + ": " + e.getMessage(), null, null);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new ContactVerifyException(0, "NETWORK_ERROR", "Interrupted", null, null);
    }
    JsonNode parsed;
    try {
      parsed = JSON.readTree(response.body().isEmpty() ? "null" : response.body());
    } catch (IOException e) {
      parsed = null;
    }
    int status = response.statusCode();
    if (status < 300) return parsed;
    JsonNode error = parsed != null && parsed.has("error") ? parsed.get("error") : JSON.createObjectNode();
    Integer retryAfter = response.headers().firstValue("Retry-After")
        .filter(v -> v.matches("\\d+")).map(Integer::valueOf).orElse(null);
    List<Map<String, Object>> details = error.has("details")
        ? JSON.convertValue(error.get("details"), new TypeReference<List<Map<String, Object>>>() {})
        : List.of();
    throw new ContactVerifyException(
        status,
        error.has("code") ? error.get("code").asText() : (status == 503 ? "UNAVAILABLE" : "INTERNAL"),
        error.has("message") ? error.get("message").asText() : "HTTP " + status,
        details,
        retryAfter);
  }
}
