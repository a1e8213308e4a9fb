"""Running an agent process: confined, its output capped, and nothing of it left afterwards.

Shared by the adapters that run an agent as a child process (``command``, ``openclaw``).

Why a process group: agent CLIs spawn shells, interpreters and helpers of their own; killing
only the leader on a time-limit overrun would leave those running against the world (and
holding its ports and files) after the day is over.

Why also an environment marker and a cgroup: some CLIs (OpenClaw among them) start their runtime
and tool supervisors in process groups of their own, and a hostile agent double-forks a daemon
into a session of its own. Every process of one run inherits a marker variable —
:func:`kill_marked` finds them (and any descendant that dropped its environment) through
``/proc`` — and, where this process may create one, sits in the run's cgroup, which it cannot
leave (:mod:`.cgroups`): after every turn, in every isolation mode, :func:`run_agent_process`
kills all three sets. Under bubblewrap the sandbox's PID namespace dies with it as well.
"""

from __future__ import annotations

import os
import selectors
import signal
import subprocess
import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from .capture import CappedOutput, Captured
from .confinement import Confinement
from .limits import AgentLimits

TAIL_BYTES = 4000
RUN_MARKER = "CLAWMARK_AGENT_RUN"
"""The environment variable every process of one agent run inherits (see :func:`kill_marked`)."""
LEFTOVER_GRACE = 2.0
"""Seconds leftover processes get between SIGTERM and SIGKILL after the leader ended (OpenClaw's
runtime may still be writing its session store)."""
DRAIN_GRACE = 2.0
"""Seconds to read what is left in the output pipes once every process of the run is gone."""


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


def marked_processes(key: str, value: str, *, group: int | None = None) -> list[int]:
    """Live processes whose environment holds ``key=value`` (or, with ``group``, that are in
    that process group), plus their descendants (Linux ``/proc``; an empty list where there is none)."""
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
            if group is not None and int(fields[2]) == group:
                marked.add(pid)
                continue
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


def kill_marked(
    key: str,
    value: str,
    grace: float = LEFTOVER_GRACE,
    *,
    group: int | None = None,
    confinement: Confinement | None = None,
) -> int:
    """SIGTERM every process marked with ``key=value`` (and, when given, every process of
    process group ``group`` and of the ``confinement``'s cgroup), SIGKILL what is left after
    ``grace`` seconds; returns how many were found."""

    def alive() -> set[int]:
        found = set(marked_processes(key, value, group=group))
        if confinement is not None:
            found |= confinement.pids()
        found.discard(os.getpid())
        return found

    found = alive()
    seen = set(found)
    for sig in (signal.SIGTERM, signal.SIGKILL):
        for pid in found:
            try:
                os.kill(pid, sig)
            except (ProcessLookupError, PermissionError):
                pass
        deadline = time.monotonic() + (grace if sig == signal.SIGTERM else 5.0)
        while time.monotonic() < deadline:
            found = alive()
            seen |= found
            if not found or sig == signal.SIGKILL and not _kill_all(found):
                break
            time.sleep(0.05)
        if not found:
            break
    if confinement is not None:
        seen |= confinement.kill_all()  # whatever a fork raced in meanwhile
    seen.discard(os.getpid())
    return len(seen)


def _kill_all(pids: set[int]) -> bool:
    """SIGKILL ``pids``; whether any was still there."""
    any_alive = False
    for pid in pids:
        try:
            os.kill(pid, signal.SIGKILL)
            any_alive = True
        except (ProcessLookupError, PermissionError):
            pass
    return any_alive


def tail(path: Path, limit: int = TAIL_BYTES) -> str:
    """The last ``limit`` bytes of a file as text ('' if it does not exist); reads no more."""
    try:
        with open(path, "rb") as fh:
            size = os.fstat(fh.fileno()).st_size
            fh.seek(max(0, size - limit))
            data = fh.read(limit)
    except FileNotFoundError:
        return ""
    return data.decode("utf-8", errors="replace")


