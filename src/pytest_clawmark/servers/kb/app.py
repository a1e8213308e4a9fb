"""The kb ASGI app: routing, authentication, request decoding, errors and the audit hook.

Two planes on one port:

* ``/v1/...`` — the agent plane (Notion REST API). Needs ``Authorization: Bearer <agent
  token>`` and a ``Notion-Version`` header; every request, refused ones included, is reported
  to ``audit`` (the harness records it where the agent cannot reach it).
* ``/_admin/...`` — the admin plane for turn setup and checkers. Needs the admin token; the
  agent token gets 403. The harness's own (admin-token) calls are not audited; refused
  attempts without the admin token are, since only the agent side would make them.

Every failure answers in Notion's error shape; headers and bodies are capped as they stream in
(:mod:`.http_limits`), bodies are decoded strictly (:mod:`.jsonbody`), and once the workspace
is over its quota (:data:`.limits.WORKSPACE_QUOTA_BYTES`) only reads, trashing and restoring are
served — so malformed or oversized input cannot crash the server, bloat it, or reach the store.
"""

from __future__ import annotations

import contextlib
import hmac
import json
import logging
from collections.abc import Callable
from typing import Any

from starlette.applications import Starlette
from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import Route
from starlette.types import ASGIApp, Receive, Scope, Send

from . import admin as adminlib
from . import jsonbody, limits
from .api import QUERIES, ROUTES, Call, Handler
from .dialects import parse_version
from .errors import NotionError
from .http_limits import RequestLimits
from .store import KbStore

MAX_BODY = limits.MAX_BODY_BYTES
"""Largest agent request body: bigger ones get 413 as soon as they pass it (see :mod:`.limits`)."""
MAX_ADMIN_BODY = limits.MAX_ADMIN_BODY_BYTES
"""Largest admin request body (restoring snapshots of big worlds)."""
TRASH_KEYS = frozenset({"in_trash", "archived"})
JSON_FIELDS = frozenset(
    {
        "parent",
        "properties",
        "filter",
        "sorts",
        "sort",
        "children",
        "rich_text",
        "icon",
        "cover",
        "initial_data_source",
        "position",
        "title",
        "description",
    }
)
"""Body fields some MCP tools send JSON-encoded as strings; decoded leniently."""

AuditHook = Callable[[str, str, str, str], None]
"""``audit(operation, target, summary, status)``."""

log = logging.getLogger(__name__)


def _json_response(status: int, payload: Any) -> Response:
    body = json.dumps(payload, ensure_ascii=False, separators=(",", ":"), allow_nan=False).encode("utf-8")
    return Response(body, status_code=status, media_type="application/json")


def _error(exc: NotionError) -> Response:
    return _json_response(exc.status, exc.to_json())


def _bearer(request: Request) -> str | None:
    header = request.headers.get("authorization", "")
    scheme, _, token = header.partition(" ")
    if scheme.lower() != "bearer" or not token.strip():
        return None
    return token.strip()


def _same(a: str | None, b: str) -> bool:
    return a is not None and hmac.compare_digest(a.encode(), b.encode())


async def _read_body(request: Request) -> dict[str, Any]:
    """The request's JSON object body (``{}`` when empty), or a Notion error.

    The body is complete and within its limit here (:class:`.http_limits.RequestLimits` read it).
    """
    body = jsonbody.decode_object(await request.body())
    for key in JSON_FIELDS & body.keys():
        value = body[key]
        if isinstance(value, str) and value.strip()[:1] in ("{", "["):
            with contextlib.suppress(NotionError):
                body[key] = jsonbody.decode_value(value)
    return body


def _over_quota(store: KbStore, handler: Handler, method: str, body: dict[str, Any]) -> NotionError | None:
    """Once the workspace is over its quota, only reads, trashing and restoring are served."""
    if method not in ("POST", "PATCH") or handler in QUERIES or not store.size.over_quota():
        return None
    if body and set(body) <= TRASH_KEYS:
        return None
    quota_mb = limits.WORKSPACE_QUOTA_BYTES / (1024 * 1024)
    return NotionError(
        400,
        "validation_error",
        f"This workspace has reached its storage limit ({quota_mb:g} MB): content can no longer be added or "
        "changed. Reads, moving to the trash and restoring still work; trashing does not free space.",
    )


