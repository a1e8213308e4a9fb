"""Which scripted turn answers a request — a pure function of the script and the request.

The rule, chosen to survive a real agent's request pattern (retries, side requests, the whole
history re-sent each time, several sessions sharing one server):

1. Find the day: walking back from the newest user message, the first one that contains a
   day's ``when`` picks that day.
2. Find the step: the number of assistant turns after that user message. A retried request
   has the same history, so it gets the same step again. Days without ``when`` are matched
   by position among the user messages that open an exchange (see :func:`_opens_day`).
3. After the last step: the day's ``final`` text, else the script's ``fallback``.
4. A request that offers no tools (a title, summary or compaction side request), or whose
   conversation matches no day, gets the ``fallback`` text; a step calling a tool the request
   does not offer is answered with a text naming the missing tool (and flagged), so an
   unexpected request never derails the agent.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field

from .conversation import Conversation
from .script import Script

SIDE = "side-request"  # no tools offered: a title/summary/compaction request
UNMATCHED = "unmatched"  # no day of the script fits the conversation
STEP = "step"
FINAL = "final"
MISSING_TOOL = "missing-tool"
ERROR = "error"


@dataclass(frozen=True)
class ToolCallOut:
    id: str
    name: str
    arguments: str  # JSON text, exactly as the script gave it (sorted keys: deterministic)


@dataclass(frozen=True)
class Reply:
    kind: str
    text: str = ""
    tool_calls: tuple[ToolCallOut, ...] = field(default=())
    day: int | None = None  # 1-based
    step: int | None = None  # 0-based
    error_status: int = 0

    @property
    def finish(self) -> str:
        return "tool_calls" if self.tool_calls else "stop"


def choose(script: Script, conv: Conversation) -> Reply:
    if not conv.tools:
        return Reply(SIDE, script.fallback)
    found = _locate(script, conv)
    if found is None:
        return Reply(UNMATCHED, script.fallback)
    day_index, user_at = found
    day = script.days[day_index]
    step_index = sum(1 for t in conv.turns[user_at + 1 :] if t.role == "assistant")
    n = day_index + 1
    if step_index >= len(day.steps):
        return Reply(FINAL, day.final or script.fallback, day=n, step=step_index)
    step = day.steps[step_index]
    if step.is_error:
        return Reply(ERROR, step.error_message, day=n, step=step_index, error_status=step.error_status)
    missing = sorted({c.tool for c in step.tool_calls} - conv.tools)
    if missing:
        text = f"[scripted model] day {n} step {step_index + 1} calls {missing}, which this request does not offer (offered: {sorted(conv.tools)})."
        return Reply(MISSING_TOOL, text, day=n, step=step_index)
    calls = tuple(
        ToolCallOut(
            f"call_d{n}s{step_index + 1}n{i + 1}", c.tool, json.dumps(c.arguments, sort_keys=True, ensure_ascii=False)
        )
        for i, c in enumerate(step.tool_calls)
    )
    return Reply(STEP, step.text, calls, day=n, step=step_index)


def _locate(script: Script, conv: Conversation) -> tuple[int, int] | None:
    """(day index, position of its user message) or None."""
    users = [i for i, t in enumerate(conv.turns) if t.role == "user"]
    for at in reversed(users):
        text = conv.turns[at].text
        for d, day in enumerate(script.days):
            if day.when and day.when in text:
                return d, at
    openers = [i for i in users if _opens_day(conv, i)]
    if not openers:
        return None
    nth = len(openers) - 1
    if nth < len(script.days) and not script.days[nth].when:
        return nth, openers[-1]
    return None


def _opens_day(conv: Conversation, at: int) -> bool:
    """A user message that starts a new exchange: first, or right after a final assistant text.

    Frameworks add user-role messages of their own inside an exchange (OpenClaw appends an
    internal-context message after the user's and after tool results); those follow a user or
    tool turn, so they never count as a new day.
    """
    before = [t for t in conv.turns[:at] if t.role != "system"]
    return not before or (before[-1].role == "assistant" and before[-1].tool_calls == 0)
