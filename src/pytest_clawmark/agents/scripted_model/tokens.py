"""Deterministic token counts: characters / 4, rounded up.

Why not a real tokenizer: the scripted model exists to make runs reproducible and offline.
Any stable count exercises the adapters' token accounting end to end; chars/4 is the usual
rule of thumb for English text and needs no model files.
"""

from __future__ import annotations

import json
from typing import Any

CHARS_PER_TOKEN = 4


def count(text: str) -> int:
    return -(-len(text) // CHARS_PER_TOKEN)


def count_json(value: Any) -> int:
    """Tokens of a JSON value, serialised canonically (sorted keys, no spaces)."""
    return count(json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False))


def request_tokens(dialect: str, body: dict[str, Any]) -> int:
    """What the prompt costs: the system prompt, the messages and the tool definitions."""
    parts = {k: body[k] for k in ("system", "messages", "tools") if k in body}
    return max(1, count_json(parts))
