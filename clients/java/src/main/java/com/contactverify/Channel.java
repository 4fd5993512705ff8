package com.contactverify;

import com.fasterxml.jackson.annotation.JsonValue;

/** A delivery channel. */
public enum Channel {
  EMAIL("EMAIL"),
  SMS("SMS"),
  WHATSAPP("WHATSAPP"),
  /** A phone call that reads the code. */
  VOICE("VOICE");

  private final String value;

  Channel(String value) { this.value = value; }

  /** The value as the API writes it. */
  @JsonValue
  public String value() { return value; }

  @Override
  public String toString() { return value; }
}
