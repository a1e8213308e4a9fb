"""WSGI middleware that records every agent request to the calendar server.

Each request becomes one audit entry: ``operation`` is the HTTP method (``PUT``, ``REPORT``…,
easy to group by), ``target`` the path, ``status`` the HTTP status, and ``summary`` who asked
and, where it says what was done, a digest of the body (the UID and SUMMARY of a PUT event, the
display name of a new calendar, the kind and time range of a REPORT). Passwords never appear.
Requests carrying the world's admin token (health checks) are not the agent's and are not
recorded.

The body is never read here: the guard (:mod:`.guard`, inside this middleware) reads it, bounded,
and leaves it in ``environ[BODY_KEY]``; the summary is made after the answer, from that copy, with
a line scan rather than a full iCalendar parse (the body may be up to the resource limit).
"""

from __future__ import annotations

import base64
import hmac
import re
from collections.abc import Callable, Iterable
from typing import Any

from .guard import BODY_KEY

__all__ = ["AuditMiddleware", "ADMIN_ENVIRON", "ADMIN_HEADER"]

ADMIN_HEADER = "X-Clawmark-Admin"
ADMIN_ENVIRON = _ENVIRON_ADMIN = "HTTP_" + ADMIN_HEADER.upper().replace("-", "_")
"""Where WSGI puts :data:`ADMIN_HEADER` (the harness's health checks carry the admin token in it)."""
_FOLD = re.compile(r"\r?\n[ \t]")
_COMPONENTS = ("VEVENT", "VTODO", "VJOURNAL")
_MAX_DESCRIBED = 10

AuditCallback = Callable[[str, str, str, str], None]


def _basic_user(environ: dict[str, Any]) -> str:
    header = environ.get("HTTP_AUTHORIZATION", "")
    if not header.lower().startswith("basic "):
        return ""
    try:
        return base64.b64decode(header[6:]).decode("utf-8", "replace").partition(":")[0]
    except Exception:
        return "<undecodable>"


def _unescape(value: str) -> str:
    return re.sub(r"\\([\\;,nN])", lambda m: "\n" if m.group(1) in "nN" else m.group(1), value)


def _describe_ics(text: str) -> str:
    """``VEVENT uid='...' summary='...'`` for each component (the first few), from a line scan."""
    parts: list[str] = []
    current: dict[str, str] | None = None
    for line in _FOLD.sub("", text).splitlines():
        head, _, value = line.partition(":")
        name = head.partition(";")[0].strip().upper()
        if name == "BEGIN" and value.strip().upper() in _COMPONENTS:
            current = {"kind": value.strip().upper()}
        elif name == "END" and current is not None and value.strip().upper() == current["kind"]:
            parts.append(f"{current['kind']} uid={current.get('UID', '')!r} summary={current.get('SUMMARY', '')!r}")
            current = None
            if len(parts) == _MAX_DESCRIBED:
                parts.append("...")
                break
        elif current is not None and name in ("UID", "SUMMARY") and name not in current:
            current[name] = _unescape(value)[:200]
    return "; ".join(parts) or "no components"


def _describe_body(method: str, body: bytes) -> str:
    if method == "PUT":
        return _describe_ics(body.decode("utf-8", "replace"))
    text = body[: 16 * 1024].decode("utf-8", "replace")  # the regexes below need not see more
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
    """Wraps the guarded WSGI app; records each agent request once it has been answered."""

    def __init__(self, app: Callable[..., Iterable[bytes]], audit: AuditCallback, admin_token: str) -> None:
        self.app = app
        self.audit = audit
        self.admin_token = admin_token

    def __call__(self, environ: dict[str, Any], start_response: Callable[..., Any]) -> Iterable[bytes]:
        if hmac.compare_digest(environ.get(_ENVIRON_ADMIN, ""), self.admin_token):
            return self.app(environ, start_response)
        method = str(environ.get("REQUEST_METHOD", ""))
        path = str(environ.get("PATH_INFO", ""))[:300]
        user = _basic_user(environ)[:200]
        status_holder: list[str] = []

        def recording_start_response(status: str, headers: Any, exc_info: Any = None) -> Any:
            status_holder.append(status.split(" ", 1)[0])
            return start_response(status, headers, exc_info) if exc_info else start_response(status, headers)

        try:
            result = self.app(environ, recording_start_response)
        except Exception:
            self.audit(method, path, self._summary(user, self._details(method, environ)), "500")
            raise
        status = status_holder[0] if status_holder else ""
        self.audit(method, path, self._summary(user, self._details(method, environ)), status)
        return result

    @staticmethod
    def _details(method: str, environ: dict[str, Any]) -> str:
        if method == "PROPFIND":
            return f"depth {str(environ.get('HTTP_DEPTH', '0'))[:20]}"
        body = environ.get(BODY_KEY)
        return _describe_body(method, body) if body else ""

    @staticmethod
    def _summary(user: str, details: str) -> str:
        who = f"as {user}" if user else "anonymous"
        return f"{who}: {details}" if details else who
