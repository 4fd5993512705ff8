"""The clients' calls, results and errors against a scripted local server: every send option in
the body, kwargs and enums, datetimes, the typed errors with retry_after, the test helper, and
the async client on httpx doing the same (skipped when httpx is not installed)."""

import asyncio
import os
import sys
import unittest
import urllib.request
from datetime import datetime, timezone

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "src"))
from test_retries import HEALTH, SENT, Script, failure  # noqa: E402

from contact_verify import (  # noqa: E402
    AuthenticationError,
    Channel,
    ContactVerify,
    ContactVerifyError,
    DeliveryState,
    DeliveryType,
    ErrorCode,
    FallbackReason,
    FallbackState,
    HealthStatus,
    InvalidRequestError,
    Link,
    NetworkError,
    NoOutboxCodeError,
    NotFoundError,
    ProviderHealth,
    RateLimitError,
    RiskLevel,
    SendEntryStatus,
    ServerError,
    SilentOutcome,
    TestHelper,
    TooManyAttemptsError,
    VerificationMethod,
    VerificationStatus,
)

try:
    import httpx
except ImportError:  # the sync client needs nothing; the async one is tested where httpx is
    httpx = None

WHATSAPP = {"data": {**SENT["data"], "channel": "WHATSAPP", "to": "+33*****78", "deliveryType": "CALL"}}
VERIFIED = {
    "data": {
        "verified": True,
        "channel": "EMAIL",
        "requestId": SENT["data"]["requestId"],
        "status": "verified",
        "attemptsRemaining": 4,
    }
}
MESSAGE = {
    "id": "msg_1",
    "accountId": "acc_1",
    "requestId": SENT["data"]["requestId"],
    "status": "pending",
    "channel": "EMAIL",
    "to": "jane+1@example.com",
    "text": "Your code is 042817",
    "createdAt": "2030-01-01T00:00:00.000Z",
}
EVERY_OPTION = dict(
    channel=Channel.WHATSAPP,
    phone="+33612345678",
    country="FR",
    delivery_type=DeliveryType.CALL,
    purpose="sign-in",
    custom_message="Welcome back",
    locale="fr-FR",
    idempotency_key="order-42",
)
EVERY_FIELD = {
    "channel": "WHATSAPP",
    "phone": "+33612345678",
    "country": "FR",
    "deliveryType": "CALL",
    "purpose": "sign-in",
    "customMessage": "Welcome back",
    "locale": "fr-FR",
}
RESOURCE = {
    "data": {
        "requestId": SENT["data"]["requestId"],
        "channel": "EMAIL",
        "status": "verified",
        "to": "j***@example.com",
        "createdAt": "2030-01-01T00:00:00.000Z",
        "expiresAt": "2030-01-01T00:10:00.000Z",
        "attemptsRemaining": 4,
        "verifiedAt": "2030-01-01T00:01:00.000Z",
        "method": "link",
        "siblingRequestId": "0190a7c2-0000-7000-8000-000000000002",
        "delivery": {"status": "delivered", "provider": "smtp", "updatedAt": "2030-01-01T00:00:02.000Z"},
        "fallback": {"channel": "SMS", "state": "dropped"},
    }
}
CANCELED = {
    "data": {
        **{k: v for k, v in RESOURCE["data"].items() if k not in ("verifiedAt", "method", "siblingRequestId", "fallback")},
        "status": "canceled",
        # A state this version does not know yet stays a string.
        "delivery": {"status": "read_aloud", "updatedAt": "2030-01-01T00:00:02.000Z"},
    }
}
SILENT_SENT = {
    "data": {
        **SENT["data"],
        "channel": "SILENT",
        "to": "+44*******457",
        "silent": {"url": "https://silent.test.invalid/check/abc"},
    }
}
FALLBACK = {
    "requestId": "0190a7c2-0000-7000-8000-000000000003",
    "channel": "SMS",
    "status": "pending",
    "reason": "rejected",
    "expiresAt": "2030-01-01T00:10:00.000Z",
}
SILENT_REJECTED = {
    "data": {
        "verified": False,
        "channel": "SILENT",
        "requestId": SENT["data"]["requestId"],
        "status": "pending",
        "attemptsRemaining": 4,
        "silent": {"outcome": "rejected", "reason": "another SIM"},
        "fallback": FALLBACK,
    }
}
ERRORS = [
    (400, "VALIDATION_ERROR", None, InvalidRequestError),
    (401, "UNAUTHORIZED", None, AuthenticationError),
    (404, "NOT_FOUND", None, NotFoundError),
    (429, "RATE_LIMITED", "27", RateLimitError),
    (429, "TOO_MANY_ATTEMPTS", None, TooManyAttemptsError),
    (503, "CHANNEL_UNAVAILABLE", None, ServerError),
    (403, "FORBIDDEN", None, ContactVerifyError),
]


