"""``ctx.fs`` of upstream tasks, over our workspace service (``world.fs``).

Why an adapter and not the container upstream copies into: our workspace is already the agent's
``/workspace`` (bound there in its sandbox), so upstream's uploads become ordinary turn-setup writes
— recorded, replaced-not-written-through (world/untrusted_fs.py), visible in the evidence.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from ..world.fs import DeliverableMissing
from .paths import workspace_rel


class TaskAssetMissing(FileNotFoundError):
    """A file or folder the task uploads is not in its folder: the task's (or the checkout's)
    fault, never the agent's — e.g. a checkout without its large binaries."""


LFS_POINTER = b"version https://git-lfs.github.com/spec/v1"
"""How a Git LFS pointer file starts: a checkout made without ``git lfs`` holds these instead of
the task's images, audio and video."""


def lfs_pointers(src: Path, limit: int = 20_000) -> list[str]:
    """Files under ``src`` (or ``src`` itself) that are Git LFS pointers, not content."""
    files = [src] if src.is_file() else sorted(p for p in src.rglob("*") if p.is_file())[:limit]
    found = []
    for f in files:
        try:
            if f.stat().st_size < 1024 and f.read_bytes().startswith(LFS_POINTER):
                found.append(str(f))
        except OSError:
            continue
    return found


def _check_content(src: Path) -> None:
    pointers = lfs_pointers(src)
    if pointers:
        more = f" and {len(pointers) - 1} more" if len(pointers) > 1 else ""
        raise TaskAssetMissing(
            f"{pointers[0]}{more} are Git LFS pointers, not the task's files: run `git lfs pull` in the checkout"
        )


class UpstreamFs:
    """The methods upstream's ``FilesystemStateManager`` offers tasks, with its semantics."""

    def __init__(self, world: Any, sandbox: Any = None) -> None:
        self._world = world
        self._sandbox = sandbox  # upstream tasks call ``ctx.fs._sandbox.exec(...)``

    async def upload_dir(self, local_dir: str | Path, remote_dir: str) -> None:
        """Copy the *contents* of ``local_dir`` into ``remote_dir`` (as ``docker cp dir/. dest``)."""
        src = Path(local_dir)
        if not src.is_dir():
            raise TaskAssetMissing(f"upload_dir: {src} is not a folder of the task (missing from this checkout?)")
        _check_content(src)
        self._world.fs.add(src, workspace_rel(remote_dir).rstrip("/"))

    async def upload_file(self, local_path: str | Path, remote_path: str) -> None:
        """Copy one file; a ``remote_path`` ending in ``/`` (or naming ``/workspace``) is a folder."""
        src = Path(local_path)
        if not src.is_file():
            raise TaskAssetMissing(f"upload_file: {src} is not a file of the task (missing from this checkout?)")
        _check_content(src)
        rel = workspace_rel(remote_path)
        self._world.fs.add(src, rel if rel else "")

    async def delete_file(self, remote_path: str) -> None:
        self._world.fs.remove(workspace_rel(remote_path).rstrip("/"))

    async def exists(self, remote_path: str) -> bool:
        rel = workspace_rel(remote_path).rstrip("/")
        return True if not rel else self._world.fs.exists(rel)

    async def read_file(self, remote_path: str) -> str:
        """The file's text, or ``""`` where there is none (upstream's ``cat`` prints nothing)."""
        try:
            return self._world.fs.read_bytes(workspace_rel(remote_path)).decode("utf-8", errors="replace")
        except DeliverableMissing:
            return ""
