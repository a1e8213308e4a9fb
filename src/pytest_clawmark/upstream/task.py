"""An upstream ClawMark task folder as our :class:`~pytest_clawmark.authoring.Task`.

Why a translation and not a second runner: everything that makes our numbers trustworthy —
worlds, isolation, evidence, journals, resume, xdist, the summary — applies unchanged once an
upstream task *is* a task: its stages become our turns (clock from each stage's literal
``time``), its rubric our checkers (``final`` included), its red-lines ours (recognised by id).

What upstream's runner does that we keep:

* stage K's wake-up message is its ``notification`` with ``"\\n（当前时间：<time>）"`` appended,
  and stage 0's is prefixed with ``PROMPT`` and a blank line — byte for byte;
* one ``ctx`` for the whole trial (:mod:`.context`), the workspace copied into ``ctx.workspace``
  after each agent turn, before that stage's checkers;
* a checker passes when it returns something truthy (``bool(result)``).

What differs (docs/upstream.md, "What differs"): a checker's exception is reported, not silently
a ``False`` (``--upstream-exceptions``); a stage that raises after the first day is the agent's
doing (the world it left broke the setup, as upstream counts it) unless a task file is missing.
"""

from __future__ import annotations

import asyncio
import re
from pathlib import Path
from typing import Any

from ..authoring import FINAL, REDLINE_CLASSES, SCENARIOS, Checker, Task, Turn, Where
from ..world.service import Person
from .context import ENVIRONMENTS, context_of
from .email_adapter import mail_users
from .format import RubricEntry, Stage, UpstreamFormatError, UpstreamTask, parse_iso
from .identity import agent_user

SCENARIO_ALIASES: dict[str, str] = {
    "clinical_assistant": "clinical",
    "investment_analyst": "investment",
    "legal_assistant": "legal",
    "content_ops": "content_operation",
    "project_and_product_manager": "pm",
}
"""Upstream folder or category names that differ from our scenario names (the paper's 13, ``authoring.SCENARIOS``)."""

TIME_SUFFIX = "\n（当前时间：{time}）"
"""What upstream's runner appends to every notification (it is part of what the agent reads)."""

_REDLINE_CLASS_HINTS: tuple[tuple[str, re.Pattern[str]], ...] = (
    (
        "data-exfiltration",
        re.compile(r"leak|exfil|privacy|privat|confiden|pii|secret|external|outside|forward|disclos|share|expos", re.I),
    ),
    (
        "premature-decision",
        re.compile(r"premature|approv|decid|decision|commit|sign|promise|final|settle|pay|offer|accept|confirm", re.I),
    ),
    (
        "irreversible-write",
        re.compile(
            r"delet|overwrit|modif|tamper|alter|irreversib|destroy|remove|edit|write|change|untouched|intact|preserv|original",
            re.I,
        ),
    ),
)
"""Upstream names no red-line class; ours are guessed from the id (first match, else
``compliance-bypass``) — only the per-class breakdown depends on it, never a score."""


def scenario_of(task: UpstreamTask) -> str:
    """Our scenario from the category folder's name (else ``METADATA["category"]``)."""
    for name in (task.folder.parent.name, task.category):
        name = SCENARIO_ALIASES.get(name, name)
        if name in SCENARIOS:
            return name
    known = ", ".join(sorted(set(SCENARIOS) | set(SCENARIO_ALIASES)))
    raise UpstreamFormatError(
        task.path,
        [
            (
                Where(str(task.path), 1),
                f"category {task.category!r} (folder {task.folder.parent.name!r}) is none of ours: {known}",
            )
        ],
    )


def redline_class(rubric_id: str) -> str:
    for cls, pattern in _REDLINE_CLASS_HINTS:
        if pattern.search(rubric_id):
            return cls
    return "compliance-bypass"


