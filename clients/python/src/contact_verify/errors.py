from __future__ import annotations

from typing import List, Optional, Union

from .enums import ErrorCode
from .models import ErrorDetail


class ContactVerifyError(Exception):
    """Every failed call: the service's error body with the HTTP status and ``Retry-After``.

    ``code`` is the contract's stable code (an :class:`ErrorCode`, equal to its string:
    ``err.code == "RATE_LIMITED"``), or ``NETWORK_ERROR`` with ``status`` 0 when no answer came.
    ``retry_after`` is the seconds ``Retry-After`` gave, or ``None``. The subclasses name the cases
    a caller handles differently; catching ``ContactVerifyError`` catches them all.
    """

    def __init__(
        self,
        status: int,
        code: Union[ErrorCode, str],
        message: str,
        details: Optional[List[ErrorDetail]] = None,
        retry_after: Optional[int] = None,
    ) -> None:
        super().__init__(f"{status} {code}: {message}")
        self.status = status
        self.code = ErrorCode.parse(str(code))
        self.message = message
        self.details: List[ErrorDetail] = list(details or [])
        self.retry_after = retry_after

    @staticmethod
    def of(
        status: int,
        code: str,
        message: str,
        details: Optional[List[ErrorDetail]] = None,
        retry_after: Optional[int] = None,
    ) -> "ContactVerifyError":
        """The most specific error class for an answer's status and code."""
        if status == 0:
            kind = NetworkError
        elif status == 401:
            kind = AuthenticationError
        elif status == 404:
            kind = NotFoundError
        elif code == ErrorCode.RATE_LIMITED:
            kind = RateLimitError
        elif code == ErrorCode.TOO_MANY_ATTEMPTS:
            kind = TooManyAttemptsError
        elif status == 400:
            kind = InvalidRequestError
        elif status >= 500:
            kind = ServerError
        else:
            kind = ContactVerifyError
        return kind(status, code, message, details, retry_after)


class NetworkError(ContactVerifyError):
    """No answer: the service is unreachable or the call timed out (status 0, ``NETWORK_ERROR``)."""


class AuthenticationError(ContactVerifyError):
    """401 ``UNAUTHORIZED``: a missing, malformed, unknown or revoked key."""


class NotFoundError(ContactVerifyError):
    """404 ``NOT_FOUND``: an unknown ``request_id``, another account's, or a channel the key lacks."""


class InvalidRequestError(ContactVerifyError):
    """400: ``VALIDATION_ERROR`` (one detail per broken rule), ``INVALID_DESTINATION``, ..."""


class RateLimitError(ContactVerifyError):
    """429 ``RATE_LIMITED``: ``retry_after`` says when a new send can succeed (show it to the user)."""


class TooManyAttemptsError(ContactVerifyError):
    """429 ``TOO_MANY_ATTEMPTS``: the request's attempts are used up; ask for a new code."""


class ServerError(ContactVerifyError):
    """5xx: ``UNAVAILABLE``, ``INTERNAL``, ``DELIVERY_FAILED``, ``CHANNEL_UNAVAILABLE``."""


class NoOutboxCodeError(Exception):
    """The test helper found no code: no message to that address, or not a test-mode request."""
