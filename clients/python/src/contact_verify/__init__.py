"""Client for the contact verification service."""

from .client import ChannelHealth, ContactVerify, Health, Risk, RiskSignal, SendEntry, VerifyResult
from .errors import ContactVerifyError

__all__ = [
    "ContactVerify",
    "ContactVerifyError",
    "SendEntry",
    "VerifyResult",
    "Risk",
    "RiskSignal",
    "Health",
    "ChannelHealth",
]
__version__ = "0.1.0"
