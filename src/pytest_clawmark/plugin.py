"""pytest-clawmark's pytest plugin: options, hook wiring, the end-of-run document. Thin.

Configuration is three steps, each testable on its own: pytest parses the command line (``type=``
validators from :mod:`.run_settings` refuse a bad value naming the option); the pure builder
:func:`.run_settings.build_run_options` resolves command line > environment > ini (pytest-timeout's
habit) into :class:`.run_settings.RunOptions`; a :class:`.session_state.ClawmarkSession` in the
config's stash holds the run's state from then on (an xdist worker takes over its controller's).

Where the numbers come from: every process that runs trials appends each finished trial to the
run journal (:mod:`.journal`); the controller builds the results from the journal and the
run's plans, so an interrupted, crashed or resumed run reports exactly what was measured.
"""

from __future__ import annotations

import contextlib
import os
import signal
import threading
from collections.abc import Iterator
from datetime import datetime, timezone
from pathlib import Path
from typing import Any

import pytest

from . import hookspecs, journal
from .agents.base import AgentError
from .agents.registry import starts_processes
from .agents.sandbox import MODES as ISOLATION_MODES
from .agents.sandbox import Isolation, IsolationError
from .authoring import register_scenarios, unregister_scenarios
from .collect import (
    OPEN_RUNS,
    SETTINGS_KEY,
    CheckerItem,
    TaskModule,
    TurnItem,
    trial_of,
)
from .report.progress import LiveProgress
from .report.terminal import write_summary
from .results import PlannedTrial, write_atomic
from .run_settings import (
    INI_KEYS,
    SettingsError,
    Sources,
    agent_option_pair,
    build_run_options,
    non_negative_seconds,
    positive_seconds,
    progress_settings,
    resolve_run_settings,
    retry_count,
    score_percent,
    trial_count,
)
from .scoring import COMPLETE
from .selection import close, trials_of
from .session_state import ClawmarkSession, is_worker, worker_input
from .sharding import Shard, assign
from .upstream import collect as upstream_collect
from .world.lease import sweep
from .world.service import BACKENDS

SESSION_KEY = pytest.StashKey[ClawmarkSession]()
DEFAULT_TASK_FILES = "task_*.py"


def pytest_addhooks(pluginmanager: pytest.PytestPluginManager) -> None:
    pluginmanager.add_hookspecs(hookspecs)


