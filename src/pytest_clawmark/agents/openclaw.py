"""The ``openclaw`` agent: the real OpenClaw CLI, run headless, one session per task trial.

    pytest tasks --agent=openclaw --agent-option model=gpt-5.4            # $OPENAI_API_KEY
    pytest tasks --agent=openclaw --agent-option provider=anthropic --agent-option model=claude-sonnet-4-6
    pytest tasks --agent=openclaw --agent-option script=tasks/x/openclaw_script.json   # offline

Each day is one ``openclaw agent --local --session-id ID --message-file F --json`` run — the
embedded (Gateway-less) mode OpenClaw documents for scripts — in the same session, so the agent
remembers earlier days like a coworker does. Each trial gets a private state directory (config,
SQLite session store, locks), a private HOME, and an environment of only: PATH (Node 24 first),
the world's ``CLAWMARK_*`` variables, and the one API-key variable the provider needs.
After every day the session transcript is exported next to the run's evidence.
"""

from __future__ import annotations

import dataclasses
import json
import math
import os
import uuid
from collections.abc import Mapping
from datetime import datetime
from pathlib import Path
from typing import Any

from ..world.untrusted_fs import neutralise, write_replacing
from .base import TURN_INFRA_ERROR, TURN_OK, TURN_TIMEOUT, AgentError, AgentSession, TurnTrace
from .container_sandbox import DEFAULT_IMAGE, ContainerSandbox, DayContainer, image_problem
from .live import SessionStoreCounter, live_file, publishing
from .openclaw_config import NO_KEY, api_key, build_config, provider_settings
from .openclaw_install import MIN_NODE_MAJOR, find_openclaw, image_install, install_hint
from .openclaw_persona import day_header, write_persona_files
from .openclaw_trace import classify, digest_day, export_transcript, parse_result, transcript_truncated
from .process import RUN_MARKER, NotStarted, exit_reason, run_agent_process, tail
from .sandbox import (
    BWRAP,
    CONTAINER,
    PROBE_TIMEOUT,
    WORKSPACE_ALIAS,
    Isolation,
    IsolationError,
    Sandbox,
    default_readonly,
    exec_needs,
    first_missing,
    host_missing,
    probe_folders,
    run_probe,
)

BASE_PATH = "/usr/local/bin:/usr/bin:/bin"
IMAGE_PATH = "/opt/clawmark/bin:/usr/local/bin:/usr/bin:/bin"
"""What follows Node and OpenClaw on PATH in an image of ours (its Python with the services' clients)."""
STARTUP_ALLOWANCE = 15.0
"""Seconds OpenClaw may take to start (measured ~6-10 s) before its own turn deadline starts."""
QUIET_ENV = {"OPENCLAW_NO_AUTO_UPDATE": "1", "DO_NOT_TRACK": "1", "OPENCLAW_OFFLINE": "1", "NO_COLOR": "1"}
"""No update checks, telemetry, helper downloads or colour codes: a run talks to its model and its world."""


