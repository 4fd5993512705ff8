package com.contactverify;

import com.fasterxml.jackson.annotation.JsonValue;

/** The state of a verification request. */
public enum VerificationStatus {
  PENDING("pending"),
  VERIFIED("verified"),
  EXPIRED("expired"),
  FAILED("failed"),
  CANCELED("canceled");

  private final String value;

  VerificationStatus(String value) { this.value = value; }

  /** The value as the API writes it. */
  @JsonValue
  public String value() { return value; }

  @Override
  public String toString() { return value; }
}
