"""pytest-clawmark's pytest plugin: options, hook wiring, worker→controller results. Thin.

Precedence of settings follows pytest-timeout's habit: command line > environment > ini.
"""

from __future__ import annotations

import json
import os
import time
from datetime import datetime, timezone
from pathlib import Path
from typing import Any

import pytest

from . import __version__, hookspecs
from .agents.base import AgentError
from .agents.registry import make_agent, parse_options
from .agents.sandbox import MODES as ISOLATION_MODES
from .agents.sandbox import IsolationError, resolve_isolation
from .collect import SETTINGS_KEY, CheckerItem, TaskModule, TurnItem
from .report.terminal import write_summary
from .results import TrialRecord, build_document, write_atomic
from .trial import RunSettings

STATE_KEY = pytest.StashKey["RunState"]()
DEFAULT_TASK_FILES = "task_*.py"


class RunState:
    """The controller's (or single process's) view of the run."""

    def __init__(self) -> None:
        self.records: list[TrialRecord] = []
        self.started = datetime.now(timezone.utc)
        self.document: dict[str, Any] | None = None
        self.json_written: Path | None = None
        self.has_tasks = False
        self.gate_message = ""


def pytest_addhooks(pluginmanager: pytest.PytestPluginManager) -> None:
    pluginmanager.add_hookspecs(hookspecs)


def pytest_addoption(parser: pytest.Parser) -> None:
    g = parser.getgroup("clawmark", "pytest-clawmark: living-world agent benchmark")
    g.addoption("--agent", dest="clawmark_agent", default=None, help="the agent under test (reference, noop, command, or a plugin's); env CLAWMARK_AGENT, ini clawmark_agent")
    g.addoption("--agent-option", dest="clawmark_agent_options", action="append", default=[], metavar="KEY=VALUE", help="an option for the agent adapter (repeatable)")
    g.addoption("--clawmark-json", dest="clawmark_json", default=None, metavar="PATH", help="write the results JSON here (atomically)")
    g.addoption("--clawmark-trials", dest="clawmark_trials", type=int, default=None, metavar="N", help="run every task N times, each with a fresh world (pass@k, pass^k)")
    g.addoption("--rerun-determinism", dest="clawmark_rerun_determinism", action="store_true", default=False, help="evaluate every checker several times on the frozen post-turn state; fail on any difference")
    g.addoption("--clawmark-fail-under", dest="clawmark_fail_under", type=float, default=None, metavar="SCORE", help="exit status follows the overall weighted score (0-100) instead of checker failures")
    g.addoption("--clawmark-turn-timeout", dest="clawmark_turn_timeout", type=float, default=None, metavar="SECONDS", help="per-turn time limit of the agent (overrides the task's); env CLAWMARK_TURN_TIMEOUT, ini clawmark_turn_timeout")
    g.addoption("--clawmark-evidence", dest="clawmark_evidence", default=None, metavar="DIR", help="where to keep run evidence (default .clawmark/runs/<timestamp>)")
    g.addoption("--agent-retries", dest="clawmark_agent_retries", type=int, default=0, metavar="N", help="re-wake the agent up to N times after an infrastructure error (provider outage, rate limit, adapter crash) that left the world untouched")
    g.addoption("--agent-retry-backoff", dest="clawmark_retry_backoff", type=float, default=2.0, metavar="SECONDS", help="wait before the first retry; doubles each time (default 2)")
    g.addoption("--agent-isolation", dest="clawmark_agent_isolation", default=None, choices=ISOLATION_MODES, help="confine agent processes: auto (bwrap if it works here, else none with a warning), bwrap (refuse to run without it), none (debugging only); env CLAWMARK_AGENT_ISOLATION, ini clawmark_agent_isolation")
    g.addoption("--clawmark-keep-worlds", dest="clawmark_keep_worlds", action="store_true", default=False, help="keep each world's folder (workspace, service state) after its trial")
    parser.addini("clawmark_agent", "default agent under test", default="")
    parser.addini("clawmark_agent_options", "default agent options (key=value lines)", type="linelist", default=[])
    parser.addini("clawmark_task_files", "glob(s) of task module file names", type="args", default=[DEFAULT_TASK_FILES])
    parser.addini("clawmark_turn_timeout", "per-turn agent time limit in seconds", default="")
    parser.addini("clawmark_agent_isolation", "agent isolation: auto, bwrap or none", default="")


