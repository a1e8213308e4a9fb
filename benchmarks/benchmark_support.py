"""What the benchmark scripts share: the process's resident set, one timed case, a part's ``main``.

Why one module: every script here measured memory the same way (``VmRSS``) and the hostile-input
parts (``hostile_<part>.py``) each built the same ``{"service", "case", "seconds",
"rss_growth_mb", "note"}`` row and the same ``--json`` entry point that ``benchmarks/hostile.py``
reads. The scripts run as ``python benchmarks/<name>.py``, so this folder is on ``sys.path``.
"""

from __future__ import annotations

import argparse
import json
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

Row = dict[str, Any]


def rss_mb() -> float:
    """This process's resident set now, in MiB (``nan`` where ``/proc`` has no ``VmRSS``)."""
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return float("nan")


def measure(service: str, case: str, fn: Callable[[], str], rows: list[Row]) -> None:
    """Run ``fn`` (it returns the row's note) and append its time and resident-set growth."""
    before = rss_mb()
    started = time.perf_counter()
    note = fn()
    rows.append(
        {
            "service": service,
            "case": case,
            "seconds": round(time.perf_counter() - started, 4),
            "rss_growth_mb": round(rss_mb() - before, 1),
            "note": note,
        }
    )


def part_main(doc: str, run: Callable[[], list[Row]], argv: list[str] | None = None) -> int:
    """The entry point of a ``hostile_<part>.py``: a table, or ``--json`` for ``benchmarks/hostile.py``."""
    parser = argparse.ArgumentParser(description=doc.split("\n\n")[0])
    parser.add_argument("--json", action="store_true", help="print one JSON list instead of a table")
    args = parser.parse_args(argv)
    rows = run()
    if args.json:
        print(json.dumps(rows))
    else:
        for r in rows:
            print(f"{r['case']:<70} {r['seconds']:>8.3f} s {r['rss_growth_mb']:>7.1f} MB  {r['note']}")
    return 0
