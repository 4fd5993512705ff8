package com.contactverify;

/**
 * The contract's stable error codes ({@link ContactVerifyException#code()}), plus NETWORK_ERROR:
 * the library's own, when no answer came. A code this version does not know stays readable as
 * the exception's code() string.
 */
public enum ErrorCode {
  VALIDATION_ERROR,
  INVALID_JSON,
  INVALID_DESTINATION,
  UNSUPPORTED_NUMBER,
  UNAUTHORIZED,
  FORBIDDEN,
  CHANNEL_NOT_ENABLED,
  CONTACT_BLOCKED,
  RISK_TOO_HIGH,
  NOT_FOUND,
  REQUEST_TIMEOUT,
  IDEMPOTENCY_KEY_IN_USE,
  PAYLOAD_TOO_LARGE,
  UNSUPPORTED_MEDIA_TYPE,
  IDEMPOTENCY_KEY_REUSED,
  RATE_LIMITED,
  TOO_MANY_ATTEMPTS,
  HEADERS_TOO_LARGE,
  INTERNAL,
  DELIVERY_FAILED,
  UNAVAILABLE,
  CHANNEL_UNAVAILABLE,
  /** No answer from the service (connection refused, timeout): status 0. */
  NETWORK_ERROR;

  /** The value as the API writes it. */
  public String value() { return name(); }
}
