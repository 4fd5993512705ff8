package com.contactverify;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * A send-code request, built fluently:
 * {@code SendCode.email("jane@example.com").purpose("sign-in").locale("es-MX")},
 * {@code SendCode.sms("+33612345678").deliveryType(DeliveryType.CALL).country("FR")},
 * {@code SendCode.dual(Channel.EMAIL, Channel.SMS).withEmail(e).withPhone(p)},
 * {@code SendCode.email(e).link(SendLink.toServicePage())},
 * {@code SendCode.silent(p).fallback(Channel.SMS)}. Each setter returns a new
 * request, so a base request can be shared.
 */
public final class SendCode {
  private final Channel channel;
  private final List<Channel> channels;
  private final Map<String, Object> fields;
  private final String idempotencyKey;

  private SendCode(Channel channel, List<Channel> channels, Map<String, Object> fields, String idempotencyKey) {
    this.channel = channel;
    this.channels = channels;
    this.fields = fields;
    this.idempotencyKey = idempotencyKey;
  }

  private static SendCode one(Channel channel, String field, String to) {
    Map<String, Object> fields = new LinkedHashMap<>();
    fields.put(field, Objects.requireNonNull(to, field));
    return new SendCode(channel, null, fields, null);
  }

  /** A code by email. */
  public static SendCode email(String email) { return one(Channel.EMAIL, "email", email); }

  /** A code by SMS (E.164, or national with {@link #country(String)}). */
  public static SendCode sms(String phone) { return one(Channel.SMS, "phone", phone); }

  /** A code by WhatsApp. */
  public static SendCode whatsapp(String phone) { return one(Channel.WHATSAPP, "phone", phone); }

  /** A phone call to {@code phone} (+ and country code) that reads the code. */
  public static SendCode voice(String phone) { return one(Channel.VOICE, "phone", phone); }

  /**
   * Silent network authentication of {@code phone} (+ and country code): the entry's silent().url()
   * is opened by your app on the device, then verifyCode(requestId) asks the provider. Add
   * {@link #fallback(Channel)} to send a code when the silent check fails.
   */
  public static SendCode silent(String phone) { return one(Channel.SILENT, "phone", phone); }

  /** A code on one channel; set its destination with {@link #withEmail(String)} or {@link #withPhone(String)}. */
  public static SendCode on(Channel channel) {
    return new SendCode(Objects.requireNonNull(channel, "channel"), null, new LinkedHashMap<>(), null);
  }

  /**
   * Codes on two different channels at once (send with sendCodeDual): set both destinations; the
   * code of either verifies either request.
   */
  public static SendCode dual(Channel first, Channel second) {
    if (first == second) throw new IllegalArgumentException("two different channels");
    return new SendCode(null, List.of(first, second), new LinkedHashMap<>(), null);
  }

  private SendCode with(String name, Object value) {
    Map<String, Object> next = new LinkedHashMap<>(fields);
    if (value == null) next.remove(name); else next.put(name, value);
    return new SendCode(channel, channels, next, idempotencyKey);
  }

  /** The channel of a one-channel send, null for a dual send. */
  public Channel channel() { return channel; }

  /** The two channels of a dual send, null for a one-channel send. */
  public List<Channel> channels() { return channels; }

  /** The email address (of a dual or {@link #on(Channel)} request). */
  public SendCode withEmail(String email) { return with("email", email); }

  /** The phone number (of a dual or {@link #on(Channel)} request). */
  public SendCode withPhone(String phone) { return with("phone", phone); }

  /** ISO 3166-1 alpha-2 country of a national phone number (FR, US...). */
  public SendCode country(String country) { return with("country", country); }

  /** TEXT (default) or CALL, for SMS and WhatsApp. */
  public SendCode deliveryType(DeliveryType deliveryType) { return with("deliveryType", deliveryType); }

  /** What the code is for (sign-in, sign-up...): shown in the message and in analytics. */
  public SendCode purpose(String purpose) { return with("purpose", purpose); }

  /** A sentence added to the message. */
  public SendCode customMessage(String customMessage) { return with("customMessage", customMessage); }

  /** The recipient's BCP 47 language tag (es, pt-BR, de-AT); English when unsupported. */
  public SendCode locale(String locale) { return with("locale", locale); }

  /**
   * EMAIL only: the email carries a magic link beside the code ({@code SendLink.toServicePage()},
   * or {@code SendLink.redirectTo("https://app.example.com/welcome")}); needs the service's
   * PUBLIC_BASE_URL.
   */
  public SendCode link(Models.SendLink link) { return with("link", link); }

  /**
   * SILENT only: the channel (SMS, WHATSAPP or VOICE) that sends a code, as the request's dual
   * sibling, when the silent check fails or does not succeed in time; either requestId verifies it.
   */
  public SendCode fallback(Channel fallback) { return with("fallback", fallback); }

  /**
   * Your own Idempotency-Key for this send (a retry of yours with the same key gets the first
   * answer back, no second code); by default each send gets a random UUID, kept across the
   * library's retries.
   */
  public SendCode idempotencyKey(String idempotencyKey) {
    return new SendCode(channel, channels, fields, idempotencyKey);
  }

  String idempotencyKey() { return idempotencyKey; }

  boolean isDual() { return channels != null; }

  /** The JSON body. */
  Map<String, Object> body() {
    Map<String, Object> body = new LinkedHashMap<>();
    if (channel != null) body.put("channel", channel);
    if (channels != null) body.put("channels", channels);
    body.putAll(fields);
    return body;
  }

  @Override
  public String toString() { return "SendCode" + body(); }
}
