"""pytest-clawmark's pytest plugin: options, hook wiring, the end-of-run document. Thin.

Precedence of settings follows pytest-timeout's habit: command line > environment > ini.

Where the numbers come from: every process that runs trials appends each finished trial to the
run journal (:mod:`.journal`); the controller builds the results from the journal and the
run's plans, so an interrupted, crashed or resumed run reports exactly what was measured.
"""

from __future__ import annotations

import contextlib
import os
import secrets
import signal
import threading
import time
from datetime import datetime, timezone
from pathlib import Path
from typing import Any

import pytest

from . import __version__, hookspecs, journal
from .agents.base import AgentError
from .agents.limits import LimitsError, parse_limits
from .agents.registry import make_agent, parse_options, starts_processes
from .agents.sandbox import MODES as ISOLATION_MODES
from .agents.sandbox import Isolation, IsolationError, resolve_isolation
from .authoring import register_scenarios, unregister_scenarios
from .collect import (
    OPEN_RUNS,
    SETTINGS_KEY,
    CheckerItem,
    TaskModule,
    TurnItem,
    trial_of,
)
from .identity import agent_identity, public_options
from .report.progress import LiveProgress
from .report.terminal import write_summary
from .results import PlannedTrial, TrialRecord, write_atomic
from .resume import ResumeError, resolve_run_dir, resume_plan
from .scoring import COMPLETE
from .selection import close, trials_of
from .sharding import Shard, ShardError, assign, parse_shard
from .world.service import BACKENDS
from .trial import RunSettings
from .upstream import collect as upstream_collect
from .world.lease import sweep

STATE_KEY = pytest.StashKey["RunState"]()
DEFAULT_TASK_FILES = "task_*.py"
IDENTITY_FIELDS = ("agent", "agent_identity", "trials", "turn_timeout", "isolation", "agent_limits", "rerun_determinism", "clawmark_version")
"""Settings that change what a run measures: a resumed run must match its journal in all."""


class RunState:
    """The controller's (or single process's) view of the run."""

    def __init__(self) -> None:
        self.started = datetime.now(timezone.utc)
        self.document: dict[str, Any] | None = None
        self.json_written: Path | None = None
        self.has_tasks = False
        self.gate_message = ""
        self.stop_reason = ""
        self.deselected: list[pytest.Item] = []
        self.manifest: dict[str, Any] = {}
        self.shard: Shard | None = None  # --clawmark-shard: this process runs only its share of the tasks
        self.progress: LiveProgress | None = None
        self.attempt = 1
        self.keep: dict[str, list[str] | None] = {}  # resume: trial node id -> its journaled plan
        self.resumed_from: Path | None = None
        self.kept = 0
        self.preflight_done = False
        self.preflight_failed = False
        self.unreadable_lines = 0
        self.previous_signals: dict[int, Any] = {}


def pytest_addhooks(pluginmanager: pytest.PytestPluginManager) -> None:
    pluginmanager.add_hookspecs(hookspecs)


