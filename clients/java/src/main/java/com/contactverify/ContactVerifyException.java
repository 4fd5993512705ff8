package com.contactverify;

import com.contactverify.Models.ErrorDetail;
import java.time.Duration;
import java.util.List;
import java.util.Optional;

/**
 * Every failed call: the service's error body, with the HTTP status and Retry-After.
 * {@link #code()} is the contract's stable code (TOO_MANY_ATTEMPTS, RATE_LIMITED, UNAUTHORIZED...),
 * or NETWORK_ERROR with status 0 when no answer came. Unchecked.
 */
public final class ContactVerifyException extends RuntimeException {
  private static final long serialVersionUID = 1L;
  private final int status;
  private final String code;
  private final String errorMessage;
  private final transient List<ErrorDetail> details;
  private final Duration retryAfter;

  public ContactVerifyException(int status, String code, String message, List<ErrorDetail> details, Duration retryAfter) {
    this(status, code, message, details, retryAfter, null);
  }

  ContactVerifyException(int status, String code, String message, List<ErrorDetail> details, Duration retryAfter, Throwable cause) {
    super(status + " " + code + ": " + message, cause);
    this.status = status;
    this.code = code;
    this.errorMessage = message;
    this.details = details == null ? List.of() : List.copyOf(details);
    this.retryAfter = retryAfter;
  }

  /** The HTTP status; 0 when no answer came. */
  public int status() { return status; }

  /** The contract's code, as the service sent it. */
  public String code() { return code; }

  /** The code as an enum; empty for a code this version of the library does not know. */
  public Optional<ErrorCode> errorCode() {
    for (ErrorCode c : ErrorCode.values()) if (c.name().equals(code)) return Optional.of(c);
    return Optional.empty();
  }

  /** Whether this is the error {@code code}: {@code if (e.is(ErrorCode.TOO_MANY_ATTEMPTS))}. */
  public boolean is(ErrorCode code) { return code.name().equals(this.code); }

  /** The service's message (getMessage() adds the status and code). */
  public String message() { return errorMessage; }

  /** One entry per problem: field, message and, where one is concerned, channel. */
  public List<ErrorDetail> details() { return details; }

  /** How long to wait before a retry can succeed, when the service sent Retry-After. */
  public Optional<Duration> retryAfter() { return Optional.ofNullable(retryAfter); }
}