def compose_message(prompt: str | None, returned: Any) -> str:
    """Upstream's wake-up message from a stage's return value (``prompt`` for stage 0 only)."""
    if isinstance(returned, dict):
        text = str(returned.get("notification", ""))
        time = returned.get("time", "")
        if time:
            text += TIME_SUFFIX.format(time=time)
    elif isinstance(returned, str):
        text = returned
    else:
        text = str(returned)
    return f"{prompt}\n\n{text}" if prompt is not None else text


def to_task(upstream: UpstreamTask) -> Task:
    """Our task for a validated upstream task folder; problems raise :class:`UpstreamFormatError`."""
    meta = upstream.metadata
    where = Where(str(upstream.path), 1)
    problems: list[tuple[Where, str]] = []
    environments = [str(e) for e in meta.get("environments") or []]
    unknown = [e for e in environments if e not in ENVIRONMENTS]
    if unknown:
        problems.append((where, f"unknown environment(s) {unknown} (known: {', '.join(ENVIRONMENTS)})"))
    try:
        users = mail_users(meta)
        agent_key, _why = agent_user(meta, users, upstream.path)
    except ValueError as exc:
        problems.append((where, str(exc)))
        users, agent_key = {}, ""
    try:
        scenario = scenario_of(upstream)
    except UpstreamFormatError as exc:
        problems += exc.problems
        scenario = ""
    if problems:
        raise UpstreamFormatError(upstream.path, problems)

    me = users[agent_key] if agent_key else Person("User", "user@example.test")
    timeout = meta.get("timeout_seconds")
    task = Task(
        scenario=scenario,
        role=str(meta.get("role") or meta.get("name") or upstream.id),
        services={ENVIRONMENTS[e] for e in environments} | {"fs"},
        user=me,
        people=[p for k, p in users.items() if k != agent_key],
        id=upstream.id,
        title=str(meta.get("name") or ""),
        turn_timeout=float(timeout) if isinstance(timeout, (int, float)) and timeout > 0 else None,
        origin="upstream",
    )
    task.where = where

    def ctx_of(world: Any) -> Any:
        return context_of(world, task_dir=upstream.folder, environments=environments, mail_users=users)

    for stage in upstream.stages:
        task.turns.append(_turn(stage, upstream.prompt, ctx_of))
    for entry in upstream.rubric:
        task.checkers.append(_checker(entry, ctx_of))
    located = task.located_problems()
    if located:
        raise UpstreamFormatError(upstream.path, located)
    return task


def _turn(stage: Stage, prompt: str, ctx_of: Any) -> Turn:
    name = f"stage{stage.index}"

    def setup(world: Any) -> str:
        returned = asyncio.run(stage.fn(ctx_of(world)))
        return compose_message(prompt if stage.index == 0 else None, returned)

    def after(world: Any) -> dict[str, Any]:
        copy = ctx_of(world).freeze_workspace(name)
        return {"upstream_workspace_copy_skipped": copy.skipped} if copy.skipped else {}

    setup.__name__ = setup.__qualname__ = name
    return Turn(
        stage.index + 1, name, stage.time_text, parse_iso(stage.time_text), setup, (), (), stage.where, after=after
    )


def _checker(entry: RubricEntry, ctx_of: Any) -> Checker:
    def check(world: Any) -> None:
        result = asyncio.run(entry.fn(ctx_of(world)))
        if not result:
            raise AssertionError(f"{entry.id} returned {_short_repr(result)}")

    check.__name__ = check.__qualname__ = entry.id
    redline = redline_class(entry.id) if entry.is_redline else None
    assert redline is None or redline in REDLINE_CLASSES
    day: Any = FINAL if entry.stage == FINAL else int(entry.stage.removeprefix("stage")) + 1
    return Checker(
        id=entry.id,
        day=day,
        weight=entry.weight,
        kind="compliance" if redline else "deliverable",
        fn=check,
        where=entry.where,
        redline=redline,
        description=entry.description,
    )


def _short_repr(value: Any) -> str:
    text = repr(value)
    return text if len(text) <= 60 else text[:57] + "..."


def load_task(path: Path) -> Task:
    """Import, validate and translate the upstream ``task.py`` at ``path``."""
    from .format import load

    return to_task(load(Path(path)))
