package com.contactverify;

import com.fasterxml.jackson.annotation.JsonValue;

/** The state of one backing service (database, rate-limit store). */
public enum ServiceState {
  UP("up"),
  DOWN("down");

  private final String value;

  ServiceState(String value) { this.value = value; }

  /** The value as the API writes it. */
  @JsonValue
  public String value() { return value; }

  @Override
  public String toString() { return value; }
}
