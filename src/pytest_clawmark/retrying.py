"""How a careful client retries: the agent-plane clients' policy for transient failures.

Why: real services answer ``429 Too Many Requests``, ``500``/``503``, drop an IMAP connection or
refuse a submission with SMTP's ``4xx`` now and then (and ``--clawmark-faults`` makes them do it on
purpose, docs/robustness.md). A careful agent waits as told (``Retry-After``), else backs off
exponentially, and tries the same request again a few times; it never retries what the server
refused for good (a ``4xx`` other than 429, an SMTP ``5xx``, IMAP ``NO``/``BAD`` without
``[UNAVAILABLE]``). The reference solutions act through these clients, so the reference agent is
that careful agent; agents under test bring their own clients.

Retrying a write is safe here because a transient refusal means the request was not applied:
the world's faults are decided before a request reaches a service (all or nothing).
"""

from __future__ import annotations

import imaplib
import smtplib
import time
from collections.abc import Callable
from typing import TypeVar

import httpx

__all__ = ["ATTEMPTS", "RetryingTransport", "retry_transient", "transient_mail_error"]

ATTEMPTS = 6
"""Tries per request (five retries): at the ``heavy`` profile's worst rate (one in five), the
chance that all six fail is 1 in 15,625."""
BACKOFF = 0.05
"""Seconds before the first retry without a ``Retry-After``; doubles each time."""
MAX_WAIT = 5.0
"""The longest wait honoured (a ``Retry-After`` above it waits this long)."""
RETRY_STATUSES = frozenset({429, 500, 502, 503, 504})

T = TypeVar("T")


def _wait(attempt: int, retry_after: str | None = None) -> float:
    if retry_after:
        try:
            return min(MAX_WAIT, max(0.0, float(retry_after)))
        except ValueError:
            pass  # an HTTP date: back off instead
    return min(MAX_WAIT, BACKOFF * 2**attempt)


class RetryingTransport(httpx.BaseTransport):
    """An httpx transport that retries 429 and 5xx answers and dropped connections."""

    def __init__(self, inner: httpx.BaseTransport | None = None, *, attempts: int | None = None) -> None:
        self.inner = inner or httpx.HTTPTransport(verify=False)
        self.attempts = attempts  # None: :data:`ATTEMPTS` as it is at each request

    def handle_request(self, request: httpx.Request) -> httpx.Response:
        request.read()  # the body is sent again as it was
        attempts = self.attempts or ATTEMPTS
        for attempt in range(attempts):
            last = attempt == attempts - 1
            try:
                response = self.inner.handle_request(request)
            except (httpx.ConnectError, httpx.RemoteProtocolError, httpx.ReadError, httpx.WriteError):
                if last:
                    raise
                time.sleep(_wait(attempt))
                continue
            if response.status_code not in RETRY_STATUSES or last:
                return response
            response.read()
            response.close()
            time.sleep(_wait(attempt, response.headers.get("retry-after")))
        raise AssertionError("unreachable")  # pragma: no cover

    def close(self) -> None:
        self.inner.close()


def transient_mail_error(exc: BaseException) -> bool:
    """A mail failure worth retrying: a dropped or closed connection, IMAP ``[UNAVAILABLE]``,
    an SMTP ``4xx`` reply."""
    if isinstance(exc, imaplib.IMAP4.abort | smtplib.SMTPServerDisconnected | ConnectionError | EOFError):
        return True
    if isinstance(exc, smtplib.SMTPRecipientsRefused):
        return all(400 <= code < 500 for code, _ in exc.recipients.values())
    if isinstance(exc, smtplib.SMTPResponseException):
        return 400 <= exc.smtp_code < 500
    if isinstance(exc, imaplib.IMAP4.error):
        return "UNAVAILABLE" in str(exc)
    return False


def retry_transient(
    operation: Callable[[], T], *, transient: Callable[[BaseException], bool], attempts: int | None = None
) -> T:
    """Run ``operation`` (a whole exchange: connect, log in, act) again after a transient failure
    (``attempts`` tries; None: :data:`ATTEMPTS` as it is now)."""
    attempts = attempts or ATTEMPTS
    for attempt in range(attempts):
        try:
            return operation()
        except Exception as exc:
            if attempt == attempts - 1 or not transient(exc):
                raise
            time.sleep(_wait(attempt))
    raise AssertionError("unreachable")  # pragma: no cover
