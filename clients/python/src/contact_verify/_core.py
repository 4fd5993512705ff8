"""What the sync and the async clients share: the requests they make, how an answer becomes a
result or a typed error, and which errors are retried after how long (no I/O here)."""

from __future__ import annotations

import json
import urllib.parse
import uuid
from typing import Any, Dict, List, Optional, Sequence, Tuple, Union

from .enums import Channel, DeliveryType
from .errors import ContactVerifyError
from .models import ErrorDetail, Link, OutboxMessage, SendEntry, Verification

VERSION = "0.2.0"
USER_AGENT = f"contact-verify-python/{VERSION}"

# (method, path, JSON body or None, extra headers)
Call = Tuple[str, str, Optional[Dict[str, Any]], Dict[str, str]]


def send_call(
    channel: Optional[Union[Channel, str]],
    channels: Optional[Sequence[Union[Channel, str]]],
    email: Optional[str],
    phone: Optional[str],
    country: Optional[str],
    delivery_type: Optional[Union[DeliveryType, str]],
    purpose: Optional[str],
    custom_message: Optional[str],
    locale: Optional[str],
    idempotency_key: Optional[str],
    link: Optional[Link] = None,
    fallback: Optional[Union[Channel, str]] = None,
) -> Call:
    if (channel is None) == (channels is None):
        raise ValueError("give exactly one of channel= and channels=")
    body = {
        "channel": str(channel) if channel is not None else None,
        "channels": [str(c) for c in channels] if channels is not None else None,
        "email": email,
        "phone": phone,
        "country": country,
        "deliveryType": str(delivery_type) if delivery_type is not None else None,
        "purpose": purpose,
        "customMessage": custom_message,
        "locale": locale,
        "link": link.to_json() if link is not None else None,
        "fallback": str(fallback) if fallback is not None else None,
    }
    # One key per send, kept across its retries: a retry is answered with the first send's entry.
    headers = {"Idempotency-Key": idempotency_key or str(uuid.uuid4())}
    return "POST", "/v1/contact/send-code", {k: v for k, v in body.items() if v is not None}, headers


def send_result(answer: Dict[str, Any]) -> Union[SendEntry, List[SendEntry]]:
    data = answer["data"]
    if isinstance(data, list):
        return [SendEntry.from_json(d) for d in data]
    return SendEntry.from_json(data)


def verify_call(request_id: str, otp_code: Optional[str]) -> Call:
    # A SILENT request whose provider hands out no code is verified by its id alone.
    body = {"requestId": request_id, **({"otpCode": otp_code} if otp_code is not None else {})}
    return "POST", "/v1/contact/verify-code", body, {}


def _verification_path(request_id: str) -> str:
    return "/v1/contact/verifications/" + urllib.parse.quote(request_id, safe="")


def get_verification_call(request_id: str) -> Call:
    return "GET", _verification_path(request_id), None, {}


def cancel_verification_call(request_id: str) -> Call:
    # An empty object: the cancel takes no field.
    return "POST", _verification_path(request_id) + "/cancel", {}, {}


def verification_result(answer: Dict[str, Any]) -> Verification:
    return Verification.from_json(answer["data"])


def outbox_call(to: str, limit: Optional[int]) -> Call:
    query = urllib.parse.urlencode({"to": to, **({"limit": limit} if limit else {})})
    return "GET", f"/v1/admin/outbox?{query}", None, {}


def outbox_result(answer: Dict[str, Any]) -> List[OutboxMessage]:
    return [OutboxMessage.from_json(m) for m in answer["data"]]


def headers_for(token: str, body: Optional[Dict[str, Any]], extra: Dict[str, str]) -> Dict[str, str]:
    return {
        "Accept": "application/json",
        "Authorization": f"Bearer {token}",
        "User-Agent": USER_AGENT,
        **({"Content-Type": "application/json"} if body is not None else {}),
        **extra,
    }


def encode(body: Optional[Dict[str, Any]]) -> Optional[bytes]:
    return json.dumps(body).encode() if body is not None else None


def error_of(status: int, raw: bytes, retry_after: Optional[str]) -> ContactVerifyError:
    """The typed error of a non-2xx answer (a proxy's HTML page too: its status decides)."""
    try:
        error = json.loads(raw).get("error") or {}
    except (ValueError, AttributeError):
        error = {}
    details = [ErrorDetail.from_json(d) for d in error.get("details") or []]
    return ContactVerifyError.of(
        status,
        error.get("code", "UNAVAILABLE" if status == 503 else "INTERNAL"),
        error.get("message", f"HTTP {status}"),
        details,
        int(retry_after) if retry_after and retry_after.strip().isdigit() else None,
    )


def network_error(base_url: str, err: BaseException) -> ContactVerifyError:
    return ContactVerifyError.of(0, "NETWORK_ERROR", f"No answer from {base_url}: {err}")


def retry_delay(err: ContactVerifyError, attempt: int, max_retry_after: int) -> Optional[float]:
    """Seconds to wait before retrying ``err``, or None when it must not be retried."""
    if err.code == "CHANNEL_UNAVAILABLE":
        return None  # no provider for the channel: only the operator can change that
    if err.status == 503:
        return min(err.retry_after, max_retry_after) if err.retry_after is not None else 0.25 * 2**attempt
    if err.status == 429 and err.code == "RATE_LIMITED" and err.retry_after is not None:
        return err.retry_after if err.retry_after <= max_retry_after else None
    return None
