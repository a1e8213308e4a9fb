"""The script a scripted model replays: assistant turns grouped by in-universe day.

Why a day-grouped, stateless format: a real agent framework does not send one request per
script step. It retries failed requests, sends side requests (titles, summaries, compaction)
and re-sends the whole conversation every time. So the server never keeps a cursor; it
derives the step from the request itself (see :mod:`.replay`): the *day* from the latest user
message, the *step* from how many assistant turns follow it. The same request always gets the
same answer, and a request the script does not cover gets a harmless final text.

Format (JSON)::

    {
      "model": "scripted",                      # optional: the id GET /v1/models lists
      "fallback": "Nothing more to do today.",  # optional: the answer to anything unscripted
      "days": [
        {
          "when": "Five supplier invoices",     # optional: a substring of that day's message
          "steps": [
            {"tool": "exec", "arguments": {"command": "ls inbox"}},
            {"text": "Looking at the invoices.", "tool_calls": [
                {"tool": "read", "arguments": {"path": "inbox/purchase_orders.csv"}}]},
            {"text": "Done: reconciliation.csv and payment_batch_1.csv are written."}
          ],
          "final": "All done for today."        # optional: after the last step
        }
      ]
    }

A step is a text reply (``text``), one tool call (``tool`` + ``arguments``), several parallel
tool calls (``tool_calls``, optionally with ``text``), or a simulated provider failure
(``error``: ``{"status": 503, "message": "..."}``) for testing how adapters report outages.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

DEFAULT_MODEL = "scripted"
DEFAULT_FALLBACK = "Nothing more to do."


class ScriptError(ValueError):
    """A script file that cannot be used: the message names the offending place."""


@dataclass(frozen=True)
class ScriptedCall:
    tool: str
    arguments: dict[str, Any]


@dataclass(frozen=True)
class Step:
    text: str = ""
    tool_calls: tuple[ScriptedCall, ...] = ()
    error_status: int = 0
    error_message: str = ""

    @property
    def is_error(self) -> bool:
        return self.error_status != 0


@dataclass(frozen=True)
class Day:
    steps: tuple[Step, ...]
    when: str = ""
    final: str = ""


@dataclass(frozen=True)
class Script:
    days: tuple[Day, ...]
    model: str = DEFAULT_MODEL
    fallback: str = DEFAULT_FALLBACK
    source: str = field(default="", compare=False)


def load_script(path: str | Path) -> Script:
    """Read and validate a script file."""
    p = Path(path)
    try:
        data = json.loads(p.read_text(encoding="utf-8"))
    except OSError as exc:
        raise ScriptError(f"{path}: cannot read the script: {exc.strerror}") from None
    except json.JSONDecodeError as exc:
        raise ScriptError(f"{path}: not valid JSON: {exc}") from None
    script = parse_script(data, where=str(path))
    return Script(script.days, script.model, script.fallback, source=str(p))


def parse_script(data: Any, where: str = "script") -> Script:
    """Validate a decoded script; every problem names its place (``days[1].steps[2]``)."""
    if not isinstance(data, dict):
        raise ScriptError(f"{where}: expected a JSON object with 'days'")
    unknown = set(data) - {"model", "fallback", "days", "description"}
    if unknown:
        raise ScriptError(f"{where}: unknown keys {sorted(unknown)}")
    days_data = data.get("days")
    if not isinstance(days_data, list) or not days_data:
        raise ScriptError(f"{where}: 'days' must be a non-empty list")
    days = tuple(_day(d, f"{where}: days[{i}]") for i, d in enumerate(days_data))
    return Script(
        days=days,
        model=_string(data, "model", where, DEFAULT_MODEL) or DEFAULT_MODEL,
        fallback=_string(data, "fallback", where, DEFAULT_FALLBACK) or DEFAULT_FALLBACK,
    )


def _day(data: Any, where: str) -> Day:
    if not isinstance(data, dict):
        raise ScriptError(f"{where}: expected an object with 'steps'")
    unknown = set(data) - {"when", "steps", "final", "day", "description"}
    if unknown:
        raise ScriptError(f"{where}: unknown keys {sorted(unknown)}")
    steps = data.get("steps", [])
    if not isinstance(steps, list):
        raise ScriptError(f"{where}: 'steps' must be a list")
    return Day(
        steps=tuple(_step(s, f"{where}.steps[{i}]") for i, s in enumerate(steps)),
        when=_string(data, "when", where, ""),
        final=_string(data, "final", where, ""),
    )


def _step(data: Any, where: str) -> Step:
    if not isinstance(data, dict):
        raise ScriptError(f"{where}: expected an object")
    unknown = set(data) - {"text", "tool", "arguments", "tool_calls", "error", "description"}
    if unknown:
        raise ScriptError(f"{where}: unknown keys {sorted(unknown)}")
    if "error" in data:
        err = data["error"]
        if not isinstance(err, dict) or not isinstance(err.get("status"), int) or not 400 <= err["status"] <= 599:
            raise ScriptError(f'{where}: \'error\' must be {{"status": 4xx|5xx, "message": ...}}')
        return Step(error_status=err["status"], error_message=str(err.get("message", "scripted provider error")))
    calls: list[ScriptedCall] = []
    if "tool" in data:
        calls.append(_call(data, where))
    elif "arguments" in data:
        raise ScriptError(f"{where}: 'arguments' without 'tool'")
    extra = data.get("tool_calls", [])
    if not isinstance(extra, list):
        raise ScriptError(f"{where}: 'tool_calls' must be a list")
    calls.extend(_call(c, f"{where}.tool_calls[{i}]") for i, c in enumerate(extra))
    text = _string(data, "text", where, "")
    if not text and not calls:
        raise ScriptError(f"{where}: a step needs 'text', 'tool' or 'tool_calls'")
    return Step(text=text, tool_calls=tuple(calls))


def _call(data: Any, where: str) -> ScriptedCall:
    if not isinstance(data, dict) or not isinstance(data.get("tool"), str) or not data["tool"].strip():
        raise ScriptError(f"{where}: a tool call needs 'tool' (the tool's name)")
    args = data.get("arguments", {})
    if not isinstance(args, dict):
        raise ScriptError(f"{where}: 'arguments' must be a JSON object")
    return ScriptedCall(data["tool"], args)


def _string(data: dict[str, Any], key: str, where: str, default: str) -> str:
    value = data.get(key, default)
    if not isinstance(value, str):
        raise ScriptError(f"{where}: {key!r} must be a string")
    return value
