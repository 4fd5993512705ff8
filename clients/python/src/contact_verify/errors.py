from __future__ import annotations

from typing import Any, Dict, List, Optional


class ContactVerifyError(Exception):
    """Every failed call: the service's error body with the HTTP status and Retry-After.

    ``code`` is the contract's stable code (``TOO_MANY_ATTEMPTS``, ``RATE_LIMITED``,
    ``UNAUTHORIZED``, ...), or ``NETWORK_ERROR`` with ``status`` 0 when no answer came.
    """

    def __init__(
        self,
        status: int,
        code: str,
        message: str,
        details: Optional[List[Dict[str, Any]]] = None,
        retry_after: Optional[int] = None,
    ) -> None:
        super().__init__(f"{status} {code}: {message}")
        self.status = status
        self.code = code
        self.message = message
        self.details = details or []
        self.retry_after = retry_after
