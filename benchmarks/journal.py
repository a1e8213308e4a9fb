"""What the run journal costs: one fsync'd append per finished task trial, one read at the end.

    python benchmarks/journal.py [--records 200] [--results results.json]

A record is taken from a real results file when given (its largest task entry), else a synthetic
one of corpus size (22 checkers, 4 days with trace summaries). Reports the median and p95 time of
an append (write + fsync) and the time to read the whole journal back (what the controller does
once per run). The point of comparison is an agent day: minutes.
"""

from __future__ import annotations

import argparse
import json
import statistics
import tempfile
import time
from pathlib import Path

from pytest_clawmark import journal
from pytest_clawmark.results import CheckerRecord, DayRecord, TrialRecord


def synthetic() -> TrialRecord:
    r = TrialRecord(
        id="clinical/medication_audit",
        scenario="clinical",
        role="pharmacist's assistant",
        trial=1,
        nodeid="tasks/clinical/task_medication_audit.py::trial1",
        agent="bench",
    )
    r.days = [
        DayRecord(
            d,
            f"day{d}",
            "2025-04-07 09:00 +08:00",
            "ok",
            seconds=120.0,
            trace={"tool_calls": [{"name": "bash", "arguments": "x" * 80}] * 40, "messages": ["m" * 400] * 10},
        )
        for d in range(1, 5)
    ]
    r.checkers = [
        CheckerRecord(f"checker_{i}", 1 + i % 4, 2.0, "deliverable", None, "failed", "expected this, found that " * 4)
        for i in range(22)
    ]
    return r


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--records", type=int, default=200)
    parser.add_argument("--results", default=None)
    args = parser.parse_args()
    if args.results:
        tasks = json.loads(Path(args.results).read_text())["tasks"]
        record = TrialRecord.from_json(max(tasks, key=lambda t: len(json.dumps(t))))
    else:
        record = synthetic()
    size = len(json.dumps(record.to_json()))
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp)
        times = []
        for i in range(args.records):
            record.trial = i + 1
            t0 = time.perf_counter()
            journal.append(root, record)
            times.append(time.perf_counter() - t0)
        t0 = time.perf_counter()
        back = journal.read(root)
        read_s = time.perf_counter() - t0
    times.sort()
    print(f"record size: {size / 1024:.1f} KiB; {args.records} appends")
    print(
        f"append (write + fsync): median {1000 * statistics.median(times):.2f} ms, p95 {1000 * times[int(0.95 * len(times)) - 1]:.2f} ms"
    )
    print(f"read {len(back.records)} records back: {1000 * read_s:.1f} ms")


if __name__ == "__main__":
    main()
