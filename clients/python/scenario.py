"""Runs clients/scenario.json with this library against a running service (see clients/README.md)."""

import dataclasses
import enum
import json
import os
import re
import sys
import urllib.parse
import urllib.request

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "src"))
from datetime import datetime  # noqa: E402

from contact_verify import ContactVerify, ContactVerifyError, Link, TestHelper  # noqa: E402

env = os.environ
scenario = json.load(open(env["CV_SCENARIO"]))
vars_ = {"lang": "python", "runId": env["CV_RUN_ID"]}


def expand(value):
    if isinstance(value, str):
        return re.sub(r"\{(\w+)\}", lambda m: vars_.get(m.group(1), m.group(0)), value)
    if isinstance(value, list):
        return [expand(v) for v in value]
    if isinstance(value, dict):
        return {k: expand(v) for k, v in value.items()}
    return value


for name, value in scenario["vars"].items():
    vars_[name] = expand(value)

clients = {
    "default": ContactVerify(env["CV_BASE_URL"], env["CV_API_KEY"]),
    "badKey": ContactVerify(env["CV_BASE_URL"], "cv_live_not_a_real_key_000000000000"),
    "stub": ContactVerify(env["CV_STUB_URL"], env["CV_API_KEY"]),
    "test": ContactVerify(env["CV_BASE_URL"], env["CV_TEST_API_KEY"]),
}
outbox = TestHelper(env["CV_BASE_URL"], env["CV_ADMIN_TOKEN"])


def camel(name):
    head, *rest = name.split("_")
    return head + "".join(p.title() for p in rest)


def as_json(value):
    """The library's typed answer with the API's member names, for comparison with the scenario."""
    if dataclasses.is_dataclass(value):
        return {camel(f.name): as_json(getattr(value, f.name)) for f in dataclasses.fields(value)}
    if isinstance(value, list):
        return [as_json(v) for v in value]
    if isinstance(value, dict):
        return {k: as_json(v) for k, v in value.items()}
    if isinstance(value, enum.Enum):
        return value.value
    if isinstance(value, datetime):
        return value.isoformat()
    return value


def mismatch(expected, actual, at="data"):
    if isinstance(expected, list):
        if not isinstance(actual, list) or len(actual) != len(expected):
            return f"{at}: expected a list of {len(expected)}, got {actual!r}"
        for i, (e, a) in enumerate(zip(expected, actual)):
            m = mismatch(e, a, f"{at}[{i}]")
            if m:
                return m
        return None
    if isinstance(expected, dict):
        if not isinstance(actual, dict):
            return f"{at}: expected an object, got {actual!r}"
        for k, e in expected.items():
            m = mismatch(e, actual.get(k), f"{at}.{k}")
            if m:
                return m
        return None
    return None if expected == actual else f"{at}: expected {expected!r}, got {actual!r}"


def pick(data, path):
    for key in [p for p in re.sub(r"\[(\d+)\]", r".\1", path).split(".") if p]:
        if data is None:
            return None
        data = data[int(key)] if isinstance(data, list) else data.get(key)
    return data


def outbox_code(to):
    request = urllib.request.Request(
        f"{env['CV_BASE_URL']}/v1/admin/outbox?to={urllib.parse.quote(to)}",
        headers={"Authorization": f"Bearer {env['CV_ADMIN_TOKEN']}"},
    )
    with urllib.request.urlopen(request) as res:
        items = json.load(res)["data"]
    match = re.search(scenario["codePattern"], items[0]["text"] if items else "")
    if not match:
        raise AssertionError(f"no code in the outbox for {to}")
    return {"code": match.group(1)}


def run(step):
    client = clients[step.get("client", "default")]
    args = expand(step.get("args", {}))
    retries = step.get("retries")
    expect = step.get("expect", {})
    try:
        if step["op"] == "health":
            data = client.health(max_retries=retries)
        elif step["op"] == "sendCode":
            data = client.send_code(
                channel=args.get("channel"),
                channels=args.get("channels"),
                email=args.get("email"),
                phone=args.get("phone"),
                country=args.get("country"),
                delivery_type=args.get("deliveryType"),
                purpose=args.get("purpose"),
                custom_message=args.get("customMessage"),
                locale=args.get("locale"),
                link=Link(redirect_url=args["link"].get("redirectUrl")) if "link" in args else None,
                fallback=args.get("fallback"),
                idempotency_key=args.get("idempotencyKey"),
                max_retries=retries,
            )
        elif step["op"] == "verifyCode":
            data = client.verify_code(args["requestId"], args.get("otpCode"), max_retries=retries)
        elif step["op"] == "getVerification":
            data = client.get_verification(args["requestId"], max_retries=retries)
        elif step["op"] == "cancelVerification":
            data = client.cancel_verification(args["requestId"], max_retries=retries)
        elif step["op"] == "latestOutboxCode":
            data = {"code": outbox.latest_outbox_code(args["to"])}
        else:
            data = outbox_code(args["to"])
    except ContactVerifyError as err:
        want = expect.get("error")
        if not want:
            raise
        if (err.status, err.code) != (want["status"], want["code"]):
            raise AssertionError(f"expected {want['status']} {want['code']}, got {err.status} {err.code}")
        if "retryAfterAtLeast" in want and (err.retry_after or 0) < want["retryAfterAtLeast"]:
            raise AssertionError(f"expected retry_after >= {want['retryAfterAtLeast']}, got {err.retry_after}")
        return
    if "error" in expect:
        raise AssertionError(f"expected {expect['error']['code']}, got an answer")
    data = as_json(data)
    if "ok" in expect:
        m = mismatch(expand(expect["ok"]), data)
        if m:
            raise AssertionError(m)
    for path in expect.get("present", []):
        if pick(data, path) is None:
            raise AssertionError(f"data.{path}: expected a value, got none")
    for name, path in step.get("save", {}).items():
        vars_[name] = str(pick(data, path))


failed = 0
for step in scenario["steps"]:
    try:
        run(step)
        print(f"ok   {step['name']}")
    except Exception as err:  # noqa: BLE001 - every failure is reported and counted
        failed += 1
        print(f"FAIL {step['name']}: {err}")
print(f"{len(scenario['steps']) - failed} passed, {failed} failed")
sys.exit(1 if failed else 0)
