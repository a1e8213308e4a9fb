"""Worst cases an agent may legally cause: time and memory of each server's limit cases.

    python benchmarks/hostile.py [--only sheets mail calendar kb agents] [--json out.json]

Why: every server of a world has explicit limits (docs/world.md, docs/agents.md) so that nothing an
agent sends can stall the world or the harness that reads it. This script prints, per server, how
long the largest *allowed* inputs take (the largest formula, the largest message, a snapshot of a
world filled to its limits...) and how much memory they cost, so that a regression in a limit or in
the code under it is visible as a number, not as a hung CI run.

Each part lives in ``benchmarks/hostile_<part>.py`` and runs in its own interpreter (``--json``
prints one JSON list of ``{"service", "case", "seconds", "rss_growth_mb", "note"}``), so that the
resident-set growth of one part is not hidden by the high-water mark of another.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
PARTS = ("sheets", "mail", "calendar", "kb", "agents")
PART_TIMEOUT_S = 900


def run_part(part: str) -> list[dict]:
    """Run ``hostile_<part>.py --json`` in a fresh interpreter; an error becomes one row saying so."""
    script = HERE / f"hostile_{part}.py"
    if not script.exists():
        return [
            {
                "service": part,
                "case": "(no benchmark part)",
                "seconds": float("nan"),
                "rss_growth_mb": float("nan"),
                "note": f"{script.name} missing",
            }
        ]
    started = time.monotonic()
    try:
        proc = subprocess.run(
            [sys.executable, str(script), "--json"], capture_output=True, text=True, timeout=PART_TIMEOUT_S
        )
    except subprocess.TimeoutExpired:
        return [
            {
                "service": part,
                "case": "(whole part)",
                "seconds": time.monotonic() - started,
                "rss_growth_mb": float("nan"),
                "note": f"timed out after {PART_TIMEOUT_S} s",
            }
        ]
    if proc.returncode != 0:
        last = (proc.stderr.strip().splitlines() or ["no output"])[-1]
        return [
            {
                "service": part,
                "case": "(whole part)",
                "seconds": time.monotonic() - started,
                "rss_growth_mb": float("nan"),
                "note": f"failed (exit {proc.returncode}): {last}",
            }
        ]
    lines = [line for line in proc.stdout.splitlines() if line.strip().startswith("[")]
    if not lines:
        return [
            {
                "service": part,
                "case": "(whole part)",
                "seconds": float("nan"),
                "rss_growth_mb": float("nan"),
                "note": "printed no JSON list",
            }
        ]
    return json.loads(lines[-1])


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--only", nargs="+", choices=PARTS, default=list(PARTS))
    parser.add_argument("--json", type=Path, help="also write all rows to this file")
    args = parser.parse_args(argv)
    rows: list[dict] = []
    for part in args.only:
        rows.extend(run_part(part))
    width = max((len(r["case"]) for r in rows), default=10)
    print(f"{'service':<9} {'case':<{width}} {'seconds':>8} {'RSS +MB':>8}  note")
    for r in rows:
        print(
            f"{r['service']:<9} {r['case']:<{width}} {r['seconds']:>8.3f} {r['rss_growth_mb']:>8.1f}  {r.get('note', '')}"
        )
    if args.json:
        args.json.write_text(json.dumps(rows, indent=2) + "\n")
    failed = [r for r in rows if r["case"].startswith("(")]
    return 1 if failed else 0


if __name__ == "__main__":
    raise SystemExit(main())
