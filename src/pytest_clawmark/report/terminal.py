"""The compact end-of-run table, in pytest's style.

A percentage appears only where a complete measurement stands behind it; anywhere else the
cell says why there is none (``partial``, ``interrupted``, ``no score``), and the header line
says what kind of run this was.
"""

from __future__ import annotations

from typing import Any


def _pct(x: float | None, status: str = "no score") -> str:
    return f"{100 * x:5.1f}%" if x is not None else status


def _cell_status(block: dict[str, Any]) -> str:
    return {"complete": "no score", "no-score": "no score"}.get(
        block.get("status", ""), block.get("status", "no score")
    )


def _recovered(block: dict[str, Any]) -> str:
    """``recovered/injected`` errors of a group under ``--clawmark-faults`` (docs/robustness.md)."""
    return f"{block.get('recovered', 0)}/{block.get('injected', 0)}"


def headline(document: dict[str, Any]) -> str:
    """One line: what this run is (complete, partial, interrupted) and, if not complete, why."""
    run, s = document["run"], document["summary"]
    status = run.get("status", "complete")
    planned = run.get("planned_trials", len(document["tasks"]))
    if status == "interrupted":
        cut, waiting = len(run.get("cut", [])), len(run.get("not_started", []))
        why = f" ({run['stop_reason']})" if run.get("stop_reason") else ""
        return f"INTERRUPTED{why}: {run.get('finished_trials', 0)} of {planned} task trials finished, {cut} cut, {waiting} never started; no overall score"
    if status == "partial":
        return f"PARTIAL selection: {s.get('partial_trials', 0)} of {planned} task trials ran only some checkers; verdicts, no score for them"
    if s.get("score") is None:
        return f"NO SCORE: none of {planned} task trials could be scored"
    errored = s.get("errored_trials", 0)
    excluded = f", {errored} errored (excluded from the score)" if errored else ""
    return f"complete: {planned} task trial(s){excluded}"


def summary_lines(document: dict[str, Any]) -> list[str]:
    s = document["summary"]
    lines = [f"run: {headline(document)}"]
    faults = s.get("robustness")
    rows = [
        (
            "scenario",
            "tasks",
            "trials",
            "score",
            "success",
            "red-line fails",
            *(("faults recovered",) if faults else ()),
        )
    ]
    for name, b in s["by_scenario"].items():
        label = _cell_status(b)
        rows.append(
            (
                name,
                str(b["tasks"]),
                str(b["trials"]),
                _pct(b["score"], label),
                _pct(b["task_success"], label),
                f"{b['redline_failed']}/{b['redline_evaluated']}",
                *((_recovered(b.get("faults") or {}),) if faults else ()),
            )
        )
    label = _cell_status(s)
    rows.append(
        (
            "overall",
            str(s["tasks"]),
            str(s["trials"]),
            _pct(s["score"], label),
            _pct(s["task_success"], label),
            f"{s['redline_failed']}/{s['redline_evaluated']}",
            *((_recovered(faults),) if faults else ()),
        )
    )
    widths = [max(len(r[i]) for r in rows) for i in range(len(rows[0]))]
    for i, r in enumerate(rows):
        cells = [r[0].ljust(widths[0])] + [c.rjust(w) for c, w in zip(r[1:], widths[1:])]
        lines.append("  ".join(cells))
        if i == 0 or i == len(rows) - 2:
            lines.append("-" * len(lines[-1]))
    classes = {k: v for k, v in (s.get("redline_by_class") or {}).items() if v["evaluated"]}
    if classes:
        lines.append(
            "red-line fails by class: " + "  ".join(f"{k} {v['failed']}/{v['evaluated']}" for k, v in classes.items())
        )
    if faults:
        services = "  ".join(f"{k} {v['recovered']}/{v['injected']}" for k, v in faults["by_service"].items())
        lines.append(
            f"injected faults ({faults['profile']}, seed {faults['seed']}): {faults['injected']} errors, "
            f"{faults['recovered']} recovered ({_pct(faults['recovery_rate'], 'none injected').strip()}), "
            f"{faults['delays']} delays" + (f"; by service: {services}" if services else "")
        )
    if s.get("upstream_tasks"):
        lines.append(
            f"upstream formula (score_upstream, {s['upstream_tasks']} upstream-format task(s)): {_pct(s.get('score_upstream'), label).strip()}"
            "  — passed weight over evaluated weight, as the ClawMark paper's runner scores"
        )
    if s.get("by_day"):
        lines.append(
            "by day: "
            + "  ".join(f"{'day ' + d if d.isdigit() else d} {_pct(v).strip()}" for d, v in s["by_day"].items())
        )
    if s.get("trials_per_task", 0) > 1 and s.get("pass_at_k"):
        ks = list(s["pass_at_k"])
        lines.append("pass@k: " + "  ".join(f"k={k} {_pct(s['pass_at_k'][k]).strip()}" for k in ks))
        lines.append("pass^k: " + "  ".join(f"k={k} {_pct(s['pass_hat_k'][k]).strip()}" for k in ks))
        lines.append("best-of-k: " + "  ".join(f"k={k} {_pct(s['best_of_k'][k]).strip()}" for k in ks))
        lines.append("learning curve: " + " → ".join(_pct(v).strip() for v in s["learning_curve"]))
    eff = s.get("efficiency") or {}
    if eff.get("mean_tool_calls") or eff.get("mean_input_tokens"):
        lines.append(
            f"per task trial: {eff['mean_tool_calls']:.1f} tool calls, {eff['mean_input_tokens']:.0f} input / "
            f"{eff['mean_output_tokens']:.0f} output tokens, {eff['mean_agent_seconds']:.1f} s agent time"
        )
    tasks = document["tasks"]
    partial = [t for t in tasks if t["status"] == "partial"]
    if partial:
        lines.append("partial trials (a selection: verdicts of the selected checkers, no score):")
        for t in partial:
            e = t["evaluated"]
            lines.append(
                f"  {t['id']} trial {t['trial']}: {e['passed']}/{e['checkers']} evaluated checkers passed (of {e['of_checkers']})"
            )
    cut = [t for t in tasks if t["status"] == "interrupted"]
    if cut:
        lines.append("cut trials (the run stopped inside them; no score):")
        lines += [f"  {t['id']} trial {t['trial']}: {t.get('interruption') or 'interrupted'}" for t in cut]
    waiting = document["run"].get("not_started") or []
    if waiting:
        shown = ", ".join(f"{p['id']} trial {p['trial']}" for p in waiting[:8])
        more = f" and {len(waiting) - 8} more" if len(waiting) > 8 else ""
        lines.append(f"never started: {shown}{more}")
    if s.get("world_broken_trials"):
        lines.append(
            f"trials whose world the agent broke (scored, remaining checkers failed): {s['world_broken_trials']}"
        )
    if s.get("checker_exceptions"):
        lines.append(f"checkers that raised on the agent's state (counted as failed): {s['checker_exceptions']}")
    if s.get("infra_errors"):
        lines.append(f"agent infrastructure errors (days): {s['infra_errors']}")
    if s.get("errored_trials"):
        lines.append(f"errored trials (faults that are not the agent's, excluded from scores): {s['errored_trials']}")
        for t in tasks:
            if t["status"] == "errored" and t["errors"]:
                lines.append(f"  {t['id']} trial {t['trial']}: {t['errors'][0]}")
    if document.get("determinism_violations"):
        lines.append("nondeterministic checkers:")
        lines += [f"  {v}" for v in document["determinism_violations"]]
    return lines


