"""The answers of the API as frozen dataclasses: snake_case names of the document's fields, enums
for its enums, ``datetime`` (timezone-aware, UTC) for its timestamps. Fields a newer service adds
are ignored here (the drift test of this library fails until they are added)."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime
from typing import Any, Dict, List, Optional, Union

from .enums import (
    Channel,
    DeliveryState,
    DeliveryType,
    FallbackReason,
    FallbackState,
    HealthStatus,
    RiskLevel,
    SendEntryStatus,
    SilentOutcome,
    VerificationMethod,
    VerificationStatus,
)


def parse_time(text: str) -> datetime:
    """An RFC 3339 timestamp of the service (``2030-01-01T00:00:00.000Z``) as an aware datetime."""
    return datetime.fromisoformat(text[:-1] + "+00:00" if text.endswith("Z") else text)


@dataclass(frozen=True)
class ErrorDetail:
    """One problem of a refused request: the ``field`` and what is wrong with it."""

    field: str
    message: str
    channel: Optional[Union[Channel, str]] = None

    @staticmethod
    def from_json(d: Dict[str, Any]) -> "ErrorDetail":
        channel = d.get("channel")
        return ErrorDetail(d["field"], d["message"], Channel.parse(channel) if channel else None)


@dataclass(frozen=True)
class RiskSignal:
    name: str
    weight: int
    detail: Optional[str] = None


@dataclass(frozen=True)
class Risk:
    """The fraud score of a send (0-100) and the signals behind it."""

    score: int
    level: Union[RiskLevel, str]
    signals: List[RiskSignal] = field(default_factory=list)

    @staticmethod
    def from_json(d: Dict[str, Any]) -> "Risk":
        signals = [RiskSignal(s["name"], s["weight"], s.get("detail")) for s in d.get("signals", [])]
        return Risk(d["score"], RiskLevel.parse(d["level"]), signals)


@dataclass(frozen=True)
class SendEntryError:
    """Why one channel of a dual send is ``undelivered``."""

    code: str
    message: str


@dataclass(frozen=True)
class Link:
    """send_code's ``link=``: the EMAIL also carries a magic link, used up with the code. Without
    ``redirect_url`` the link ends on the service's own "verified" page; with one (an origin of the
    account's ``linkRedirectOrigins``), the browser goes there with ``requestId`` and
    ``status=verified`` in its query. The service needs PUBLIC_BASE_URL."""

    redirect_url: Optional[str] = None

    def to_json(self) -> Dict[str, Any]:
        return {"redirectUrl": self.redirect_url} if self.redirect_url is not None else {}


@dataclass(frozen=True)
class SilentCheck:
    """A SILENT entry's ``silent``: open ``url`` from the app on the user's device over mobile
    data (not Wi-Fi), then call ``verify_code(request_id)`` (with the code the URL answered, when
    the provider hands one out)."""

    url: str


@dataclass(frozen=True)
class SilentFallback:
    """The code a SILENT request fell back to (send_code's ``fallback=``): either request id
    verifies it."""

    request_id: str
    channel: Union[Channel, str]
    status: Union[SendEntryStatus, str]
    reason: Union[FallbackReason, str]
    expires_at: datetime

    @staticmethod
    def from_json(d: Dict[str, Any]) -> "SilentFallback":
        return SilentFallback(
            request_id=d["requestId"],
            channel=Channel.parse(d["channel"]),
            status=SendEntryStatus.parse(d["status"]),
            reason=FallbackReason.parse(d["reason"]),
            expires_at=parse_time(d["expiresAt"]),
        )


@dataclass(frozen=True)
class SilentResult:
    """What the provider concluded of a SILENT request's check; ``PENDING``: call again."""

    outcome: Union[SilentOutcome, str]
    reason: Optional[str] = None


@dataclass(frozen=True)
class SendEntry:
    """One channel of a send: keep ``request_id`` to verify the code."""

    request_id: str
    channel: Union[Channel, str]
    status: Union[SendEntryStatus, str]
    expires_at: datetime
    to: str
    delivery_type: Optional[Union[DeliveryType, str]] = None
    error: Optional[SendEntryError] = None
    risk: Optional[Risk] = None
    silent: Optional[SilentCheck] = None
    fallback: Optional[SilentFallback] = None

    @property
    def pending(self) -> bool:
        return self.status == SendEntryStatus.PENDING

    @staticmethod
    def from_json(d: Dict[str, Any]) -> "SendEntry":
        error = d.get("error")
        return SendEntry(
            request_id=d["requestId"],
            channel=Channel.parse(d["channel"]),
            status=SendEntryStatus.parse(d["status"]),
            expires_at=parse_time(d["expiresAt"]),
            to=d["to"],
            delivery_type=DeliveryType.parse(d["deliveryType"]) if d.get("deliveryType") else None,
            error=SendEntryError(error["code"], error["message"]) if error else None,
            risk=Risk.from_json(d["risk"]) if d.get("risk") else None,
            silent=SilentCheck(d["silent"]["url"]) if d.get("silent") else None,
            fallback=SilentFallback.from_json(d["fallback"]) if d.get("fallback") else None,
        )


@dataclass(frozen=True)
class VerifyResult:
    """A verify call's answer; a wrong code is ``verified=False``, not an error."""

    verified: bool
    channel: Union[Channel, str]
    request_id: str
    status: Union[VerificationStatus, str]
    attempts_remaining: int
    silent: Optional[SilentResult] = None
    fallback: Optional[SilentFallback] = None

    @staticmethod
    def from_json(d: Dict[str, Any]) -> "VerifyResult":
        silent = d.get("silent")
        return VerifyResult(
            verified=d["verified"],
            channel=Channel.parse(d["channel"]),
            request_id=d["requestId"],
            status=VerificationStatus.parse(d["status"]),
            attempts_remaining=d["attemptsRemaining"],
            silent=SilentResult(SilentOutcome.parse(silent["outcome"]), silent.get("reason")) if silent else None,
            fallback=SilentFallback.from_json(d["fallback"]) if d.get("fallback") else None,
        )


@dataclass(frozen=True)
class VerificationDelivery:
    """What became of the message (or call) that carries the code; ``provider`` is None before
    one took it (``outbox`` for the built-in outbox)."""

    status: Union[DeliveryState, str]
    updated_at: datetime
    provider: Optional[str] = None


@dataclass(frozen=True)
class VerificationFallback:
    """A SILENT request's fallback (send_code's ``fallback=``) and what became of it: ``reason``
    and ``request_id`` (the fallback code's request) once it fired."""

    channel: Union[Channel, str]
    state: Union[FallbackState, str]
    reason: Optional[Union[FallbackReason, str]] = None
    request_id: Optional[str] = None

    @staticmethod
    def from_json(d: Dict[str, Any]) -> "VerificationFallback":
        return VerificationFallback(
            channel=Channel.parse(d["channel"]),
            state=FallbackState.parse(d["state"]),
            reason=FallbackReason.parse(d["reason"]) if d.get("reason") else None,
            request_id=d.get("requestId"),
        )


@dataclass(frozen=True)
class Verification:
    """A verification request as it is now (get_verification, cancel_verification). ``verified_at``
    and ``method`` are set only when ``status`` is verified; ``sibling_request_id`` names the other
    request of a dual send."""

    request_id: str
    channel: Union[Channel, str]
    status: Union[VerificationStatus, str]
    to: str
    created_at: datetime
    expires_at: datetime
    attempts_remaining: int
    delivery: VerificationDelivery
    delivery_type: Optional[Union[DeliveryType, str]] = None
    verified_at: Optional[datetime] = None
    method: Optional[Union[VerificationMethod, str]] = None
    sibling_request_id: Optional[str] = None
    fallback: Optional[VerificationFallback] = None

    @staticmethod
    def from_json(d: Dict[str, Any]) -> "Verification":
        delivery = d["delivery"]
        return Verification(
            request_id=d["requestId"],
            channel=Channel.parse(d["channel"]),
            status=VerificationStatus.parse(d["status"]),
            to=d["to"],
            created_at=parse_time(d["createdAt"]),
            expires_at=parse_time(d["expiresAt"]),
            attempts_remaining=d["attemptsRemaining"],
            delivery=VerificationDelivery(
                DeliveryState.parse(delivery["status"]), parse_time(delivery["updatedAt"]), delivery.get("provider")
            ),
            delivery_type=DeliveryType.parse(d["deliveryType"]) if d.get("deliveryType") else None,
            verified_at=parse_time(d["verifiedAt"]) if d.get("verifiedAt") else None,
            method=VerificationMethod.parse(d["method"]) if d.get("method") else None,
            sibling_request_id=d.get("siblingRequestId"),
            fallback=VerificationFallback.from_json(d["fallback"]) if d.get("fallback") else None,
        )


@dataclass(frozen=True)
class ProviderHealth:
    name: str
    state: str  # up, down or unknown
    #: What its last check found beyond its state (whatsapp-call: ``calling ENABLED``), or None.
    detail: Optional[str] = None


@dataclass(frozen=True)
class ChannelHealth:
    operational: bool
    providers: List[ProviderHealth]
    live_codes: str  # delivered, outbox or refused
    note: Optional[str] = None

    @staticmethod
    def from_json(d: Dict[str, Any]) -> "ChannelHealth":
        providers = [ProviderHealth(p["name"], p["state"], p.get("detail")) for p in d.get("providers", [])]
        return ChannelHealth(d["operational"], providers, d.get("liveCodes", ""), d.get("note"))


@dataclass(frozen=True)
class PumpingBreakerCount:
    """How many SMS-pumping breakers (over every account and mode) stop sends to ``country``."""

    country: str
    count: int


@dataclass(frozen=True)
class InstancesHealth:
    """The instances serving on the service's database, as the answering one last saw them: with
    ``live`` above 1, any ``without_redis`` (instances without REDIS_URL) makes the status degraded."""

    live: int
    without_redis: int


@dataclass(frozen=True)
class CodeSecretRotation:
    """A rotation of CODE_SECRET in progress (CODE_SECRET_PREVIOUS set; never a secret): how many
    ``previous_secrets`` are still accepted, ``since`` when the answering instance accepts them (its
    start), and ``removable_after``: once every instance is past it, remove CODE_SECRET_PREVIOUS and
    restart."""

    previous_secrets: int
    since: datetime
    removable_after: datetime

    @staticmethod
    def from_json(d: Dict[str, Any]) -> "CodeSecretRotation":
        return CodeSecretRotation(d["previousSecrets"], parse_time(d["since"]), parse_time(d["removableAfter"]))


@dataclass(frozen=True)
class Health:
    """The answer of ``GET /health``; ``code_secret_rotation`` is None unless a rotation of
    CODE_SECRET is in progress."""

    status: Union[HealthStatus, str]
    version: str
    uptime_seconds: int
    services: Dict[str, str]
    channels: Dict[str, ChannelHealth]
    instances: Optional[InstancesHealth] = None
    #: The carrier lookup provider (LOOKUP_PROVIDER) on the answering instance, None when none is
    #: configured: ``down`` while its circuit is open (the status is then degraded), ``up`` once it
    #: answered, ``unknown`` before.
    lookups: Optional[ProviderHealth] = None
    pumping_breakers: List[PumpingBreakerCount] = field(default_factory=list)
    code_secret_rotation: Optional[CodeSecretRotation] = None

    @staticmethod
    def from_json(d: Dict[str, Any]) -> "Health":
        return Health(
            status=HealthStatus.parse(d["status"]),
            version=d["version"],
            uptime_seconds=d["uptimeSeconds"],
            services=dict(d["services"]),
            channels={k: ChannelHealth.from_json(v) for k, v in d["channels"].items()},
            instances=InstancesHealth(d["instances"]["live"], d["instances"]["withoutRedis"]) if "instances" in d else None,
            lookups=(
                ProviderHealth(d["lookups"]["name"], d["lookups"]["state"], d["lookups"].get("detail"))
                if "lookups" in d
                else None
            ),
            pumping_breakers=[PumpingBreakerCount(b["country"], b["count"]) for b in d.get("pumpingBreakers", [])],
            code_secret_rotation=(
                CodeSecretRotation.from_json(d["codeSecretRotation"]) if "codeSecretRotation" in d else None
            ),
        )


@dataclass(frozen=True)
class OutboxMessage:
    """A message the service's outbox keeps; ``status`` is its request's state now, and ``code`` is
    set for a pending test-mode request; ``verified_at`` and ``method`` say when and how it was
    verified. ``group_id`` is shared by both requests of a dual send, and
    ``sibling_request_id`` is the other request of one (None for a single send)."""

    id: str
    account_id: str
    request_id: str
    group_id: str
    status: Union[VerificationStatus, str]
    channel: Union[Channel, str]
    to: str
    text: str
    created_at: datetime
    subject: Optional[str] = None
    html: Optional[str] = None
    code: Optional[str] = None
    sibling_request_id: Optional[str] = None
    verified_at: Optional[datetime] = None
    method: Optional[Union[VerificationMethod, str]] = None

    @staticmethod
    def from_json(d: Dict[str, Any]) -> "OutboxMessage":
        return OutboxMessage(
            id=d["id"],
            account_id=d["accountId"],
            request_id=d["requestId"],
            # A service older than the field: a single send's group is its own request.
            group_id=d.get("groupId", d["requestId"]),
            sibling_request_id=d.get("siblingRequestId"),
            status=VerificationStatus.parse(d["status"]),
            channel=Channel.parse(d["channel"]),
            to=d["to"],
            text=d["text"],
            created_at=parse_time(d["createdAt"]),
            subject=d.get("subject"),
            html=d.get("html"),
            code=d.get("code"),
            verified_at=parse_time(d["verifiedAt"]) if d.get("verifiedAt") else None,
            method=VerificationMethod.parse(d["method"]) if d.get("method") else None,
        )
