package com.contactverify;

import com.fasterxml.jackson.annotation.JsonValue;

/** The service's overall state. */
public enum HealthStatus {
  OK("ok"),
  DEGRADED("degraded"),
  DOWN("down");

  private final String value;

  HealthStatus(String value) { this.value = value; }

  /** The value as the API writes it. */
  @JsonValue
  public String value() { return value; }

  @Override
  public String toString() { return value; }
}
