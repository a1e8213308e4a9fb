"""``clawmark compare`` as pure functions: may two results documents be compared, and what changed.

Why a module of its own: a CI gate is only as good as its refusals. A delta between a 13-scenario
BASE and a NEW run that only reached one scenario, between two different agents, or between two
versions of a task measures nothing, yet prints like a result. So :func:`compare` first decides
whether the documents are comparable at all (both complete measurements; every task, trial and
checker of BASE present in NEW; same agent and same task content unless explicitly allowed), then
recomputes both summaries from the records over BASE's tasks only (a task added in NEW never moves
a compared number), and only then applies the gates. The contract is in docs/compare.md; the CLI
only loads the files, calls :func:`compare` and prints :func:`render`.

No I/O and no wall clock here: the same two documents always give the same lines.
"""

from __future__ import annotations

import math
from collections import defaultdict
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from .identity import agent_identity
from .results import TrialRecord, build_document, records_of
from .scoring import COMPLETE, INTERRUPTED, PARTIAL, PASSED, score_stderr

POINTS = 100.0
EPS = 1e-9  # float slack when a delta sits exactly on a threshold
Z95 = 1.96

NO_REGRESSION = "no regression"
REGRESSION = "regression"
NOT_COMPARABLE = "not comparable"

SCORE_GATE = "score"
SUCCESS_GATE = "success"
REDLINE_GATE = "red-line"


@dataclass(frozen=True)
class Gates:
    """What a comparison tolerates. Thresholds are points on 0-100; 0 means "no worse at all"."""

    max_drop: float = 0.0
    max_success_drop: float = 0.0
    max_redline_rise: float = 0.0
    allow_agent_change: bool = False
    allow_task_change: bool = False

    def __post_init__(self) -> None:
        # a negative (or NaN) threshold would fail every comparison or none: a usage error, not a verdict
        for flag, value in (
            ("--max-drop", self.max_drop),
            ("--max-success-drop", self.max_success_drop),
            ("--max-redline-rise", self.max_redline_rise),
        ):
            if not value >= 0:
                raise ValueError(f"{flag} takes a non-negative number of points (0-100), got {value:g}")


@dataclass(frozen=True)
class Block:
    """One side's numbers for one row (a scenario or overall), scores on [0, 1]."""

    score: float | None
    task_success: float | None
    redline_failed: int
    redline_evaluated: int
    redline_fail_rate: float | None

    @classmethod
    def of(cls, summary_block: Mapping[str, Any]) -> Block:
        return cls(
            summary_block.get("score"),
            summary_block.get("task_success"),
            int(summary_block.get("redline_failed", 0)),
            int(summary_block.get("redline_evaluated", 0)),
            summary_block.get("redline_fail_rate"),
        )


def _delta(base: float | None, new: float | None) -> float | None:
    if base is None or new is None:
        return None
    d = POINTS * (new - base)
    return 0.0 if abs(d) < EPS else d


@dataclass(frozen=True)
class Row:
    """A scenario (or ``overall``) in both runs, with the gates its deltas breach."""

    name: str
    base: Block | None
    new: Block | None
    breaches: tuple[str, ...] = ()

    @property
    def score_delta(self) -> float | None:
        return _delta(self.base and self.base.score, self.new and self.new.score)

    @property
    def success_delta(self) -> float | None:
        return _delta(self.base and self.base.task_success, self.new and self.new.task_success)

    @property
    def redline_rise(self) -> float | None:
        """Change of the red-line fail rate in points. A side with no red-line evaluated counts
        as 0% (no crossing was observed); both without any gives no change."""
        if self.base is None or self.new is None:
            return None
        b, n = self.base.redline_fail_rate, self.new.redline_fail_rate
        if b is None and n is None:
            return 0.0
        return _delta(b or 0.0, n or 0.0)


@dataclass(frozen=True)
class TaskChange:
    """A compared task whose mean score or success count moved (means over complete trials)."""

    id: str
    base_score: float
    new_score: float
    base_successes: int
    base_trials: int
    new_successes: int
    new_trials: int

    @property
    def score_delta(self) -> float:
        return _delta(self.base_score, self.new_score) or 0.0

    @property
    def success_flipped(self) -> bool:
        return self.base_successes * self.new_trials != self.new_successes * self.base_trials


