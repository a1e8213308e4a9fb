"""Control groups for agent runs: a hard cap on processes and memory, and a kill that misses nothing.

Why cgroups: rlimits are per process (a memory limit per process is no limit for 500 processes),
and ``RLIMIT_NPROC`` counts every process of the user and does not bind root at all. A ``pids``
and a ``memory`` cgroup hold every process of one agent run together, whatever session, process
group or environment it gives itself: after the turn the harness lists and kills all of them —
a double-forked daemon that called ``setsid()`` and cleared its environment included.

Where: a new child of the harness's own cgroup in each hierarchy (cgroup v1 ``pids`` and
``memory``, or the v2 unified tree where those controllers are enabled for children), so whatever
limits the machine puts on the harness still hold for its agents. Only where this process may
create cgroups (root, or a delegated subtree); otherwise :func:`create` says why in one line per
controller, and :mod:`.confinement` falls back to rlimits.
"""

from __future__ import annotations

import errno
import os
import re
import secrets
import signal
import time
from dataclasses import dataclass, field
from pathlib import Path

CONTROLLERS = ("pids", "memory")
PREFIX = "clawmark-"


@dataclass
class AgentCgroup:
    """The cgroup folders of one agent run, by controller (v1: one per hierarchy; v2: one folder)."""

    folders: dict[str, Path]
    versions: dict[str, int]
    _procs_fds: list[int] = field(default_factory=list, repr=False)

    @property
    def controllers(self) -> set[str]:
        return set(self.folders)

    def _distinct(self) -> list[Path]:
        return list(dict.fromkeys(self.folders.values()))

    def open_attach(self) -> list[int]:
        """Descriptors of the ``cgroup.procs`` files, opened now (in the harness) so that the
        child only has to write ``0`` to each between fork and exec (see :mod:`.confinement`)."""
        self.close_attach()
        self._procs_fds = [os.open(folder / "cgroup.procs", os.O_WRONLY | os.O_CLOEXEC) for folder in self._distinct()]
        return list(self._procs_fds)

    def close_attach(self) -> None:
        for fd in self._procs_fds:
            try:
                os.close(fd)
            except OSError:
                pass
        self._procs_fds = []

    def pids(self) -> set[int]:
        """Every process still in the group (any of its folders)."""
        found: set[int] = set()
        for folder in self._distinct():
            try:
                found |= {int(p) for p in (folder / "cgroup.procs").read_text().split()}
            except (OSError, ValueError):
                continue
        found.discard(os.getpid())
        return found

    def kill_all(self, timeout: float = 5.0) -> set[int]:
        """SIGKILL every process in the group until it is empty (or ``timeout``); the processes
        found. A fork bomb cannot outrun it: the pids limit caps what it can make meanwhile."""
        seen: set[int] = set()
        deadline = time.monotonic() + timeout
        while True:
            alive = self.pids()
            if not alive:
                return seen
            seen |= alive
            for pid in alive:
                try:
                    os.kill(pid, signal.SIGKILL)
                except (ProcessLookupError, PermissionError):
                    pass
            if time.monotonic() > deadline:
                return seen
            time.sleep(0.01)

    def usage(self) -> dict[str, int]:
        """What the run took and how often it hit a limit: ``processes_peak``,
        ``processes_refused`` (forks refused at the limit), ``memory_peak``, ``oom_kills``
        (only the counters this kernel offers)."""
        out: dict[str, int] = {}
        pids, memory = self.folders.get("pids"), self.folders.get("memory")
        if pids is not None:
            _put(out, "processes_peak", _read_int(pids / "pids.peak"))
            _put(out, "processes_refused", _keyed(pids / "pids.events", "max"))
        if memory is not None:
            if self.versions["memory"] == 1:
                _put(out, "memory_peak", _read_int(memory / "memory.max_usage_in_bytes"))
                _put(out, "oom_kills", _keyed(memory / "memory.oom_control", "oom_kill"))
            else:
                _put(out, "memory_peak", _read_int(memory / "memory.peak"))
                _put(out, "oom_kills", _keyed(memory / "memory.events", "oom_kill"))
        return out

    def remove(self, timeout: float = 2.0) -> bool:
        """Remove the (emptied) folders; False when one is still busy after ``timeout``
        (an empty group left behind is harmless and removed by a later :func:`create`)."""
        self.close_attach()
        deadline = time.monotonic() + timeout
        ok = True
        for folder in reversed(self._distinct()):
            while True:
                try:
                    folder.rmdir()
                    break
                except FileNotFoundError:
                    break
                except OSError as exc:
                    if exc.errno != errno.EBUSY or time.monotonic() > deadline:
                        ok = False
                        break
                    self.kill_all(timeout=0.2)
                    time.sleep(0.02)
        return ok


def create(label: str, *, processes: int | None, memory: int | None) -> tuple[AgentCgroup | None, list[str]]:
    """A new cgroup for one agent run with these limits (None: no limit, the group still
    serves the kill), or None; plus one note per controller that could not be used."""
    notes: list[str] = []
    places = _places()
    name = f"{PREFIX}{os.getpid()}-{re.sub(r'[^A-Za-z0-9_.-]+', '-', label)[:40]}-{secrets.token_hex(4)}"
    folders: dict[str, Path] = {}
    versions: dict[str, int] = {}
    made: list[Path] = []
    try:
        for controller in CONTROLLERS:
            place = places.get(controller)
            if place is None:
                notes.append(
                    f"{controller}: no {controller} cgroup controller is mounted where this process can use it"
                )
                continue
            base, version = place
            folder = base / name
            if folder not in made:
                try:
                    _sweep_stale(base)
                    folder.mkdir()
                    made.append(folder)
                except OSError as exc:
                    notes.append(f"{controller}: cannot create a cgroup under {base} ({exc.strerror or exc})")
                    continue
            try:
                _set_limit(folder, controller, version, processes if controller == "pids" else memory)
            except OSError as exc:
                notes.append(f"{controller}: cannot set the limit in {folder} ({exc.strerror or exc})")
                continue
            folders[controller], versions[controller] = folder, version
    except BaseException:
        for folder in made:
            _rmdir_quietly(folder)
        raise
    for folder in made:
        if folder not in folders.values():
            _rmdir_quietly(folder)
    return (AgentCgroup(folders, versions) if folders else None), notes


