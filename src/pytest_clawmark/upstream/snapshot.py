"""``ctx.workspace``: a frozen copy of the workspace after each stage, as upstream's runner makes.

Why a copy: upstream checkers read files under ``ctx.workspace`` (a ``Path``) with plain
``open``/``openpyxl``/``docx``, and final checkers may read an earlier stage's copy
(``ctx.snapshots["stage1"]``). Our workspace is live and the agent's: the copy is taken after
the harness swept it (no links, FIFOs or devices left, see world/untrusted_fs.py), with a bounded
walk and bounded sizes, so a hostile workspace cannot make the harness copy gigabytes. Files
past a bound are left out and counted (``SnapshotCopy.skipped``), which a checker then sees as a
missing file: the agent's doing.
"""

from __future__ import annotations

import os
import shutil
from dataclasses import dataclass, field
from pathlib import Path

from ..world.untrusted_fs import FILE, FOLDER, open_regular, scan

FILE_MAX = 256 << 20
"""Largest file copied (upstream's evidence is PDFs, spreadsheets and media of a few MB)."""
TOTAL_MAX = 2 << 30
"""Bytes copied into one stage's copy in all."""


@dataclass
class SnapshotCopy:
    path: Path
    files: int = 0
    bytes: int = 0
    skipped: dict[str, int] = field(default_factory=dict)  # why -> how many files


def copy_workspace(workspace: Path, dest: Path) -> SnapshotCopy:
    """Copy the regular files and folders of ``workspace`` into the new folder ``dest``."""
    if dest.exists():
        shutil.rmtree(dest)
    dest.mkdir(parents=True)
    result = SnapshotCopy(dest)
    cut: dict[str, int] = {}
    for rel, kind, info in scan(workspace, cut):
        target = dest / rel
        if kind == FOLDER:
            target.mkdir(exist_ok=True)
            continue
        if kind != FILE:
            continue  # the sweep removed links and special files; a late one is not followed
        if info.size > FILE_MAX or result.bytes + info.size > TOTAL_MAX:
            result.skipped["too_large"] = result.skipped.get("too_large", 0) + 1
            continue
        try:
            fd = open_regular(workspace / rel, root=workspace)
        except OSError:
            result.skipped["unreadable"] = result.skipped.get("unreadable", 0) + 1
            continue
        with os.fdopen(fd, "rb") as src, open(target, "wb") as out:
            copied = _copy(src, out, FILE_MAX)
        result.files += 1
        result.bytes += copied
    for why, n in cut.items():
        result.skipped[f"walk_{why}"] = n
    return result


def _copy(src, out, limit: int) -> int:  # type: ignore[no-untyped-def]
    done = 0
    while done < limit:
        chunk = src.read(min(1 << 20, limit - done))
        if not chunk:
            break
        out.write(chunk)
        done += len(chunk)
    return done
