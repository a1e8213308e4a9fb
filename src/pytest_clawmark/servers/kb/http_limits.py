"""ASGI middleware bounding what one request may make the server hold: headers and body.

Why a middleware that reads the whole body first: the app then never sees a partial body, so an
oversize one (counted as it streams, refused the moment it passes the limit, announced or not),
one that stops arriving (a timeout) or a client that goes away mid-body can never surface as an
exception inside an endpoint (a ``ClientDisconnect`` used to be logged as an internal error).
Refusals use Notion's error shape and ``Connection: close``; the server's lingering close
(:mod:`pytest_clawmark.servers.asgi`) lets the client read them instead of seeing a reset.
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import Callable

from starlette.types import ASGIApp, Message, Receive, Scope, Send

from . import limits

__all__ = ["RequestLimits", "notion_error_body"]

OnRefused = Callable[[Scope, int, str], None]
"""Told of each refusal (for the audit log): ``(scope, status, message)``."""


def notion_error_body(status: int, message: str) -> tuple[str, bytes]:
    """Notion's error document for a refusal made below the API (HTTP framing, sizes, timeouts)."""
    code = "invalid_request" if status in (400, 408) else "validation_error"
    payload = {"object": "error", "status": status, "code": code, "message": message}
    return "application/json", json.dumps(payload, ensure_ascii=False).encode("utf-8")


class RequestLimits:
    """Refuses oversize headers (431) and bodies (413), and bodies that stall (408)."""

    def __init__(self, app: ASGIApp, body_limit: Callable[[Scope], int], on_refused: OnRefused | None = None) -> None:
        self.app = app
        self.body_limit = body_limit
        self.on_refused = on_refused

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        header_bytes = sum(len(k) + len(v) for k, v in scope.get("headers", ()))
        if header_bytes > limits.MAX_HEADER_BYTES:
            message = f"Request headers total {header_bytes} bytes; the limit is {limits.MAX_HEADER_BYTES}."
            await self._refuse(scope, send, 431, message)
            return
        limit = self.body_limit(scope)
        declared = _content_length(scope)
        if declared is not None and declared > limit:
            await self._refuse(scope, send, 413, _too_large(limit))
            return
        chunks: list[bytes] = []
        size = 0
        more = True
        while more:
            try:
                message = await asyncio.wait_for(receive(), limits.BODY_TIMEOUT_S)
            except TimeoutError:
                message = f"The request body did not arrive within {limits.BODY_TIMEOUT_S:g} s."
                await self._refuse(scope, send, 408, message)
                return
            if message["type"] == "http.disconnect":
                return  # the client went away: nobody to answer
            chunk = message.get("body", b"")
            size += len(chunk)
            if size > limit:
                await self._refuse(scope, send, 413, _too_large(limit))
                return
            chunks.append(chunk)
            more = message.get("more_body", False)
        await self.app(scope, _replay(b"".join(chunks), receive), send)

    async def _refuse(self, scope: Scope, send: Send, status: int, message: str) -> None:
        if self.on_refused is not None:
            self.on_refused(scope, status, message)
        await _send_error(send, status, message)


def _too_large(limit: int) -> str:
    return f"Request body too large: the limit is {limit} bytes."


def _content_length(scope: Scope) -> int | None:
    for key, value in scope.get("headers", ()):
        if key == b"content-length" and value.isdigit():
            return int(value)
    return None


def _replay(body: bytes, receive: Receive) -> Receive:
    sent = False

    async def replay() -> Message:
        nonlocal sent
        if not sent:
            sent = True
            return {"type": "http.request", "body": body, "more_body": False}
        return await receive()  # after the body: wait for a disconnect, as the server would

    return replay


async def _send_error(send: Send, status: int, message: str) -> None:
    content_type, body = notion_error_body(status, message)
    await send(
        {
            "type": "http.response.start",
            "status": status,
            "headers": [
                (b"content-type", content_type.encode()),
                (b"content-length", str(len(body)).encode()),
                (b"connection", b"close"),
            ],
        }
    )
    await send({"type": "http.response.body", "body": body})
