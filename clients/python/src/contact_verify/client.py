from __future__ import annotations

import json
import time
import urllib.error
import urllib.request
from typing import Any, Dict, List, Optional, Sequence, Union, overload

from . import _core
from ._core import VERSION
from .enums import Channel, DeliveryType
from .errors import ContactVerifyError, NoOutboxCodeError
from .models import Health, Link, OutboxMessage, SendEntry, Verification, VerifyResult

__all__ = ["ContactVerify", "TestHelper", "VERSION"]


class _Connection:
    """One service and one bearer token over urllib, with the retry rules."""

    def __init__(
        self,
        base_url: str,
        token: str,
        timeout: float,
        max_retries: int,
        max_retry_after: int,
        opener: Optional[urllib.request.OpenerDirector],
    ) -> None:
        self.base_url = base_url.rstrip("/")
        self.token = token
        self.timeout = timeout
        self.max_retries = max_retries
        self.max_retry_after = max_retry_after
        self.opener = opener or urllib.request.build_opener()

    def call(self, call: _core.Call, max_retries: Optional[int]) -> Dict[str, Any]:
        limit = self.max_retries if max_retries is None else max_retries
        attempt = 0
        while True:
            try:
                return self._once(call)
            except ContactVerifyError as err:
                wait = _core.retry_delay(err, attempt, self.max_retry_after)
                if attempt >= limit or wait is None:
                    raise
                time.sleep(wait)
                attempt += 1

    def _once(self, call: _core.Call) -> Dict[str, Any]:
        method, path, body, extra = call
        request = urllib.request.Request(
            self.base_url + path,
            method=method,
            data=_core.encode(body),
            headers=_core.headers_for(self.token, body, extra),
        )
        try:
            with self.opener.open(request, timeout=self.timeout) as res:
                return json.loads(res.read() or b"null")
        except urllib.error.HTTPError as res:
            raise _core.error_of(res.code, res.read(), res.headers.get("Retry-After")) from None
        except (urllib.error.URLError, OSError) as err:
            raise _core.network_error(self.base_url, err) from None


