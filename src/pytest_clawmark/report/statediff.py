"""What changed in the world from one day to the next, for the run viewer.

Why from the evidence: every day's post-turn snapshot of every service is already on disk
(``<evidence>/<task>/trialK/dayN/<service>.snapshot.json``). The workspace snapshot keeps small
files whole (base64); those that are UTF-8 text are diffed as text, the others shown by size and
hash. The other services' snapshots are canonical JSON, diffed line by line. Every diff is capped
(:data:`MAX_LINES`) so a huge world cannot make a huge page.
"""

from __future__ import annotations

import base64
import difflib
import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

MAX_LINES = 400
"""Diff lines shown per service and day."""


@dataclass
class ServiceDiff:
    service: str
    lines: list[str] = field(default_factory=list)
    truncated: int = 0  # lines left out
    missing: bool = False  # no snapshot in the evidence

    @property
    def changed(self) -> bool:
        return bool(self.lines) or self.truncated > 0


def load_snapshots(evidence_root: Path, day: dict[str, Any]) -> dict[str, Any]:
    """``{service: snapshot}`` of one day record (``days[i]["evidence"]``); unreadable ones left out."""
    out: dict[str, Any] = {}
    for key, rel in (day.get("evidence") or {}).items():
        if not key.endswith("_snapshot"):
            continue
        try:
            out[key.removesuffix("_snapshot")] = json.loads((Path(evidence_root) / rel).read_text(encoding="utf-8"))
        except (OSError, ValueError):
            continue
    return out


def day_diffs(before: dict[str, Any], after: dict[str, Any]) -> list[ServiceDiff]:
    """Per service (workspace first), the changes from ``before`` to ``after`` (``{}``: nothing before)."""
    diffs = []
    for service in sorted(set(before) | set(after), key=lambda s: (s != "fs", s)):
        if service not in after:
            diffs.append(ServiceDiff(service, missing=True))
            continue
        lines = (
            _fs_lines(before.get(service) or {}, after[service])
            if service == "fs"
            else _json_lines(before.get(service), after[service])
        )
        diffs.append(_capped(service, lines))
    return diffs


def _capped(service: str, lines: list[str]) -> ServiceDiff:
    if len(lines) > MAX_LINES:
        return ServiceDiff(service, lines[:MAX_LINES], truncated=len(lines) - MAX_LINES)
    return ServiceDiff(service, lines)


def _text(entry: dict[str, Any]) -> str | None:
    data = entry.get("base64")
    if data is None:
        return None
    try:
        return base64.b64decode(data).decode("utf-8")
    except (ValueError, UnicodeDecodeError):
        return None


def _fs_lines(before: dict[str, Any], after: dict[str, Any]) -> list[str]:
    old, new = before.get("files") or {}, after.get("files") or {}
    lines: list[str] = []
    for name in sorted(set(old) | set(new)):
        a, b = old.get(name), new.get(name)
        if a is not None and b is not None and a.get("sha256") == b.get("sha256") and a.get("size") == b.get("size"):
            continue
        ta, tb = (_text(a) if a else ""), (_text(b) if b else "")
        if ta is None or tb is None:
            what = "added" if a is None else "removed" if b is None else "changed"
            size = f"{a.get('size') if a else '-'} -> {b.get('size') if b else '-'} bytes"
            lines.append(f"*** {name}: {what} (binary or not kept whole: {size})")
            continue
        label_a = name if a is not None else "/dev/null"
        label_b = name if b is not None else "/dev/null"
        lines += [
            line.rstrip("\n")
            for line in difflib.unified_diff(ta.splitlines(True), tb.splitlines(True), label_a, label_b, n=2)
        ]
    return lines


def _json_lines(before: Any, after: Any) -> list[str]:
    a = json.dumps(before, indent=1, sort_keys=True, ensure_ascii=False).splitlines() if before is not None else []
    b = json.dumps(after, indent=1, sort_keys=True, ensure_ascii=False).splitlines()
    return list(difflib.unified_diff(a, b, "before", "after", n=2, lineterm=""))