def pytest_addoption(parser: pytest.Parser) -> None:
    g = parser.getgroup("clawmark", "pytest-clawmark: living-world agent benchmark")
    g.addoption("--agent", dest="clawmark_agent", default=None, help="the agent under test (reference, noop, command, or a plugin's); env CLAWMARK_AGENT, ini clawmark_agent")
    g.addoption("--agent-option", dest="clawmark_agent_options", action="append", default=[], metavar="KEY=VALUE", help="an option for the agent adapter (repeatable)")
    g.addoption("--clawmark-json", dest="clawmark_json", default=None, metavar="PATH", help="write the results JSON here (atomically; also for interrupted runs, which say so)")
    g.addoption("--clawmark-trials", dest="clawmark_trials", type=int, default=None, metavar="N", help="run every task N times, each with a fresh world (pass@k, pass^k)")
    g.addoption("--rerun-determinism", dest="clawmark_rerun_determinism", action="store_true", default=False, help="evaluate every checker several times on the frozen post-turn state; fail on any difference")
    g.addoption("--clawmark-fail-under", dest="clawmark_fail_under", type=float, default=None, metavar="SCORE", help="exit status follows the overall weighted score (0-100) instead of checker failures; a run without a score (partial, interrupted) fails the gate")
    g.addoption("--clawmark-turn-timeout", dest="clawmark_turn_timeout", type=float, default=None, metavar="SECONDS", help="per-turn time limit of the agent (overrides the task's); env CLAWMARK_TURN_TIMEOUT, ini clawmark_turn_timeout")
    g.addoption("--clawmark-run-timeout", dest="clawmark_run_timeout", type=float, default=None, metavar="SECONDS", help="time limit of the whole run: trials still going are cut and reported as interrupted (resume them with --clawmark-resume); env CLAWMARK_RUN_TIMEOUT, ini clawmark_run_timeout")
    g.addoption("--clawmark-evidence", dest="clawmark_evidence", default=None, metavar="DIR", help="where to keep run evidence and the run journal (default .clawmark/runs/<timestamp>); must not hold another run")
    g.addoption("--clawmark-resume", dest="clawmark_resume", nargs="?", const="latest", default=None, metavar="DIR", help="continue the run whose evidence folder is DIR (default: the latest under .clawmark/runs): rerun only trials that did not finish; refuses a different agent, options, trial count or changed tasks")
    g.addoption("--agent-retries", dest="clawmark_agent_retries", type=int, default=0, metavar="N", help="re-wake the agent up to N times after an infrastructure error (provider outage, rate limit, adapter crash) that left the world untouched")
    g.addoption("--agent-retry-backoff", dest="clawmark_retry_backoff", type=float, default=2.0, metavar="SECONDS", help="wait before the first retry; doubles each time (default 2)")
    g.addoption("--agent-isolation", dest="clawmark_agent_isolation", default=None, choices=ISOLATION_MODES, help="confine agent processes: auto (bwrap if it works here, else refuse to run an agent that starts processes), bwrap (refuse to run without it), container (with --clawmark-backend=docker: the agent in its own container on its world's private network), none (no isolation, on purpose: debugging only); env CLAWMARK_AGENT_ISOLATION, ini clawmark_agent_isolation")
    g.addoption("--agent-limits", dest="clawmark_agent_limits", action="append", default=[], metavar="KEY=VALUE[,KEY=VALUE]", help="resource limits of agent processes (repeatable): processes, memory, file_size, open_files, cpu, output, evidence_file, evidence_total, cgroups; e.g. memory=8G,processes=1024 (docs/agents.md); env CLAWMARK_AGENT_LIMITS, ini clawmark_agent_limits")
    g.addoption("--upstream-exceptions", dest="clawmark_upstream_exceptions", default="ours", choices=("ours", "false", "error"), help="upstream-format tasks: a checker that raises is a failed checker with its exception recorded (ours, default), a plain False as upstream's runner counts it (false), or an error that excludes the trial (error: for task authors); docs/upstream.md")
    g.addoption("--clawmark-progress", dest="clawmark_progress", default=None, choices=("lines", "off"), help="live progress lines: agent-days starting and ending, finished trials with their scores, a heartbeat (default lines; even with -q); ini clawmark_progress")
    g.addoption("--clawmark-stream", dest="clawmark_stream", action="store_true", default=False, help="show the agent's stdout/stderr live, each line prefixed by task, trial and day (also with -s; works under -n)")
    g.addoption("--clawmark-heartbeat", dest="clawmark_heartbeat", type=float, default=None, metavar="SECONDS", help="every SECONDS, a line naming the agent-days still running (default 30; 0: none); ini clawmark_heartbeat")
    g.addoption("--clawmark-backend", dest="clawmark_backend", default=None, choices=BACKENDS, help="where the world's services run: local (embedded, default) or docker (calendar, knowledge base and spreadsheets in containers; build the images once with `clawmark images build`); env CLAWMARK_BACKEND, ini clawmark_backend (docs/containers.md)")
    g.addoption("--clawmark-shard", dest="clawmark_shard", default=None, metavar="I/N", help="run shard I of N: whole tasks (every trial), dealt deterministically by agent-days; N alone takes I from JOB_COMPLETION_INDEX (Kubernetes Indexed Jobs); join the shards' results with `clawmark merge` (docs/scale-out.md); env CLAWMARK_SHARD")
    g.addoption("--clawmark-keep-worlds", dest="clawmark_keep_worlds", action="store_true", default=False, help="keep each world's folder (workspace, service state) after its trial")
    parser.addini("clawmark_agent", "default agent under test", default="")
    parser.addini("clawmark_agent_options", "default agent options (key=value lines)", type="linelist", default=[])
    parser.addini("clawmark_task_files", "glob(s) of task module file names", type="args", default=[DEFAULT_TASK_FILES])
    parser.addini("clawmark_turn_timeout", "per-turn agent time limit in seconds", default="")
    parser.addini("clawmark_run_timeout", "time limit of the whole run in seconds", default="")
    parser.addini("clawmark_scenarios", "a project's own scenarios besides the paper's 13 (names)", type="args", default=[])
    parser.addini("clawmark_trials", "trials per task (as --clawmark-trials)", default="")
    parser.addini("clawmark_json", "write the results JSON here (as --clawmark-json)", default="")
    parser.addini("clawmark_fail_under", "exit status follows the score (as --clawmark-fail-under)", default="")
    parser.addini("clawmark_evidence", "the run's evidence folder (as --clawmark-evidence)", default="")
    parser.addini("clawmark_progress", "live progress lines: lines or off", default="")
    parser.addini("clawmark_heartbeat", "seconds between heartbeat lines (0: none)", default="")
    parser.addini("clawmark_agent_isolation", "agent isolation: auto, bwrap, container or none", default="")
    parser.addini("clawmark_backend", "where the world's services run: local or docker", default="")
    parser.addini("clawmark_agent_limits", "resource limits of agent processes (KEY=VALUE, comma- or line-separated)", type="linelist", default=[])


