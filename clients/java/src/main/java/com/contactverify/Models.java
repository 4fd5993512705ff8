package com.contactverify;

import java.time.Instant;
import java.util.List;
import java.util.Map;

/** The answers of the API, as records named after its JSON members. */
public final class Models {
  private Models() {}

  /** One signal that added to a send's risk score. */
  public record RiskSignal(String name, int weight, String detail) {}

  /** A send's risk score (0-100), its level and the signals behind it. */
  public record Risk(int score, RiskLevel level, List<RiskSignal> signals) {}

  /** Why one channel of a send was not delivered (status undelivered). */
  public record EntryError(String code, String message) {}

  /**
   * SILENT only: open url from the app on the user's device over mobile data (not Wi-Fi), then
   * call verifyCode(requestId), or verifyCode(requestId, code) with the code the URL answered when
   * the provider hands one out.
   */
  public record SilentStart(String url) {}

  /** The code a SILENT request fell back to (send-code's fallback): either requestId verifies it. */
  public record SilentFallback(
      String requestId, Channel channel, EntryStatus status, FallbackReason reason, Instant expiresAt) {}

  /** One channel of a send: keep requestId to verify the code. silent is set for SILENT only. */
  public record SendEntry(
      String requestId, Channel channel, EntryStatus status, Instant expiresAt, String to,
      DeliveryType deliveryType, EntryError error, Risk risk, SilentStart silent, SilentFallback fallback) {}

  /** SILENT only: what the provider concluded, and why (a sentence, never a code or a number). */
  public record SilentCheck(SilentOutcome outcome, String reason) {}

  /**
   * A wrong code is verified false, not an exception. For SILENT, silent says what the provider
   * concluded, and fallback is the code a failed check sent (with send-code's fallback).
   */
  public record VerifyResult(
      boolean verified, Channel channel, String requestId, VerificationStatus status, int attemptsRemaining,
      SilentCheck silent, SilentFallback fallback) {}

  /**
   * send-code's link option (EMAIL only): the email carries a magic link beside the code; the
   * first of the two used consumes both. {@link #toServicePage()}: the link ends on the service's
   * own "verified" page; {@link #redirectTo(String)}: on your app's page (an origin the account
   * lists in linkRedirectOrigins), with requestId and status=verified added to its query.
   */
  public record SendLink(String redirectUrl) {
    public static SendLink toServicePage() { return new SendLink(null); }

    public static SendLink redirectTo(String redirectUrl) { return new SendLink(java.util.Objects.requireNonNull(redirectUrl, "redirectUrl")); }
  }

  /** What became of the message (or call) that carries the code; provider is null before one took it. */
  public record VerificationDelivery(DeliveryState status, String provider, Instant updatedAt) {}

  /**
   * A SILENT request's fallback (send-code's fallback) and what became of it; reason and requestId
   * (the sibling that carries the code) once it fired.
   */
  public record VerificationFallback(Channel channel, FallbackState state, FallbackReason reason, String requestId) {}

  /**
   * A verification request as a resource (getVerification, cancelVerification). verifiedAt and
   * method are set once it is verified, deliveryType for WHATSAPP, siblingRequestId for a dual
   * send, fallback for a SILENT send with one. method and delivery().status() are null for a value
   * newer than this library.
   */
  public record Verification(
      String requestId, Channel channel, VerificationStatus status, String to, Instant createdAt, Instant expiresAt,
      int attemptsRemaining, DeliveryType deliveryType, Instant verifiedAt, VerificationMethod method,
      String siblingRequestId, VerificationDelivery delivery, VerificationFallback fallback) {}

  /** One problem of a refused request: the field, the message and, where one is concerned, the channel. */
  public record ErrorDetail(String field, String message, Channel channel) {}

  /** detail: what the provider's last check found, where it says more than its state (whatsapp-call's calling setting). */
  public record ProviderHealth(String name, ProviderState state, String detail) {}

  public record ChannelHealth(boolean operational, List<ProviderHealth> providers, LiveCodes liveCodes, String note) {}

  public record Services(ServiceState database, ServiceState rateLimitStore) {}

  public record PumpingBreakerCount(String country, int count) {}

  /**
   * The instances serving on the service's database, as the answering one last saw them: with live
   * above 1, any withoutRedis (instances without REDIS_URL) makes the status degraded.
   */
  public record InstancesHealth(int live, int withoutRedis) {}

  /**
   * A rotation of CODE_SECRET in progress (CODE_SECRET_PREVIOUS set; never a secret): previousSecrets
   * are still accepted since the answering instance's start, and once every instance is past
   * removableAfter, CODE_SECRET_PREVIOUS can be removed (and the service restarted).
   */
  public record CodeSecretRotation(int previousSecrets, Instant since, Instant removableAfter) {}

  /**
   * GET /health; codeSecretRotation is null unless a rotation of CODE_SECRET is in progress. lookups is
   * the carrier lookup provider (LOOKUP_PROVIDER) on the answering instance, null when none is
   * configured: DOWN while its circuit is open (the status is then degraded), UP once it answered,
   * UNKNOWN before.
   */
  public record Health(
      HealthStatus status, String version, long uptimeSeconds, Services services,
      Map<Channel, ChannelHealth> channels, ProviderHealth lookups, InstancesHealth instances,
      List<PumpingBreakerCount> pumpingBreakers, CodeSecretRotation codeSecretRotation) {}

  /**
   * One message of the outbox (GET /v1/admin/outbox); status is its request's state now, and code is
   * set for a test-mode request that is pending. groupId is shared by both requests of a dual send,
   * and siblingRequestId is the other request of one (null for a single send); verifiedAt and method
   * are set once its request is verified.
   */
  public record OutboxMessage(
      String id, String accountId, String requestId, String groupId, String siblingRequestId,
      VerificationStatus status, Instant verifiedAt, VerificationMethod method, Channel channel, String to,
      String subject, String text, String html, String code, Instant createdAt) {}
}
