"""The ``command`` agent: runs any command line once per day.

    pytest tasks --agent=command --agent-option cmd="python /abs/path/my_agent.py"

Per turn the command gets the wake-up message on stdin and in the file named by
``$CLAWMARK_MESSAGE_FILE``, runs with the workspace as its working folder and an environment
made only of the world's ``CLAWMARK_*`` variables plus a minimal ``PATH``/``HOME``/``LANG`` and
the host variables named in ``pass_env`` (nothing else from the host leaks in). With isolation
on it runs inside the sandbox (:mod:`.sandbox`): it sees its workspace, its home, the day's
message/trace folder and read-only programs — not the task, its checkers, later evidence,
other worlds or the harness's processes.

Everything a turn starts ends with the turn: over the time limit the whole process group is
killed (and, in the sandbox, the whole PID namespace dies with it); after a normal exit any
leftover process of the group is killed too, so no agent process works between turns while the
world changes. Then links and special files the agent left in the workspace that would lead the
harness outside it are removed by the harness (:meth:`~pytest_clawmark.world.fs.FsService.disarm`). stdout/stderr tails and the JSON trace
lines of ``$CLAWMARK_TRACE_FILE`` (:mod:`.tracefile`) are kept as evidence.
"""

from __future__ import annotations

import os
import re
import shlex
import shutil
import signal
import subprocess
import time
from collections.abc import Mapping
from datetime import datetime
from pathlib import Path

from .base import FAILED, OK, TIMEOUT, AgentError, AgentSession, TurnTrace
from .process import kill_group, tail
from .sandbox import (
    IsolationError,
    Sandbox,
    default_readonly,
    parse_paths,
    wait_until_gone,
)
from .tracefile import read_trace

BASE_PATH = "/usr/local/bin:/usr/bin:/bin"


