"""How fast does a world start and stop, and how much memory does it take?

    python benchmarks/world_start.py [--runs 30] [--services fs mail calendar kb sheets]

Start time is measured from "start a world with these services" until "every agent-plane endpoint
answers" (World.start() followed by World.ping(), which makes a real protocol round trip to each
server). Teardown is World.stop(). Memory is the resident-set growth of this process per world,
measured with several worlds alive at once (after one warm-up world, so imports are not counted).
Targets (issue 3): median start < 300 ms for all five services, < 80 MB per world.
"""

from __future__ import annotations

import argparse
import gc
import statistics
import tempfile
import time
from pathlib import Path

from benchmark_support import rss_mb

from pytest_clawmark.world import Person, World
from pytest_clawmark.world.world import SERVICE_ORDER

USER = Person("Bench User", "bench.user@clawmark.example")
PEOPLE = [Person(f"Colleague {i}", f"colleague{i}@clawmark.example") for i in range(5)]


def make(root: Path, services: list[str]) -> World:
    return World(services, root, user=USER, people=PEOPLE)


def pct(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(q * (len(ordered) - 1)))]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--runs", type=int, default=30)
    ap.add_argument("--services", nargs="+", default=list(SERVICE_ORDER))
    ap.add_argument("--alive", type=int, default=5, help="worlds alive at once for the memory figure")
    args = ap.parse_args()
    base = Path(tempfile.mkdtemp(prefix="clawmark-bench-"))

    warm = make(base / "warm", args.services).start()  # imports, first-use caches
    warm.ping()
    warm.discard()

    starts, pings, stops = [], [], []
    for i in range(args.runs):
        w = make(base / f"w{i}", args.services)
        t0 = time.perf_counter()
        w.start()
        t1 = time.perf_counter()
        w.ping()
        t2 = time.perf_counter()
        w.stop()
        t3 = time.perf_counter()
        w.discard()
        starts.append(t2 - t0)
        pings.append(t2 - t1)
        stops.append(t3 - t2)

    gc.collect()
    before = rss_mb()
    alive = [make(base / f"m{i}", args.services).start() for i in range(args.alive)]
    for w in alive:
        w.ping()
    gc.collect()
    per_world = (rss_mb() - before) / args.alive
    for w in alive:
        w.discard()

    ms = lambda xs, f: f"{1000 * f(xs):8.1f}"  # noqa: E731
    print(f"world: {' + '.join(args.services)}  ({args.runs} runs, this machine)")
    print(f"{'measure':<34}{'median':>9}{'p95':>9}{'max':>9}")
    print(
        f"{'start → all endpoints answer (ms)':<34}{ms(starts, statistics.median)}{ms(starts, lambda x: pct(x, 0.95))}{ms(starts, max)}"
    )
    print(
        f"{'  of which readiness ping (ms)':<34}{ms(pings, statistics.median)}{ms(pings, lambda x: pct(x, 0.95))}{ms(pings, max)}"
    )
    print(f"{'teardown (ms)':<34}{ms(stops, statistics.median)}{ms(stops, lambda x: pct(x, 0.95))}{ms(stops, max)}")
    print(f"{'resident memory per world (MB)':<34}{per_world:9.2f}   (RSS growth per world, {args.alive} worlds alive)")
    print(f"{'process RSS, imports + servers (MB)':<34}{before:9.1f}   (shared by every world of a worker)")


if __name__ == "__main__":
    main()
