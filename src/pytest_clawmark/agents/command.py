"""The ``command`` agent: runs any command line once per day.

    pytest tasks --agent=command --agent-option cmd="python my_agent.py"

Per turn the command gets the wake-up message on stdin and in the file named by
``$CLAWMARK_MESSAGE_FILE``, runs with the workspace as its working folder and an environment
made only of the world's ``CLAWMARK_*`` variables plus a minimal ``PATH``/``HOME``/``LANG``
(nothing else from the host leaks in). Over the time limit, its whole process group is killed.
Its stdout/stderr tails are kept as evidence.
"""

from __future__ import annotations

import os
import shlex
import signal
import subprocess
import time
from collections.abc import Mapping
from datetime import datetime
from pathlib import Path

from .base import FAILED, OK, TIMEOUT, AgentError, AgentSession, TurnTrace

TAIL_BYTES = 4000
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
        self.session: AgentSession | None = None

    def start(self, session: AgentSession) -> None:
        self.session = session
        (session.home / "messages").mkdir(parents=True, exist_ok=True)

    def environment(self, day: int, clock: datetime, message_file: Path) -> dict[str, str]:
        assert self.session is not None
        env = {
            "PATH": self.options.get("path", os.environ.get("PATH", BASE_PATH)),
            "HOME": str(self.session.home),
            "LANG": "C.UTF-8",
            "TMPDIR": str(self.session.home),
        }
        env.update(self.session.env)
        env.update(
            CLAWMARK_DAY=str(day),
            CLAWMARK_NOW=clock.isoformat(),
            CLAWMARK_MESSAGE_FILE=str(message_file),
            CLAWMARK_TASK=self.session.task_id,
        )
        return env

    def wake(self, message: str, day: int, clock: datetime) -> TurnTrace:
        assert self.session is not None, "wake() before start()"
        message_file = self.session.home / "messages" / f"day{day}.md"
        message_file.write_text(message, encoding="utf-8")
        out_path = self.session.evidence_dir / f"day{day}.stdout.txt"
        err_path = self.session.evidence_dir / f"day{day}.stderr.txt"
        out_path.parent.mkdir(parents=True, exist_ok=True)
        t0 = time.perf_counter()
        with out_path.open("wb") as out, err_path.open("wb") as err:
            try:
                proc = subprocess.Popen(
                    self.argv,
                    cwd=self.session.workspace,
                    env=self.environment(day, clock, message_file),
                    stdin=subprocess.PIPE,
                    stdout=out,
                    stderr=err,
                    start_new_session=True,  # its own process group, killed whole on overrun
                )
            except OSError as exc:
                return TurnTrace(status=FAILED, detail=f"cannot run {self.argv[0]!r}: {exc.strerror}")
            status, detail = OK, ""
            try:
                proc.communicate(message.encode("utf-8"), timeout=self.session.time_limit)
            except subprocess.TimeoutExpired:
                _kill_group(proc)
                status, detail = TIMEOUT, f"overran the {self.session.time_limit:g} s turn limit; process group killed"
            if status == OK and proc.returncode != 0:
                status, detail = FAILED, f"exited with status {proc.returncode}"
        seconds = time.perf_counter() - t0
        return TurnTrace(
            status=status,
            seconds=seconds,
            detail=detail,
            extra={
                "exit_code": proc.returncode,
                "stdout_tail": _tail(out_path),
                "stderr_tail": _tail(err_path),
                "stdout": str(out_path),
                "stderr": str(err_path),
            },
        )

    def stop(self) -> None:
        self.session = None


def _kill_group(proc: subprocess.Popen[bytes]) -> None:
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


def _tail(path: Path) -> str:
    data = path.read_bytes()[-TAIL_BYTES:]
    return data.decode("utf-8", errors="replace")
