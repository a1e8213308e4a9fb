"""Process helpers shared by the adapters that run an agent as a child process.

Why a process group: agent CLIs spawn shells, interpreters and helpers of their own; killing
only the leader on a time-limit overrun would leave those running against the world (and
holding its ports and files) after the day is over.

Why also an environment marker: some CLIs (OpenClaw among them) start their runtime and their
tool supervisors in process groups of their own, so a group kill misses them. Every process of
one agent run inherits a marker variable; :func:`kill_marked` finds them (and any descendant
that dropped its environment) through ``/proc``, wherever they went.
"""

from __future__ import annotations

import os
import signal
import subprocess
import time
from pathlib import Path

TAIL_BYTES = 4000


def kill_group(proc: subprocess.Popen[bytes]) -> None:
    """SIGTERM the process group of ``proc`` (started with ``start_new_session=True``), then
    SIGKILL whatever is left; returns once the leader is reaped."""
    for sig, wait in ((signal.SIGTERM, 2.0), (signal.SIGKILL, 5.0)):
        try:
            os.killpg(proc.pid, sig)
        except ProcessLookupError:
            return
        try:
            proc.wait(wait)
            # children may outlive the leader; make sure the group is gone
            os.killpg(proc.pid, signal.SIGKILL)
        except ProcessLookupError:
            return
        except subprocess.TimeoutExpired:
            continue


def marked_processes(key: str, value: str) -> list[int]:
    """Live processes whose environment holds ``key=value``, plus their descendants (Linux
    ``/proc``; an empty list where there is none)."""
    needle = f"{key}={value}".encode()
    parents: dict[int, int] = {}
    marked: set[int] = set()
    try:
        entries = [e.name for e in os.scandir("/proc") if e.name.isdigit()]
    except OSError:
        return []
    for name in entries:
        pid = int(name)
        try:
            with open(f"/proc/{pid}/stat", "rb") as f:
                stat = f.read()
            fields = stat[stat.rindex(b")") + 2 :].split()
            if fields[0] == b"Z":  # a zombie: nothing left to kill
                continue
            parents[pid] = int(fields[1])
            with open(f"/proc/{pid}/environ", "rb") as f:
                if needle in f.read().split(b"\0"):
                    marked.add(pid)
        except (OSError, ValueError, IndexError):
            continue
    grew = True
    while grew:
        grew = False
        for pid, ppid in parents.items():
            if ppid in marked and pid not in marked:
                marked.add(pid)
                grew = True
    marked.discard(os.getpid())
    return sorted(marked)


def kill_marked(key: str, value: str, grace: float = 2.0) -> int:
    """SIGTERM every process marked with ``key=value``, SIGKILL what is left after ``grace``
    seconds; returns how many were found."""
    found = marked_processes(key, value)
    for sig in (signal.SIGTERM, signal.SIGKILL):
        for pid in found:
            try:
                os.kill(pid, sig)
            except (ProcessLookupError, PermissionError):
                pass
        deadline = time.monotonic() + (grace if sig == signal.SIGTERM else 5.0)
        while time.monotonic() < deadline and marked_processes(key, value):
            time.sleep(0.05)
        if not marked_processes(key, value):
            break
    return len(found)


def tail(path: Path, limit: int = TAIL_BYTES) -> str:
    """The last ``limit`` bytes of a file as text ('' if it does not exist)."""
    try:
        data = path.read_bytes()[-limit:]
    except FileNotFoundError:
        return ""
    return data.decode("utf-8", errors="replace")
