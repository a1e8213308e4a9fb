"""``clawmark compare`` and ``clawmark merge`` refuse what is not comparable (docs/compare.md).

Documents are built from records with results.build_document (no pytest runs): each test states
exactly which trials and checker outcomes the two runs hold. Exit codes come from the real CLI
in a subprocess; the printed content from comparison.compare / render.
"""

from __future__ import annotations

import json
import math
import statistics
import subprocess
import sys
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

import pytest

from pytest_clawmark.comparison import NO_REGRESSION, NOT_COMPARABLE, REGRESSION, Gates, compare, render
from pytest_clawmark.identity import agent_identity, public_options
from pytest_clawmark.results import CheckerRecord, PlannedTrial, TrialRecord, build_document, write_atomic

CLI = [sys.executable, "-m", "pytest_clawmark.cli"]


# -- building documents -----------------------------------------------------------------------
def rec(
    task: str,
    outcomes: Mapping[str, str],
    trial: int = 1,
    status: str = "complete",
    task_hash: str = "",
    redlines: Sequence[str] = (),
    messages: Mapping[str, str] | None = None,
) -> TrialRecord:
    """One task trial; ``outcomes`` maps checker id -> outcome (weight 1 each)."""
    checkers = [
        CheckerRecord(
            id=c,
            day=1,
            weight=1.0,
            kind="deliverable",
            redline="privacy" if c in redlines else None,
            outcome=o,
            message=(messages or {}).get(c, ""),
        )
        for c, o in outcomes.items()
    ]
    return TrialRecord(
        id=task,
        scenario=task.split("/")[0],
        role="assistant",
        trial=trial,
        nodeid=f"tasks/{task}.py",
        agent="reference",
        task_file=f"tasks/{task}.py",
        task_hash=task_hash or f"sha256:{task}-v1",
        status=status,
        checkers=checkers,
    )


def planned(task: str, trial: int = 1) -> PlannedTrial:
    return PlannedTrial(task, task.split("/")[0], trial, f"tasks/{task}.py", f"tasks/{task}.py")


def meta(
    agent: str = "reference", options: Mapping[str, str] | None = None, trials: int = 1, version: str = "0.1.0"
) -> dict[str, Any]:
    opts = dict(options or {})
    return {
        "agent": agent,
        "agent_options": public_options(opts),
        "agent_identity": agent_identity(agent, opts),
        "clawmark_version": version,
        "trials": trials,
    }


def doc(records: Sequence[TrialRecord], not_started: Sequence[PlannedTrial] = (), **run: Any) -> dict[str, Any]:
    return build_document(meta(**run), list(records), list(not_started))


PASS2 = {"x": "passed", "y": "passed"}
HALF = {"x": "passed", "y": "failed"}
ZERO = {"x": "failed", "y": "failed"}


def four_tasks() -> list[TrialRecord]:
    """Two scenarios of two tasks each, everything passed."""
    return [rec(t, PASS2) for t in ("hr/a", "hr/b", "legal/c", "legal/d")]