class OpenClawAgent:
    name = "openclaw"

    def __init__(self, options: Mapping[str, str] | None = None) -> None:
        self.options = dict(options or {})
        self.image = self.options.get("image", "").strip() or DEFAULT_IMAGE
        """``--agent-isolation=container``: the image OpenClaw runs in — one that carries its own
        (``clawmark images build --openclaw``), or any other with the host's OpenClaw and Node mounted."""
        own = image_install(self.image) if self.options.get("image", "").strip() else None
        self.install = own or find_openclaw(self.options.get("openclaw_bin") or None)
        self.script_path = self.options.get("script", "").strip()
        self.script: Any = None
        if self.script_path:
            from .scripted_model import ScriptError, load_script

            try:
                self.script = load_script(self.script_path)
            except ScriptError as exc:
                raise AgentError(f"script={self.script_path}: {exc}") from None
        # validate every option now, so a typo fails the run before any world starts
        self.settings = provider_settings(
            self.options,
            scripted_url="http://127.0.0.1:1" if self.script else None,
            scripted_model=self.script.model if self.script else None,
        )
        if not self.script:
            api_key(self.settings)
        self.session: AgentSession | None = None
        self.sandbox: Sandbox | None = None
        self.isolation = "none"  # what the trial records as in effect (see agents/sandbox.py)
        self.session_id = ""
        self.model_server: Any = None
        self.relay: Any = None  # the provider relayed onto the world's network (container isolation)
        self.upstream = ""
        self._seen_events = 0

    # -- before the run ----------------------------------------------------------------------------
    def preflight(self, isolation: Isolation) -> None:
        """Raise :class:`AgentError` (one line, with the install hint) when OpenClaw cannot start.

        Called once per run before any world starts. Cheap — no network, no model, no OpenClaw
        start (which takes seconds): the launcher and Node found when the agent was built must be
        there and executable, with the interpreters they need; with ``bwrap``, a probe in the
        sandbox OpenClaw would get checks that it shows them and that its Node runs there.
        """
        if isolation.mode == CONTAINER:
            problem = image_problem(self.image)
            if problem:
                raise AgentError(problem)
            if self.install.image:  # its own OpenClaw and Node: nothing of the host's to check
                return
        elif self.install.image:
            raise AgentError(
                f"image={self.image} carries its own OpenClaw, which runs only in a container: add --agent-isolation=container "
                "(with --clawmark-backend=docker), or drop image= to run the host's install"
            )
        node = self.install.node_dir / "node"
        path = ":".join([*self.install.path_prefix, self.options.get("path") or os.environ.get("PATH", BASE_PATH)])
        programs = [
            (exec_needs(str(self.install.openclaw)), "the OpenClaw launcher"),
            (exec_needs(str(node)), f"Node {MIN_NODE_MAJOR}"),
        ]
        for needs, what in programs:
            gap = host_missing([needs], path)
            if gap is not None:
                role = "" if gap.why == "the command" else f", needed by {needs[0].what} ({gap.why}),"
                raise AgentError(f"{what} {gap.what}{role} is missing or not executable. {install_hint()}")
        if isolation.mode != BWRAP:
            return
        with probe_folders("clawmark-preflight-") as (workspace, home):
            try:
                sandbox = Sandbox(
                    isolation, readonly=[*default_readonly(), *self.install.roots], writable=[workspace, home]
                )
            except IsolationError as exc:
                raise AgentError(f"cannot isolate openclaw: {exc}") from None
            env = {"PATH": path, "HOME": str(home), "LANG": "C.UTF-8", "TMPDIR": str(home)}
            for needs, what in programs:
                gap, result = first_missing(sandbox, [needs], cwd=workspace, env=env)
                if gap is not None:
                    raise AgentError(
                        f"{what} {needs[0].what} cannot start inside the sandbox (bwrap): {gap.what} ({gap.why}) is not visible there. {install_hint()}"
                    )
                if result.returncode != 0:
                    raise AgentError(
                        f"the sandbox (bwrap) cannot start {what}: {_why(result.stderr, result.returncode)}"
                    )
            result = run_probe(sandbox, [str(node), "--version"], cwd=workspace, env=env)  # Node itself, a few ms
        if result.returncode != 0:
            raise AgentError(
                f"Node {node} does not run inside the sandbox (bwrap): {_why(result.stderr, result.returncode)}. {install_hint()}"
            )

    # -- lifecycle -----------------------------------------------------------------------------
    def start(self, session: AgentSession) -> None:
        self.session = session
        model_host = "127.0.0.1"
        try:
            if session.isolation.mode == CONTAINER:
                # the image's own OpenClaw, or the host's and its Node (mounted read-only at their paths)
                self.sandbox = ContainerSandbox(
                    image=self.image, network=session.isolation.network, workspace=session.workspace, limits=session.limits,
                    readonly=() if self.install.image else self.install.roots, writable=[session.workspace, session.home],
                )  # fmt: skip
                model_host = session.isolation.gateway or "127.0.0.1"
            else:
                self.sandbox = Sandbox(
                    session.isolation,
                    readonly=[*default_readonly(), *self.install.roots],
                    writable=[
                        session.workspace,
                        session.home,
                    ],  # the state dir, persona files, HOME and TMPDIR live in home
                    aliases={WORKSPACE_ALIAS: session.workspace},
                )
        except IsolationError as exc:
            raise AgentError(f"cannot isolate openclaw: {exc}") from None
        self.isolation = session.isolation.mode
        if self.script is not None:
            from .scripted_model import ScriptedModelServer

            self.model_server = ScriptedModelServer(
                self.script, record=session.evidence_dir / "scripted-model.jsonl", host=model_host
            ).start()
            self.settings = provider_settings(
                self.options, scripted_url=self.model_server.url, scripted_model=self.script.model
            )
        elif isinstance(self.sandbox, ContainerSandbox):  # the provider, relayed onto the world's network
            from .model_relay import ModelRelay

            self.upstream = self.settings.base_url
            self.key = api_key(self.settings)  # by the provider's own URL (a loopback one may go without)
            self.relay = ModelRelay(self.upstream, host=model_host).start()
            self.settings = dataclasses.replace(self.settings, base_url=self.relay.base_url)
        # the scripted model is ours and needs no key (on loopback, or on the world's network)
        if self.relay is None:
            self.key = NO_KEY if self.script is not None else api_key(self.settings)
        root = session.home / "openclaw"
        self.state_dir = root / "state"
        self.agent_workspace = root / "agent-workspace"
        self.messages_dir = root / "messages"
        for d in (self.state_dir, self.agent_workspace, self.messages_dir, root / "home", root / "tmp"):
            d.mkdir(parents=True, exist_ok=True)
        self.config_path = self.state_dir / "openclaw.json"
        config = build_config(self.settings, agent_workspace=self.agent_workspace, work_dir=session.workspace)
        self.config_path.write_text(json.dumps(config, indent=2), encoding="utf-8")
        session.evidence_dir.mkdir(parents=True, exist_ok=True)
        (session.evidence_dir / "openclaw.json").write_text(json.dumps(config, indent=2), encoding="utf-8")
        self.session_id = f"clawmark-{uuid.uuid4().hex[:16]}"
        self._live_count = SessionStoreCounter(self.state_dir, self.session_id)

    @property
    def session_key(self) -> str:
        return f"agent:main:explicit:{self.session_id}"

    def run_marker(self, day: int) -> str:
        """The value of :data:`RUN_MARKER` for one day's run: every process of it inherits it."""
        return f"{self.session_id}-day{day}"

    def environment(self, day: int, clock: datetime) -> dict[str, str]:
        """Only what OpenClaw needs; nothing else from the host (its shell commands inherit it)."""
        assert self.session is not None
        root = self.session.home / "openclaw"
        host_path = self.options.get("path") or (
            IMAGE_PATH if self.install.image else os.environ.get("PATH", BASE_PATH)
        )
        env = {
            "PATH": ":".join([*self.install.path_prefix, host_path]),
            "HOME": str(root / "home"),
            "TMPDIR": str(root / "tmp"),
            "LANG": "C.UTF-8",
            "OPENCLAW_STATE_DIR": str(self.state_dir),
            "OPENCLAW_CONFIG_PATH": str(self.config_path),
            **QUIET_ENV,
        }
        env.update(self.session.env)
        env.update(CLAWMARK_DAY=str(day), CLAWMARK_NOW=clock.isoformat(), CLAWMARK_TASK=self.session.task_id)
        env[self.settings.api_key_env] = self.key
        env[RUN_MARKER] = self.run_marker(day)
        return env

    def command(self, message_file: Path) -> list[str]:
        assert self.session is not None
        argv = [
            str(self.install.openclaw), "agent", "--local",
            "--session-id", self.session_id,
            "--message-file", str(message_file),
            "--json",
            "--timeout", str(self.openclaw_timeout(self.session.time_limit)),
        ]  # fmt: skip
        if self.settings.thinking:
            argv += ["--thinking", self.settings.thinking]
        return argv

    @staticmethod
    def openclaw_timeout(limit: float) -> int:
        """OpenClaw's own deadline, a little inside ours, so it can stop cleanly (and save its
        transcript) before the hard kill at the day's limit."""
        margin = min(60.0, max(STARTUP_ALLOWANCE, 0.1 * limit))
        return max(1, math.floor(limit - margin))

    def wake(self, message: str, day: int, clock: datetime) -> TurnTrace:
        assert self.session is not None and self.sandbox is not None, "wake() before start()"
        session = self.session
        write_persona_files(self.agent_workspace, session)
        message_file = self.messages_dir / f"day{day}.md"
        write_replacing(
            message_file, f"{day_header(day, clock)}\n\n{message}"
        )  # home is the agent's: never write through its links
        day_dir = session.evidence_dir / f"day{day}"
        day_dir.mkdir(parents=True, exist_ok=True)
        attempt = _next_attempt(day_dir)  # a day re-woken by --agent-retries keeps each attempt's files
        out_path, err_path = day_dir / f"openclaw{attempt}.stdout.json", day_dir / f"openclaw{attempt}.stderr.txt"
        requests_before = len(self.model_server.log.entries) if self.model_server else 0
        before = self._live_count()  # the session's calls of earlier days are not this day's
        env = self.environment(day, clock)
        box = DayContainer(self.sandbox) if isinstance(self.sandbox, ContainerSandbox) else None
        engine_fault = ""
        try:
            if box is not None:
                argv, run_env = box.command(self.command(message_file), cwd=session.workspace, env=env, keep_path=True)
            else:
                argv, run_env = self.sandbox.wrap(self.command(message_file), cwd=session.workspace), env
            with publishing(live_file(session.evidence_dir, day), lambda: self._live_count() - before):
                run = run_agent_process(
                    argv, cwd=session.workspace, env=run_env, marker=self.run_marker(day), limits=session.limits,
                    time_limit=session.time_limit, stdout_path=out_path, stderr_path=err_path,
                )  # fmt: skip
            if box is not None:  # the engine is asked about a failed start before its container goes
                engine_fault = box.fault(run.returncode, err_path, timed_out=run.timed_out)
        except NotStarted as exc:
            raise AgentError(f"cannot run {self.install.openclaw}: {exc}") from None
        finally:
            if box is not None:
                box.remove()
        # nothing the agent started outlived its day (background jobs, a runtime still shutting
        # down after an overrun: run_agent_process killed them); links or special files it
        # planted in its evidence folder go before the harness writes the transcript there
        swept = neutralise(session.evidence_dir)
        transcript = day_dir / f"openclaw-session{attempt}.jsonl"
        node = self.install.node_dir / "node"
        if self.install.image and isinstance(self.sandbox, ContainerSandbox):  # the image's Node reads its store
            runner = self.sandbox.helper(self.install.image, [str(node)], readonly=[self.state_dir])
            events = export_transcript(
                node, self.state_dir, self.session_key, self.session_id, transcript, runner=runner
            )
        else:
            events = export_transcript(node, self.state_dir, self.session_key, self.session_id, transcript)
        digest = digest_day(events[self._seen_events :])
        self._seen_events = len(events)
        result = parse_result(out_path.read_bytes())
        stderr_tail = tail(err_path)
        if run.timed_out:
            status, detail = TURN_TIMEOUT, f"overran the {session.time_limit:g} s turn limit; process group killed"
        elif engine_fault:
            status, detail = TURN_INFRA_ERROR, engine_fault
        else:
            status, detail = classify(
                run.returncode, result, digest, err_path.read_text(encoding="utf-8", errors="replace")
            )
            if status != TURN_OK:
                detail += exit_reason(run, self.sandbox.active)
        extra_limits = run.record()
        if swept.removed:
            extra_limits["removed_from_evidence"] = swept.removed
        if transcript_truncated(transcript):
            extra_limits["transcript_truncated"] = True
        return TurnTrace(
            status=status,
            seconds=run.seconds,
            detail=detail,
            tool_calls=digest.tool_calls,
            messages=digest.messages,
            tokens=digest.tokens,
            transcript=str(transcript) if events else "",
            extra={
                "exit_code": run.returncode,
                "isolation": self.isolation,
                "leftover_processes_killed": run.leftovers,
                "session_id": self.session_id,
                "session_key": self.session_key,
                "state_dir": str(self.state_dir),
                "openclaw": self.install.version,
                "model": self.settings.model_ref,
                "api": self.settings.provider,
                "base_url": self.settings.base_url,
                **({"relayed_to": self.upstream, "relayed_requests": self.relay.requests} if self.relay else {}),
                "assistant_turns": digest.assistant_turns,
                "model_errors": digest.model_errors,
                "run_seconds": _duration(result),
                "stdout": str(out_path),
                "stderr": str(err_path),
                "stderr_tail": stderr_tail[-1500:],
                **(
                    {"scripted_requests": len(self.model_server.log.entries) - requests_before}
                    if self.model_server
                    else {}
                ),
                **extra_limits,
            },
        )

    def stop(self) -> None:
        if self.model_server is not None:
            self.model_server.stop()
            self.model_server = None
        if self.relay is not None:
            self.relay.stop()
            self.relay = None
        self.session = None
        self.sandbox = None


def _why(stderr: str, returncode: int | None) -> str:
    """The last line of a probe's stderr, or how it ended."""
    lines = stderr.strip().splitlines()
    if lines:
        return lines[-1][:200]
    return f"no answer in {PROBE_TIMEOUT:g} s" if returncode is None else f"exit status {returncode}"


def _next_attempt(day_dir: Path) -> str:
    """'' for a day's first run, '.2', '.3'... for re-runs of the same day."""
    n = 1
    while (day_dir / f"openclaw{'' if n == 1 else f'.{n}'}.stdout.json").exists():
        n += 1
    return "" if n == 1 else f".{n}"


def _duration(result: dict[str, Any]) -> float | None:
    """OpenClaw's own measure of the turn (without its start-up), when it printed one."""
    meta = result.get("meta")
    ms = meta.get("durationMs") if isinstance(meta, dict) else None
    return round(ms / 1000, 3) if isinstance(ms, (int, float)) else None
