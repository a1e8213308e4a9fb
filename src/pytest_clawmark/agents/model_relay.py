"""The agent's model provider, relayed onto its world's private network (``--agent-isolation=container``).

Why: an agent in a container reaches only its world (backends/network.py) — but a real agent needs
its model. Rather than opening a route out, the harness serves one extra endpoint on its own
address of the world's network (reachable from that network's containers only): a reverse proxy
to exactly one upstream, the provider's ``base_url``. The agent is configured with the relay's
address; requests go out through the harness's own network set-up (its proxies and certificates),
with the agent's own headers (its API key) and body, and the answer streams back unchanged
(server-sent events included). Nothing else is forwarded: another host, or a path outside the
provider's base path, is refused with 403.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from typing import Any
from urllib.parse import urlparse

import httpx

from ..servers.asgi import StandaloneAsgi

MAX_REQUEST_BYTES = 32 * 1024 * 1024
"""A request the agent sends its model (a long conversation with images) stays below this."""
HOP_BY_HOP = frozenset(
    {
        "connection",
        "keep-alive",
        "proxy-authenticate",
        "proxy-authorization",
        "te",
        "trailer",
        "transfer-encoding",
        "upgrade",
        "host",
        "content-length",
    }
)


class ModelRelay:
    """A started relay to ``upstream`` (a provider's base URL), listening on ``host``."""

    def __init__(self, upstream: str, *, host: str) -> None:
        parsed = urlparse(upstream)
        if parsed.scheme not in ("http", "https") or not parsed.netloc:
            raise ValueError(f"the model relay needs an http(s) base URL, got {upstream!r}")
        self.upstream = upstream.rstrip("/")
        self._origin = f"{parsed.scheme}://{parsed.netloc}"
        self._base_path = parsed.path.rstrip("/")
        self._server = StandaloneAsgi(self._app, name="clawmark-model-relay", host=host)
        self._client: httpx.AsyncClient | None = None
        self.requests = 0

    def start(self) -> ModelRelay:
        self._server.start()
        return self

    @property
    def base_url(self) -> str:
        """What the agent is given instead of the provider's base URL."""
        return self._server.url + self._base_path

    async def _app(self, scope: dict[str, Any], receive: Callable[..., Any], send: Callable[..., Any]) -> None:
        if scope["type"] != "http":
            return
        path = scope.get("raw_path", scope["path"].encode()).decode("latin-1")
        if not (path == self._base_path or path.startswith(self._base_path + "/")) or ".." in path:
            await _plain(send, 403, f"the model relay forwards {self._base_path or '/'}... to {self._origin} only")
            return
        body = b""
        while True:
            message = await receive()
            body += message.get("body", b"")
            if len(body) > MAX_REQUEST_BYTES:
                await _plain(
                    send, 413, f"a request to the model is limited to {MAX_REQUEST_BYTES // (1024 * 1024)} MiB"
                )
                return
            if not message.get("more_body"):
                break
        headers = [
            (k.decode("latin-1"), v.decode("latin-1"))
            for k, v in scope.get("headers", [])
            if k.decode("latin-1").lower() not in HOP_BY_HOP
        ]
        query = scope.get("query_string", b"").decode("latin-1")
        url = self._origin + path + (f"?{query}" if query else "")
        if self._client is None:
            # the harness's own way out (its proxies, its CA bundle), long reads for slow models
            self._client = httpx.AsyncClient(trust_env=True, timeout=httpx.Timeout(30.0, read=600.0))
        self.requests += 1
        try:
            request = self._client.build_request(scope["method"], url, headers=headers, content=body)
            response = await self._client.send(request, stream=True)
        except httpx.HTTPError as exc:
            await _plain(send, 502, f"the model relay cannot reach {self._origin}: {type(exc).__name__}: {exc}")
            return
        try:
            out = [
                (k.encode("latin-1"), v.encode("latin-1"))
                for k, v in response.headers.multi_items()
                if k.lower() not in HOP_BY_HOP
            ]
            await send({"type": "http.response.start", "status": response.status_code, "headers": out})
            async for chunk in response.aiter_raw():  # as sent (compressed stays compressed, with its header)
                await send({"type": "http.response.body", "body": chunk, "more_body": True})
            await send({"type": "http.response.body", "body": b""})
        except (httpx.HTTPError, asyncio.CancelledError, OSError):
            pass  # the provider or the agent went away mid-answer: nothing more to relay
        finally:
            await response.aclose()

    def stop(self) -> None:
        client, self._client = self._client, None
        self._server.stop(client.aclose if client is not None else None)


async def _plain(send: Callable[..., Any], status: int, text: str) -> None:
    data = text.encode()
    await send(
        {
            "type": "http.response.start",
            "status": status,
            "headers": [(b"content-type", b"text/plain; charset=utf-8"), (b"content-length", str(len(data)).encode())],
        }
    )
    await send({"type": "http.response.body", "body": data})
