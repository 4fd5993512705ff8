package com.contactverify;

import com.fasterxml.jackson.annotation.JsonValue;

/** Where the message (or call) that carries the code is; the last four are calls'. A state newer than this library reads as null. */
public enum DeliveryState {
  /** Not handed to a provider yet. */
  QUEUED("queued"),
  /** A provider (or the outbox) took it. */
  SENT("sent"),
  /** The provider reported it delivered. */
  DELIVERED("delivered"),
  /** Refused by every provider, reported undelivered, or a call that failed. */
  UNDELIVERED("undelivered"),
  /** A WhatsApp call waits for the user to allow calls. */
  AWAITING_PERMISSION("awaiting_permission"),
  CALLING("calling"),
  /** The code is being read. */
  ANSWERED("answered"),
  COMPLETED("completed");

  private final String value;

  DeliveryState(String value) { this.value = value; }

  /** The value as the API writes it. */
  @JsonValue
  public String value() { return value; }

  @Override
  public String toString() { return value; }
}