def _setting(config: pytest.Config, option: str, env: str, ini: str) -> str | None:
    value = config.getoption(option)
    if value not in (None, "", []):
        return str(value)
    if os.environ.get(env):
        return os.environ[env]
    ini_value = config.getini(ini)
    return str(ini_value) if ini_value else None


RUN_SETTINGS: tuple[tuple[str, str, str, type], ...] = (
    ("clawmark_trials", "CLAWMARK_TRIALS", "--clawmark-trials", int),
    ("clawmark_json", "CLAWMARK_JSON", "--clawmark-json", str),
    ("clawmark_fail_under", "CLAWMARK_FAIL_UNDER", "--clawmark-fail-under", float),
    ("clawmark_evidence", "CLAWMARK_EVIDENCE", "--clawmark-evidence", str),
)
"""Settings a project fixes in its ini file (or CI in the environment): command line > env > ini."""


def _resolve_run_settings(config: pytest.Config) -> None:
    for dest, env, flag, kind in RUN_SETTINGS:
        if config.getoption(dest) is not None:
            continue
        text = os.environ.get(env) or str(config.getini(dest) or "")
        if not text.strip():
            continue
        try:
            setattr(config.option, dest, kind(text.strip()))
        except ValueError:
            raise pytest.UsageError(f"clawmark: {flag} (ini {dest}, env {env}) takes {'a number' if kind is not str else 'a path'}, got {text!r}") from None


def _seconds(text: str | None, what: str) -> float | None:
    if not text:
        return None
    try:
        value = float(text)
    except ValueError:
        raise pytest.UsageError(f"clawmark: the {what} must be a number of seconds, got {text!r}") from None
    if not value > 0:
        raise pytest.UsageError(f"clawmark: the {what} must be positive, got {text!r}")
    return value


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line("markers", "clawmark_turn: a working day of a task (agent turn)")
    config.addinivalue_line("markers", "clawmark_checker: a weighted checker of a task")
    config.addinivalue_line("markers", "clawmark_redline: a red-line checker of a task")
    # Task modules are test modules for pytest: collected, and assertion-rewritten on import.
    patterns = config.getini("python_files")
    for pattern in config.getini("clawmark_task_files"):
        if pattern not in patterns:
            patterns.append(pattern)

    names = [*config.getini("clawmark_scenarios"), *(n for found in config.hook.pytest_clawmark_scenarios() for n in found or [])]
    bad = register_scenarios(names)
    config.stash[SCENARIOS_KEY] = [n for n in names if n not in bad]
    if bad:
        raise pytest.UsageError(f"clawmark: scenario names are lower-case identifiers (like procurement), not {', '.join(map(repr, bad))}")
    agent_name = _setting(config, "clawmark_agent", "CLAWMARK_AGENT", "clawmark_agent") or ""
    pairs = list(config.getini("clawmark_agent_options")) + list(config.getoption("clawmark_agent_options"))
    try:
        options = parse_options(pairs)
    except AgentError as exc:
        raise pytest.UsageError(f"clawmark: {exc}") from None
    _resolve_run_settings(config)
    timeout = _seconds(_setting(config, "clawmark_turn_timeout", "CLAWMARK_TURN_TIMEOUT", "clawmark_turn_timeout"), "turn timeout")
    run_timeout = _seconds(_setting(config, "clawmark_run_timeout", "CLAWMARK_RUN_TIMEOUT", "clawmark_run_timeout"), "run timeout")
    trials = config.getoption("clawmark_trials")
    if trials is None:
        trials = 1
    if trials < 1:
        raise pytest.UsageError(f"clawmark: --clawmark-trials must be at least 1, got {trials}")
    retries, backoff = config.getoption("clawmark_agent_retries"), config.getoption("clawmark_retry_backoff")
    if retries < 0 or backoff < 0:
        raise pytest.UsageError("clawmark: --agent-retries and --agent-retry-backoff take non-negative numbers")
    fail_under = config.getoption("clawmark_fail_under")
    if fail_under is not None and not 0 <= fail_under <= 100:
        raise pytest.UsageError("clawmark: --clawmark-fail-under takes a score from 0 to 100")

    try:  # per key: command line > environment > ini > defaults
        limits = parse_limits([*config.getini("clawmark_agent_limits"), os.environ.get("CLAWMARK_AGENT_LIMITS", ""), *config.getoption("clawmark_agent_limits")])
    except LimitsError as exc:
        raise pytest.UsageError(f"clawmark: {exc}") from None

    workerinput = getattr(config, "workerinput", None)
    # a worker takes the controller's resolved mode: it never silently downgrades bwrap to none
    isolation_text = (workerinput or {}).get("clawmark_isolation") or _setting(config, "clawmark_agent_isolation", "CLAWMARK_AGENT_ISOLATION", "clawmark_agent_isolation")
    try:
        isolation = resolve_isolation(isolation_text)
    except IsolationError as exc:
        raise pytest.UsageError(f"clawmark: {exc}") from None

    backend = _setting(config, "clawmark_backend", "CLAWMARK_BACKEND", "clawmark_backend") or "local"
    if backend not in BACKENDS:
        raise pytest.UsageError(f"clawmark: the backend must be one of {', '.join(BACKENDS)}, got {backend!r}")
    if isolation.mode == "container" and backend != "docker":
        raise pytest.UsageError("clawmark: --agent-isolation=container needs --clawmark-backend=docker (the agent's container joins its world's private network)")
    if backend == "docker" and agent_name and workerinput is None:
        _check_docker_backend()

    shard_text = config.getoption("clawmark_shard") or os.environ.get("CLAWMARK_SHARD")  # per machine: no ini key
    try:
        shard = parse_shard(shard_text) if shard_text else None
    except ShardError as exc:
        raise pytest.UsageError(f"clawmark: {exc}") from None

    state = RunState()
    state.shard = shard
    config.stash[STATE_KEY] = state
    if workerinput is not None and "clawmark_evidence" in workerinput:
        evidence = Path(workerinput["clawmark_evidence"])
        state.attempt = int(workerinput.get("clawmark_attempt", 1))
        state.keep = dict(workerinput.get("clawmark_keep", {}))
        state.started = datetime.fromisoformat(workerinput["clawmark_started"])
        deadline = workerinput.get("clawmark_deadline")
    else:
        evidence = _evidence_root(config, state)
        deadline = time.time() + run_timeout if run_timeout else None

    state.manifest = {
        "clawmark_version": __version__,
        "agent": agent_name,
        "agent_identity": agent_identity(agent_name, options),
        "agent_options": public_options(options),
        "trials": trials,
        "turn_timeout": timeout,
        "isolation": isolation.mode,
        "backend": backend,
        **({"shard": shard.to_json()} if shard is not None else {}),
        "agent_limits": limits.describe(),
        "rerun_determinism": config.getoption("clawmark_rerun_determinism"),
        "upstream_exceptions": config.getoption("clawmark_upstream_exceptions"),
        "rootdir": str(config.rootpath),
        "started": state.started.isoformat(timespec="seconds"),
    }
    if state.resumed_from is not None:
        _check_resume(config, state)

    def finished(record: TrialRecord) -> None:
        journal.append(evidence, record)
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
        agent_limits=limits,
        deadline=deadline,
        run_timeout=run_timeout,
        upstream_exceptions=config.getoption("clawmark_upstream_exceptions"),
        backend=backend,
    )
    if agent_name:
        _catch_termination(state)
    if workerinput is None:
        config.pluginmanager.register(FinalWord(), "clawmark-final-word")
        _CONFIG.append(config)


