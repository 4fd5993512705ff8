# frozen_string_literal: true

module ContactVerify
  # The document's enums as Symbols (+:email+, +:pending+), one constant each (+Channel::EMAIL+).
  # Each module is made from the values on the wire, the list the drift test holds to the document.
  module Enum
    # Wire values in the document's order.
    attr_reader :wire_values

    # The Symbols, in the same order.
    def all
      wire_values.map { |w| symbol_of(w) }
    end

    # The wire value of +value+ (a Symbol such as +:email+, or the wire spelling, "EMAIL").
    def to_wire(value)
      wire = wire_values.find { |w| w.casecmp?(value.to_s) }
      return wire if wire

      raise ArgumentError, "unknown #{name.split('::').last} #{value.inspect} (one of #{all.map(&:inspect).join(', ')})"
    end

    # The Symbol of a wire value; a value this version does not know yet still reads as its Symbol.
    def from_wire(text)
      text.nil? ? nil : symbol_of(text)
    end

    private

    def values(*wire)
      @wire_values = wire.freeze
      wire.each { |w| const_set(w.upcase, symbol_of(w)) }
      const_set(:ALL, all.freeze)
    end

    def symbol_of(wire)
      wire.to_s.downcase.to_sym
    end
  end

  # Delivery channel. +:silent+ is silent network authentication: no code to type (see Client#verify_code).
  module Channel
    extend Enum
    values "EMAIL", "SMS", "WHATSAPP", "VOICE", "SILENT"
  end

  # How a WHATSAPP code is delivered: a message (the default) or read out in a call.
  module DeliveryType
    extend Enum
    values "TEXT", "CALL"
  end

  # State of a verification request: pending, then verified, expired, failed (attempts used up) or
  # canceled (superseded, or its dual sibling was verified).
  module VerificationStatus
    extend Enum
    values "pending", "verified", "expired", "failed", "canceled"
  end

  # Status of one entry of a send: +undelivered+ only in a dual answer whose other channel was delivered.
  module SendCodeEntryStatus
    extend Enum
    values "pending", "undelivered"
  end

  # The band of a send's fraud score.
  module RiskLevel
    extend Enum
    values "low", "medium", "high"
  end

  # +degraded+ when the rate-limit store, a channel or a country is down; +down+ when the database is.
  module HealthStatus
    extend Enum
    values "ok", "degraded", "down"
  end

  # How a request was verified (Verification#method): the code typed, the email's magic link, or
  # silent network authentication. A newer method reads as its own Symbol.
  module VerificationMethod
    extend Enum
    values "code", "link", "silent"
  end

  # Where the message (or call) that carries the code is (Verification#delivery.status): +:queued+,
  # +:sent+, +:delivered+, +:undelivered+, and for calls +:awaiting_permission+, +:calling+,
  # +:answered+, +:completed+. A newer state reads as its own Symbol.
  module DeliveryState
    extend Enum
    values "queued", "sent", "delivered", "undelivered", "awaiting_permission", "calling", "answered", "completed"
  end

  # Why a SILENT request fell back to a code: its provider failed, the network proved another SIM,
  # or the device did not finish in time.
  module FallbackReason
    extend Enum
    values "provider_failed", "rejected", "timeout"
  end

  # What became of a SILENT request's fallback (Verification#fallback.state): +:scheduled+ (waiting for
  # silentTimeoutSeconds), +:fired+ (its code was sent), +:dropped+ (the SILENT request settled first).
  module FallbackState
    extend Enum
    values "scheduled", "fired", "dropped"
  end

  # What the provider concluded about a SILENT check (VerifyCodeResult#silent.outcome); +:pending+:
  # the device has not opened the URL yet, ask again.
  module SilentOutcome
    extend Enum
    values "verified", "pending", "rejected", "invalid_number", "unavailable"
  end

  # The contract's error codes, as the service spells them (Error#code is one of these Strings).
  module ErrorCode
    ALL = %w[
      VALIDATION_ERROR INVALID_JSON INVALID_DESTINATION UNSUPPORTED_NUMBER UNAUTHORIZED FORBIDDEN
      CHANNEL_NOT_ENABLED CONTACT_BLOCKED RISK_TOO_HIGH NOT_FOUND REQUEST_TIMEOUT IDEMPOTENCY_KEY_IN_USE
      PAYLOAD_TOO_LARGE UNSUPPORTED_MEDIA_TYPE IDEMPOTENCY_KEY_REUSED RATE_LIMITED TOO_MANY_ATTEMPTS
      HEADERS_TOO_LARGE INTERNAL DELIVERY_FAILED UNAVAILABLE CHANNEL_UNAVAILABLE
    ].freeze
    ALL.each { |code| const_set(code, code) }
    # The library's own, not the service's: no answer came (ConnectionError).
    NETWORK_ERROR = "NETWORK_ERROR"
  end
end
