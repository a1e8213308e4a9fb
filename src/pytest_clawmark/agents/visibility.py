"""What a user's command line needs to see in the sandbox, found as their shell would find it.

Why: people write ``cmd="python my_agent.py"`` from their project folder with its virtualenv
active. Outside a sandbox that just works; inside one, ``python`` (a link in ``.venv/bin``), the
virtualenv's packages and the modules beside the script would be invisible, and the run would
stop at the preflight. So the command agent binds, read-only, what the command line itself
names: the install the program was found in (a virtualenv's root when the program lives in its
``bin/``, else the program's folder; both for the name found on ``PATH`` and for where its links
lead) and the folder of the script an interpreter runs when that folder lies below the folder
pytest was started in (the agent's own code, its helper modules beside it). Nothing else of the
host becomes visible, and the sandbox still refuses any of these that would show a hidden path
(the task folders, the evidence); then only the script file itself is shown.
"""

from __future__ import annotations

import os
import shutil
from collections.abc import Iterable, Sequence
from pathlib import Path

VENV_DEPTH = 3
"""How far above a program its virtualenv's ``pyvenv.cfg`` is looked for (``.venv/bin/python``: 1)."""


def command_binds(
    argv: Sequence[str], search_path: str, started_in: str, visible: Iterable[Path], script_index: int | None
) -> list[Path]:
    """Read-only binds the command needs beyond ``visible`` (the sandbox's default binds)."""
    shown = [Path(os.path.realpath(p)) for p in visible]
    found: list[Path] = []

    def add(path: Path) -> None:
        real = Path(os.path.realpath(path))
        if any(real == v or real.is_relative_to(v) for v in shown) or path in found:
            return
        found.append(path)

    program = argv[0] if "/" in argv[0] else shutil.which(argv[0], path=search_path)
    if program and os.path.exists(program):
        for where in dict.fromkeys((Path(os.path.abspath(program)), Path(os.path.realpath(program)))):
            add(install_root(where))
    if script_index is not None and script_index < len(argv) and os.path.isabs(argv[script_index]):
        folder = Path(argv[script_index]).parent
        base = Path(os.path.realpath(started_in))
        if Path(os.path.realpath(folder)).is_relative_to(base) and Path(os.path.realpath(folder)) != base:
            add(folder)
    return found


def install_root(program: Path) -> Path:
    """The virtualenv holding ``program`` (its root: packages and ``pyvenv.cfg`` come along),
    else the program's own folder."""
    for parent in list(program.parents)[:VENV_DEPTH]:
        if (parent / "pyvenv.cfg").is_file():
            return parent
    return program.parent