def _check_docker_backend() -> None:
    """Before anything runs: an engine that answers and the images built (one line each, how to fix)."""
    from .backends.images import backend_problem

    problem = backend_problem()
    if problem:
        raise pytest.UsageError(f"clawmark: --clawmark-backend=docker: {problem} (docs/containers.md)")
    from .backends.containers import remove_leftovers

    remove_leftovers()  # containers of earlier runs that were killed


def _evidence_root(config: pytest.Config, state: RunState) -> Path:
    resume = config.getoption("clawmark_resume")
    given = config.getoption("clawmark_evidence")
    if resume is not None:
        try:
            root = resolve_run_dir(resume, config.rootpath)
        except ResumeError as exc:
            raise pytest.UsageError(f"clawmark: {exc}") from None
        if given and Path(given).resolve() != root:
            raise pytest.UsageError(f"clawmark: --clawmark-evidence={given} and --clawmark-resume={root} name different runs; a resumed run continues in its own folder")
        state.resumed_from = root
        return root
    if given:
        root = Path(given).resolve()
        if journal.has_run(root):
            raise pytest.UsageError(
                f"clawmark: {root} already holds a run (its journal); continue it with --clawmark-resume={root} or choose another folder"
            )
        return root
    # the pid alone does not tell runs apart: shards in containers all run as pid 1, in the same second
    stamp = time.strftime("%Y%m%d-%H%M%S") + f"-{os.getpid()}-{secrets.token_hex(3)}"
    return config.rootpath / ".clawmark" / "runs" / stamp


def _check_resume(config: pytest.Config, state: RunState) -> None:
    assert state.resumed_from is not None
    try:
        manifest = journal.read_manifest(state.resumed_from)
        plan = resume_plan(state.resumed_from, manifest, state.manifest, IDENTITY_FIELDS, config.rootpath)
    except (ResumeError, journal.JournalError) as exc:
        raise pytest.UsageError(f"clawmark: cannot resume: {exc}") from None
    state.keep = plan.keep
    state.attempt = journal.next_attempt(state.resumed_from)
    state.started = datetime.fromisoformat(manifest["started"])
    state.manifest["started"] = manifest["started"]


