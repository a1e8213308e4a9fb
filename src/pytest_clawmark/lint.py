"""``clawmark lint``: authoring invariants of task modules, as ``file:line: problem`` findings.

Beyond the declaration problems collection already refuses (:meth:`Task.problems`), lint checks
what only a static read can: every day has checkers and a reference solution; evidence files
that turn setups name exist; and checkers (with the module-level helpers they call) do not read
the clock or randomness, nor iterate in an unspecified order (sets, directory listings) — the
usual sources of verdicts that differ between two runs.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from types import ModuleType
from typing import Any

from .authoring import Task, Where, _short
from .loading import TaskLoadError, import_task, task_files

CLOCK_OR_RANDOM = {
    ("datetime", "now"), ("datetime", "utcnow"), ("datetime", "today"), ("date", "today"),
    ("time", "time"), ("time", "time_ns"), ("time", "monotonic"), ("time", "perf_counter"), ("time", "localtime"),
    ("uuid", "uuid1"), ("uuid", "uuid4"), ("os", "urandom"),
}  # fmt: skip
RANDOM_MODULES = {"random", "secrets"}
UNORDERED_CALLS = {"listdir", "scandir", "iterdir", "glob", "rglob", "walk"}


@dataclass(frozen=True, order=True)
class Finding:
    file: str
    line: int
    message: str

    def __str__(self) -> str:
        return f"{self.file}:{self.line}: {self.message}"


def lint_paths(paths: list[str]) -> tuple[list[Finding], int]:
    """All findings for the task modules under ``paths`` (sorted) and how many tasks were read."""
    findings: list[Finding] = []
    files = task_files(paths)
    for f in files:
        try:
            module, task = import_task(f)
        except TaskLoadError as exc:
            findings.append(Finding(_rel(f), 1, str(exc).split(": ", 1)[-1]))
            continue
        findings += lint_task(module, task, f)
    return sorted(set(findings)), len(files)


def lint_task(module: ModuleType, task: Task, path: Path) -> list[Finding]:
    out: list[Finding] = [_at(where, msg) for where, msg in task.located_problems()]
    for turn in task.turns:
        if not task.checkers_for(turn.day):
            out.append(_at(turn.where, f"day {turn.day} ({turn.name}) has no checkers"))
        if turn.day not in task.solutions:
            out.append(
                _at(
                    turn.where,
                    f"day {turn.day} ({turn.name}) has no reference solution (@task.solution(day={turn.day}))",
                )
            )
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    out += _evidence(tree, module, task, path)
    out += _determinism(tree, task, path)
    return out


# -- evidence ---------------------------------------------------------------------------------
def _evidence(tree: ast.Module, module: ModuleType, task: Task, path: Path) -> Iterator[Finding]:
    """``world.fs.add("x")`` sources and ``attachments=[...]`` paths must exist beside the task."""
    for node in ast.walk(tree):
        if not isinstance(node, ast.Call):
            continue
        candidates: list[ast.expr] = []
        if isinstance(node.func, ast.Attribute) and node.func.attr == "add" and node.args and _is_fs(node.func.value):
            candidates.append(node.args[0])
        for kw in node.keywords:
            if kw.arg == "attachments" and isinstance(kw.value, (ast.List, ast.Tuple)):
                candidates += [e for e in kw.value.elts if not isinstance(e, ast.Tuple)]
        for expr in candidates:
            value = _static_str(expr, module)
            if value is not None and not Path(value).is_absolute() and not (path.parent / value).exists():
                yield Finding(
                    _rel(path), expr.lineno, f"evidence {value!r} does not exist (relative to {_rel(path.parent)}/)"
                )


def _is_fs(expr: ast.expr) -> bool:
    return isinstance(expr, ast.Attribute) and expr.attr == "fs"


def _static_str(expr: ast.expr, module: ModuleType) -> str | None:
    """The value of a string literal, a module-level string constant, or an f-string of those."""
    if isinstance(expr, ast.Constant) and isinstance(expr.value, str):
        return expr.value
    if isinstance(expr, ast.Name):
        value = getattr(module, expr.id, None)
        return value if isinstance(value, str) else None
    if isinstance(expr, ast.JoinedStr):
        parts = []
        for v in expr.values:
            if isinstance(v, ast.Constant):
                parts.append(str(v.value))
            elif isinstance(v, ast.FormattedValue) and v.format_spec is None and v.conversion == -1:
                inner = _static_str(v.value, module)
                if inner is None:
                    return None
                parts.append(inner)
            else:
                return None
        return "".join(parts)
    return None


# -- determinism ------------------------------------------------------------------------------
def _determinism(tree: ast.Module, task: Task, path: Path) -> Iterator[Finding]:
    functions = {n.name: n for n in tree.body if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef))}
    by_line = {n.lineno: n for n in functions.values()}
    for checker in task.checkers:
        start = _def_node(checker.where.line, by_line, functions, checker.fn.__name__)
        if start is None:
            continue
        seen: set[str] = set()
        queue = [start]
        while queue:
            fn = queue.pop()
            if fn.name in seen:
                continue
            seen.add(fn.name)
            for problem_node, what in _nondeterminism(fn):
                via = "" if fn is start else f" (in helper {fn.name}())"
                yield Finding(_rel(path), problem_node.lineno, f"checker {checker.id!r} {what}{via}")
            for call in ast.walk(fn):
                if isinstance(call, ast.Call) and isinstance(call.func, ast.Name) and call.func.id in functions:
                    queue.append(functions[call.func.id])


def _def_node(line: int, by_line: dict[int, Any], functions: dict[str, Any], name: str) -> Any:
    node = by_line.get(line)
    if node is None:  # decorators shift co_firstlineno to the first decorator
        node = next((n for n in functions.values() if n.decorator_list and n.decorator_list[0].lineno == line), None)
    return node or functions.get(name)


def _nondeterminism(fn: ast.AST) -> Iterator[tuple[ast.AST, str]]:
    parents: dict[ast.AST, ast.AST] = {}
    for parent in ast.walk(fn):
        for child in ast.iter_child_nodes(parent):
            parents[child] = parent
    for node in ast.walk(fn):
        if isinstance(node, ast.Assert) and node.msg is None:
            yield (
                node,
                "has an assert without a message (say what was expected and what was found; pytest's own introspection is not a stable verdict message)",
            )
        if isinstance(node, ast.Call):
            f = node.func
            owner = _call_name(f.value) if isinstance(f, ast.Attribute) else ""  # datetime.datetime.now → "datetime"
            if isinstance(f, ast.Attribute) and (owner, f.attr) in CLOCK_OR_RANDOM:
                yield node, f"reads the clock or randomness: {owner}.{f.attr}()"
            elif isinstance(f, ast.Attribute) and owner in RANDOM_MODULES:
                yield node, f"uses randomness: {owner}.{f.attr}()"
            elif isinstance(f, ast.Name) and f.id == "hash":
                yield node, "uses hash(), which differs between runs for strings"
            elif _call_name(f) in UNORDERED_CALLS and not _inside_sorted(node, parents):
                yield node, f"iterates a directory listing ({_call_name(f)}) without sorted()"
        elif isinstance(node, (ast.For, ast.comprehension)):
            it = node.iter
            if isinstance(it, (ast.Set, ast.SetComp)) or (
                isinstance(it, ast.Call) and _call_name(it.func) in ("set", "frozenset")
            ):
                yield it, "iterates a set (unspecified order); iterate sorted(...) instead"


def _call_name(func: ast.expr) -> str:
    if isinstance(func, ast.Name):
        return func.id
    if isinstance(func, ast.Attribute):
        return func.attr
    return ""


def _inside_sorted(node: ast.AST, parents: dict[ast.AST, ast.AST]) -> bool:
    current = parents.get(node)
    while current is not None and not isinstance(current, ast.stmt):
        if isinstance(current, ast.Call) and _call_name(current.func) in (
            "sorted",
            "len",
            "set",
            "frozenset",
            "any",
            "all",
            "sum",
            "max",
            "min",
        ):
            return True
        current = parents.get(current)
    return False


def _at(where: Where, message: str) -> Finding:
    file, _, line = _short(where).rpartition(":")
    return Finding(file, int(line), message)


def _rel(path: Path) -> str:
    try:
        return path.resolve().relative_to(Path.cwd().resolve()).as_posix()
    except ValueError:
        return str(path)
