package com.contactverify;

import com.fasterxml.jackson.annotation.JsonValue;

/** What the provider concluded about a SILENT check (verify-code's silent.outcome); PENDING: the device has not opened silent.url yet, call again. */
public enum SilentOutcome {
  VERIFIED("verified"),
  PENDING("pending"),
  REJECTED("rejected"),
  INVALID_NUMBER("invalid_number"),
  UNAVAILABLE("unavailable");

  private final String value;

  SilentOutcome(String value) { this.value = value; }

  /** The value as the API writes it. */
  @JsonValue
  public String value() { return value; }

  @Override
  public String toString() { return value; }
}
