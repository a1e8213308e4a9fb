"""One service of a world, alone in a container: the entry point of the ``clawmark/servers`` image.

    python -m pytest_clawmark.servers.standalone calendar|kb|sheets|mail

Why a separate entry point: in the embedded world these servers run on the world's own loop and
call back into it (the in-universe clock, the audit log). In a container there is no world to call
back into, so the container keeps both itself and offers them on a small control plane beside the
service, under ``/_clawmark/`` and only with the admin token:

- ``PUT /_clawmark/clock`` ``{"now": "<ISO 8601>"}`` sets the in-universe clock (before each turn);
- ``GET /_clawmark/audit?since=N`` returns the agent requests recorded since entry N, each as the
  arguments the embedded service's audit hook would have received, in order;
- ``GET /_clawmark/ready`` answers 200 once the service accepts requests.

The services themselves are the same code as in the embedded world (Radicale behind our request
guard and audit; our Notion- and Sheets-compatible servers), configured from the environment:

- ``CLAWMARK_PORT`` (default 8000): the port, on all of the container's interfaces;
- ``CLAWMARK_AGENT_TOKEN``, ``CLAWMARK_ADMIN_TOKEN``: the two planes' secrets (required);
- ``CLAWMARK_USER``: ``[name, email]`` of the person the agent works for (JSON); ``CLAWMARK_PEOPLE``:
  their colleagues, ``[[name, email], ...]``;
- calendar only: ``CLAWMARK_PASSWORDS`` (``{login: password}``), ``CLAWMARK_DATA`` (default
  ``/data``), the Radicale storage folder, which the harness mounts so its admin plane reads and
  writes the very same files, and ``CLAWMARK_PROTECTED`` (default ``calendar``), the calendars the
  agent may not delete.
- mail: ``CLAWMARK_PASSWORDS`` and ``CLAWMARK_DATA`` (the world's maildir), and
  ``CLAWMARK_MAIL_UID``/``CLAWMARK_MAIL_GID``, the owner of its files; Dovecot and Postfix serve the
  agent (IMAP 143, SMTP 587), this process only the control plane (see :mod:`.mail.container`).
"""

from __future__ import annotations

import asyncio
import hmac
import json
import os
import sys
import threading
from collections.abc import Callable, Iterable
from datetime import datetime
from http import HTTPStatus
from pathlib import Path
from typing import Any
from urllib.parse import parse_qsl

from .clock import WORLD_EPOCH

SERVICES = ("calendar", "kb", "sheets", "mail")
CONTROL = "/_clawmark/"


class ConfigError(Exception):
    """The container was started without what it needs (one line, what to set)."""


class Control:
    """The container's clock and audit log, shared by the service and the control plane."""

    def __init__(self, admin_token: str) -> None:
        self.admin_token = admin_token
        self.now = WORLD_EPOCH
        self._entries: list[dict[str, Any]] = []
        self._lock = threading.Lock()
        self.before_read: Callable[[], Any] | None = None
        """Called before the audit is read: where a service's log files become entries (mail)."""
        self.health: Callable[[], str] | None = None
        """'' while the service's own daemons answer, else what is wrong (mail: Dovecot, Postfix)."""

    def clock(self) -> datetime:
        return self.now

    def record(self, *args: Any, **kwargs: Any) -> None:
        with self._lock:
            self._entries.append({"args": [str(a) for a in args], "kwargs": {k: str(v) for k, v in kwargs.items()}})

    def entries(self, since: int) -> list[dict[str, Any]]:
        if self.before_read is not None:
            self.before_read()
        with self._lock:
            return self._entries[max(0, since) :]

    def authorised(self, header: str) -> bool:
        return hmac.compare_digest(header.encode(), f"Bearer {self.admin_token}".encode())

    def respond(
        self, method: str, path: str, query_string: str, authorization: str, body: bytes
    ) -> tuple[int, list[tuple[str, str]], bytes]:
        """One control-plane request, whatever server carries it: (status, headers, JSON body)."""
        if not self.authorised(authorization):
            status, payload = 401, {"error": "the control plane needs the admin token"}
        else:
            status, payload = self.answer(method, path, dict(parse_qsl(query_string)), body)
        data = json.dumps(payload).encode()
        return status, [("Content-Type", "application/json"), ("Content-Length", str(len(data)))], data

    def answer(self, method: str, path: str, query: dict[str, str], body: bytes) -> tuple[int, dict[str, Any]]:
        """The control plane's reply to one request (status, JSON body)."""
        if path == CONTROL + "ready" and method == "GET":
            problem = self.health() if self.health is not None else ""
            return (503, {"ready": False, "error": problem}) if problem else (200, {"ready": True})
        if path == CONTROL + "clock" and method == "PUT":
            try:
                now = datetime.fromisoformat(json.loads(body or b"{}")["now"])
            except (ValueError, KeyError, TypeError):
                return 400, {"error": 'body must be {"now": "<ISO 8601 date-time with offset>"}'}
            if now.tzinfo is None:
                return 400, {"error": "the clock needs a UTC offset"}
            self.now = now
            return 200, {"now": now.isoformat()}
        if path == CONTROL + "audit" and method == "GET":
            try:
                since = int(query.get("since", "0"))
            except ValueError:
                return 400, {"error": "since must be an integer"}
            entries = self.entries(since)
            return 200, {"since": since, "entries": entries}
        return 404, {"error": f"no control endpoint {method} {path}"}


