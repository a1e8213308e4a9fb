"""What does the bwrap sandbox add to an agent turn?

    python benchmarks/agent_sandbox.py [--runs 50]

Each sample starts a process the way the command agent does (``subprocess.Popen`` with its own
session, a clean environment, stdin fed and closed) and waits for it, once directly
(``--agent-isolation=none``) and once through :class:`~pytest_clawmark.agents.sandbox.Sandbox`
(``bwrap``), with a workspace and a home bound read-write as in a real trial. Two commands: ``true``
(the pure cost of setting up the namespaces and mounts) and ``python -c pass`` (what an agent
written in Python pays, interpreter start included). Reports median and p90 wall time in ms.
"""

from __future__ import annotations

import argparse
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from pytest_clawmark.agents.sandbox import (
    BWRAP,
    NONE,
    Isolation,
    Sandbox,
    bwrap_problem,
    default_readonly,
)


def sample(argv: list[str], cwd: Path, runs: int) -> list[float]:
    times = []
    for _ in range(runs):
        t0 = time.perf_counter()
        proc = subprocess.Popen(
            argv,
            cwd=cwd,
            env={"PATH": "/usr/bin:/bin", "HOME": str(cwd)},
            stdin=subprocess.PIPE,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
            start_new_session=True,
        )
        proc.communicate(b"hello")
        times.append((time.perf_counter() - t0) * 1000)
        if proc.returncode != 0:
            raise SystemExit(f"{argv[-3:]} exited {proc.returncode}")
    return times


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=50)
    args = parser.parse_args()
    if bwrap_problem():
        raise SystemExit(f"no sandbox here: {bwrap_problem()}")
    root = Path(tempfile.mkdtemp(prefix="clawmark-bench-"))
    try:
        ws, home = root / "workspace", root / "agent-home"
        ws.mkdir(), home.mkdir()
        print(f"{'command':<18} {'isolation':<9} {'median ms':>9} {'p90 ms':>8}")
        for name, argv in (
            ("true", [shutil.which("true") or "/bin/true"]),
            ("python -c pass", [sys.executable, "-c", "pass"]),
        ):
            for mode in (NONE, BWRAP):
                box = Sandbox(Isolation(mode), readonly=default_readonly(), writable=[ws, home])
                wrapped = box.wrap(argv, cwd=ws)
                sample(wrapped, ws, 3)  # warm caches
                t = sorted(sample(wrapped, ws, args.runs))
                print(f"{name:<18} {mode:<9} {statistics.median(t):9.1f} {t[int(0.9 * (len(t) - 1))]:8.1f}")
    finally:
        shutil.rmtree(root, ignore_errors=True)


if __name__ == "__main__":
    main()
