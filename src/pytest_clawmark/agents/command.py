"""The ``command`` agent: runs any command line once per day.

    pytest tasks --agent=command --agent-option cmd="python /abs/path/my_agent.py"

Relative paths in ``cmd`` are taken from the folder pytest was started in (the command itself
runs in the task's workspace, where they would never resolve): a relative program path
(``./agent``, ``bin/agent``) and the script an interpreter runs (``python my_agent.py``) are made
absolute when the agent is built. :meth:`CommandAgent.preflight` then checks, once per run and
before any world starts, that the command can start at all — on the host and inside the sandbox.

Per turn the command gets the wake-up message on stdin and in the file named by
``$CLAWMARK_MESSAGE_FILE``, runs with the workspace as its working folder and an environment
made only of the world's ``CLAWMARK_*`` variables plus a minimal ``PATH``/``HOME``/``LANG`` and
the host variables named in ``pass_env`` (nothing else from the host leaks in). With isolation
on it runs inside the sandbox (:mod:`.sandbox`): it sees its workspace, its home, the day's
message/trace folder and read-only programs — not the task, its checkers, later evidence,
other worlds or the harness's processes.

Everything a turn starts runs under the session's resource limits and ends with the turn
(:func:`~.process.run_agent_process`): over the time limit the whole process group is killed (and,
in the sandbox, the whole PID namespace dies with it); after any exit every process of its group,
of its marker and of its cgroup is killed too, so no agent process works between turns while the
world changes. Then links and special files the agent left in the workspace that would lead the
harness outside it are removed by the harness (:meth:`~pytest_clawmark.world.fs.FsService.disarm`),
and those it left in its evidence folder by the adapter. stdout/stderr (capped) and the JSON trace
lines of ``$CLAWMARK_TRACE_FILE`` (:mod:`.tracefile`) are kept as evidence.

A command that cannot start is the harness's fault, never the agent's: a turn whose command
cannot be executed (``Popen`` fails, or bwrap reports that it cannot set up the sandbox or exec
the command — re-checked by a probe in the same sandbox, since an agent could print such a line
itself) is recorded as ``infra-error``, not ``failed``.
"""

from __future__ import annotations

import os
import re
import shlex
import uuid
from collections.abc import Mapping
from datetime import datetime
from pathlib import Path
from typing import Any

from ..world.untrusted_fs import neutralise, remove_entry
from .base import TURN_FAILED, TURN_INFRA_ERROR, TURN_OK, TURN_TIMEOUT, AgentError, AgentSession, TurnTrace
from .container_sandbox import DEFAULT_IMAGE, ContainerSandbox, DayContainer, image_problem
from .live import TraceCounter, live_file, publishing
from .process import NotStarted, exit_reason, run_agent_process, tail
from .sandbox import (
    BWRAP,
    CONTAINER,
    PROBE_TIMEOUT,
    WORKSPACE_ALIAS,
    Isolation,
    IsolationError,
    Need,
    Sandbox,
    bindable,
    bwrap_error_line,
    default_readonly,
    exec_candidates,
    first_missing,
    host_lookup,
    host_missing,
    parse_paths,
    probe_folders,
    wait_until_gone,
)
from .tracefile import read_trace
from .visibility import command_binds

BASE_PATH = "/usr/local/bin:/usr/bin:/bin"
INTERPRETER = re.compile(r"(python(\d+(\.\d+)*)?|node|bash|sh|ruby|perl|deno|bun)")
"""Programs whose first (non-option) argument is the script they run."""
CODE_FLAGS = frozenset({"-c", "-m", "-e", "-p", "--eval", "--print"})
"""Interpreter options after which the arguments are code or a module name, not a script file."""
SCRIPT_SUFFIXES = frozenset({".py", ".sh", ".bash", ".js", ".mjs", ".cjs", ".ts", ".mts", ".rb", ".pl"})
"""Arguments with these suffixes are taken to be the agent's script (checked by the preflight)."""


