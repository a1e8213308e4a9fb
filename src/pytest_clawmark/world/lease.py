"""World folders on loan: who owns one, and sweeping those whose owner is provably gone.

Why: a world's folder holds the agent's workspace and the services' state, credentials
included (Radicale's htpasswd is plaintext). The harness removes it when the trial ends, on
errors and on Ctrl-C/SIGTERM too; only a ``kill -9`` (or a power cut) leaves one behind. Each
folder therefore carries an owner file naming the process that made it and that process's
start time; a later run removes folders whose owner is dead — or whose PID now belongs to
another process (a different start time) — and leaves alone anything it cannot prove dead
(no owner file yet, another machine, an unreadable file).
"""

from __future__ import annotations

import json
import os
import shutil
import socket
import tempfile
from pathlib import Path

PREFIX = "clawmark-"
OWNER_FILE = ".clawmark-owner.json"


def _start_time(pid: int) -> str | None:
    """The process's start time in clock ticks since boot (/proc/PID/stat field 22), or None."""
    try:
        stat = Path(f"/proc/{pid}/stat").read_bytes()
    except OSError:
        return None
    fields = stat[stat.rindex(b")") + 2 :].split()
    try:
        return fields[19].decode()
    except IndexError:  # pragma: no cover
        return None


def make_world_dir(label: str) -> Path:
    """A new private folder for a world, claimed by this process."""
    root = Path(tempfile.mkdtemp(prefix=f"{PREFIX}{label}-"))
    owner = {"pid": os.getpid(), "start": _start_time(os.getpid()), "host": socket.gethostname()}
    (root / OWNER_FILE).write_text(json.dumps(owner), encoding="utf-8")
    return root


def is_dead(folder: Path) -> bool:
    """True only when the folder's owner is provably gone."""
    try:
        owner = json.loads((folder / OWNER_FILE).read_text(encoding="utf-8"))
        pid, start, host = int(owner["pid"]), owner.get("start"), owner.get("host")
    except (OSError, ValueError, KeyError, TypeError):
        return False
    if host != socket.gethostname() or start is None:
        return False
    now = _start_time(pid)
    return now is None or now != str(start)


def sweep(tmpdir: Path | None = None) -> list[Path]:
    """Remove world folders in ``tmpdir`` whose owners are dead; returns what was removed."""
    base = Path(tmpdir or tempfile.gettempdir())
    removed = []
    try:
        candidates = sorted(p for p in base.glob(PREFIX + "*") if p.is_dir() and not p.is_symlink())
    except OSError:
        return removed
    for folder in candidates:
        if is_dead(folder):
            shutil.rmtree(folder, ignore_errors=True)
            removed.append(folder)
    return removed