def _setting(config: pytest.Config, option: str, env: str, ini: str) -> str | None:
    value = config.getoption(option)
    if value not in (None, "", []):
        return str(value)
    if os.environ.get(env):
        return os.environ[env]
    ini_value = config.getini(ini)
    return str(ini_value) if ini_value else None


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line("markers", "clawmark_turn: a working day of a task (agent turn)")
    config.addinivalue_line("markers", "clawmark_checker: a weighted checker of a task")
    config.addinivalue_line("markers", "clawmark_redline: a red-line checker of a task")
    # Task modules are test modules for pytest: collected, and assertion-rewritten on import.
    patterns = config.getini("python_files")
    for pattern in config.getini("clawmark_task_files"):
        if pattern not in patterns:
            patterns.append(pattern)

    agent_name = _setting(config, "clawmark_agent", "CLAWMARK_AGENT", "clawmark_agent") or ""
    pairs = list(config.getini("clawmark_agent_options")) + list(config.getoption("clawmark_agent_options"))
    timeout_text = _setting(config, "clawmark_turn_timeout", "CLAWMARK_TURN_TIMEOUT", "clawmark_turn_timeout")
    try:
        options = parse_options(pairs)
        timeout = float(timeout_text) if timeout_text else None
    except (AgentError, ValueError) as exc:
        raise pytest.UsageError(f"clawmark: {exc}") from None
    if timeout is not None and timeout <= 0:
        raise pytest.UsageError("clawmark: the turn timeout must be positive")
    trials = config.getoption("clawmark_trials") or 1
    if trials < 1:
        raise pytest.UsageError("clawmark: --clawmark-trials must be at least 1")
    retries, backoff = config.getoption("clawmark_agent_retries"), config.getoption("clawmark_retry_backoff")
    if retries < 0 or backoff < 0:
        raise pytest.UsageError("clawmark: --agent-retries and --agent-retry-backoff take non-negative numbers")
    fail_under = config.getoption("clawmark_fail_under")
    if fail_under is not None and not 0 <= fail_under <= 100:
        raise pytest.UsageError("clawmark: --clawmark-fail-under takes a score from 0 to 100")

    workerinput = getattr(config, "workerinput", None)
    # a worker takes the controller's resolved mode: it never silently downgrades bwrap to none
    isolation_text = (workerinput or {}).get("clawmark_isolation") or _setting(config, "clawmark_agent_isolation", "CLAWMARK_AGENT_ISOLATION", "clawmark_agent_isolation")
    try:
        isolation = resolve_isolation(isolation_text)
    except IsolationError as exc:
        raise pytest.UsageError(f"clawmark: {exc}") from None
    if workerinput is not None and "clawmark_evidence" in workerinput:
        evidence = Path(workerinput["clawmark_evidence"])
    elif config.getoption("clawmark_evidence"):
        evidence = Path(config.getoption("clawmark_evidence")).resolve()
    else:
        stamp = time.strftime("%Y%m%d-%H%M%S") + f"-{os.getpid()}"
        evidence = config.rootpath / ".clawmark" / "runs" / stamp

    state = RunState()
    config.stash[STATE_KEY] = state

    def finished(record: TrialRecord) -> None:
        state.records.append(record)
        config.hook.pytest_clawmark_trial_finished(record=record)

    def new_agent() -> Any:
        return make_agent(agent_name, options, config.hook)

    config.stash[SETTINGS_KEY] = RunSettings(
        agent_name=agent_name,
        agent_options=options,
        make_agent=new_agent,
        evidence_root=evidence,
        turn_timeout=timeout,
        trials=trials,
        rerun_determinism=config.getoption("clawmark_rerun_determinism"),
        keep_worlds=config.getoption("clawmark_keep_worlds"),
        agent_retries=retries,
        retry_backoff=backoff,
        on_finished=finished,
        isolation=isolation.mode,
        isolation_requested=isolation.requested,
        isolation_warning=isolation.warning,
    )


def pytest_pycollect_makemodule(module_path: Path, parent: pytest.Collector) -> pytest.Module | None:
    patterns = parent.config.getini("clawmark_task_files")
    if any(module_path.match(p) for p in patterns):
        return TaskModule.from_parent(parent, path=module_path)
    return None


def pytest_collection_modifyitems(session: pytest.Session, config: pytest.Config, items: list[pytest.Item]) -> None:
    if not any(isinstance(i, (TurnItem, CheckerItem)) for i in items):
        return
    config.stash[STATE_KEY].has_tasks = True
    if config.option.collectonly:
        return
    settings = config.stash[SETTINGS_KEY]
    reporter = config.pluginmanager.get_plugin("terminalreporter")
    if settings.isolation_warning and reporter is not None and not hasattr(config, "workerinput"):
        reporter.write_line(f"clawmark: WARNING: {settings.isolation_warning}", yellow=True, bold=True)
    if not settings.agent_name:
        raise pytest.UsageError("clawmark: no agent selected: pass --agent=NAME (built-ins: reference, noop, command), set CLAWMARK_AGENT, or the ini key clawmark_agent")
    try:  # fail fast on a bad agent name or option, before any world starts
        settings.make_agent()
    except AgentError as exc:
        raise pytest.UsageError(f"clawmark: {exc}") from None


# -- xdist ---------------------------------------------------------------------------------------
@pytest.hookimpl(optionalhook=True)
def pytest_xdist_make_scheduler(config: pytest.Config, log: Any) -> Any:
    """Keep a task trial's items on one worker, in order (like --dist loadscope, but by trial)."""
    from .xdist_scheduling import TrialScheduling

    if config.getoption("dist") in ("each",):
        return None
    return TrialScheduling(config, log)