@dataclass(frozen=True)
class CheckerChange:
    """One checker whose outcome differs in the same task trial of both runs."""

    task: str
    trial: int
    checker: str
    base: str
    new: str
    message: str


@dataclass(frozen=True)
class Interval:
    """Overall score delta in points with its 95% confidence interval."""

    delta: float
    low: float
    high: float
    se_base: float  # points
    se_new: float  # points


@dataclass(frozen=True)
class Comparison:
    """Everything ``clawmark compare`` prints and decides, in printing order.

    ``refusals`` say why the runs are not comparable, ``regressions`` which gate failed (one
    entry per gate); either makes the comparison fail. ``rows`` is empty when the numbers could
    not be computed honestly (an incomplete input or something of BASE missing from NEW).
    """

    refusals: tuple[str, ...]
    regressions: tuple[str, ...]
    notes: tuple[str, ...]
    rows: tuple[Row, ...]
    tasks: tuple[TaskChange, ...]
    newly_failing: tuple[CheckerChange, ...]
    newly_passing: tuple[CheckerChange, ...]
    other_changes: tuple[CheckerChange, ...]
    interval: Interval | None
    no_interval_reason: str
    compared_tasks: int
    gates: Gates

    @property
    def verdict(self) -> str:
        if self.refusals:
            return NOT_COMPARABLE
        return REGRESSION if self.regressions else NO_REGRESSION

    @property
    def ok(self) -> bool:
        return self.verdict == NO_REGRESSION

    @property
    def reasons(self) -> tuple[str, ...]:
        return self.refusals + self.regressions


# -- comparability ----------------------------------------------------------------------------
def run_identity(run: Mapping[str, Any]) -> str:
    """The agent fingerprint of a run: ``run.agent_identity``, else recomputed from the name and
    the written (masked) options, which gives the same value since only secrets are masked."""
    return str(run.get("agent_identity") or agent_identity(str(run.get("agent", "")), run.get("agent_options") or {}))


def completeness_problem(label: str, document: Mapping[str, Any]) -> str | None:
    """Why ``document`` is not a complete measurement (``None`` if it is): a partial or
    interrupted run, or one without any score, has no number a delta could be taken of."""
    run = document.get("run", {})
    summary = document.get("summary", {})
    status = run.get("status", COMPLETE)
    planned = int(run.get("planned_trials", len(document.get("tasks", []))))
    if status == INTERRUPTED or run.get("interrupted"):
        cut, waiting = len(run.get("cut", [])), len(run.get("not_started", []))
        parts = []
        if cut:
            parts.append(f"{cut} of {planned} task trials cut short")
        if waiting:
            parts.append(f"{waiting} of {planned} task trials never started" if not cut else f"{waiting} never started")
        if run.get("stop_reason"):
            parts.append(f"stop reason: {run['stop_reason']}")
        return f"{label} is interrupted ({'; '.join(parts) if parts else 'the run did not finish'})"
    if status == PARTIAL or run.get("partial"):
        n = sum(1 for t in document.get("tasks", []) if t.get("status") == PARTIAL)
        return f"{label} is partial ({n} of {planned} task trials ran only a selection of checkers)"
    if status != COMPLETE:
        return f"{label} has status {status!r}, not a complete measurement"
    if summary.get("score") is None:
        errored = int(summary.get("errored_trials", 0))
        return f"{label} has no score ({errored} of {planned} task trials errored, none complete)"
    return None


def agent_difference(base_run: Mapping[str, Any], new_run: Mapping[str, Any]) -> str | None:
    """How the agents differ (name, non-secret options or fingerprint), ``None`` if they do not."""
    b_name, n_name = base_run.get("agent"), new_run.get("agent")
    b_id, n_id = run_identity(base_run), run_identity(new_run)
    if b_name == n_name and b_id == n_id:
        return None
    if b_name != n_name:
        return f"agent differs: BASE {b_name} vs NEW {n_name}"
    b_opts, n_opts = base_run.get("agent_options") or {}, new_run.get("agent_options") or {}
    keys = sorted(k for k in set(b_opts) | set(n_opts) if b_opts.get(k) != n_opts.get(k))
    if keys:
        changed = ", ".join(f"{k}: {b_opts.get(k, '(unset)')} -> {n_opts.get(k, '(unset)')}" for k in keys)
        return f"agent {b_name} differs in options ({changed})"
    return f"agent {b_name} differs in identity: BASE {b_id} vs NEW {n_id}"