def _catch_termination(state: RunState) -> None:
    """SIGTERM/SIGHUP end the run like Ctrl-C: trials are cut and journaled, worlds removed.

    Only ``kill -9`` skips that (and leaves world folders for the next run's sweep)."""
    if threading.current_thread() is not threading.main_thread():
        return

    def interrupt(signum: int, frame: Any) -> None:
        raise KeyboardInterrupt(f"terminated by {signal.Signals(signum).name}")

    for sig in (signal.SIGTERM, signal.SIGHUP):
        try:
            if signal.getsignal(sig) in (signal.SIG_DFL, None):
                state.previous_signals[sig] = signal.signal(sig, interrupt)
        except (ValueError, OSError):  # pragma: no cover - not the main thread / no such signal
            pass


def pytest_unconfigure(config: pytest.Config) -> None:
    unregister_scenarios(config.stash.get(SCENARIOS_KEY, []))
    if config in _CONFIG:
        _CONFIG.remove(config)
    state = config.stash.get(STATE_KEY, None)
    if state is None:
        return
    if state.progress is not None:
        state.progress.stop()
    for sig, previous in state.previous_signals.items():
        try:
            signal.signal(sig, previous)
        except (ValueError, OSError):  # pragma: no cover
            pass


def pytest_sessionstart(session: pytest.Session) -> None:
    config = session.config
    if hasattr(config, "workerinput") or not config.stash[SETTINGS_KEY].agent_name:
        return  # not a benchmark run (or a worker): no licence line, no search of the arguments
    _print_upstream_licence(session)
    sweep()  # world folders of runs that were killed -9 (owner provably dead)


def _start_progress(config: pytest.Config) -> None:
    """Name the evidence folder (and point ``.clawmark/runs/latest`` at it); start live progress.
    Called once the preflight passed: a run refused before it began leaves nothing behind."""
    state, settings = config.stash[STATE_KEY], config.stash[SETTINGS_KEY]
    reporter = config.pluginmanager.get_plugin("terminalreporter")
    root = settings.evidence_root
    if root.parent == config.rootpath / ".clawmark" / "runs":
        _point_latest(root)
    if reporter is None:
        return

    def write(text: str) -> None:
        if getattr(reporter._tw, "width_of_current_line", 0):  # pytest's dots or xdist's "bringing up nodes" are mid-line
            reporter._tw.line()
        reporter.write_line(text)

    write(f"clawmark evidence: {root}")
    mode = _setting(config, "clawmark_progress", "CLAWMARK_PROGRESS", "clawmark_progress") or "lines"
    if mode == "off":
        return
    beat = _seconds_or_zero(_setting(config, "clawmark_heartbeat", "CLAWMARK_HEARTBEAT", "clawmark_heartbeat"), 30.0)

    stream = bool(config.getoption("clawmark_stream")) or getattr(config.option, "capture", "") == "no"
    state.progress = LiveProgress(write, root, heartbeat=beat, stream=stream)
    state.progress.start()


def _point_latest(root: Path) -> None:
    """``.clawmark/runs/latest`` -> this run (a relative link, replaced atomically)."""
    try:
        root.mkdir(parents=True, exist_ok=True)
        tmp = root.parent / f".latest-{os.getpid()}"
        with contextlib.suppress(FileNotFoundError):
            tmp.unlink()
        os.symlink(root.name, tmp)
        os.replace(tmp, root.parent / "latest")
    except OSError:
        pass  # a convenience: a file system without links still runs


def _seconds_or_zero(text: str | None, default: float) -> float:
    if text in (None, ""):
        return default
    try:
        value = float(text)  # type: ignore[arg-type]
    except ValueError:
        raise pytest.UsageError(f"clawmark: the heartbeat must be a number of seconds (0: none), got {text!r}") from None
    if value < 0:
        raise pytest.UsageError(f"clawmark: the heartbeat must not be negative, got {text!r}")
    return value


def pytest_runtest_logstart(nodeid: str, location: tuple[str, int | None, str]) -> None:
    progress = _progress_of_current_run()
    if progress is not None and nodeid.endswith("::turn"):
        progress.day_started(nodeid)


def pytest_runtest_logreport(report: pytest.TestReport) -> None:
    progress = _progress_of_current_run()
    if progress is None:
        return
    if report.nodeid.endswith("::turn") and (report.when == "call" or (report.when == "setup" and report.outcome != "passed")):
        progress.day_finished(report.nodeid, report.outcome, dict(report.user_properties))
    progress.poll_journal()


def pytest_report_teststatus(report: pytest.TestReport, config: pytest.Config) -> tuple[str, str, Any] | None:
    """A checker that raised is an error (the task's fault, its trial excluded from scores), and says
    so: ``CHECKER ERROR`` in the short summary and ``-v``, counted with pytest's errors."""
    if report.when == "call" and report.failed and any(tuple(p) == ("outcome", "error") for p in report.user_properties):
        return "error", "E", ("CHECKER ERROR", {"red": True})
    return None


