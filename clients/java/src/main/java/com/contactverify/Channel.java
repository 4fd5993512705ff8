package com.contactverify;

import com.fasterxml.jackson.annotation.JsonValue;

/** A delivery channel. */
public enum Channel {
  EMAIL("EMAIL"),
  SMS("SMS"),
  WHATSAPP("WHATSAPP"),
  /** A phone call that reads the code. */
  VOICE("VOICE"),
  /**
   * Silent network authentication: the app opens the entry's silent().url() on the device over
   * mobile data, then {@code verifyCode(requestId)} asks the provider; no code to type.
   */
  SILENT("SILENT");

  private final String value;

  Channel(String value) { this.value = value; }

  /** The value as the API writes it. */
  @JsonValue
  public String value() { return value; }

  @Override
  public String toString() { return value; }
}