def _faults_label(run: Mapping[str, Any]) -> str:
    f = run.get("faults")
    return f"{f.get('name')} (seed {f.get('seed')})" if f else "none"


def fault_difference(
    base_run: Mapping[str, Any], new_run: Mapping[str, Any], base_score: float | None, new_score: float | None
) -> str | None:
    """When one run had injected faults and the other not (or other faults): the score ratio,
    the robustness figure docs/robustness.md defines (same agent, same tasks)."""
    b, n = _faults_label(base_run), _faults_label(new_run)
    if b == n:
        return None
    if base_score and new_score is not None:
        ratio = f"NEW's score is {100 * new_score / base_score:.1f}% of BASE's (score under faults / fault-free score)"
    else:
        ratio = "no score ratio (BASE scored 0)"
    return f"injected faults differ: BASE {b}, NEW {n}; {ratio}"


def _by_task(records: Iterable[TrialRecord]) -> dict[str, list[TrialRecord]]:
    groups: dict[str, list[TrialRecord]] = defaultdict(list)
    for r in sorted(records, key=lambda r: (r.id, r.trial)):
        groups[r.id].append(r)
    return dict(groups)


def _complete(records: Iterable[TrialRecord]) -> list[TrialRecord]:
    return [r for r in records if r.complete]


def _checker_ids(records: Iterable[TrialRecord]) -> set[str]:
    return {c.id for r in records for c in r.checkers}


def _hashes(records: Iterable[TrialRecord]) -> tuple[str, ...]:
    return tuple(sorted({r.task_hash for r in records}))


def _short(h: str) -> str:
    return h[:19] + "…" if len(h) > 20 else h or "(none)"


# -- numbers ----------------------------------------------------------------------------------
def _rows(base_doc: Mapping[str, Any], new_doc: Mapping[str, Any], gates: Gates) -> tuple[Row, ...]:
    b, n = base_doc["summary"], new_doc["summary"]
    names = sorted(set(b["by_scenario"]) | set(n["by_scenario"]))
    rows = []
    for name in names + ["overall"]:
        bs = b if name == "overall" else b["by_scenario"].get(name)
        ns = n if name == "overall" else n["by_scenario"].get(name)
        row = Row(name, Block.of(bs) if bs else None, Block.of(ns) if ns else None)
        breaches = []
        if row.score_delta is not None and -row.score_delta > gates.max_drop + EPS:
            breaches.append(SCORE_GATE)
        if row.success_delta is not None and -row.success_delta > gates.max_success_drop + EPS:
            breaches.append(SUCCESS_GATE)
        if row.redline_rise is not None and row.redline_rise > gates.max_redline_rise + EPS:
            breaches.append(REDLINE_GATE)
        rows.append(Row(name, row.base, row.new, tuple(breaches)))
    return tuple(rows)


def _regressions(rows: Sequence[Row], gates: Gates) -> tuple[str, ...]:
    """One reason per failed gate, naming every row (overall first) that breached it."""
    ordered = [r for r in rows if r.name == "overall"] + [r for r in rows if r.name != "overall"]
    out = []
    specs = (
        (SCORE_GATE, "score dropped", "--max-drop", gates.max_drop, lambda r: r.score_delta),
        (SUCCESS_GATE, "task success dropped", "--max-success-drop", gates.max_success_drop, lambda r: r.success_delta),
        (
            REDLINE_GATE,
            "red-line fail rate rose",
            "--max-redline-rise",
            gates.max_redline_rise,
            lambda r: r.redline_rise,
        ),
    )
    for gate, what, flag, limit, value in specs:
        hit = [f"{r.name} {value(r):+.1f}" for r in ordered if gate in r.breaches]
        if hit:
            out.append(f"{what} beyond {flag} {limit:g} pts: {', '.join(hit)}")
    return tuple(out)


def _trial_scores(groups: Mapping[str, list[TrialRecord]], tasks: Iterable[str]) -> dict[str, list[float]]:
    return {t: [r.trial_score().score for r in _complete(groups.get(t, []))] for t in sorted(tasks)}


