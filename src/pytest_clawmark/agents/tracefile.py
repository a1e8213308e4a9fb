"""JSON trace lines: how a process agent reports its trajectory (tool calls, messages, tokens).

Why a file of JSON lines: any agent, in any language, can append a line per event without a
library, and the harness can read it after the turn without trusting the agent's stdout format.
The file is named by ``$CLAWMARK_TRACE_FILE``; one JSON object per line:

    {"type": "tool_call", "name": "imap.fetch", "arguments": "INBOX 1:5", "status": "ok"}
    {"type": "message", "text": "Filed 3 invoices; one needs your approval."}
    {"type": "tokens", "input": 1200, "output": 80, "cache_read": 1000, "cache_write": 0}

``arguments`` may be a string or any JSON value (kept as a short compact summary); ``status`` is
free text (``ok``/``error`` by convention); token lines are summed over the day, every key
optional. Lines of other types are ignored and counted; malformed lines (not JSON, not an object,
wrong field types) are counted with a short reason, never fatal: the trace is evidence about the
agent, and a bad trace is the agent's problem, not the harness's.

The reader distrusts the file: it does not follow a symlink, reads regular files only and at most
:data:`MAX_BYTES`, and caps what it keeps.
"""

from __future__ import annotations

import json
import os
import stat
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from .base import ToolCall

MAX_BYTES = 16 * 1024 * 1024
MAX_TOOL_CALLS = 5000
MAX_MESSAGES = 500
ARGUMENTS_CHARS = 300
MESSAGE_CHARS = 4000
MAX_REASONS = 5
TOKEN_KEYS = ("input", "output", "cache_read", "cache_write")


@dataclass
class ParsedTrace:
    """What a day's trace file said, plus how much of it could not be used."""

    tool_calls: list[ToolCall] = field(default_factory=list)
    messages: list[str] = field(default_factory=list)
    tokens: dict[str, int] = field(default_factory=dict)
    lines: int = 0
    malformed: int = 0
    ignored: int = 0  # well-formed lines of an unknown type, or beyond the caps
    reasons: list[str] = field(default_factory=list)  # the first few malformed-line reasons
    truncated: bool = False  # the file was larger than MAX_BYTES

    def stats(self) -> dict[str, Any]:
        """The ``extra`` entries a trace contributes to the day's :class:`TurnTrace`."""
        data: dict[str, Any] = {
            "trace_lines": self.lines,
            "trace_malformed": self.malformed,
            "trace_ignored": self.ignored,
        }
        if self.reasons:
            data["trace_errors"] = list(self.reasons)
        if self.truncated:
            data["trace_truncated"] = True
        return data


def read_trace(path: Path) -> ParsedTrace | None:
    """Parse the trace file at ``path``; ``None`` when the agent wrote none.

    A symlink, a folder or any other non-regular file at ``path`` counts as one malformed line:
    the agent controls that file, the harness reads it with its own rights.
    """
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK | getattr(os, "O_CLOEXEC", 0))
    except FileNotFoundError:
        return None
    except OSError as exc:
        return ParsedTrace(malformed=1, reasons=[f"trace file not readable: {exc.strerror or exc}"])
    with os.fdopen(fd, "rb") as fh:
        if not stat.S_ISREG(os.fstat(fh.fileno()).st_mode):
            return ParsedTrace(malformed=1, reasons=["trace file is not a regular file"])
        data = fh.read(MAX_BYTES + 1)
    parsed = parse_trace(data[:MAX_BYTES])
    parsed.truncated = len(data) > MAX_BYTES
    return parsed


def parse_trace(data: bytes) -> ParsedTrace:
    """Parse JSON trace lines (pure; see the module docstring for the schema)."""
    out = ParsedTrace()
    for number, raw in enumerate(data.splitlines(), start=1):
        if not raw.strip():
            continue
        out.lines += 1
        try:
            _apply(out, json.loads(raw))
        except _Malformed as exc:
            out.malformed += 1
            if len(out.reasons) < MAX_REASONS:
                out.reasons.append(f"line {number}: {exc}")
        except (ValueError, RecursionError):
            out.malformed += 1
            if len(out.reasons) < MAX_REASONS:
                out.reasons.append(f"line {number}: not JSON")
    return out


class _Malformed(Exception):
    pass


def _apply(out: ParsedTrace, event: Any) -> None:
    if not isinstance(event, dict):
        raise _Malformed(f"a JSON {type(event).__name__}, not an object")
    kind = event.get("type")
    if kind == "tool_call":
        name = event.get("name")
        if not isinstance(name, str) or not name:
            raise _Malformed("tool_call without a string name")
        status = event.get("status", "")
        if not isinstance(status, str):
            raise _Malformed("tool_call status is not a string")
        if len(out.tool_calls) >= MAX_TOOL_CALLS:
            out.ignored += 1
            return
        out.tool_calls.append(ToolCall(name[:200], _summary(event.get("arguments", "")), status[:100]))
    elif kind == "message":
        text = event.get("text")
        if not isinstance(text, str):
            raise _Malformed("message without a string text")
        if len(out.messages) >= MAX_MESSAGES:
            out.ignored += 1
            return
        out.messages.append(text if len(text) <= MESSAGE_CHARS else text[:MESSAGE_CHARS] + "…")
    elif kind == "tokens":
        counts = {}
        for key in TOKEN_KEYS:
            value = event.get(key, 0)
            if isinstance(value, bool) or not isinstance(value, int) or value < 0:
                raise _Malformed(f"tokens.{key} is not a non-negative integer")
            counts[key] = value
        for key, value in counts.items():
            out.tokens[key] = out.tokens.get(key, 0) + value
    else:
        out.ignored += 1


def _summary(arguments: Any) -> str:
    text = (
        arguments
        if isinstance(arguments, str)
        else json.dumps(arguments, separators=(",", ":"), sort_keys=True, default=str)
    )
    return text if len(text) <= ARGUMENTS_CHARS else text[:ARGUMENTS_CHARS] + "…"
