"""Serve an ASGI app on a world's loop, on an ephemeral loopback port.

Why uvicorn in-process: a well-kept HTTP/1.1 server, started in milliseconds on the world's own
event loop; asyncio sets TCP_NODELAY on its TCP connections, which avoids the 40 ms
delayed-ACK stalls that small request/response pairs otherwise hit (docs/world.md).

Why a hardened protocol (:class:`HardenedH11Protocol`): the clients are untrusted agents, and
uvicorn's h11 protocol answers what it cannot parse (an oversize or malformed request head, a bad
``Content-Length`` or chunk) with a bare ``text/plain`` 400 and then closes the socket while
unread request bytes are still in it — which makes the kernel send a reset, so the client often
never sees the answer. Ours answers in the served API's own error shape (``error_body``: 431 for
an oversize head, 400 for a malformed one, 408 for a head that never completes), and every close
is *lingering*: the answer is sent, the write side is shut, and what the client still sends is
read and discarded for up to :data:`LINGER_S` before the socket closes (as nginx's
``lingering_close`` does). Shared by the kb and sheets servers; each passes its error shape.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from dataclasses import dataclass
from http import HTTPStatus
from typing import Any

import h11
import uvicorn
from uvicorn.protocols.http.h11_impl import H11Protocol

from .loop import WorldLoop, bind_loopback

__all__ = ["AsgiServer", "ErrorBody", "HardenedH11Protocol", "plain_error", "start_asgi", "stop_asgi"]

ErrorBody = Callable[[int, str], tuple[str, bytes]]
"""``(status, message) -> (content type, body)``: an API's error document for a protocol-level refusal."""

LINGER_S = 2.0
"""How long a closing connection keeps reading (and discarding) what the client still sends."""

MAX_INCOMPLETE_HEAD_BYTES = 64 * 1024
"""Default bound of a request head still being received (431 above)."""

HEAD_TIMEOUT_S = 10.0
"""Default time a client has to complete a request head it started (408 after)."""


def plain_error(status: int, message: str) -> tuple[str, bytes]:
    return "text/plain; charset=utf-8", message.encode("utf-8")


class _ErrorCapturingConnection(h11.Connection):
    """h11's connection, remembering the protocol error it raised (its status hint: 400 or 431)."""

    last_error: h11.RemoteProtocolError | None = None

    def next_event(self) -> Any:
        try:
            return super().next_event()
        except h11.RemoteProtocolError as exc:
            self.last_error = exc
            raise


class _LingeringTransport:
    """The connection's transport as uvicorn sees it: ``close()`` becomes a lingering close."""

    def __init__(self, transport: asyncio.Transport, protocol: HardenedH11Protocol) -> None:
        self._transport = transport
        self._protocol = protocol

    def close(self) -> None:
        self._protocol.linger()

    def is_closing(self) -> bool:
        return self._protocol.closing or self._transport.is_closing()

    def __getattr__(self, name: str) -> Any:
        return getattr(self._transport, name)


