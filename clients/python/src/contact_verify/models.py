"""The answers of the API as frozen dataclasses: snake_case names of the document's fields, enums
for its enums, ``datetime`` (timezone-aware, UTC) for its timestamps. Fields a newer service adds
are ignored here (the drift test of this library fails until they are added)."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime
from typing import Any, Dict, List, Optional, Union

from .enums import Channel, DeliveryType, HealthStatus, RiskLevel, SendEntryStatus, VerificationStatus


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
        )


@dataclass(frozen=True)
class VerifyResult:
    """A verify call's answer; a wrong code is ``verified=False``, not an error."""

    verified: bool
    channel: Union[Channel, str]
    request_id: str
    status: Union[VerificationStatus, str]
    attempts_remaining: int

    @staticmethod
    def from_json(d: Dict[str, Any]) -> "VerifyResult":
        return VerifyResult(
            verified=d["verified"],
            channel=Channel.parse(d["channel"]),
            request_id=d["requestId"],
            status=VerificationStatus.parse(d["status"]),
            attempts_remaining=d["attemptsRemaining"],
        )


@dataclass(frozen=True)
class ProviderHealth:
    name: str
    state: str  # up, down or unknown


@dataclass(frozen=True)
class ChannelHealth:
    operational: bool
    providers: List[ProviderHealth]
    live_codes: str  # delivered, outbox or refused
    note: Optional[str] = None

    @staticmethod
    def from_json(d: Dict[str, Any]) -> "ChannelHealth":
        providers = [ProviderHealth(p["name"], p["state"]) for p in d.get("providers", [])]
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
            pumping_breakers=[PumpingBreakerCount(b["country"], b["count"]) for b in d.get("pumpingBreakers", [])],
            code_secret_rotation=(
                CodeSecretRotation.from_json(d["codeSecretRotation"]) if "codeSecretRotation" in d else None
            ),
        )


@dataclass(frozen=True)
class OutboxMessage:
    """A message the service's outbox keeps; ``status`` is its request's state now, and ``code`` is
    set for a pending test-mode request. ``group_id`` is shared by both requests of a dual send, and
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
        )
