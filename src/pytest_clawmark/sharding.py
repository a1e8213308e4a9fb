"""``--clawmark-shard=I/N``: one of N machines' share of a run, task-aware and deterministic.

Why by task: a task's trials and days share nothing across tasks, but a task's days must run in
one world and its trials belong to one measurement, so a shard takes whole tasks (every trial),
and each shard's results are complete measurements that ``clawmark merge`` can join. Why not by
hash: a hash balances counts, not time. Tasks are dealt greedily by their number of agent-days
(days x trials: the agent's minutes are the run's time), largest first, each to the shard with the
least so far, ties broken by path — the same collection gives the same shards on every machine.

The index may come from the environment, so one manifest serves every pod of a Kubernetes
Indexed Job: ``--clawmark-shard=N`` (or ``/N``) takes ``JOB_COMPLETION_INDEX`` (0-based) + 1.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from dataclasses import dataclass


class ShardError(ValueError):
    """A shard specification that cannot be used (one line: what to write instead)."""


@dataclass(frozen=True)
class Shard:
    index: int  # 1-based
    count: int

    def __str__(self) -> str:
        return f"{self.index}/{self.count}"

    def to_json(self) -> dict[str, int]:
        return {"index": self.index, "count": self.count}


def parse_shard(text: str, environ: Mapping[str, str] | None = None) -> Shard:
    """``"2/4"``; ``"4"`` or ``"/4"`` with the index from ``JOB_COMPLETION_INDEX`` (0-based)."""
    env = os.environ if environ is None else environ
    head, slash, tail = text.strip().partition("/")
    count_text, index_text = (tail, head) if slash else (head, "")
    try:
        count = int(count_text)
    except ValueError:
        raise ShardError(f"--clawmark-shard takes I/N (e.g. 2/4), got {text!r}") from None
    if count < 1:
        raise ShardError(f"--clawmark-shard: the number of shards must be at least 1, got {count}")
    if index_text.strip():
        try:
            index = int(index_text)
        except ValueError:
            raise ShardError(f"--clawmark-shard takes I/N (e.g. 2/4), got {text!r}") from None
    elif "JOB_COMPLETION_INDEX" in env:
        try:
            index = int(env["JOB_COMPLETION_INDEX"]) + 1
        except ValueError:
            raise ShardError(f"JOB_COMPLETION_INDEX is not a number: {env['JOB_COMPLETION_INDEX']!r}") from None
    else:
        raise ShardError(
            f"--clawmark-shard={text}: give the index (I/{count}) or run where JOB_COMPLETION_INDEX is set"
        )
    if not 1 <= index <= count:
        raise ShardError(f"--clawmark-shard: the index must be between 1 and {count}, got {index}")
    return Shard(index, count)


def assign(weights: Mapping[str, int], count: int) -> dict[str, int]:
    """Task path -> shard (1-based): largest first, to the least loaded shard (ties: lowest index)."""
    load = [0] * count
    out: dict[str, int] = {}
    for path in sorted(weights, key=lambda p: (-weights[p], p)):
        k = min(range(count), key=lambda i: (load[i], i))
        out[path] = k + 1
        load[k] += max(1, weights[path])
    return out