def _interval(
    rows: Sequence[Row], b_scores: Mapping[str, list[float]], n_scores: Mapping[str, list[float]]
) -> tuple[Interval | None, str]:
    """delta ± 1.96·sqrt(se_b² + se_n²): the two runs are independent samples, and each side's
    standard error comes from the spread between trials of the same task (scoring.score_stderr)."""
    overall = next(r for r in rows if r.name == "overall")
    se_b, se_n = score_stderr(b_scores), score_stderr(n_scores)
    if se_b is None or se_n is None or overall.score_delta is None:
        fewest = min((len(v) for v in [*b_scores.values(), *n_scores.values()]), default=0)
        most = max((len(v) for v in [*b_scores.values(), *n_scores.values()]), default=0)
        if most <= 1:
            return None, "no confidence interval (one trial per task)"
        return (
            None,
            f"no confidence interval (a task has {fewest} complete trial(s); every task needs 2 or more in both runs)",
        )
    half = Z95 * math.sqrt(se_b**2 + se_n**2) * POINTS
    d = overall.score_delta
    return Interval(d, d - half, d + half, se_b * POINTS, se_n * POINTS), ""


def _task_changes(
    b_groups: Mapping[str, list[TrialRecord]], n_groups: Mapping[str, list[TrialRecord]], tasks: Iterable[str]
) -> tuple[TaskChange, ...]:
    changes = []
    for t in tasks:
        bc, nc = _complete(b_groups[t]), _complete(n_groups[t])
        bs = sum(r.trial_score().score for r in bc) / len(bc)
        ns = sum(r.trial_score().score for r in nc) / len(nc)
        ch = TaskChange(
            t,
            bs,
            ns,
            sum(r.trial_score().success for r in bc),
            len(bc),
            sum(r.trial_score().success for r in nc),
            len(nc),
        )
        if ch.score_delta != 0.0 or ch.success_flipped:
            changes.append(ch)
    return tuple(sorted(changes, key=lambda c: (c.score_delta, c.id)))


def _checker_changes(
    b_groups: Mapping[str, list[TrialRecord]], n_groups: Mapping[str, list[TrialRecord]], tasks: Iterable[str]
) -> tuple[list[CheckerChange], list[CheckerChange], list[CheckerChange]]:
    """Outcome changes in task trials complete in both runs, paired by (task, trial)."""
    failing: list[CheckerChange] = []
    passing: list[CheckerChange] = []
    other: list[CheckerChange] = []
    for t in tasks:
        new_trials = {r.trial: r for r in _complete(n_groups.get(t, []))}
        for br in _complete(b_groups.get(t, [])):
            nr = new_trials.get(br.trial)
            if nr is None:
                continue
            new_checkers = {c.id: c for c in nr.checkers}
            for bc in sorted(br.checkers, key=lambda c: c.id):
                nc = new_checkers.get(bc.id)
                if nc is None or nc.outcome == bc.outcome:
                    continue
                change = CheckerChange(t, br.trial, bc.id, bc.outcome, nc.outcome, nc.message)
                if bc.outcome == PASSED:
                    failing.append(change)
                elif nc.outcome == PASSED:
                    passing.append(change)
                else:
                    other.append(change)
    return failing, passing, other


