"""The docker backend's world beside the local one: start-to-ready, teardown, memory — and, with
``--corpus``, the whole corpus's verdicts on both backends.

    python benchmarks/container_world.py [--runs 10]
    python benchmarks/container_world.py --corpus [--agents reference noop]

Start-to-ready is World.start() + World.ping(): every agent-plane endpoint answered a real
protocol round trip (containers: also their control plane's readiness). The docker world runs the
mail, calendar, knowledge base and sheets in containers (fs is a folder); it is measured with
its containers started one after the other and side by side. Memory: the engine-reported memory of
a world's containers (``docker stats``), and the resident-set growth of this process per local
world. Needs a Docker engine (``DOCKER_HOST``) and the images (``clawmark images build``).
Target (issue 11): ≤ 2 s to ready.
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from pytest_clawmark.backends.images import current_tag, engine_problem
from pytest_clawmark.world import Person, World
from pytest_clawmark.world.service import DOCKER_SERVICES

USER = Person("Bench User", "bench.user@clawmark.example")
PEOPLE = [Person(f"Colleague {i}", f"colleague{i}@clawmark.example") for i in range(5)]
SERVICES = ["fs", "mail", "calendar", "kb", "sheets"]
REPO = Path(__file__).resolve().parents[1]


def one_world(root: Path, backend: str, parallel: bool, memory: bool) -> tuple[float, float, float]:
    w = World(SERVICES, root, user=USER, people=PEOPLE, backend=backend)
    w.parallel_containers = parallel
    t0 = time.perf_counter()
    w.start()
    w.ping()
    ready = time.perf_counter() - t0
    mem = container_memory_mb(root) if memory and backend == "docker" else 0.0
    t1 = time.perf_counter()
    w.stop()
    stop = time.perf_counter() - t1
    w.discard()
    return ready, stop, mem


def container_memory_mb(root: Path) -> float:
    ids = subprocess.run(
        ["docker", "ps", "-q", "--filter", "label=org.clawmark.world"], capture_output=True, text=True
    ).stdout.split()
    mine = [
        i
        for i in ids
        if str(root)
        in subprocess.run(
            ["docker", "inspect", "--format", '{{index .Config.Labels "org.clawmark.world"}}', i],
            capture_output=True,
            text=True,
        ).stdout
    ]
    if not mine:
        return 0.0
    out = subprocess.run(
        ["docker", "stats", "--no-stream", "--format", "{{.MemUsage}}", *mine], capture_output=True, text=True
    ).stdout
    total = 0.0
    for line in out.splitlines():
        used = line.split("/")[0].strip()
        number, unit = float(used.rstrip("KMGiB")), used.lstrip("0123456789.")
        total += number * {"KiB": 1 / 1024, "MiB": 1, "GiB": 1024, "B": 1 / 2**20}.get(unit, 1)
    return total


def worlds(runs: int) -> None:
    base = Path(tempfile.mkdtemp(prefix="clawmark-bench-containers-"))
    one_world(base / "warm-local", "local", True, False)
    one_world(base / "warm-docker", "docker", True, False)
    rows = []
    for label, backend, parallel in (
        ("local (embedded)", "local", True),
        ("docker, containers one by one", "docker", False),
        ("docker, containers side by side", "docker", True),
    ):
        readies, stops, mems = [], [], []
        for i in range(runs):
            ready, stop, mem = one_world(base / f"{backend}-{parallel}-{i}", backend, parallel, memory=i == 0)
            readies.append(ready)
            stops.append(stop)
            mems.append(mem)
        rows.append((label, statistics.median(readies), max(readies), statistics.median(stops), mems[0]))
    print(
        f"world: {' + '.join(SERVICES)}  ({runs} runs each, this machine; docker: {', '.join(s for s in SERVICES if s in DOCKER_SERVICES)} in containers)"
    )
    print(f"{'backend':<34}{'ready median':>14}{'ready max':>11}{'stop median':>13}{'containers MB':>15}")
    for label, med, worst, stop, mem in rows:
        print(f"{label:<34}{med * 1000:>11.0f} ms{worst * 1000:>8.0f} ms{stop * 1000:>10.0f} ms{mem:>15.0f}")


def corpus(agents: list[str], paths: list[str], workers: int) -> int:
    """Every checker's outcome and message on both backends; exit 1 on any difference."""
    tmp = Path(tempfile.mkdtemp(prefix="clawmark-bench-parity-"))
    differences = 0
    for agent in agents:
        verdicts, seconds = {}, {}
        for backend in ("local", "docker"):
            out = tmp / f"{agent}-{backend}.json"
            t0 = time.perf_counter()
            subprocess.run(
                [
                    sys.executable,
                    "-m",
                    "pytest",
                    *paths,
                    f"--agent={agent}",
                    f"--clawmark-backend={backend}",
                    f"--clawmark-json={out}",
                    f"--clawmark-evidence={tmp / (agent + '-' + backend)}",
                    "-n",
                    str(workers),
                    "-q",
                    "-p",
                    "no:cacheprovider",
                    "--clawmark-progress=off",
                ],
                cwd=REPO,
                capture_output=True,
                check=False,
            )
            seconds[backend] = time.perf_counter() - t0
            doc = json.loads(out.read_text())
            verdicts[backend] = {
                (t["id"], t["trial"], c["id"]): (c["outcome"], c["message"])
                for t in doc["tasks"]
                for c in t["checkers"]
            }
        diff = sorted(
            k
            for k in verdicts["local"].keys() | verdicts["docker"].keys()
            if verdicts["local"].get(k) != verdicts["docker"].get(k)
        )
        differences += len(diff)
        failing = sum(o != "passed" for o, _ in verdicts["local"].values())
        print(
            f"{agent}: {len(verdicts['local'])} checkers ({failing} not passed), {len(diff)} differ; "
            f"run local {seconds['local']:.0f} s, docker {seconds['docker']:.0f} s (-n {workers})"
        )
        for key in diff[:10]:
            print(f"  {key}: local {verdicts['local'].get(key)} docker {verdicts['docker'].get(key)}")
    return 1 if differences else 0


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--runs", type=int, default=10)
    ap.add_argument(
        "--corpus", action="store_true", help="compare every checker's verdict and message on both backends"
    )
    ap.add_argument("--agents", nargs="+", default=["reference", "noop"])
    ap.add_argument("--paths", nargs="+", default=["tasks"])
    ap.add_argument("-n", dest="workers", type=int, default=2)
    args = ap.parse_args()
    problem = engine_problem()
    if problem or not current_tag("servers"):
        print(f"container_world: {problem or 'build the images first: clawmark images build'}", file=sys.stderr)
        return 2
    if args.corpus:
        return corpus(args.agents, args.paths, args.workers)
    worlds(args.runs)
    return 0


if __name__ == "__main__":
    sys.exit(main())