@pytest.hookimpl(optionalhook=True)
def pytest_configure_node(node: Any) -> None:
    node.workerinput["clawmark_evidence"] = str(node.config.stash[SETTINGS_KEY].evidence_root)
    node.workerinput["clawmark_isolation"] = node.config.stash[SETTINGS_KEY].isolation


@pytest.hookimpl(optionalhook=True)
def pytest_testnodedown(node: Any, error: Any) -> None:
    output = getattr(node, "workeroutput", {}) or {}
    state = node.config.stash[STATE_KEY]
    for raw in json.loads(output.get("clawmark_records", "[]")):
        state.records.append(TrialRecord.from_json(raw))
    state.has_tasks = state.has_tasks or output.get("clawmark_has_tasks", False)
    node.config.stash[SETTINGS_KEY].determinism_violations.extend(output.get("clawmark_determinism", []))


# -- end of run ----------------------------------------------------------------------------------
@pytest.hookimpl(trylast=True)
def pytest_sessionfinish(session: pytest.Session, exitstatus: int) -> None:
    config = session.config
    state = config.stash[STATE_KEY]
    settings = config.stash[SETTINGS_KEY]
    if hasattr(config, "workerinput"):  # an xdist worker: hand records to the controller
        config.workeroutput["clawmark_records"] = json.dumps([r.to_json() for r in state.records])  # type: ignore[attr-defined]
        config.workeroutput["clawmark_has_tasks"] = state.has_tasks  # type: ignore[attr-defined]
        config.workeroutput["clawmark_determinism"] = list(settings.determinism_violations)  # type: ignore[attr-defined]
        return
    if not state.records:
        return
    meta = {
        "agent": settings.agent_name,
        "agent_options": _public_options(settings.agent_options),
        "clawmark_version": __version__,
        "pytest_version": pytest.__version__,
        "backend": "local",
        "isolation": settings.isolation,  # bwrap | none: what process agents ran in
        "isolation_requested": settings.isolation_requested,  # auto | bwrap | none
        "trials": settings.trials,
        "rerun_determinism": settings.rerun_determinism,
        "workers": _workers(config),
        "evidence_dir": str(settings.evidence_root),
        "started": state.started.isoformat(timespec="seconds"),
        "finished": datetime.now(timezone.utc).isoformat(timespec="seconds"),
        "interrupted": exitstatus == pytest.ExitCode.INTERRUPTED,
    }
    document = build_document(meta, state.records)
    document["determinism_violations"] = sorted(settings.determinism_violations)
    config.hook.pytest_clawmark_results(document=document)
    state.document = document
    path = config.getoption("clawmark_json")
    if path and exitstatus != pytest.ExitCode.INTERRUPTED:
        state.json_written = Path(path)
        write_atomic(state.json_written, document)

    fail_under = config.getoption("clawmark_fail_under")
    if exitstatus in (pytest.ExitCode.OK, pytest.ExitCode.TESTS_FAILED):
        if fail_under is not None:
            score = document["summary"]["score"] * 100
            ok = score >= fail_under
            state.gate_message = f"score {score:.1f} {'>=' if ok else '<'} --clawmark-fail-under {fail_under:g}"
            session.exitstatus = pytest.ExitCode.OK if ok else pytest.ExitCode.TESTS_FAILED
        if settings.determinism_violations or document["summary"]["errored_trials"]:
            session.exitstatus = pytest.ExitCode.TESTS_FAILED


def pytest_terminal_summary(terminalreporter: Any, exitstatus: int, config: pytest.Config) -> None:
    state = config.stash.get(STATE_KEY, None)
    if state is None or state.document is None:
        return
    write_summary(terminalreporter, state.document, config.stash[SETTINGS_KEY])
    if config.stash[SETTINGS_KEY].isolation_warning:  # again at the end: under xdist it is the only place
        terminalreporter.write_line(f"clawmark: WARNING: {config.stash[SETTINGS_KEY].isolation_warning}", yellow=True, bold=True)
    if state.gate_message:
        terminalreporter.write_line(f"clawmark gate: {state.gate_message}")
    if state.json_written:
        terminalreporter.write_line(f"clawmark results: {state.json_written}")
    elif config.getoption("clawmark_json"):
        terminalreporter.write_line("clawmark results: not written (the run was interrupted)")


def _public_options(options: dict[str, str]) -> dict[str, str]:
    """Agent options for the results file, with anything that looks secret masked."""
    secret = ("key", "token", "secret", "password")
    return {k: ("***" if any(s in k.lower() for s in secret) else v) for k, v in sorted(options.items())}


def _workers(config: pytest.Config) -> int:
    n = getattr(config.option, "numprocesses", None)
    try:
        return int(n or 0)
    except (TypeError, ValueError):
        return 0
