package com.contactverify;

import com.contactverify.Models.OutboxMessage;
import com.fasterxml.jackson.core.type.TypeReference;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.nio.charset.StandardCharsets;
import java.util.Comparator;
import java.util.List;
import java.util.NoSuchElementException;
import java.util.concurrent.CompletableFuture;

/**
 * For tests with a test-mode key (cvk_test_...): reads codes from the service's outbox with the
 * admin token, where test-mode messages stay (their items carry the code while the request is
 * pending). Never for production: your users type the code they received.
 */
public final class TestOutbox {
  private final Transport transport;

  public TestOutbox(String baseUrl, String adminToken) {
    this(baseUrl, adminToken, HttpClient.newHttpClient());
  }

  public TestOutbox(String baseUrl, String adminToken, HttpClient http) {
    this.transport = new Transport(baseUrl, adminToken, http, java.time.Duration.ofSeconds(10), 0, 0);
  }

  /** The outbox's messages to {@code to}, newest first. */
  public CompletableFuture<List<OutboxMessage>> messagesAsync(String to) {
    return transport.call("GET", "/v1/admin/outbox?to=" + URLEncoder.encode(to, StandardCharsets.UTF_8), null, null)
        .thenApply(answer -> Json.MAPPER.convertValue(answer.get("data"), new TypeReference<List<OutboxMessage>>() {}));
  }

  public List<OutboxMessage> messages(String to) { return Transport.join(messagesAsync(to)); }

  /**
   * The code of the newest message to {@code to}.
   *
   * @throws NoSuchElementException when there is none, or it carries no code (a live request, or
   *     no longer pending)
   */
  public CompletableFuture<String> latestOutboxCodeAsync(String to) {
    return messagesAsync(to).thenApply(messages -> messages.stream()
        .max(Comparator.comparing(OutboxMessage::createdAt, Comparator.nullsFirst(Comparator.naturalOrder())))
        .map(OutboxMessage::code)
        .orElseThrow(() -> new NoSuchElementException("no code in the outbox for " + to + " (none, or a live message)")));
  }

  public String latestOutboxCode(String to) {
    return Transport.join(latestOutboxCodeAsync(to));
  }
}
