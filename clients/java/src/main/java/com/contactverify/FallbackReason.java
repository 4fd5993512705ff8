package com.contactverify;

import com.fasterxml.jackson.annotation.JsonValue;

/** Why a SILENT request fell back to a code: its provider failed, the network proved another SIM, or the device did not finish in time. */
public enum FallbackReason {
  PROVIDER_FAILED("provider_failed"),
  REJECTED("rejected"),
  TIMEOUT("timeout");

  private final String value;

  FallbackReason(String value) { this.value = value; }

  /** The value as the API writes it. */
  @JsonValue
  public String value() { return value; }

  @Override
  public String toString() { return value; }
}
