"""The upstream ClawMark task-folder format: recognise it, import it, validate it.

Why a module of its own: the published ClawMark corpus (CC BY-NC; never copied into this
repository) describes each task as ``<category>/<taskN>/task.py`` with ``METADATA``, ``PROMPT``,
``async def stage0(ctx) .. stageN(ctx)`` and a ``RUBRIC`` of async boolean checkers. This module
turns such a file into a plain, validated description (:class:`UpstreamTask`); turning that into
our :class:`~pytest_clawmark.authoring.Task` is :mod:`pytest_clawmark.upstream.task`.

Every problem is collected (not just the first), each located as ``file:line``, the way our own
task declarations report theirs. A stage's in-universe time is read from the literal ``"time"``
of its ``return {...}`` without running it: our turns know their clock before they run, and every
stage of the published release returns a literal.
"""

from __future__ import annotations

import ast
import asyncio
import hashlib
import importlib.util
import inspect
import re
import sys
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from types import ModuleType
from typing import Any

from ..authoring import Where, parse_clock

REQUIRED_METADATA = ("id", "name", "category", "environments")
"""What upstream's own loader refuses a task without."""
STAGE_RE = re.compile(r"^stage(\d+)$")
FINAL = "final"
_REDLINE_ID = re.compile(r"(^|_)red_?lines?(_|$)", re.IGNORECASE)
_RUBRIC = re.compile(rb"^RUBRIC\s*=", re.M)
_STAGE_OR_METADATA = re.compile(rb"^(?:async\s+def\s+stage\d+\s*\(|METADATA\s*=)", re.M)


class UpstreamFormatError(Exception):
    """A folder that is not a valid upstream task; ``problems`` are ``(where, message)`` pairs."""

    def __init__(self, path: Path, problems: list[tuple[Where, str]]) -> None:
        self.path = path
        self.problems = problems
        lines = [f"{_short(w)}: {m}" for w, m in problems]
        super().__init__(f"{path}: not a valid upstream ClawMark task:\n  " + "\n  ".join(lines))


@dataclass(frozen=True)
class Stage:
    """One upstream stage: our turn ``index + 1``."""

    index: int
    fn: Callable[[Any], Any]
    time_text: str
    where: Where


@dataclass(frozen=True)
class RubricEntry:
    """One upstream rubric item: our checker of the stage's day (or ``final``)."""

    id: str
    stage: str  # "stage0".."stageN" or "final"
    fn: Callable[[Any], Any]
    weight: float
    description: str
    where: Where

    @property
    def is_redline(self) -> bool:
        """Upstream marks red-lines only by id: ``S2_redline_no_leak``, ``S0_Redline_External``,
        ``S1_red_lines_held`` (55 in the published release, as the paper counts)."""
        return bool(_REDLINE_ID.search(self.id))


@dataclass
class UpstreamTask:
    """A validated upstream task folder."""

    path: Path  # the task.py
    module: ModuleType
    metadata: dict[str, Any]
    prompt: str
    stages: list[Stage]
    rubric: list[RubricEntry] = field(default_factory=list)

    @property
    def folder(self) -> Path:
        return self.path.parent

    @property
    def id(self) -> str:
        return str(self.metadata["id"])

    @property
    def category(self) -> str:
        return str(self.metadata["category"])


def looks_like_upstream(path: Path) -> bool:
    """A cheap textual test (no import): a ``task.py`` defining ``RUBRIC`` and a stage or
    ``METADATA`` — loose on purpose, so that a broken task (no ``stage0``) is reported, not skipped."""
    if path.name != "task.py":
        return False
    try:
        head = path.read_bytes()
    except OSError:
        return False
    return bool(_RUBRIC.search(head) and _STAGE_OR_METADATA.search(head))


def task_files(paths: Iterable[str | Path], examine: int | None = None) -> Iterator[Path]:
    """The upstream task files named by ``paths``: files as given (a pytest ``::`` suffix is
    ignored), folders searched for ``task.py``; lazily, in the order found (may repeat).
    ``examine`` bounds how many candidate files are read."""
    seen = 0
    for raw in paths:
        path = Path(str(raw).split("::", 1)[0])
        candidates: Iterable[Path] = [path] if path.is_file() else path.rglob("task.py") if path.is_dir() else []
        for candidate in candidates:
            seen += 1
            if examine is not None and seen > examine:
                return
            if looks_like_upstream(candidate):
                yield candidate


