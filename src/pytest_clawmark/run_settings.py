"""The run's options from the command line, the environment and the ini file: pure functions.

Why a module of its own: deciding what a run is asked to do used to be one long body inside
``pytest_configure`` that only a whole pytest run could exercise. Here plain mappings go in (the
parsed option values by ``dest``, the ini values by name, the environment) and a frozen
:class:`RunOptions` comes out, or a :class:`SettingsError` carrying the message the user sees.
Tests call it with dictionaries; the plugin turns the error into pytest's usage error.

Precedence follows pytest-timeout's habit: command line > environment > ini.

The ``type=`` validators check a command-line value while pytest parses it, so a bad one fails
with pytest's own usage error naming the option (``argument --clawmark-trials: must be at least
1, got 0``). Values that come from the environment or the ini file never pass through argparse:
:func:`build_run_options` checks them by the same rules, with the messages they always had.
"""

from __future__ import annotations

from argparse import ArgumentTypeError
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from .agents.base import AgentError
from .agents.limits import AgentLimits, LimitsError, parse_limits
from .agents.registry import parse_options
from .agents.sandbox import IsolationError, Resolved, resolve_isolation
from .faults import PROFILES, FaultProfile, FaultProfileError, parse_profile
from .sharding import Shard, ShardError, parse_shard
from .world.service import BACKENDS


class SettingsError(Exception):
    """A setting the run cannot start with; the message says which and why (no prefix)."""


# -- type= validators of command-line options (argparse adds "argument --flag: ") ----------------
def _number(text: str, kind: Callable[[str], Any], what: str) -> Any:
    try:
        return kind(text.strip())
    except ValueError:
        raise ArgumentTypeError(f"takes {what}, got {text!r}") from None


def trial_count(text: str) -> int:
    """``--clawmark-trials``: a whole number, at least 1."""
    value = _number(text, int, "a whole number")
    if value < 1:
        raise ArgumentTypeError(f"must be at least 1, got {value}")
    return value


def retry_count(text: str) -> int:
    """``--agent-retries``: a whole number, 0 or more."""
    value = _number(text, int, "a whole number")
    if value < 0:
        raise ArgumentTypeError(f"must not be negative, got {value}")
    return value


def positive_seconds(text: str) -> float:
    """``--clawmark-turn-timeout``, ``--clawmark-run-timeout``: seconds, more than 0."""
    value = _number(text, float, "a number of seconds")
    if not value > 0:
        raise ArgumentTypeError(f"must be a positive number of seconds, got {text!r}")
    return value


def non_negative_seconds(text: str) -> float:
    """``--agent-retry-backoff``, ``--clawmark-heartbeat`` (0: none): seconds, 0 or more."""
    value = _number(text, float, "a number of seconds")
    if not value >= 0:
        raise ArgumentTypeError(f"must not be negative, got {text!r}")
    return value


def score_percent(text: str) -> float:
    """``--clawmark-fail-under``: a score from 0 to 100."""
    value = _number(text, float, "a score from 0 to 100")
    if not 0 <= value <= 100:
        raise ArgumentTypeError(f"takes a score from 0 to 100, got {text!r}")
    return value


def agent_option_pair(text: str) -> str:
    """``--agent-option``: ``KEY=VALUE`` (kept as text: ini lines join them later)."""
    try:
        parse_options([text])
    except AgentError:
        raise ArgumentTypeError(f"expects key=value, got {text!r}") from None
    return text


# -- where a setting comes from ------------------------------------------------------------------
INI_KEYS: tuple[str, ...] = (
    "clawmark_agent",
    "clawmark_agent_options",
    "clawmark_turn_timeout",
    "clawmark_run_timeout",
    "clawmark_trials",
    "clawmark_json",
    "clawmark_fail_under",
    "clawmark_evidence",
    "clawmark_progress",
    "clawmark_heartbeat",
    "clawmark_agent_isolation",
    "clawmark_backend",
    "clawmark_agent_limits",
    "clawmark_faults",
    "clawmark_fault_seed",
)
"""The ini keys the options are built from (the plugin reads exactly these)."""


@dataclass(frozen=True)
class Sources:
    """Everything a setting can come from: parsed command-line values by ``dest`` (``None``:
    not given), ini values by name, and the environment."""

    options: Mapping[str, Any]
    ini: Mapping[str, Any]
    env: Mapping[str, str]

    def text(self, dest: str, env: str, ini: str) -> str | None:
        """The setting as text, command line > environment > ini; ``None`` when set nowhere."""
        value = self.options.get(dest)
        if value not in (None, "", []):
            return str(value)
        if self.env.get(env):
            return self.env[env]
        ini_value = self.ini.get(ini)
        return str(ini_value) if ini_value else None