@dataclass
class ProcessResult:
    """How one agent process run ended."""

    returncode: int | None
    timed_out: bool
    seconds: float
    stdout: Captured
    stderr: Captured
    leftovers: int = 0  # processes of the run still there after the leader ended (killed)
    limits: dict[str, Any] = field(default_factory=dict)  # Confinement.report()

    def record(self) -> dict[str, Any]:
        """The day's ``trace.extra`` entries about the process (bytes, drops, limits)."""
        out: dict[str, Any] = {**self.stdout.record("stdout"), **self.stderr.record("stderr"), "limits": self.limits}
        return out


def exit_reason(result: ProcessResult, sandboxed: bool = False) -> str:
    """`` (SIGXCPU: ...)`` when the run's exit status says a limit (or a signal) ended it, else ''.

    A signal shows as a negative status; through a shell or bubblewrap as 128 + the signal."""
    code = result.returncode
    if code is None or code == 0:
        return ""
    sig = -code if code < 0 else code - 128 if 128 < code < 128 + 65 else 0
    if not sig:
        return ""
    limits = result.limits
    if sig == signal.SIGXCPU:
        return f" (SIGXCPU: a process used up its CPU time limit of {limits.get('cpu', {}).get('limit')} s)"
    if sig == signal.SIGXFSZ:
        return f" (SIGXFSZ: a write went past the file size limit of {limits.get('file_size', {}).get('limit')} bytes)"
    if sig == signal.SIGKILL and limits.get("memory", {}).get("oom_kills"):
        return f" (SIGKILL: the OOM killer, at the memory limit of {limits['memory']['limit']} bytes)"
    if code > 0 and not sandboxed:
        return ""  # a program's own status above 128 is not always a signal
    try:
        return f" ({signal.Signals(sig).name})"
    except ValueError:
        return ""


class NotStarted(Exception):
    """The agent process could not be started (``Popen`` failed): the harness's problem."""


def run_agent_process(
    argv: Sequence[str],
    *,
    cwd: Path,
    env: Mapping[str, str],
    marker: str,
    limits: AgentLimits,
    time_limit: float,
    stdout_path: Path,
    stderr_path: Path,
    stdin: bytes | None = None,
    pass_fds: Sequence[int] = (),
) -> ProcessResult:
    """Run ``argv`` as one confined agent run and return when nothing of it is left.

    The process starts in a session of its own, with ``RUN_MARKER=marker`` in its environment,
    in its own cgroup and under the rlimits of ``limits`` (:class:`.confinement.Confinement`);
    ``stdin`` (or nothing) on its standard input; stdout and stderr captured within
    ``limits.output`` (:mod:`.capture`). Over ``time_limit`` seconds its process group is killed
    (``timed_out``). Then every process it left — by process group, marker and cgroup — is
    killed too. Raises :class:`NotStarted` when it could not even start. Ctrl-C (or any harness
    fault) mid-run kills it all before propagating."""
    confinement = Confinement(limits, turn_limit=time_limit, label=marker)
    out = err = None
    proc: subprocess.Popen[bytes] | None = None
    pipes: list[int] = []
    try:
        out, err = CappedOutput(stdout_path, limits.output), CappedOutput(stderr_path, limits.output)
        r_out, w_out = os.pipe()
        r_err, w_err = os.pipe()
        pipes = [r_out, w_out, r_err, w_err]
        full_env = {**env, RUN_MARKER: marker}
        t0 = time.perf_counter()
        proc = _start(argv, cwd, full_env, stdin is not None, w_out, w_err, pass_fds, confinement)
        for fd in (w_out, w_err):
            os.close(fd)
            pipes.remove(fd)
        timed_out = _pump(proc, stdin, {r_out: out, r_err: err}, deadline=time.monotonic() + time_limit)
        if timed_out:
            kill_group(proc)
        seconds = time.perf_counter() - t0
        leftovers = kill_marked(
            RUN_MARKER, marker, 0.0 if timed_out else LEFTOVER_GRACE, group=proc.pid, confinement=confinement
        )
        proc.wait()
        _drain({fd: cap for fd, cap in ((r_out, out), (r_err, err)) if fd in pipes}, DRAIN_GRACE)
        return ProcessResult(
            proc.returncode, timed_out, seconds, out.close(), err.close(), leftovers, confinement.report()
        )
    except BaseException:
        if proc is not None:
            kill_group(proc)
            kill_marked(RUN_MARKER, marker, 0.0, group=proc.pid, confinement=confinement)
        raise
    finally:
        for fd in pipes:
            try:
                os.close(fd)
            except OSError:
                pass
        for cap in (out, err):
            if cap is not None:
                cap.close()
        confinement.close()


