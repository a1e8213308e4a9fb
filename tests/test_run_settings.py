"""The run's options (run_settings) and state (session_state) without a pytest run.

Pure and fast: plain dictionaries stand in for the parsed command line, the ini file and the
environment; a stand-in replaces the sandbox probe. tests/test_plugin_run.py and
tests/test_honest_numbers.py show the same rules through real pytest runs.
"""

from __future__ import annotations

from argparse import ArgumentTypeError
from collections.abc import Callable
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest

from pytest_clawmark.agents.sandbox import Resolved
from pytest_clawmark.run_settings import (
    RunOptions,
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
from pytest_clawmark.session_state import ClawmarkSession, choose_evidence_root, is_worker, worker_input

DEFAULTS: dict[str, Any] = {
    "clawmark_agent": None, "clawmark_agent_options": [], "clawmark_json": None, "clawmark_trials": None,
    "clawmark_rerun_determinism": False, "clawmark_fail_under": None, "clawmark_turn_timeout": None,
    "clawmark_run_timeout": None, "clawmark_evidence": None, "clawmark_resume": None, "clawmark_agent_retries": 0,
    "clawmark_retry_backoff": 2.0, "clawmark_agent_isolation": None, "clawmark_agent_limits": [],
    "clawmark_upstream_exceptions": "ours", "clawmark_progress": None, "clawmark_stream": False,
    "clawmark_heartbeat": None, "clawmark_backend": None, "clawmark_shard": None, "clawmark_keep_worlds": False,
}  # fmt: skip
"""What pytest's parser gives when no clawmark option is on the command line."""


def sources(
    options: dict[str, Any] | None = None, ini: dict[str, Any] | None = None, env: dict[str, str] | None = None
) -> Sources:
    return Sources({**DEFAULTS, **(options or {})}, ini or {}, env or {})


def no_sandbox_probe(requested: str | None) -> Resolved:
    """Resolve --agent-isolation without probing this machine: auto is bwrap, names are themselves."""
    value = (requested or "auto").strip().lower()
    if value not in ("auto", "bwrap", "none", "container"):
        from pytest_clawmark.agents.sandbox import IsolationError

        raise IsolationError(f"--agent-isolation takes auto, bwrap, none, container, not {requested!r}")
    return Resolved(value, "bwrap" if value == "auto" else value)


def build(src: Sources, **kw: Any) -> RunOptions:
    return build_run_options(src, resolve=no_sandbox_probe, **kw)


def refusal(src: Sources, **kw: Any) -> str:
    with pytest.raises(SettingsError) as caught:
        build(src, **kw)
    return str(caught.value)


# -- type= validators (pytest prefixes "argument --flag: ") -------------------------------------
VALIDATORS: list[tuple[Callable[[str], Any], str, Any]] = [
    (trial_count, "3", 3),
    (trial_count, " 2 ", 2),
    (trial_count, "0", "must be at least 1, got 0"),
    (trial_count, "-4", "must be at least 1, got -4"),
    (trial_count, "two", "takes a whole number, got 'two'"),
    (trial_count, "1.5", "takes a whole number, got '1.5'"),
    (retry_count, "0", 0),
    (retry_count, "-1", "must not be negative, got -1"),
    (positive_seconds, "1800", 1800.0),
    (positive_seconds, "0.5", 0.5),
    (positive_seconds, "0", "must be a positive number of seconds, got '0'"),
    (positive_seconds, "-3", "must be a positive number of seconds, got '-3'"),
    (positive_seconds, "nan", "must be a positive number of seconds, got 'nan'"),
    (positive_seconds, "soon", "takes a number of seconds, got 'soon'"),
    (non_negative_seconds, "0", 0.0),
    (non_negative_seconds, "2.5", 2.5),
    (non_negative_seconds, "-0.1", "must not be negative, got '-0.1'"),
    (non_negative_seconds, "nan", "must not be negative, got 'nan'"),
    (score_percent, "0", 0.0),
    (score_percent, "100", 100.0),
    (score_percent, "85.5", 85.5),
    (score_percent, "101", "takes a score from 0 to 100, got '101'"),
    (score_percent, "-1", "takes a score from 0 to 100, got '-1'"),
    (score_percent, "high", "takes a score from 0 to 100, got 'high'"),
    (agent_option_pair, "model=gpt", "model=gpt"),
    (agent_option_pair, "empty=", "empty="),
    (agent_option_pair, "novalue", "expects key=value, got 'novalue'"),
    (agent_option_pair, "=value", "expects key=value, got '=value'"),
]


@pytest.mark.parametrize(
    ("validator", "text", "expected"), VALIDATORS, ids=[f"{v.__name__}:{t}" for v, t, _ in VALIDATORS]
)
def test_command_line_validators(validator: Callable[[str], Any], text: str, expected: Any) -> None:
    if isinstance(expected, str) and expected != text:
        with pytest.raises(ArgumentTypeError, match=f"^{expected.replace('(', '[(]').replace(')', '[)]')}$"):
            validator(text)
    else:
        assert validator(text) == expected


# -- where a setting comes from ------------------------------------------------------------------
def test_command_line_beats_environment_beats_ini() -> None:
    ini = {"clawmark_agent": "noop"}
    assert sources(ini=ini).text("clawmark_agent", "CLAWMARK_AGENT", "clawmark_agent") == "noop"
    assert (
        sources(ini=ini, env={"CLAWMARK_AGENT": "command"}).text("clawmark_agent", "CLAWMARK_AGENT", "clawmark_agent")
        == "command"
    )
    both = sources({"clawmark_agent": "reference"}, ini=ini, env={"CLAWMARK_AGENT": "command"})
    assert both.text("clawmark_agent", "CLAWMARK_AGENT", "clawmark_agent") == "reference"
    empty = sources({"clawmark_agent": ""}, ini={"clawmark_agent": ""}, env={"CLAWMARK_AGENT": ""})
    assert empty.text("clawmark_agent", "CLAWMARK_AGENT", "clawmark_agent") is None  # empty is unset, everywhere


def test_run_settings_from_ini_and_environment() -> None:
    ini = {"clawmark_trials": "2", "clawmark_json": "ini.json", "clawmark_fail_under": "99", "clawmark_evidence": "ev"}
    assert resolve_run_settings(sources(ini=ini)) == {
        "clawmark_trials": 2,
        "clawmark_json": "ini.json",
        "clawmark_fail_under": 99.0,
        "clawmark_evidence": "ev",
    }
    env = {"CLAWMARK_TRIALS": " 3 ", "CLAWMARK_JSON": "env.json"}
    got = resolve_run_settings(sources({"clawmark_trials": 1}, ini=ini, env=env))
    assert got == {
        "clawmark_trials": 1,
        "clawmark_json": "env.json",
        "clawmark_fail_under": 99.0,
        "clawmark_evidence": "ev",
    }
    assert resolve_run_settings(sources(ini={"clawmark_json": "   "})) == dict.fromkeys(got)  # blank is unset
    with pytest.raises(
        SettingsError,
        match=r"^--clawmark-fail-under \(ini clawmark_fail_under, env CLAWMARK_FAIL_UNDER\) takes a number, got 'lots'$",
    ):
        resolve_run_settings(sources(env={"CLAWMARK_FAIL_UNDER": "lots"}))


def test_defaults() -> None:
    o = build(sources())
    assert (o.agent_name, o.agent_options, o.trials, o.json_path, o.fail_under, o.evidence, o.resume) == (
        "",
        {},
        1,
        None,
        None,
        None,
        None,
    )
    assert (o.turn_timeout, o.run_timeout, o.agent_retries, o.retry_backoff) == (None, None, 0, 2.0)
    assert (o.isolation, o.backend, o.shard, o.rerun_determinism, o.keep_worlds, o.upstream_exceptions) == (
        Resolved("auto", "bwrap"),
        "local",
        None,
        False,
        False,
        "ours",
    )


def test_agent_options_join_ini_lines_and_command_line() -> None:
    o = build(
        sources(
            {"clawmark_agent_options": ["model=b", "cmd=x"]},
            ini={"clawmark_agent_options": ["model=a", "temperature=0"]},
        )
    )
    assert o.agent_options == {"model": "b", "temperature": "0", "cmd": "x"}


def test_agent_limits_per_key_command_line_beats_environment_beats_ini() -> None:
    src = sources(
        {"clawmark_agent_limits": ["memory=3G"]},
        ini={"clawmark_agent_limits": ["memory=1G", "processes=100"]},
        env={"CLAWMARK_AGENT_LIMITS": "memory=2G,open_files=64"},
    )
    limits = build(src).agent_limits
    assert limits.memory == 3 << 30 and limits.processes == 100 and limits.open_files == 64


def test_a_worker_takes_the_controllers_isolation() -> None:
    seen: list[str | None] = []

    def probe(requested: str | None) -> Resolved:
        seen.append(requested)
        return no_sandbox_probe(requested)

    build_run_options(sources({"clawmark_agent_isolation": "auto"}), worker_isolation="none", resolve=probe)
    assert seen == ["none"]  # never probes again (and never downgrades bwrap by itself)


def test_shard_from_the_command_line_or_the_environment() -> None:
    assert build(sources({"clawmark_shard": "2/4"})).shard.to_json() == {"index": 2, "count": 4}  # type: ignore[union-attr]
    assert build(sources(env={"CLAWMARK_SHARD": "4", "JOB_COMPLETION_INDEX": "0"})).shard.to_json() == {
        "index": 1,
        "count": 4,
    }  # type: ignore[union-attr]


REFUSALS: list[tuple[str, Sources, str]] = [
    ("agent_option", sources(ini={"clawmark_agent_options": ["novalue"]}), "--agent-option expects key=value, got 'novalue'"),
    ("trials_env_text", sources(env={"CLAWMARK_TRIALS": "many"}), "--clawmark-trials (ini clawmark_trials, env CLAWMARK_TRIALS) takes a number, got 'many'"),
    ("trials_env_zero", sources(env={"CLAWMARK_TRIALS": "0"}), "--clawmark-trials must be at least 1, got 0"),
    ("trials_ini_negative", sources(ini={"clawmark_trials": "-2"}), "--clawmark-trials must be at least 1, got -2"),
    ("turn_timeout_text", sources(env={"CLAWMARK_TURN_TIMEOUT": "long"}), "the turn timeout must be a number of seconds, got 'long'"),
    ("turn_timeout_zero", sources(ini={"clawmark_turn_timeout": "0"}), "the turn timeout must be positive, got '0'"),
    ("run_timeout_negative", sources(env={"CLAWMARK_RUN_TIMEOUT": "-60"}), "the run timeout must be positive, got '-60'"),
    ("retries", sources({"clawmark_agent_retries": -1}), "--agent-retries and --agent-retry-backoff take non-negative numbers"),
    ("backoff", sources({"clawmark_retry_backoff": -0.5}), "--agent-retries and --agent-retry-backoff take non-negative numbers"),
    ("fail_under", sources(ini={"clawmark_fail_under": "150"}), "--clawmark-fail-under takes a score from 0 to 100"),
    ("limits", sources(env={"CLAWMARK_AGENT_LIMITS": "memory=1"}), "agent limit memory=1 is below the least an agent process can run with (64M)"),
    ("isolation", sources(ini={"clawmark_agent_isolation": "chroot"}), "--agent-isolation takes auto, bwrap, none, container, not 'chroot'"),
    ("backend", sources(env={"CLAWMARK_BACKEND": "cloud"}), "the backend must be one of local, docker, got 'cloud'"),
    ("container_needs_docker", sources({"clawmark_agent_isolation": "container"}),
     "--agent-isolation=container needs --clawmark-backend=docker (the agent's container joins its world's private network)"),
    ("shard", sources({"clawmark_shard": "5/4"}), "--clawmark-shard: the index must be between 1 and 4, got 5"),
    ("shard_without_index", sources(env={"CLAWMARK_SHARD": "4"}), "--clawmark-shard=4: give the index (I/4) or run where JOB_COMPLETION_INDEX is set"),
]  # fmt: skip


@pytest.mark.parametrize(("case", "src", "message"), REFUSALS, ids=[r[0] for r in REFUSALS])
def test_what_the_builder_refuses(case: str, src: Sources, message: str) -> None:
    assert refusal(src) == message


def test_the_first_problem_is_the_one_reported() -> None:
    """The order of the checks is the order the plugin always had: agent options first."""
    assert refusal(
        sources(ini={"clawmark_agent_options": ["x"]}, env={"CLAWMARK_TRIALS": "0", "CLAWMARK_BACKEND": "cloud"})
    ).startswith("--agent-option")
    assert refusal(sources(env={"CLAWMARK_TRIALS": "0", "CLAWMARK_BACKEND": "cloud"})).startswith("--clawmark-trials")


def test_progress_is_read_when_the_run_begins() -> None:
    assert progress_settings(sources()) == progress_settings(sources(ini={"clawmark_progress": "lines"}))
    default = progress_settings(sources())
    assert (default.mode, default.heartbeat, default.stream) == ("lines", 30.0, False)
    assert progress_settings(sources({"clawmark_heartbeat": 0.0})).heartbeat == 0.0  # --clawmark-heartbeat=0: none
    assert progress_settings(sources(env={"CLAWMARK_HEARTBEAT": "0"})).heartbeat == 0.0
    assert (
        progress_settings(sources({"capture": "no"})).stream
        and progress_settings(sources({"clawmark_stream": True})).stream
    )
    off = progress_settings(sources(env={"CLAWMARK_PROGRESS": "off", "CLAWMARK_HEARTBEAT": "often"}))
    assert off.mode == "off"  # a bad heartbeat does not matter when there are no lines
    with pytest.raises(SettingsError, match=r"^the heartbeat must be a number of seconds \(0: none\), got 'often'$"):
        progress_settings(sources(env={"CLAWMARK_HEARTBEAT": "often"}))
    with pytest.raises(SettingsError, match=r"^the heartbeat must not be negative, got '-1'$"):
        progress_settings(sources(ini={"clawmark_heartbeat": "-1"}))


# -- the session -----------------------------------------------------------------------------------
def test_is_worker() -> None:
    controller, worker = SimpleNamespace(), SimpleNamespace(workerinput={"workerid": "gw0"})
    assert not is_worker(controller) and worker_input(controller) is None
    assert is_worker(worker) and worker_input(worker) == {"workerid": "gw0"}


def test_evidence_folder(tmp_path: Path) -> None:
    root, resumed = choose_evidence_root(build(sources()), tmp_path)
    assert root.parent == tmp_path / ".clawmark" / "runs" and resumed is None and not root.exists()
    named = tmp_path / "ev"
    assert choose_evidence_root(build(sources({"clawmark_evidence": str(named)})), tmp_path) == (named.resolve(), None)
    named.mkdir()
    (named / "journal.jsonl").write_text("")
    with pytest.raises(SettingsError, match="already holds a run"):
        choose_evidence_root(build(sources({"clawmark_evidence": str(named)})), tmp_path)
    assert choose_evidence_root(build(sources({"clawmark_resume": str(named)})), tmp_path) == (
        named.resolve(),
        named.resolve(),
    )
    with pytest.raises(SettingsError, match="name different runs"):
        choose_evidence_root(
            build(sources({"clawmark_resume": str(named), "clawmark_evidence": str(tmp_path / "other")})), tmp_path
        )
    with pytest.raises(SettingsError, match="no earlier run under"):
        choose_evidence_root(build(sources({"clawmark_resume": "latest"})), tmp_path / "elsewhere")


class Hook:
    """The config's hook relay, as the session uses it."""

    def __init__(self) -> None:
        self.finished: list[Any] = []

    def pytest_clawmark_trial_finished(self, record: Any) -> None:
        self.finished.append(record)

    def pytest_clawmark_agents(self) -> list[dict[str, Any]]:
        return [{"stub": lambda options: SimpleNamespace(options=dict(options))}]


def test_a_session_begins_and_a_worker_continues_it(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    options = build(
        sources(
            {
                "clawmark_agent": "stub",
                "clawmark_agent_options": ["token=secret-ish", "model=m"],
                "clawmark_run_timeout": 60.0,
                "clawmark_trials": 2,
            }
        )
    )
    controller = ClawmarkSession(Hook())
    controller.begin(options, tmp_path)
    settings = controller.settings
    assert (
        settings.evidence_root == controller.evidence_root
        and settings.evidence_root.parent == tmp_path / ".clawmark" / "runs"
    )
    assert (
        settings.agent_name,
        settings.trials,
        settings.isolation,
        settings.isolation_requested,
        settings.run_timeout,
    ) == ("stub", 2, "bwrap", "auto", 60.0)
    assert settings.deadline is not None and settings.deadline == controller.deadline
    assert settings.make_agent().options == {
        "token": "secret-ish",
        "model": "m",
    }  # a fresh agent from the hook's factory
    m = controller.manifest
    assert (m["agent"], m["trials"], m["isolation"], m["backend"], m["rootdir"]) == (
        "stub",
        2,
        "bwrap",
        "local",
        str(tmp_path),
    )
    assert m["agent_identity"].startswith("sha256:") and m["started"] == controller.started.isoformat(
        timespec="seconds"
    )

    controller.attempt, controller.keep = 3, {"task_a.py::trial1": None}
    handed = controller.worker_input()
    worker = ClawmarkSession(Hook())
    worker.begin(
        build(sources({"clawmark_agent": "stub"}), worker_isolation=handed["clawmark_isolation"]),
        tmp_path / "worker-rootdir",
        handed,
    )
    assert worker.evidence_root == controller.evidence_root and worker.deadline == controller.deadline
    assert (worker.attempt, worker.keep, worker.started) == (3, {"task_a.py::trial1": None}, controller.started)
    assert worker.settings.isolation == controller.settings.isolation and worker.resumed_from is None

    journaled: list[tuple[Path, Any]] = []
    monkeypatch.setattr(
        "pytest_clawmark.session_state.journal.append", lambda root, record: journaled.append((root, record))
    )
    worker.settings.on_finished("a record")  # type: ignore[arg-type]
    assert journaled == [(controller.evidence_root, "a record")] and worker.hook.finished == ["a record"]
