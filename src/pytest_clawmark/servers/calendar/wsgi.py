"""Serve a WSGI app (Radicale) on an ephemeral loopback port, one thread per connection.

Why this shape: Radicale is a synchronous WSGI application with its own storage locks, made to
run under a threading server (its built-in server is wsgiref + ThreadingMixIn too). We accept
connections on the world's event loop, which costs no extra thread and stops at once (no
``serve_forever`` poll interval to wait out), and hand each connection to a daemon thread
running wsgiref with Radicale's quiet request handler. Accepted sockets get TCP_NODELAY:
wsgiref writes headers and body separately, which otherwise stalls ~40 ms on delayed ACKs.
"""

from __future__ import annotations

import asyncio
import socket
import socketserver
from dataclasses import dataclass
from typing import Any
from wsgiref.simple_server import WSGIServer

from radicale.server import RequestHandler

from ...world.loop import bind_loopback

__all__ = ["ThreadedWsgiServer", "WsgiHandle", "start_wsgi"]

SOCKET_TIMEOUT = 30.0


class ThreadedWsgiServer(socketserver.ThreadingMixIn, WSGIServer):
    """wsgiref's server with a thread per connection, fed sockets by :func:`start_wsgi`."""

    daemon_threads = True
    block_on_close = False

    def __init__(self, app: Any, port: int) -> None:
        super().__init__(("127.0.0.1", port), RequestHandler, bind_and_activate=False)
        self.socket.close()  # never bound: the world's loop owns the listening socket
        self.server_name = "127.0.0.1"  # set by hand: server_bind() would call getfqdn()
        self.server_port = port
        self.setup_environ()
        self.set_app(app)


@dataclass
class WsgiHandle:
    server: ThreadedWsgiServer
    task: "asyncio.Task[None]"
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
    while True:
        conn, address = await loop.sock_accept(listener)
        conn.setblocking(True)
        conn.settimeout(SOCKET_TIMEOUT)
        conn.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        server.process_request(conn, address)  # ThreadingMixIn: handled in a new thread


async def start_wsgi(app: Any) -> WsgiHandle:
    """Start serving ``app``; call on the world's loop. Returns once the port accepts."""
    listener = bind_loopback()
    port = listener.getsockname()[1]
    server = ThreadedWsgiServer(app, port)
    task = asyncio.get_running_loop().create_task(_accept_loop(server, listener))
    return WsgiHandle(server, task, listener, port)
