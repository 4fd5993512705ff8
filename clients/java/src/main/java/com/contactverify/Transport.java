package com.contactverify;

import com.contactverify.Models.ErrorDetail;
import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;

/**
 * One HTTP exchange with retries: 503 (after Retry-After, capped, or a short backoff) and
 * 429 RATE_LIMITED whose Retry-After is at most maxRetryAfterSeconds; never TOO_MANY_ATTEMPTS or
 * another 4xx. The same request (so the same Idempotency-Key) is sent again.
 */
final class Transport {
  final String baseUrl;
  private final String token;
  final HttpClient http;
  final Duration timeout;
  final int maxRetries;
  final int maxRetryAfterSeconds;

  Transport(String baseUrl, String token, HttpClient http, Duration timeout, int maxRetries, int maxRetryAfterSeconds) {
    this.baseUrl = baseUrl.replaceAll("/+$", "");
    this.token = token;
    this.http = http;
    this.timeout = timeout;
    this.maxRetries = maxRetries;
    this.maxRetryAfterSeconds = maxRetryAfterSeconds;
  }

  CompletableFuture<JsonNode> call(String method, String path, Object body, Map<String, String> headers) {
    HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(baseUrl + path))
        .timeout(timeout)
        .header("Accept", "application/json")
        .header("Authorization", "Bearer " + token)
        .header("User-Agent", "contact-verify-java/" + ContactVerifyClient.VERSION);
    if (headers != null) headers.forEach(request::header);
    if (body == null) {
      request.method(method, HttpRequest.BodyPublishers.noBody());
    } else {
      try {
        request.header("Content-Type", "application/json")
            .method(method, HttpRequest.BodyPublishers.ofString(Json.MAPPER.writeValueAsString(body)));
      } catch (IOException e) {
        return CompletableFuture.failedFuture(new IllegalArgumentException("cannot write the request body", e));
      }
    }
    return attempt(request.build(), 0);
  }

  private CompletableFuture<JsonNode> attempt(HttpRequest request, int attempt) {
    return http.sendAsync(request, HttpResponse.BodyHandlers.ofString())
        .handle((response, failure) -> failure != null ? networkError(failure) : answer(response))
        .thenCompose(outcome -> {
          if (!(outcome instanceof ContactVerifyException)) return CompletableFuture.completedFuture((JsonNode) outcome);
          ContactVerifyException e = (ContactVerifyException) outcome;
          Duration wait = attempt < maxRetries ? retryDelay(e, attempt) : null;
          if (wait == null) return CompletableFuture.failedFuture(e);
          return CompletableFuture.runAsync(() -> {}, CompletableFuture.delayedExecutor(wait.toMillis(), TimeUnit.MILLISECONDS))
              .thenCompose(ignored -> attempt(request, attempt + 1));
        });
  }

  private Duration retryDelay(ContactVerifyException e, int attempt) {
    if (e.status() == 503) {
      return e.retryAfter()
          .map(d -> d.getSeconds() > maxRetryAfterSeconds ? Duration.ofSeconds(maxRetryAfterSeconds) : d)
          .orElse(Duration.ofMillis(250L << attempt));
    }
    if (e.status() == 429 && e.is(ErrorCode.RATE_LIMITED)) {
      return e.retryAfter().filter(d -> d.getSeconds() <= maxRetryAfterSeconds).orElse(null);
    }
    return null;
  }

  private Object networkError(Throwable failure) {
    Throwable cause = failure instanceof CompletionException && failure.getCause() != null ? failure.getCause() : failure;
    return new ContactVerifyException(0, "NETWORK_ERROR", "No answer from " + baseUrl + ": " + cause, null, null, cause);
  }

  private Object answer(HttpResponse<String> response) {
    JsonNode parsed;
    try {
      parsed = Json.MAPPER.readTree(response.body().isEmpty() ? "null" : response.body());
    } catch (IOException e) {
      parsed = null;
    }
    int status = response.statusCode();
    if (status < 300) return parsed;
    JsonNode error = parsed != null && parsed.has("error") ? parsed.get("error") : Json.MAPPER.createObjectNode();
    Duration retryAfter = response.headers().firstValue("Retry-After")
        .filter(v -> v.matches("\\d+")).map(v -> Duration.ofSeconds(Long.parseLong(v))).orElse(null);
    List<ErrorDetail> details = error.has("details")
        ? Json.MAPPER.convertValue(error.get("details"), new TypeReference<List<ErrorDetail>>() {})
        : List.of();
    return new ContactVerifyException(
        status,
        error.has("code") ? error.get("code").asText() : (status == 503 ? "UNAVAILABLE" : "INTERNAL"),
        error.has("message") ? error.get("message").asText() : "HTTP " + status,
        details,
        retryAfter);
  }

  /** The result of a future, for the blocking methods: its ContactVerifyException as thrown. */
  static <T> T join(CompletableFuture<T> future) {
    try {
      return future.get();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      future.cancel(true);
      throw new ContactVerifyException(0, "NETWORK_ERROR", "interrupted", null, null, e);
    } catch (ExecutionException e) {
      Throwable cause = e.getCause();
      if (cause instanceof RuntimeException) throw (RuntimeException) cause;
      if (cause instanceof Error) throw (Error) cause;
      throw new CompletionException(cause);
    }
  }
}
