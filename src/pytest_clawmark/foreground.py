"""Foreground serving for the command line (``clawmark serve``, ``clawmark scripted-model``).

Both print one JSON object describing what they serve on stdout (machine-readable), talk to
humans on stderr, serve until SIGINT or SIGTERM, and always clean up.
"""

from __future__ import annotations

import json
import signal
import sys
import threading
from collections.abc import Callable
from typing import Any


def serve_until_signalled(
    label: str,
    description: dict[str, Any],
    what: str,
    cleanup: Callable[[], str],
    on_line: Callable[[str], None] | None = None,
) -> int:
    """Print ``description``, wait for SIGINT/SIGTERM, run ``cleanup`` (its return: a last word).

    With ``on_line``, each line typed on stdin is handed to it (e.g. ``check``), and the end of
    stdin (Ctrl-D, or a pipe that closes) stops too."""
    stop = threading.Event()
    for sig in (signal.SIGINT, signal.SIGTERM):
        signal.signal(sig, lambda *_: stop.set())

    def read_stdin() -> None:
        assert on_line is not None
        for line in sys.stdin:
            if stop.is_set():
                break
            try:
                on_line(line.strip())
            except Exception as exc:  # a command that fails says so and serving goes on
                print(f"{label}: {type(exc).__name__}: {exc}", file=sys.stderr, flush=True)
        stop.set()

    try:
        print(json.dumps(description, indent=2), flush=True)
        print(f"{label}: serving; Ctrl-C or SIGTERM stops {what}", file=sys.stderr, flush=True)
        if on_line is not None:
            threading.Thread(target=read_stdin, name=f"{label}-stdin", daemon=True).start()
        while not stop.wait(0.2):
            pass
    finally:
        last = cleanup()
        print(f"{label}: stopped{last}", file=sys.stderr, flush=True)
    return 0