RUN_SETTINGS: tuple[tuple[str, str, str, type], ...] = (
    ("clawmark_trials", "CLAWMARK_TRIALS", "--clawmark-trials", int),
    ("clawmark_json", "CLAWMARK_JSON", "--clawmark-json", str),
    ("clawmark_fail_under", "CLAWMARK_FAIL_UNDER", "--clawmark-fail-under", float),
    ("clawmark_evidence", "CLAWMARK_EVIDENCE", "--clawmark-evidence", str),
)
"""Settings a project fixes in its ini file (or CI in the environment): command line > env > ini.
(dest, environment variable, flag, type); the ini key is the dest."""


def resolve_run_settings(sources: Sources) -> dict[str, Any]:
    """dest -> value of :data:`RUN_SETTINGS` (``None``: set nowhere), converted to its type."""
    resolved: dict[str, Any] = {}
    for dest, env, flag, kind in RUN_SETTINGS:
        resolved[dest] = sources.options.get(dest)
        if resolved[dest] is not None:
            continue
        text = sources.env.get(env) or str(sources.ini.get(dest) or "")
        if not text.strip():
            continue
        try:
            resolved[dest] = kind(text.strip())
        except ValueError:
            raise SettingsError(
                f"{flag} (ini {dest}, env {env}) takes {'a number' if kind is not str else 'a path'}, got {text!r}"
            ) from None
    return resolved


def seconds(text: str | None, what: str) -> float | None:
    """A positive number of seconds from text (``None``/empty: not set)."""
    if not text:
        return None
    try:
        value = float(text)
    except ValueError:
        raise SettingsError(f"the {what} must be a number of seconds, got {text!r}") from None
    if not value > 0:
        raise SettingsError(f"the {what} must be positive, got {text!r}")
    return value


def heartbeat_seconds(text: str | None, default: float = 30.0) -> float:
    """Seconds between heartbeat lines (0: none) from text (``None``/empty: ``default``)."""
    if text in (None, ""):
        return default
    try:
        value = float(text)  # type: ignore[arg-type]
    except ValueError:
        raise SettingsError(f"the heartbeat must be a number of seconds (0: none), got {text!r}") from None
    if not value >= 0:
        raise SettingsError(f"the heartbeat must not be negative, got {text!r}")
    return value


@dataclass(frozen=True)
class Progress:
    """How live progress is shown: ``lines`` or ``off``, and the heartbeat (0: none)."""

    mode: str
    heartbeat: float
    stream: bool


def progress_settings(sources: Sources) -> Progress:
    """Read when the run begins (after the preflight), not at configure: a run that never starts
    never complains about its progress settings."""
    mode = sources.text("clawmark_progress", "CLAWMARK_PROGRESS", "clawmark_progress") or "lines"
    beat = (
        heartbeat_seconds(sources.text("clawmark_heartbeat", "CLAWMARK_HEARTBEAT", "clawmark_heartbeat"))
        if mode != "off"
        else 0.0
    )
    stream = bool(sources.options.get("clawmark_stream")) or sources.options.get("capture", "") == "no"
    return Progress(mode, beat, stream)


# -- the builder ---------------------------------------------------------------------------------
@dataclass(frozen=True)
class RunOptions:
    """What this run is asked to do, resolved and checked. The session turns it into the
    :class:`~pytest_clawmark.trial.RunSettings` every trial sees."""

    agent_name: str
    agent_options: dict[str, str]
    trials: int
    json_path: str | None
    fail_under: float | None
    evidence: str | None
    resume: str | None
    turn_timeout: float | None
    run_timeout: float | None
    agent_retries: int
    retry_backoff: float
    agent_limits: AgentLimits
    isolation: Resolved
    backend: str
    shard: Shard | None
    rerun_determinism: bool
    keep_worlds: bool
    upstream_exceptions: str
    faults: FaultProfile = PROFILES["none"]
    fault_seed: int = 0