def asgi_with_control(app: Any, control: Control) -> Any:
    """``app`` with the control plane under ``/_clawmark/`` (ASGI)."""

    async def wrapped(scope: dict[str, Any], receive: Callable[..., Any], send: Callable[..., Any]) -> None:
        if scope.get("type") != "http" or not str(scope.get("path", "")).startswith(CONTROL):
            await app(scope, receive, send)
            return
        headers = {k.decode("latin-1").lower(): v.decode("latin-1") for k, v in scope.get("headers", [])}
        body = b""
        while True:
            message = await receive()
            body += message.get("body", b"")
            if not message.get("more_body") or len(body) > 65536:
                break
        status, head, data = control.respond(
            scope["method"],
            scope["path"],
            scope.get("query_string", b"").decode("latin-1"),
            headers.get("authorization", ""),
            body,
        )
        await send(
            {"type": "http.response.start", "status": status, "headers": [(k.encode(), v.encode()) for k, v in head]}
        )
        await send({"type": "http.response.body", "body": data})

    return wrapped


def wsgi_with_control(app: Any, control: Control) -> Any:
    """``app`` with the control plane under ``/_clawmark/`` (WSGI, for Radicale)."""

    def wrapped(environ: dict[str, Any], start_response: Callable[..., Any]) -> Iterable[bytes]:
        path = str(environ.get("PATH_INFO", ""))
        if not path.startswith(CONTROL):
            return app(environ, start_response)
        length = int(environ.get("CONTENT_LENGTH") or 0)
        body = environ["wsgi.input"].read(min(length, 65536)) if length else b""
        status, head, data = control.respond(
            str(environ.get("REQUEST_METHOD", "")),
            path,
            str(environ.get("QUERY_STRING", "")),
            str(environ.get("HTTP_AUTHORIZATION", "")),
            body,
        )
        start_response(f"{status} {HTTPStatus(status).phrase}", head)
        return [data]

    return wrapped


def _person(value: Any, what: str) -> tuple[str, str]:
    if not (isinstance(value, list) and len(value) == 2 and all(isinstance(v, str) for v in value)):
        raise ConfigError(f"{what} must be a JSON [name, email], got {value!r}")
    return value[0], value[1]


def _env_json(name: str, default: Any) -> Any:
    text = os.environ.get(name)
    if text is None:
        return default
    try:
        return json.loads(text)
    except ValueError:
        raise ConfigError(f"{name} is not JSON: {text[:80]!r}") from None


def settings() -> dict[str, Any]:
    """The container's configuration from its environment; :class:`ConfigError` when incomplete."""
    agent, admin = os.environ.get("CLAWMARK_AGENT_TOKEN", ""), os.environ.get("CLAWMARK_ADMIN_TOKEN", "")
    if not agent or not admin:
        raise ConfigError("set CLAWMARK_AGENT_TOKEN and CLAWMARK_ADMIN_TOKEN")
    try:
        port = int(os.environ.get("CLAWMARK_PORT", "8000"))
    except ValueError:
        raise ConfigError(f"CLAWMARK_PORT must be a port number, got {os.environ['CLAWMARK_PORT']!r}") from None
    user = _person(_env_json("CLAWMARK_USER", ["User", "user@clawmark.example"]), "CLAWMARK_USER")
    people = _env_json("CLAWMARK_PEOPLE", [])
    if not isinstance(people, list):
        raise ConfigError("CLAWMARK_PEOPLE must be a JSON list of [name, email]")
    passwords = _env_json("CLAWMARK_PASSWORDS", {})
    if not isinstance(passwords, dict) or not all(
        isinstance(k, str) and isinstance(v, str) for k, v in passwords.items()
    ):
        raise ConfigError("CLAWMARK_PASSWORDS must be a JSON object {login: password}")
    return {
        "agent_token": agent, "admin_token": admin, "port": port, "user": user,
        "people": [_person(p, "an entry of CLAWMARK_PEOPLE") for p in people], "passwords": passwords,
        "data": Path(os.environ.get("CLAWMARK_DATA", "/data")),
    }  # fmt: skip