class HardenedH11Protocol(H11Protocol):
    """uvicorn's h11 protocol with API-shaped protocol errors, a head timeout and lingering closes."""

    error_body: ErrorBody = staticmethod(plain_error)
    head_timeout: float = HEAD_TIMEOUT_S
    linger_s: float = LINGER_S

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        head_limit = self.config.h11_max_incomplete_event_size or MAX_INCOMPLETE_HEAD_BYTES
        self.conn = _ErrorCapturingConnection(h11.SERVER, head_limit)
        self.closing = False
        self._hard_close = False
        self._raw: asyncio.Transport | None = None
        self._head_timer: asyncio.TimerHandle | None = None
        self._linger_timer: asyncio.TimerHandle | None = None

    # -- transport ---------------------------------------------------------------------------------
    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        self._raw = transport
        super().connection_made(_LingeringTransport(transport, self))  # type: ignore[arg-type]

    def linger(self) -> None:
        """Shut the write side once the answer is out, drain the peer a while, then close."""
        raw = self._raw
        if raw is None:
            return
        if self._hard_close or raw.is_closing():
            self.closing = True
            raw.close()
            return
        if self.closing:
            return
        self.closing = True
        self._cancel_head_timer()
        try:
            if raw.can_write_eof():
                raw.write_eof()
            raw.resume_reading()
        except (OSError, RuntimeError):
            raw.close()
            return
        self._linger_timer = self.loop.call_later(self.linger_s, raw.close)

    def data_received(self, data: bytes) -> None:
        if self.closing:
            return  # the answer is out: what the client still sends is read and dropped
        super().data_received(data)
        self._watch_head()

    def eof_received(self) -> bool | None:
        if self.closing and self._raw is not None:
            self._raw.close()  # the client has finished sending: the lingering close is done
        return None

    def connection_lost(self, exc: Exception | None) -> None:
        self._cancel_head_timer()
        if self._linger_timer is not None:
            self._linger_timer.cancel()
        super().connection_lost(exc)

    def shutdown(self) -> None:
        self._hard_close = True  # the world is stopping: no lingering
        super().shutdown()

    # -- protocol errors ---------------------------------------------------------------------------
    def send_400_response(self, msg: str) -> None:
        """Called by uvicorn when h11 cannot parse the request: answer in the API's shape."""
        error = getattr(self.conn, "last_error", None)
        status = error.error_status_hint if error is not None else 400
        limit = self.config.h11_max_incomplete_event_size or MAX_INCOMPLETE_HEAD_BYTES
        if status == 431:
            message = f"Request header fields too large: the request head exceeds {limit} bytes."
        else:
            detail = f" ({error})" if error is not None and str(error) else ""
            message = f"Invalid HTTP request{detail}."
        self.refuse(status, message)

    def refuse(self, status: int, message: str) -> None:
        """Answer ``status`` with the API's error body (unless a response already started) and close."""
        cycle = self.cycle
        started = cycle is not None and cycle.response_started
        if cycle is not None and not cycle.response_complete:
            cycle.disconnected = True  # the app, if running, stops waiting for the body
            cycle.message_event.set()
        if not started and self._raw is not None and not self._raw.is_closing():
            content_type, body = self.error_body(status, message)
            phrase = HTTPStatus(status).phrase
            head = (
                f"HTTP/1.1 {status} {phrase}\r\ncontent-type: {content_type}\r\n"
                f"content-length: {len(body)}\r\nconnection: close\r\n\r\n"
            )
            self._raw.write(head.encode("latin-1") + body)
        self.linger()

    # -- head timeout ------------------------------------------------------------------------------
    def _watch_head(self) -> None:
        partial = self.conn.their_state is h11.IDLE and bool(self.conn.trailing_data[0])
        if partial and self._head_timer is None:
            self._head_timer = self.loop.call_later(self.head_timeout, self._head_timed_out)
        elif not partial:
            self._cancel_head_timer()

    def _head_timed_out(self) -> None:
        self._head_timer = None
        if not self.closing and self.conn.their_state is h11.IDLE:
            self.refuse(408, f"The request head did not arrive within {self.head_timeout:g} s.")

    def _cancel_head_timer(self) -> None:
        if self._head_timer is not None:
            self._head_timer.cancel()
            self._head_timer = None


@dataclass
class AsgiServer:
    server: uvicorn.Server
    task: asyncio.Task[None]
    port: int
    host: str = "127.0.0.1"

    @property
    def url(self) -> str:
        return f"http://{self.host}:{self.port}"


async def _start(
    app: Any, port: int, protocol: type[HardenedH11Protocol], max_head_bytes: int, host: str = "127.0.0.1"
) -> AsgiServer:
    sock = bind_loopback(port, host)
    config = uvicorn.Config(
        app,
        lifespan="off",
        log_level="warning",
        access_log=False,
        ws="none",
        http=protocol,
        h11_max_incomplete_event_size=max_head_bytes,
        timeout_graceful_shutdown=1,
    )
    server = uvicorn.Server(config)
    task = asyncio.get_running_loop().create_task(server.serve(sockets=[sock]))
    while not server.started:
        if task.done():
            task.result()  # re-raise the start-up failure
            raise RuntimeError("ASGI server stopped during start-up")
        await asyncio.sleep(0.001)
    return AsgiServer(server, task, sock.getsockname()[1], host if host not in ("0.0.0.0", "") else "127.0.0.1")