def import_module(path: Path) -> ModuleType:
    """Import ``task.py`` under a name unique to its path (many folders share the file name)."""
    name = "clawmark_upstream_" + hashlib.sha1(str(path.resolve()).encode()).hexdigest()[:12]
    spec = importlib.util.spec_from_file_location(name, path)
    if spec is None or spec.loader is None:
        raise UpstreamFormatError(path, [(Where(str(path), 1), "cannot be imported as a Python module")])
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module  # dataclasses and pickling inside the task need their module registered
    try:
        spec.loader.exec_module(module)
    except Exception as exc:
        sys.modules.pop(name, None)
        line = _exception_line(exc, path)
        raise UpstreamFormatError(
            path, [(Where(str(path), line), f"importing the task failed: {type(exc).__name__}: {exc}")]
        ) from None
    return module


def load(path: Path, module: ModuleType | None = None) -> UpstreamTask:
    """Validate the task at ``path`` (importing it unless ``module`` is given); all problems at once."""
    path = Path(path)
    source = path.read_text(encoding="utf-8", errors="replace")
    try:
        tree = ast.parse(source, str(path))
    except SyntaxError as exc:
        raise UpstreamFormatError(path, [(Where(str(path), exc.lineno or 1), f"syntax error: {exc.msg}")]) from None
    module = module if module is not None else import_module(path)
    problems: list[tuple[Where, str]] = []
    here = lambda name: Where(str(path), _assign_line(tree, name))  # noqa: E731

    metadata = getattr(module, "METADATA", None)
    if not isinstance(metadata, dict):
        problems.append((here("METADATA"), "METADATA must be a dict (id, name, category, environments, ...)"))
        metadata = {}
    else:
        missing = [k for k in REQUIRED_METADATA if k not in metadata]
        if missing:
            problems.append((here("METADATA"), f"METADATA lacks {', '.join(missing)}"))
    prompt = getattr(module, "PROMPT", None)
    if not isinstance(prompt, str) or not prompt.strip():
        problems.append((here("PROMPT"), "PROMPT must be a non-empty string"))
        prompt = ""

    stages = _stages(module, tree, path, problems)
    rubric = _rubric(module, tree, path, len(stages), problems)
    if problems:
        raise UpstreamFormatError(path, problems)
    return UpstreamTask(path, module, metadata, prompt, stages, rubric)


def _stages(module: ModuleType, tree: ast.Module, path: Path, problems: list[tuple[Where, str]]) -> list[Stage]:
    numbers = sorted(int(m.group(1)) for name in vars(module) if (m := STAGE_RE.match(name)))
    if not numbers:
        problems.append((Where(str(path), 1), "no stage functions: define async def stage0(ctx), stage1(ctx), ..."))
        return []
    gaps = [n for n in range(numbers[-1] + 1) if n not in numbers]
    if gaps:
        problems.append(
            (Where(str(path), 1), f"stage numbers must be contiguous from stage0: stage{gaps[0]} is missing")
        )
    defs = {n.name: n for n in tree.body if isinstance(n, (ast.AsyncFunctionDef, ast.FunctionDef))}
    stages: list[Stage] = []
    for n in numbers:
        name = f"stage{n}"
        fn = getattr(module, name)
        where = _fn_where(fn, path)
        if not asyncio.iscoroutinefunction(fn):
            problems.append((where, f"{name} must be `async def {name}(ctx)`"))
            continue
        node = defs.get(name)
        time_text = _literal_time(node, vars(module)) if node is not None else None
        if time_text is None:
            problems.append(
                (
                    where,
                    f'{name} must `return {{"notification": ..., "time": "<ISO time with offset>"}}` with a literal time (or a module-level string constant)',
                )
            )
            continue
        try:
            parse_clock(time_text)
        except ValueError:
            try:
                parse_iso(time_text)
            except ValueError as exc:
                problems.append((where, f"{name}: {exc}"))
                continue
        stages.append(Stage(n, fn, time_text, where))
    return stages