async def serve(service: str, conf: dict[str, Any]) -> None:
    """Serve ``service`` until cancelled."""
    control = Control(conf["admin_token"])
    if service == "calendar":
        from .calendar.audit import AuditMiddleware
        from .calendar.guard import RequestGuard
        from .calendar.radicale_app import RadicaleSetup
        from .calendar.wsgi import start_wsgi

        setup = RadicaleSetup(conf["data"], conf["passwords"])
        protected = [c for c in os.environ.get("CLAWMARK_PROTECTED", "calendar").split(",") if c]
        app = AuditMiddleware(
            RequestGuard(setup.application, setup.collection_root, protected_calendars=protected),
            control.record,
            conf["admin_token"],
        )
        handle = await start_wsgi(wsgi_with_control(app, control), host="0.0.0.0", port=conf["port"])
        await handle.task
        return
    from .asgi import MAX_INCOMPLETE_HEAD_BYTES, HardenedH11Protocol, _start

    if service == "mail":  # Dovecot and Postfix serve the agent; this process, the control plane
        from .mail.container import serve_mail

        async def not_found(scope: dict[str, Any], receive: Callable[..., Any], send: Callable[..., Any]) -> None:
            await send(
                {"type": "http.response.start", "status": 404, "headers": [(b"content-type", b"application/json")]}
            )
            await send(
                {
                    "type": "http.response.body",
                    "body": b'{"error": "the mail container serves IMAP on 143 and SMTP on 587"}',
                }
            )

        control_app = asgi_with_control(not_found, control)
        await serve_mail(
            conf,
            control,
            lambda: _start(control_app, conf["port"], HardenedH11Protocol, MAX_INCOMPLETE_HEAD_BYTES, host="0.0.0.0"),
        )
        return
    if service == "kb":
        from .kb import KbStore, User
        from .kb import create_app as kb_app
        from .kb.http_limits import notion_error_body
        from .kb.ids import user_id

        (uname, uemail), people = conf["user"], conf["people"]
        users = [User(user_id(e), n, e) for n, e in [(uname, uemail), *people]]
        bot = User(user_id("bot:clawmark-kb"), f"{uname}'s assistant", None, "bot")
        asgi = kb_app(
            KbStore(users, bot, control.clock),
            agent_token=conf["agent_token"],
            admin_token=conf["admin_token"],
            audit=control.record,
        )
        error_body: Any = notion_error_body
    else:
        from .sheets import Owner, SheetsConfig, create_app
        from .sheets.errors import google_error_body

        config = SheetsConfig(
            agent_token=conf["agent_token"],
            admin_token=conf["admin_token"],
            audit=control.record,
            clock=control.clock,
            owner=Owner(*conf["user"]),
        )
        asgi = create_app(config).app
        error_body = google_error_body
    protocol = type("HardenedH11Protocol", (HardenedH11Protocol,), {"error_body": staticmethod(error_body)})
    server = await _start(
        asgi_with_control(asgi, control), conf["port"], protocol, MAX_INCOMPLETE_HEAD_BYTES, host="0.0.0.0"
    )
    await server.task


def main(argv: list[str] | None = None) -> int:
    args = sys.argv[1:] if argv is None else argv
    if len(args) != 1 or args[0] not in SERVICES:
        print(f"usage: python -m pytest_clawmark.servers.standalone {'|'.join(SERVICES)}", file=sys.stderr)
        return 2
    try:
        conf = settings()
        if args[0] == "mail":
            from .mail.container import problem

            why = problem(
                conf["passwords"],
                os.environ.get("CLAWMARK_MAIL_UID", "5000"),
                os.environ.get("CLAWMARK_MAIL_GID", "5000"),
            )
            if why:
                raise ConfigError(why)
    except ConfigError as exc:
        print(f"clawmark {args[0]}: {exc}", file=sys.stderr)
        return 2
    print(f"clawmark {args[0]}: serving on port {conf['port']}", flush=True)
    try:
        asyncio.run(serve(args[0], conf))
    except KeyboardInterrupt:
        pass
    return 0


if __name__ == "__main__":
    sys.exit(main())
