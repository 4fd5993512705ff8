from __future__ import annotations

import json
import time
import urllib.error
import urllib.request
import uuid
from dataclasses import dataclass, field
from typing import Any, Dict, List, Optional, Sequence, TypedDict, Union

from .errors import ContactVerifyError

VERSION = "0.1.0"


@dataclass(frozen=True)
class RiskSignal:
    name: str
    weight: float
    detail: Optional[str] = None


@dataclass(frozen=True)
class Risk:
    score: int
    level: str
    signals: List[RiskSignal] = field(default_factory=list)


@dataclass(frozen=True)
class SendEntry:
    """One channel of a send: keep ``request_id`` to verify the code."""

    request_id: str
    channel: str
    status: str
    expires_at: str
    to: str
    delivery_type: Optional[str] = None
    error: Optional[Dict[str, str]] = None
    risk: Optional[Risk] = None

    @staticmethod
    def from_json(d: Dict[str, Any]) -> "SendEntry":
        risk = d.get("risk")
        return SendEntry(
            request_id=d["requestId"],
            channel=d["channel"],
            status=d["status"],
            expires_at=d["expiresAt"],
            to=d["to"],
            delivery_type=d.get("deliveryType"),
            error=d.get("error"),
            risk=Risk(
                score=risk["score"],
                level=risk["level"],
                signals=[RiskSignal(s["name"], s["weight"], s.get("detail")) for s in risk.get("signals", [])],
            )
            if risk
            else None,
        )


@dataclass(frozen=True)
class VerifyResult:
    verified: bool
    channel: str
    request_id: str
    status: str
    attempts_remaining: int

    @staticmethod
    def from_json(d: Dict[str, Any]) -> "VerifyResult":
        return VerifyResult(
            verified=d["verified"],
            channel=d["channel"],
            request_id=d["requestId"],
            status=d["status"],
            attempts_remaining=d["attemptsRemaining"],
        )


class ProviderHealth(TypedDict):
    name: str
    state: str  # up, down or unknown


class ChannelHealth(TypedDict):
    operational: bool
    providers: List[ProviderHealth]


class PumpingBreakers(TypedDict):
    """How many SMS-pumping breakers (over every account and mode) stop sends to ``country``."""

    country: str
    count: int


class _HealthRequired(TypedDict):
    status: str  # ok, degraded or down
    version: str
    uptimeSeconds: int
    services: Dict[str, str]
    channels: Dict[str, ChannelHealth]


class Health(_HealthRequired, total=False):
    """The answer of ``GET /health``, as the service sends it (a dict)."""

    pumpingBreakers: List[PumpingBreakers]


class ContactVerify:
    """A client of the contact verification API.

    Retries 503 and ``429 RATE_LIMITED`` answers that carry ``Retry-After``, at most
    ``max_retries`` times; never ``TOO_MANY_ATTEMPTS`` or another 4xx. Every send carries an
    ``Idempotency-Key`` kept across its retries, so a retry never sends a second code.
    """

    def __init__(
        self,
        base_url: str,
        api_key: str,
        timeout: float = 10.0,
        max_retries: int = 2,
        max_retry_after: int = 10,
    ) -> None:
        self.base_url = base_url.rstrip("/")
        self.api_key = api_key
        self.timeout = timeout
        self.max_retries = max_retries
        self.max_retry_after = max_retry_after

    def send_code(
        self,
        *,
        channel: Optional[str] = None,
        channels: Optional[Sequence[str]] = None,
        email: Optional[str] = None,
        phone: Optional[str] = None,
        country: Optional[str] = None,
        delivery_type: Optional[str] = None,
        purpose: Optional[str] = None,
        custom_message: Optional[str] = None,
        locale: Optional[str] = None,
        idempotency_key: Optional[str] = None,
        max_retries: Optional[int] = None,
    ) -> Union[SendEntry, List[SendEntry]]:
        """Sends a code on ``channel`` (one entry back) or on two ``channels`` (a list, in order)."""
        body = {
            "channel": channel,
            "channels": list(channels) if channels is not None else None,
            "email": email,
            "phone": phone,
            "country": country,
            "deliveryType": delivery_type,
            "purpose": purpose,
            "customMessage": custom_message,
            "locale": locale,
        }
        answer = self._call(
            "POST",
            "/v1/contact/send-code",
            {k: v for k, v in body.items() if v is not None},
            max_retries,
            {"Idempotency-Key": idempotency_key or str(uuid.uuid4())},
        )
        data = answer["data"]
        if isinstance(data, list):
            return [SendEntry.from_json(d) for d in data]
        return SendEntry.from_json(data)

    def verify_code(self, request_id: str, otp_code: str, *, max_retries: Optional[int] = None) -> VerifyResult:
        """Checks a code; a wrong code is ``verified=False``, not an error."""
        answer = self._call(
            "POST", "/v1/contact/verify-code", {"requestId": request_id, "otpCode": otp_code}, max_retries
        )
        return VerifyResult.from_json(answer["data"])

    def health(self, *, max_retries: Optional[int] = None) -> Health:
        """The service's health (no key needed)."""
        return self._call("GET", "/health", None, max_retries)  # type: ignore[return-value]

    def _call(
        self,
        method: str,
        path: str,
        body: Optional[Dict[str, Any]],
        max_retries: Optional[int],
        headers: Optional[Dict[str, str]] = None,
    ) -> Dict[str, Any]:
        limit = self.max_retries if max_retries is None else max_retries
        attempt = 0
        while True:
            try:
                return self._once(method, path, body, headers or {})
            except ContactVerifyError as err:
                wait = self._retry_delay(err, attempt)
                if attempt >= limit or wait is None:
                    raise
                time.sleep(wait)
                attempt += 1

    def _retry_delay(self, err: ContactVerifyError, attempt: int) -> Optional[float]:
        if err.status == 503:
            return min(err.retry_after, self.max_retry_after) if err.retry_after is not None else 0.25 * 2**attempt
        if err.status == 429 and err.code == "RATE_LIMITED" and err.retry_after is not None:
            return err.retry_after if err.retry_after <= self.max_retry_after else None
        return None

    def _once(self, method: str, path: str, body: Optional[Dict[str, Any]], headers: Dict[str, str]) -> Dict[str, Any]:
        request = urllib.request.Request(
            self.base_url + path,
            method=method,
            data=json.dumps(body).encode() if body is not None else None,
            headers={
                "Accept": "application/json",
                "Authorization": f"Bearer {self.api_key}",
                "User-Agent": f"contact-verify-python/{VERSION}",
                **({"Content-Type": "application/json"} if body is not None else {}),
                **headers,
            },
        )
        try:
            with urllib.request.urlopen(request, timeout=self.timeout) as res:
                return json.loads(res.read() or b"null")
        except urllib.error.HTTPError as res:
            raw = res.read()
            try:
                error = json.loads(raw).get("error", {})
            except ValueError:
                error = {}
            retry_after = res.headers.get("Retry-After")
            raise ContactVerifyError(
                res.code,
                error.get("code", "UNAVAILABLE" if res.code == 503 else "INTERNAL"),
                error.get("message", f"HTTP {res.code}"),
                error.get("details"),
                int(retry_after) if retry_after and retry_after.isdigit() else None,
            ) from None
        except (urllib.error.URLError, OSError) as err:
            raise ContactVerifyError(0, "NETWORK_ERROR", f"No answer from {self.base_url}: {err}") from None