class ContactVerify:
    """A client of the contact verification API (standard library only).

    Retries 503 and ``429 RATE_LIMITED`` answers that carry ``Retry-After`` (of at most
    ``max_retry_after`` seconds), at most ``max_retries`` times; never ``TOO_MANY_ATTEMPTS``,
    ``CHANNEL_UNAVAILABLE`` or another 4xx. Every send carries an ``Idempotency-Key`` kept across
    its retries, so a retry never sends a second code. ``opener`` replaces urllib's default
    (``urllib.request.build_opener(ProxyHandler(...))``, a recording one in tests).
    """

    def __init__(
        self,
        base_url: str,
        api_key: str,
        *,
        timeout: float = 10.0,
        max_retries: int = 2,
        max_retry_after: int = 10,
        opener: Optional[urllib.request.OpenerDirector] = None,
    ) -> None:
        self._connection = _Connection(base_url, api_key, timeout, max_retries, max_retry_after, opener)

    @overload
    def send_code(
        self,
        *,
        channel: Union[Channel, str],
        channels: None = None,
        email: Optional[str] = None,
        phone: Optional[str] = None,
        country: Optional[str] = None,
        delivery_type: Optional[Union[DeliveryType, str]] = None,
        purpose: Optional[str] = None,
        custom_message: Optional[str] = None,
        locale: Optional[str] = None,
        link: Optional[Link] = None,
        fallback: Optional[Union[Channel, str]] = None,
        idempotency_key: Optional[str] = None,
        max_retries: Optional[int] = None,
    ) -> SendEntry: ...

    @overload
    def send_code(
        self,
        *,
        channel: None = None,
        channels: Sequence[Union[Channel, str]],
        email: Optional[str] = None,
        phone: Optional[str] = None,
        country: Optional[str] = None,
        delivery_type: Optional[Union[DeliveryType, str]] = None,
        purpose: Optional[str] = None,
        custom_message: Optional[str] = None,
        locale: Optional[str] = None,
        link: Optional[Link] = None,
        fallback: Optional[Union[Channel, str]] = None,
        idempotency_key: Optional[str] = None,
        max_retries: Optional[int] = None,
    ) -> List[SendEntry]: ...

    def send_code(
        self,
        *,
        channel: Optional[Union[Channel, str]] = None,
        channels: Optional[Sequence[Union[Channel, str]]] = None,
        email: Optional[str] = None,
        phone: Optional[str] = None,
        country: Optional[str] = None,
        delivery_type: Optional[Union[DeliveryType, str]] = None,
        purpose: Optional[str] = None,
        custom_message: Optional[str] = None,
        locale: Optional[str] = None,
        link: Optional[Link] = None,
        fallback: Optional[Union[Channel, str]] = None,
        idempotency_key: Optional[str] = None,
        max_retries: Optional[int] = None,
    ) -> Union[SendEntry, List[SendEntry]]:
        """Sends a code on ``channel`` (one entry back) or on two ``channels`` (a list, in order).

        ``link=Link()`` (EMAIL) adds a magic link to the email; ``fallback=`` (SILENT only: SMS,
        WHATSAPP or VOICE) sends a code on that channel if the silent check fails or times out."""
        call = _core.send_call(
            channel,
            channels,
            email,
            phone,
            country,
            delivery_type,
            purpose,
            custom_message,
            locale,
            idempotency_key,
            link,
            fallback,
        )
        return _core.send_result(self._connection.call(call, max_retries))

    def verify_code(
        self, request_id: str, otp_code: Optional[str] = None, *, max_retries: Optional[int] = None
    ) -> VerifyResult:
        """Checks a code; a wrong code is ``verified=False``, not an error. A SILENT request takes
        no code (its provider is asked: ``result.silent.outcome``), or the code the device received
        from ``silent.url`` when its provider hands one out."""
        answer = self._connection.call(_core.verify_call(request_id, otp_code), max_retries)
        return VerifyResult.from_json(answer["data"])

    def get_verification(self, request_id: str, *, max_retries: Optional[int] = None) -> Verification:
        """The request as it is now: its status, how and when it was verified, its delivery.
        Unknown (or another account's) ids raise :class:`NotFoundError`."""
        return _core.verification_result(
            self._connection.call(_core.get_verification_call(request_id), max_retries)
        )

    def cancel_verification(self, request_id: str, *, max_retries: Optional[int] = None) -> Verification:
        """Cancels a pending request and its dual sibling (their codes no longer verify) and
        returns it; a settled request is returned as it is, so a repeated cancel is safe."""
        return _core.verification_result(
            self._connection.call(_core.cancel_verification_call(request_id), max_retries)
        )

    def health(self, *, max_retries: Optional[int] = None) -> Health:
        """The service's health (no key needed)."""
        return Health.from_json(self._connection.call(("GET", "/health", None, {}), max_retries))


class TestHelper:
    """For tests only: reads the codes of test-mode sends (made with a ``cvk_test_`` key) from the
    service's outbox with the ADMIN token, so a test verifies without a mailbox or a phone. Live
    requests never carry their code. Never give the admin token to production code."""

    __test__ = False  # not a test case, whatever a test runner guesses from the name

    def __init__(
        self,
        base_url: str,
        admin_token: str,
        *,
        timeout: float = 10.0,
        opener: Optional[urllib.request.OpenerDirector] = None,
    ) -> None:
        self._connection = _Connection(base_url, admin_token, timeout, 2, 10, opener)

    def outbox(self, to: str, *, limit: Optional[int] = None) -> List[OutboxMessage]:
        """The messages the outbox holds for ``to`` (an address or a ``+`` number), newest first."""
        return _core.outbox_result(self._connection.call(_core.outbox_call(to, limit), None))

    def latest_outbox_code(self, to: str) -> str:
        """The code of the newest message to ``to``; :class:`NoOutboxCodeError` when there is none,
        or when that message carries no code (a live request, or one no longer pending)."""
        return _code_of(self.outbox(to, limit=1), to)


def _code_of(messages: List[OutboxMessage], to: str) -> str:
    if not messages:
        raise NoOutboxCodeError(f"the outbox holds no message to {to}")
    if messages[0].code:
        return messages[0].code
    raise NoOutboxCodeError(
        f"the newest message to {to} carries no code: its request was not made with a test key, "
        "or it is no longer pending"
    )
