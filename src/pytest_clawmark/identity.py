"""What makes two measurements comparable: the task's content and the agent's configuration.

A results file, a run journal and a resumed run carry these fingerprints so that ``clawmark
compare``, ``clawmark merge`` and ``--clawmark-resume`` can refuse to mix numbers that were not
measured on the same thing. Both are computed from files and settings alone (no import of the
task module), so the controller of an xdist run can check them without collecting.
"""

from __future__ import annotations

import hashlib
from collections.abc import Mapping
from pathlib import Path

SKIP_PARTS = frozenset({"__pycache__", ".pytest_cache", ".mypy_cache"})


def task_id(explicit: str | None, scenario: str, module: Path) -> str:
    """A task's id in results: its declared ``Task(id=...)``, else ``<scenario>/<name>`` from the
    module's file name (``task_<name>.py``) — wherever the module lives, so moving a task into its
    folder keeps its id (and its results comparable)."""
    return explicit or f"{scenario}/{module.stem.removeprefix('task_')}"


def task_assets(module: Path) -> Path:
    """The task's own folder: a task in the folder shape (``tasks/pm/x/task_x.py``, see
    ``taskfiles``) and an upstream-format ``<task folder>/task.py`` own their whole folder; a
    single-module task ``tasks/pm/task_x.py`` owns ``tasks/pm/x/`` beside it."""
    if module.name == "task.py" or module.parent.name == module.stem.removeprefix("task_"):
        return module.parent
    return module.parent / module.stem.removeprefix("task_")


def task_hash(module: Path) -> str:
    """``sha256:…`` over the task module's bytes and every file of its asset folder.

    Why both: evidence (PDFs, sheets, audio) and helpers beside the module are as much the task
    as its checkers; an edited scan changes what an agent can score.
    """
    module = Path(module)
    h = hashlib.sha256()
    h.update(b"module\0" + module.read_bytes() + b"\0")
    assets = task_assets(module)
    if assets.is_dir():
        for path in sorted(p for p in assets.rglob("*") if p.is_file() and not SKIP_PARTS.intersection(p.parts)):
            rel = path.relative_to(assets).as_posix().encode()
            h.update(b"file\0" + rel + b"\0" + hashlib.sha256(path.read_bytes()).digest())
    return "sha256:" + h.hexdigest()


SECRET_WORDS = ("key", "token", "secret", "password")


def is_secret(option: str) -> bool:
    return any(word in option.lower() for word in SECRET_WORDS)


def public_options(options: Mapping[str, str]) -> dict[str, str]:
    """Agent options as written into results and journals: secret-looking values masked."""
    return {k: ("***" if is_secret(k) else str(v)) for k, v in sorted(options.items())}


def agent_identity(name: str, options: Mapping[str, str]) -> str:
    """``sha256:…`` of the agent name and its options, secret values left out: a rotated API
    key is the same agent; another model, command or prompt is not."""
    h = hashlib.sha256(name.encode() + b"\0")
    for key, value in public_options(options).items():
        h.update(key.encode() + b"=" + value.encode() + b"\0")
    return "sha256:" + h.hexdigest()
