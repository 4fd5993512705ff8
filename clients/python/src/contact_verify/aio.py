"""The asynchronous client, on httpx (``pip install "contact-verify[async]"``; Debian:
python3-httpx). The same calls, results, errors and retry rules as :class:`ContactVerify`."""

from __future__ import annotations

import asyncio
import json
from typing import Any, Dict, List, Optional, Sequence, Union, overload

import httpx

from . import _core
from .client import _code_of
from .enums import Channel, DeliveryType
from .errors import ContactVerifyError
from .models import Health, Link, OutboxMessage, SendEntry, Verification, VerifyResult

__all__ = ["AsyncContactVerify", "AsyncTestHelper"]


class _AsyncConnection:
    def __init__(
        self,
        base_url: str,
        token: str,
        timeout: float,
        max_retries: int,
        max_retry_after: int,
        http_client: Optional[httpx.AsyncClient],
    ) -> None:
        self.base_url = base_url.rstrip("/")
        self.token = token
        self.timeout = timeout
        self.max_retries = max_retries
        self.max_retry_after = max_retry_after
        # A client of the caller's stays theirs to close; one made here is closed by aclose().
        self.owned = http_client is None
        self.http = http_client or httpx.AsyncClient()

    async def call(self, call: _core.Call, max_retries: Optional[int]) -> Dict[str, Any]:
        limit = self.max_retries if max_retries is None else max_retries
        attempt = 0
        while True:
            try:
                return await self._once(call)
            except ContactVerifyError as err:
                wait = _core.retry_delay(err, attempt, self.max_retry_after)
                if attempt >= limit or wait is None:
                    raise
                await asyncio.sleep(wait)
                attempt += 1

    async def _once(self, call: _core.Call) -> Dict[str, Any]:
        method, path, body, extra = call
        try:
            res = await self.http.request(
                method,
                self.base_url + path,
                content=_core.encode(body),
                headers=_core.headers_for(self.token, body, extra),
                timeout=self.timeout,
            )
        except httpx.HTTPError as err:
            raise _core.network_error(self.base_url, err) from None
        if res.is_success:
            return json.loads(res.content or b"null")
        raise _core.error_of(res.status_code, res.content, res.headers.get("Retry-After"))

    async def aclose(self) -> None:
        if self.owned:
            await self.http.aclose()


class AsyncContactVerify:
    """A client of the contact verification API for asyncio, on an ``httpx.AsyncClient`` (yours,
    through ``http_client=``, or one of its own, closed by ``aclose()`` or ``async with``)."""

    def __init__(
        self,
        base_url: str,
        api_key: str,
        *,
        timeout: float = 10.0,
        max_retries: int = 2,
        max_retry_after: int = 10,
        http_client: Optional[httpx.AsyncClient] = None,
    ) -> None:
        self._connection = _AsyncConnection(base_url, api_key, timeout, max_retries, max_retry_after, http_client)

    async def __aenter__(self) -> "AsyncContactVerify":
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.aclose()

    async def aclose(self) -> None:
        await self._connection.aclose()

    @overload
    async def send_code(
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
    async def send_code(
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

    async def send_code(
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
        return _core.send_result(await self._connection.call(call, max_retries))

    async def verify_code(
        self, request_id: str, otp_code: Optional[str] = None, *, max_retries: Optional[int] = None
    ) -> VerifyResult:
        """Checks a code; a wrong code is ``verified=False``, not an error. A SILENT request takes
        no code (its provider is asked: ``result.silent.outcome``), or the code the device received
        from ``silent.url`` when its provider hands one out."""
        answer = await self._connection.call(_core.verify_call(request_id, otp_code), max_retries)
        return VerifyResult.from_json(answer["data"])

    async def get_verification(self, request_id: str, *, max_retries: Optional[int] = None) -> Verification:
        """The request as it is now: its status, how and when it was verified, its delivery.
        Unknown (or another account's) ids raise :class:`NotFoundError`."""
        return _core.verification_result(
            await self._connection.call(_core.get_verification_call(request_id), max_retries)
        )

    async def cancel_verification(self, request_id: str, *, max_retries: Optional[int] = None) -> Verification:
        """Cancels a pending request and its dual sibling (their codes no longer verify) and
        returns it; a settled request is returned as it is, so a repeated cancel is safe."""
        return _core.verification_result(
            await self._connection.call(_core.cancel_verification_call(request_id), max_retries)
        )

    async def health(self, *, max_retries: Optional[int] = None) -> Health:
        """The service's health (no key needed)."""
        return Health.from_json(await self._connection.call(("GET", "/health", None, {}), max_retries))


class AsyncTestHelper:
    """:class:`TestHelper` for asyncio: test-mode codes from the outbox, with the admin token."""

    __test__ = False

    def __init__(
        self,
        base_url: str,
        admin_token: str,
        *,
        timeout: float = 10.0,
        http_client: Optional[httpx.AsyncClient] = None,
    ) -> None:
        self._connection = _AsyncConnection(base_url, admin_token, timeout, 2, 10, http_client)

    async def __aenter__(self) -> "AsyncTestHelper":
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.aclose()

    async def aclose(self) -> None:
        await self._connection.aclose()

    async def outbox(self, to: str, *, limit: Optional[int] = None) -> List[OutboxMessage]:
        return _core.outbox_result(await self._connection.call(_core.outbox_call(to, limit), None))

    async def latest_outbox_code(self, to: str) -> str:
        return _code_of(await self.outbox(to, limit=1), to)
