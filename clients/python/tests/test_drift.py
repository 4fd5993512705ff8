"""The library held to the service's OpenAPI document ($CV_OPENAPI, else clients/openapi.json):
every field of the models it returns, every send option, every enum value and every error code,
both ways, so a field, status or code added to the service fails here until the library has it."""

import copy
import dataclasses
import inspect
import json
import os
import sys
import unittest

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "src"))
import contact_verify as cv  # noqa: E402

DOCUMENT = os.environ.get("CV_OPENAPI") or os.path.join(os.path.dirname(__file__), "..", "..", "openapi.json")

# Each model and the component schema it stands for: its fields, camelCased, are the schema's.
MODELS = {
    "SendCodeEntry": cv.SendEntry,
    "SendCodeEntryError": cv.SendEntryError,
    "Risk": cv.Risk,
    "RiskSignal": cv.RiskSignal,
    "VerifyCodeResult": cv.VerifyResult,
    "ErrorDetail": cv.ErrorDetail,
    "Health": cv.Health,
    "ChannelHealth": cv.ChannelHealth,
    "ProviderHealth": cv.ProviderHealth,
    "PumpingBreakerCount": cv.PumpingBreakerCount,
    "InstancesHealth": cv.InstancesHealth,
    "CodeSecretRotation": cv.CodeSecretRotation,
    "OutboxMessage": cv.OutboxMessage,
    "Verification": cv.Verification,
    "VerificationDelivery": cv.VerificationDelivery,
    "SendLink": cv.Link,
    "SilentFallback": cv.SilentFallback,
    # Objects the document spells out inside another schema: the path of the member.
    "SendCodeEntry.silent": cv.SilentCheck,
    "VerifyCodeResult.silent": cv.SilentResult,
    "Verification.fallback": cv.VerificationFallback,
}
ENUMS = {
    "Channel": cv.Channel,
    "DeliveryType": cv.DeliveryType,
    "VerificationStatus": cv.VerificationStatus,
    "SendCodeEntryStatus": cv.SendEntryStatus,
    "RiskLevel": cv.RiskLevel,
    "HealthStatus": cv.HealthStatus,
    "VerificationMethod": cv.VerificationMethod,
    "DeliveryState": cv.DeliveryState,
    "FallbackReason": cv.FallbackReason,
    "VerifyCodeResult.silent.outcome": cv.SilentOutcome,
    "Verification.fallback.state": cv.FallbackState,
}
# Fields of SendCodeRequest that send_code leaves out on purpose: other names of ``phone``.
PHONE_ALIASES = {"whatsappNumber", "phoneNumber"}
# Keywords of send_code that are not body fields: a header and the client's retry limit.
NOT_IN_BODY = {"idempotencyKey", "maxRetries"}
# ErrorCode members that are the library's, not the service's.
LIBRARY_CODES = {"NETWORK_ERROR"}


def camel(name):
    head, *rest = name.split("_")
    return head + "".join(p.title() for p in rest)


def schema_at(schemas, path):
    """A component schema by name, or a member's own schema inside one (``SendCodeEntry.silent``)."""
    name, *members = path.split(".")
    schema = schemas[name]
    for member in members:
        schema = schema["properties"][member]
    return schema


def problems(doc):
    """Every difference between the library and ``doc``, one sentence each."""
    schemas = doc["components"]["schemas"]
    found = []

    def compare(what, document, library):
        missing = [v for v in document if v not in library]
        extra = [v for v in library if v not in document]
        if missing:
            found.append(f"{what}: the document has {', '.join(missing)}, the library lacks it")
        if extra:
            found.append(f"{what}: the library has {', '.join(extra)}, the document does not")

    for name, model in MODELS.items():
        compare(name, list(schema_at(schemas, name)["properties"]), [camel(f.name) for f in dataclasses.fields(model)])
    for label, send_code in send_codes():
        keywords = [camel(p) for p in inspect.signature(send_code).parameters if p != "self"]
        body = [f for f in schemas["SendCodeRequest"]["properties"] if f not in PHONE_ALIASES]
        compare(f"SendCodeRequest ({label}'s keywords)", body, [k for k in keywords if k not in NOT_IN_BODY])
    api_error = list(schemas["ApiError"]["properties"])
    error = cv.ContactVerifyError(400, "VALIDATION_ERROR", "m")
    compare("ApiError (ContactVerifyError's attributes)", api_error, [f for f in api_error if hasattr(error, f)])
    for name, enum in ENUMS.items():
        compare(name, schema_at(schemas, name)["enum"], [m.value for m in enum])
    # send_code's fallback= takes a Channel: each channel the document allows must be one.
    fallbacks = schemas["SendCodeRequest"]["properties"]["fallback"]["enum"]
    compare("SendCodeRequest.fallback (Channel)", fallbacks, [c for c in fallbacks if c in [m.value for m in cv.Channel]])
    codes = [m.value for m in cv.ErrorCode if m.value not in LIBRARY_CODES]
    compare("ErrorCode", schemas["ErrorCode"]["enum"], codes)
    if codes != [c for c in schemas["ErrorCode"]["enum"] if c in codes]:
        found.append("ErrorCode: the library's order is not the document's")
    entry_codes = schemas["SendCodeEntryError"]["properties"]["code"]["enum"]
    compare("SendCodeEntryError.code", entry_codes, [c for c in entry_codes if c in codes])
    return found


def send_codes():
    """send_code of the sync client, and of the async one when httpx is installed."""
    yield "ContactVerify.send_code", cv.ContactVerify.send_code
    try:
        from contact_verify.aio import AsyncContactVerify
    except ImportError:  # no httpx: the async client is not there to drift
        return
    yield "AsyncContactVerify.send_code", AsyncContactVerify.send_code


class Drift(unittest.TestCase):
    def document(self):
        with open(DOCUMENT) as f:
            return json.load(f)

    def test_the_library_matches_the_document(self):
        self.assertEqual(problems(self.document()), [], f"{DOCUMENT} and the library differ: change the library")

    def test_a_field_status_or_code_added_to_the_document_is_caught(self):
        doc = copy.deepcopy(self.document())
        schemas = doc["components"]["schemas"]
        schemas["SendCodeEntry"]["properties"]["retryAt"] = {"type": "string"}
        schemas["VerifyCodeResult"]["properties"]["lockedUntil"] = {"type": "string"}
        schemas["OutboxMessage"]["properties"]["provider"] = {"type": "string"}
        schemas["SendCodeRequest"]["properties"]["template"] = {"type": "string"}
        schemas["ApiError"]["properties"]["docsUrl"] = {"type": "string"}
        schemas["Verification"]["properties"]["canceledAt"] = {"type": "string"}
        schemas["SendCodeEntry"]["properties"]["silent"]["properties"]["checkUrl"] = {"type": "string"}
        schemas["DeliveryState"]["enum"].append("read")
        schemas["VerificationMethod"]["enum"].append("passkey")
        schemas["VerificationStatus"]["enum"].append("locked")
        schemas["ErrorCode"]["enum"].append("PAYMENT_REQUIRED")
        schemas["Channel"]["enum"].remove("WHATSAPP")
        found = "\n".join(problems(doc))
        added = ("retryAt", "lockedUntil", "provider", "template", "docsUrl", "locked", "PAYMENT_REQUIRED")
        for name in added + ("canceledAt", "checkUrl", "read", "passkey"):
            self.assertRegex(found, rf"the document has [^\n]*\b{name}\b")
        self.assertRegex(found, r"Channel: the library has WHATSAPP")


if __name__ == "__main__":
    unittest.main()