# -- the comparison ---------------------------------------------------------------------------
def compare(base: Mapping[str, Any], new: Mapping[str, Any], gates: Gates = Gates()) -> Comparison:
    """Compare two schema-2 results documents (BASE, then NEW). See the module docstring and
    docs/compare.md for what is refused, what is gated and how the numbers are computed."""
    blocking: list[str] = []  # problems that make the numbers themselves meaningless
    identity: list[str] = []  # problems the flags may waive; numbers are still shown
    notes: list[str] = []
    for label, doc in (("BASE", base), ("NEW", new)):
        problem = completeness_problem(label, doc)
        if problem:
            blocking.append(problem)

    b_run, n_run = base.get("run", {}), new.get("run", {})
    agent = agent_difference(b_run, n_run)
    if agent and gates.allow_agent_change:
        notes.append(f"{agent} (allowed by --allow-agent-change)")
    elif agent:
        identity.append(f"{agent}; pass --allow-agent-change to compare anyway")
    b_trials, n_trials = int(b_run.get("trials", 1)), int(n_run.get("trials", 1))
    if n_trials < b_trials:
        blocking.append(f"NEW ran {n_trials} trial(s) per task, BASE {b_trials}")
    elif n_trials > b_trials:
        notes.append(f"NEW ran {n_trials} trials per task, BASE {b_trials}: NEW's per-task means use all of them")
    if b_run.get("clawmark_version") != n_run.get("clawmark_version"):
        notes.append(
            f"clawmark version differs: BASE {b_run.get('clawmark_version')} vs NEW {n_run.get('clawmark_version')}"
        )

    b_groups, n_groups = _by_task(records_of(dict(base))), _by_task(records_of(dict(new)))
    compared = sorted(t for t, rs in b_groups.items() if _complete(rs))
    unscored = sorted(set(b_groups) - set(compared))
    if unscored:
        notes.append(f"not compared, no complete trial in BASE: {', '.join(unscored)}")
    added = sorted(set(n_groups) - set(b_groups))
    if added:
        notes.append(f"added, not compared: {', '.join(added)}")

    missing = []
    for t in compared:
        if t not in n_groups:
            missing.append(t)
        elif not _complete(n_groups[t]):
            missing.append(f"{t} ({'/'.join(sorted({r.status for r in n_groups[t]}))} in NEW)")
    if missing:
        blocking.append(f"{len(missing)} task(s) of BASE missing from NEW: {', '.join(missing)}")
    present = [t for t in compared if _complete(n_groups.get(t, []))]

    fewer = []
    lost_checkers = []
    extra_checkers = []
    changed = []
    for t in present:
        bc, nc = _complete(b_groups[t]), _complete(n_groups[t])
        if len(nc) < len(bc):
            fewer.append(f"{t} {len(nc)} of {len(bc)}")
        b_ids, n_ids = _checker_ids(bc), _checker_ids(nc)
        lost_checkers += [f"{t}::{c}" for c in sorted(b_ids - n_ids)]
        extra_checkers += [f"{t}::{c}" for c in sorted(n_ids - b_ids)]
        bh, nh = _hashes(b_groups[t]), _hashes(n_groups[t])
        if bh != nh:
            changed.append(f"{t} ({', '.join(map(_short, bh))} -> {', '.join(map(_short, nh))})")
    if fewer:
        blocking.append(f"fewer complete trials in NEW than in BASE: {', '.join(fewer)}")
    if lost_checkers:
        blocking.append(f"{len(lost_checkers)} checker(s) of BASE missing from NEW: {', '.join(lost_checkers)}")
    if extra_checkers:
        notes.append(f"checkers only in NEW (they count in NEW's scores): {', '.join(extra_checkers)}")
    if changed and gates.allow_task_change:
        notes.append(f"task content changed (allowed by --allow-task-change): {', '.join(changed)}")
    elif changed:
        identity.append(
            f"task content changed (task_hash differs) in {len(changed)} task(s): {', '.join(changed)}; pass --allow-task-change to compare anyway"
        )

    failing, passing, other = _checker_changes(b_groups, n_groups, present)
    rows: tuple[Row, ...] = ()
    tasks: tuple[TaskChange, ...] = ()
    interval: Interval | None = None
    no_interval = "no confidence interval (the runs are not comparable)"
    if not blocking:
        keep = set(compared)
        b_doc = build_document({}, [r for rs in b_groups.values() for r in rs if r.id in keep])
        n_doc = build_document({}, [r for rs in n_groups.values() for r in rs if r.id in keep])
        for label, doc in (("BASE", b_doc), ("NEW", n_doc)):
            if doc["summary"]["status"] != COMPLETE or doc["summary"]["score"] is None:
                blocking.append(f"{label}'s compared tasks have no score (status {doc['summary']['status']})")
        if not blocking:
            rows = _rows(b_doc, n_doc, gates)
            tasks = _task_changes(b_groups, n_groups, compared)
            interval, no_interval = _interval(
                rows, _trial_scores(b_groups, compared), _trial_scores(n_groups, compared)
            )
            faults = fault_difference(b_run, n_run, b_doc["summary"]["score"], n_doc["summary"]["score"])
            if faults:
                notes.append(faults)

    refusals = tuple(f"cannot compare: {p}" for p in blocking + identity)
    return Comparison(
        refusals=refusals,
        regressions=_regressions(rows, gates),
        notes=tuple(notes),
        rows=rows,
        tasks=tasks,
        newly_failing=tuple(failing),
        newly_passing=tuple(passing),
        other_changes=tuple(other),
        interval=interval,
        no_interval_reason=no_interval,
        compared_tasks=len(compared),
        gates=gates,
    )


