"""Run the scripted model on loopback: in-process (tests, the openclaw adapter) or as a command.

Why the world's own helpers: a private event loop in a daemon thread and uvicorn on an
ephemeral loopback port start in milliseconds and never clash between parallel workers.
"""

from __future__ import annotations

import sys
from pathlib import Path
from types import TracebackType
from typing import Any

from ...foreground import serve_until_signalled
from ...servers.asgi import StandaloneAsgi
from .app import RequestLog, create_app
from .script import Script, ScriptError, load_script


class ScriptedModelServer:
    """A started scripted model; ``base_url`` is what OpenAI/Anthropic clients are given."""

    def __init__(
        self,
        script: Script | str | Path,
        *,
        port: int = 0,
        record: str | Path | None = None,
        api_key: str | None = None,
        host: str = "127.0.0.1",
    ) -> None:
        """``host``: where it listens — loopback, or (an agent in a container) the host's address
        on the world's private network, which only that network's containers reach."""
        self.script = script if isinstance(script, Script) else load_script(script)
        self.log = RequestLog(Path(record) if record else None)
        self._server = StandaloneAsgi(
            create_app(self.script, self.log, api_key=api_key), name="clawmark-scripted-model", host=host, port=port
        )

    def start(self) -> ScriptedModelServer:
        self._server.start()
        return self

    @property
    def url(self) -> str:
        """``http://HOST:PORT`` (without ``/v1``)."""
        return self._server.url

    @property
    def base_url(self) -> str:
        """``http://127.0.0.1:PORT/v1``: the usual OpenAI/Anthropic ``base_url``."""
        return self.url + "/v1"

    @property
    def requests(self) -> list[dict[str, Any]]:
        return list(self.log.entries)

    def stop(self) -> None:
        self._server.stop()

    def __enter__(self) -> ScriptedModelServer:
        return self.start()

    def __exit__(
        self, exc_type: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None:
        self.stop()


def serve_forever(script_path: str, port: int = 0, record: str | None = None, api_key: str | None = None) -> int:
    """``clawmark scripted-model``: print the endpoint as JSON, serve until SIGINT/SIGTERM."""
    try:
        server = ScriptedModelServer(script_path, port=port, record=record, api_key=api_key).start()
    except (ScriptError, OSError) as exc:
        print(f"clawmark scripted-model: {exc}", file=sys.stderr)
        return 2
    info = {
        "url": server.url,
        "base_url": server.base_url,
        "model": server.script.model,
        "script": script_path,
        "record": record,
    }

    def cleanup() -> str:
        server.stop()
        return f" after {len(server.log.entries)} requests"

    return serve_until_signalled("clawmark scripted-model", info, "it", cleanup)
