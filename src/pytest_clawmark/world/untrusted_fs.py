"""Folders an untrusted agent can write: walk, read, write and sweep them without falling into its traps.

Why: the harness touches the agent's workspace (turn setup, checkers, snapshots) and the evidence
folders the agent can write into with its own rights — often root. Whatever the agent may
legally leave there, the harness must cope with, in bounded time and memory:

- a symlink (``TOOLS.md -> /etc/passwd``) makes a naive write overwrite a host file, and a naive
  read take the host file for a deliverable; a *hard link* to a host file does the same, and
  does not even look like a link;
- a FIFO makes a reader hang; a device node reads forever;
- a 500 MB file, a million files or a tree 10,000 folders deep make a naive walk or read take
  minutes and gigabytes.

So: writes never go through an existing name (a new file is renamed over it: the rename replaces
a link or a hard-linked name, never the file behind it); reads open regular files only, without
following links out of the folder; walks never follow links and stop at a budget of entries and
depth, and say so. :func:`disarm` and :func:`neutralise` sweep what should not stay.
"""

from __future__ import annotations

import os
import shutil
import stat
import tempfile
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, NamedTuple

WALK_ENTRIES = 100_000
"""Entries (files, folders, links...) one walk looks at before it stops (~0.3 s)."""
WALK_DEPTH = 64
"""Folder depth one walk descends to; deeper entries are not looked at (and the walk says so)."""
DISARM_ENTRIES = 500_000
"""The after-turn sweep looks further than a snapshot (~3 s at most): it is the one that
removes links; the harness's writes and reads stay safe beyond it on their own."""
DEEP = 4096
"""Depth the sweeps descend to: paths stop at PATH_MAX (4,096 bytes) long before."""

READ_FLAGS = os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK | os.O_CLOEXEC


class UnsafePath(OSError):
    """A path the harness must not read or write: it leads out of its folder, or is not a
    regular file."""


class FileInfo(NamedTuple):
    """What a walk keeps of a regular file (small: a walk may see a million of them)."""

    size: int
    nlink: int
    dev: int
    ino: int


@dataclass
class Tree:
    """What a bounded walk found (names relative to the walked folder, sorted)."""

    files: list[tuple[str, FileInfo]] = field(default_factory=list)  # regular files (not followed)
    links: list[tuple[str, str]] = field(default_factory=list)  # symlinks and their targets
    special: list[str] = field(default_factory=list)  # FIFOs, sockets, device nodes
    folders: int = 0
    truncated: dict[str, int] = field(default_factory=dict)
    """Why the walk is incomplete: ``entries`` (stopped at the budget: 1), ``too_deep`` (folders
    not entered), ``unreadable`` (folders that could not be listed)."""

    @property
    def complete(self) -> bool:
        return not self.truncated


FILE, LINK, SPECIAL, FOLDER = "file", "link", "special", "folder"


def scan(
    root: Path, truncated: dict[str, int], *, max_entries: int = WALK_ENTRIES, max_depth: int = WALK_DEPTH
) -> Iterator[tuple[str, str, Any]]:
    """Yield ``(relative name, kind, detail)`` for everything under ``root`` — kind ``file``
    (detail: :class:`FileInfo`), ``link`` (its target), ``special`` or ``folder`` — without
    following any link, folder by folder in sorted order, within the budgets; what was cut is
    counted into ``truncated``. Memory: one folder's names at a time."""
    seen = 0
    stack: list[tuple[str, int]] = [("", 0)]
    base = os.fspath(root)
    while stack:
        rel_dir, depth = stack.pop()
        try:
            with os.scandir(os.path.join(base, rel_dir) if rel_dir else base) as it:
                entries = []
                for entry in it:
                    entries.append(entry)
                    if seen + len(entries) > max_entries:
                        break
        except OSError:
            truncated["unreadable"] = truncated.get("unreadable", 0) + 1
            continue
        entries.sort(key=lambda e: e.name)
        subfolders = []
        for entry in entries:
            seen += 1
            if seen > max_entries:
                truncated["entries"] = 1
                return
            rel = f"{rel_dir}/{entry.name}" if rel_dir else entry.name
            try:
                st = entry.stat(follow_symlinks=False)
            except OSError:
                continue
            mode = st.st_mode
            if stat.S_ISDIR(mode):
                yield rel, FOLDER, None
                if depth + 1 >= max_depth:
                    truncated["too_deep"] = truncated.get("too_deep", 0) + 1
                else:
                    subfolders.append((rel, depth + 1))
            elif stat.S_ISREG(mode):
                yield rel, FILE, FileInfo(st.st_size, st.st_nlink, st.st_dev, st.st_ino)
            elif stat.S_ISLNK(mode):
                try:
                    yield rel, LINK, os.readlink(entry.path)
                except OSError:
                    yield rel, LINK, ""
            else:
                yield rel, SPECIAL, None
        stack.extend(reversed(subfolders))


def walk(root: Path, *, max_entries: int = WALK_ENTRIES, max_depth: int = WALK_DEPTH) -> Tree:
    """Walk ``root`` without following any link, in sorted order, within the budgets."""
    tree = Tree()
    for rel, kind, detail in scan(root, tree.truncated, max_entries=max_entries, max_depth=max_depth):
        if kind == FILE:
            tree.files.append((rel, detail))
        elif kind == LINK:
            tree.links.append((rel, detail))
        elif kind == SPECIAL:
            tree.special.append(rel)
        else:
            tree.folders += 1
    tree.files.sort(key=lambda f: f[0])
    tree.links.sort()
    tree.special.sort()
    return tree


def inside(root: Path, path: str | os.PathLike[str]) -> bool:
    """Whether ``path``, all links resolved, is ``root`` or lies under it."""
    real_root = os.path.realpath(root)
    real = os.path.realpath(path)
    return real == real_root or real.startswith(real_root.rstrip("/") + "/")


