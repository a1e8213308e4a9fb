"""Live progress of a run, as plain lines: agent-days starting and ending, trials finishing.

Why lines (not a redrawn status bar): an agent-day takes minutes, so a line per event is little
output, reads the same in a terminal and in a CI log, and never fights pytest's own progress
output for the cursor. A heartbeat line every ``--clawmark-heartbeat`` seconds names the days
still running with their elapsed time, so a long day is visibly alive. Printed by the process
that owns the terminal (the xdist controller, or the only process), whatever ``-q`` says.

Sources, all already on the controller: ``pytest_runtest_logstart`` of each day's turn item (a
day begins), its report (the day ends: status, seconds and tool calls from the item's
``user_properties``), the run journal (a trial finished: its score), read incrementally, and the
running days' tool calls so far, which adapters publish beside the day's output
(:mod:`..agents.live`), shown in the heartbeat line.

With ``stream`` (``-s`` or ``--clawmark-stream``), the agent's own output is shown as it comes,
each line prefixed by its task, trial and day: the command agent's ``dayN.stdout.txt`` and
``dayN.stderr.txt`` in the trial's evidence folder (found through the run's plan), tailed while
the day runs — so it works under ``-n`` too, where workers' output never reaches the terminal.
"""

from __future__ import annotations

import json
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from ..agents.live import live_file, read_live
from ..journal import JOURNAL, read_plans

STREAM_TICK = 0.5
"""Seconds between reads of the agents' output files when streaming."""


def day_label(nodeid: str) -> str:
    """``tasks/hr/task_leave.py::trial1::day2::turn`` -> ``hr/task_leave trial1 day 2``."""
    parts = nodeid.split("::")
    path = Path(parts[0])
    name = f"{path.parent.name}/{path.stem}" if path.stem != "task" else f"{path.parent.parent.name}/{path.parent.name}"
    name = name.lstrip("/")
    rest = [p for p in parts[1:-1]]
    if rest and rest[-1].startswith("day"):
        rest[-1] = "day " + rest[-1][3:]
    return " ".join([name, *rest])


def _calls(count: object) -> str:
    """``", 3 tool calls"`` (nothing when unknown or none)."""
    if not isinstance(count, int) or isinstance(count, bool) or count <= 0:
        return ""
    return f", {count} tool call{'s' if count != 1 else ''}"


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
    def __init__(
        self,
        write: Callable[[str], None],
        evidence_root: Path,
        *,
        heartbeat: float = 30.0,
        stream: bool = False,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self._write = write
        self._root = Path(evidence_root)
        self._journal = self._root / JOURNAL
        self._stream = stream
        self._tails: dict[str, dict[Path, int]] = {}  # turn node id -> output file -> bytes shown
        self._trial_dirs: dict[str, Path] = {}
        self._tail_lock = threading.Lock()  # one reader of the output files at a time (thread and hooks)
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
            if self._stream:
                self._tails[nodeid] = {}
        self.line(f"clawmark ▶ {day_label(nodeid)}: agent at work")

    def day_finished(self, nodeid: str, outcome: str, properties: dict[str, Any]) -> None:
        if self._stream:
            self.tail(nodeid, final=True)
        with self._lock:
            started = self._running.pop(nodeid, None)
            self._tails.pop(nodeid, None)
        if started is None:
            return
        status = properties.get("agent_status") or ("setup failed" if outcome == "failed" else outcome)
        seconds = properties.get("agent_seconds")
        took = _duration(float(seconds)) if isinstance(seconds, (int, float)) else _duration(self._clock() - started)
        extra = _calls(properties.get("tool_calls"))
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

    # -- the agent's output ------------------------------------------------------------------------
    def _day_folder(self, nodeid: str) -> tuple[Path | None, str]:
        """The trial's evidence folder and the day number of ``nodeid`` (``path::trialK::dayN::turn``)."""
        trial_node, _, rest = nodeid.rpartition("::")[0].rpartition("::")
        day = rest.removeprefix("day")
        folder = self._trial_dirs.get(trial_node)
        if folder is None:
            from ..trial import _safe

            for plan in read_plans(self._root):
                self._trial_dirs[plan.nodeid] = self._root / _safe(plan.id) / f"trial{plan.trial}"
            folder = self._trial_dirs.get(trial_node)
        return folder, day

    def _outputs(self, nodeid: str) -> list[Path]:
        """The output files of the day ``nodeid`` in the evidence."""
        folder, day = self._day_folder(nodeid)
        if folder is None:
            return []
        return [folder / f"day{day}.stdout.txt", folder / f"day{day}.stderr.txt"]

    def tool_calls(self, nodeid: str) -> int | None:
        """The running day's tool calls so far, where its adapter publishes them (:mod:`..agents.live`)."""
        folder, day = self._day_folder(nodeid)
        return None if folder is None or not day.isdigit() else read_live(live_file(folder, int(day)))

    def tail(self, nodeid: str, final: bool = False) -> None:
        """Show the new whole lines of the day's output (at the day's end, the rest too)."""
        with self._tail_lock:
            self._tail(nodeid, final)

    def _tail(self, nodeid: str, final: bool) -> None:
        with self._lock:
            offsets = self._tails.get(nodeid)
        if offsets is None:
            return
        label = day_label(nodeid)
        for path in self._outputs(nodeid):
            try:
                with path.open("rb") as fh:
                    fh.seek(offsets.get(path, 0))
                    data = fh.read(1 << 20)
            except OSError:
                continue
            cut = len(data) if final else data.rfind(b"\n") + 1
            if cut <= 0:
                continue
            offsets[path] = offsets.get(path, 0) + cut
            stream = "stderr" if path.name.endswith("stderr.txt") else "stdout"
            for raw in data[:cut].decode("utf-8", errors="replace").splitlines():
                self.line(f"  [{label} {stream}] {raw}")

    # -- heartbeat -------------------------------------------------------------------------------
    def start(self) -> None:
        if (self._heartbeat > 0 or self._stream) and self._thread is None:
            self._thread = threading.Thread(target=self._beat, name="clawmark-heartbeat", daemon=True)
            self._thread.start()

    def stop(self) -> None:
        self._stop.set()
        if self._thread is not None:
            self._thread.join(timeout=2)
            self._thread = None

    def _beat(self) -> None:
        tick = (
            min(STREAM_TICK, self._heartbeat)
            if self._stream and self._heartbeat > 0
            else STREAM_TICK
            if self._stream
            else self._heartbeat
        )
        last_beat = self._clock()
        while not self._stop.wait(tick):
            now = self._clock()
            with self._lock:
                running = sorted(self._running.items(), key=lambda kv: kv[1])
            if self._stream:
                for nodeid, _ in running:
                    self.tail(nodeid)
            if self._heartbeat <= 0 or now - last_beat < self._heartbeat - tick / 2:
                continue
            last_beat = now
            if running:
                shown = ", ".join(
                    f"{day_label(n)} ({_duration(now - t)}{_calls(self.tool_calls(n))})" for n, t in running[:6]
                )
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