class CommandAgent:
    name = "command"

    def __init__(self, options: Mapping[str, str] | None = None) -> None:
        self.options = dict(options or {})
        cmd = self.options.get("cmd", "").strip()
        if not cmd:
            raise AgentError('the command agent needs --agent-option cmd="your command line"')
        try:
            self.argv = shlex.split(cmd)
        except ValueError as exc:
            raise AgentError(f"cannot parse cmd={cmd!r}: {exc}") from None
        try:
            self.extra_readonly = parse_paths(self.options.get("sandbox_ro", ""))
        except IsolationError as exc:
            raise AgentError(str(exc)) from None
        self.pass_env = [n.strip() for n in re.split(r"[:,]", self.options.get("pass_env", "")) if n.strip()]
        self.session: AgentSession | None = None
        self.sandbox: Sandbox | None = None
        self.isolation = "none"  # what was in effect, for the trial's record

    def start(self, session: AgentSession) -> None:
        self.session = session
        session.home.mkdir(parents=True, exist_ok=True)
        try:
            self.sandbox = Sandbox(
                session.isolation,
                readonly=[*default_readonly(), *self.extra_readonly],
                writable=[session.workspace, session.home],
            )
        except IsolationError as exc:
            raise AgentError(f"cannot isolate the command agent: {exc}") from None
        self.isolation = session.isolation.mode

    def environment(self, day: int, clock: datetime, message_file: Path, trace_file: Path) -> dict[str, str]:
        assert self.session is not None
        env = {
            "PATH": self.options.get("path", os.environ.get("PATH", BASE_PATH)),
            "HOME": str(self.session.home),
            "LANG": "C.UTF-8",
            "TMPDIR": str(self.session.home),
        }
        env.update({name: os.environ[name] for name in self.pass_env if name in os.environ})  # asked for by name
        env.update(self.session.env)
        env.update(
            CLAWMARK_DAY=str(day),
            CLAWMARK_NOW=clock.isoformat(),
            CLAWMARK_MESSAGE_FILE=str(message_file),
            CLAWMARK_TRACE_FILE=str(trace_file),
            CLAWMARK_TASK=self.session.task_id,
        )
        return env

    def wake(self, message: str, day: int, clock: datetime) -> TurnTrace:
        assert self.session is not None and self.sandbox is not None, "wake() before start()"
        io_dir = _fresh_dir(self.session.evidence_dir / f"day{day}.agent")
        message_file, trace_file = io_dir / "message.md", io_dir / "trace.jsonl"
        message_file.write_text(message, encoding="utf-8")
        out_path = self.session.evidence_dir / f"day{day}.stdout.txt"
        err_path = self.session.evidence_dir / f"day{day}.stderr.txt"
        info_read, info_write = os.pipe() if self.sandbox.active else (-1, -1)
        argv = self.sandbox.wrap(self.argv, cwd=self.session.workspace, writable=[io_dir], info_fd=info_write if info_write >= 0 else None)
        t0 = time.perf_counter()
        with out_path.open("wb") as out, err_path.open("wb") as err:
            try:
                proc = subprocess.Popen(
                    argv,
                    cwd=self.session.workspace,
                    env=self.environment(day, clock, message_file, trace_file),
                    stdin=subprocess.PIPE,
                    stdout=out,
                    stderr=err,
                    start_new_session=True,  # its own process group, killed whole on overrun
                    pass_fds=(info_write,) if info_write >= 0 else (),
                )
            except OSError as exc:
                _close(info_read, info_write)
                return TurnTrace(status=FAILED, detail=f"cannot run {argv[0]!r}: {exc.strerror}", extra={"isolation": self.isolation})
            _close(info_write)
            status, detail = OK, ""
            try:
                proc.communicate(message.encode("utf-8"), timeout=self.session.time_limit)
            except subprocess.TimeoutExpired:
                kill_group(proc)
                status, detail = TIMEOUT, f"overran the {self.session.time_limit:g} s turn limit; process group killed"
            except BaseException:  # Ctrl-C or a harness fault mid-turn: the agent must not outlive it
                kill_group(proc)
                raise
            else:
                _kill_leftovers(proc)
            finally:
                if info_read >= 0:  # every process of the sandbox has ended before we go on
                    wait_until_gone(_read_all(info_read))
            if status == OK and proc.returncode != 0:
                status, detail = FAILED, f"exited with status {proc.returncode}{_last_line(err_path)}"
        seconds = time.perf_counter() - t0
        trace = TurnTrace(
            status=status,
            seconds=seconds,
            detail=detail,
            extra={
                "exit_code": proc.returncode,
                "isolation": self.isolation,
                "stdout_tail": tail(out_path),
                "stderr_tail": tail(err_path),
                "stdout": str(out_path),
                "stderr": str(err_path),
            },
        )
        parsed = read_trace(trace_file)
        if parsed is not None:
            trace.tool_calls, trace.messages, trace.tokens = parsed.tool_calls, parsed.messages, parsed.tokens
            trace.transcript = str(trace_file)
            trace.extra.update(parsed.stats())
        return trace

    def stop(self) -> None:
        self.session = None
        self.sandbox = None


def _close(*fds: int) -> None:
    for fd in fds:
        if fd >= 0:
            os.close(fd)


def _read_all(fd: int) -> bytes:
    """What bwrap wrote to its info pipe (written at sandbox start; never blocks)."""
    chunks = []
    os.set_blocking(fd, False)
    try:
        while chunk := os.read(fd, 65536):
            chunks.append(chunk)
    except BlockingIOError:  # bwrap still alive (a kill that did not take): take what is there
        pass
    finally:
        os.close(fd)
    return b"".join(chunks)


def _fresh_dir(path: Path) -> Path:
    """A new, empty, harness-made folder (a retried day starts from nothing the agent left)."""
    if path.is_symlink() or path.is_file():
        path.unlink()
    elif path.exists():
        shutil.rmtree(path)
    path.mkdir(parents=True)
    return path


def _kill_leftovers(proc: subprocess.Popen[bytes]) -> None:
    """After a normal exit: kill what the turn left running in its process group.

    Why: an agent must not keep working between turns, while turn setup changes the world.
    (Inside bwrap the PID namespace already died with the command; this is for ``none``, where
    a process that left the group with setsid() still escapes — one reason ``none`` is for
    debugging only.)
    """
    try:
        os.killpg(proc.pid, signal.SIGKILL)
    except (ProcessLookupError, PermissionError):
        pass


def _last_line(path: Path) -> str:
    """`` (the last line of stderr)``, so a failed day says why in the summary."""
    lines = tail(path).strip().splitlines()
    return f" ({lines[-1][:200]})" if lines else ""
