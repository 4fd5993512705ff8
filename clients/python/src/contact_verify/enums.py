"""The API document's enums. Each member is also its wire string (``Channel.EMAIL == "EMAIL"``), so
plain strings are accepted wherever a member is, and answers compare equal to either."""

from __future__ import annotations

from enum import Enum
from typing import Type, TypeVar, Union

E = TypeVar("E", bound="WireEnum")


class WireEnum(str, Enum):
    def __str__(self) -> str:
        return self.value

    @classmethod
    def parse(cls: Type[E], value: str) -> Union[E, str]:
        """The member of a wire value; a value this version does not know yet stays a string."""
        try:
            return cls(value)
        except ValueError:
            return value


class Channel(WireEnum):
    EMAIL = "EMAIL"
    SMS = "SMS"
    WHATSAPP = "WHATSAPP"
    VOICE = "VOICE"
    """A phone call that reads the code."""
    SILENT = "SILENT"
    """Silent network authentication: the app opens ``entry.silent.url`` on the device over mobile
    data, then ``verify_code(request_id)`` asks the provider; no code to type."""


class DeliveryType(WireEnum):
    """How a WHATSAPP code is delivered: a message (TEXT, the default) or a call read out (CALL)."""

    TEXT = "TEXT"
    CALL = "CALL"


class VerificationStatus(WireEnum):
    """The state of a verification request, after a verify call."""

    PENDING = "pending"
    VERIFIED = "verified"
    EXPIRED = "expired"
    FAILED = "failed"
    CANCELED = "canceled"


class VerificationMethod(WireEnum):
    """How a request was verified: the code typed, its email's magic link, or the mobile network."""

    CODE = "code"
    LINK = "link"
    SILENT = "silent"


class DeliveryState(WireEnum):
    """Where the message (or call) that carries the code is; the last four are calls'."""

    QUEUED = "queued"
    SENT = "sent"
    DELIVERED = "delivered"
    UNDELIVERED = "undelivered"
    AWAITING_PERMISSION = "awaiting_permission"
    CALLING = "calling"
    ANSWERED = "answered"
    COMPLETED = "completed"


class FallbackReason(WireEnum):
    """Why a SILENT request fell back to a code."""

    PROVIDER_FAILED = "provider_failed"
    REJECTED = "rejected"
    TIMEOUT = "timeout"


class FallbackState(WireEnum):
    """What became of a SILENT request's fallback (``Verification.fallback.state``)."""

    SCHEDULED = "scheduled"
    """Waiting for the account's ``silentTimeoutSeconds``."""
    FIRED = "fired"
    """Its code was sent (``request_id``: the sibling)."""
    DROPPED = "dropped"
    """Not needed: the SILENT request settled first."""


class SilentOutcome(WireEnum):
    """What the provider concluded of a SILENT request's check (``VerifyResult.silent.outcome``)."""

    VERIFIED = "verified"
    PENDING = "pending"
    """The device has not completed ``silent.url`` yet: call again."""
    REJECTED = "rejected"
    INVALID_NUMBER = "invalid_number"
    UNAVAILABLE = "unavailable"


class SendEntryStatus(WireEnum):
    """``pending``: sent; ``undelivered``: this channel of a dual send failed (see the entry's error)."""

    PENDING = "pending"
    UNDELIVERED = "undelivered"


class RiskLevel(WireEnum):
    LOW = "low"
    MEDIUM = "medium"
    HIGH = "high"


class HealthStatus(WireEnum):
    OK = "ok"
    DEGRADED = "degraded"
    DOWN = "down"


class ErrorCode(WireEnum):
    """The contract's closed list of error codes (``error.code``), in the document's order."""

    VALIDATION_ERROR = "VALIDATION_ERROR"
    INVALID_JSON = "INVALID_JSON"
    INVALID_DESTINATION = "INVALID_DESTINATION"
    UNSUPPORTED_NUMBER = "UNSUPPORTED_NUMBER"
    UNAUTHORIZED = "UNAUTHORIZED"
    FORBIDDEN = "FORBIDDEN"
    CHANNEL_NOT_ENABLED = "CHANNEL_NOT_ENABLED"
    CONTACT_BLOCKED = "CONTACT_BLOCKED"
    RISK_TOO_HIGH = "RISK_TOO_HIGH"
    NOT_FOUND = "NOT_FOUND"
    REQUEST_TIMEOUT = "REQUEST_TIMEOUT"
    IDEMPOTENCY_KEY_IN_USE = "IDEMPOTENCY_KEY_IN_USE"
    PAYLOAD_TOO_LARGE = "PAYLOAD_TOO_LARGE"
    UNSUPPORTED_MEDIA_TYPE = "UNSUPPORTED_MEDIA_TYPE"
    IDEMPOTENCY_KEY_REUSED = "IDEMPOTENCY_KEY_REUSED"
    RATE_LIMITED = "RATE_LIMITED"
    TOO_MANY_ATTEMPTS = "TOO_MANY_ATTEMPTS"
    HEADERS_TOO_LARGE = "HEADERS_TOO_LARGE"
    INTERNAL = "INTERNAL"
    DELIVERY_FAILED = "DELIVERY_FAILED"
    UNAVAILABLE = "UNAVAILABLE"
    #: A 503 that no retry cures: the channel has no provider (only the operator can change it).
    CHANNEL_UNAVAILABLE = "CHANNEL_UNAVAILABLE"
    #: Not the service's: no answer at all (``status`` 0).
    NETWORK_ERROR = "NETWORK_ERROR"
