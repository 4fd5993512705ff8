package com.contactverify;

import java.util.List;
import java.util.Map;
import java.util.OptionalInt;

/**
 * Every failed call: the service's error body, with the HTTP status and Retry-After. {@link #code()}
 * is the contract's stable code (TOO_MANY_ATTEMPTS, RATE_LIMITED, UNAUTHORIZED, ...), or
 * NETWORK_ERROR with status 0 when no answer came.
 */
public final class ContactVerifyException extends RuntimeException {
  private static final long serialVersionUID = 1L;
  private final int status;
  private final String code;
  private final transient List<Map<String, Object>> details;
  private final Integer retryAfter;

  public ContactVerifyException(int status, String code, String message, List<Map<String, Object>> details, Integer retryAfter) {
    super(status + " " + code + ": " + message);
    this.status = status;
    this.code = code;
    this.details = details == null ? List.of() : details;
    this.retryAfter = retryAfter;
  }

  public int status() { return status; }

  public String code() { return code; }

  /** One entry per problem: field, message and, where one is concerned, channel. */
  public List<Map<String, Object>> details() { return details; }

  /** Seconds to wait before a retry can succeed, when the service sent Retry-After. */
  public OptionalInt retryAfter() { return retryAfter == null ? OptionalInt.empty() : OptionalInt.of(retryAfter); }
}