class Scripted(unittest.TestCase):
    def serve(self, *answers):
        script = Script(*answers)
        self.addCleanup(script.close)
        return script


class SyncClient(Scripted):
    def test_every_send_option_is_a_keyword_sent_in_the_body(self):
        s = self.serve((200, None, WHATSAPP))
        entry = s.client.send_code(**EVERY_OPTION)
        self.assertEqual(s.requests[0], ("POST", "/v1/contact/send-code", EVERY_FIELD))
        self.assertEqual(s.headers[0]["Idempotency-Key"], "order-42")
        self.assertIs(entry.channel, Channel.WHATSAPP)
        self.assertIs(entry.delivery_type, DeliveryType.CALL)
        self.assertIs(entry.status, SendEntryStatus.PENDING)
        self.assertEqual(entry.expires_at, datetime(2030, 1, 1, tzinfo=timezone.utc))
        self.assertIs(entry.risk.level, RiskLevel.LOW)

    def test_a_dual_send_answers_a_list_in_order(self):
        both = {"data": [SENT["data"], {**SENT["data"], "channel": "SMS"}]}
        s = self.serve((200, None, both))
        entries = s.client.send_code(channels=["EMAIL", Channel.SMS], email="j@example.com", phone="+14155552671")
        self.assertEqual([e.channel for e in entries], [Channel.EMAIL, Channel.SMS])
        self.assertEqual(s.requests[0][2]["channels"], ["EMAIL", "SMS"])

    def test_exactly_one_of_channel_and_channels(self):
        s = self.serve((200, None, SENT))
        with self.assertRaises(ValueError):
            s.client.send_code(email="j@example.com")
        with self.assertRaises(ValueError):
            s.client.send_code(channel="EMAIL", channels=["EMAIL", "SMS"], email="j@example.com")
        self.assertEqual(s.requests, [])

    def test_verify_and_health_answer_typed_results(self):
        s = self.serve((200, None, VERIFIED))
        result = s.client.verify_code(SENT["data"]["requestId"], "042817")
        self.assertTrue(result.verified)
        self.assertIs(result.status, VerificationStatus.VERIFIED)
        self.assertEqual(result.status, "verified")
        self.assertEqual(s.requests[0][2], {"requestId": SENT["data"]["requestId"], "otpCode": "042817"})
        s = self.serve((200, None, HEALTH))
        health = s.client.health()
        self.assertIs(health.status, HealthStatus.OK)
        self.assertEqual(health.channels["EMAIL"].live_codes, "outbox")
        self.assertIsNone(health.code_secret_rotation)
        self.assertIsNone(health.lookups)
        s = self.serve((200, None, {**HEALTH, "lookups": {"name": "twilio", "state": "down"}}))
        self.assertEqual(s.client.health().lookups, ProviderHealth("twilio", "down"))
        rotation = {"previousSecrets": 1, "since": "2030-01-01T00:00:00.000Z", "removableAfter": "2030-01-02T00:00:00.000Z"}
        s = self.serve((200, None, {**HEALTH, "codeSecretRotation": rotation}))
        rotating = s.client.health().code_secret_rotation
        self.assertEqual(rotating.previous_secrets, 1)
        self.assertEqual(rotating.since, datetime(2030, 1, 1, tzinfo=timezone.utc))
        self.assertEqual(rotating.removable_after, datetime(2030, 1, 2, tzinfo=timezone.utc))

    def test_get_verification_reads_the_resource_with_every_field(self):
        s = self.serve((200, None, RESOURCE))
        v = s.client.get_verification(SENT["data"]["requestId"])
        self.assertEqual(s.requests[0], ("GET", f"/v1/contact/verifications/{SENT['data']['requestId']}", None))
        self.assertEqual(s.headers[0]["Authorization"], "Bearer cvk_test_key")
        self.assertIs(v.status, VerificationStatus.VERIFIED)
        self.assertIs(v.method, VerificationMethod.LINK)
        self.assertEqual(v.verified_at, datetime(2030, 1, 1, 0, 1, tzinfo=timezone.utc))
        self.assertEqual(v.created_at, datetime(2030, 1, 1, tzinfo=timezone.utc))
        self.assertEqual(v.sibling_request_id, "0190a7c2-0000-7000-8000-000000000002")
        self.assertEqual(v.attempts_remaining, 4)
        self.assertIs(v.delivery.status, DeliveryState.DELIVERED)
        self.assertEqual(v.delivery.provider, "smtp")
        self.assertIs(v.fallback.channel, Channel.SMS)
        self.assertIs(v.fallback.state, FallbackState.DROPPED)
        self.assertIsNone(v.fallback.request_id)

    def test_cancel_posts_an_empty_object_and_tolerates_unknown_values(self):
        s = self.serve((200, None, CANCELED))
        v = s.client.cancel_verification("0190a7c2/../x")
        # The id is one path segment, whatever it holds.
        self.assertEqual(s.requests[0], ("POST", "/v1/contact/verifications/0190a7c2%2F..%2Fx/cancel", {}))
        self.assertIs(v.status, VerificationStatus.CANCELED)
        self.assertIsNone(v.method)
        self.assertIsNone(v.verified_at)
        self.assertEqual(v.delivery.status, "read_aloud")
        self.assertIsNone(v.delivery.provider)

    def test_an_unknown_id_is_a_not_found_error(self):
        s = self.serve((404, None, failure("NOT_FOUND")))
        with self.assertRaises(NotFoundError):
            s.client.get_verification("0190a7c2-0000-7000-8000-000000000000")
        self.assertEqual(len(s.requests), 1)

    def test_link_and_fallback_are_keywords_sent_in_the_body(self):
        s = self.serve((200, None, SENT))
        s.client.send_code(channel=Channel.EMAIL, email="j@example.com", link=Link())
        s.client.send_code(channel="EMAIL", email="j@example.com", link=Link(redirect_url="https://app.example.com/in"))
        self.assertEqual(s.requests[0][2], {"channel": "EMAIL", "email": "j@example.com", "link": {}})
        self.assertEqual(s.requests[1][2]["link"], {"redirectUrl": "https://app.example.com/in"})
        s = self.serve((200, None, SILENT_SENT))
        entry = s.client.send_code(channel=Channel.SILENT, phone="+447911123457", fallback=Channel.SMS)
        self.assertEqual(s.requests[0][2], {"channel": "SILENT", "phone": "+447911123457", "fallback": "SMS"})
        self.assertIs(entry.channel, Channel.SILENT)
        self.assertEqual(entry.silent.url, "https://silent.test.invalid/check/abc")
        self.assertIsNone(entry.fallback)

    def test_a_silent_request_verifies_without_a_code_and_says_what_the_provider_concluded(self):
        s = self.serve((200, None, SILENT_REJECTED))
        result = s.client.verify_code(SENT["data"]["requestId"])
        self.assertEqual(s.requests[0][2], {"requestId": SENT["data"]["requestId"]})
        self.assertFalse(result.verified)
        self.assertIs(result.silent.outcome, SilentOutcome.REJECTED)
        self.assertEqual(result.silent.reason, "another SIM")
        self.assertIs(result.fallback.channel, Channel.SMS)
        self.assertIs(result.fallback.reason, FallbackReason.REJECTED)
        self.assertEqual(result.fallback.expires_at, datetime(2030, 1, 1, 0, 10, tzinfo=timezone.utc))
        # Vonage hands the device a code: it goes with the id.
        s.client.verify_code(SENT["data"]["requestId"], "Ab3_x9")
        self.assertEqual(s.requests[1][2]["otpCode"], "Ab3_x9")

    def test_each_error_has_its_class_code_details_and_retry_after(self):
        for status, code, retry_after, kind in ERRORS:
            s = self.serve((status, retry_after, failure(code)))
            client = ContactVerify(s.url, "k", max_retries=0)
            with self.assertRaises(kind) as caught:
                client.verify_code(SENT["data"]["requestId"], "123456")
            err = caught.exception
            self.assertIsInstance(err, ContactVerifyError)
            self.assertEqual(
                (err.status, err.code, err.message, err.retry_after),
                (status, code, "scripted", int(retry_after) if retry_after else None),
            )
            self.assertIs(err.code, ErrorCode(code))
            self.assertEqual(err.details[0].field, "email")

    def test_no_answer_is_a_network_error_with_status_0(self):
        client = ContactVerify("http://127.0.0.1:9", "k", max_retries=0, timeout=2)
        with self.assertRaises(NetworkError) as caught:
            client.health()
        self.assertEqual((caught.exception.status, caught.exception.code), (0, "NETWORK_ERROR"))

    def test_an_injected_opener_makes_the_requests(self):
        seen = []

        class Recording(urllib.request.BaseHandler):
            def http_request(self, request):
                seen.append(request.full_url)
                return request

        s = self.serve((200, None, HEALTH))
        client = ContactVerify(s.url, "k", opener=urllib.request.build_opener(Recording()))
        client.health()
        self.assertEqual(seen, [f"{s.url}/health"])


