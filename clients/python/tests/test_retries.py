"""The retry rules and the typed error, against a scripted local HTTP server (standard library only)."""

import json
import os
import sys
import threading
import time
import unittest
import uuid
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "src"))
from contact_verify import ContactVerify, ContactVerifyError, ErrorDetail, SendEntry, __version__  # noqa: E402

SENT = {
    "data": {
        "requestId": "0190a7c2-0000-7000-8000-000000000001",
        "channel": "EMAIL",
        "status": "pending",
        "expiresAt": "2030-01-01T00:00:00Z",
        "to": "j***@example.com",
        "risk": {"score": 12, "level": "low", "signals": [{"name": "new_destination", "weight": 12}]},
    }
}


HEALTH = {
    "status": "ok",
    "version": "1.0.0",
    "uptimeSeconds": 5,
    "services": {"database": "up", "rateLimitStore": "up"},
    "channels": {"EMAIL": {"operational": True, "providers": [{"name": "outbox", "state": "up"}], "liveCodes": "outbox"}},
}


def failure(code):
    return {"error": {"code": code, "message": "scripted", "details": [{"field": "email", "message": "m"}]}}


class Script:
    """Answers in order (the last one again once they run out) and records each request's headers."""

    def __init__(self, *answers):
        self.answers = list(answers)
        self.headers = []
        self.requests = []  # (method, path, body) of each request
        script = self

        class Handler(BaseHTTPRequestHandler):
            def log_message(self, *args):
                pass

            def answer(self):
                length = int(self.headers.get("Content-Length") or 0)
                raw_body = self.rfile.read(length)
                script.headers.append(dict(self.headers))
                script.requests.append((self.command, self.path, json.loads(raw_body) if raw_body else None))
                status, retry_after, body = script.answers[0] if len(script.answers) == 1 else script.answers.pop(0)
                raw = body.encode() if isinstance(body, str) else json.dumps(body).encode()
                self.send_response(status)
                if retry_after is not None:
                    self.send_header("Retry-After", retry_after)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(raw)))
                self.end_headers()
                self.wfile.write(raw)

            do_GET = answer
            do_POST = answer

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        threading.Thread(target=self.server.serve_forever, kwargs={"poll_interval": 0.02}, daemon=True).start()
        self.url = f"http://127.0.0.1:{self.server.server_address[1]}"
        self.client = ContactVerify(self.url, "cvk_test_key")

    def close(self):
        self.server.shutdown()
        self.server.server_close()


class RetryRules(unittest.TestCase):
    def serve(self, *answers):
        script = Script(*answers)
        self.addCleanup(script.close)
        return script

    def test_a_503_is_retried_at_most_max_retries_times(self):
        s = self.serve((503, "0", failure("UNAVAILABLE")))
        with self.assertRaises(ContactVerifyError) as caught:
            s.client.health()
        self.assertEqual((caught.exception.status, caught.exception.code), (503, "UNAVAILABLE"))
        self.assertEqual(len(s.headers), 3)
        s = self.serve((503, "0", failure("UNAVAILABLE")))
        with self.assertRaises(ContactVerifyError):
            s.client.health(max_retries=0)
        self.assertEqual(len(s.headers), 1)

    def test_a_503_without_retry_after_backs_off(self):
        s = self.serve((503, None, "<html>proxy</html>"), (200, None, HEALTH))
        started = time.monotonic()
        self.assertEqual(s.client.health().status, "ok")
        self.assertGreaterEqual(time.monotonic() - started, 0.2)
        self.assertEqual(len(s.headers), 2)

    def test_rate_limited_is_retried_only_with_a_short_retry_after(self):
        s = self.serve((429, "0", failure("RATE_LIMITED")), (200, None, SENT))
        entry = s.client.send_code(channel="EMAIL", email="j@example.com")
        self.assertIsInstance(entry, SendEntry)
        self.assertEqual(entry.risk.signals[0].name, "new_destination")
        self.assertEqual(len(s.headers), 2)
        for retry_after in (None, "11"):
            s = self.serve((429, retry_after, failure("RATE_LIMITED")))
            with self.assertRaises(ContactVerifyError) as caught:
                s.client.send_code(channel="EMAIL", email="j@example.com")
            self.assertEqual(caught.exception.code, "RATE_LIMITED")
            self.assertEqual(caught.exception.retry_after, 11 if retry_after else None)
            self.assertEqual(len(s.headers), 1)

    def test_other_client_errors_are_never_retried(self):
        for status, code in ((429, "TOO_MANY_ATTEMPTS"), (401, "UNAUTHORIZED"), (400, "VALIDATION_ERROR"), (404, "NOT_FOUND")):
            s = self.serve((status, "0", failure(code)))
            with self.assertRaises(ContactVerifyError) as caught:
                s.client.verify_code("0190a7c2-0000-7000-8000-000000000001", "123456")
            err = caught.exception
            self.assertEqual((err.status, err.code, err.message), (status, code, "scripted"))
            self.assertEqual(err.details, [ErrorDetail("email", "m")])
            self.assertEqual(len(s.headers), 1, code)

    def test_channel_unavailable_is_never_retried(self):
        s = self.serve((503, None, failure("CHANNEL_UNAVAILABLE")))
        with self.assertRaises(ContactVerifyError) as caught:
            s.client.send_code(channel="SMS", phone="+14155552671")
        self.assertEqual((caught.exception.status, caught.exception.code), (503, "CHANNEL_UNAVAILABLE"))
        self.assertEqual(len(s.headers), 1)

    def test_every_send_has_one_idempotency_key_across_its_retries(self):
        s = self.serve((503, "0", failure("UNAVAILABLE")), (503, "0", failure("UNAVAILABLE")), (200, None, SENT))
        s.client.send_code(channel="EMAIL", email="j@example.com")
        s.client.send_code(channel="EMAIL", email="j@example.com")
        keys = [h["Idempotency-Key"] for h in s.headers]
        self.assertEqual(len(keys), 4)
        self.assertEqual(uuid.UUID(keys[0]).version, 4)
        self.assertEqual(keys[:3], [keys[0]] * 3)
        self.assertNotEqual(keys[3], keys[0])
        s = self.serve((200, None, SENT))
        s.client.send_code(channel="EMAIL", email="j@example.com", idempotency_key="order-42")
        self.assertEqual(s.headers[0]["Idempotency-Key"], "order-42")

    def test_sends_its_user_agent_and_key(self):
        s = self.serve((200, None, HEALTH))
        s.client.health()
        self.assertEqual(s.headers[0]["User-Agent"], f"contact-verify-python/{__version__}")
        self.assertEqual(s.headers[0]["Authorization"], "Bearer cvk_test_key")


if __name__ == "__main__":
    unittest.main()