def pytest_addoption(parser: pytest.Parser) -> None:
    g = parser.getgroup("clawmark", "pytest-clawmark: living-world agent benchmark")
    g.addoption(
        "--agent",
        dest="clawmark_agent",
        default=None,
        help="the agent under test (reference, noop, command, or a plugin's); env CLAWMARK_AGENT, ini clawmark_agent",
    )
    g.addoption(
        "--agent-option",
        dest="clawmark_agent_options",
        action="append",
        default=[],
        type=agent_option_pair,
        metavar="KEY=VALUE",
        help="an option for the agent adapter (repeatable)",
    )
    g.addoption(
        "--clawmark-json",
        dest="clawmark_json",
        default=None,
        metavar="PATH",
        help="write the results JSON here (atomically; also for interrupted runs, which say so)",
    )
    g.addoption(
        "--clawmark-trials",
        dest="clawmark_trials",
        type=trial_count,
        default=None,
        metavar="N",
        help="run every task N times, each with a fresh world (pass@k, pass^k)",
    )
    g.addoption(
        "--rerun-determinism",
        dest="clawmark_rerun_determinism",
        action="store_true",
        default=False,
        help="evaluate every checker several times on the frozen post-turn state; fail on any difference",
    )
    g.addoption(
        "--clawmark-fail-under",
        dest="clawmark_fail_under",
        type=score_percent,
        default=None,
        metavar="SCORE",
        help="exit status follows the overall weighted score (0-100) instead of checker failures; a run without a score (partial, interrupted) fails the gate",
    )
    g.addoption(
        "--clawmark-turn-timeout",
        dest="clawmark_turn_timeout",
        type=positive_seconds,
        default=None,
        metavar="SECONDS",
        help="per-turn time limit of the agent (overrides the task's); env CLAWMARK_TURN_TIMEOUT, ini clawmark_turn_timeout",
    )
    g.addoption(
        "--clawmark-run-timeout",
        dest="clawmark_run_timeout",
        type=positive_seconds,
        default=None,
        metavar="SECONDS",
        help="time limit of the whole run: trials still going are cut and reported as interrupted (resume them with --clawmark-resume); env CLAWMARK_RUN_TIMEOUT, ini clawmark_run_timeout",
    )
    g.addoption(
        "--clawmark-evidence",
        dest="clawmark_evidence",
        default=None,
        metavar="DIR",
        help="where to keep run evidence and the run journal (default .clawmark/runs/<timestamp>); must not hold another run",
    )
    g.addoption(
        "--clawmark-resume",
        dest="clawmark_resume",
        nargs="?",
        const="latest",
        default=None,
        metavar="DIR",
        help="continue the run whose evidence folder is DIR (default: the latest under .clawmark/runs): rerun only trials that did not finish; refuses a different agent, options, trial count or changed tasks",
    )
    g.addoption(
        "--agent-retries",
        dest="clawmark_agent_retries",
        type=retry_count,
        default=0,
        metavar="N",
        help="re-wake the agent up to N times after an infrastructure error (provider outage, rate limit, adapter crash) that left the world untouched",
    )
    g.addoption(
        "--agent-retry-backoff",
        dest="clawmark_retry_backoff",
        type=non_negative_seconds,
        default=2.0,
        metavar="SECONDS",
        help="wait before the first retry; doubles each time (default 2)",
    )
    g.addoption(
        "--agent-isolation",
        dest="clawmark_agent_isolation",
        default=None,
        choices=ISOLATION_MODES,
        help="confine agent processes: auto (bwrap if it works here, else refuse to run an agent that starts processes), bwrap (refuse to run without it), container (with --clawmark-backend=docker: the agent in its own container on its world's private network), none (no isolation, on purpose: debugging only); env CLAWMARK_AGENT_ISOLATION, ini clawmark_agent_isolation",
    )
    g.addoption(
        "--agent-limits",
        dest="clawmark_agent_limits",
        action="append",
        default=[],
        metavar="KEY=VALUE[,KEY=VALUE]",
        help="resource limits of agent processes (repeatable): processes, memory, file_size, open_files, cpu, output, evidence_file, evidence_total, cgroups; e.g. memory=8G,processes=1024 (docs/agents.md); env CLAWMARK_AGENT_LIMITS, ini clawmark_agent_limits",
    )
    g.addoption(
        "--upstream-exceptions",
        dest="clawmark_upstream_exceptions",
        default="ours",
        choices=("ours", "false", "error"),
        help="upstream-format tasks: a checker that raises is a failed checker with its exception recorded (ours, default), a plain False as upstream's runner counts it (false), or an error that excludes the trial (error: for task authors); docs/upstream.md",
    )
    g.addoption(
        "--clawmark-progress",
        dest="clawmark_progress",
        default=None,
        choices=("lines", "off"),
        help="live progress lines: agent-days starting and ending, finished trials with their scores, a heartbeat (default lines; even with -q); ini clawmark_progress",
    )
    g.addoption(
        "--clawmark-stream",
        dest="clawmark_stream",
        action="store_true",
        default=False,
        help="show the agent's stdout/stderr live, each line prefixed by task, trial and day (also with -s; works under -n)",
    )
    g.addoption(
        "--clawmark-heartbeat",
        dest="clawmark_heartbeat",
        type=non_negative_seconds,
        default=None,
        metavar="SECONDS",
        help="every SECONDS, a line naming the agent-days still running (default 30; 0: none); ini clawmark_heartbeat",
    )
    g.addoption(
        "--clawmark-backend",
        dest="clawmark_backend",
        default=None,
        choices=BACKENDS,
        help="where the world's services run: local (embedded, default) or docker (calendar, knowledge base and spreadsheets in containers; build the images once with `clawmark images build`); env CLAWMARK_BACKEND, ini clawmark_backend (docs/containers.md)",
    )
    g.addoption(
        "--clawmark-faults",
        dest="clawmark_faults",
        default=None,
        metavar="PROFILE",
        help="inject seeded faults into the agent plane of every service (429/5xx, latency, IMAP NO/BYE/drops, SMTP 421/451): none (default), light, heavy, stream.kind=rate pairs (e.g. light,kb.rate_limit=0.2) or a .toml file; recorded in the results with a robustness figure (docs/robustness.md); env CLAWMARK_FAULTS, ini clawmark_faults",
    )
    g.addoption(
        "--clawmark-fault-seed",
        dest="clawmark_fault_seed",
        default=None,
        metavar="N",
        help="seed of the injected faults (default 0): the same seed gives the same faults at the same requests; env CLAWMARK_FAULT_SEED, ini clawmark_fault_seed",
    )
    g.addoption(
        "--clawmark-shard",
        dest="clawmark_shard",
        default=None,
        metavar="I/N",
        help="run shard I of N: whole tasks (every trial), dealt deterministically by agent-days; N alone takes I from JOB_COMPLETION_INDEX (Kubernetes Indexed Jobs); join the shards' results with `clawmark merge` (docs/scale-out.md); env CLAWMARK_SHARD",
    )
    g.addoption(
        "--clawmark-keep-worlds",
        dest="clawmark_keep_worlds",
        action="store_true",
        default=False,
        help="keep each world's folder (workspace, service state) after its trial",
    )
    parser.addini("clawmark_agent", "default agent under test", default="")
    parser.addini("clawmark_agent_options", "default agent options (key=value lines)", type="linelist", default=[])
    parser.addini("clawmark_task_files", "glob(s) of task module file names", type="args", default=[DEFAULT_TASK_FILES])
    parser.addini("clawmark_turn_timeout", "per-turn agent time limit in seconds", default="")
    parser.addini("clawmark_run_timeout", "time limit of the whole run in seconds", default="")
    parser.addini(
        "clawmark_scenarios", "a project's own scenarios besides the paper's 13 (names)", type="args", default=[]
    )
    parser.addini("clawmark_trials", "trials per task (as --clawmark-trials)", default="")
    parser.addini("clawmark_json", "write the results JSON here (as --clawmark-json)", default="")
    parser.addini("clawmark_fail_under", "exit status follows the score (as --clawmark-fail-under)", default="")
    parser.addini("clawmark_evidence", "the run's evidence folder (as --clawmark-evidence)", default="")
    parser.addini("clawmark_progress", "live progress lines: lines or off", default="")
    parser.addini("clawmark_heartbeat", "seconds between heartbeat lines (0: none)", default="")
    parser.addini("clawmark_agent_isolation", "agent isolation: auto, bwrap, container or none", default="")
    parser.addini("clawmark_backend", "where the world's services run: local or docker", default="")
    parser.addini("clawmark_faults", "fault profile of the agent plane (as --clawmark-faults)", default="")
    parser.addini("clawmark_fault_seed", "seed of the injected faults (as --clawmark-fault-seed)", default="")
    parser.addini(
        "clawmark_agent_limits",
        "resource limits of agent processes (KEY=VALUE, comma- or line-separated)",
        type="linelist",
        default=[],
    )


