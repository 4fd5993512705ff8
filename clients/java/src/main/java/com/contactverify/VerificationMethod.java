package com.contactverify;

import com.fasterxml.jackson.annotation.JsonValue;

/** How a request was verified: the code typed (CODE), the email's magic link (LINK) or silent network authentication (SILENT). A method newer than this library reads as null. */
public enum VerificationMethod {
  CODE("code"),
  LINK("link"),
  SILENT("silent");

  private final String value;

  VerificationMethod(String value) { this.value = value; }

  /** The value as the API writes it. */
  @JsonValue
  public String value() { return value; }

  @Override
  public String toString() { return value; }
}