def create_app(store: KbStore, *, agent_token: str, admin_token: str, audit: AuditHook | None = None) -> ASGIApp:
    """The kb server for one world: ``store`` behind the agent and admin planes."""

    def record(request: Request, operation: str, target: str, summary: str, status: int) -> None:
        if audit is not None:
            try:
                audit(operation, target or request.url.path, summary, str(status))
            except Exception:  # pragma: no cover - the audit sink must never break a response
                log.exception("kb audit hook failed")

    def agent_endpoint(method: str, template: str, handler: Handler) -> Route:
        operation = f"{method} {template}"

        async def endpoint(request: Request) -> Response:
            call: Call | None = None
            try:
                token = _bearer(request)
                if not _same(token, agent_token):
                    raise NotionError(401, "unauthorized", "API token is invalid.")
                dialect = parse_version(request.headers.get("notion-version"))
                body = await _read_body(request) if method in ("POST", "PATCH") else {}
                refused = _over_quota(store, handler, method, body)
                if refused is not None:
                    raise refused
                call = Call(
                    store,
                    dialect,
                    method,
                    dict(request.path_params),
                    list(request.query_params.multi_items()),
                    body,
                    store.bot_id,
                )
                payload = handler(call)
                status, response = 200, _json_response(200, payload)
            except NotionError as exc:
                status, response = exc.status, _error(exc)
                summary = exc.message
            except Exception:
                log.exception("kb: unexpected error in %s", operation)
                crash = NotionError(500, "internal_server_error", "Unexpected error.")
                status, response = 500, _error(crash)
                summary = crash.message
            else:
                summary = call.summary
            record(request, operation, call.target if call else "", summary, status)
            return response

        return Route(template, endpoint, methods=[method])

    def admin_endpoint(method: str, template: str, fn: Callable[[Request, dict[str, Any]], Any]) -> Route:
        async def endpoint(request: Request) -> Response:
            try:
                token = _bearer(request)
                refused = None
                if _same(token, agent_token):
                    refused = NotionError(403, "restricted_resource", "The agent token cannot use the admin plane.")
                elif not _same(token, admin_token):
                    refused = NotionError(401, "unauthorized", "Admin token is invalid.")
                if refused is not None:
                    # Not the harness: whoever knocks on the admin plane without its token is recorded.
                    record(request, f"{method} {request.url.path[:200]}", "", refused.message, refused.status)
                    raise refused
                body = await _read_body(request) if method in ("POST", "PUT") else {}
                return _json_response(200, fn(request, body))
            except NotionError as exc:
                return _error(exc)
            except Exception:
                log.exception("kb: unexpected error in admin %s", request.url.path)
                return _error(NotionError(500, "internal_server_error", "Unexpected error in the admin plane."))

        return Route(template, endpoint, methods=[method])

    def admin_op(request: Request, body: dict[str, Any]) -> Any:
        return adminlib.run(store, request.path_params["op"], body)

    def restore(request: Request, body: dict[str, Any]) -> Any:
        store.restore(body)
        return {"ok": True}

    routes = [agent_endpoint(m, t, h) for m, t, h in ROUTES]
    routes += [
        admin_endpoint("GET", "/_admin/ping", lambda r, b: {"ok": True}),
        admin_endpoint("GET", "/_admin/snapshot", lambda r, b: store.snapshot(copy=False)),  # rendered at once
        admin_endpoint("PUT", "/_admin/snapshot", restore),
        admin_endpoint("POST", "/_admin/{op}", admin_op),
    ]

    async def unrouted(request: Request, exc: Exception) -> Response:
        status = exc.status_code if isinstance(exc, HTTPException) else 500
        if status == 405:
            err = NotionError(405, "invalid_request_url", f"{request.method} is not supported on {request.url.path}.")
        elif status == 404:
            err = NotionError(400, "invalid_request_url", "Invalid request URL.")
        else:
            err = NotionError(status, "invalid_request", "This request is not supported.")
        if not request.url.path.startswith("/_admin"):
            record(request, f"{request.method} {request.url.path[:200]}", "", err.message, err.status)
        return _error(err)

    app = Starlette(routes=routes, exception_handlers={HTTPException: unrouted})
    app.router.redirect_slashes = False  # a 307 is no answer for an API client; see below

    async def serve(scope: Scope, receive: Receive, send: Send) -> None:
        """The app, tolerating a trailing slash (``/v1/pages/``) as the same endpoint."""
        path = scope.get("path", "")
        if scope["type"] == "http" and len(path) > 1 and path.endswith("/"):
            scope = dict(scope, path=path.rstrip("/") or "/")
        await app(scope, receive, send)

    def body_limit(scope: Scope) -> int:
        return MAX_ADMIN_BODY if str(scope.get("path", "")).startswith("/_admin") else MAX_BODY

    def audit_refusal(scope: Scope, status: int, message: str) -> None:
        path = str(scope.get("path", ""))
        if audit is not None and not path.startswith("/_admin"):
            operation = f"{scope.get('method', '')} {path[:200]}"
            try:
                audit(operation, path[:200], message, str(status))
            except Exception:  # pragma: no cover - the audit sink must never break a response
                log.exception("kb audit hook failed")

    return RequestLimits(serve, body_limit, audit_refusal)
