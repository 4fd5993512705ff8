package com.contactverify;

import com.fasterxml.jackson.annotation.JsonValue;

/** What happens to a live code on a channel: delivered, parked in the outbox, or refused. */
public enum LiveCodes {
  DELIVERED("delivered"),
  OUTBOX("outbox"),
  REFUSED("refused");

  private final String value;

  LiveCodes(String value) { this.value = value; }

  /** The value as the API writes it. */
  @JsonValue
  public String value() { return value; }

  @Override
  public String toString() { return value; }
}