def start_asgi(
    loop: WorldLoop,
    app: Any,
    port: int = 0,
    *,
    error_body: ErrorBody = plain_error,
    max_head_bytes: int = MAX_INCOMPLETE_HEAD_BYTES,
    head_timeout: float = HEAD_TIMEOUT_S,
    host: str = "127.0.0.1",
) -> AsgiServer:
    """Start ``app`` on ``loop`` (an ephemeral port unless ``port``); returns once it accepts connections.

    ``error_body`` renders the protocol-level refusals (400, 408, 431) in the served API's error shape.
    """
    protocol = type(
        "HardenedH11Protocol",
        (HardenedH11Protocol,),
        {"error_body": staticmethod(error_body), "head_timeout": head_timeout},
    )
    return loop.call(lambda: _start(app, port, protocol, max_head_bytes, host))


def stop_asgi(loop: WorldLoop, handle: AsgiServer | None) -> None:
    """Stop quickly: a world stops only between turns, when no request is in flight.

    uvicorn's own graceful shutdown costs ~200 ms (a 100 ms main-loop tick plus a fixed 100 ms
    grace sleep); we close the listener, close idle keep-alive connections and cancel the rest.
    """
    if handle is None:
        return

    async def _stop() -> None:
        server = handle.server
        server.should_exit = server.force_exit = True
        handle.task.cancel()  # wakes the 100 ms main-loop sleep at once
        await asyncio.gather(handle.task, return_exceptions=True)
        for listener in server.servers:
            listener.close()
        for connection in list(server.server_state.connections):
            connection.shutdown()
        for task in list(server.server_state.tasks):
            task.cancel()
        for listener in server.servers:
            try:
                await asyncio.wait_for(listener.wait_closed(), 1)
            except TimeoutError:  # pragma: no cover - a stuck client; the loop closes anyway
                pass

    loop.call(_stop)


class StandaloneAsgi:
    """An ASGI app served on its own private loop and thread: for the harness's side servers.

    Why: the scripted model and the model relay are not part of a world (they belong to the agent
    adapter), so they cannot use the world's loop; both need the same start/stop discipline —
    a loop that is closed even when start-up fails, and a quick stop. The app is wrapped in a
    plain coroutine function so uvicorn always takes it for ASGI 3 (a bound method or a callable
    object would be guessed as ASGI 2).
    """

    def __init__(self, app: Any, *, name: str, host: str = "127.0.0.1", port: int = 0) -> None:
        self._app = app
        self._name = name
        self._host = host
        self._port = port
        self.loop: WorldLoop | None = None
        self._handle: AsgiServer | None = None

    def start(self) -> StandaloneAsgi:
        app = self._app

        async def asgi3(scope: Any, receive: Any, send: Any) -> None:
            await app(scope, receive, send)

        self.loop = WorldLoop(name=self._name)
        try:
            self._handle = start_asgi(self.loop, asgi3, port=self._port, host=self._host)
        except BaseException:
            self.loop.close()
            self.loop = None
            raise
        return self

    @property
    def started(self) -> bool:
        return self._handle is not None

    @property
    def url(self) -> str:
        """``http://HOST:PORT``."""
        assert self._handle is not None, f"{self._name} is not started"
        return self._handle.url

    def stop(self, cleanup: Any = None) -> None:
        """Stop serving and close the loop; ``cleanup`` (a coroutine function) runs on the loop first."""
        if self.loop is None:
            return
        try:
            if cleanup is not None:
                try:
                    self.loop.call(cleanup, timeout=5)
                except Exception:  # the loop is going away anyway
                    pass
            stop_asgi(self.loop, self._handle)
        finally:
            self.loop.close()
            self.loop = None
            self._handle = None
