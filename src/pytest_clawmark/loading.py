"""Import a task module by path outside pytest (``clawmark serve``, ``clawmark lint``).

Inside a pytest run, pytest imports task modules itself (so assertion rewriting applies); the
command-line tools only need the declarations.
"""

from __future__ import annotations

import hashlib
import importlib.util
import sys
from pathlib import Path
from types import ModuleType

from .authoring import Task


class TaskLoadError(Exception):
    """A path that is not an importable task module; the message names the file and why."""


def import_task(path: str | Path) -> tuple[ModuleType, Task]:
    p = Path(path).resolve()
    if not p.is_file():
        raise TaskLoadError(f"{path}: no such task module")
    name = "clawmark_task_" + hashlib.sha1(str(p).encode()).hexdigest()[:12]
    spec = importlib.util.spec_from_file_location(name, p)
    if spec is None or spec.loader is None:
        raise TaskLoadError(f"{path}: cannot be imported as a Python module")
    module = importlib.util.module_from_spec(spec)
    # registered while it runs, as any import is: dataclasses, typing.get_type_hints and pickle
    # look a class's module up in sys.modules (a module-level @dataclass failed without it)
    sys.modules[name] = module
    try:
        spec.loader.exec_module(module)
    except Exception as exc:
        sys.modules.pop(name, None)
        raise TaskLoadError(f"{path}: importing the task failed: {type(exc).__name__}: {exc}") from None
    tasks = [v for v in vars(module).values() if isinstance(v, Task)]
    if len(tasks) != 1:
        raise TaskLoadError(f"{path}: expected one module-level Task, found {len(tasks)}")
    return module, tasks[0]


def task_files(paths: list[str], pattern: str = "task_*.py") -> list[Path]:
    """Task modules named by ``paths`` (files as given, folders searched), sorted, unique."""
    found: set[Path] = set()
    for raw in paths:
        p = Path(raw)
        if p.is_dir():
            found.update(f for f in p.rglob(pattern) if f.is_file())
        elif p.is_file():
            found.add(p)
        else:
            raise TaskLoadError(f"{raw}: no such file or folder")
    return sorted(found)