# -- configuration: options -> RunOptions (run_settings) -> the session (session_state) -----------
def pytest_configure(config: pytest.Config) -> None:
    _declare_markers(config)
    _collect_task_modules(config)
    session = ClawmarkSession(config.hook)
    config.stash[SESSION_KEY] = session  # first: pytest_unconfigure also cleans up after a refused run
    with _as_usage_error():
        _register_scenarios(config, session)
        sources = _sources(config)
        options = build_run_options(sources, worker_isolation=(worker_input(config) or {}).get("clawmark_isolation"))
        _publish_run_settings(config, sources)
        if options.backend == "docker" and options.agent_name and not is_worker(config):
            _check_docker_backend()
        session.begin(options, config.rootpath, worker_input(config))
    config.stash[SETTINGS_KEY] = session.settings
    if options.agent_name:
        _catch_termination(session)
    if not is_worker(config):
        config.pluginmanager.register(FinalWord(), "clawmark-final-word")
        _CONFIG.append(config)


@contextlib.contextmanager
def _as_usage_error() -> Iterator[None]:
    """A setting the run cannot start with is pytest's usage error (exit status 4), one line."""
    try:
        yield
    except SettingsError as exc:
        raise pytest.UsageError(f"clawmark: {exc}") from None


def _declare_markers(config: pytest.Config) -> None:
    config.addinivalue_line("markers", "clawmark_turn: a working day of a task (agent turn)")
    config.addinivalue_line("markers", "clawmark_checker: a weighted checker of a task")
    config.addinivalue_line("markers", "clawmark_redline: a red-line checker of a task")


