package com.contactverify;

import com.fasterxml.jackson.annotation.JsonValue;

/** The state of one delivery provider. */
public enum ProviderState {
  UP("up"),
  DOWN("down"),
  UNKNOWN("unknown");

  private final String value;

  ProviderState(String value) { this.value = value; }

  /** The value as the API writes it. */
  @JsonValue
  public String value() { return value; }

  @Override
  public String toString() { return value; }
}
