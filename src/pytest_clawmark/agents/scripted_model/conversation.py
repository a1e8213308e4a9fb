"""Both chat dialects reduced to what the replay needs: who said what, and which tools exist.

Why a neutral form: the step a request gets depends only on the conversation's shape (the
latest day message and the assistant turns after it), which is the same idea in the OpenAI
Chat Completions and the Anthropic Messages dialects; only the encoding differs.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

OPENAI = "openai"
ANTHROPIC = "anthropic"


@dataclass(frozen=True)
class Turn:
    role: str  # system | user | assistant | tool
    text: str
    tool_calls: int = 0


@dataclass(frozen=True)
class Conversation:
    turns: tuple[Turn, ...]
    tools: frozenset[str]
    model: str
    stream: bool


def parse(dialect: str, body: dict[str, Any]) -> Conversation:
    """Read a request body of ``dialect``; malformed parts are skipped, never fatal."""
    turns: list[Turn] = []
    if dialect == ANTHROPIC:
        system = body.get("system")
        if system:
            turns.append(Turn("system", _text(system)))
        for msg in _list(body.get("messages")):
            turns.extend(_anthropic_turns(msg))
        tools = frozenset(str(t.get("name")) for t in _list(body.get("tools")) if isinstance(t, dict) and t.get("name"))
    else:
        for msg in _list(body.get("messages")):
            if not isinstance(msg, dict):
                continue
            role = str(msg.get("role", ""))
            role = "system" if role == "developer" else role
            turns.append(Turn(role, _text(msg.get("content")), len(_list(msg.get("tool_calls")))))
        tools = frozenset(
            str(t["function"]["name"])
            for t in _list(body.get("tools"))
            if isinstance(t, dict) and isinstance(t.get("function"), dict) and t["function"].get("name")
        )
    return Conversation(tuple(turns), tools, str(body.get("model", "")), bool(body.get("stream")))


def _anthropic_turns(msg: Any) -> list[Turn]:
    if not isinstance(msg, dict):
        return []
    role = str(msg.get("role", ""))
    content = msg.get("content")
    if role == "user" and isinstance(content, list):
        results = [b for b in content if isinstance(b, dict) and b.get("type") == "tool_result"]
        others = [b for b in content if not (isinstance(b, dict) and b.get("type") == "tool_result")]
        turns = [Turn("tool", _text(b.get("content"))) for b in results]
        text = _text(others)
        if text.strip() or not results:
            turns.append(Turn("user", text))
        return turns
    calls = sum(1 for b in _list(content) if isinstance(b, dict) and b.get("type") == "tool_use")
    return [Turn(role, _text(content), calls)]


def _text(content: Any) -> str:
    """The plain text of a content value (a string, or a list of text-bearing parts)."""
    if isinstance(content, str):
        return content
    parts: list[str] = []
    for part in _list(content):
        if isinstance(part, str):
            parts.append(part)
        elif isinstance(part, dict):
            if isinstance(part.get("text"), str):
                parts.append(part["text"])
            elif part.get("type") == "tool_result":
                parts.append(_text(part.get("content")))
    return "\n".join(parts)


def _list(value: Any) -> list[Any]:
    return value if isinstance(value, list) else []
