"""``ctx.sandbox.exec`` of upstream tasks: a shell command in the agent's environment.

Why: upstream runs everything (agent, setup scripts, checkers' ``md5sum``/``find``/``sqlite3``)
in one container whose working folder is ``/workspace``. Ours runs the command in the agent's
kind of sandbox (bubblewrap, see :mod:`pytest_clawmark.agents.sandbox`) with the trial's workspace
bound at ``/workspace`` (where sandboxed agents see it too) and a ``/tmp`` of its own that lasts
the whole trial (upstream tasks write a script to ``/tmp`` in one call and run it in the next).
The task folder and the run's evidence are not visible to the command.

Without a working bwrap (``--agent-isolation none`` machines) the command runs on the host in the
workspace, with ``/workspace`` in its text rewritten to the workspace's real path: upstream's
commands keep working, but a command that hides the path (``cd /; cd work*``) would not — the
difference is stated in the result's ``stderr`` once and in docs/upstream.md.
"""

from __future__ import annotations

import asyncio
import os
import re
import signal
import subprocess
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ..agents.sandbox import BWRAP, WORKSPACE_ALIAS, Isolation, Sandbox, bwrap_problem, default_readonly

OUTPUT_MAX = 16 << 20
"""Bytes of stdout and of stderr kept (as the agent's own output cap)."""
BASE_PATH = "/usr/local/bin:/usr/bin:/bin"
_ALIAS = re.compile(r"(?<![\w./-])/workspace(?=/|\b|$)")


@dataclass(frozen=True)
class ExecResult:
    """Upstream's result shape: ``stdout``, ``stderr``, ``return_code`` (-1 on a timeout)."""

    stdout: str
    stderr: str
    return_code: int


class UpstreamSandbox:
    """What upstream's ``ctx.sandbox`` (and ``ctx.fs._sandbox``) offers tasks."""

    def __init__(self, world: Any, *, hidden: tuple[Path, ...] = ()) -> None:
        self._world = world
        self._tmp = Path(world.root) / "upstream-exec-tmp"
        self._tmp.mkdir(parents=True, exist_ok=True)
        self._hidden = hidden
        self.confined = not bwrap_problem()

    async def exec(self, command: str, timeout_sec: float = 300, env: dict[str, str] | None = None) -> ExecResult:
        return await asyncio.to_thread(self.run, command, timeout_sec, env)

    def run(self, command: str, timeout_sec: float = 300, env: dict[str, str] | None = None) -> ExecResult:
        """Run ``bash -c command`` (blocking); never raises for the command's own failure."""
        workspace = Path(self._world.workspace)
        environment = {"PATH": BASE_PATH, "LANG": "C.UTF-8", "HOME": "/tmp", "TMPDIR": "/tmp", **(env or {})}
        note = ""
        if self.confined:
            view = Sandbox(
                Isolation(BWRAP, hidden=self._hidden),
                readonly=default_readonly(),
                writable=[workspace, self._tmp],
                aliases={WORKSPACE_ALIAS: workspace, "/tmp": self._tmp},
            )
            argv = view.wrap(["bash", "-c", command], cwd=Path(WORKSPACE_ALIAS))
            cwd = workspace
        else:
            real = str(workspace)
            argv = ["bash", "-c", _ALIAS.sub(real, command)]
            environment.update(HOME=str(self._tmp), TMPDIR=str(self._tmp))
            cwd = workspace
            note = f"[clawmark: no sandbox here: ran on the host with /workspace -> {real}]\n"
        try:
            proc = subprocess.Popen(
                argv, cwd=cwd, env=environment, stdout=subprocess.PIPE, stderr=subprocess.PIPE, start_new_session=True
            )
        except OSError as exc:
            return ExecResult("", f"{note}cannot run the command: {exc}", 127)
        try:
            out, err = proc.communicate(timeout=timeout_sec)
        except subprocess.TimeoutExpired:
            _kill(proc)
            proc.communicate()
            return ExecResult("", f"{note}Timeout after {timeout_sec:g}s", -1)
        return ExecResult(_text(out), note + _text(err), proc.returncode)


def _kill(proc: subprocess.Popen[bytes]) -> None:
    try:
        os.killpg(proc.pid, signal.SIGKILL)
    except (ProcessLookupError, PermissionError):
        proc.kill()


def _text(data: bytes) -> str:
    return data[:OUTPUT_MAX].decode("utf-8", errors="replace")
