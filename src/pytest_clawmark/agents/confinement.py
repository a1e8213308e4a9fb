"""Confining one agent run: its cgroup and its rlimits, in place before its first instruction.

Why between fork and exec (``preexec_fn``): the agent's program starts already confined, so a
fork bomb cannot fork once before it is in its cgroup, and nothing it does can lift a hard
limit. Limits are inherited across ``exec`` and namespaces, so the same confinement works under
bubblewrap (which is then confined itself) and without it.

What stands in when a cgroup cannot be made (a non-root user without a delegated subtree, or
``--agent-limits cgroups=off``), recorded as a note in the day's trace:

- processes: ``RLIMIT_NPROC``, set to your user's current count plus the limit (the kernel counts
  every process and thread of the user); it does not bind root, so as root without a pids cgroup
  the process limit is *not enforced* — the note says so;
- memory: ``RLIMIT_DATA`` per process (never ``RLIMIT_AS``: V8 reserves far more address space
  than it uses, and Node.js would not start).
"""

from __future__ import annotations

import os
import resource
from typing import Any

from . import cgroups
from .limits import AgentLimits

CPU_KILL_GRACE = 5
"""Seconds between SIGXCPU (the soft CPU limit; a program may save its work) and SIGKILL."""


class Confinement:
    """The limits of one agent run: create, :meth:`prepare` before ``Popen`` (passing
    :meth:`preexec` as its ``preexec_fn``), :meth:`started` after, :meth:`kill_all` after the turn,
    :meth:`report` for the record, :meth:`close` at the end."""

    def __init__(self, limits: AgentLimits, *, turn_limit: float, label: str) -> None:
        self.limits = limits
        self.notes: list[str] = []
        self.cgroup: cgroups.AgentCgroup | None = None
        if limits.cgroups == "auto":
            self.cgroup, notes = cgroups.create(label, processes=limits.processes, memory=limits.memory)
            self.notes += notes
        self.by: dict[str, str] = {}
        self.rlimits: list[tuple[int, tuple[int, int]]] = []
        self._fds: list[int] = []
        self._turn_limit = turn_limit
        self._plan(turn_limit)

    # -- before the run --------------------------------------------------------------------------
    def _plan(self, turn_limit: float) -> None:
        lim, has = self.limits, self.cgroup.controllers if self.cgroup else set()
        if lim.processes is not None:
            if "pids" in has:
                self.by["processes"] = "pids cgroup"
            elif os.geteuid() == 0:
                self.by["processes"] = "not enforced"
                self.notes.append("processes: not enforced: no pids cgroup, and RLIMIT_NPROC does not bind root")
            else:
                self._rlimit(
                    resource.RLIMIT_NPROC,
                    _user_tasks() + lim.processes,
                    "processes",
                    "RLIMIT_NPROC (over your user's processes)",
                )
        if lim.memory is not None:
            if "memory" in has:
                self.by["memory"] = "memory cgroup"
            else:
                self._rlimit(resource.RLIMIT_DATA, lim.memory, "memory", "RLIMIT_DATA (per process)")
        if lim.file_size is not None:
            self._rlimit(resource.RLIMIT_FSIZE, lim.file_size, "file_size", "RLIMIT_FSIZE")
        if lim.open_files is not None:
            self._rlimit(resource.RLIMIT_NOFILE, lim.open_files, "open_files", "RLIMIT_NOFILE")
        cpu = lim.cpu_seconds(turn_limit)
        if cpu is not None:
            self._rlimit(resource.RLIMIT_CPU, cpu, "cpu", "RLIMIT_CPU (per process)", grace=CPU_KILL_GRACE)
        self._rlimit(resource.RLIMIT_CORE, 0, "", "")  # no core dumps of a crashed agent into its workspace

    def _rlimit(self, which: int, value: int, name: str, how: str, grace: int = 0) -> None:
        soft, hard = value, value + grace
        _, current_hard = resource.getrlimit(which)
        if current_hard != resource.RLIM_INFINITY and hard > current_hard:  # only root may raise a hard limit
            hard = current_hard
            soft = min(soft, hard)
        self.rlimits.append((which, (soft, hard)))
        if name:
            self.by[name] = how

    def prepare(self) -> None:
        """Open what the child needs (the cgroup's ``cgroup.procs`` files) before the fork."""
        self._fds = self.cgroup.open_attach() if self.cgroup is not None else []

    def preexec(self) -> None:
        """Runs in the child between fork and exec: join the cgroup, set the rlimits.

        Kept to plain system calls on data prepared in the parent (the harness has threads: the
        child of a fork must not need a lock one of them might hold)."""
        for fd in self._fds:
            os.write(fd, b"0")
        for which, pair in self.rlimits:
            resource.setrlimit(which, pair)

    def started(self) -> None:
        """After ``Popen`` returned (or failed): the parent's copies are no longer needed."""
        if self.cgroup is not None:
            self.cgroup.close_attach()
        self._fds = []

    def without_cgroup(self, why: str) -> None:
        """Joining the cgroup failed in the child: go on with rlimits only, and say so."""
        if self.cgroup is not None:
            self.cgroup.remove()
            self.cgroup = None
        self.notes.append(f"cgroups: not used: {why}")
        self.rlimits = []
        self.by = {}
        self._plan(self._turn_limit)

    # -- after the run ---------------------------------------------------------------------------
    def kill_all(self) -> set[int]:
        """SIGKILL every process left in the run's cgroup; the processes found (none without one)."""
        return self.cgroup.kill_all() if self.cgroup is not None else set()

    def pids(self) -> set[int]:
        return self.cgroup.pids() if self.cgroup is not None else set()

    def report(self) -> dict[str, Any]:
        """The day's record: each limit with its value and how it was enforced, what the run
        used and hit (where a cgroup counted it), and the notes."""
        values = {
            "processes": self.limits.processes,
            "memory": self.limits.memory,
            "file_size": self.limits.file_size,
            "open_files": self.limits.open_files,
            "cpu": dict(self.rlimits).get(resource.RLIMIT_CPU, (None,))[0],
        }
        out: dict[str, Any] = {name: {"limit": values[name], "by": how} for name, how in self.by.items()}
        usage = self.cgroup.usage() if self.cgroup is not None else {}
        for key, name, field in (
            ("processes_peak", "processes", "peak"),
            ("processes_refused", "processes", "refused"),
            ("memory_peak", "memory", "peak"),
            ("oom_kills", "memory", "oom_kills"),
        ):
            if key in usage and name in out:
                out[name][field] = usage[key]
        if self.notes:
            out["notes"] = list(self.notes)
        return out

    def close(self) -> None:
        self.started()
        if self.cgroup is not None:
            self.cgroup.kill_all(timeout=1.0)
            self.cgroup.remove()


def _user_tasks() -> int:
    """Processes and threads of this user (what ``RLIMIT_NPROC`` is compared with)."""
    uid, count = os.getuid(), 0
    try:
        entries = [e.name for e in os.scandir("/proc") if e.name.isdigit()]
    except OSError:
        return 0
    for pid in entries:
        try:
            if os.stat(f"/proc/{pid}").st_uid == uid:
                count += len(os.listdir(f"/proc/{pid}/task"))
        except OSError:
            continue
    return count
