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


def serve_until_signalled(label: str, description: dict[str, Any], what: str, cleanup: Callable[[], str]) -> int:
    """Print ``description``, wait for SIGINT/SIGTERM, run ``cleanup`` (its return: a last word)."""
    stop = threading.Event()
    for sig in (signal.SIGINT, signal.SIGTERM):
        signal.signal(sig, lambda *_: stop.set())
    try:
        print(json.dumps(description, indent=2), flush=True)
        print(f"{label}: serving; Ctrl-C or SIGTERM stops {what}", file=sys.stderr, flush=True)
        while not stop.wait(0.5):
            pass
    finally:
        last = cleanup()
        print(f"{label}: stopped{last}", file=sys.stderr, flush=True)
    return 0