def _collect_task_modules(config: pytest.Config) -> None:
    """Task modules are test modules for pytest: collected, and assertion-rewritten on import."""
    patterns = config.getini("python_files")
    for pattern in config.getini("clawmark_task_files"):
        if pattern not in patterns:
            patterns.append(pattern)


def _register_scenarios(config: pytest.Config, session: ClawmarkSession) -> None:
    """The project's own scenarios (ini key and hook); the session remembers the valid ones, which
    are forgotten at unconfigure even when a bad one refuses the run."""
    names = [
        *config.getini("clawmark_scenarios"),
        *(n for found in config.hook.pytest_clawmark_scenarios() for n in found or []),
    ]
    bad = register_scenarios(names)
    session.scenarios = [n for n in names if n not in bad]
    if bad:
        raise SettingsError(
            f"scenario names are lower-case identifiers (like procurement), not {', '.join(map(repr, bad))}"
        )


def _sources(config: pytest.Config) -> Sources:
    """Where settings come from, as plain mappings for the pure builder (run_settings)."""
    return Sources(options=vars(config.option), ini={key: config.getini(key) for key in INI_KEYS}, env=os.environ)


def _publish_run_settings(config: pytest.Config, sources: Sources) -> None:
    """``config.getoption("clawmark_json")`` & co. have always shown a value set in the ini file
    or the environment; other plugins may read them there (the builder has checked them)."""
    vars(config.option).update(resolve_run_settings(sources))


def _check_docker_backend() -> None:
    """Before anything runs: an engine that answers and the images built (one line each, how to fix)."""
    from .backends.images import backend_problem

    problem = backend_problem()
    if problem:
        raise pytest.UsageError(f"clawmark: --clawmark-backend=docker: {problem} (docs/containers.md)")
    from .backends.containers import remove_leftovers

    remove_leftovers()  # containers of earlier runs that were killed


def _catch_termination(session: ClawmarkSession) -> None:
    """SIGTERM/SIGHUP end the run like Ctrl-C: trials are cut and journaled, worlds removed.

    Only ``kill -9`` skips that (and leaves world folders for the next run's sweep)."""
    if threading.current_thread() is not threading.main_thread():
        return

    def interrupt(signum: int, frame: Any) -> None:
        raise KeyboardInterrupt(f"terminated by {signal.Signals(signum).name}")

    for sig in (signal.SIGTERM, signal.SIGHUP):
        try:
            if signal.getsignal(sig) in (signal.SIG_DFL, None):
                session.previous_signals[sig] = signal.signal(sig, interrupt)
        except (ValueError, OSError):  # pragma: no cover - not the main thread / no such signal
            pass


def pytest_unconfigure(config: pytest.Config) -> None:
    if config in _CONFIG:
        _CONFIG.remove(config)
    session = config.stash.get(SESSION_KEY, None)
    if session is None:
        return
    unregister_scenarios(session.scenarios)
    if session.progress is not None:
        session.progress.stop()
    for sig, previous in session.previous_signals.items():
        try:
            signal.signal(sig, previous)
        except (ValueError, OSError):  # pragma: no cover
            pass


def pytest_sessionstart(session: pytest.Session) -> None:
    config = session.config
    if is_worker(config) or not config.stash[SESSION_KEY].options.agent_name:
        return  # not a benchmark run (or a worker): no licence line, no search of the arguments
    _print_upstream_licence(session)
    sweep()  # world folders of runs that were killed -9 (owner provably dead)


def _start_progress(config: pytest.Config) -> None:
    """Name the evidence folder (and point ``.clawmark/runs/latest`` at it); start live progress.
    Called once the preflight passed: a run refused before it began leaves nothing behind."""
    state = config.stash[SESSION_KEY]
    reporter = config.pluginmanager.get_plugin("terminalreporter")
    root = state.evidence_root
    if root.parent == config.rootpath / ".clawmark" / "runs":
        _point_latest(root)
    if reporter is None:
        return

    def write(text: str) -> None:
        if getattr(
            reporter._tw, "width_of_current_line", 0
        ):  # pytest's dots or xdist's "bringing up nodes" are mid-line
            reporter._tw.line()
        reporter.write_line(text)

    write(f"clawmark evidence: {root}")
    with _as_usage_error():
        progress = progress_settings(_sources(config))
    if progress.mode == "off":
        return
    state.progress = LiveProgress(write, root, heartbeat=progress.heartbeat, stream=progress.stream)
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


