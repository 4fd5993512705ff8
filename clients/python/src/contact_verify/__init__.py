"""Client for the contact verification service: send and verify one-time codes.

``ContactVerify`` needs nothing but the standard library; ``AsyncContactVerify`` (asyncio) needs
httpx: ``pip install "contact-verify[async]"``.
"""

from typing import Any

from ._core import VERSION
from .client import ContactVerify, TestHelper
from .enums import (
    Channel,
    DeliveryState,
    DeliveryType,
    ErrorCode,
    FallbackReason,
    FallbackState,
    HealthStatus,
    RiskLevel,
    SendEntryStatus,
    SilentOutcome,
    VerificationMethod,
    VerificationStatus,
)
from .errors import (
    AuthenticationError,
    ContactVerifyError,
    InvalidRequestError,
    NetworkError,
    NoOutboxCodeError,
    NotFoundError,
    RateLimitError,
    ServerError,
    TooManyAttemptsError,
)
from .models import (
    ChannelHealth,
    CodeSecretRotation,
    ErrorDetail,
    Health,
    InstancesHealth,
    Link,
    OutboxMessage,
    ProviderHealth,
    PumpingBreakerCount,
    Risk,
    RiskSignal,
    SendEntry,
    SendEntryError,
    SilentCheck,
    SilentFallback,
    SilentResult,
    Verification,
    VerificationDelivery,
    VerificationFallback,
    VerifyResult,
)

__version__ = VERSION
__all__ = [
    "ContactVerify",
    "AsyncContactVerify",
    "TestHelper",
    "AsyncTestHelper",
    "Channel",
    "DeliveryType",
    "ErrorCode",
    "HealthStatus",
    "RiskLevel",
    "SendEntryStatus",
    "VerificationStatus",
    "VerificationMethod",
    "DeliveryState",
    "FallbackReason",
    "FallbackState",
    "SilentOutcome",
    "ContactVerifyError",
    "NetworkError",
    "AuthenticationError",
    "NotFoundError",
    "InvalidRequestError",
    "RateLimitError",
    "TooManyAttemptsError",
    "ServerError",
    "NoOutboxCodeError",
    "SendEntry",
    "SendEntryError",
    "VerifyResult",
    "Verification",
    "VerificationDelivery",
    "VerificationFallback",
    "Link",
    "SilentCheck",
    "SilentFallback",
    "SilentResult",
    "Risk",
    "RiskSignal",
    "ErrorDetail",
    "Health",
    "ChannelHealth",
    "ProviderHealth",
    "InstancesHealth",
    "PumpingBreakerCount",
    "CodeSecretRotation",
    "OutboxMessage",
]


def __getattr__(name: str) -> Any:
    # The async client loads httpx only when asked for, so the sync one needs nothing installed.
    if name in ("AsyncContactVerify", "AsyncTestHelper"):
        from . import aio

        return getattr(aio, name)
    raise AttributeError(f"module 'contact_verify' has no attribute {name!r}")
