"""Worst cases of the agents part: a hostile agent at the default limits, a workspace at its limits.

    python benchmarks/hostile_agents.py [--json] [--case NAME]

Each case runs in a fresh interpreter (``--case NAME``) so that its resident-set growth is its own:
``rss_growth_mb`` is the peak RSS of that interpreter during the case minus its RSS before (after the
imports). The
time and memory are the *harness's* (the adapter's turn, the snapshot, the sweep), not the agent's:
what the limits of docs/agents.md and the workspace limits of docs/world.md must keep bounded.

Cases (default limits unless the case says otherwise):

- ``fork bomb to the process limit``: an agent forks until refused (512 processes), the sweep kills all;
- ``stdout flood of 1 GiB``: kept 16 MiB, dropped the rest; the harness's memory stays flat;
- ``memory hog at memory=512M``: the OOM killer ends it inside its cgroup;
- ``daemon double-forked, env cleared``: found by its cgroup and killed after the turn;
- ``snapshot at the workspace limits``: 10,000 files (16 MiB inlined), 512 MiB hashed, 1 GiB sampled, a deep tree;
- ``sweep of 100,000 workspace entries``: the after-turn disarm (with links, FIFOs, hard links);
- ``checker read of a 64 MiB deliverable``: the largest file a checker reads.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from datetime import datetime, timezone
from pathlib import Path
from typing import Any

from benchmark_support import rss_mb

HERE = Path(__file__).resolve()
MIB = 1 << 20


def _peak_mb() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def _agent_turn(script: str, limits: str = "") -> tuple[float, str]:
    """One day of a real command agent running ``script`` (isolation none: the harness side is measured)."""
    from pytest_clawmark.agents.base import AgentSession
    from pytest_clawmark.agents.command import CommandAgent
    from pytest_clawmark.agents.limits import parse_limits
    from pytest_clawmark.agents.sandbox import Isolation
    from pytest_clawmark.world import Person

    tmp = Path(tempfile.mkdtemp(prefix="clawmark-bench-agent-"))
    (tmp / "agent.py").write_text(script)
    session = AgentSession(
        task_id="bench", role="r", persona="", user=Person("A", "a@example.com"), workspace=tmp / "workspace", home=tmp / "home",
        env={}, time_limit=120, options={}, evidence_dir=tmp / "evidence", isolation=Isolation("none"), limits=parse_limits([limits]),
    )  # fmt: skip
    session.workspace.mkdir()
    agent = CommandAgent({"cmd": f"{sys.executable} {tmp / 'agent.py'}"})
    agent.start(session)
    t0 = time.perf_counter()
    trace = agent.wake("go", 1, datetime(2025, 1, 1, tzinfo=timezone.utc))
    seconds = time.perf_counter() - t0
    agent.stop()
    extra = trace.extra
    note = f"status {trace.status}; leftovers killed {extra.get('leftover_processes_killed')}"
    if "stdout_dropped_bytes" in extra:
        note += (
            f"; stdout kept {extra['stdout_bytes'] - extra['stdout_dropped_bytes']} of {extra['stdout_bytes']} bytes"
        )
    for key in ("processes", "memory"):
        usage = extra.get("limits", {}).get(key, {})
        if "peak" in usage:
            note += (
                f"; {key} peak {usage['peak']}"
                + (f", refused {usage['refused']}" if usage.get("refused") else "")
                + (f", OOM kills {usage['oom_kills']}" if usage.get("oom_kills") else "")
            )
    return seconds, note


def case_fork_bomb() -> tuple[float, str]:
    return _agent_turn(
        "import os, time\nfor _ in range(5000):\n    try:\n        pid = os.fork()\n    except OSError:\n        break\n"
        "    if pid == 0:\n        time.sleep(300); os._exit(0)\n"
    )


def case_flood() -> tuple[float, str]:
    return _agent_turn("import os\nchunk = b'x' * (1 << 20)\nfor _ in range(1024):\n    os.write(1, chunk)\n")


def case_memory() -> tuple[float, str]:
    return _agent_turn("block = b'x' * (2 << 30)\n", "memory=512M")


def case_daemon() -> tuple[float, str]:
    return _agent_turn(
        "import os, sys, time\nif os.fork() == 0:\n    os.setsid()\n    if os.fork() == 0:\n"
        "        os.execve(sys.executable, [sys.executable, '-c', 'import time\\nwhile True: time.sleep(0.01)'], {})\n"
        "    os._exit(0)\ntime.sleep(0.2)\n"
    )


def _world() -> Any:
    from pytest_clawmark.world import Person, World

    world = World(
        ("fs",), Path(tempfile.mkdtemp(prefix="clawmark-bench-ws-")) / "world", user=Person("A", "a@example.com")
    )
    return world.start()


def case_snapshot() -> tuple[float, str]:
    world = _world()
    ws = world.workspace
    for i in range(10_000):  # 4 KiB each: the first 4,096 are inlined (16 MiB), the rest hashed
        folder = ws / f"d{i // 1000}"
        folder.mkdir(exist_ok=True)
        (folder / f"f{i:05}.txt").write_bytes(os.urandom(4096))
    big = ws / "big"
    big.mkdir()
    for i in range(8):  # 8 x 64 MiB hashed whole: the 512 MiB hash budget (sparse: no disk)
        with open(big / f"h{i}.bin", "wb") as fh:
            fh.truncate(64 * MIB)
    with open(big / "huge.bin", "wb") as fh:  # sampled
        fh.truncate(1 << 30)
    deep = ws
    for _ in range(200):
        deep = deep / "x"
    deep.mkdir(parents=True)
    t0 = time.perf_counter()
    snap = world.fs.snapshot()
    seconds = time.perf_counter() - t0
    size = len(json.dumps(snap))
    world.discard()
    return seconds, f"{len(snap['files'])} files recorded, truncated {snap.get('truncated')}, JSON {size / MIB:.1f} MiB"


def case_disarm() -> tuple[float, str]:
    world = _world()
    ws = world.workspace
    host = ws.parent / "host.txt"
    host.write_text("host")
    for i in range(100):
        folder = ws / f"d{i:03}"
        folder.mkdir()
        for j in range(990):
            (folder / f"f{j}").touch()
        os.symlink("/etc/hostname", folder / "out-link")
        os.mkfifo(folder / "pipe")
        os.link(host, folder / "hard")
    t0 = time.perf_counter()
    removed = world.fs.disarm()
    seconds = time.perf_counter() - t0
    complete = world.fs.last_sweep.complete
    world.discard()
    return seconds, f"removed {len(removed)} links/FIFOs/hard links of ~100,000 entries; complete walk: {complete}"


def case_checker_read() -> tuple[float, str]:
    world = _world()
    (world.workspace / "report.bin").write_bytes(os.urandom(64 * MIB))
    t0 = time.perf_counter()
    data = world.fs.read_bytes("report.bin")
    seconds = time.perf_counter() - t0
    world.discard()
    return seconds, f"read {len(data)} bytes (one byte more is refused)"


CASES: dict[str, tuple[str, str, Callable[[], tuple[float, str]]]] = {
    "fork": ("agents", "fork bomb to the process limit (512)", case_fork_bomb),
    "flood": ("agents", "stdout flood of 1 GiB (16 MiB kept)", case_flood),
    "memory": ("agents", "memory hog at memory=512M", case_memory),
    "daemon": ("agents", "daemon double-forked, env cleared", case_daemon),
    "snapshot": ("fs", "snapshot at the workspace limits", case_snapshot),
    "disarm": ("fs", "sweep of 100,000 workspace entries", case_disarm),
    "read": ("fs", "checker read of a 64 MiB deliverable", case_checker_read),
}


def run_case(name: str) -> dict[str, Any]:
    service, case, fn = CASES[name]
    import pytest_clawmark.agents.command  # noqa: F401 - imports are not the case's cost
    import pytest_clawmark.world  # noqa: F401

    before = rss_mb()
    seconds, note = fn()
    return {
        "service": service,
        "case": case,
        "seconds": round(seconds, 3),
        "rss_growth_mb": round(max(0.0, _peak_mb() - before), 1),
        "note": note,
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--json", action="store_true", help="print one JSON list (for benchmarks/hostile.py)")
    parser.add_argument("--case", choices=sorted(CASES), help="run one case in this interpreter")
    args = parser.parse_args(argv)
    if args.case:
        print(json.dumps(run_case(args.case)))
        return 0
    rows = []
    for name, (service, case, _) in CASES.items():
        proc = subprocess.run([sys.executable, str(HERE), "--case", name], capture_output=True, text=True, timeout=600)
        lines = [line for line in proc.stdout.splitlines() if line.startswith("{")]
        if proc.returncode != 0 or not lines:
            last = (proc.stderr.strip().splitlines() or ["no output"])[-1]
            rows.append(
                {
                    "service": service,
                    "case": case,
                    "seconds": float("nan"),
                    "rss_growth_mb": float("nan"),
                    "note": f"failed: {last}",
                }
            )
        else:
            rows.append(json.loads(lines[-1]))
    if args.json:
        print(json.dumps(rows))
    else:
        for r in rows:
            print(
                f"{r['service']:<7} {r['case']:<42} {r['seconds']:>8.3f} s {r['rss_growth_mb']:>7.1f} MB  {r['note']}"
            )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
