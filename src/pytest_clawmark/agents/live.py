"""Tool calls so far, while the agent works: a count the live progress display can show.

Why a file: under ``-n`` the adapter runs in a worker and the progress display in the controller,
and both already share the evidence folder. While a day runs, a small thread of the adapter asks
its counter every :data:`TICK` seconds and, when the number changed, rewrites
``dayN.live.json`` (``{"tool_calls": n}``) beside the day's output, atomically; the display reads
it for its heartbeat line. The exact count is still the one of the day's trace, read after the
day; this one is "so far", and only where the adapter can know it (a process agent's trace lines,
OpenClaw's session store).

The sources are the agent's own files, so the counters distrust them like the trace reader does:
no symlinks, regular files only, a bounded read per tick, never an exception out of a tick.
"""

from __future__ import annotations

import contextlib
import json
import os
import sqlite3
import threading
from collections.abc import Callable, Iterator
from pathlib import Path

from ..world.untrusted_fs import open_regular

TICK = 1.0
"""Seconds between two looks at the agent's files."""

READ_PER_TICK = 1 << 20
"""Bytes of a trace file read per tick (a flood is counted over several ticks, never at once)."""


def live_file(evidence_dir: Path, day: int) -> Path:
    """Where the count of day ``day`` is published."""
    return evidence_dir / f"day{day}.live.json"


def read_live(path: Path) -> int | None:
    """The published count, or None (no file yet, or not a count)."""
    try:
        with path.open("rb") as fh:
            value = json.loads(fh.read(4096)).get("tool_calls")
    except (OSError, ValueError, AttributeError):
        return None
    return value if isinstance(value, int) and not isinstance(value, bool) and value >= 0 else None


@contextlib.contextmanager
def publishing(path: Path, count: Callable[[], int | None], tick: float = TICK) -> Iterator[None]:
    """Publish ``count()`` to ``path`` while the body runs (and once more at its end)."""
    stop = threading.Event()
    shown: list[int | None] = [None]

    def publish() -> None:
        try:
            value = count()
        except Exception:  # a counter never breaks a day: no number is shown instead
            return
        if value is None or value == shown[0]:
            return
        shown[0] = value
        tmp = path.with_name(path.name + ".tmp")
        with contextlib.suppress(OSError):
            tmp.write_text(json.dumps({"tool_calls": value}), encoding="utf-8")
            os.replace(tmp, path)

    def loop() -> None:
        while not stop.wait(tick):
            publish()

    thread = threading.Thread(target=loop, name="clawmark-live-count", daemon=True)
    thread.start()
    try:
        yield
    finally:
        stop.set()
        thread.join(timeout=2 * tick + 1)  # a counter stuck in the agent's file is abandoned, not awaited
        if not thread.is_alive():
            publish()


def _open_regular(path: Path) -> int | None:
    """A descriptor of ``path`` if it is a regular file reached without a link, else None."""
    try:
        return open_regular(path)
    except OSError:  # missing, a link, a FIFO, a folder (UnsafePath is an OSError)
        return None


class TraceCounter:
    """Counts the ``tool_call`` lines of a process agent's trace file, incrementally."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self.count = 0
        self._offset = 0
        self._partial = b""

    def __call__(self) -> int:
        fd = _open_regular(self.path)
        if fd is None:
            return self.count
        try:
            os.lseek(fd, self._offset, os.SEEK_SET)
            data = os.read(fd, READ_PER_TICK)
        finally:
            os.close(fd)
        self._offset += len(data)
        *lines, self._partial = (self._partial + data).split(b"\n")
        if len(self._partial) > READ_PER_TICK:  # one endless line: not a trace line, dropped
            self._partial = b""
        for raw in lines:
            if b"tool_call" not in raw:
                continue
            try:
                event = json.loads(raw)
            except ValueError:
                continue
            if (
                isinstance(event, dict)
                and event.get("type") == "tool_call"
                and isinstance(event.get("name"), str)
                and event["name"]
            ):
                self.count += 1
        return self.count


class SessionStoreCounter:
    """Counts the tool calls of an OpenClaw session in its SQLite store, incrementally.

    The store is the agent's (it can write its own state folder), so it is opened read-only, only
    when it is a regular file, with a short lock timeout; events stored compressed are not looked
    into (the count is "at least"; the day's trace has the exact one).
    """

    ROWS_PER_TICK = 2000

    def __init__(self, state_dir: Path, session_id: str) -> None:
        self.state_dir = state_dir
        self.session_id = session_id
        self.count = 0
        self._seq = -1

    def __call__(self) -> int:
        db_path = self.state_dir / "agents" / "main" / "agent" / "openclaw-agent.sqlite"
        fd = _open_regular(db_path)
        if fd is None:
            return self.count
        os.close(fd)
        try:
            db = sqlite3.connect(f"file:{db_path}?mode=ro", uri=True, timeout=0.2)
        except sqlite3.Error:
            return self.count
        try:
            rows = db.execute(
                "SELECT seq, event_json FROM transcript_events WHERE session_id = ? AND seq > ? ORDER BY seq LIMIT ?",
                (self.session_id, self._seq, self.ROWS_PER_TICK),
            ).fetchall()
        except sqlite3.Error:
            return self.count
        finally:
            db.close()
        for seq, text in rows:
            self._seq = max(self._seq, int(seq)) if isinstance(seq, int) else self._seq
            self.count += _tool_calls_in(text)
        return self.count


def _tool_calls_in(text: object) -> int:
    if not isinstance(text, str) or '"toolCall"' not in text:
        return 0
    try:
        event = json.loads(text)
    except ValueError:
        return 0
    message = event.get("message") if isinstance(event, dict) and event.get("type") == "message" else None
    if (
        not isinstance(message, dict)
        or message.get("role") != "assistant"
        or not isinstance(message.get("content"), list)
    ):
        return 0
    return sum(1 for block in message["content"] if isinstance(block, dict) and block.get("type") == "toolCall")