SCENARIOS_KEY = pytest.StashKey[list[str]]()
"""The project's own scenarios this run registered (forgotten at unconfigure)."""

_CONFIG: list[pytest.Config] = []
"""The current run's config (hooks without a config argument need it)."""


def _progress_of_current_run() -> LiveProgress | None:
    if not _CONFIG:
        return None
    state = _CONFIG[-1].stash.get(STATE_KEY, None)
    return state.progress if state is not None else None


def pytest_collect_file(file_path: Path, parent: pytest.Collector) -> pytest.Collector | None:
    """Task folders in the upstream ClawMark format (``<category>/<task>/task.py``)."""
    return upstream_collect.collect_file(file_path, parent)


def _print_upstream_licence(session: pytest.Session) -> None:
    """The upstream corpus's licence, once per run (by the controller, even with ``-q``)."""
    config = session.config
    if not upstream_collect.upstream_paths(list(config.args)):
        return
    config.stash[STATE_KEY].manifest["upstream_licence"] = upstream_collect.LICENCE
    reporter = config.pluginmanager.get_plugin("terminalreporter")
    if reporter is not None:
        reporter.write_line(upstream_collect.LICENCE)


def pytest_pycollect_makemodule(module_path: Path, parent: pytest.Collector) -> pytest.Module | None:
    patterns = parent.config.getini("clawmark_task_files")
    if any(module_path.match(p) for p in patterns):
        return TaskModule.from_parent(parent, path=module_path)
    return None


def pytest_deselected(items: list[pytest.Item]) -> None:
    if items:
        state = items[0].config.stash.get(STATE_KEY, None)
        if state is not None:
            state.deselected.extend(i for i in items if isinstance(i, (TurnItem, CheckerItem)))


def pytest_collection_modifyitems(session: pytest.Session, config: pytest.Config, items: list[pytest.Item]) -> None:
    state = config.stash[STATE_KEY]
    if state.shard is not None:
        _keep_shard(config, state.shard, items)
    if not any(isinstance(i, (TurnItem, CheckerItem)) for i in [*items, *state.deselected]):
        return
    state.has_tasks = True
    if config.option.collectonly or hasattr(config, "workerinput"):
        return
    _preflight(config)


def _keep_shard(config: pytest.Config, shard: Shard, items: list[pytest.Item]) -> None:
    """Deselect the tasks of the other shards (whole tasks: every trial and day)."""
    def key(item: pytest.Item) -> str:
        return item.path.relative_to(config.rootpath).as_posix() if item.path.is_relative_to(config.rootpath) else str(item.path)

    weights: dict[str, int] = {}
    for item in items:
        if isinstance(item, (TurnItem, CheckerItem)):
            weights[key(item)] = weights.get(key(item), 0) + isinstance(item, TurnItem)
    owner = assign(weights, shard.count)
    others = [i for i in items if isinstance(i, (TurnItem, CheckerItem)) and owner[key(i)] != shard.index]
    if others:
        gone = set(map(id, others))
        items[:] = [i for i in items if id(i) not in gone]
        config.hook.pytest_deselected(items=others)


def _preflight(config: pytest.Config) -> None:
    """Once per run, before any world starts: the agent can be built and can start at all.

    A missing binary or a broken sandbox is an infrastructure error, never the agent's 0%."""
    state, settings = config.stash[STATE_KEY], config.stash[SETTINGS_KEY]
    if state.preflight_done:
        return
    state.preflight_done = True
    if not settings.agent_name:
        state.preflight_failed = True
        raise pytest.UsageError("clawmark: no agent selected: pass --agent=NAME (built-ins: reference, noop, command), set CLAWMARK_AGENT, or the ini key clawmark_agent")
    try:
        agent = settings.make_agent()
        check = getattr(agent, "preflight", None)
        if callable(check):
            check(Isolation(settings.isolation))
    except (AgentError, IsolationError) as exc:
        state.preflight_failed = True
        raise pytest.UsageError(f"clawmark: the agent cannot start: {exc}") from None
    if settings.isolation_warning:  # auto found no working sandbox
        if starts_processes(agent):  # a scored run never runs an agent unconfined unless asked to by name
            state.preflight_failed = True
            raise pytest.UsageError(
                f"clawmark: --agent-isolation=auto found no working sandbox ({settings.isolation_warning}); refusing to run "
                f"the {settings.agent_name} agent's processes unconfined: install bubblewrap, or pass "
                "--agent-isolation=none to run them without isolation on purpose"
            )
        settings.isolation_warning = ""  # an in-process agent: nothing of it could be confined
    _start_progress(config)  # the run begins: name its folder, start the progress lines