def pytest_runtest_logstart(nodeid: str, location: tuple[str, int | None, str]) -> None:
    progress = _progress_of_current_run()
    if progress is not None and nodeid.endswith("::turn"):
        progress.day_started(nodeid)


def pytest_runtest_logreport(report: pytest.TestReport) -> None:
    progress = _progress_of_current_run()
    if progress is None:
        return
    if report.nodeid.endswith("::turn") and (
        report.when == "call" or (report.when == "setup" and report.outcome != "passed")
    ):
        progress.day_finished(report.nodeid, report.outcome, dict(report.user_properties))
    progress.poll_journal()


def pytest_report_teststatus(report: pytest.TestReport, config: pytest.Config) -> tuple[str, str, Any] | None:
    """A checker that raised is an error (the task's fault, its trial excluded from scores), and says
    so: ``CHECKER ERROR`` in the short summary and ``-v``, counted with pytest's errors."""
    if (
        report.when == "call"
        and report.failed
        and any(tuple(p) == ("outcome", "error") for p in report.user_properties)
    ):
        return "error", "E", ("CHECKER ERROR", {"red": True})
    return None


_CONFIG: list[pytest.Config] = []
"""The current run's config (hooks without a config argument need it)."""


def _progress_of_current_run() -> LiveProgress | None:
    if not _CONFIG:
        return None
    state = _CONFIG[-1].stash.get(SESSION_KEY, None)
    return state.progress if state is not None else None


def pytest_collect_file(file_path: Path, parent: pytest.Collector) -> pytest.Collector | None:
    """Task folders in the upstream ClawMark format (``<category>/<task>/task.py``)."""
    return upstream_collect.collect_file(file_path, parent)


def _print_upstream_licence(session: pytest.Session) -> None:
    """The upstream corpus's licence, once per run (by the controller, even with ``-q``)."""
    config = session.config
    if not upstream_collect.upstream_paths(list(config.args)):
        return
    config.stash[SESSION_KEY].manifest["upstream_licence"] = upstream_collect.LICENCE
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
        state = items[0].config.stash.get(SESSION_KEY, None)
        if state is not None:
            state.deselected.extend(i for i in items if isinstance(i, (TurnItem, CheckerItem)))


def pytest_collection_modifyitems(session: pytest.Session, config: pytest.Config, items: list[pytest.Item]) -> None:
    state = config.stash[SESSION_KEY]
    if state.options.shard is not None:
        _keep_shard(config, state.options.shard, items)
    if not any(isinstance(i, (TurnItem, CheckerItem)) for i in [*items, *state.deselected]):
        return
    state.has_tasks = True
    if config.option.collectonly or is_worker(config):
        return
    _preflight(config)


def _keep_shard(config: pytest.Config, shard: Shard, items: list[pytest.Item]) -> None:
    """Deselect the tasks of the other shards (whole tasks: every trial and day)."""

    def key(item: pytest.Item) -> str:
        return (
            item.path.relative_to(config.rootpath).as_posix()
            if item.path.is_relative_to(config.rootpath)
            else str(item.path)
        )

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
    state = config.stash[SESSION_KEY]
    settings = state.settings
    if state.preflight_done:
        return
    state.preflight_done = True
    if not settings.agent_name:
        state.preflight_failed = True
        raise pytest.UsageError(
            "clawmark: no agent selected: pass --agent=NAME (built-ins: reference, noop, command), set CLAWMARK_AGENT, or the ini key clawmark_agent"
        )
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
    state = config.stash[SESSION_KEY]
    if not state.has_tasks or state.preflight_failed:
        return
    closure = close(session.items, state.deselected)
    kept: list[pytest.Item] = []
    if state.keep:
        done = {
            t
            for t in trials_of(closure.items)
            if t.plan is not None and state.keep.get(t.nodeid, "run") == t.plan.signature()
        }
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
    planned = [
        PlannedTrial(t.module.task_id, t.task.scenario, t.trial_index, t.nodeid, t.module.rel_path()) for t in trials
    ]
    root = state.evidence_root
    if planned or state.keep:
        journal.write_manifest(root, state.manifest)
        journal.write_plan(root, state.attempt, planned)
    if reporter is not None and not is_worker(config):
        if state.resumed_from is not None:
            reporter.write_line(
                f"clawmark: resuming {state.resumed_from}: {state.kept} finished task trial(s) kept from its journal, {len(trials)} to run"
            )
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
        state = session.config.stash.get(SESSION_KEY, None)
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
    node.workerinput.update(config.stash[SESSION_KEY].worker_input())


