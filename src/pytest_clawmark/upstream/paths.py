"""Upstream's absolute workspace paths (``/workspace/input/``) → our workspace-relative paths.

Why: upstream tasks address the agent's workspace as ``/workspace`` inside a container; ours is a
folder of the world. Anything outside ``/workspace`` is refused with a clear message instead of
touching the host.
"""

from __future__ import annotations

from pathlib import PurePosixPath

WORKSPACE = PurePosixPath("/workspace")


class OutsideWorkspace(ValueError):
    """An upstream path that does not lie in ``/workspace``."""


def workspace_rel(remote: str) -> str:
    """``/workspace`` → ``""``, ``/workspace/input/`` → ``"input/"`` (a trailing ``/`` is kept:
    upstream means "into this folder"), ``outputs/x.csv`` → ``"outputs/x.csv"``."""
    text = str(remote).strip()
    folder = text.endswith("/")
    path = PurePosixPath(text)
    if path.is_absolute():
        try:
            path = path.relative_to(WORKSPACE)
        except ValueError:
            raise OutsideWorkspace(
                f"{remote!r} is outside /workspace: upstream tasks may only touch the agent's workspace"
            ) from None
    parts = [p for p in path.parts if p not in ("", ".")]
    if ".." in parts:
        raise OutsideWorkspace(f"{remote!r} leaves /workspace ('..')")
    rel = "/".join(parts)
    return f"{rel}/" if folder and rel else rel
