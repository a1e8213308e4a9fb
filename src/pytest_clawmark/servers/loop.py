"""A private asyncio event loop per world, running in a daemon thread.

Why: the embedded servers (SMTP, IMAP, the KB and Sheets ASGI apps) are asyncio programs.
Running all of one world's servers on one loop keeps start-up in the milliseconds (no
subprocesses, no interpreter start) and keeps worlds apart: each world has its own loop,
its own ports and its own state, so two worlds in one process never share anything.
Turn setup and checkers run in pytest's thread and reach the loop through :meth:`call`.
"""

from __future__ import annotations

import asyncio
import socket
import threading
from collections.abc import Awaitable, Callable
from typing import Any, TypeVar

T = TypeVar("T")


class WorldLoop:
    """An event loop in a daemon thread, with thread-safe entry points."""

    def __init__(self, name: str = "clawmark-world") -> None:
        self._loop = asyncio.new_event_loop()
        self._ready = threading.Event()
        self._thread = threading.Thread(target=self._run, name=name, daemon=True)
        self._thread.start()
        self._ready.wait()

    def _run(self) -> None:
        asyncio.set_event_loop(self._loop)
        self._loop.call_soon(self._ready.set)
        self._loop.run_forever()

    @property
    def loop(self) -> asyncio.AbstractEventLoop:
        return self._loop

    def call(self, fn: Callable[[], Awaitable[T]], timeout: float | None = 30.0) -> T:
        """Run the coroutine made by ``fn()`` on the world loop and wait for its result."""
        if threading.current_thread() is self._thread:
            raise RuntimeError("WorldLoop.call() from inside the world loop would deadlock")
        future = asyncio.run_coroutine_threadsafe(_invoke(fn), self._loop)
        return future.result(timeout)

    def call_sync(self, fn: Callable[..., T], *args: Any, timeout: float | None = 30.0) -> T:
        """Run a plain function on the loop thread (for state owned by the loop)."""

        async def wrapper() -> T:
            return fn(*args)

        return self.call(wrapper, timeout=timeout)

    def close(self) -> None:
        if not self._loop.is_running():
            return

        async def drain() -> None:
            tasks = [t for t in asyncio.all_tasks() if t is not asyncio.current_task()]
            for t in tasks:
                t.cancel()
            await asyncio.gather(*tasks, return_exceptions=True)

        try:
            asyncio.run_coroutine_threadsafe(drain(), self._loop).result(5)
        except Exception:  # pragma: no cover - best effort on teardown
            pass
        self._loop.call_soon_threadsafe(self._loop.stop)
        self._thread.join(5)
        if not self._loop.is_running():
            self._loop.close()


async def _invoke(fn: Callable[[], Awaitable[T]]) -> T:
    return await fn()


def bind_loopback(port: int = 0, host: str = "127.0.0.1") -> socket.socket:
    """A listening TCP socket on 127.0.0.1 with a kernel-chosen (ephemeral) port, or ``port``.

    ``host``: loopback for every embedded world; a service alone in a container
    (:mod:`..servers.standalone`) listens on all of the container's interfaces instead.

    Binding ourselves, instead of asking a server for port 0, lets us know the port before the
    server runs and guarantees two worlds never race for the same port.
    """
    # proto=IPPROTO_TCP matters: asyncio only sets TCP_NODELAY on accepted sockets whose proto is
    # IPPROTO_TCP, and accepted sockets inherit it from the listener. With proto 0, every small
    # response written in two pieces (headers, body) waits ~40 ms for a delayed ACK.
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM, socket.IPPROTO_TCP)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    sock.bind((host, port))
    sock.listen(128)
    sock.setblocking(False)
    return sock
