"""How much of the machine one agent run may take: processes, memory, files, CPU, output.

Why: the agent under test is untrusted code on the harness's machine. The world's services, the
harness that reads the agent's output and evidence afterwards (where no turn time limit applies)
and, under pytest-xdist, other trials all share that machine. Without limits one fork bomb,
memory hog, runaway file or stdout flood stalls or kills them all. Every process an agent run
starts gets these limits, in every isolation mode (``bwrap`` and ``none``); how they are enforced
(cgroups where this process may create them, else rlimits) is :mod:`.confinement`'s business.

Set them with ``--agent-limits KEY=VALUE[,KEY=VALUE...]`` (repeatable), the environment variable
``CLAWMARK_AGENT_LIMITS`` or the ini key ``clawmark_agent_limits``; per key the command line
wins, then the environment, then the ini file, then the defaults below. Sizes take ``K``, ``M``,
``G`` suffixes (binary: ``4G`` = 4 GiB); ``off`` lifts a limit where that makes sense.

The defaults are chosen not to get in the way of a real agent (OpenClaw is Node.js: V8 reserves
a big address space, so memory is never limited by ``RLIMIT_AS``) while stopping the hostile
cases of issue 9: 2,000 forked processes, 1.5 GB on stdout, a 500 MB workspace file.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass, fields, replace
from typing import Any

from ..world.fs_limits import WorkspaceLimits

KIB, MIB, GIB = 1 << 10, 1 << 20, 1 << 30

TURN = "turn"
"""``cpu=turn`` (the default): a process may use as many CPU seconds as the day has seconds."""

CGROUPS_MODES = ("auto", "off")


@dataclass(frozen=True)
class AgentLimits:
    """The limits of one agent run (one day of one agent); ``None`` means not limited."""

    processes: int | None = 512
    """Processes and threads alive at once, all of the run's together (a pids cgroup; else
    ``RLIMIT_NPROC``, which counts all of your user's processes and does not bind root).
    Node.js runs ~11 threads per process; OpenClaw plus its shells stays below 100."""

    memory: int | None = 4 * GIB
    """Resident memory of all of the run's processes together (a memory cgroup: past it the
    kernel's OOM killer ends a process of the run); without a usable cgroup, ``RLIMIT_DATA`` per
    process (heap and private writable mappings; V8's reserved address space does not count)."""

    file_size: int | None = 1 * GIB
    """Largest file a process may write (``RLIMIT_FSIZE``): a write past it fails with EFBIG
    (SIGXFSZ, which ends most programs; Python ignores it and raises ``OSError``). Google Drive
    takes files of up to 5 TB; a deliverable of more than 1 GiB is not a coworker's work."""

    open_files: int | None = 8192
    """Open file descriptors per process (``RLIMIT_NOFILE``); Node.js asks for no more than
    its hard limit, typical desktop defaults are 1,024 soft / 524,288 hard."""

    cpu: int | str | None = TURN
    """CPU seconds per process (``RLIMIT_CPU``: SIGXCPU, then SIGKILL 5 s later); ``turn``: the
    day's time limit, so only a process that burns several cores the whole day is stopped."""

    output: int = 16 * MIB
    """Bytes of stdout and of stderr kept per day (each): the first half and the last half are
    kept on disk, the middle is dropped and its size recorded (``stdout_dropped_bytes``). The
    harness never holds more than half of it in memory."""

    evidence_file: int = 256 * KIB
    """A workspace file up to this size is copied whole (base64) into the day's workspace
    snapshot; larger ones are recorded by size and hash."""

    evidence_total: int = 16 * MIB
    """Bytes of workspace files copied into one snapshot in all; past it, files are recorded by
    size and hash only and the snapshot says so (``truncated``)."""

    cgroups: str = "auto"
    """``auto``: use cgroups (pids, memory) where this process may create them, with a recorded
    note where not; ``off``: rlimits only."""

    def __post_init__(self) -> None:
        minimum = {"processes": 8, "memory": 64 * MIB, "file_size": MIB, "open_files": 64, "output": 8 * KIB}
        for name, low in minimum.items():
            value = getattr(self, name)
            if value is not None and value < low:
                raise LimitsError(
                    f"agent limit {name}={value} is below the least an agent process can run with ({_show(low)})"
                )
        if self.cpu is not None and self.cpu != TURN and (not isinstance(self.cpu, int) or self.cpu < 1):
            raise LimitsError(f"agent limit cpu must be a number of seconds >= 1, 'turn' or 'off', got {self.cpu!r}")
        if self.evidence_file < 0 or self.evidence_total < 0:
            raise LimitsError("agent limits evidence_file and evidence_total must not be negative")
        if self.cgroups not in CGROUPS_MODES:
            raise LimitsError(f"agent limit cgroups takes {' or '.join(CGROUPS_MODES)}, got {self.cgroups!r}")

    def cpu_seconds(self, turn_limit: float) -> int | None:
        """The ``RLIMIT_CPU`` value for a day whose time limit is ``turn_limit`` seconds."""
        if self.cpu == TURN:
            return max(1, int(turn_limit + 0.999))
        return self.cpu  # type: ignore[return-value]

    def workspace(self) -> WorkspaceLimits:
        """The bounds of the harness's reads of the workspace these limits imply."""
        return WorkspaceLimits(inline_file=self.evidence_file, inline_total=self.evidence_total)

    def describe(self) -> dict[str, Any]:
        """The limits as the results record them (``run.agent_limits``)."""
        return {f.name: getattr(self, f.name) for f in fields(self)}


class LimitsError(ValueError):
    """An ``--agent-limits`` value that cannot be used (one line saying why)."""


OPTIONAL = frozenset({"processes", "memory", "file_size", "open_files", "cpu"})
"""Limits that ``off`` lifts; output and evidence are always capped."""
SIZES = frozenset({"memory", "file_size", "output", "evidence_file", "evidence_total"})
_SIZE = re.compile(r"(\d+)\s*([kmgt]?)(i?b)?", re.IGNORECASE)


def parse_limits(entries: Iterable[str], base: AgentLimits | None = None) -> AgentLimits:
    """``["processes=256,memory=2G", "cpu=off"]`` applied over ``base`` (default: the defaults).

    Entries are separated by commas or white space; later ones win. An unknown key or a bad
    value raises :class:`LimitsError` with the accepted form."""
    known = {f.name for f in fields(AgentLimits)}
    changes: dict[str, Any] = {}
    for entry in entries:
        for item in re.split(r"[,\s]+", entry.strip()):
            if not item:
                continue
            key, sep, value = item.partition("=")
            key = key.strip().replace("-", "_")
            if not sep or key not in known:
                raise LimitsError(
                    f"--agent-limits takes KEY=VALUE with KEY one of {', '.join(sorted(known))}; got {item!r}"
                )
            changes[key] = _value(key, value.strip())
    return replace(base or AgentLimits(), **changes)


def _value(key: str, text: str) -> Any:
    low = text.lower()
    if key == "cgroups":
        return low
    if low in ("off", "none", "unlimited"):
        if key not in OPTIONAL:
            raise LimitsError(f"agent limit {key} cannot be turned off (give a size)")
        return None
    if key == "cpu" and low == TURN:
        return TURN
    if key in SIZES:
        m = _SIZE.fullmatch(text)
        if not m:
            raise LimitsError(f"agent limit {key} takes a size such as 512M or 4G, got {text!r}")
        return int(m.group(1)) * {"": 1, "k": KIB, "m": MIB, "g": GIB, "t": 1 << 40}[m.group(2).lower()]
    try:
        return int(text)
    except ValueError:
        raise LimitsError(
            f"agent limit {key} takes a whole number{' or off' if key in OPTIONAL else ''}, got {text!r}"
        ) from None


def _show(n: int) -> str:
    for unit, size in (("G", GIB), ("M", MIB), ("K", KIB)):
        if n >= size and n % size == 0:
            return f"{n // size}{unit}"
    return str(n)