def build_run_options(
    sources: Sources,
    *,
    worker_isolation: str | None = None,
    resolve: Callable[[str | None], Resolved] = resolve_isolation,
) -> RunOptions:
    """The run's options from ``sources``; raises :class:`SettingsError` on the first bad one.

    ``worker_isolation``: on an xdist worker, the controller's resolved mode (a worker never
    silently downgrades bwrap to none). ``resolve`` probes the sandbox (tests pass their own)."""
    opt = sources.options
    agent_name = sources.text("clawmark_agent", "CLAWMARK_AGENT", "clawmark_agent") or ""
    agent_options = _agent_options(sources)
    run = resolve_run_settings(sources)
    turn_timeout = seconds(
        sources.text("clawmark_turn_timeout", "CLAWMARK_TURN_TIMEOUT", "clawmark_turn_timeout"), "turn timeout"
    )
    run_timeout = seconds(
        sources.text("clawmark_run_timeout", "CLAWMARK_RUN_TIMEOUT", "clawmark_run_timeout"), "run timeout"
    )
    trials = _trials(run["clawmark_trials"])
    retries, backoff = _retries(opt.get("clawmark_agent_retries", 0), opt.get("clawmark_retry_backoff", 2.0))
    fail_under = _fail_under(run["clawmark_fail_under"])
    limits = _limits(sources)
    isolation = _isolation(
        worker_isolation
        or sources.text("clawmark_agent_isolation", "CLAWMARK_AGENT_ISOLATION", "clawmark_agent_isolation"),
        resolve,
    )
    backend = _backend(sources.text("clawmark_backend", "CLAWMARK_BACKEND", "clawmark_backend") or "local", isolation)
    faults, fault_seed = _faults(sources, backend)
    return RunOptions(
        agent_name=agent_name,
        agent_options=agent_options,
        trials=trials,
        json_path=run["clawmark_json"],
        fail_under=fail_under,
        evidence=run["clawmark_evidence"],
        resume=opt.get("clawmark_resume"),
        turn_timeout=turn_timeout,
        run_timeout=run_timeout,
        agent_retries=retries,
        retry_backoff=backoff,
        agent_limits=limits,
        isolation=isolation,
        backend=backend,
        shard=_shard(
            opt.get("clawmark_shard") or sources.env.get("CLAWMARK_SHARD"), sources.env
        ),  # per machine: no ini key
        rerun_determinism=bool(opt.get("clawmark_rerun_determinism", False)),
        keep_worlds=bool(opt.get("clawmark_keep_worlds", False)),
        upstream_exceptions=opt.get("clawmark_upstream_exceptions") or "ours",
        faults=faults,
        fault_seed=fault_seed,
    )


def _faults(sources: Sources, backend: str) -> tuple[FaultProfile, int]:
    """``--clawmark-faults`` and ``--clawmark-fault-seed`` (docs/robustness.md)."""
    try:
        profile = parse_profile(sources.text("clawmark_faults", "CLAWMARK_FAULTS", "clawmark_faults") or "none")
    except FaultProfileError as exc:
        raise SettingsError(str(exc)) from None
    seed_text = sources.text("clawmark_fault_seed", "CLAWMARK_FAULT_SEED", "clawmark_fault_seed") or "0"
    try:
        seed = int(seed_text)
    except ValueError:
        raise SettingsError(f"--clawmark-fault-seed takes a whole number, got {seed_text!r}") from None
    if seed < 0:
        raise SettingsError(f"--clawmark-fault-seed must not be negative, got {seed}")
    if profile.active and backend != "local":
        raise SettingsError(
            f"--clawmark-faults={profile.name} runs on the local backend only (the {backend} backend's servers "
            "take no fault profile yet)"
        )
    return profile, seed


def _agent_options(sources: Sources) -> dict[str, str]:
    pairs = [*(sources.ini.get("clawmark_agent_options") or []), *(sources.options.get("clawmark_agent_options") or [])]
    try:
        return parse_options(pairs)
    except AgentError as exc:
        raise SettingsError(str(exc)) from None


def _trials(value: int | None) -> int:
    trials = 1 if value is None else value
    if trials < 1:
        raise SettingsError(f"--clawmark-trials must be at least 1, got {trials}")
    return trials


def _retries(retries: int, backoff: float) -> tuple[int, float]:
    if retries < 0 or backoff < 0:
        raise SettingsError("--agent-retries and --agent-retry-backoff take non-negative numbers")
    return retries, backoff


def _fail_under(value: float | None) -> float | None:
    if value is not None and not 0 <= value <= 100:
        raise SettingsError("--clawmark-fail-under takes a score from 0 to 100")
    return value


def _limits(sources: Sources) -> AgentLimits:
    """Per key: command line > environment > ini > defaults (later entries win)."""
    entries = [
        *(sources.ini.get("clawmark_agent_limits") or []),
        sources.env.get("CLAWMARK_AGENT_LIMITS", ""),
        *(sources.options.get("clawmark_agent_limits") or []),
    ]
    try:
        return parse_limits(entries)
    except LimitsError as exc:
        raise SettingsError(str(exc)) from None


def _isolation(text: str | None, resolve: Callable[[str | None], Resolved]) -> Resolved:
    try:
        return resolve(text)
    except IsolationError as exc:
        raise SettingsError(str(exc)) from None


def _backend(backend: str, isolation: Resolved) -> str:
    if backend not in BACKENDS:
        raise SettingsError(f"the backend must be one of {', '.join(BACKENDS)}, got {backend!r}")
    if isolation.mode == "container" and backend != "docker":
        raise SettingsError(
            "--agent-isolation=container needs --clawmark-backend=docker (the agent's container joins its world's private network)"
        )
    return backend


def _shard(text: str | None, env: Mapping[str, str]) -> Shard | None:
    if not text:
        return None
    try:
        return parse_shard(text, env)
    except ShardError as exc:
        raise SettingsError(str(exc)) from None