class CommandAgent:
    name = "command"

    def __init__(self, options: Mapping[str, str] | None = None) -> None:
        self.options = dict(options or {})
        cmd = self.options.get("cmd", "").strip()
        if not cmd:
            raise AgentError('the command agent needs --agent-option cmd="your command line"')
        try:
            argv = shlex.split(cmd)
        except ValueError as exc:
            raise AgentError(f"cannot parse cmd={cmd!r}: {exc}") from None
        if not argv:
            raise AgentError('the command agent needs --agent-option cmd="your command line"')
        self.started_in = os.getcwd()  # where relative paths in cmd are taken from
        self.argv = absolute_paths(argv, self.started_in)
        try:
            self.extra_readonly = parse_paths(self.options.get("sandbox_ro", ""))
        except IsolationError as exc:
            raise AgentError(str(exc)) from None
        self.wanted_readonly = command_binds(
            self.argv, self.search_path(), self.started_in, default_readonly(), _script_index(self.argv)
        )
        """What the command line names that the sandbox shows read-only (:mod:`.visibility`)."""
        self.pass_env = [n.strip() for n in re.split(r"[:,]", self.options.get("pass_env", "")) if n.strip()]
        self.image = self.options.get("image", "").strip() or DEFAULT_IMAGE
        self.model_url = self.options.get("model_url", "").strip().rstrip("/")
        """The agent's model provider (its base URL), given to the agent as ``$CLAWMARK_MODEL_URL``;
        in a container, through the harness's relay on the world's network (agents/model_relay.py)."""
        if self.model_url and not re.match(r"https?://[^/\s]+", self.model_url):
            raise AgentError(f"model_url={self.model_url!r} is not an http(s) URL")
        self.relay: Any = None
        """``--agent-isolation=container``: the image the command runs in (its interpreter, its libraries)."""
        self.session: AgentSession | None = None
        self.sandbox: Sandbox | ContainerSandbox | None = None
        self.isolation = "none"  # what was in effect, for the trial's record

    def start(self, session: AgentSession) -> None:
        self.session = session
        session.home.mkdir(parents=True, exist_ok=True)
        if session.isolation.mode == CONTAINER:
            try:
                self.sandbox = ContainerSandbox(
                    image=self.image, network=session.isolation.network, workspace=session.workspace, limits=session.limits,
                    readonly=[*self.extra_readonly, *self.command_readonly(session.isolation)], writable=[session.workspace, session.home],
                )  # fmt: skip
            except IsolationError as exc:
                raise AgentError(f"cannot isolate the command agent: {exc}") from None
            self.isolation = CONTAINER
            if self.model_url:
                from .model_relay import ModelRelay

                self.relay = ModelRelay(self.model_url, host=session.isolation.gateway or "127.0.0.1").start()
            return
        try:
            self.sandbox = Sandbox(
                session.isolation,
                readonly=[*default_readonly(), *self.extra_readonly, *self.command_readonly(session.isolation)],
                writable=[session.workspace, session.home],
                aliases={WORKSPACE_ALIAS: session.workspace},
            )
        except IsolationError as exc:
            raise AgentError(f"cannot isolate the command agent: {exc}") from None
        self.isolation = session.isolation.mode

    def command_readonly(self, isolation: Isolation) -> list[Path]:
        """The command's own install and script folder, where showing them hides nothing hidden."""
        return [p for p in self.wanted_readonly if bindable(p, isolation)]

    # -- before the run ------------------------------------------------------------------------
    def search_path(self) -> str:
        """The ``PATH`` the command gets (the ``path`` option, else the harness's)."""
        return self.options.get("path", os.environ.get("PATH", BASE_PATH))

    def preflight(self, isolation: Isolation) -> None:
        """Raise :class:`AgentError` (one line, how to fix) when the command cannot possibly start.

        Called once per run before any world starts (see the Agent protocol). Checks, on the
        host: the program (``PATH`` lookup for a bare name) and the interpreters the kernel needs
        to exec it (``#!`` line, ELF loader); the script files named in the command line. With
        ``bwrap``: the same, by a probe inside the sandbox the agent would get (a few ms).
        """
        path = self.search_path()
        candidates = exec_candidates(self.argv[0], path)
        missing = host_missing(candidates, path) if candidates else Need(self.argv[0])
        if missing is not None:
            raise AgentError(self._missing_on_host(missing, path))
        for word in self._scripts():
            if not os.path.exists(word):
                where = (
                    ""
                    if os.path.isabs(word)
                    else f" (relative paths are taken from the folder pytest was started in, {self.started_in})"
                )
                raise AgentError(f"the agent script {word} does not exist{where}")
        if isolation.mode == BWRAP:
            self._preflight_sandbox(isolation, path, candidates)
        elif isolation.mode == CONTAINER:
            problem = image_problem(self.image)
            if problem:
                raise AgentError(problem)

    def _missing_on_host(self, need: Need, path: str) -> str:
        if need.why == "the command":
            name = self.argv[0]
            if "/" not in name:
                return f"the agent command {name!r} was not found on PATH ({path}); give an absolute path or --agent-option path=..."
            if not os.path.exists(name):
                return f"the agent command {name!r} does not exist"
            if os.path.isdir(name):
                return f"the agent command {name!r} is a folder, not a program"
            return f"the agent command {name!r} is not executable; chmod +x it, or put its interpreter first in cmd"
        if "/" not in need.what:
            return f"the agent command {self.argv[0]!r} needs {need.what!r} ({need.why}), which was not found on PATH ({path}); set --agent-option path=..."
        return f"the agent command {self.argv[0]!r} needs {need.what} ({need.why}), which does not exist or is not executable"

    def _scripts(self) -> list[str]:
        """The words of the command line that name the agent's script (to be checked)."""
        found = [w for w in self.argv[1:] if os.path.isabs(w) and Path(w).suffix in SCRIPT_SUFFIXES]
        index = _script_index(self.argv)
        if (
            index is not None
            and not os.path.isabs(self.argv[index])
            and Path(self.argv[index]).suffix in SCRIPT_SUFFIXES
        ):
            found.append(self.argv[index])  # relative, so it did not exist where pytest started
        return found

    def _preflight_sandbox(self, isolation: Isolation, path: str, candidates: list[list[Need]]) -> None:
        with probe_folders("clawmark-preflight-") as (workspace, home):
            try:
                sandbox = Sandbox(
                    isolation,
                    readonly=[*default_readonly(), *self.extra_readonly, *self.command_readonly(isolation)],
                    writable=[workspace, home],
                )
            except IsolationError as exc:
                raise AgentError(f"cannot isolate the command agent: {exc}") from None
            env = {"PATH": path, "HOME": str(home), "LANG": "C.UTF-8", "TMPDIR": str(home)}
            missing, result = first_missing(sandbox, candidates, cwd=workspace, env=env, argv=self.argv)
        if missing is not None:
            raise AgentError(self._invisible(missing, path))
        if result.returncode is None:
            raise AgentError(
                f"the sandbox check of the agent command {self.argv[0]!r} did not finish in {PROBE_TIMEOUT:g} s"
            )
        if result.bwrap_error:
            raise AgentError(
                f"the sandbox (bwrap) cannot start the agent command {self.argv[0]!r}: {result.bwrap_error}"
            )
        if result.returncode != 0:
            raise AgentError(
                f"the sandbox check of the agent command {self.argv[0]!r} failed (exit {result.returncode}){_last_text_line(result.stderr)}"
            )

    def _invisible(self, need: Need, path: str) -> str:
        host = host_lookup(need, path) or need.what
        folder = os.path.dirname(os.path.abspath(host))
        fix = f"make it reachable under /usr, or add --agent-option sandbox_ro={folder}"
        if need.why == "the command":
            return f"the agent command {self.argv[0]!r} is not visible inside the sandbox (bwrap); {fix}"
        return f"{need.what} ({need.why}) of the agent command {self.argv[0]!r} is not visible inside the sandbox (bwrap); {fix}"

    # -- the run ---------------------------------------------------------------------------------
    def environment(self, day: int, clock: datetime, message_file: Path, trace_file: Path) -> dict[str, str]:
        assert self.session is not None
        env = {
            "PATH": self.search_path(),
            "HOME": str(self.session.home),
            "LANG": "C.UTF-8",
            "TMPDIR": str(self.session.home),
        }
        env.update({name: os.environ[name] for name in self.pass_env if name in os.environ})  # asked for by name
        env.update(self.session.env)
        if self.model_url:
            env["CLAWMARK_MODEL_URL"] = self.relay.base_url if self.relay is not None else self.model_url
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
        session = self.session
        io_dir = _fresh_dir(session.evidence_dir / f"day{day}.agent")
        message_file, trace_file = io_dir / "message.md", io_dir / "trace.jsonl"
        message_file.write_text(message, encoding="utf-8")
        out_path = session.evidence_dir / f"day{day}.stdout.txt"
        err_path = session.evidence_dir / f"day{day}.stderr.txt"
        env = self.environment(day, clock, message_file, trace_file)
        marker = f"{session.task_id}-{uuid.uuid4().hex[:12]}-day{day}"
        box = DayContainer(self.sandbox) if isinstance(self.sandbox, ContainerSandbox) else None
        info_read, info_write = os.pipe() if self.sandbox.active and box is None else (-1, -1)
        try:
            if box is not None:
                argv, run_env = box.command(self.argv, cwd=session.workspace, env=env, writable=[io_dir])
            else:
                argv = self.sandbox.wrap(
                    self.argv, cwd=session.workspace, writable=[io_dir], info_fd=info_write if info_write >= 0 else None
                )
                run_env = env
            with publishing(live_file(session.evidence_dir, day), TraceCounter(trace_file)):
                result = run_agent_process(
                    argv, cwd=session.workspace, env=run_env, marker=marker, limits=session.limits, time_limit=session.time_limit,
                    stdout_path=out_path, stderr_path=err_path, stdin=message.encode("utf-8"),
                    pass_fds=(info_write,) if info_write >= 0 else (),
                )  # fmt: skip
            # the engine is asked about a failed start before its container goes
            engine_fault = box.fault(result.returncode, err_path, timed_out=result.timed_out) if box is not None else ""
        except NotStarted as exc:
            # the command never started: the harness's problem (see preflight), not the agent's
            return TurnTrace(status=TURN_INFRA_ERROR, detail=str(exc), extra={"isolation": self.isolation})
        finally:
            _close(info_write)
            if info_read >= 0:  # every process of the sandbox has ended before we go on
                wait_until_gone(_read_all(info_read))
            if box is not None:
                box.remove()
        status, detail = TURN_OK, ""
        if result.timed_out:
            status, detail = TURN_TIMEOUT, f"overran the {session.time_limit:g} s turn limit; process group killed"
        elif result.returncode != 0:
            status, detail = (
                TURN_FAILED,
                f"exited with status {result.returncode}{exit_reason(result, self.sandbox.active)}{_last_line(err_path)}",
            )
            fault = (
                engine_fault
                if box is not None
                else self._sandbox_fault(result.returncode or 0, out_path, err_path, trace_file, io_dir, env)
            )
            if fault:
                status, detail = TURN_INFRA_ERROR, fault
        trace = TurnTrace(
            status=status,
            seconds=result.seconds,
            detail=detail,
            extra={
                "exit_code": result.returncode,
                "isolation": self.isolation,
                "stdout_tail": tail(out_path),
                "stderr_tail": tail(err_path),
                "stdout": str(out_path),
                "stderr": str(err_path),
                "leftover_processes_killed": result.leftovers,
                **result.record(),
            },
        )
        parsed = read_trace(trace_file)
        if parsed is not None:
            trace.tool_calls, trace.messages, trace.tokens = parsed.tool_calls, parsed.messages, parsed.tokens
            trace.transcript = str(trace_file)
            trace.extra.update(parsed.stats())
        swept = neutralise(session.evidence_dir)  # links and special files it planted in its evidence folder
        if swept.removed:
            trace.extra["removed_from_evidence"] = swept.removed
        return trace

    def _sandbox_fault(
        self, returncode: int, out_path: Path, err_path: Path, trace_file: Path, io_dir: Path, env: dict[str, str]
    ) -> str:
        """bwrap's own error line when the sandbox, not the agent, failed the turn; else ''.

        bwrap reports that it cannot set the sandbox up or exec the command with one
        ``bwrap: ...`` line on stderr and exit status 1, the agent having produced nothing. An
        agent could print such a line itself, so the fault is confirmed by a probe in the same
        sandbox (same working folder and binds): it must fail to set up, or miss the command or
        one of its interpreters. Otherwise the exit is the agent's own.
        """
        assert self.session is not None and self.sandbox is not None
        if not self.sandbox.active or returncode != 1 or out_path.stat().st_size or trace_file.exists():
            return ""
        line = bwrap_error_line(tail(err_path))
        if not line:
            return ""
        candidates = exec_candidates(self.argv[0], env["PATH"])
        if not candidates:  # gone from the host too
            return line
        missing, result = first_missing(
            self.sandbox, candidates, cwd=self.session.workspace, env=env, writable=[io_dir], argv=self.argv
        )
        if missing is not None or result.bwrap_error or result.returncode != 0:
            return line
        return ""

    def stop(self) -> None:
        if self.relay is not None:
            self.relay.stop()
            self.relay = None
        self.session = None
        self.sandbox = None


