package com.contactverify;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonInclude;
import java.util.List;
import java.util.Map;

/** The requests and answers of the API, as records named after its JSON members. */
public final class Models {
  private Models() {}

  /**
   * The send-code body: channel for one channel, channels for two at once; locale is the
   * recipient's BCP 47 language tag (es, pt-BR, de-AT), English when unsupported.
   */
  @JsonInclude(JsonInclude.Include.NON_NULL)
  public record SendRequest(
      String channel, List<String> channels, String email, String phone, String country,
      String deliveryType, String purpose, String customMessage, String locale) {
    /** The body without a locale (the constructor before locale existed). */
    public SendRequest(
        String channel, List<String> channels, String email, String phone, String country,
        String deliveryType, String purpose, String customMessage) {
      this(channel, channels, email, phone, country, deliveryType, purpose, customMessage, null);
    }

    public static SendRequest email(String email) {
      return new SendRequest("EMAIL", null, email, null, null, null, null, null, null);
    }

    public static SendRequest sms(String phone) {
      return new SendRequest("SMS", null, null, phone, null, null, null, null, null);
    }

    /** The same request in the recipient's language. */
    public SendRequest withLocale(String locale) {
      return new SendRequest(channel, channels, email, phone, country, deliveryType, purpose, customMessage, locale);
    }
  }

  @JsonIgnoreProperties(ignoreUnknown = true)
  public record RiskSignal(String name, double weight, String detail) {}

  @JsonIgnoreProperties(ignoreUnknown = true)
  public record Risk(int score, String level, List<RiskSignal> signals) {}

  /** One channel of a send: keep requestId to verify the code. */
  @JsonIgnoreProperties(ignoreUnknown = true)
  public record SendEntry(
      String requestId, String channel, String status, String expiresAt, String to,
      String deliveryType, Map<String, String> error, Risk risk) {}

  /** A wrong code is verified false, not an exception. */
  @JsonIgnoreProperties(ignoreUnknown = true)
  public record VerifyResult(boolean verified, String channel, String requestId, String status, int attemptsRemaining) {}

  @JsonIgnoreProperties(ignoreUnknown = true)
  public record Health(String status, String version, double uptimeSeconds, Map<String, String> services, Map<String, Object> channels) {}
}
