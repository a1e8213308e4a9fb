"""The compact end-of-run table, in pytest's style."""

from __future__ import annotations

from typing import Any


def _pct(x: float) -> str:
    return f"{100 * x:5.1f}%"


def summary_lines(document: dict[str, Any]) -> list[str]:
    s = document["summary"]
    rows = [("scenario", "tasks", "trials", "score", "success", "red-line fails")]
    for name, b in s["by_scenario"].items():
        rows.append((name, str(b["tasks"]), str(b["trials"]), _pct(b["score"]), _pct(b["task_success"]), f"{b['redline_failed']}/{b['redline_evaluated']}"))
    rows.append(("overall", str(s["tasks"]), str(s["trials"]), _pct(s["score"]), _pct(s["task_success"]), f"{s['redline_failed']}/{s['redline_evaluated']}"))
    widths = [max(len(r[i]) for r in rows) for i in range(len(rows[0]))]
    lines = []
    for i, r in enumerate(rows):
        cells = [r[0].ljust(widths[0])] + [c.rjust(w) for c, w in zip(r[1:], widths[1:])]
        lines.append("  ".join(cells))
        if i == 0 or i == len(rows) - 2:
            lines.append("-" * len(lines[-1]))
    if s.get("by_day"):
        lines.append("by day: " + "  ".join(f"{'day ' + d if d.isdigit() else d} {_pct(v).strip()}" for d, v in s["by_day"].items()))
    if s.get("trials_per_task", 0) > 1:
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
    if s.get("infra_errors"):
        lines.append(f"agent infrastructure errors (days): {s['infra_errors']}")
    if s.get("errored_trials"):
        lines.append(f"errored trials (harness faults, excluded from scores): {s['errored_trials']}")
        for t in document["tasks"]:
            if t["errors"]:
                lines.append(f"  {t['id']} trial {t['trial']}: {t['errors'][0]}")
    if document.get("determinism_violations"):
        lines.append("nondeterministic checkers:")
        lines += [f"  {v}" for v in document["determinism_violations"]]
    return lines


def write_summary(tr: Any, document: dict[str, Any], settings: Any) -> None:
    run = document["run"]
    # what the agent's processes actually ran in (an in-process agent such as reference has none),
    # not merely what --agent-isolation would give a process agent
    used = sorted({t["isolation"] for t in document["tasks"] if t.get("isolation")})
    isolation = f" (isolation: {', '.join(used)})" if used else ""
    tr.write_sep("=", f"clawmark: agent {run['agent']}{isolation}")
    for line in summary_lines(document):
        tr.write_line(line)
