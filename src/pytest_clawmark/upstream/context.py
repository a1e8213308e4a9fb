"""The ``ctx`` an upstream task's stages and checkers receive, bound to one trial's world.

Why one object per world: upstream passes the same ``TaskContext`` to every stage and checker of
a run, and tasks rely on that (``ctx.notion``'s current page, attributes a stage stores on ``ctx``
for a later checker). Our turns and checkers receive the world, so the context is kept per world
(:func:`context_of`), made on first use and gone with the world. A reference twin or another
trial has its own world, hence its own context.

Attributes are upstream's: ``fs``/``filesystem``, ``email``, ``notion``, ``google_sheets``,
``calendar`` (those of the task's ``environments``), ``sandbox``, ``task_dir``, ``workspace`` (the
copy of the workspace after the latest stage, ``None`` before the first) and ``snapshots``.
"""

from __future__ import annotations

import weakref
from pathlib import Path
from typing import Any

from ..world.service import Person
from .email_adapter import UpstreamEmail
from .exec import UpstreamSandbox
from .fs_adapter import UpstreamFs
from .snapshot import SnapshotCopy, copy_workspace

ENVIRONMENTS: dict[str, str] = {
    "filesystem": "fs",
    "email": "mail",
    "calendar": "calendar",
    "notion": "kb",
    "google_sheets": "sheets",
}
"""Upstream environment name -> our service."""


class UpstreamContext:
    def __init__(self, world: Any, *, task_dir: Path, environments: list[str], mail_users: dict[str, Person]) -> None:
        self._world = world
        self.task_dir = Path(task_dir)
        self.workspace: Path | None = None
        self.snapshots: dict[str, Path] = {}
        self.copies: dict[str, SnapshotCopy] = {}
        self.sandbox = UpstreamSandbox(world, hidden=(self.task_dir,))
        self.fs = self.filesystem = UpstreamFs(world, self.sandbox)
        managers: dict[str, Any] = {"filesystem": self.fs}
        if "email" in environments:
            managers["email"] = UpstreamEmail(world, mail_users)
        if "notion" in environments:
            from .notion_adapter import UpstreamNotion

            managers["notion"] = UpstreamNotion(world)
        if "google_sheets" in environments:
            from .sheets_adapter import UpstreamSheets

            managers["google_sheets"] = UpstreamSheets(world)
        if "calendar" in environments:
            from .calendar_adapter import UpstreamCalendar

            managers["calendar"] = UpstreamCalendar(world)
        self._managers = managers
        for name, manager in managers.items():
            setattr(self, name, manager)

    def freeze_workspace(self, stage_id: str) -> SnapshotCopy:
        """Copy the workspace as the stage left it; ``ctx.workspace`` becomes the copy."""
        copy = copy_workspace(Path(self._world.workspace), Path(self._world.root) / "upstream-snapshots" / stage_id)
        self.workspace = copy.path
        self.snapshots[stage_id] = copy.path
        self.copies[stage_id] = copy
        return copy


_CONTEXTS: weakref.WeakKeyDictionary[Any, UpstreamContext] = weakref.WeakKeyDictionary()


def context_of(
    world: Any, *, task_dir: Path, environments: list[str], mail_users: dict[str, Person]
) -> UpstreamContext:
    """The world's context, made on first use."""
    ctx = _CONTEXTS.get(world)
    if ctx is None:
        ctx = _CONTEXTS[world] = UpstreamContext(
            world, task_dir=task_dir, environments=environments, mail_users=mail_users
        )
    return ctx
