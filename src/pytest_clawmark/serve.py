"""``clawmark serve``: a live world to explore by hand, optionally seeded by a task.

Prints one JSON object on stdout (the agent-plane endpoints, credentials and workspace — what an
agent would get), then serves until SIGINT/SIGTERM, and stops the world cleanly. Diagnostics go
to stderr so stdout stays machine-readable.
"""

from __future__ import annotations

import sys
import tempfile
from pathlib import Path
from typing import Any

from .authoring import Task
from .foreground import serve_until_signalled
from .loading import TaskLoadError, import_task
from .world import Person, World
from .world.world import SERVICE_ORDER

DEFAULT_USER = Person("Sam Rivera", "sam.rivera@clawmark.example")
DEFAULT_PEOPLE = (Person("Alex Chen", "alex.chen@clawmark.example"), Person("Priya Natarajan", "priya.natarajan@clawmark.example"))


class ServeError(Exception):
    pass


def load_task(path: str | Path) -> Task:
    """Import a task module by path and return its validated Task."""
    try:
        _, task = import_task(path)
    except TaskLoadError as exc:
        raise ServeError(str(exc)) from None
    problems = task.problems()
    if problems:
        raise ServeError(f"{path}: invalid task declaration:\n  " + "\n  ".join(problems))
    return task


def build_world(services: list[str] | None, task_path: str | None, day: int | None) -> tuple[World, dict[str, Any]]:
    root = Path(tempfile.mkdtemp(prefix="clawmark-serve-"))
    info: dict[str, Any] = {}
    if task_path:
        task = load_task(task_path)
        upto = day if day is not None else 1
        if not 1 <= upto <= task.days:
            raise ServeError(f"--day {upto}: the task has days 1..{task.days}")
        names = set(services or task.services)
        world = World(names, root, user=task.user, people=task.people, task_dir=Path(task_path).resolve().parent)  # type: ignore[arg-type]
        world.start()
        messages = {}
        try:
            for turn in task.turns[:upto]:
                world.clock = turn.clock
                world.mutations.allowed = frozenset(turn.silent)
                messages[str(turn.day)] = turn.setup(world)
        except BaseException:
            world.discard()
            raise
        world.write_tools_md()
        info.update(task=task_path, day=upto, clock=world.clock.isoformat() if world.clock else None, messages=messages)
    else:
        names = set(services or SERVICE_ORDER)
        world = World(names, root, user=DEFAULT_USER, people=DEFAULT_PEOPLE)
        world.start()
    return world, info


def serve(services: list[str] | None = None, task_path: str | None = None, day: int | None = None) -> int:
    try:
        world, info = build_world(services, task_path, day)
    except (ServeError, ValueError) as exc:
        print(f"clawmark serve: {exc}", file=sys.stderr)
        return 2
    description = {
        "services": list(world.names),
        "user": {"name": world.user.name, "email": world.user.email},
        "people": [{"name": p.name, "email": p.email} for p in world.people],
        "workspace": str(world.workspace),
        "tools_md": str(world.workspace / "TOOLS.md"),
        "env": world.agent_env(),
        "start_seconds": round(world.start_seconds, 4),
        **info,
    }

    def cleanup() -> str:
        world.discard()
        return ""

    return serve_until_signalled("clawmark serve", description, "the world", cleanup)
