"""Bytecode caching for a process that has ``PYTHONDONTWRITEBYTECODE`` set.

Why: machines that set ``PYTHONDONTWRITEBYTECODE`` (CI images, these benchmark machines) make
every process compile, from source, each module it imports after start-up: this package, the
servers' libraries (pymap, Radicale, Starlette...), pytest's assertion-rewritten task modules.
That is ~0.6 s per process, paid by the pytest controller and each xdist worker of every run,
and by every ``clawmark`` command.

What :func:`install` does, once, when this package is first imported in such a process: Python's
own ``sys.pycache_prefix`` (what ``PYTHONPYCACHEPREFIX`` sets) points at
``~/.cache/clawmark/pycache`` (``$XDG_CACHE_HOME`` respected; ``CLAWMARK_PYCACHE=DIR`` chooses
another; ``CLAWMARK_PYCACHE=off`` disables this), and writing bytecode is allowed again — there
only: the setting's usual intent, no ``__pycache__`` in source trees, is kept. Modules imported
before (the interpreter's and pytest's start-up) are unaffected; a process that chose its own
prefix is left alone; nothing is changed for child processes (agents keep their environment).
The cached files are CPython's own timestamp-checked ``.pyc``: an edited module is recompiled.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

__all__ = ["cache_dir", "install"]


def cache_dir() -> Path | None:
    """Where bytecode goes when :func:`install` acts, or None when disabled."""
    chosen = os.environ.get("CLAWMARK_PYCACHE", "")
    if chosen.lower() in ("off", "0", "no", "false"):
        return None
    if chosen:
        return Path(chosen)
    base = os.environ.get("XDG_CACHE_HOME")
    if not base:
        try:
            base = str(Path.home() / ".cache")
        except RuntimeError:  # no home directory to cache in
            return None
    return Path(base) / "clawmark" / "pycache"


def install() -> bool:
    """Cache bytecode under :func:`cache_dir` if this process may not write it; True if it acted."""
    if not sys.dont_write_bytecode or sys.pycache_prefix is not None:
        return False
    root = cache_dir()
    if root is None:
        return False
    try:
        root.mkdir(parents=True, exist_ok=True)
    except OSError:
        return False  # nowhere to cache: compile as before
    sys.pycache_prefix = str(root)
    sys.dont_write_bytecode = False
    return True