def absolute_paths(argv: list[str], base: str) -> list[str]:
    """``argv`` with the relative paths that name the agent's program or script made absolute
    (from ``base``, the folder pytest was started in): a program path with a slash (``./agent``),
    and the script an interpreter runs (``python my_agent.py``) when that file exists there.
    ``~/`` at their start is expanded too (no shell runs the command line)."""
    argv = list(argv)
    if argv[0].startswith("~/"):
        argv[0] = os.path.expanduser(argv[0])
    if "/" in argv[0] and not os.path.isabs(argv[0]):
        argv[0] = os.path.normpath(os.path.join(base, argv[0]))
    index = _script_index(argv)
    if index is not None:
        word = os.path.expanduser(argv[index]) if argv[index].startswith("~/") else argv[index]
        if os.path.isabs(word):
            argv[index] = word
        elif os.path.isfile(os.path.join(base, word)):
            argv[index] = os.path.normpath(os.path.join(base, word))
    return argv


def _script_index(argv: list[str]) -> int | None:
    """Where the script of an interpreter command line is: its first argument that is not an
    option (after ``run`` for deno/bun); None when ``argv`` does not start with an interpreter or
    runs code given inline (``-c``, ``-m``, ``-e`` ...)."""
    program = os.path.basename(argv[0])
    if not INTERPRETER.fullmatch(program):
        return None
    for i in range(1, len(argv)):
        word = argv[i]
        if word in CODE_FLAGS or word == "--":
            return None if word != "--" else (i + 1 if i + 1 < len(argv) else None)
        if word.startswith("-"):
            continue
        if program in ("deno", "bun") and word == "run" and i == 1:
            continue
        return i
    return None


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
    """A new, empty, harness-made folder (a retried day starts from nothing the agent left;
    whatever the agent put at that name is removed, never followed)."""
    remove_entry(path)
    path.mkdir(parents=True)
    return path


def _last_line(path: Path) -> str:
    """`` (the last line of stderr)``, so a failed day says why in the summary."""
    return _last_text_line(tail(path))


def _last_text_line(text: str) -> str:
    lines = text.strip().splitlines()
    return f" ({lines[-1][:200]})" if lines else ""
