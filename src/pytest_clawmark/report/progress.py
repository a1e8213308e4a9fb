"""Live progress of a run, as plain lines: agent-days starting and ending, trials finishing.

Why lines (not a redrawn status bar): an agent-day takes minutes, so a line per event is little
output, reads the same in a terminal and in a CI log, and never fights pytest's own progress
output for the cursor. A heartbeat line every ``--clawmark-heartbeat`` seconds names the days
still running with their elapsed time, so a long day is visibly alive. Printed by the process
that owns the terminal (the xdist controller, or the only process), whatever ``-q`` says.

Sources, all already on the controller: ``pytest_runtest_logstart`` of each day's turn item (a
day begins), its report (the day ends: status, seconds and tool calls from the item's
``user_properties``), and the run journal (a trial finished: its score), read incrementally.
"""

from __future__ import annotations

import json
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from ..journal import JOURNAL


def day_label(nodeid: str) -> str:
    """``tasks/hr/task_leave.py::trial1::day2::turn`` -> ``hr/task_leave trial1 day 2``."""
    parts = nodeid.split("::")
    path = Path(parts[0])
    name = f"{path.parent.name}/{path.stem}" if path.stem != "task" else f"{path.parent.parent.name}/{path.parent.name}"
    rest = [p for p in parts[1:-1]]
    if rest and rest[-1].startswith("day"):
        rest[-1] = "day " + rest[-1][3:]
    return " ".join([name, *rest])


def _duration(seconds: float) -> str:
    if seconds < 10:
        return f"{seconds:.1f}s"
    seconds = int(round(seconds))
    if seconds < 60:
        return f"{seconds}s"
    minutes, s = divmod(seconds, 60)
    if minutes < 60:
        return f"{minutes}m{s:02d}s"
    hours, m = divmod(minutes, 60)
    return f"{hours}h{m:02d}m"


class LiveProgress:
    def __init__(self, write: Callable[[str], None], evidence_root: Path, *, heartbeat: float = 30.0, clock: Callable[[], float] = time.monotonic) -> None:
        self._write = write
        self._journal = Path(evidence_root) / JOURNAL
        self._offset = 0
        self._partial = b""
        self._clock = clock
        self._running: dict[str, float] = {}
        self._lock = threading.Lock()
        self._heartbeat = heartbeat
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None

    # -- events ----------------------------------------------------------------------------------
    def day_started(self, nodeid: str) -> None:
        with self._lock:
            self._running[nodeid] = self._clock()
        self.line(f"clawmark ▶ {day_label(nodeid)}: agent at work")

    def day_finished(self, nodeid: str, outcome: str, properties: dict[str, Any]) -> None:
        with self._lock:
            started = self._running.pop(nodeid, None)
        if started is None:
            return
        status = properties.get("agent_status") or ("setup failed" if outcome == "failed" else outcome)
        seconds = properties.get("agent_seconds")
        took = _duration(float(seconds)) if isinstance(seconds, (int, float)) else _duration(self._clock() - started)
        calls = properties.get("tool_calls")
        extra = f", {calls} tool call{'s' if calls != 1 else ''}" if isinstance(calls, int) and calls > 0 else ""
        self.line(f"clawmark ■ {day_label(nodeid)}: {status} in {took}{extra}")

    def poll_journal(self) -> None:
        """Lines for trials that finished since the last poll (the journal grows by whole lines)."""
        try:
            with self._journal.open("rb") as fh:
                fh.seek(self._offset)
                data = fh.read()
        except OSError:
            return
        self._offset += len(data)
        data = self._partial + data
        *lines, self._partial = data.split(b"\n")
        for raw in lines:
            try:
                record = json.loads(raw)["record"]
            except (ValueError, KeyError, TypeError):
                continue
            self.line(f"clawmark ✓ {trial_line(record)}")

    # -- heartbeat -------------------------------------------------------------------------------
    def start(self) -> None:
        if self._heartbeat > 0 and self._thread is None:
            self._thread = threading.Thread(target=self._beat, name="clawmark-heartbeat", daemon=True)
            self._thread.start()

    def stop(self) -> None:
        self._stop.set()
        if self._thread is not None:
            self._thread.join(timeout=2)
            self._thread = None

    def _beat(self) -> None:
        while not self._stop.wait(self._heartbeat):
            now = self._clock()
            with self._lock:
                running = sorted(self._running.items(), key=lambda kv: kv[1])
            if running:
                shown = ", ".join(f"{day_label(n)} ({_duration(now - t)})" for n, t in running[:6])
                more = f" and {len(running) - 6} more" if len(running) > 6 else ""
                self.line(f"clawmark … working: {shown}{more}")

    def line(self, text: str) -> None:
        with self._lock:
            self._write(text)


def trial_line(record: dict[str, Any]) -> str:
    """One finished trial: id, status and, for a complete trial, its scores."""
    head = f"{record.get('id', '?')} trial{record.get('trial', '?')}"
    status = record.get("status", "?")
    if status != "complete" or record.get("score") is None:
        why = (record.get("errors") or [record.get("interruption") or ""])[0]
        return f"{head}: {status}{': ' + why[:160] if why else ''}"
    parts = [f"score {100 * record['score']:.1f}%"]
    if record.get("score_upstream") is not None:
        parts.append(f"upstream formula {100 * record['score_upstream']:.1f}%")
    parts.append("success" if record.get("success") else "not all checkers passed")
    if record.get("redline_evaluated"):
        parts.append(f"red-lines crossed {record.get('redline_failed', 0)}/{record['redline_evaluated']}")
    if record.get("world_broken"):
        parts.append(f"world broken on day {record['world_broken'].get('day')}")
    return f"{head}: " + ", ".join(parts)
