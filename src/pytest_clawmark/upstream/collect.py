"""Collecting upstream ClawMark task folders: ``pytest <checkout>/tasks --agent=...``.

Why a module subclass: an upstream ``task.py`` is imported under a name unique to its path (all
100 published files share the name ``task.py`` and have no packages, which pytest's own import
modes reject), validated with every problem located as ``file:line`` (:mod:`.format`), and
translated into our :class:`~pytest_clawmark.authoring.Task` (:mod:`.task`). From there on it
is an ordinary task module: trials, days, checkers, xdist, evidence, results.
"""

from __future__ import annotations

from pathlib import Path
from types import ModuleType

import pytest

from ..collect import TaskModule
from .format import UpstreamFormatError, import_module, load, looks_like_upstream, task_files
from .task import to_task

TASK_ATTRIBUTE = "__clawmark_task__"
"""Where the translated task is kept on the imported module (TaskModule finds it there)."""

LICENCE = (
    "upstream ClawMark format: the published corpus (github.com/evolvent-ai/ClawMark) is licensed CC BY-NC 4.0 "
    "by Evolvent AI (non-commercial use, with attribution); these task folders are read from your disk, pytest-clawmark ships none"
)


class UpstreamTaskModule(TaskModule):
    """A ``task.py`` in the upstream ClawMark format."""

    def _getobj(self) -> ModuleType:
        try:
            module = import_module(self.path)
            task = to_task(load(self.path, module))
        except UpstreamFormatError as exc:
            raise self.CollectError(_relative(str(exc), self.config.rootpath)) from None
        setattr(module, TASK_ATTRIBUTE, task)
        return module


def collect_file(file_path: Path, parent: pytest.Collector) -> pytest.Collector | None:
    """The ``pytest_collect_file`` hook's work (see plugin.py)."""
    if file_path.name == "task.py" and looks_like_upstream(file_path):
        return UpstreamTaskModule.from_parent(parent, path=file_path)
    return None


def upstream_paths(args: list[str], limit: int = 2000) -> bool:
    """Whether the run's arguments name any upstream task (for the licence line); at most
    ``limit`` candidate files are read."""
    return next(task_files(args, examine=limit), None) is not None


def _relative(text: str, root: Path) -> str:
    return text.replace(str(root).rstrip("/") + "/", "")
