package com.contactverify;

import com.fasterxml.jackson.annotation.JsonValue;

/** The state of one channel of a send: pending (sent, waiting for the code) or undelivered. */
public enum EntryStatus {
  PENDING("pending"),
  UNDELIVERED("undelivered");

  private final String value;

  EntryStatus(String value) { this.value = value; }

  /** The value as the API writes it. */
  @JsonValue
  public String value() { return value; }

  @Override
  public String toString() { return value; }
}