def _set_limit(folder: Path, controller: str, version: int, value: int | None) -> None:
    if controller == "pids":
        limit = folder / "pids.max"
        if not limit.exists():
            raise OSError(errno.ENOENT, "the pids controller is not enabled for this cgroup")
        limit.write_text("max" if value is None else str(value))
        return
    if version == 1:
        limit = folder / "memory.limit_in_bytes"
        limit.write_text("-1" if value is None else str(value))
        swap = folder / "memory.memsw.limit_in_bytes"  # RAM + swap: swap must not extend the limit
        if value is not None and swap.exists():
            try:
                swap.write_text(str(value))
            except OSError:
                pass
        return
    limit = folder / "memory.max"
    if not limit.exists():
        raise OSError(errno.ENOENT, "the memory controller is not enabled for this cgroup")
    limit.write_text("max" if value is None else str(value))
    swap = folder / "memory.swap.max"
    if value is not None and swap.exists():
        try:
            swap.write_text("0")
        except OSError:
            pass


def _places() -> dict[str, tuple[Path, int]]:
    """Per controller: the folder of this process's own cgroup that new groups go under, and
    the cgroup version (v1 hierarchies first; v2 where the controller is enabled for children)."""
    v1_mounts: dict[str, tuple[str, str]] = {}
    v2_mount: tuple[str, str] | None = None
    try:
        with open("/proc/self/mountinfo", encoding="utf-8", errors="replace") as fh:
            for line in fh:
                left, _, right = line.partition(" - ")
                lf, rf = left.split(), right.split()
                if len(lf) < 5 or len(rf) < 3:
                    continue
                root, mountpoint = _unescape(lf[3]), _unescape(lf[4])
                if rf[0] == "cgroup":
                    for opt in rf[2].split(","):
                        if opt in CONTROLLERS and opt not in v1_mounts:
                            v1_mounts[opt] = (root, mountpoint)
                elif rf[0] == "cgroup2" and v2_mount is None:
                    v2_mount = (root, mountpoint)
        own_v1: dict[str, str] = {}
        own_v2: str | None = None
        with open("/proc/self/cgroup", encoding="utf-8", errors="replace") as fh:
            for line in fh:
                hid, controllers, path = line.rstrip("\n").split(":", 2)
                if hid == "0" and controllers == "":
                    own_v2 = path
                for c in controllers.split(","):
                    own_v1[c] = path
    except (OSError, ValueError):
        return {}
    places: dict[str, tuple[Path, int]] = {}
    for controller in CONTROLLERS:
        mount, path = v1_mounts.get(controller), own_v1.get(controller)
        if mount is not None and path is not None:
            folder = _inside(mount, path)
            if folder is not None and os.access(folder, os.W_OK):
                places[controller] = (folder, 1)
                continue
        if v2_mount is not None and own_v2 is not None:
            folder = _inside(v2_mount, own_v2)
            if folder is not None and os.access(folder, os.W_OK):
                try:
                    enabled = (folder / "cgroup.subtree_control").read_text().split()
                except OSError:
                    enabled = []
                if controller in enabled:
                    places[controller] = (folder, 2)
    return places


def _inside(mount: tuple[str, str], path: str) -> Path | None:
    """The folder of cgroup ``path`` in a hierarchy mounted at ``mount`` = (root, mountpoint)."""
    root, mountpoint = mount
    if root == "/":
        rel = path.lstrip("/")
    elif path == root or path.startswith(root.rstrip("/") + "/"):
        rel = path[len(root) :].lstrip("/")
    else:
        return None
    folder = Path(mountpoint, rel)
    return folder if folder.is_dir() else None


def _sweep_stale(base: Path) -> None:
    """Remove empty groups left by harness processes that are gone (a kill -9)."""
    try:
        entries = [e for e in os.scandir(base) if e.name.startswith(PREFIX) and e.is_dir(follow_symlinks=False)]
    except OSError:
        return
    for entry in entries:
        owner = entry.name[len(PREFIX) :].split("-", 1)[0]
        if owner.isdigit() and int(owner) != os.getpid() and not os.path.exists(f"/proc/{owner}"):
            _rmdir_quietly(Path(entry.path))


def _rmdir_quietly(folder: Path) -> None:
    try:
        folder.rmdir()
    except OSError:
        pass


def _unescape(text: str) -> str:
    return re.sub(r"\\([0-7]{3})", lambda m: chr(int(m.group(1), 8)), text)


def _read_int(path: Path) -> int | None:
    try:
        text = path.read_text().strip()
    except OSError:
        return None
    return int(text) if text.isdigit() else None


def _keyed(path: Path, key: str) -> int | None:
    """The value of ``key N`` in a flat-keyed cgroup file (``pids.events``, ``memory.events``)."""
    try:
        for line in path.read_text().splitlines():
            k, _, v = line.partition(" ")
            if k == key and v.strip().isdigit():
                return int(v)
    except OSError:
        return None
    return None


def _put(out: dict[str, int], key: str, value: int | None) -> None:
    if value is not None:
        out[key] = value