def link_leaves(root: Path, rel: str, target: str) -> bool:
    """Whether the symlink ``rel`` -> ``target`` in ``root`` leads out of it (or anywhere absolute)."""
    return os.path.isabs(target) or not inside(root, os.path.join(root, rel))


def open_regular(path: Path, root: Path | None = None) -> int:
    """A read descriptor of the regular file at ``path``; links are followed only when they
    stay inside ``root`` (never without one). Raises :class:`UnsafePath` or ``OSError``
    (``FileNotFoundError`` when there is nothing)."""
    target = os.fspath(path)
    if root is not None and os.path.islink(target):
        if not inside(root, target):
            raise UnsafePath(f"{path} is a link that leads out of {root}")
        target = os.path.realpath(target)
    elif root is not None and not inside(root, os.path.dirname(target) or "."):
        raise UnsafePath(f"{path} lies outside {root}")
    fd = os.open(target, READ_FLAGS)
    try:
        if not stat.S_ISREG(os.fstat(fd).st_mode):
            raise UnsafePath(f"{path} is not a regular file")
        os.set_blocking(fd, True)
    except BaseException:
        os.close(fd)
        raise
    return fd


def write_replacing(
    path: Path, data: bytes | str | None = None, *, source: Path | None = None, root: Path | None = None
) -> bool:
    """Write ``data`` (or a copy of the file ``source``) at ``path`` as a new file renamed over
    whatever was there; True when what was there was not a plain file of its own (a symlink, a
    hard-linked file, a FIFO...): the caller records it. The old inode is never written.

    ``root``: the folder ``path`` must stay in (its parent, links resolved, must lie inside)."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    if root is not None and not inside(root, path.parent):
        raise UnsafePath(f"{path} lies outside {root} (a link on the way leads out)")
    try:
        old = os.lstat(path)
    except FileNotFoundError:
        old = None
    if old is not None and stat.S_ISDIR(old.st_mode):
        raise IsADirectoryError(f"{path} is a folder")
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=".clawmark-")
    try:
        with os.fdopen(fd, "wb") as fh:
            if source is not None:
                with open(source, "rb") as src:
                    shutil.copyfileobj(src, fh, 1 << 20)
            else:
                fh.write(data.encode("utf-8") if isinstance(data, str) else (data or b""))
        os.chmod(tmp, 0o644)
        os.replace(tmp, path)
    except BaseException:
        try:
            os.unlink(tmp)
        except OSError:
            pass
        raise
    return old is not None and (not stat.S_ISREG(old.st_mode) or old.st_nlink > 1)


def fresh_file(path: Path) -> int:
    """A new, empty file at ``path`` for the harness to write (its descriptor): whatever was
    there — a file, a link, a FIFO, a folder — is removed first, never opened."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    remove_entry(path)
    return os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW | os.O_CLOEXEC, 0o644)


def remove_entry(path: Path) -> None:
    """Remove ``path`` whatever it is (a folder with its contents), never following a link."""
    try:
        st = os.lstat(path)
    except FileNotFoundError:
        return
    if stat.S_ISDIR(st.st_mode):
        shutil.rmtree(path)
    else:
        os.unlink(path)


@dataclass
class Sweep:
    """What a sweep removed (relative names, sorted) and whether it saw the whole folder."""

    removed: list[str] = field(default_factory=list)
    complete: bool = True


def disarm(root: Path, *, max_entries: int = DISARM_ENTRIES) -> Sweep:
    """Remove what an agent left in its workspace ``root`` that leads the harness outside it.

    Symlinks that leave ``root`` (absolute, or resolving outside), FIFOs, sockets and device
    nodes, and hard-linked files whose other names are not all inside ``root`` (a hard link to a
    host file: writing it would write the host file). Links inside ``root`` and hard links
    between two workspace files stay: they are the agent's own business. Call it when no agent
    process is left running. Streams the walk: memory stays small for a million entries."""
    base = Path(os.path.realpath(root))
    truncated: dict[str, int] = {}
    doomed: list[str] = []
    names: dict[tuple[int, int], tuple[int, list[str]]] = {}
    for rel, kind, detail in scan(base, truncated, max_entries=max_entries, max_depth=DEEP):
        if kind == LINK and link_leaves(base, rel, detail):
            doomed.append(rel)
        elif kind == SPECIAL:
            doomed.append(rel)
        elif kind == FILE and detail.nlink > 1:
            names.setdefault((detail.dev, detail.ino), (detail.nlink, []))[1].append(rel)
    for nlink, rels in names.values():
        if len(rels) < nlink:  # some name of this file is elsewhere
            doomed += rels
    return Sweep(_unlink_all(base, doomed), not truncated)


def neutralise(folder: Path, *, max_entries: int = WALK_ENTRIES) -> Sweep:
    """Remove every symlink, special file and hard-linked file from an evidence ``folder``:
    evidence is plain files the harness wrote, or the agent wrote as plain files."""
    base = Path(os.path.realpath(folder))
    if not base.is_dir():
        return Sweep()
    truncated: dict[str, int] = {}
    doomed = [
        rel
        for rel, kind, detail in scan(base, truncated, max_entries=max_entries, max_depth=DEEP)
        if kind in (LINK, SPECIAL) or (kind == FILE and detail.nlink > 1)
    ]
    return Sweep(_unlink_all(base, doomed), not truncated)


def _unlink_all(base: Path, rels: list[str]) -> list[str]:
    removed = []
    for rel in sorted(set(rels)):
        try:
            os.unlink(base / rel)
            removed.append(rel)
        except FileNotFoundError:
            continue
    return removed
