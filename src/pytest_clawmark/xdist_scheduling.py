"""xdist scheduling that keeps each task trial whole, in order, on one worker.

xdist's default ``load`` mode hands out single items, which would split a task's days across
workers. This is ``--dist loadscope`` with the scope being the task trial: the module for a
single trial, ``module::trialK`` with ``--clawmark-trials``. Other test files are scheduled
per file.
"""

from __future__ import annotations

from xdist.scheduler import LoadScopeScheduling


class TrialScheduling(LoadScopeScheduling):
    def _split_scope(self, nodeid: str) -> str:
        parts = nodeid.split("::")
        if len(parts) > 2 and parts[1].startswith("trial") and parts[1][5:].isdigit():
            return "::".join(parts[:2])
        return parts[0]
