package com.contactverify;

import com.fasterxml.jackson.annotation.JsonValue;

/** What became of a SILENT request's fallback (Verification.fallback().state()); a newer state reads as null. */
public enum FallbackState {
  /** Waiting for the account's silentTimeoutSeconds. */
  SCHEDULED("scheduled"),
  /** Its code was sent: requestId() is the sibling request that carries it. */
  FIRED("fired"),
  /** Not needed: the SILENT request settled first. */
  DROPPED("dropped");

  private final String value;

  FallbackState(String value) { this.value = value; }

  /** The value as the API writes it. */
  @JsonValue
  public String value() { return value; }

  @Override
  public String toString() { return value; }
}
