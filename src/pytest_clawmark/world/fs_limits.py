"""Limits of the harness's own reads of the workspace: snapshots, evidence and checker reads.

Why: the agent writes the workspace; the harness reads it after every turn (the day's snapshot,
kept as evidence and compared to decide whether a failed turn may be retried) and checkers read
deliverables from it — outside any turn time limit. A 500 MB file read whole, a million files or
a tree thousands of folders deep must not make those reads take minutes or gigabytes. Whatever
is cut is said in the snapshot (``truncated``) or in the checker's failure message.

The agent's own side (how big a file it may write at all) is ``--agent-limits file_size``
(agents/limits.py). ``inline_file`` and ``inline_total`` are ``--agent-limits evidence_file`` and
``evidence_total``.
"""

from __future__ import annotations

from dataclasses import dataclass

from .untrusted_fs import WALK_DEPTH, WALK_ENTRIES

KIB, MIB, GIB = 1 << 10, 1 << 20, 1 << 30


@dataclass(frozen=True)
class WorkspaceLimits:
    inline_file: int = 256 * KIB
    """A file up to this size is copied whole (base64) into a snapshot; larger: size and hash.
    (Mail attachments are kept the same way, world/mail.py.)"""

    inline_total: int = 16 * MIB
    """Bytes copied into one snapshot in all (~22 MB of JSON); later files: size and hash only."""

    hash_file: int = 64 * MIB
    """A file up to this size is hashed whole (``sha256``); a larger one by a sample: its size
    and the SHA-256 of its first and last :data:`SAMPLE` bytes (``sampled_sha256``), which still
    shows almost every change an agent makes, at a fixed cost."""

    hash_total: int = 512 * MIB
    """Bytes read for hashing per snapshot in all (~1 s); files past it: size only (``unhashed``)."""

    max_files: int = 10_000
    """Files recorded in one snapshot; the rest are counted only (``truncated.files``)."""

    max_entries: int = WALK_ENTRIES
    """Entries (files, folders, links) a walk of the workspace looks at before it stops: a
    snapshot then says ``truncated.walk``, a checker's ``listing`` fails (the agent's doing)."""

    max_depth: int = WALK_DEPTH
    """Folder depth a walk of the workspace descends to (deeper: as for ``max_entries``)."""

    read_limit: int = 64 * MIB
    """Largest deliverable a checker reads (``world.fs.read_bytes/read_text/read_json/read_csv``):
    a larger one fails the checker (the agent's failure) instead of filling the harness's memory."""


SAMPLE = 64 * KIB
"""Bytes from each end of a file that a sampled hash reads."""
