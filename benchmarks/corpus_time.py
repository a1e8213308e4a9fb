"""Where does a corpus run's time go? Seconds per task and per phase, reference agent.

    python benchmarks/corpus_time.py [--paths tasks] [--workers 2] [--agent reference]

Runs ``pytest PATHS --agent=AGENT -n WORKERS`` in a subprocess (as a user would), with the results
JSON and a JUnit XML report, and splits each task trial's time into phases:

- **world start**: the trial's ``world_start_seconds`` (results JSON);
- **agent**: the days' agent seconds (``days[].seconds``);
- **setup + evidence**: the turn items' time minus the agent's (the turn setups that seed and
  mutate the world, and the post-turn snapshots saved as evidence);
- **checkers**: the checker items' time (JUnit).

The wall time of the whole run includes pytest's start, collection and the workers' imports,
printed apart as "fixed". Target (issue 13): ≤ 0.35 s per task on average at ``-n 2``.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import tempfile
import time
import xml.etree.ElementTree as ET
from collections import defaultdict
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]


def _item_seconds(junit: Path) -> dict[str, dict[str, float]]:
    """Per trial node id: seconds spent in turn items and in checker items."""
    spent: dict[str, dict[str, float]] = defaultdict(lambda: {"turns": 0.0, "checkers": 0.0})
    for case in ET.parse(junit).getroot().iter("testcase"):
        name = case.get("name", "")
        classname = case.get("classname", "")
        # node ids look like path::trial1::day2::turn or path::trial1::day2::<checker>
        parts = [*classname.split("."), name]
        trial = next((p for p in parts if p.startswith("trial")), "trial?")
        task = case.get("file") or classname.split(".trial")[0]
        kind = "turns" if name == "turn" else "checkers"
        spent[f"{task}::{trial}"][kind] += float(case.get("time", 0) or 0)
    return spent


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--paths", nargs="*", default=["tasks"])
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--agent", default="reference")
    args = ap.parse_args()
    with tempfile.TemporaryDirectory(prefix="clawmark-corpus-time-") as tmp:
        out, junit = Path(tmp) / "results.json", Path(tmp) / "junit.xml"
        cmd = [sys.executable, "-m", "pytest", *args.paths, f"--agent={args.agent}", f"--clawmark-json={out}", f"--junitxml={junit}",
               "-q", "-p", "no:cacheprovider", "--clawmark-progress=off", f"--clawmark-evidence={Path(tmp) / 'evidence'}"]  # fmt: skip
        if args.workers > 1:
            cmd += ["-n", str(args.workers)]
        started = time.perf_counter()
        run = subprocess.run(cmd, cwd=REPO, capture_output=True, text=True, check=False)
        wall = time.perf_counter() - started
        if not out.exists() or not junit.exists():
            print(run.stdout[-2000:] + run.stderr[-2000:], file=sys.stderr)
            return 1
        doc = json.loads(out.read_text())
        items = _item_seconds(junit)
    rows = []
    for t in doc["tasks"]:
        agent = sum(float(d.get("seconds") or 0) for d in t["days"])
        spent = next(
            (v for k, v in items.items() if k.endswith(f"::trial{t['trial']}") and Path(t["task_file"]).stem in k),
            {"turns": 0.0, "checkers": 0.0},
        )
        rows.append(
            (
                t["id"],
                float(t.get("world_start_seconds") or 0),
                max(0.0, spent["turns"] - agent),
                agent,
                spent["checkers"],
            )
        )
    busy = sum(sum(r[1:]) for r in rows)
    print(f"# Corpus time: {len(rows)} task trials, agent {args.agent}, -n {args.workers}\n")
    print("| task | world start | setup + evidence | agent | checkers | total |")
    print("|---|---:|---:|---:|---:|---:|")
    for task, start, setup, agent, checks in sorted(rows):
        print(
            f"| {task} | {start:.2f} | {setup:.2f} | {agent:.2f} | {checks:.2f} | {start + setup + agent + checks:.2f} |"
        )
    totals = [sum(r[i] for r in rows) for i in range(1, 5)]
    print(
        f"| **all (work, summed over workers)** | {totals[0]:.2f} | {totals[1]:.2f} | {totals[2]:.2f} | {totals[3]:.2f} | {busy:.2f} |"
    )
    per_task = wall / max(1, len(rows))
    print(f"\nwall {wall:.1f} s for {len(rows)} trials: {per_task:.2f} s per task (target ≤ 0.35); "
          f"fixed (start, collection, imports, waiting) ≈ {max(0.0, wall - busy / max(1, args.workers)):.1f} s")  # fmt: skip
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
