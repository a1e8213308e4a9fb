"""xdist scheduling that keeps each task trial whole, in order, on one worker.

xdist's default ``load`` mode hands out single items, which would split a task's days across
workers. This is ``--dist loadscope`` with the scope being the task trial: ``module::trialK``
(every task has ``trial1 .. trialN`` children, whatever ``--clawmark-trials`` is). Other test
files are scheduled per file.

The node-id rules are plain functions (:func:`trial_scope`, :func:`is_task_node_id`) so that
they can be tested on hand-made node ids, without workers.
"""

from __future__ import annotations

from xdist.scheduler import LoadScopeScheduling


def _is_trial_name(name: str) -> bool:
    """``trial1``, ``trial12``: a task module's child (not ``trial``, ``trialx``, ``trial_1``)."""
    return name.startswith("trial") and name[5:].isdigit()


def trial_scope(nodeid: str) -> str:
    """The unit xdist hands one worker: the task trial (``path::trialK``) for a task's items,
    the file for anything else."""
    parts = nodeid.split("::")
    if len(parts) > 2 and _is_trial_name(parts[1]):
        return "::".join(parts[:2])
    return parts[0]


def is_task_node_id(nodeid: str) -> bool:
    """A turn or checker of a task trial: ``path::trialK::dayN|final::name``."""
    parts = nodeid.split("::")
    return len(parts) >= 4 and _is_trial_name(parts[1]) and (parts[2] == "final" or parts[2].startswith("day"))


class TrialScheduling(LoadScopeScheduling):
    def _split_scope(self, nodeid: str) -> str:
        return trial_scope(nodeid)