def _rubric(
    module: ModuleType, tree: ast.Module, path: Path, n_stages: int, problems: list[tuple[Where, str]]
) -> list[RubricEntry]:
    rubric = getattr(module, "RUBRIC", None)
    where = Where(str(path), _assign_line(tree, "RUBRIC"))
    if not isinstance(rubric, dict):
        problems.append(
            (where, "RUBRIC must be a dict: {'stage0': [{'id', 'checker', 'weight'}, ...], ..., 'final': [...]}")
        )
        return []
    entries: list[RubricEntry] = []
    seen: set[str] = set()
    for key, items in rubric.items():
        m = STAGE_RE.match(str(key))
        if key != FINAL and (m is None or int(m.group(1)) >= n_stages):
            problems.append(
                (where, f"RUBRIC key {key!r} names no stage (stage0..stage{max(n_stages - 1, 0)} or 'final')")
            )
            continue
        if not isinstance(items, list):
            problems.append((where, f"RUBRIC[{key!r}] must be a list of {{'id', 'checker', 'weight'}}"))
            continue
        for i, item in enumerate(items):
            at = f"RUBRIC[{key!r}][{i}]"
            if not isinstance(item, dict) or "id" not in item or "checker" not in item:
                problems.append((where, f"{at} must be a dict with 'id' and 'checker'"))
                continue
            fn, cid = item["checker"], str(item["id"])
            fn_where = _fn_where(fn, path) if callable(fn) else where
            if not asyncio.iscoroutinefunction(fn):
                problems.append((fn_where, f"{at} ({cid}): the checker must be an `async def name(ctx) -> bool`"))
                continue
            try:
                weight = float(item.get("weight", 1.0))
            except (TypeError, ValueError):
                problems.append((fn_where, f"{at} ({cid}): weight {item.get('weight')!r} is not a number"))
                continue
            if not weight > 0 or weight != weight or weight == float("inf"):
                problems.append((fn_where, f"{at} ({cid}): weight must be a positive number, not {weight!r}"))
                continue
            if cid in seen:
                problems.append((fn_where, f"{at}: checker id {cid!r} is used twice"))
                continue
            seen.add(cid)
            description = str(item.get("description") or "") or inspect.cleandoc(fn.__doc__ or "").split("\n")[0]
            entries.append(RubricEntry(cid, str(key), fn, weight, description, fn_where))
    return entries


def parse_iso(text: str):
    """Upstream times are ISO 8601 with an offset (``2025-04-07T09:00:00+08:00``)."""
    from datetime import datetime

    try:
        value = datetime.fromisoformat(text.strip())
    except ValueError:
        raise ValueError(f"time {text!r} is not ISO 8601 (e.g. '2025-04-07T09:00:00+08:00')") from None
    if value.tzinfo is None:
        raise ValueError(f"time {text!r} needs a UTC offset, e.g. '+08:00'")
    return value


def _literal_time(node: ast.AST, names: dict[str, Any]) -> str | None:
    """The ``"time"`` of the stage's returns (all must agree) — a string literal or the name of a
    module-level string (``T_DAY2 = "2025-..."``) — or None."""
    times: set[str] = set()
    for ret in (n for n in ast.walk(node) if isinstance(n, ast.Return)):
        value = ret.value
        if not isinstance(value, ast.Dict):
            return None
        found = None
        for k, v in zip(value.keys, value.values):
            if not (isinstance(k, ast.Constant) and k.value == "time"):
                continue
            if isinstance(v, ast.Constant) and isinstance(v.value, str):
                found = v.value
            elif isinstance(v, ast.Name) and isinstance(names.get(v.id), str):
                found = names[v.id]
        if found is None:
            return None
        times.add(found)
    return times.pop() if len(times) == 1 else None


def _assign_line(tree: ast.Module, name: str) -> int:
    for node in tree.body:
        targets = (
            node.targets if isinstance(node, ast.Assign) else [node.target] if isinstance(node, ast.AnnAssign) else []
        )
        if any(isinstance(t, ast.Name) and t.id == name for t in targets):
            return node.lineno
    return 1


def _fn_where(fn: Any, path: Path) -> Where:
    code = getattr(fn, "__code__", None)
    if code is None:
        return Where(str(path), 1)
    return Where(code.co_filename, code.co_firstlineno)


def _exception_line(exc: BaseException, path: Path) -> int:
    tb = exc.__traceback__
    line = 1
    while tb is not None:
        if Path(tb.tb_frame.f_code.co_filename) == path:
            line = tb.tb_lineno
        tb = tb.tb_next
    return line


def _short(where: Where) -> str:
    return str(where)