@pytest.hookimpl(optionalhook=True)
def pytest_xdist_node_collection_finished(node: Any, ids: list[str]) -> None:
    """The controller never collects: the first worker's items tell it a task run is starting."""
    from .xdist_scheduling import is_task_node_id

    config = node.config
    state = config.stash[SESSION_KEY]
    if state.preflight_done or not any(is_task_node_id(i) for i in ids):
        return
    state.has_tasks = True
    try:
        _preflight(config)
    except pytest.UsageError as exc:
        pytest.exit(str(exc), returncode=pytest.ExitCode.USAGE_ERROR)


# -- end of run ----------------------------------------------------------------------------------
def _document(session: pytest.Session) -> dict[str, Any] | None:
    """The results document from the journal and the plans (the run's only source of truth)."""
    config = session.config
    state = config.stash[SESSION_KEY]
    settings = state.settings
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
    state = config.stash.get(SESSION_KEY, None)
    if state is None or is_worker(config) or not state.has_tasks:
        return
    try:
        from _pytest.junitxml import xml_key
    except ImportError:  # pragma: no cover - pytest moved it
        return
    xml = config.stash.get(xml_key, None)
    document = _document(session) if xml is not None else None
    if document is None:
        return
    gate_ok, message = _gate(config.stash[SESSION_KEY].options.fail_under, document)
    s = document["summary"]
    xml.add_global_property("clawmark_status", document["run"]["status"])
    xml.add_global_property("clawmark_score", "none" if s["score"] is None else f"{100 * s['score']:.4f}")
    xml.add_global_property(
        "clawmark_task_success", "none" if s["task_success"] is None else f"{100 * s['task_success']:.4f}"
    )
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


def _gate(fail_under: float | None, document: dict[str, Any]) -> tuple[bool | None, str]:
    """(None, "") without --clawmark-fail-under; else whether the run passes it, and why."""
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
    state = config.stash.get(SESSION_KEY, None)
    if state is not None and state.progress is not None:
        state.progress.poll_journal()  # trials the workers journaled last
        state.progress.stop()
    if state is None or is_worker(config) or not state.has_tasks:
        return
    document = _document(session)
    if document is None:
        return
    config.hook.pytest_clawmark_results(document=document)
    state.document = document
    path = state.options.json_path
    if path:
        state.json_written = Path(path)
        write_atomic(state.json_written, document)
    gate_ok, state.gate_message = _gate(state.options.fail_under, document)
    if exitstatus in (pytest.ExitCode.OK, pytest.ExitCode.TESTS_FAILED, pytest.ExitCode.INTERRUPTED):
        if gate_ok is not None and exitstatus != pytest.ExitCode.INTERRUPTED:
            session.exitstatus = pytest.ExitCode.OK if gate_ok else pytest.ExitCode.TESTS_FAILED
        if document["determinism_violations"] or document["summary"]["errored_trials"]:
            if session.exitstatus == pytest.ExitCode.OK:
                session.exitstatus = pytest.ExitCode.TESTS_FAILED


def pytest_terminal_summary(terminalreporter: Any, exitstatus: int, config: pytest.Config) -> None:
    state = config.stash.get(SESSION_KEY, None)
    if state is None or state.document is None:
        return
    write_summary(terminalreporter, state.document)
    if state.gate_message:
        terminalreporter.write_line(f"clawmark gate: {state.gate_message}")
    if state.json_written:
        terminalreporter.write_line(f"clawmark results: {state.json_written}")
    terminalreporter.write_line(f"clawmark evidence: {state.evidence_root}")
    run = state.document["run"]
    if run["status"] == "interrupted":
        terminalreporter.write_line(f"clawmark: resume with --clawmark-resume={run['evidence_dir']}")


def _workers(config: pytest.Config) -> int:
    n = getattr(config.option, "numprocesses", None)
    try:
        return int(n or 0)
    except (TypeError, ValueError):
        return 0