def _start(
    argv: Sequence[str],
    cwd: Path,
    env: dict[str, str],
    with_stdin: bool,
    w_out: int,
    w_err: int,
    pass_fds: Sequence[int],
    confinement: Confinement,
) -> subprocess.Popen[bytes]:
    for attempt in (1, 2):
        confinement.prepare()
        try:
            return subprocess.Popen(
                list(argv),
                cwd=cwd,
                env=env,
                stdin=subprocess.PIPE if with_stdin else subprocess.DEVNULL,
                stdout=w_out,
                stderr=w_err,
                start_new_session=True,  # its own process group, killed whole on overrun
                pass_fds=tuple(pass_fds),
                preexec_fn=confinement.preexec,
            )
        except subprocess.SubprocessError as exc:  # the preexec step failed: the agent never ran
            if attempt == 2 or confinement.cgroup is None:
                raise NotStarted(f"cannot confine the agent process: {exc}") from None
            confinement.without_cgroup(f"joining the run's cgroup failed ({exc})")
        except OSError as exc:
            raise NotStarted(f"cannot run {argv[0]!r}: {exc.strerror or exc}") from None
        finally:
            confinement.started()
    raise AssertionError("unreachable")  # pragma: no cover


def _pump(
    proc: subprocess.Popen[bytes], stdin: bytes | None, outputs: dict[int, CappedOutput], *, deadline: float
) -> bool:
    """Feed stdin, read the outputs, until the leader exits (True: ``deadline`` came first).

    The leader's exit ends the turn even if a process it left holds the pipes open."""
    sel = selectors.DefaultSelector()
    for fd in outputs:
        sel.register(fd, selectors.EVENT_READ, "out")
    pending = memoryview(stdin or b"")
    if proc.stdin is not None:
        if pending:
            os.set_blocking(proc.stdin.fileno(), False)
            sel.register(proc.stdin.fileno(), selectors.EVENT_WRITE, "in")
        else:
            proc.stdin.close()
    pidfd = -1
    try:
        pidfd = os.pidfd_open(proc.pid)
        sel.register(pidfd, selectors.EVENT_READ, "exit")
    except (AttributeError, OSError):  # no pidfd (old kernel): poll instead
        pass
    try:
        while proc.poll() is None:
            left = deadline - time.monotonic()
            if left <= 0:
                return True
            for key, _ in sel.select(min(left, 0.25 if pidfd < 0 else left)):
                if key.data == "out":
                    try:
                        chunk = os.read(key.fd, 1 << 16)
                    except OSError:
                        chunk = b""
                    if chunk:
                        outputs[key.fd].feed(chunk)
                    else:
                        sel.unregister(key.fd)
                elif key.data == "in":
                    assert proc.stdin is not None
                    try:
                        pending = pending[os.write(key.fd, pending[: 1 << 16]) :]
                    except BlockingIOError:
                        continue
                    except OSError:  # it closed its stdin: it does not want the rest
                        pending = pending[:0]
                    if not pending:
                        sel.unregister(key.fd)
                        proc.stdin.close()
                elif key.data == "exit":
                    sel.unregister(key.fd)
        return False
    finally:
        sel.close()
        if pidfd >= 0:
            os.close(pidfd)
        if proc.stdin is not None and not proc.stdin.closed:
            try:
                proc.stdin.close()
            except OSError:
                pass


def _drain(outputs: dict[int, CappedOutput], grace: float) -> None:
    """Read what is left in the pipes (every writer is gone: they end soon), within ``grace``."""
    if not outputs:
        return
    sel = selectors.DefaultSelector()
    for fd in outputs:
        sel.register(fd, selectors.EVENT_READ)
    deadline = time.monotonic() + grace
    try:
        while sel.get_map() and time.monotonic() < deadline:
            for key, _ in sel.select(max(0.0, deadline - time.monotonic())):
                chunk = os.read(key.fd, 1 << 16)
                if chunk:
                    outputs[key.fd].feed(chunk)
                else:
                    sel.unregister(key.fd)
    finally:
        sel.close()
