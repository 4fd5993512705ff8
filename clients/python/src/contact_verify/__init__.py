"""Client for the contact verification service."""

from .client import ContactVerify, SendEntry, VerifyResult, Risk, RiskSignal
from .errors import ContactVerifyError

__all__ = ["ContactVerify", "ContactVerifyError", "SendEntry", "VerifyResult", "Risk", "RiskSignal"]
__version__ = "0.1.0"