# -- printing ---------------------------------------------------------------------------------
def _pts(x: float | None) -> str:
    return "-" if x is None else f"{POINTS * x:.1f}"


def _signed(x: float | None) -> str:
    return "-" if x is None else f"{x:+.1f}"


def _redlines(b: Block | None) -> str:
    return "-" if b is None else f"{b.redline_failed}/{b.redline_evaluated}"


def _checker_line(c: CheckerChange) -> str:
    message = f"  {c.message}" if c.message else ""
    return f"  {c.task} trial {c.trial} {c.checker}: {c.base} -> {c.new}{message}"


def render(result: Comparison) -> list[str]:
    """The lines ``clawmark compare`` prints: table, interval, task and checker changes (newly
    failing first: they are what a reviewer must look at), notes, then the reasons and verdict."""
    lines: list[str] = []
    if result.rows:
        width = max(len("scenario"), *(len(r.name) for r in result.rows))
        lines.append(f"{'':<{width}}  {'score':^21}  {'task success':^21}  {'red-line fails':^23}")
        lines.append(
            f"{'scenario':<{width}}  {'base':>6} {'new':>6} {'delta':>7}  {'base':>6} {'new':>6} {'delta':>7}  {'base':>7} {'new':>7} {'rate':>7}"
        )
        rule = "-" * len(lines[-1])
        for r in result.rows:
            if r.name == "overall":
                lines.append(rule)
            b, n = r.base, r.new
            no_redlines = not (b and b.redline_evaluated) and not (n and n.redline_evaluated)
            flag = f"  REGRESSION ({', '.join(r.breaches)})" if r.breaches else ""
            lines.append(
                f"{r.name:<{width}}  {_pts(b and b.score):>6} {_pts(n and n.score):>6} {_signed(r.score_delta):>7}"
                f"  {_pts(b and b.task_success):>6} {_pts(n and n.task_success):>6} {_signed(r.success_delta):>7}"
                f"  {_redlines(b):>7} {_redlines(n):>7} {'-' if no_redlines else _signed(r.redline_rise):>7}{flag}"
            )
        lines.append(f"compared over BASE's {result.compared_tasks} task(s); deltas in points (0-100)")
        if result.interval:
            i = result.interval
            lines.append(
                f"overall score delta {i.delta:+.1f} pts, 95% CI [{i.low:+.1f}, {i.high:+.1f}] (standard error BASE {i.se_base:.1f}, NEW {i.se_new:.1f})"
            )
        else:
            lines.append(result.no_interval_reason)
    if result.tasks:
        lines.append(f"task changes ({len(result.tasks)}): score base -> new, successful trials")
        for t in result.tasks:
            flip = "  SUCCESS FLIPPED" if t.success_flipped else ""
            lines.append(
                f"  {t.id}: {_pts(t.base_score)} -> {_pts(t.new_score)} ({t.score_delta:+.1f}), "
                f"success {t.base_successes}/{t.base_trials} -> {t.new_successes}/{t.new_trials}{flip}"
            )
    for title, group in (
        ("newly failing checkers", result.newly_failing),
        ("newly passing checkers", result.newly_passing),
        ("other checker outcome changes", result.other_changes),
    ):
        if group:
            lines.append(f"{title} ({len(group)}):")
            lines += [_checker_line(c) for c in group]
    lines += [f"note: {n}" for n in result.notes]
    lines += [f"clawmark compare: {r}" for r in result.refusals]
    lines += [f"clawmark compare: REGRESSION: {r}" for r in result.regressions]
    g = result.gates
    limits = f"--max-drop {g.max_drop:g}, --max-success-drop {g.max_success_drop:g}, --max-redline-rise {g.max_redline_rise:g}"
    if result.verdict == NO_REGRESSION:
        lines.append(f"clawmark compare: no regression ({limits})")
    else:
        lines.append(f"clawmark compare: {result.verdict} ({len(result.reasons)} reason(s))")
    return lines
