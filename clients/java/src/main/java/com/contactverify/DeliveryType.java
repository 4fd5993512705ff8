package com.contactverify;

import com.fasterxml.jackson.annotation.JsonValue;

/** How an SMS or WhatsApp code is delivered: a text message or a voice call. */
public enum DeliveryType {
  TEXT("TEXT"),
  CALL("CALL");

  private final String value;

  DeliveryType(String value) { this.value = value; }

  /** The value as the API writes it. */
  @JsonValue
  public String value() { return value; }

  @Override
  public String toString() { return value; }
}
