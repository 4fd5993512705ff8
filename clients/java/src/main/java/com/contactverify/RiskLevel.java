package com.contactverify;

import com.fasterxml.jackson.annotation.JsonValue;

/** The level of a send's risk score. */
public enum RiskLevel {
  LOW("low"),
  MEDIUM("medium"),
  HIGH("high");

  private final String value;

  RiskLevel(String value) { this.value = value; }

  /** The value as the API writes it. */
  @JsonValue
  public String value() { return value; }

  @Override
  public String toString() { return value; }
}