class TestOutboxHelper(Scripted):
    def test_latest_outbox_code_reads_the_newest_item_with_the_admin_token(self):
        s = self.serve((200, None, {"data": [{**MESSAGE, "code": "042817"}]}))
        helper = TestHelper(s.url, "admin-secret")
        self.assertEqual(helper.latest_outbox_code("jane+1@example.com"), "042817")
        self.assertEqual(s.requests[0][:2], ("GET", "/v1/admin/outbox?to=jane%2B1%40example.com&limit=1"))
        self.assertEqual(s.headers[0]["Authorization"], "Bearer admin-secret")
        message = helper.outbox("jane+1@example.com")[0]
        self.assertEqual(message.created_at, datetime(2030, 1, 1, tzinfo=timezone.utc))

    def test_no_message_or_no_code_raises_no_outbox_code_error(self):
        for data in ([], [MESSAGE]):
            s = self.serve((200, None, {"data": data}))
            with self.assertRaises(NoOutboxCodeError):
                TestHelper(s.url, "a").latest_outbox_code("jane@example.com")

    def test_a_refused_admin_call_raises_its_typed_error(self):
        s = self.serve((401, None, failure("UNAUTHORIZED")))
        with self.assertRaises(AuthenticationError):
            TestHelper(s.url, "wrong").latest_outbox_code("jane@example.com")


