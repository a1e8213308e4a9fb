"""One pytest-clawmark run's state, in one object held in the config's stash.

Why: the run's state used to be spread over a ``RunState``, separate stash entries and closures
inside ``pytest_configure`` (the agent factory, the journal writer). One object, stashed first
thing at configure, gives every hook one place to look and ``pytest_unconfigure`` one thing to
clean up, even after configure refused the run half-way.

Also here: whether this process is an xdist worker, and what a worker takes over from its
controller (the evidence folder, the attempt, the trials a resumed run keeps, the start, the
deadline and the resolved isolation), so that every process of a run measures the same run.
"""

from __future__ import annotations

import os
import secrets
import time
from collections.abc import Mapping
from datetime import datetime, timezone
from pathlib import Path
from typing import TYPE_CHECKING, Any

from . import __version__, journal
from .agents.registry import make_agent
from .identity import agent_identity, public_options
from .resume import ResumeError, resolve_run_dir, resume_plan
from .run_settings import RunOptions, SettingsError
from .trial import RunSettings

if TYPE_CHECKING:
    import pytest

    from .report.progress import LiveProgress
    from .results import TrialRecord

IDENTITY_FIELDS = (
    "agent",
    "agent_identity",
    "trials",
    "turn_timeout",
    "isolation",
    "agent_limits",
    "rerun_determinism",
    "faults",
    "clawmark_version",
)
"""Settings that change what a run measures: a resumed run must match its journal in all."""


def is_worker(config: Any) -> bool:
    """True in an xdist worker process (its controller hands it a ``workerinput``)."""
    return hasattr(config, "workerinput")


def worker_input(config: Any) -> Mapping[str, Any] | None:
    """What the controller handed this worker; ``None`` in the controller or without xdist."""
    return getattr(config, "workerinput", None)


def choose_evidence_root(options: RunOptions, rootdir: Path) -> tuple[Path, Path | None]:
    """(the run's evidence folder, the run it resumes or ``None``).

    A resumed run continues in its own folder; a named folder must not hold another run; by
    default a new folder under ``.clawmark/runs``."""
    if options.resume is not None:
        try:
            root = resolve_run_dir(options.resume, rootdir)
        except ResumeError as exc:
            raise SettingsError(str(exc)) from None
        if options.evidence and Path(options.evidence).resolve() != root:
            raise SettingsError(
                f"--clawmark-evidence={options.evidence} and --clawmark-resume={root} name different runs; a resumed run continues in its own folder"
            )
        return root, root
    if options.evidence:
        root = Path(options.evidence).resolve()
        if journal.has_run(root):
            raise SettingsError(
                f"{root} already holds a run (its journal); continue it with --clawmark-resume={root} or choose another folder"
            )
        return root, None
    # the pid alone does not tell runs apart: shards in containers all run as pid 1, in the same second
    stamp = time.strftime("%Y%m%d-%H%M%S") + f"-{os.getpid()}-{secrets.token_hex(3)}"
    return rootdir / ".clawmark" / "runs" / stamp, None


