"""The ``fs`` service: the agent's private workspace folder.

Turn setup copies evidence in (:meth:`FsService.add`) or changes files silently; checkers read
deliverables back. Reads of agent deliverables raise :class:`DeliverableMissing`, an
``AssertionError``, so a missing file is the agent's failure (a failed checker), not a
harness error.
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

from .service import Service


class DeliverableMissing(AssertionError):
    """A file the checker expected the agent to produce does not exist."""


class FsService(Service):
    name = "fs"

    def start(self) -> None:
        self.ctx.workspace.mkdir(parents=True, exist_ok=True)
        self._evidence_roots: list[Path] = []

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
                self._copy(f, rel)
                added.append(rel)
        else:
            rel = PurePosixPath(dest or ".", src.name).as_posix() if not dest or dest.endswith("/") else dest
            rel = PurePosixPath(rel).as_posix()
            self._copy(src, rel)
            added.append(rel)
        self.ctx.mutations.note(silent, self.name, f"added {', '.join(added)}")
        return sorted(added)

    def _copy(self, src: Path, rel: str) -> None:
        target = self.path(rel)
        target.parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(src, target)

    def write(self, rel: str, content: str | bytes, *, silent: str | None = None) -> None:
        """Create or overwrite a workspace file (a loud drop or, with ``silent=``, a silent change)."""
        target = self.path(rel)
        target.parent.mkdir(parents=True, exist_ok=True)
        if isinstance(content, str):
            target.write_text(content, encoding="utf-8")
        else:
            target.write_bytes(content)
        self.ctx.mutations.note(silent, self.name, f"wrote {rel}")

    def remove(self, rel: str, *, silent: str | None = None) -> None:
        target = self.path(rel)
        if target.is_dir():
            shutil.rmtree(target)
        elif target.exists():
            target.unlink()
        self.ctx.mutations.note(silent, self.name, f"removed {rel}")

    def disarm(self) -> list[str]:
        """Sweep the workspace after a turn (see :func:`disarm`); the harness calls it for every agent."""
        return disarm(self.ctx.workspace)

    # -- admin plane: deterministic reads ----------------------------------------------------
    def exists(self, rel: str) -> bool:
        return self.path(rel).exists()

    def read_bytes(self, rel: str) -> bytes:
        target = self.path(rel)
        if not target.is_file():
            raise DeliverableMissing(f"expected file {rel!r} in the workspace, found none")
        return target.read_bytes()

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

    def read_csv(self, rel: str, *, required: tuple[str, ...] = ()) -> list[dict[str, str]]:
        """Rows of a CSV deliverable as dicts (header names stripped). ``required`` columns must exist."""
        reader = csv.DictReader(io.StringIO(self.read_text(rel)))
        header = [h.strip() for h in (reader.fieldnames or [])]
        missing = [c for c in required if c not in header]
        if missing:
            raise AssertionError(f"{rel!r} lacks column(s) {missing}; header is {header}")
        rows = []
        for raw in reader:
            rows.append({(k or "").strip(): (v or "").strip() if isinstance(v, str) else "" for k, v in raw.items()})
        return rows

    def listing(self, rel: str = "") -> list[str]:
        """Workspace-relative paths of all files under ``rel``, sorted."""
        base = self.path(rel) if rel else self.ctx.workspace
        if not base.exists():
            return []
        return sorted(p.relative_to(self.ctx.workspace).as_posix() for p in base.rglob("*") if p.is_file())

    # -- evidence ----------------------------------------------------------------------------
    SNAPSHOT_INLINE_LIMIT = 256 * 1024
    """Files up to this size are kept whole (base64) in snapshots; larger ones by hash only."""

    def snapshot(self) -> dict[str, Any]:
        files = {}
        for rel in self.listing():
            data = self.path(rel).read_bytes()
            entry: dict[str, Any] = {"size": len(data), "sha256": hashlib.sha256(data).hexdigest()}
            if len(data) <= self.SNAPSHOT_INLINE_LIMIT:
                entry["base64"] = base64.b64encode(data).decode("ascii")
            files[rel] = entry
        return {"files": files}

    def restore(self, data: dict[str, Any]) -> None:
        """Make the workspace hold exactly the snapshot's files.

        Files kept by hash only must still be present with that hash (large evidence is not
        copied into snapshots); anything else is an error rather than silent data loss.
        """
        wanted = data.get("files", {})
        for rel, entry in sorted(wanted.items()):
            if "base64" not in entry:
                target = self.path(rel)
                if not target.is_file() or hashlib.sha256(target.read_bytes()).hexdigest() != entry["sha256"]:
                    raise ValueError(f"cannot restore {rel!r}: snapshot holds its hash only and the file differs")
        for rel in self.listing():
            if rel not in wanted:
                self.path(rel).unlink()
        for rel, entry in sorted(wanted.items()):
            if "base64" in entry:
                target = self.path(rel)
                target.parent.mkdir(parents=True, exist_ok=True)
                target.write_bytes(base64.b64decode(entry["base64"]))


def disarm(root: Path) -> list[str]:
    """Remove what an agent left in ``root`` that would make the harness act outside it.

    Why: turn setup, checkers and snapshots read and write the workspace with the harness's
    rights, following symlinks. An agent that plants ``TOOLS.md -> /some/host/file`` (or a link
    where tomorrow's evidence lands) would make the harness overwrite that host file; a link to
    a host file makes a checker read it as a deliverable; a FIFO makes a checker hang. So after
    every turn — when no agent process is left running — symlinks that leave ``root`` (absolute,
    or resolving outside it) and FIFOs, sockets and device nodes are removed. Returns their
    ``root``-relative paths, sorted, for the day's record.
    """
    removed: list[str] = []
    base = Path(os.path.realpath(root))
    for folder, dirs, files in os.walk(base, followlinks=False):
        for name in [*dirs, *files]:
            path = Path(folder, name)
            try:
                mode = path.lstat().st_mode
            except FileNotFoundError:
                continue
            if stat.S_ISLNK(mode):
                target = os.readlink(path)
                inside = not os.path.isabs(target) and Path(os.path.realpath(path)).is_relative_to(base)
                if inside:
                    continue
            elif stat.S_ISDIR(mode) or stat.S_ISREG(mode):
                continue
            path.unlink()
            removed.append(path.relative_to(base).as_posix())
    return sorted(removed)
