"""--clawmark-shard=I/N (issue 11): whole tasks per shard, deterministic, balanced by agent-days;
the shards' results merge into the single run's measurement, and only as a whole set."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from conftest import REPO
from pytest_clawmark.merging import merge_problems
from pytest_clawmark.sharding import Shard, ShardError, assign, parse_shard


def test_parse_shard_and_the_kubernetes_index() -> None:
    assert parse_shard("2/4") == Shard(2, 4) and str(Shard(2, 4)) == "2/4"
    assert parse_shard("4", {"JOB_COMPLETION_INDEX": "0"}) == Shard(1, 4)  # Indexed Jobs count from 0
    assert parse_shard("/3", {"JOB_COMPLETION_INDEX": "2"}) == Shard(3, 3)
    for text, env, message in [
        ("5/4", {}, "between 1 and 4"), ("0/4", {}, "between 1 and 4"), ("a/b", {}, "takes I/N"), ("3", {}, "give the index"),
        ("2/0", {}, "at least 1"), ("4", {"JOB_COMPLETION_INDEX": "x"}, "not a number"),
    ]:  # fmt: skip
        with pytest.raises(ShardError, match=message):
            parse_shard(text, env)


def test_assignment_is_deterministic_whole_and_balanced() -> None:
    weights = {"tasks/a.py": 8, "tasks/b.py": 3, "tasks/c.py": 3, "tasks/d.py": 2, "tasks/e.py": 4}
    owner = assign(weights, 2)
    assert owner == assign(dict(reversed(weights.items())), 2)  # the order tasks were collected in does not matter
    load = {k: sum(w for t, w in weights.items() if owner[t] == k) for k in (1, 2)}
    assert sorted(load.values()) == [10, 10]
    assert set(assign(weights, 7).values()) <= set(range(1, 8)) and len(set(assign(weights, 7).values())) == 5


def _run(args: list[str], cwd: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "pytest", *args, "-q", "-p", "no:cacheprovider", "--clawmark-progress=off"],
        cwd=cwd,
        capture_output=True,
        text=True,
        timeout=600,
    )


def test_shards_merge_into_the_single_runs_measurement(tmp_path: Path) -> None:
    paths = ["tasks/clinical", "tasks/hr", "tasks/pm", "tasks/legal"]
    single = tmp_path / "single.json"
    assert (
        _run(
            [*paths, "--agent=reference", f"--clawmark-json={single}", f"--clawmark-evidence={tmp_path / 's'}"], REPO
        ).returncode
        == 0
    )
    shards = []
    for i in (1, 2, 3):
        out = tmp_path / f"shard{i}.json"
        r = _run(
            [
                *paths,
                "--agent=reference",
                f"--clawmark-shard={i}/3",
                f"--clawmark-json={out}",
                f"--clawmark-evidence={tmp_path / str(i)}",
            ],
            REPO,
        )
        assert r.returncode == 0, r.stdout[-2000:]
        doc = json.loads(out.read_text())
        assert (
            doc["run"]["shard"] == {"index": i, "count": 3} and doc["run"]["status"] == "complete"
        )  # whole tasks: complete measurements
        shards.append(doc)
    ids = [sorted(t["id"] for t in d["tasks"]) for d in shards]
    assert sorted(sum(ids, [])) == sorted(t["id"] for t in json.loads(single.read_text())["tasks"]) and all(ids)

    # only the whole set merges
    assert merge_problems([("1", shards[0]), ("3", shards[2])]) == [
        "shard(s) 2 of 3 missing: a merge of some shards is not the run's measurement"
    ]
    assert any(
        "also" in p
        for p in merge_problems([("1", shards[0]), ("1 again", shards[0]), ("2", shards[1]), ("3", shards[2])])
    )
    faulted = {**shards[1], "run": {**shards[1]["run"], "faults": {"name": "light", "seed": 0}}}
    assert any(
        p.startswith("2: run.faults") for p in merge_problems([("1", shards[0]), ("2", faulted), ("3", shards[2])])
    )  # a shard under injected faults is another measurement
    merged = tmp_path / "merged.json"
    r = subprocess.run(
        [
            sys.executable,
            "-m",
            "pytest_clawmark.cli",
            "merge",
            str(merged),
            *[str(tmp_path / f"shard{i}.json") for i in (1, 2, 3)],
        ],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert r.returncode == 0, r.stderr
    a, b = json.loads(merged.read_text()), json.loads(single.read_text())
    assert a["run"]["shards"] == 3 and "shard" not in a["run"]
    timeless = lambda d: {k: v for k, v in d["summary"].items() if k != "efficiency"}  # noqa: E731  (efficiency holds seconds)
    assert timeless(a) == timeless(b)

    def verdicts(d: dict) -> list:
        return sorted((t["id"], c["id"], c["outcome"], c["message"]) for t in d["tasks"] for c in t["checkers"])

    assert verdicts(a) == verdicts(b)


def test_a_bad_shard_is_a_usage_error(tmp_path: Path) -> None:
    r = _run(["tasks/hr", "--agent=reference", "--clawmark-shard=3/2"], REPO)
    assert r.returncode == 4 and "the index must be between 1 and 2, got 3" in r.stderr
