"""``clawmark report results.json --html out.html [--compare other.json ...]``: the run viewer.

One self-contained HTML file (no JavaScript, no network: open it anywhere, attach it to a CI
run): the summary table; per-scenario bars and the per-day curve (several runs side by side when
compared); per task trial, every checker's verdict, weight, kind and message with red-line
crossings highlighted, the silent changes and whether a checker detected them, each day's agent
trace and what changed in the world that day (read from the run's evidence folder, when it is
still there). With ``--compare``, a table of the runs' scores per task and the checkers that
flipped. Templates are Jinja2 (autoescaped), charts are matplotlib SVG.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any

import jinja2

from .charts import day_curves, scenario_bars
from .statediff import day_diffs, load_snapshots

MAX_TOOL_CALLS_SHOWN = 60


def render_html(runs: Sequence[tuple[str, dict[str, Any]]], *, evidence_root: Path | None = None) -> str:
    """The viewer for ``runs`` (label, results document); the first is the run shown in detail."""
    label, doc = runs[0]
    root = Path(evidence_root) if evidence_root else Path(doc["run"].get("evidence_dir") or ".")
    env = jinja2.Environment(
        loader=jinja2.PackageLoader("pytest_clawmark.report", "templates"),
        autoescape=jinja2.select_autoescape(["html", "j2"]),
        # missing keys render empty: results files of older versions lack newer fields
        trim_blocks=True,
        lstrip_blocks=True,
    )
    env.filters["pct"] = lambda x: "–" if x is None else f"{100 * x:.1f}%"
    scen = [(lab, {s: b.get("score") for s, b in d["summary"]["by_scenario"].items()}) for lab, d in runs]
    days = [(lab, dict(d["summary"].get("by_day") or {})) for lab, d in runs]
    return env.get_template("run.html.j2").render(
        label=label,
        doc=doc,
        run=doc["run"],
        summary=doc["summary"],
        runs=runs,
        scenario_chart=scenario_bars(scen),
        day_chart=day_curves(days) if any(d for _, d in days) else "",
        trials=[_trial(t, root) for t in doc["tasks"]],
        comparison=_comparison(runs) if len(runs) > 1 else None,
        evidence_root=str(root),
        evidence_present=root.is_dir(),
    )


def _trial(t: dict[str, Any], root: Path) -> dict[str, Any]:
    checkers = t["checkers"]
    silent = []
    for day in t["days"]:
        for name in day.get("silent_applied") or []:
            detectors = [c for c in checkers if c.get("detects") == name]
            silent.append(
                {
                    "name": name,
                    "day": day["day"],
                    "detectors": detectors,
                    "detected": any(c["outcome"] == "passed" for c in detectors),
                }
            )
    days = []
    before: dict[str, Any] = {}
    for day in t["days"]:
        after = load_snapshots(root, day) if day.get("evidence") else {}
        diffs = day_diffs(before, after) if after else []
        first = not before
        if after:
            before = after
        trace = day.get("trace") or {}
        calls = trace.get("tool_calls") or []
        days.append(
            {
                "record": day,
                "diffs": diffs,
                "first": first,
                "tool_calls": calls[:MAX_TOOL_CALLS_SHOWN],
                "more_calls": max(0, len(calls) - MAX_TOOL_CALLS_SHOWN),
                "messages": trace.get("messages") or [],
                "checkers": [c for c in checkers if c["day"] == day["day"]],
            }
        )
    return {
        "t": t,
        "anchor": f"{t['id']}-trial{t['trial']}".replace("/", "-"),
        "days": days,
        "final": [c for c in checkers if c["day"] == "final"],
        "silent": silent,
        "crossed": [c for c in checkers if c.get("redline") and c["outcome"] == "failed"],
    }


def _comparison(runs: Sequence[tuple[str, dict[str, Any]]]) -> dict[str, Any]:
    """Scores per task for every run, and the checkers whose outcome differs from the first run's."""

    def by_task(doc: dict[str, Any]) -> dict[tuple[str, int], dict[str, Any]]:
        return {(t["id"], t["trial"]): t for t in doc["tasks"]}

    tables = [by_task(d) for _, d in runs]
    keys = sorted(set().union(*tables))
    rows = [{"task": k[0], "trial": k[1], "cells": [tab.get(k) for tab in tables]} for k in keys]
    flips = []
    base = tables[0]
    for i, tab in enumerate(tables[1:], start=1):
        for key in sorted(set(base) & set(tab)):
            old = {c["id"]: c for c in base[key]["checkers"]}
            for c in tab[key]["checkers"]:
                o = old.get(c["id"])
                if o is not None and o["outcome"] != c["outcome"]:
                    flips.append(
                        {
                            "run": runs[i][0],
                            "task": key[0],
                            "trial": key[1],
                            "id": c["id"],
                            "before": o["outcome"],
                            "after": c["outcome"],
                            "message": c["message"],
                            "redline": c.get("redline"),
                        }
                    )
    return {"labels": [lab for lab, _ in runs], "rows": rows, "flips": flips}
