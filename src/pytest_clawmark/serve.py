"""``clawmark serve`` / ``clawmark check``: a live world to explore by hand, seeded by a task.

Prints one JSON object on stdout (the agent-plane endpoints, credentials and workspace — what an
agent would get), then serves until SIGINT/SIGTERM, and stops the world cleanly. Diagnostics go
to stderr so stdout stays machine-readable.

For authors and agent builders: ``--solve`` also runs the task's reference solutions (through the
agent plane, as the ``reference`` agent does) of days 1..N, and ``clawmark check`` evaluates the
day's checkers whenever ``check`` is typed on stdin — after you changed the world by hand, with
your own client or agent — printing one JSON verdict per line.
"""

from __future__ import annotations

import json
import sys
import tempfile
from pathlib import Path
from typing import Any

from .authoring import Task
from .foreground import serve_until_signalled
from .loading import TaskLoadError, import_task
from .world import Person, World
from .world.service import ServiceUnavailable
from .world.world import SERVICE_ORDER

DEFAULT_USER = Person("Sam Rivera", "sam.rivera@clawmark.example")
DEFAULT_PEOPLE = (
    Person("Alex Chen", "alex.chen@clawmark.example"),
    Person("Priya Natarajan", "priya.natarajan@clawmark.example"),
)


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


def build_world(
    services: list[str] | None, task_path: str | None, day: int | None, *, solve: bool = False, backend: str = "local"
) -> tuple[World, dict[str, Any]]:
    root = Path(tempfile.mkdtemp(prefix="clawmark-serve-"))
    info: dict[str, Any] = {}
    if task_path:
        task = load_task(task_path)
        upto = day if day is not None else 1
        if not 1 <= upto <= task.days:
            raise ServeError(f"--day {upto}: the task has days 1..{task.days}")
        names = set(services or task.services)
        world = World(
            names, root, user=task.user, people=task.people, task_dir=Path(task_path).resolve().parent, backend=backend
        )  # type: ignore[arg-type]
        world.start()
        messages = {}
        try:
            for turn in task.turns[:upto]:
                world.clock = turn.clock
                world.mutations.allowed = frozenset(turn.silent)
                with world.batched():
                    messages[str(turn.day)] = turn.setup(world)
                if solve:
                    world.write_tools_md()
                    world.before_agent()
                    _solve(task, turn, world, messages[str(turn.day)])
        except BaseException:
            world.discard()
            raise
        world.write_tools_md()
        world.before_agent()
        info.update(
            task=task_path,
            day=upto,
            clock=world.clock.isoformat() if world.clock else None,
            messages=messages,
            solved=solve,
        )
        info["_task"] = task
    else:
        names = set(services or SERVICE_ORDER)
        world = World(names, root, user=DEFAULT_USER, people=DEFAULT_PEOPLE, backend=backend)
        world.start()
    return world, info


def _solve(task: Task, turn: Any, world: World, message: str) -> None:
    """The day's reference solution, through the agent plane only (as the reference agent)."""
    from .agents.base import AgentView

    solution = task.solutions.get(turn.day)
    if solution is None:
        raise ServeError(f"--solve: the task has no reference solution for day {turn.day}")
    env = {**world.agent_env(), "CLAWMARK_DAY": str(turn.day)}
    solution.fn(AgentView(world.workspace, env, world.user, turn.clock, turn.day, message))
    world.fs.disarm()


def check_lines(task: Task, day: int, world: World) -> list[dict[str, Any]]:
    """Evaluate day ``day``'s checkers (and the final ones on the last day) on the world as it is."""
    from .authoring import FINAL
    from .trial import evaluate_once

    chosen = task.checkers_for(day) + (task.checkers_for(FINAL) if day == task.days else [])
    out = []
    for c in chosen:
        outcome, message, _ = evaluate_once(c, world)
        out.append(
            {"id": c.id, "day": c.day, "weight": c.weight, "redline": c.redline, "outcome": outcome, "message": message}
        )
    return out


def serve(
    services: list[str] | None = None,
    task_path: str | None = None,
    day: int | None = None,
    *,
    solve: bool = False,
    check: bool = False,
    backend: str = "local",
) -> int:
    label = "clawmark check" if check else "clawmark serve"
    if check and not task_path:
        print(f"{label}: --task is required (whose checkers to evaluate)", file=sys.stderr)
        return 2
    try:
        world, info = build_world(services, task_path, day, solve=solve, backend=backend)
    except (ServeError, ValueError, ServiceUnavailable) as exc:
        print(f"{label}: {exc}", file=sys.stderr)
        return 2
    task = info.pop("_task", None)
    description = {
        "services": list(world.names),
        "user": {"name": world.user.name, "email": world.user.email},
        "people": [{"name": p.name, "email": p.email} for p in world.people],
        "workspace": str(world.workspace),
        "tools_md": str(world.workspace / "TOOLS.md"),
        "env": world.agent_env(),
        "start_seconds": round(world.start_seconds, 4),
        "backends": world.backends(),
        **info,
    }

    def cleanup() -> str:
        world.discard()
        return ""

    on_line = None
    if check and task is not None:
        upto = int(info["day"])

        def on_line(line: str) -> None:
            if line != "check":
                print(
                    f"{label}: type `check` to evaluate day {upto}'s checkers (Ctrl-D or Ctrl-C stops)",
                    file=sys.stderr,
                    flush=True,
                )
                return
            verdicts = check_lines(task, upto, world)
            for v in verdicts:
                print(json.dumps(v, sort_keys=True), flush=True)
            passed = sum(1 for v in verdicts if v["outcome"] == "passed")
            print(f"{label}: {passed}/{len(verdicts)} checkers of day {upto} passed", file=sys.stderr, flush=True)

        print(f"{label}: change the world as you like, then type `check`", file=sys.stderr, flush=True)
    return serve_until_signalled(label, description, "the world", cleanup, on_line)
