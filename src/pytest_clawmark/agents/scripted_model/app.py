"""The scripted model's ASGI app: both chat dialects, the model list and a request log.

Routes (each also without the ``/v1`` prefix, since clients disagree on where it goes):

* ``POST /v1/chat/completions`` — OpenAI Chat Completions, JSON or ``stream: true`` SSE
* ``POST /v1/messages`` — Anthropic Messages, JSON or ``stream: true`` SSE events
* ``GET /v1/models`` — the script's model id (fields of both dialects' list shapes)
* ``GET /_scripted/requests`` — every request so far with the step it got (for debugging)

Any API key is accepted unless the server was given one to expect, in which case a request
must carry it (``Authorization: Bearer`` or ``x-api-key``): that lets tests prove an adapter
passes the key from the environment variable it was told to use.
"""

from __future__ import annotations

import hashlib
import hmac
import json
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import JSONResponse, Response, StreamingResponse
from starlette.routing import Route

from . import anthropic_dialect, openai_dialect
from .conversation import ANTHROPIC, OPENAI, parse
from .replay import ERROR, Reply, choose
from .script import Script
from .tokens import count, request_tokens

MAX_BODY = 32 * 1024 * 1024


class RequestLog:
    """Every request and the answer it got, in memory and optionally as JSONL on disk."""

    def __init__(self, path: Path | None = None) -> None:
        self.entries: list[dict[str, Any]] = []
        self.path = path
        if path is not None:
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text("", encoding="utf-8")

    def add(self, entry: dict[str, Any]) -> None:
        entry = {"seq": len(self.entries) + 1, **entry}
        self.entries.append(entry)
        if self.path is not None:
            with self.path.open("a", encoding="utf-8") as f:
                f.write(json.dumps(entry, ensure_ascii=False, sort_keys=True) + "\n")


def create_app(script: Script, log: RequestLog, api_key: str | None = None) -> Starlette:
    def authorised(request: Request) -> bool:
        if not api_key:
            return True
        bearer = request.headers.get("authorization", "").removeprefix("Bearer ").strip()
        given = request.headers.get("x-api-key", "") or bearer
        return hmac.compare_digest(given.encode(), api_key.encode())

    def endpoint(dialect: str) -> Callable[[Request], Any]:
        render = openai_dialect if dialect == OPENAI else anthropic_dialect

        async def handle(request: Request) -> Response:
            if not authorised(request):
                log.add({"path": request.url.path, "dialect": dialect, "kind": "unauthorised"})
                return JSONResponse(render.error(401, "invalid API key"), status_code=401)
            raw = await request.body()
            try:
                body = json.loads(raw) if len(raw) <= MAX_BODY else None
            except ValueError:
                body = None
            if not isinstance(body, dict):
                log.add({"path": request.url.path, "dialect": dialect, "kind": "bad-request"})
                return JSONResponse(render.error(400, "the body must be a JSON object"), status_code=400)
            conv = parse(dialect, body)
            reply = choose(script, conv)
            input_tokens = request_tokens(dialect, body)
            output_tokens = _output_tokens(reply)
            model = conv.model or script.model
            rid = ("chatcmpl-" if dialect == OPENAI else "msg_") + hashlib.sha256(raw).hexdigest()[:24]
            log.add(
                {
                    "path": request.url.path,
                    "dialect": dialect,
                    "stream": conv.stream,
                    "model": model,
                    "kind": reply.kind,
                    "day": reply.day,
                    "step": reply.step,
                    "tools_offered": len(conv.tools),
                    "tool_calls": [c.name for c in reply.tool_calls],
                    "input_tokens": input_tokens,
                    "output_tokens": output_tokens,
                    "body": body,
                }
            )
            if reply.kind == ERROR:
                return JSONResponse(render.error(reply.error_status, reply.text), status_code=reply.error_status)
            if conv.stream:
                events: Iterator[str] = render.stream(reply, rid, model, input_tokens, output_tokens)
                return StreamingResponse(events, media_type="text/event-stream", headers={"cache-control": "no-cache"})
            payload = (
                render.completion(reply, rid, model, input_tokens, output_tokens)
                if dialect == OPENAI
                else render.message(reply, rid, model, input_tokens, output_tokens)
            )
            return JSONResponse(payload)

        return handle

    async def models(request: Request) -> Response:
        item = {
            "id": script.model,
            "object": "model",
            "created": 0,
            "owned_by": "clawmark",
            "type": "model",
            "display_name": script.model,
            "created_at": "2025-01-01T00:00:00Z",
        }
        return JSONResponse(
            {"object": "list", "data": [item], "has_more": False, "first_id": script.model, "last_id": script.model}
        )

    async def requests(request: Request) -> Response:
        return JSONResponse(log.entries)

    routes = []
    for prefix in ("/v1", ""):
        routes += [
            Route(f"{prefix}/chat/completions", endpoint(OPENAI), methods=["POST"]),
            Route(f"{prefix}/messages", endpoint(ANTHROPIC), methods=["POST"]),
            Route(f"{prefix}/models", models, methods=["GET"]),
        ]
    routes.append(Route("/_scripted/requests", requests, methods=["GET"]))
    return Starlette(routes=routes)


def _output_tokens(reply: Reply) -> int:
    text = reply.text + "".join(c.name + c.arguments for c in reply.tool_calls)
    return max(1, count(text))
