"""Under ``-n N`` a task trial runs whole, in order, on one worker: the grouping, on hand-made node ids.

Pure and fast: no workers are started. The last test drives xdist's own scope scheduler with
stand-in workers, to show the grouping is what it actually hands out.
"""

from __future__ import annotations

from itertools import groupby
from types import SimpleNamespace
from typing import Any

import pytest

from pytest_clawmark.xdist_scheduling import TrialScheduling, is_task_node_id, trial_scope

SCOPES = [
    # node id, its scheduling unit, whether it is a task's turn or checker
    ("tasks/hr/task_hiring.py::trial1::day1::turn", "tasks/hr/task_hiring.py::trial1", True),
    ("tasks/hr/task_hiring.py::trial1::day1::offer_sent", "tasks/hr/task_hiring.py::trial1", True),
    ("tasks/hr/task_hiring.py::trial1::final::final_log", "tasks/hr/task_hiring.py::trial1", True),
    ("tasks/hr/task_hiring.py::trial12::day3::turn", "tasks/hr/task_hiring.py::trial12", True),
    ("task_basic.py::trial2::day2::inbox_untouched", "task_basic.py::trial2", True),
    (
        "tasks/hr/hiring_loop/task.py::trial1::day1::turn",
        "tasks/hr/hiring_loop/task.py::trial1",
        True,
    ),  # upstream format
    ("task_basic.py::trial1::day1::check[a::b]", "task_basic.py::trial1", True),  # "::" inside a name
    ("task_basic.py::trial1::week1::turn", "task_basic.py::trial1", False),  # under a trial, but no day
    ("task_basic.py::trial1", "task_basic.py", False),  # the trial collector itself
    ("task_basic.py", "task_basic.py", False),
    ("tests/test_scoring.py::test_eq1", "tests/test_scoring.py", False),
    ("tests/test_scoring.py::TestGroup::test_method", "tests/test_scoring.py", False),  # per file, not per class
    ("tests/test_scoring.py::test_p[trial1-day1]", "tests/test_scoring.py", False),
    ("tests/test_scoring.py::test_p[a::b]::x", "tests/test_scoring.py", False),
    ("tests/test_odd.py::trial::day1::turn", "tests/test_odd.py", False),  # "trial" without a number
    ("tests/test_odd.py::trialx::day1::turn", "tests/test_odd.py", False),
    ("tests/test_odd.py::trial_1::day1::turn", "tests/test_odd.py", False),
    ("tests/test_odd.py::Trial1::day1::turn", "tests/test_odd.py", False),
]


@pytest.mark.parametrize(("nodeid", "scope", "task_item"), SCOPES, ids=[s[0] for s in SCOPES])
def test_trial_scope_and_task_ids(nodeid: str, scope: str, task_item: bool) -> None:
    assert trial_scope(nodeid) == scope
    assert is_task_node_id(nodeid) is task_item


def task_collection(path: str, trials: int, days: int = 2) -> list[str]:
    """A task's node ids as collection lists them: per trial, each day's turn then checkers, then final."""
    ids = []
    for k in range(1, trials + 1):
        for d in range(1, days + 1):
            ids += [f"{path}::trial{k}::day{d}::turn", f"{path}::trial{k}::day{d}::check_{d}"]
        ids.append(f"{path}::trial{k}::final::final_log")
    return ids


COLLECTION = [
    *task_collection("tasks/hr/task_a.py", trials=3),
    "tests/test_plain.py::test_one",
    "tests/test_plain.py::TestX::test_two",
    *task_collection("tasks/pm/task_b.py", trials=2, days=3),
]


def test_one_unit_per_task_trial_and_one_per_plain_file() -> None:
    units = [(scope, list(ids)) for scope, ids in groupby(COLLECTION, key=trial_scope)]
    assert [scope for scope, _ in units] == [
        "tasks/hr/task_a.py::trial1",
        "tasks/hr/task_a.py::trial2",
        "tasks/hr/task_a.py::trial3",
        "tests/test_plain.py",
        "tasks/pm/task_b.py::trial1",
        "tasks/pm/task_b.py::trial2",
    ]
    assert len({scope for scope, _ in units}) == len(units)  # each unit in one run of the collection
    for scope, ids in units:
        if "::trial" in scope:
            assert ids[0] == f"{scope}::day1::turn" and ids[-1] == f"{scope}::final::final_log"


class StandInWorker:
    """What xdist's scheduler needs of a worker: it records what it was sent, in order."""

    def __init__(self, name: str) -> None:
        self.gateway = SimpleNamespace(id=name)
        self.shutting_down = False
        self.batches: list[list[int]] = []

    def send_runtest_some(self, indices: list[int]) -> None:
        self.batches.append(list(indices))

    def shutdown(self) -> None:
        self.shutting_down = True

    def __repr__(self) -> str:
        return f"<worker {self.gateway.id}>"


def scheduler(workers: int) -> TrialScheduling:
    config: Any = SimpleNamespace(
        getvalue=lambda name: [f"{workers}*popen"] if name == "tx" else None,
        option=SimpleNamespace(loadscopereorder=True),
    )
    return TrialScheduling(config)


def test_xdist_hands_each_trial_whole_and_in_order_to_one_worker() -> None:
    sched = scheduler(2)
    workers = [StandInWorker("gw0"), StandInWorker("gw1")]
    for w in workers:
        sched.add_node(w)
    for w in workers:
        sched.add_node_collection(w, COLLECTION)
    sched.schedule()
    ran: dict[str, list[str]] = {w.gateway.id: [] for w in workers}
    done = {w.gateway.id: 0 for w in workers}  # batches finished so far, per worker
    while any(done[w.gateway.id] < len(w.batches) for w in workers):  # each worker finishes its batches in turn
        for w in workers:
            if done[w.gateway.id] < len(w.batches):
                batch = w.batches[done[w.gateway.id]]
                done[w.gateway.id] += 1
                ran[w.gateway.id] += [COLLECTION[i] for i in batch]
                for i in batch:
                    sched.mark_test_complete(w, i)
    assert sched.tests_finished
    assert sorted(ran["gw0"] + ran["gw1"]) == sorted(COLLECTION)  # everything ran, once
    owner = {trial_scope(n): w for w, ids in ran.items() for n in ids}
    for w, ids in ran.items():
        assert all(owner[trial_scope(n)] == w for n in ids)  # a unit never spans two workers
        for scope in {trial_scope(n) for n in ids}:
            assert [n for n in ids if trial_scope(n) == scope] == [
                n for n in COLLECTION if trial_scope(n) == scope
            ]  # in order
    assert {owner[f"tasks/hr/task_a.py::trial{k}"] for k in (1, 2, 3)} == {"gw0", "gw1"}  # a task's trials do spread