@pytest.hookimpl(tryfirst=True)
def pytest_collection_finish(session: pytest.Session) -> None:
    """The selection is final: close it over each trial's dependencies, drop the trials a
    resumed run already has, and write down the plan (before xdist reports the items)."""
    config = session.config
    state = config.stash[STATE_KEY]
    if not state.has_tasks or state.preflight_failed:
        return
    closure = close(session.items, state.deselected)
    kept: list[pytest.Item] = []
    if state.keep:
        done = {t for t in trials_of(closure.items) if t.plan is not None and state.keep.get(t.nodeid, "run") == t.plan.signature()}
        kept = [i for i in closure.items if isinstance(i, (TurnItem, CheckerItem)) and trial_of(i) in done]
        closing = set(kept)
        closure.items = [i for i in closure.items if i not in closing]
        state.kept = len(done)
    session.items[:] = closure.items
    added = set(closure.added)
    reporter = config.pluginmanager.get_plugin("terminalreporter")
    if added and reporter is not None and "deselected" in reporter.stats:  # they run after all
        reporter.stats["deselected"] = [i for i in reporter.stats["deselected"] if i not in added]
    if kept:
        config.hook.pytest_deselected(items=kept)
    if config.option.collectonly:
        return
    trials = trials_of(session.items)
    planned = [PlannedTrial(t.module.task_id, t.task.scenario, t.trial_index, t.nodeid, t.module.rel_path()) for t in trials]
    root = config.stash[SETTINGS_KEY].evidence_root
    if planned or state.keep:
        journal.write_manifest(root, state.manifest)
        journal.write_plan(root, state.attempt, planned)
    if reporter is not None and not hasattr(config, "workerinput"):
        if state.resumed_from is not None:
            reporter.write_line(f"clawmark: resuming {state.resumed_from}: {state.kept} finished task trial(s) kept from its journal, {len(trials)} to run")
        if closure.partial:
            reporter.write_line(
                f"clawmark: partial selection: {len(closure.partial)} task trial(s) run only some of their checkers "
                f"(+{len(closure.added)} turn(s)/prerequisite checker(s) they depend on); they report verdicts, not scores",
                yellow=True,
            )


@pytest.hookimpl(wrapper=True)
def pytest_runtestloop(session: pytest.Session) -> Any:
    """When the test loop ends early (-x, Ctrl-C, SIGTERM, a run time limit), the trial in
    flight is cut and journaled before anything else reads the journal."""
    reason = ""
    try:
        return (yield)
    except BaseException as exc:
        reason = _why_stopped(session, exc)
        raise
    finally:
        state = session.config.stash.get(STATE_KEY, None)
        reason = reason or _why_stopped(session, None)
        if state is not None and reason:
            state.stop_reason = state.stop_reason or reason
        for run in sorted(OPEN_RUNS, key=lambda r: r.record.nodeid):
            run.cut(reason or "the test loop ended inside this trial")
            run.finish()
        OPEN_RUNS.clear()


def _why_stopped(session: pytest.Session, exc: BaseException | None) -> str:
    for flag in (session.shouldstop, session.shouldfail):
        if flag:
            return str(flag)
    if isinstance(exc, KeyboardInterrupt):
        return str(exc) or "interrupted (Ctrl-C)"
    if exc is not None:
        return f"{type(exc).__name__}: {exc}"
    return ""


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
    config = node.config
    settings, state = config.stash[SETTINGS_KEY], config.stash[STATE_KEY]
    node.workerinput["clawmark_evidence"] = str(settings.evidence_root)
    node.workerinput["clawmark_isolation"] = settings.isolation
    node.workerinput["clawmark_deadline"] = settings.deadline
    node.workerinput["clawmark_attempt"] = state.attempt
    node.workerinput["clawmark_keep"] = dict(state.keep)
    node.workerinput["clawmark_started"] = state.started.isoformat()


@pytest.hookimpl(optionalhook=True)
def pytest_xdist_node_collection_finished(node: Any, ids: list[str]) -> None:
    """The controller never collects: the first worker's items tell it a task run is starting."""
    config = node.config
    state = config.stash[STATE_KEY]
    if state.preflight_done or not any(_is_task_id(i) for i in ids):
        return
    state.has_tasks = True
    try:
        _preflight(config)
    except pytest.UsageError as exc:
        pytest.exit(str(exc), returncode=pytest.ExitCode.USAGE_ERROR)


def _is_task_id(nodeid: str) -> bool:
    parts = nodeid.split("::")
    return len(parts) >= 4 and parts[1].startswith("trial") and parts[1][5:].isdigit() and (parts[2] == "final" or parts[2].startswith("day"))


# -- end of run ----------------------------------------------------------------------------------
def _document(session: pytest.Session) -> dict[str, Any] | None:
    """The results document from the journal and the plans (the run's only source of truth)."""
    config = session.config
    state, settings = config.stash[STATE_KEY], config.stash[SETTINGS_KEY]
    if state.preflight_failed:
        return None
    meta = {
        **state.manifest,
        "pytest_version": pytest.__version__,
        "isolation_requested": settings.isolation_requested,  # auto | bwrap | none
        "run_timeout": settings.run_timeout,
        "workers": _workers(config),
        "resumed_from": str(state.resumed_from) if state.resumed_from else None,
        "finished": datetime.now(timezone.utc).isoformat(timespec="seconds"),
        "stop_reason": state.stop_reason,
    }
    return journal.document(settings.evidence_root, meta)


