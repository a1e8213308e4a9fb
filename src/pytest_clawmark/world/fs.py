"""The ``fs`` service: the agent's private workspace folder.

Turn setup copies evidence in (:meth:`FsService.add`) or changes files silently; checkers read
deliverables back. Reads of agent deliverables raise :class:`DeliverableMissing`, an
``AssertionError``, so a missing file is the agent's failure (a failed checker), not a
harness error.

The workspace is the agent's: everything here reads and writes it as a hostile folder
(:mod:`.untrusted_fs`): writes replace names instead of writing through them (a link or a hard
link to a host file stays untouched), reads open regular files inside the workspace only, and
walks, snapshots and reads are bounded (:mod:`.fs_limits`).
"""

from __future__ import annotations

import base64
import csv
import hashlib
import io
import json
import os
import shutil
import stat
from pathlib import Path, PurePosixPath
from typing import Any

from .fs_limits import SAMPLE, WorkspaceLimits
from .service import Service
from .untrusted_fs import Sweep, disarm, inside, open_regular, walk, write_replacing

__all__ = ["DeliverableMissing", "DeliverableTooLarge", "FsService", "WorkspaceTooLarge", "disarm"]


class DeliverableMissing(AssertionError):
    """A file the checker expected the agent to produce does not exist."""


class DeliverableTooLarge(AssertionError):
    """A deliverable larger than a checker reads (``WorkspaceLimits.read_limit``): the agent's failure."""


class WorkspaceTooLarge(AssertionError):
    """The workspace holds more (or deeper) than a walk looks at: the agent's doing."""


