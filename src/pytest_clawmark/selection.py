"""Task-aware selection: what a pytest selection (-k, -m, --lf, --ff, --sw, node ids, --deselect)
means for a multi-day task, and which of its trials a resumed run keeps.

Rule (docs/selection.md): a checker judges the world *after its day*, so a selected checker
needs every earlier turn of its trial and the checkers it ``requires=``. The selection is closed
over those dependencies — they run, the agent is woken as usual — and what runs is only what
was selected plus what it depends on. A trial that does not evaluate every checker of its task
is a *partial* measurement: it reports its checkers' verdicts and never a score. Whole trials
selected or deselected (``pytest tasks/pm``, ``-k clinical``) stay complete measurements.

Within a trial, items are put back in day order whatever other plugins did to the order
(``--ff`` runs failures first; a day-2 checker before the day-1 turn would judge the wrong world).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field

import pytest

from .authoring import FINAL
from .collect import CheckerItem, DayNode, TrialNode, TurnItem, trial_of
from .trial import TrialPlan


@dataclass
class Closure:
    items: list[pytest.Item]  # the final items, in run order
    added: list[pytest.Item] = field(default_factory=list)  # deselected items put back as dependencies
    partial: list[TrialNode] = field(default_factory=list)  # trials that run only part of their task


def _is_task_item(item: pytest.Item) -> bool:
    return isinstance(item, (TurnItem, CheckerItem))


def _order_key(item: pytest.Item) -> tuple[int, int]:
    if isinstance(item, TurnItem):
        return item.turn.day, -1
    assert isinstance(item, CheckerItem)
    task = trial_of(item).task
    day = task.days + 1 if item.checker.day == FINAL else int(item.checker.day)
    return day, task.checkers.index(item.checker)


def close(selected: list[pytest.Item], deselected: Iterable[pytest.Item]) -> Closure:
    """Close the selection over each trial's dependencies and assign every trial its plan.

    A dependency that pytest deselected is put back; one it never collected (a node id such as
    ``task.py::trial1::day2`` collects only that day) is made from the trial's declarations.
    """
    chosen: dict[TrialNode, set[pytest.Item]] = {}
    for item in selected:
        if _is_task_item(item):
            chosen.setdefault(trial_of(item), set()).add(item)
    known: dict[str, pytest.Item] = {
        i.nodeid: i for i in [*selected, *deselected] if _is_task_item(i) and trial_of(i) in chosen
    }

    added: list[pytest.Item] = []
    for trial, mine in chosen.items():
        task = trial.task
        last = min(max(_order_key(i)[0] for i in mine), task.days)
        checker_ids = {i.checker.id for i in mine if isinstance(i, CheckerItem)}
        by_id = {c.id: c for c in task.checkers}
        todo = list(checker_ids)
        while todo:  # requires= is transitive: a prerequisite's prerequisites run too
            for req in by_id[todo.pop()].requires:
                if req not in checker_ids:
                    checker_ids.add(req)
                    todo.append(req)
        have = {i.nodeid for i in mine}
        for item in _declared_items(trial, known):
            needed = (isinstance(item, TurnItem) and item.turn.day <= last) or (
                isinstance(item, CheckerItem) and item.checker.id in checker_ids
            )
            if needed and item.nodeid not in have:
                mine.add(item)
                have.add(item.nodeid)
                added.append(item)

    ordered: list[pytest.Item] = []
    emitted: set[TrialNode] = set()
    partial: list[TrialNode] = []
    for item in selected:
        if not _is_task_item(item):
            ordered.append(item)
            continue
        trial = trial_of(item)
        if trial in emitted:
            continue
        emitted.add(trial)
        mine = sorted(chosen[trial], key=_order_key)
        ordered.extend(mine)
        days = frozenset(i.turn.day for i in mine if isinstance(i, TurnItem))
        checkers = frozenset(i.checker.id for i in mine if isinstance(i, CheckerItem))
        whole = TrialPlan.whole(trial.task)
        trial.plan = TrialPlan(days, checkers, selection=(days, checkers) != (whole.days, whole.checkers))
        if trial.plan.selection:
            partial.append(trial)
    return Closure(ordered, added, partial)


def _declared_items(trial: TrialNode, known: dict[str, pytest.Item]) -> list[pytest.Item]:
    """Every item the trial declares, reusing the collected ones (and their day nodes)."""
    days: dict[str, pytest.Collector] = {}
    for item in known.values():
        if trial_of(item) is trial and item.parent is not None:
            days.setdefault(item.parent.name, item.parent)
    items: list[pytest.Item] = []
    for fresh_day in trial.collect():
        day = days.get(fresh_day.name, fresh_day)
        assert isinstance(day, DayNode)
        for fresh in fresh_day.collect():
            existing = known.get(fresh.nodeid)
            if existing is not None:
                items.append(existing)
            elif isinstance(fresh, TurnItem):
                items.append(TurnItem.from_parent(day, name=fresh.name, turn=fresh.turn))
            else:
                assert isinstance(fresh, CheckerItem)
                items.append(CheckerItem.from_parent(day, name=fresh.name, checker=fresh.checker))
    return items


def trials_of(items: Iterable[pytest.Item]) -> list[TrialNode]:
    """The trials the items belong to, in run order, each once."""
    seen: dict[TrialNode, None] = {}
    for item in items:
        if _is_task_item(item):
            seen.setdefault(trial_of(item), None)
    return list(seen)
