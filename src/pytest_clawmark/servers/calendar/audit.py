"""WSGI middleware that records every agent request to the calendar server.

Each request becomes one audit entry: ``operation`` is the HTTP method (``PUT``, ``REPORT``…,
easy to group by), ``target`` the path, ``status`` the HTTP status, and ``summary`` who asked
and, where it says what was done, a digest of the body (the UID and SUMMARY of a PUT event, the
display name of a new calendar, the kind and time range of a REPORT). Passwords never appear.
Requests carrying the world's admin token (health checks) are not the agent's and are not
recorded.
"""

from __future__ import annotations

import base64
import hmac
import io
import re
from collections.abc import Callable, Iterable
from typing import Any

import icalendar

__all__ = ["AuditMiddleware", "ADMIN_HEADER"]

ADMIN_HEADER = "X-Clawmark-Admin"
_ENVIRON_ADMIN = "HTTP_" + ADMIN_HEADER.upper().replace("-", "_")
_MAX_BODY_FOR_SUMMARY = 1024 * 1024

AuditCallback = Callable[[str, str, str, str], None]


def _basic_user(environ: dict[str, Any]) -> str:
    header = environ.get("HTTP_AUTHORIZATION", "")
    if not header.lower().startswith("basic "):
        return ""
    try:
        return base64.b64decode(header[6:]).decode("utf-8", "replace").partition(":")[0]
    except Exception:
        return "<undecodable>"


def _describe_body(method: str, body: bytes) -> str:
    text = body.decode("utf-8", "replace")
    if method == "PUT":
        try:
            cal = icalendar.Calendar.from_ical(text)
            parts = [
                f"{c.name} uid={str(c.get('uid', ''))!r} summary={str(c.get('summary', ''))!r}"
                for c in cal.walk()
                if c.name in ("VEVENT", "VTODO", "VJOURNAL")
            ]
            return "; ".join(parts) or "no components"
        except Exception:
            return f"unparseable iCalendar, {len(body)} bytes"
    if method in ("MKCALENDAR", "MKCOL", "PROPPATCH"):
        name = re.search(r"<(?:\w+:)?displayname[^>]*>([^<]*)<", text)
        return f"displayname={name.group(1)!r}" if name else ""
    if method == "REPORT":
        kind = re.search(r"<(?:\w+:)?(calendar-query|calendar-multiget|sync-collection|free-busy-query)\b", text)
        rng = re.search(r"time-range[^>]*?start=\"([^\"]*)\"[^>]*?end=\"([^\"]*)\"", text)
        out = kind.group(1) if kind else "report"
        return out + (f" {rng.group(1)}..{rng.group(2)}" if rng else "")
    return ""


class AuditMiddleware:
    """Wraps a WSGI app; reads the request body once (to summarise it) and replays it."""

    def __init__(self, app: Callable[..., Iterable[bytes]], audit: AuditCallback, admin_token: str) -> None:
        self.app = app
        self.audit = audit
        self.admin_token = admin_token

    def __call__(self, environ: dict[str, Any], start_response: Callable[..., Any]) -> Iterable[bytes]:
        if hmac.compare_digest(environ.get(_ENVIRON_ADMIN, ""), self.admin_token):
            return self.app(environ, start_response)
        method = environ.get("REQUEST_METHOD", "")
        path = environ.get("PATH_INFO", "")
        user = _basic_user(environ)
        details = ""
        try:
            length = int(environ.get("CONTENT_LENGTH") or 0)
        except ValueError:
            length = 0
        if 0 < length <= _MAX_BODY_FOR_SUMMARY:
            body = environ["wsgi.input"].read(length)
            environ["wsgi.input"] = io.BytesIO(body)
            details = _describe_body(method, body)
        if method == "PROPFIND":
            details = f"depth {environ.get('HTTP_DEPTH', '0')}"
        status_holder: list[str] = []

        def recording_start_response(status: str, headers: Any, exc_info: Any = None) -> Any:
            status_holder.append(status.split(" ", 1)[0])
            return start_response(status, headers, exc_info) if exc_info else start_response(status, headers)

        try:
            result = self.app(environ, recording_start_response)
        except Exception:
            self.audit(method, path, self._summary(user, details), "500")
            raise
        self.audit(method, path, self._summary(user, details), status_holder[0] if status_holder else "")
        return result

    @staticmethod
    def _summary(user: str, details: str) -> str:
        who = f"as {user}" if user else "anonymous"
        return f"{who}: {details}" if details else who
