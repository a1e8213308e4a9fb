"""OpenAI Chat Completions responses for a chosen :class:`~.replay.Reply`: JSON and SSE."""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

from .replay import Reply
from .stream import pieces

CREATED = 1_700_000_000  # a fixed timestamp: identical requests give identical bytes


def usage(input_tokens: int, output_tokens: int) -> dict[str, Any]:
    return {
        "prompt_tokens": input_tokens,
        "completion_tokens": output_tokens,
        "total_tokens": input_tokens + output_tokens,
        "prompt_tokens_details": {"cached_tokens": 0},
    }


def completion(reply: Reply, rid: str, model: str, input_tokens: int, output_tokens: int) -> dict[str, Any]:
    message: dict[str, Any] = {"role": "assistant", "content": reply.text or None}
    if reply.tool_calls:
        message["tool_calls"] = [
            {"id": c.id, "type": "function", "function": {"name": c.name, "arguments": c.arguments}}
            for c in reply.tool_calls
        ]
    return {
        "id": rid,
        "object": "chat.completion",
        "created": CREATED,
        "model": model,
        "choices": [{"index": 0, "message": message, "finish_reason": reply.finish, "logprobs": None}],
        "usage": usage(input_tokens, output_tokens),
    }


def stream(reply: Reply, rid: str, model: str, input_tokens: int, output_tokens: int) -> Iterator[str]:
    """SSE lines: role, text pieces, tool-call pieces, finish, a usage chunk, ``[DONE]``.

    The usage chunk (``choices: []``) is always sent, as OpenAI does with
    ``stream_options.include_usage``, so clients that did not ask still see token counts.
    """

    def chunk(delta: dict[str, Any], finish: str | None = None) -> str:
        body = {
            "id": rid,
            "object": "chat.completion.chunk",
            "created": CREATED,
            "model": model,
            "choices": [{"index": 0, "delta": delta, "finish_reason": finish}],
        }
        return _sse(body)

    yield chunk({"role": "assistant", "content": ""})
    for part in pieces(reply.text):
        yield chunk({"content": part})
    for i, call in enumerate(reply.tool_calls):
        yield chunk(
            {
                "tool_calls": [
                    {"index": i, "id": call.id, "type": "function", "function": {"name": call.name, "arguments": ""}}
                ]
            }
        )
        for part in pieces(call.arguments):
            yield chunk({"tool_calls": [{"index": i, "function": {"arguments": part}}]})
    yield chunk({}, reply.finish)
    yield _sse(
        {
            "id": rid,
            "object": "chat.completion.chunk",
            "created": CREATED,
            "model": model,
            "choices": [],
            "usage": usage(input_tokens, output_tokens),
        }
    )
    yield "data: [DONE]\n\n"


def error(status: int, message: str) -> dict[str, Any]:
    kind = "rate_limit_error" if status == 429 else "server_error" if status >= 500 else "invalid_request_error"
    return {"error": {"message": message, "type": kind, "param": None, "code": None}}


def _sse(body: dict[str, Any]) -> str:
    return "data: " + json.dumps(body, separators=(",", ":"), ensure_ascii=False) + "\n\n"
