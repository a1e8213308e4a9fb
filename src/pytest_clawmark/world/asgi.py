"""Serve an ASGI app on a world's loop, on an ephemeral loopback port.

Why uvicorn in-process: a well-kept HTTP/1.1 server, started in milliseconds on the world's own
event loop; asyncio sets TCP_NODELAY on its TCP connections, which avoids the 40 ms
delayed-ACK stalls that small request/response pairs otherwise hit (DESIGN.md §5).
"""

from __future__ import annotations

import asyncio
from dataclasses import dataclass
from typing import Any

import uvicorn

from .loop import WorldLoop, bind_loopback


@dataclass
class AsgiServer:
    server: uvicorn.Server
    task: "asyncio.Task[None]"
    port: int

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"


async def _start(app: Any, port: int = 0) -> AsgiServer:
    sock = bind_loopback(port)
    config = uvicorn.Config(
        app,
        lifespan="off",
        log_level="warning",
        access_log=False,
        ws="none",
        h11_max_incomplete_event_size=64 * 1024,
        timeout_graceful_shutdown=1,
    )
    server = uvicorn.Server(config)
    task = asyncio.get_running_loop().create_task(server.serve(sockets=[sock]))
    while not server.started:
        if task.done():
            task.result()  # re-raise the start-up failure
            raise RuntimeError("ASGI server stopped during start-up")
        await asyncio.sleep(0.001)
    return AsgiServer(server, task, sock.getsockname()[1])


def start_asgi(loop: WorldLoop, app: Any, port: int = 0) -> AsgiServer:
    """Start ``app`` on ``loop`` (an ephemeral port unless ``port``); returns once it accepts connections."""
    return loop.call(lambda: _start(app, port))


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
            except asyncio.TimeoutError:  # pragma: no cover - a stuck client; the loop closes anyway
                pass

    loop.call(_stop)