def cli(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([*CLI, *args], capture_output=True, text=True, timeout=60)


def run_compare(
    tmp_path: Path, base: dict[str, Any], new: dict[str, Any], *flags: str
) -> subprocess.CompletedProcess[str]:
    write_atomic(tmp_path / "base.json", base)
    write_atomic(tmp_path / "new.json", new)
    return cli("compare", str(tmp_path / "base.json"), str(tmp_path / "new.json"), *flags)


def row(result: Any, name: str) -> Any:
    return next(r for r in result.rows if r.name == name)


# -- the observed bug and incomplete inputs ---------------------------------------------------
def test_new_run_of_one_scenario_is_not_comparable_and_names_missing_tasks(tmp_path: Path) -> None:
    base = doc(four_tasks())
    new = doc([rec("hr/a", PASS2), rec("hr/b", PASS2)])  # a complete run, but only of hr
    r = run_compare(tmp_path, base, new)
    assert r.returncode == 1, r.stdout
    assert "cannot compare: 2 task(s) of BASE missing from NEW: legal/c, legal/d" in r.stdout
    assert "no regression" not in r.stdout and "only in" not in r.stdout
    result = compare(base, new)
    assert result.verdict == NOT_COMPARABLE and result.rows == ()  # no numbers over a subset


@pytest.mark.parametrize(
    ("base_doc", "new_doc", "reason"),
    [
        pytest.param(
            lambda: doc(four_tasks()),
            lambda: doc([rec("hr/a", PASS2)], [planned("hr/b"), planned("legal/c"), planned("legal/d")]),
            "cannot compare: NEW is interrupted (3 of 4 task trials never started)",
            id="new-never-started",
        ),
        pytest.param(
            lambda: doc([*four_tasks()[:3], rec("legal/d", {"x": "passed", "y": "not-run"}, status="interrupted")]),
            lambda: doc(four_tasks()),
            "cannot compare: BASE is interrupted (1 of 4 task trials cut short)",
            id="base-cut",
        ),
        pytest.param(
            lambda: doc(four_tasks()),
            lambda: doc([*four_tasks()[:3], rec("legal/d", {"x": "passed", "y": "not-run"}, status="partial")]),
            "cannot compare: NEW is partial (1 of 4 task trials ran only a selection of checkers)",
            id="new-partial",
        ),
        pytest.param(
            lambda: doc(four_tasks()),
            lambda: doc([rec(t, {}, status="errored") for t in ("hr/a", "hr/b", "legal/c", "legal/d")]),
            "cannot compare: NEW has no score (4 of 4 task trials errored, none complete)",
            id="new-all-errored",
        ),
    ],
)
def test_incomplete_measurements_are_refused(tmp_path: Path, base_doc: Any, new_doc: Any, reason: str) -> None:
    base, new = base_doc(), new_doc()
    result = compare(base, new)
    assert result.verdict == NOT_COMPARABLE
    assert reason in result.refusals
    assert result.rows == ()
    r = run_compare(tmp_path, base, new)
    assert r.returncode == 1 and reason in r.stdout, r.stdout


def test_a_task_errored_in_new_counts_as_missing() -> None:
    base = doc(four_tasks())
    new = doc([*four_tasks()[:3], rec("legal/d", {}, status="errored")])
    assert compare(base, new).refusals == (
        "cannot compare: 1 task(s) of BASE missing from NEW: legal/d (errored in NEW)",
    )


# -- identity: agent, trials, task content ----------------------------------------------------
def test_agent_change_is_refused_unless_allowed(tmp_path: Path) -> None:
    base = doc(four_tasks(), options={"model": "m-1", "api_key": "sk-1"})
    new = doc(four_tasks(), options={"model": "m-2", "api_key": "sk-1"})
    r = run_compare(tmp_path, base, new)
    assert r.returncode == 1
    assert "cannot compare: agent reference differs in options (model: m-1 -> m-2)" in r.stdout
    r = run_compare(tmp_path, base, new, "--allow-agent-change")
    assert r.returncode == 0, r.stdout
    assert "(allowed by --allow-agent-change)" in r.stdout

    renamed = doc(four_tasks(), agent="command")
    assert compare(doc(four_tasks()), renamed).refusals == (
        "cannot compare: agent differs: BASE reference vs NEW command; pass --allow-agent-change to compare anyway",
    )


def test_a_rotated_secret_is_the_same_agent() -> None:
    base = doc(four_tasks(), options={"model": "m-1", "api_key": "sk-old"})
    new = doc(four_tasks(), options={"model": "m-1", "api_key": "sk-new"})
    assert compare(base, new).verdict == NO_REGRESSION


def test_agent_identity_alone_is_checked() -> None:
    new = doc(four_tasks())
    new["run"]["agent_identity"] = "sha256:" + "0" * 64  # same name and options, another fingerprint
    result = compare(doc(four_tasks()), new)
    assert result.verdict == NOT_COMPARABLE
    assert result.refusals[0].startswith("cannot compare: agent reference differs in identity")


def test_task_content_change_is_refused_unless_allowed(tmp_path: Path) -> None:
    base = doc(four_tasks())
    new = doc([rec("hr/a", PASS2, task_hash="sha256:hr/a-v2"), *four_tasks()[1:]])
    r = run_compare(tmp_path, base, new)
    assert r.returncode == 1
    assert (
        "cannot compare: task content changed (task_hash differs) in 1 task(s): hr/a (sha256:hr/a-v1 -> sha256:hr/a-v2)"
        in r.stdout
    )
    assert "legal/c" not in r.stdout.split("task content changed")[1]
    r = run_compare(tmp_path, base, new, "--allow-task-change")
    assert r.returncode == 0, r.stdout
    assert "note: task content changed (allowed by --allow-task-change): hr/a" in r.stdout


def test_missing_checker_is_refused() -> None:
    base = doc(four_tasks())
    new = doc([rec("hr/a", {"x": "passed"}), *four_tasks()[1:]])
    assert compare(base, new).refusals == ("cannot compare: 1 checker(s) of BASE missing from NEW: hr/a::y",)


def test_fewer_trials_in_new_are_missing() -> None:
    base = doc([rec(t, PASS2, trial=k) for t in ("hr/a", "hr/b") for k in (1, 2)], trials=2)
    one_errored = doc(
        [rec("hr/a", PASS2, 1), rec("hr/a", {}, 2, status="errored"), rec("hr/b", PASS2, 1), rec("hr/b", PASS2, 2)],
        trials=2,
    )
    assert compare(base, one_errored).refusals == (
        "cannot compare: fewer complete trials in NEW than in BASE: hr/a 1 of 2",
    )
    single = doc([rec(t, PASS2) for t in ("hr/a", "hr/b")], trials=1)
    refusals = compare(base, single).refusals
    assert "cannot compare: NEW ran 1 trial(s) per task, BASE 2" in refusals
    assert "cannot compare: fewer complete trials in NEW than in BASE: hr/a 1 of 2, hr/b 1 of 2" in refusals
    # more trials in NEW are fine
    assert compare(single, base).verdict == NO_REGRESSION


# -- gates --------------------------------------------------------------------------------------
GATE_CASES = {
    # hr/a loses a checker it had (0.5 -> 0); success stays 1 of 2 tasks; no red-lines
    "score": (
        [rec("hr/a", HALF), rec("hr/b", PASS2)],
        [rec("hr/a", ZERO), rec("hr/b", PASS2)],
        "score dropped beyond --max-drop 0 pts: overall -25.0, hr -25.0",
        "--max-drop",
        25.0,
    ),
    # hr/a stops succeeding (1 -> 0.5) while hr/b gains as much score (0 -> 0.5)
    "success": (
        [rec("hr/a", PASS2), rec("hr/b", ZERO)],
        [rec("hr/a", HALF), rec("hr/b", HALF)],
        "task success dropped beyond --max-success-drop 0 pts: overall -50.0, hr -50.0",
        "--max-success-drop",
        50.0,
    ),
    # a red-line gated (not crossed, not credited) becomes crossed: same score, same success
    "red-line": (
        [rec("hr/a", {"x": "failed", "rl": "gated"}, redlines=["rl"]), rec("hr/b", PASS2)],
        [rec("hr/a", {"x": "failed", "rl": "failed"}, redlines=["rl"]), rec("hr/b", PASS2)],
        "red-line fail rate rose beyond --max-redline-rise 0 pts: overall +100.0, hr +100.0",
        "--max-redline-rise",
        100.0,
    ),
}


@pytest.mark.parametrize("gate", sorted(GATE_CASES))
def test_each_gate_fails_alone(tmp_path: Path, gate: str) -> None:
    base_recs, new_recs, reason, flag, delta = GATE_CASES[gate]
    base, new = doc(base_recs), doc(new_recs)
    result = compare(base, new)
    assert result.refusals == ()
    assert result.regressions == (reason,)
    assert result.verdict == REGRESSION
    assert {g for r in result.rows for g in r.breaches} == {gate}
    r = run_compare(tmp_path, base, new)
    assert r.returncode == 1 and f"clawmark compare: REGRESSION: {reason}" in r.stdout
    assert run_compare(tmp_path, base, new, flag, f"{delta:g}").returncode == 0  # exactly at the threshold
    assert run_compare(tmp_path, base, new, flag, f"{delta - 0.1:g}").returncode == 1


def test_a_scenario_drop_fails_even_when_overall_holds() -> None:
    base = doc([rec("hr/a", PASS2), rec("legal/b", HALF)])
    new = doc([rec("hr/a", HALF), rec("legal/b", PASS2)])
    result = compare(base, new)
    assert row(result, "overall").score_delta == 0.0 and row(result, "overall").breaches == ()
    assert result.regressions == (
        "score dropped beyond --max-drop 0 pts: hr -50.0",
        "task success dropped beyond --max-success-drop 0 pts: hr -100.0",
    )


@pytest.mark.parametrize("flag", ["--max-drop", "--max-success-drop", "--max-redline-rise"])
def test_negative_thresholds_are_usage_errors(tmp_path: Path, flag: str) -> None:
    r = run_compare(tmp_path, doc(four_tasks()), doc(four_tasks()), flag, "-1")
    assert r.returncode == 2
    assert f"{flag} takes a non-negative number of points" in r.stderr and "Traceback" not in r.stderr
    with pytest.raises(ValueError):
        Gates(**{flag.removeprefix("--").replace("-", "_"): -0.5})


# -- what is compared -----------------------------------------------------------------------
def test_an_added_task_does_not_move_the_compared_numbers(tmp_path: Path) -> None:
    base = doc([rec("hr/a", PASS2), rec("hr/b", HALF)])
    new = doc([rec("hr/a", PASS2), rec("hr/b", HALF), rec("legal/z", ZERO, redlines=["x"])])
    assert new["summary"]["score"] < base["summary"]["score"]  # the added task would drag NEW down
    result = compare(base, new)
    assert result.verdict == NO_REGRESSION, result.reasons
    assert [r.name for r in result.rows] == ["hr", "overall"]
    overall = row(result, "overall")
    assert overall.new == overall.base and overall.score_delta == 0.0 and overall.redline_rise == 0.0
    assert "note: added, not compared: legal/z" in render(result)
    assert run_compare(tmp_path, base, new).returncode == 0


def test_checker_changes_list_newly_failing_first() -> None:
    base = doc(
        [rec("hr/a", {"x": "passed", "y": "failed", "z": "passed"}), rec("hr/b", {"x": "failed", "y": "passed"})]
    )
    new = doc(
        [
            rec(
                "hr/a",
                {"x": "failed", "y": "passed", "z": "gated"},
                messages={"x": "wrote 41, expected 42", "z": "needs x"},
            ),
            rec("hr/b", {"x": "passed", "y": "error"}, messages={"y": "checker raised KeyError"}),
        ]
    )
    result = compare(base, new, Gates(max_drop=100, max_success_drop=100))
    lines = render(result)
    failing = lines.index("newly failing checkers (3):")
    passing = lines.index("newly passing checkers (2):")
    assert failing < passing
    assert lines[failing + 1 : failing + 4] == [
        "  hr/a trial 1 x: passed -> failed  wrote 41, expected 42",
        "  hr/a trial 1 z: passed -> gated  needs x",
        "  hr/b trial 1 y: passed -> error  checker raised KeyError",
    ]
    assert lines[passing + 1 : passing + 3] == [
        "  hr/a trial 1 y: failed -> passed",
        "  hr/b trial 1 x: failed -> passed",
    ]
    # per task: hr/a 2/3 -> 1/3, hr/b unchanged at 1/2
    assert [(t.id, round(t.score_delta, 6)) for t in result.tasks] == [("hr/a", round(-100 / 3, 6))]
    assert render(result) == lines  # deterministic


def test_success_flip_is_listed_per_task() -> None:
    result = compare(doc([rec("hr/a", PASS2), rec("hr/b", HALF)]), doc([rec("hr/a", HALF), rec("hr/b", PASS2)]))
    text = "\n".join(render(result))
    assert "  hr/a: 100.0 -> 50.0 (-50.0), success 1/1 -> 0/1  SUCCESS FLIPPED" in text
    assert "  hr/b: 50.0 -> 100.0 (+50.0), success 0/1 -> 1/1  SUCCESS FLIPPED" in text
    assert text.index("hr/a: 100.0") < text.index("hr/b: 50.0")  # worst first


def test_confidence_interval_with_two_trials() -> None:
    base = doc([rec("hr/a", PASS2, 1), rec("hr/a", HALF, 2), rec("hr/b", HALF, 1), rec("hr/b", HALF, 2)], trials=2)
    new = doc([rec("hr/a", HALF, 1), rec("hr/a", HALF, 2), rec("hr/b", HALF, 1), rec("hr/b", ZERO, 2)], trials=2)
    result = compare(base, new, Gates(max_drop=100))
    # by hand: per-task trial scores, overall = mean of task means, se² = Σ var_t / n_t / T²
    b_scores, n_scores = {"a": [1.0, 0.5], "b": [0.5, 0.5]}, {"a": [0.5, 0.5], "b": [0.5, 0.0]}

    def se(scores: dict[str, list[float]]) -> float:
        return math.sqrt(sum(statistics.variance(v) / len(v) for v in scores.values())) / len(scores)

    delta = 100 * (
        statistics.mean(map(statistics.mean, n_scores.values()))
        - statistics.mean(map(statistics.mean, b_scores.values()))
    )
    half = 1.96 * math.sqrt(se(b_scores) ** 2 + se(n_scores) ** 2) * 100
    assert delta == pytest.approx(-25.0) and half == pytest.approx(34.648232, abs=1e-6)
    i = result.interval
    assert i is not None
    assert (i.delta, i.low, i.high) == pytest.approx((delta, delta - half, delta + half))
    assert (i.se_base, i.se_new) == pytest.approx((12.5, 12.5))
    assert "overall score delta -25.0 pts, 95% CI [-59.6, +9.6] (standard error BASE 12.5, NEW 12.5)" in render(result)


def test_no_confidence_interval_with_one_trial() -> None:
    result = compare(doc(four_tasks()), doc(four_tasks()))
    assert result.interval is None
    assert "no confidence interval (one trial per task)" in render(result)
    assert (
        render(result)[-1]
        == "clawmark compare: no regression (--max-drop 0, --max-success-drop 0, --max-redline-rise 0)"
    )


# -- merge ----------------------------------------------------------------------------------------
def run_merge(tmp_path: Path, *docs: dict[str, Any]) -> tuple[subprocess.CompletedProcess[str], Path]:
    names = []
    for k, d in enumerate(docs):
        names.append(str(tmp_path / f"shard{k + 1}.json"))
        write_atomic(Path(names[-1]), d)
    out = tmp_path / "merged.json"
    return cli("merge", str(out), *names), out


@pytest.mark.parametrize(
    ("second", "reason"),
    [
        (lambda: doc([rec("legal/c", PASS2)], agent="command"), "shard2.json: run.agent 'command' differs from "),
        (
            lambda: doc([rec("legal/c", PASS2)], options={"model": "m-2"}),
            "shard2.json: run.agent_options {'model': 'm-2'} differs from ",
        ),
        (lambda: doc([rec("legal/c", PASS2)], trials=3), "shard2.json: run.trials 3 differs from "),
        (
            lambda: doc([rec("legal/c", PASS2)], version="0.2.0"),
            "shard2.json: run.clawmark_version '0.2.0' differs from ",
        ),
        (
            lambda: doc([rec("hr/a", PASS2, trial=2, task_hash="sha256:hr/a-v2")]),
            "task hr/a has task_hash sha256:hr/a-v1 in ",
        ),
        (lambda: doc([rec("hr/a", PASS2)]), "task hr/a trial 1 appears in more than one input ("),
    ],
    ids=["agent", "options", "trials", "version", "task-hash", "overlap"],
)
def test_merge_refuses_inputs_of_different_measurements(tmp_path: Path, second: Any, reason: str) -> None:
    r, out = run_merge(tmp_path, doc([rec("hr/a", PASS2)]), second())
    assert r.returncode == 2, r.stdout + r.stderr
    lines = r.stderr.splitlines()
    assert len(lines) == 1 and lines[0].startswith("clawmark merge: ") and reason in lines[0], r.stderr
    assert not out.exists()


def test_merge_refuses_a_changed_agent_identity(tmp_path: Path) -> None:
    second = doc([rec("legal/c", PASS2)])
    second["run"]["agent_identity"] = "sha256:" + "0" * 64
    r, _ = run_merge(tmp_path, doc([rec("hr/a", PASS2)]), second)
    assert r.returncode == 2 and "shard2.json: run.agent_identity sha256:0000" in r.stderr


def test_merging_an_interrupted_shard_stays_interrupted(tmp_path: Path) -> None:
    # shard 1 planned legal/c but was stopped before it; shard 2 ran it and was stopped before legal/d
    shard1 = doc([rec("hr/a", PASS2), rec("hr/b", PASS2)], [planned("legal/c")])
    shard2 = doc([rec("legal/c", PASS2)], [planned("legal/d")])
    shard2["run"]["stop_reason"] = "KeyboardInterrupt"
    r, out = run_merge(tmp_path, shard1, shard2)
    assert r.returncode == 0, r.stderr
    merged = json.loads(out.read_text())
    assert merged["run"]["status"] == "interrupted" and merged["run"]["interrupted"] is True
    assert [p["id"] for p in merged["run"]["not_started"]] == ["legal/d"]
    assert merged["run"]["planned_trials"] == 4 and merged["run"]["stop_reason"] == "KeyboardInterrupt"
    assert merged["summary"]["score"] is None
    assert merged["run"]["merged_from"] == [str(tmp_path / "shard1.json"), str(tmp_path / "shard2.json")]
    assert "(interrupted, 1 never started)" in r.stdout
    # and the merged file cannot pass as a baseline
    assert (
        "cannot compare: BASE is interrupted (1 of 4 task trials never started; stop reason: KeyboardInterrupt)"
        in compare(merged, doc(four_tasks())).refusals
    )


def test_merging_complete_shards_is_complete(tmp_path: Path) -> None:
    tasks = four_tasks()
    r, out = run_merge(tmp_path, doc(tasks[:2]), doc(tasks[2:]))
    assert r.returncode == 0, r.stderr
    merged = json.loads(out.read_text())
    assert merged["run"]["status"] == "complete" and merged["run"]["not_started"] == []
    assert merged["summary"]["score"] == 1.0 and merged["run"]["agent_identity"] == agent_identity("reference", {})
    assert compare(doc(tasks), merged).verdict == NO_REGRESSION