class ClawmarkSession:
    """The controller's (or single process's, or a worker's) view of the run.

    Created empty at configure (so that cleanup always finds it); :meth:`begin` fixes the
    options, the evidence folder and what trials see (:attr:`settings`)."""

    options: RunOptions
    settings: RunSettings  # what every trial sees (collect.SETTINGS_KEY holds the same object)
    evidence_root: Path
    deadline: float | None  # time.time() when the run's time limit ends

    def __init__(self, hook: Any) -> None:
        self.hook = hook  # the config's hook relay: agents from plugins, trial-finished listeners
        self.scenarios: list[str] = []  # the project's own scenarios this run registered
        self.started = datetime.now(timezone.utc)
        self.document: dict[str, Any] | None = None
        self.json_written: Path | None = None
        self.has_tasks = False
        self.gate_message = ""
        self.stop_reason = ""
        self.deselected: list[pytest.Item] = []
        self.manifest: dict[str, Any] = {}
        self.progress: LiveProgress | None = None
        self.attempt = 1
        self.keep: dict[str, list[str] | None] = {}  # resume: trial node id -> its journaled plan
        self.resumed_from: Path | None = None
        self.kept = 0
        self.preflight_done = False
        self.preflight_failed = False
        self.previous_signals: dict[int, Any] = {}

    # -- the run begins ------------------------------------------------------------------------
    def begin(self, options: RunOptions, rootdir: Path, workerinput: Mapping[str, Any] | None = None) -> None:
        """Fix the options and the evidence folder (a worker takes its controller's), describe
        the run for its journal, check a resumed run against its own, build the trials' settings.
        Raises :class:`SettingsError` when the run cannot start so."""
        self.options = options
        if workerinput is not None and "clawmark_evidence" in workerinput:
            self.evidence_root, self.deadline = self._take_over(workerinput)
        else:
            self.evidence_root, self.resumed_from = choose_evidence_root(options, rootdir)
            self.deadline = time.time() + options.run_timeout if options.run_timeout else None
        self.manifest = self.describe(rootdir)
        if self.resumed_from is not None:
            self._resume(rootdir)
        self.settings = self._run_settings()

    def _take_over(self, workerinput: Mapping[str, Any]) -> tuple[Path, float | None]:
        """An xdist worker continues its controller's run: (evidence folder, deadline)."""
        self.attempt = int(workerinput.get("clawmark_attempt", 1))
        self.keep = dict(workerinput.get("clawmark_keep", {}))
        self.started = datetime.fromisoformat(workerinput["clawmark_started"])
        return Path(workerinput["clawmark_evidence"]), workerinput.get("clawmark_deadline")

    def worker_input(self) -> dict[str, Any]:
        """What a worker needs of this controller to continue the same run (see :meth:`_take_over`)."""
        return {
            "clawmark_evidence": str(self.settings.evidence_root),
            "clawmark_isolation": self.settings.isolation,
            "clawmark_deadline": self.settings.deadline,
            "clawmark_attempt": self.attempt,
            "clawmark_keep": dict(self.keep),
            "clawmark_started": self.started.isoformat(),
        }

    def describe(self, rootdir: Path) -> dict[str, Any]:
        """The run's manifest: what it measures (a resumed run must match it, :data:`IDENTITY_FIELDS`)."""
        o = self.options
        return {
            "clawmark_version": __version__,
            "agent": o.agent_name,
            "agent_identity": agent_identity(o.agent_name, o.agent_options),
            "agent_options": public_options(o.agent_options),
            "trials": o.trials,
            "turn_timeout": o.turn_timeout,
            "isolation": o.isolation.mode,
            "backend": o.backend,
            **({"shard": o.shard.to_json()} if o.shard is not None else {}),
            "agent_limits": o.agent_limits.describe(),
            "rerun_determinism": o.rerun_determinism,
            "upstream_exceptions": o.upstream_exceptions,
            **({"faults": {**o.faults.to_json(), "seed": o.fault_seed}} if o.faults.active else {}),
            "rootdir": str(rootdir),
            "started": self.started.isoformat(timespec="seconds"),
        }

    def _resume(self, rootdir: Path) -> None:
        """Continue the journaled run: keep its finished trials, count this as its next attempt."""
        assert self.resumed_from is not None
        try:
            manifest = journal.read_manifest(self.resumed_from)
            plan = resume_plan(self.resumed_from, manifest, self.manifest, IDENTITY_FIELDS, rootdir)
        except (ResumeError, journal.JournalError) as exc:
            raise SettingsError(f"cannot resume: {exc}") from None
        self.keep = plan.keep
        self.attempt = journal.next_attempt(self.resumed_from)
        self.started = datetime.fromisoformat(manifest["started"])
        self.manifest["started"] = manifest["started"]

    def _run_settings(self) -> RunSettings:
        o = self.options
        return RunSettings(
            agent_name=o.agent_name,
            agent_options=o.agent_options,
            make_agent=self.new_agent,
            evidence_root=self.evidence_root,
            turn_timeout=o.turn_timeout,
            trials=o.trials,
            rerun_determinism=o.rerun_determinism,
            keep_worlds=o.keep_worlds,
            agent_retries=o.agent_retries,
            retry_backoff=o.retry_backoff,
            on_finished=self.trial_finished,
            isolation=o.isolation.mode,
            isolation_requested=o.isolation.requested,
            isolation_warning=o.isolation.warning,
            agent_limits=o.agent_limits,
            deadline=self.deadline,
            run_timeout=o.run_timeout,
            upstream_exceptions=o.upstream_exceptions,
            backend=o.backend,
            faults=o.faults,
            fault_seed=o.fault_seed,
        )

    # -- what trials call back -----------------------------------------------------------------
    def new_agent(self) -> Any:
        """A fresh agent of the run's kind and options (one per trial)."""
        return make_agent(self.options.agent_name, self.options.agent_options, self.hook)

    def trial_finished(self, record: TrialRecord) -> None:
        """Journal a finished trial (the run's only source of truth), then tell the listeners."""
        journal.append(self.evidence_root, record)
        self.hook.pytest_clawmark_trial_finished(record=record)