class FsService(Service):
    name = "fs"
    limits = WorkspaceLimits()
    """The bounds of the harness's reads (the World sets them from ``--agent-limits``)."""

    def start(self) -> None:
        self.ctx.workspace.mkdir(parents=True, exist_ok=True)
        self.replaced: list[str] = []
        self.last_sweep = Sweep()

    def stop(self) -> None:
        pass

    @property
    def root(self) -> Path:
        return self.ctx.workspace

    # -- agent plane -------------------------------------------------------------------------
    def agent_env(self) -> dict[str, str]:
        return {"CLAWMARK_WORKSPACE": str(self.ctx.workspace)}

    def tools_markdown(self) -> str:
        return (
            "## Workspace (fs)\n"
            f"Your working folder is `{self.ctx.workspace}` (also `$CLAWMARK_WORKSPACE`). New evidence "
            "appears here; write your deliverables here, at the paths your instructions name.\n"
        )

    # -- admin plane: setup ------------------------------------------------------------------
    def path(self, rel: str) -> Path:
        """The absolute path of ``rel`` inside the workspace; refuses escapes."""
        p = PurePosixPath(rel)
        if p.is_absolute() or ".." in p.parts:
            raise ValueError(f"workspace paths are relative and stay inside the workspace: {rel!r}")
        return self.ctx.workspace.joinpath(*p.parts)

    def add(self, source: str | Path, dest: str = "", *, silent: str | None = None) -> list[str]:
        """Copy a file or folder of evidence into the workspace (at ``dest``, default: its top).

        ``source`` is relative to the task module's folder (see ``World.task_dir``) unless absolute.
        Returns the workspace-relative paths added, sorted.
        """
        src = Path(source)
        if not src.is_absolute():
            src = self.ctx.task_dir / src
        if not src.exists():
            raise FileNotFoundError(f"evidence {src} does not exist")
        added: list[str] = []
        if src.is_dir():
            for f in sorted(p for p in src.rglob("*") if p.is_file()):
                rel = PurePosixPath(dest, *f.relative_to(src).parts).as_posix()
                self._put(rel, source=f)
                added.append(rel)
        else:
            rel = PurePosixPath(dest or ".", src.name).as_posix() if not dest or dest.endswith("/") else dest
            rel = PurePosixPath(rel).as_posix()
            self._put(rel, source=src)
            added.append(rel)
        self.ctx.mutations.note(silent, self.name, f"added {', '.join(added)}")
        return sorted(added)

    def write(self, rel: str, content: str | bytes, *, silent: str | None = None) -> None:
        """Create or overwrite a workspace file (a loud drop or, with ``silent=``, a silent change)."""
        self._put(rel, content)
        self.ctx.mutations.note(silent, self.name, f"wrote {rel}")

    def _put(self, rel: str, content: str | bytes | None = None, *, source: Path | None = None) -> None:
        """Write ``rel`` as a new file renamed over the old name: a link or hard link the agent
        left there is replaced, never written through (and recorded in :attr:`replaced`)."""
        if write_replacing(self.path(rel), content, source=source, root=self.ctx.workspace):
            self.replaced.append(rel)

    def take_replaced(self) -> list[str]:
        """Workspace paths where a harness write replaced a link, hard link or special file
        since the last call (sorted; for the day's record)."""
        done, self.replaced = sorted(set(self.replaced)), []
        return done

    def remove(self, rel: str, *, silent: str | None = None) -> None:
        target = self.path(rel)
        try:
            mode = target.lstat().st_mode
        except FileNotFoundError:
            mode = None
        if mode is not None and stat.S_ISDIR(mode):
            shutil.rmtree(target)
        elif mode is not None:
            target.unlink()  # a link is removed, not what it points to
        self.ctx.mutations.note(silent, self.name, f"removed {rel}")

    def disarm(self) -> list[str]:
        """Sweep the workspace after a turn (see :func:`.untrusted_fs.disarm`); the harness calls
        it for every agent. Returns what was removed; :attr:`last_sweep` says if it saw everything."""
        self.last_sweep = disarm(self.ctx.workspace)
        return self.last_sweep.removed

    # -- admin plane: deterministic reads ----------------------------------------------------
    def exists(self, rel: str) -> bool:
        return self.path(rel).exists()

    def read_bytes(self, rel: str) -> bytes:
        target = self.path(rel)
        try:
            fd = open_regular(target, root=self.ctx.workspace)
        except FileNotFoundError:
            raise DeliverableMissing(f"expected file {rel!r} in the workspace, found none") from None
        except OSError:
            raise DeliverableMissing(
                f"expected file {rel!r} in the workspace, found something else (a folder, a link out of the workspace, a FIFO or device)"
            ) from None
        limit = self.limits.read_limit
        with os.fdopen(fd, "rb") as fh:
            size = os.fstat(fh.fileno()).st_size
            data = fh.read(limit + 1) if size <= limit else b""
        if size > limit or len(data) > limit:
            raise DeliverableTooLarge(
                f"{rel!r} is {max(size, len(data))} bytes, more than the {limit} bytes a checker reads"
            )
        return data

    def read_text(self, rel: str) -> str:
        data = self.read_bytes(rel)
        try:
            return data.decode("utf-8-sig")
        except UnicodeDecodeError:
            raise AssertionError(f"{rel!r} is not UTF-8 text") from None

    def read_json(self, rel: str) -> Any:
        text = self.read_text(rel)
        try:
            return json.loads(text)
        except json.JSONDecodeError as exc:
            raise AssertionError(f"{rel!r} is not valid JSON: {exc.msg} at line {exc.lineno}") from None
        except RecursionError:
            raise AssertionError(f"{rel!r} is JSON nested too deeply to read") from None

    def read_csv(self, rel: str, *, required: tuple[str, ...] = ()) -> list[dict[str, str]]:
        """Rows of a CSV deliverable as dicts (header names stripped). ``required`` columns must exist."""
        reader = csv.DictReader(io.StringIO(self.read_text(rel)))
        try:
            header = [h.strip() for h in (reader.fieldnames or [])]
            missing = [c for c in required if c not in header]
            if missing:
                raise AssertionError(f"{rel!r} lacks column(s) {missing}; header is {header}")
            rows = []
            for raw in reader:
                rows.append(
                    {(k or "").strip(): (v or "").strip() if isinstance(v, str) else "" for k, v in raw.items()}
                )
        except csv.Error as exc:
            raise AssertionError(f"{rel!r} is not valid CSV: {exc}") from None
        return rows

    def listing(self, rel: str = "") -> list[str]:
        """Workspace-relative paths of all files under ``rel``, sorted (links to files inside
        the workspace included). A workspace larger or deeper than a walk looks at
        (:class:`.fs_limits.WorkspaceLimits`) raises :class:`WorkspaceTooLarge`."""
        files, truncated = self._files(rel)
        if truncated:
            raise WorkspaceTooLarge(
                f"the workspace{f' folder {rel!r}' if rel else ''} holds more than a listing looks at ({_describe(truncated)})"
            )
        return [name for name, _, _ in files]

    def _files(self, rel: str = "") -> tuple[list[tuple[str, Path, int]], dict[str, int]]:
        """(workspace-relative name, path to open, size) of every regular file under ``rel``
        and of every link to one inside the workspace, sorted; and what the walk could not see."""
        root = self.ctx.workspace
        base = self.path(rel) if rel else root
        try:
            if not stat.S_ISDIR(base.lstat().st_mode):
                return [], {}
        except FileNotFoundError:
            return [], {}
        prefix = PurePosixPath(rel).as_posix() + "/" if rel else ""
        tree = walk(base, max_entries=self.limits.max_entries, max_depth=self.limits.max_depth)
        found = [(prefix + name, base / name, info.size) for name, info in tree.files]
        for name, _target in tree.links:
            link = base / name
            if not inside(root, link):
                continue
            real = Path(os.path.realpath(link))
            try:
                st = real.stat()
            except OSError:
                continue
            if stat.S_ISREG(st.st_mode):
                found.append((prefix + name, real, st.st_size))
        found.sort(key=lambda f: f[0])
        return found, dict(tree.truncated)

    # -- evidence ----------------------------------------------------------------------------
    def snapshot(self) -> dict[str, Any]:
        """The workspace as JSON: per file its size and SHA-256, and small files whole (base64).

        Bounded for a hostile workspace (:class:`.fs_limits.WorkspaceLimits`): at most
        ``max_files`` files, ``inline_total`` bytes copied, ``hash_total`` bytes read for hashes
        (then sampled hashes, then sizes only); whatever was cut is counted under ``truncated``,
        which only a workspace past a limit has. Deterministic: the same files give the same JSON."""
        lim = self.limits
        found, walk_cut = self._files()
        listed = found[: lim.max_files]
        # the budgets go to the smallest files first (then by name: deterministic), so that one
        # huge file cannot leave every small deliverable unrecorded
        plan: dict[str, str] = {}
        inline_left, hash_left = lim.inline_total, lim.hash_total
        for rel, _, size in sorted(listed, key=lambda f: (f[2], f[0])):
            if size <= lim.inline_file and size <= inline_left:
                plan[rel], inline_left = "inline", inline_left - size
            elif size <= lim.hash_file and size <= hash_left:
                plan[rel], hash_left = "hash", hash_left - size
            elif min(size, 2 * SAMPLE) <= hash_left:
                plan[rel], hash_left = "sample", hash_left - min(size, 2 * SAMPLE)
            else:
                plan[rel] = "size"
        files: dict[str, Any] = {}
        cut: dict[str, Any] = {}
        for rel, path, size in listed:
            entry: dict[str, Any] = {"size": size}
            files[rel] = entry
            try:
                fd = open_regular(path, root=self.ctx.workspace)
            except OSError:
                entry["unreadable"] = True
                continue
            how = plan[rel]
            if how != "inline" and size <= lim.inline_file:
                cut["not_inlined"] = cut.get("not_inlined", 0) + 1
            with os.fdopen(fd, "rb") as fh:
                if how == "inline":
                    data = fh.read(lim.inline_file + 1)[: lim.inline_file]
                    entry.update(
                        size=len(data),
                        sha256=hashlib.sha256(data).hexdigest(),
                        base64=base64.b64encode(data).decode("ascii"),
                    )
                elif how == "hash":
                    entry["sha256"] = _full_hash(fh)
                elif how == "sample":
                    entry["sampled_sha256"] = _sampled_hash(fh, size)
                else:
                    entry["unhashed"] = True
                    cut["unhashed"] = cut.get("unhashed", 0) + 1
        if len(found) > lim.max_files:
            cut["files"] = len(found) - lim.max_files
        if walk_cut:
            cut["walk"] = walk_cut
        return {"files": files, "truncated": cut} if cut else {"files": files}

    def restore(self, data: dict[str, Any]) -> None:
        """Make the workspace hold exactly the snapshot's files.

        Files kept by hash only must still be present with that hash (large evidence is not
        copied into snapshots); anything else is an error rather than silent data loss.
        """
        wanted = data.get("files", {})
        for rel, entry in sorted(wanted.items()):
            if "base64" not in entry and not self._matches(rel, entry):
                raise ValueError(f"cannot restore {rel!r}: snapshot holds its hash only and the file differs")
        for rel in self.listing():
            if rel not in wanted:
                self.path(rel).unlink()
        for rel, entry in sorted(wanted.items()):
            if "base64" in entry:
                self._put(rel, base64.b64decode(entry["base64"]))

    def _matches(self, rel: str, entry: dict[str, Any]) -> bool:
        try:
            fd = open_regular(self.path(rel), root=self.ctx.workspace)
        except OSError:
            return False
        with os.fdopen(fd, "rb") as fh:
            size = os.fstat(fh.fileno()).st_size
            if size != entry.get("size", size):
                return False
            if "sha256" in entry:
                return _full_hash(fh) == entry["sha256"]
            if "sampled_sha256" in entry:
                return _sampled_hash(fh, size) == entry["sampled_sha256"]
            return bool(entry.get("unhashed"))


def _full_hash(fh: io.BufferedReader) -> str:
    digest = hashlib.sha256()
    while chunk := fh.read(1 << 20):
        digest.update(chunk)
    return digest.hexdigest()


def _sampled_hash(fh: io.BufferedReader, size: int) -> str:
    """SHA-256 of the first and the last :data:`.fs_limits.SAMPLE` bytes (the size is in the entry)."""
    digest = hashlib.sha256(fh.read(SAMPLE))
    if size > SAMPLE:
        fh.seek(max(SAMPLE, size - SAMPLE))
        digest.update(fh.read(SAMPLE))
    return digest.hexdigest()


def _describe(truncated: dict[str, int]) -> str:
    why = {
        "entries": "too many entries",
        "too_deep": "folders nested too deep",
        "unreadable": "folders that cannot be listed",
    }
    return ", ".join(why.get(k, k) for k in sorted(truncated))
