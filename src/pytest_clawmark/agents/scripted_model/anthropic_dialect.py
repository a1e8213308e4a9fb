"""Anthropic Messages responses for a chosen :class:`~.replay.Reply`: JSON and SSE events."""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

from .replay import Reply
from .stream import pieces


def _stop_reason(reply: Reply) -> str:
    return "tool_use" if reply.tool_calls else "end_turn"


def _usage(input_tokens: int, output_tokens: int) -> dict[str, Any]:
    return {
        "input_tokens": input_tokens,
        "output_tokens": output_tokens,
        "cache_creation_input_tokens": 0,
        "cache_read_input_tokens": 0,
    }


def _tool_id(call_id: str) -> str:
    return "toolu_" + call_id.removeprefix("call_")


def message(reply: Reply, rid: str, model: str, input_tokens: int, output_tokens: int) -> dict[str, Any]:
    content: list[dict[str, Any]] = []
    if reply.text:
        content.append({"type": "text", "text": reply.text})
    for call in reply.tool_calls:
        content.append(
            {"type": "tool_use", "id": _tool_id(call.id), "name": call.name, "input": json.loads(call.arguments)}
        )
    return {
        "id": rid,
        "type": "message",
        "role": "assistant",
        "model": model,
        "content": content,
        "stop_reason": _stop_reason(reply),
        "stop_sequence": None,
        "usage": _usage(input_tokens, output_tokens),
    }


def stream(reply: Reply, rid: str, model: str, input_tokens: int, output_tokens: int) -> Iterator[str]:
    """The event sequence of the Messages streaming API, text and ``input_json_delta`` pieces."""
    start = message(reply, rid, model, input_tokens, 1)
    start.update(content=[], stop_reason=None)
    yield _event("message_start", {"type": "message_start", "message": start})
    index = 0
    if reply.text:
        yield _event(
            "content_block_start",
            {"type": "content_block_start", "index": index, "content_block": {"type": "text", "text": ""}},
        )
        yield _event("ping", {"type": "ping"})
        for part in pieces(reply.text):
            yield _event(
                "content_block_delta",
                {"type": "content_block_delta", "index": index, "delta": {"type": "text_delta", "text": part}},
            )
        yield _event("content_block_stop", {"type": "content_block_stop", "index": index})
        index += 1
    for call in reply.tool_calls:
        block = {"type": "tool_use", "id": _tool_id(call.id), "name": call.name, "input": {}}
        yield _event("content_block_start", {"type": "content_block_start", "index": index, "content_block": block})
        for part in pieces(call.arguments):
            yield _event(
                "content_block_delta",
                {
                    "type": "content_block_delta",
                    "index": index,
                    "delta": {"type": "input_json_delta", "partial_json": part},
                },
            )
        yield _event("content_block_stop", {"type": "content_block_stop", "index": index})
        index += 1
    delta = {
        "type": "message_delta",
        "delta": {"stop_reason": _stop_reason(reply), "stop_sequence": None},
        "usage": {"output_tokens": output_tokens},
    }
    yield _event("message_delta", delta)
    yield _event("message_stop", {"type": "message_stop"})


def error(status: int, message_text: str) -> dict[str, Any]:
    kinds = {429: "rate_limit_error", 529: "overloaded_error", 401: "authentication_error", 404: "not_found_error"}
    kind = kinds.get(status, "api_error" if status >= 500 else "invalid_request_error")
    return {"type": "error", "error": {"type": kind, "message": message_text}}


def _event(name: str, body: dict[str, Any]) -> str:
    return f"event: {name}\ndata: " + json.dumps(body, separators=(",", ":"), ensure_ascii=False) + "\n\n"