@pytest.hookimpl(tryfirst=True)
def pytest_sessionfinish(session: pytest.Session, exitstatus: int) -> None:
    """Early (before JUnit writes its file): the document as it stands, for JUnit's properties.
    Under xdist with Ctrl-C, workers may still be journaling; the final word is below."""
    config = session.config
    state = config.stash.get(STATE_KEY, None)
    if state is None or hasattr(config, "workerinput") or not state.has_tasks:
        return
    try:
        from _pytest.junitxml import xml_key
    except ImportError:  # pragma: no cover - pytest moved it
        return
    xml = config.stash.get(xml_key, None)
    document = _document(session) if xml is not None else None
    if document is None:
        return
    gate_ok, message = _gate(config, document)
    s = document["summary"]
    xml.add_global_property("clawmark_status", document["run"]["status"])
    xml.add_global_property("clawmark_score", "none" if s["score"] is None else f"{100 * s['score']:.4f}")
    xml.add_global_property("clawmark_task_success", "none" if s["task_success"] is None else f"{100 * s['task_success']:.4f}")
    xml.add_global_property("clawmark_redline_failed", s["redline_failed"])
    xml.add_global_property("clawmark_redline_evaluated", s["redline_evaluated"])
    xml.add_global_property("clawmark_errored_trials", s["errored_trials"])
    if gate_ok is not None:
        xml.add_global_property("clawmark_gate", f"{'passed' if gate_ok else 'failed'}: {message}")


class FinalWord:
    """The last session-finish step (a second plugin object: one module holds one hookimpl per
    hook): after xdist has shut its workers down, so every journal line is on disk."""

    @pytest.hookimpl(trylast=True)
    def pytest_sessionfinish(self, session: pytest.Session, exitstatus: int) -> None:
        _finish(session, exitstatus)


def _gate(config: pytest.Config, document: dict[str, Any]) -> tuple[bool | None, str]:
    """(None, "") without --clawmark-fail-under; else whether the run passes it, and why."""
    fail_under = config.getoption("clawmark_fail_under")
    if fail_under is None:
        return None, ""
    score = document["summary"]["score"]
    status = document["run"]["status"]
    if status != COMPLETE:
        return False, f"no score: the run is {status} (--clawmark-fail-under {fail_under:g} needs a complete run)"
    if score is None:
        return False, f"no score: no task trial could be scored (--clawmark-fail-under {fail_under:g})"
    ok = 100 * score >= fail_under
    return ok, f"score {100 * score:.1f} {'>=' if ok else '<'} --clawmark-fail-under {fail_under:g}"


def _finish(session: pytest.Session, exitstatus: int) -> None:
    config = session.config
    state = config.stash.get(STATE_KEY, None)
    if state is not None and state.progress is not None:
        state.progress.poll_journal()  # trials the workers journaled last
        state.progress.stop()
    if state is None or hasattr(config, "workerinput") or not state.has_tasks:
        return
    document = _document(session)
    if document is None:
        return
    config.hook.pytest_clawmark_results(document=document)
    state.document = document
    path = config.getoption("clawmark_json")
    if path:
        state.json_written = Path(path)
        write_atomic(state.json_written, document)
    gate_ok, state.gate_message = _gate(config, document)
    if exitstatus in (pytest.ExitCode.OK, pytest.ExitCode.TESTS_FAILED, pytest.ExitCode.INTERRUPTED):
        if gate_ok is not None and exitstatus != pytest.ExitCode.INTERRUPTED:
            session.exitstatus = pytest.ExitCode.OK if gate_ok else pytest.ExitCode.TESTS_FAILED
        if document["determinism_violations"] or document["summary"]["errored_trials"]:
            if session.exitstatus == pytest.ExitCode.OK:
                session.exitstatus = pytest.ExitCode.TESTS_FAILED


def pytest_terminal_summary(terminalreporter: Any, exitstatus: int, config: pytest.Config) -> None:
    state = config.stash.get(STATE_KEY, None)
    if state is None or state.document is None:
        return
    write_summary(terminalreporter, state.document)
    if state.gate_message:
        terminalreporter.write_line(f"clawmark gate: {state.gate_message}")
    if state.json_written:
        terminalreporter.write_line(f"clawmark results: {state.json_written}")
    terminalreporter.write_line(f"clawmark evidence: {config.stash[SETTINGS_KEY].evidence_root}")
    run = state.document["run"]
    if run["status"] == "interrupted":
        terminalreporter.write_line(f"clawmark: resume with --clawmark-resume={run['evidence_dir']}")


def _workers(config: pytest.Config) -> int:
    n = getattr(config.option, "numprocesses", None)
    try:
        return int(n or 0)
    except (TypeError, ValueError):
        return 0
