"""Serve a WSGI app (Radicale) on an ephemeral loopback port, one thread per connection.

Why this shape: Radicale is a synchronous WSGI application with its own storage locks, made to
run under a threading server (its built-in server is wsgiref + ThreadingMixIn too). We accept
connections on the world's event loop, which costs no extra thread and stops at once (no
``serve_forever`` poll interval to wait out), and hand each connection to a daemon thread
running wsgiref with Radicale's quiet request handler. Accepted sockets get TCP_NODELAY:
wsgiref writes headers and body separately, which otherwise stalls ~40 ms on delayed ACKs.

Bounded (see :mod:`.limits`): at most ``MAX_CONNECTIONS`` connections are served at once (the
accept loop waits for a free slot, so further clients wait in the listen backlog, never on the
world's loop), and a connection that stays silent for ``IDLE_TIMEOUT_S`` is closed quietly —
with a 408 when it had started a request — instead of holding a thread forever.
"""

from __future__ import annotations

import asyncio
import socket
import socketserver
import time
from dataclasses import dataclass
from typing import Any
from wsgiref.simple_server import WSGIServer

from radicale.server import RequestHandler

from ..loop import bind_loopback
from . import limits

__all__ = ["ThreadedWsgiServer", "WsgiHandle", "start_wsgi"]

LINGER_S = 2.0
"""Longest a closing connection keeps draining what the client still sends."""
LINGER_QUIET_S = 0.05
"""A closing connection whose client sends nothing for this long is closed at once."""


class QuietRequestHandler(RequestHandler):
    """Radicale's handler, closing timed-out and reset connections without a traceback."""

    def handle(self) -> None:
        try:
            super().handle()
        except TimeoutError:
            # The request line or headers stalled; a body that stalls is the guard's (408).
            self.close_connection = True
        except (ConnectionError, OSError):
            self.close_connection = True


class ThreadedWsgiServer(socketserver.ThreadingMixIn, WSGIServer):
    """wsgiref's server with a thread per connection, fed sockets by :func:`start_wsgi`."""

    daemon_threads = True
    block_on_close = False

    def __init__(self, app: Any, port: int) -> None:
        super().__init__(("127.0.0.1", port), QuietRequestHandler, bind_and_activate=False)
        self.socket.close()  # never bound: the world's loop owns the listening socket
        self.server_name = "127.0.0.1"  # set by hand: server_bind() would call getfqdn()
        self.server_port = port
        self.setup_environ()
        self.set_app(app)
        self.on_finished: Any = None  # called (from the connection's thread) when it ends

    def process_request_thread(self, request: Any, client_address: Any) -> None:
        try:
            super().process_request_thread(request, client_address)
        finally:
            if self.on_finished is not None:
                self.on_finished()

    def handle_error(self, request: Any, client_address: Any) -> None:
        """A connection's failure concerns that connection only: no traceback on stderr."""

    def shutdown_request(self, request: Any) -> None:
        """Close *lingering*: send FIN, then read and drop what the client still sends.

        A request refused before its body was read (413) leaves that body in flight; closing at
        once would make the kernel answer it with a reset, and a client still sending never reads
        the 413. As nginx's ``lingering_close``: drain until the client closes, goes quiet for
        :data:`LINGER_QUIET_S`, or :data:`LINGER_S` have passed.
        """
        try:
            request.shutdown(socket.SHUT_WR)
            deadline = time.monotonic() + LINGER_S
            request.settimeout(LINGER_QUIET_S)
            while time.monotonic() < deadline and request.recv(65536):
                pass
        except OSError:
            pass
        self.close_request(request)


@dataclass
class WsgiHandle:
    server: ThreadedWsgiServer
    task: asyncio.Task[None]
    listener: socket.socket
    port: int

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    async def close(self) -> None:
        self.task.cancel()
        try:
            await self.task
        except asyncio.CancelledError:
            pass
        self.listener.close()


async def _accept_loop(server: ThreadedWsgiServer, listener: socket.socket) -> None:
    loop = asyncio.get_running_loop()
    slots = asyncio.Semaphore(limits.MAX_CONNECTIONS)

    def release() -> None:
        try:
            loop.call_soon_threadsafe(slots.release)
        except RuntimeError:  # the world's loop is already closed
            pass

    server.on_finished = release
    while True:
        await slots.acquire()
        try:
            conn, address = await loop.sock_accept(listener)
        except BaseException:
            slots.release()
            raise
        conn.setblocking(True)
        conn.settimeout(limits.IDLE_TIMEOUT_S)
        conn.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        server.process_request(conn, address)  # ThreadingMixIn: handled in a new thread


async def start_wsgi(app: Any, host: str = "127.0.0.1", port: int = 0) -> WsgiHandle:
    """Start serving ``app``; call on the world's loop. Returns once the port accepts."""
    listener = bind_loopback(port, host)
    port = listener.getsockname()[1]
    server = ThreadedWsgiServer(app, port)
    task = asyncio.get_running_loop().create_task(_accept_loop(server, listener))
    return WsgiHandle(server, task, listener, port)