@unittest.skipIf(httpx is None, "httpx is not installed (Debian: python3-httpx)")
class AsyncClient(unittest.IsolatedAsyncioTestCase):
    async def asyncSetUp(self):
        # The test loop runs in debug mode, which logs any step over 0.1 s of a loaded machine.
        asyncio.get_running_loop().slow_callback_duration = 5
    def serve(self, *answers):
        script = Script(*answers)
        self.addCleanup(script.close)
        return script

    async def test_sends_every_option_and_verifies_like_the_sync_client(self):
        from contact_verify import AsyncContactVerify

        s = self.serve((200, None, WHATSAPP), (200, None, VERIFIED))
        async with AsyncContactVerify(s.url, "cvk_test_key") as cv:
            entry = await cv.send_code(**EVERY_OPTION)
            result = await cv.verify_code(entry.request_id, "042817")
        self.assertEqual(s.requests[0], ("POST", "/v1/contact/send-code", EVERY_FIELD))
        self.assertEqual(s.headers[0]["Idempotency-Key"], "order-42")
        self.assertEqual(s.headers[0]["Authorization"], "Bearer cvk_test_key")
        self.assertIs(entry.delivery_type, DeliveryType.CALL)
        self.assertEqual(entry.expires_at, datetime(2030, 1, 1, tzinfo=timezone.utc))
        self.assertIs(result.status, VerificationStatus.VERIFIED)

    async def test_reads_and_cancels_a_verification_like_the_sync_client(self):
        from contact_verify import AsyncContactVerify

        s = self.serve((200, None, RESOURCE), (200, None, CANCELED), (200, None, SILENT_REJECTED))
        async with AsyncContactVerify(s.url, "k") as cv:
            read = await cv.get_verification(SENT["data"]["requestId"])
            canceled = await cv.cancel_verification(SENT["data"]["requestId"])
            silent = await cv.verify_code(SENT["data"]["requestId"])
        path = f"/v1/contact/verifications/{SENT['data']['requestId']}"
        self.assertEqual(s.requests[:2], [("GET", path, None), ("POST", f"{path}/cancel", {})])
        self.assertEqual(s.requests[2][2], {"requestId": SENT["data"]["requestId"]})
        self.assertIs(read.method, VerificationMethod.LINK)
        self.assertIs(canceled.status, VerificationStatus.CANCELED)
        self.assertIs(silent.silent.outcome, SilentOutcome.REJECTED)

    async def test_retries_a_503_with_one_idempotency_key_and_raises_typed_errors(self):
        from contact_verify import AsyncContactVerify

        s = self.serve((503, "0", failure("UNAVAILABLE")), (200, None, SENT))
        async with AsyncContactVerify(s.url, "k") as cv:
            await cv.send_code(channel=Channel.EMAIL, email="j@example.com")
        self.assertEqual(len(s.headers), 2)
        self.assertEqual(s.headers[0]["Idempotency-Key"], s.headers[1]["Idempotency-Key"])
        for status, code, retry_after, kind in ERRORS:
            s = self.serve((status, retry_after, failure(code)))
            async with AsyncContactVerify(s.url, "k", max_retries=0) as cv:
                with self.assertRaises(kind) as caught:
                    await cv.verify_code(SENT["data"]["requestId"], "123456")
            self.assertEqual(caught.exception.retry_after, int(retry_after) if retry_after else None)
        async with AsyncContactVerify("http://127.0.0.1:9", "k", max_retries=0) as cv:
            with self.assertRaises(NetworkError):
                await cv.health()

    async def test_uses_the_injected_http_client_and_leaves_it_open(self):
        from contact_verify import AsyncContactVerify, AsyncTestHelper

        s = self.serve((200, None, {"data": [{**MESSAGE, "code": "042817"}]}), (200, None, HEALTH))
        seen = []

        async def record(request):
            seen.append(request.url.path)

        async with httpx.AsyncClient(event_hooks={"request": [record]}) as http:
            async with AsyncTestHelper(s.url, "admin", http_client=http) as helper:
                self.assertEqual(await helper.latest_outbox_code("jane+1@example.com"), "042817")
            self.assertFalse(http.is_closed)
            cv = AsyncContactVerify(s.url, "k", http_client=http)
            self.assertIs((await cv.health()).status, HealthStatus.OK)
            await cv.aclose()
            self.assertFalse(http.is_closed)
        self.assertEqual(seen, ["/v1/admin/outbox", "/health"])

    async def test_concurrent_calls_share_one_client(self):
        from contact_verify import AsyncContactVerify

        s = self.serve((200, None, VERIFIED))
        async with AsyncContactVerify(s.url, "k") as cv:
            results = await asyncio.gather(*(cv.verify_code(SENT["data"]["requestId"], "042817") for _ in range(5)))
        self.assertEqual([r.verified for r in results], [True] * 5)


if __name__ == "__main__":
    unittest.main()