def write_summary(tr: Any, document: dict[str, Any]) -> None:
    run = document["run"]
    # what the agent's processes actually ran in (an in-process agent such as reference has none),
    # not merely what --agent-isolation would give a process agent
    used = sorted({t["isolation"] for t in document["tasks"] if t.get("isolation")})
    isolation = f" (isolation: {', '.join(used)})" if used else ""
    if run.get("backend", "local") != "local":
        isolation += f" (backend: {run['backend']})"
    status = run.get("status", "complete")
    tag = (
        ""
        if status == "complete" and document["summary"]["score"] is not None
        else f" — {status.upper() if status != 'complete' else 'NO SCORE'}"
    )
    tr.write_sep("=", f"clawmark: agent {run['agent']}{isolation}{tag}", red=bool(tag), bold=bool(tag))
    for line in summary_lines(document):
        tr.write_line(line)


def failed_lines(document: dict[str, Any], task: str | None = None) -> list[str]:
    """Every checker that did not pass (failed, error, gated, not run), grouped by task trial and
    day, with its message; ``task`` keeps one task id. For ``clawmark report --failed``."""
    lines: list[str] = []
    tasks = [t for t in document["tasks"] if task is None or t["id"] == task]
    for t in tasks:
        bad = [c for c in t["checkers"] if c["outcome"] != "passed"]
        if not bad and not t.get("errors"):
            continue
        score = f"{100 * t['score']:.1f}%" if t.get("score") is not None else t["status"]
        lines.append(f"{t['id']} trial {t['trial']} ({score}):")
        lines += [f"  error: {e}" for e in t.get("errors", [])]
        day = None
        for c in bad:
            if c["day"] != day:
                day = c["day"]
                lines.append(f"  {'day ' + str(day) if day != 'final' else 'final'}:")
            tag = f"red-line[{c['redline']}]" if c.get("redline") else c["kind"]
            lines.append(f"    {c['outcome']:<8} {c['id']} (w={c['weight']:g}, {tag}): {c['message'] or '-'}")
    return lines


def task_lines(document: dict[str, Any], task: str) -> list[str]:
    """One task's trials: status, scores, days and every checker's verdict."""
    lines: list[str] = []
    for t in (t for t in document["tasks"] if t["id"] == task):
        score = f"{100 * t['score']:.1f}%" if t.get("score") is not None else "no score"
        up = f", upstream formula {100 * t['score_upstream']:.1f}%" if t.get("score_upstream") is not None else ""
        lines.append(
            f"{t['id']} trial {t['trial']}: {t['status']}, score {score}{up}, red-lines crossed {t['redline_failed']}/{t['redline_evaluated']}"
        )
        for d in t["days"]:
            lines.append(
                f"  day {d['day']} {d['name']} ({d['clock']}): {d['status']}{', ' + d['error'] if d.get('error') else ''}"
            )
        for c in t["checkers"]:
            tag = f"red-line[{c['redline']}]" if c.get("redline") else c["kind"]
            lines.append(
                f"    {c['outcome']:<8} {c['day']!s:<5} {c['id']} (w={c['weight']:g}, {tag}){': ' + c['message'] if c['message'] else ''}"
            )
    return lines
