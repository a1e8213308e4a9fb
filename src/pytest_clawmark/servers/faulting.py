"""The HTTP servers' fault hooks: an ASGI middleware (kb, sheets) and a WSGI one (calendar).

Why middleware, outermost: a faulted request never reaches the service, so nothing of it is
applied (the all-or-nothing rule of :mod:`pytest_clawmark.faults`), and the service's own code
needs no knowledge of faults. Requests of the harness (the admin plane's paths and token) pass
untouched. The error bodies are the real APIs' shapes, so an agent's client reacts to them as it
would to the real service (notion-client raises ``APIResponseError`` with ``rate_limited``,
gspread ``APIError`` with ``RESOURCE_EXHAUSTED``, caldav honours ``Retry-After``).
"""

from __future__ import annotations

import asyncio
import hmac
import json
import time
from collections.abc import Callable, Iterable
from typing import Any

from ..faults import FaultGate

__all__ = ["FaultyAsgi", "FaultyWsgi", "google_fault", "notion_fault"]

Shape = Callable[[str, int], tuple[int, list[tuple[bytes, bytes]], bytes]]
"""``(kind, retry_after) -> (status, headers, body)`` of a service's error response."""

_NOTION = {
    "rate_limit": (429, "rate_limited", "You have been rate limited. Please try again in a few minutes."),
    "server_error": (500, "internal_server_error", "Unexpected error occurred."),
    "unavailable": (503, "service_unavailable", "Notion is unavailable, try again later."),
}
_GOOGLE = {
    "rate_limit": (429, "RESOURCE_EXHAUSTED", "Quota exceeded for quota metric 'Read requests' and limit "
                   "'Read requests per minute per user'."),
    "server_error": (500, "INTERNAL", "Internal error encountered."),
    "unavailable": (503, "UNAVAILABLE", "The service is currently unavailable."),
}  # fmt: skip


def notion_fault(kind: str, retry_after: int) -> tuple[int, list[tuple[bytes, bytes]], bytes]:
    status, code, message = _NOTION[kind]
    body = json.dumps({"object": "error", "status": status, "code": code, "message": message}).encode()
    headers = [(b"content-type", b"application/json")]
    if status in (429, 503):
        headers.append((b"retry-after", str(retry_after).encode()))
    return status, headers, body


def google_fault(kind: str, retry_after: int) -> tuple[int, list[tuple[bytes, bytes]], bytes]:
    status, code, message = _GOOGLE[kind]
    body = json.dumps({"error": {"code": status, "message": message, "status": code}}).encode()
    return status, [(b"content-type", b"application/json; charset=UTF-8")], body


class FaultyAsgi:
    """Wraps an agent-plane ASGI app; ``admin_prefix`` paths and the admin token pass untouched."""

    def __init__(self, app: Any, gate: FaultGate, shape: Shape, *, admin_token: str, admin_prefix: str = "/_admin"):
        self.app = app
        self.gate = gate
        self.shape = shape
        self.admin = f"Bearer {admin_token}".encode()
        self.admin_prefix = admin_prefix

    def _harness(self, scope: Any) -> bool:
        if str(scope.get("path", "")).startswith(self.admin_prefix):
            return True
        auth = next((v for k, v in scope.get("headers", ()) if k == b"authorization"), b"")
        return hmac.compare_digest(auth, self.admin)

    async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
        if scope.get("type") != "http" or self._harness(scope):
            await self.app(scope, receive, send)
            return
        path = str(scope.get("path", ""))
        operation = f"{scope.get('method', '')} {path}"[:300]
        kind, n = self.gate.decide()
        profile = self.gate.profile
        if kind == "latency":
            self.gate.injected(n, kind, operation, path[:200], "delayed")
            await asyncio.sleep(profile.latency_ms / 1000)
            kind = None
        if kind is not None:
            status, headers, body = self.shape(kind, profile.retry_after)
            self.gate.injected(n, kind, operation, path[:200], str(status))
            headers = [*headers, (b"content-length", str(len(body)).encode())]
            await send({"type": "http.response.start", "status": status, "headers": headers})
            await send({"type": "http.response.body", "body": body})
            return
        answered: list[int] = []

        async def watching(message: Any) -> None:
            if message.get("type") == "http.response.start":
                answered.append(int(message.get("status", 0)))
            await send(message)

        await self.app(scope, receive, watching)
        if answered and answered[0] < 400:
            self.gate.succeeded(operation)


class FaultyWsgi:
    """Wraps the calendar's WSGI app: ``503`` with ``Retry-After`` (what caldav honours), or a
    delay; requests with the admin header pass untouched."""

    def __init__(self, app: Callable[..., Iterable[bytes]], gate: FaultGate, *, admin_environ: str, admin_token: str):
        self.app = app
        self.gate = gate
        self.admin_environ = admin_environ
        self.admin_token = admin_token

    def __call__(self, environ: dict[str, Any], start_response: Callable[..., Any]) -> Iterable[bytes]:
        if hmac.compare_digest(environ.get(self.admin_environ, ""), self.admin_token):
            return self.app(environ, start_response)
        path = str(environ.get("PATH_INFO", ""))
        operation = f"{environ.get('REQUEST_METHOD', '')} {path}"[:300]
        kind, n = self.gate.decide()
        profile = self.gate.profile
        if kind == "latency":
            self.gate.injected(n, kind, operation, path[:200], "delayed")
            time.sleep(profile.latency_ms / 1000)
            kind = None
        if kind is not None:
            body = b"Service Unavailable: the calendar server is busy, try again.\n"
            self.gate.injected(n, kind, operation, path[:200], "503")
            start_response(
                "503 Service Unavailable",
                [
                    ("Content-Type", "text/plain; charset=utf-8"),
                    ("Content-Length", str(len(body))),
                    ("Retry-After", str(profile.retry_after)),
                ],
            )
            return [body]
        answered: list[str] = []

        def watching(status: str, headers: Any, exc_info: Any = None) -> Any:
            answered.append(status)
            return start_response(status, headers, exc_info) if exc_info else start_response(status, headers)

        result = self.app(environ, watching)
        if answered and answered[0][:1] in ("1", "2", "3"):
            self.gate.succeeded(operation)
        return result
