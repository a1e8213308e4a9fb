"""The HTTP surface: routing, authentication, body limits, errors and the audit trail.

One ASGI app serves three things under one base URL:

* ``/v4/spreadsheets...`` — the Sheets API v4 (what gspread and ``build("sheets", "v4")`` call);
* ``/drive/v3/files...`` — the Drive v3 files endpoints spreadsheets need;
* ``/_admin/...`` — the harness's admin plane (admin token only, never audited as the agent).

Why route tables: :data:`SHEETS_ROUTES`, :data:`DRIVE_ROUTES` and :data:`ADMIN_ROUTES` (at the end
of this module) list every endpoint with its method, and with them every 404, 405 and 501 answer,
in one place a reader can check against Google's API. They are matched on the *raw* path, since
ranges travel inside it percent-encoded to different degrees (see :mod:`.routing`). Every agent
request — accepted or refused — is recorded in the audit log with a short, secret-free summary,
and so is every attempt on the admin plane without the admin token.

Why a worker thread: all servers of a world share one event loop, and so does the harness's admin
plane. Everything that touches the store — parsing a body, writing, computing formulas,
rendering an answer — runs on one worker thread per server (one at a time: the store needs no
locks), under the limits of :mod:`.limits`; the loop only reads bodies and writes answers, so a
request that computes for seconds never delays another service of the world.
"""

from __future__ import annotations

import asyncio
import hmac
import json
import logging
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any, TypeVar
from urllib.parse import unquote

from starlette.datastructures import QueryParams
from starlette.requests import ClientDisconnect, Request
from starlette.responses import Response
from starlette.types import Receive, Scope, Send

from . import admin, work
from . import validate as v
from .a1 import parse_a1
from .batch import apply_requests, create_body, fill_created
from .drive import Owner, check_create, check_update, export, file_not_found, get_file, list_files
from .errors import ApiError, invalid, not_found
from .fields import apply_mask, parse_mask, selects
from .limits import (
    MAX_ADMIN_BODY_BYTES,
    MAX_BATCH_REQUESTS,
    MAX_BODY_BYTES,
    MAX_HEADER_BYTES,
    MAX_JSON_DEPTH,
    MAX_URL_CHARS,
)
from .render import DATETIME_OPTIONS, RENDER_OPTIONS
from .resource import spreadsheet_json
from .routing import ANY, Refusal, Route, find
from .store import Store
from .values import append_values, check_values, clear_values, get_values, write_values

log = logging.getLogger(__name__)

AuditSink = Callable[..., None]
"""Called as ``audit(operation=..., target=..., summary=..., status=...)``."""

MAJOR = ("ROWS", "COLUMNS")
INPUT = ("RAW", "USER_ENTERED")
T = TypeVar("T")


@dataclass
class SheetsConfig:
    """What a Sheets server needs to know about its world."""

    agent_token: str
    admin_token: str
    audit: AuditSink | None = None
    clock: Callable[[], datetime] | None = None  # the in-universe clock (may raise RuntimeError)
    owner: Owner = field(default_factory=Owner)
    seed: str = "clawmark"  # namespace of the deterministic ids
    max_body_bytes: int = MAX_BODY_BYTES  # agent plane: a request bigger than this is refused
    max_admin_body_bytes: int = MAX_ADMIN_BODY_BYTES  # admin plane: seeds and snapshots can be big


@dataclass
class Call:
    """One request being handled: what the audit log will say about it."""

    operation: str
    target: str = ""
    summary: str = ""


@dataclass(frozen=True)
class Incoming:
    """A request as the worker thread sees it: its body already read (on the event loop)."""

    method: str
    query_params: QueryParams
    raw: bytes


def _reject_constant(name: str) -> Any:
    raise ValueError(f"{name} is not a JSON value")


def _too_deep(data: Any) -> bool:
    """True when ``data`` nests deeper than :data:`~.limits.MAX_JSON_DEPTH` (no recursion)."""
    stack: list[tuple[Any, int]] = [(data, 1)]
    while stack:
        item, depth = stack.pop()
        if depth > MAX_JSON_DEPTH:
            return True
        if isinstance(item, dict):
            stack.extend((x, depth + 1) for x in item.values() if isinstance(x, (dict, list)))
        elif isinstance(item, list):
            stack.extend((x, depth + 1) for x in item if isinstance(x, (dict, list)))
    return False


class SheetsServer:
    """A Sheets/Drive-compatible server over one :class:`Store`. ``.app`` is the ASGI app.

    No framework router: every request goes to :meth:`_endpoint`, which checks the limits and
    the token, then answers from the route tables below the class, matched on the raw path (a
    framework router would match the *decoded* path, where a range like ``%0A`` or ``%2F`` has
    already changed shape).
    """

    def __init__(self, config: SheetsConfig) -> None:
        self.config = config
        self.store = Store(clock=config.clock, seed=config.seed)
        self._worker = ThreadPoolExecutor(max_workers=1, thread_name_prefix="clawmark-sheets")

    def close(self) -> None:
        """Stop the worker thread (requests still queued are dropped)."""
        self._worker.shutdown(wait=False, cancel_futures=True)

    async def _in_worker(self, fn: Callable[[], T]) -> T:
        return await asyncio.get_running_loop().run_in_executor(self._worker, fn)

    @property
    def app(self) -> SheetsServer:
        """The ASGI app: the server itself (an object with ``async __call__``, so ASGI servers
        detect the ASGI 3 interface)."""
        return self

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        """The ASGI entry point (HTTP only; lifespan is off)."""
        if scope["type"] != "http":
            return
        response = await self._endpoint(Request(scope, receive))
        await response(scope, receive, send)

    # -- plumbing ----------------------------------------------------------------------------
    def _token(self, request: Request) -> str | None:
        header = request.headers.get("authorization", "")
        if header[:7].lower() == "bearer ":
            return header[7:].strip()
        return request.query_params.get("access_token") or request.query_params.get("key")

    @staticmethod
    def _same(a: str | None, b: str) -> bool:
        return a is not None and hmac.compare_digest(a.encode(), b.encode())

    def _authorize(self, request: Request, admin_plane: bool) -> None:
        token = self._token(request)
        if not token:
            raise ApiError(
                401,
                "Request is missing required authentication credential. Expected OAuth 2 access token "
                "(Authorization: Bearer <token>) or an access_token / key query parameter.",
            )
        wanted = self.config.admin_token if admin_plane else self.config.agent_token
        if self._same(token, wanted):
            return
        if admin_plane and self._same(token, self.config.agent_token):
            raise ApiError(403, "The caller does not have permission: this endpoint is for the harness only.")
        raise ApiError(401, "Request had invalid authentication credentials. Expected a valid OAuth 2 access token.")

    async def _read(self, request: Request, limit: int) -> bytes:
        """The raw body, refused (Google's 400) as soon as it is known to exceed ``limit``."""
        declared = request.headers.get("content-length")
        if declared is not None and declared.isdigit() and int(declared) > limit:
            raise invalid(f"Request payload size exceeds the limit: {limit} bytes.")
        chunks: list[bytes] = []
        size = 0
        async for chunk in request.stream():
            size += len(chunk)
            if size > limit:
                raise invalid(f"Request payload size exceeds the limit: {limit} bytes.")
            chunks.append(chunk)
        return b"".join(chunks)

    @staticmethod
    def _body(request: Incoming) -> dict[str, Any]:
        """The JSON object body (``{}`` when empty), or Google's 400 for anything else."""
        raw = request.raw
        if not raw.strip():
            return {}
        try:
            text = raw.decode("utf-8")
            data = json.loads(text, parse_constant=_reject_constant)
            if "\\u" in text:  # lone surrogates decode fine but can never be answered in UTF-8
                json.dumps(data, ensure_ascii=False).encode("utf-8")
        except RecursionError:
            raise invalid(
                f"Invalid JSON payload received. The payload nests deeper than {MAX_JSON_DEPTH} levels."
            ) from None
        except (UnicodeError, ValueError) as exc:
            raise invalid(f"Invalid JSON payload received. {exc}"[:300]) from None
        if not isinstance(data, dict):
            raise invalid("Invalid JSON payload received. Expected a JSON object as the request body.")
        if _too_deep(data):
            raise invalid(f"Invalid JSON payload received. The payload nests deeper than {MAX_JSON_DEPTH} levels.")
        return data

    @staticmethod
    def _json(data: Any, status: int = 200) -> Response:
        body = json.dumps(data, ensure_ascii=False, separators=(",", ":"), allow_nan=False)
        return Response(body, status_code=status, media_type="application/json; charset=UTF-8")

    def _audit(self, call: Call, status: int, error: str = "") -> None:
        if self.config.audit is None:
            return
        summary = call.summary
        if error:
            summary = f"{summary}; error: {error}" if summary else f"error: {error}"
        try:
            self.config.audit(
                operation=call.operation[:200], target=call.target[:200], summary=summary[:300], status=str(status)
            )
        except Exception:  # pragma: no cover - the audit sink must never break a request
            log.exception("audit sink failed")

    async def _endpoint(self, request: Request) -> Response:
        raw_path = request.scope.get("raw_path") or request.scope["path"].encode()
        path = raw_path.decode("latin-1").split("?", 1)[0]
        admin_plane = path == "/_admin" or path.startswith("/_admin/")
        call = Call(f"{request.method} {unquote(path)[:120]}")
        audited = True  # every agent request; on the admin plane, only refused ones (not the harness)
        try:
            if len(raw_path) + len(request.scope.get("query_string", b"")) > MAX_URL_CHARS:
                raise ApiError(414, f"The request URL is longer than {MAX_URL_CHARS} characters.")
            header_bytes = sum(len(k) + len(v) for k, v in request.scope.get("headers", ()))
            if header_bytes > MAX_HEADER_BYTES:
                raise ApiError(431, f"Request headers total {header_bytes} bytes; the limit is {MAX_HEADER_BYTES}.")
            if admin_plane:
                self._authorize(request, True)
                audited = False  # the harness itself: not an agent action
                if path == "/_admin/ping" and request.method == "GET":
                    return self._json({"ok": True})  # answered on the loop: liveness, even mid-calculation
                incoming = Incoming(
                    request.method, request.query_params, await self._read(request, self.config.max_admin_body_bytes)
                )
                return await self._in_worker(lambda: self._json(self._admin(incoming, path)))
            self._authorize(request, False)
            incoming = Incoming(
                request.method, request.query_params, await self._read(request, self.config.max_body_bytes)
            )

            def handle() -> Response:
                with work.metered():
                    return self._agent(incoming, path, call)

            response = await self._in_worker(handle)
            self._audit(call, response.status_code)
            return response
        except ApiError as exc:
            if audited:
                self._audit(call, exc.code, exc.message)
            return self._json(exc.to_json(), exc.code)
        except ClientDisconnect:
            if audited:
                self._audit(call, 499, "the client closed the connection before sending the whole request")
            return Response(status_code=400)  # nobody is left to read it
        except Exception:
            log.exception("sheets server error on %s %s", request.method, path)
            if audited:
                self._audit(call, 500, "internal error")
            return self._json(ApiError(500, "Internal error encountered.").to_json(), 500)

    # -- agent plane: routing ----------------------------------------------------------------
    def _agent(self, request: Incoming, path: str, call: Call) -> Response:
        """Answer from the first matching row of :data:`SHEETS_ROUTES`, then :data:`DRIVE_ROUTES`
        (whose errors all take Drive's shape)."""
        for routes, drive in ((SHEETS_ROUTES, False), (DRIVE_ROUTES, True)):
            found = find(routes, request.method, path)
            if found is None:
                continue
            route, raw = found
            try:
                return self._answer(route, raw, request, call)
            except ApiError as exc:
                if drive:
                    exc.drive = True
                raise
        raise not_found(f"Method not found: {request.method} {unquote(path)[:200]}")

    def _answer(self, route: Route[Handler], raw: dict[str, str], request: Incoming, call: Call) -> Response:
        """Record what the request aims at (refusals too), then refuse or call the handler."""
        args = {name: unquote(value) for name, value in raw.items()}
        if "range" in args:
            call.target = f"{args['id']}!{args['range']}"[:200]
        elif "id" in args:
            call.target = args["id"]
        if isinstance(route.answer, Refusal):
            raise route.answer.error(request.method, raw)
        call.operation = f"{request.method} {route.operation}"
        return route.answer(self, request, call, args)

    # -- spreadsheets ------------------------------------------------------------------------
    def _create(self, request: Incoming, call: Call, args: dict[str, str]) -> Response:
        body = self._body(request)
        fields = request.query_params.get("fields")
        props, sheets = create_body(body)
        title = v.string(props.get("title"), "properties.title", default="Untitled spreadsheet", max_len=1000)
        call.summary = f"title={title!r}, {len(sheets) or 1} sheet(s)"
        locale = v.string(props.get("locale"), "properties.locale", default="en_US", max_len=50)
        tz = v.string(props.get("timeZone"), "properties.timeZone", default="Etc/GMT", max_len=100)
        mask = parse_mask(fields) if fields else None
        ss = self.store.create(title, locale=locale, time_zone=tz, fill=lambda draft: fill_created(draft, sheets))
        call.target = ss.id
        return self._json(apply_mask(spreadsheet_json(ss), mask))

    def _get(self, request: Incoming, call: Call, args: dict[str, str]) -> Response:
        params = request.query_params
        ranges = params.getlist("ranges")
        fields = params.get("fields")
        mask = parse_mask(fields) if fields else None
        include = v.boolean(params.get("includeGridData"), "includeGridData") or selects(mask, "sheets", "data")
        call.summary = (f"ranges={ranges} " if ranges else "") + ("with grid data" if include else "metadata")
        ss = self.store.get(args["id"])
        return self._json(apply_mask(spreadsheet_json(ss, include_grid=include, ranges=ranges or None), mask))

    def _batch_update(self, request: Incoming, call: Call, args: dict[str, str]) -> Response:
        sid = args["id"]
        body = self._body(request)
        fields = request.query_params.get("fields")
        v.only_keys(body, {"requests", "includeSpreadsheetInResponse", "responseRanges", "responseIncludeGridData"}, "")
        requests = v.array(body.get("requests"), "requests", optional=False, max_len=MAX_BATCH_REQUESTS)
        kinds = [next(iter(r), "?") if isinstance(r, dict) else "?" for r in requests]
        call.summary = "requests: " + ", ".join(kinds[:20]) + (" ..." if len(kinds) > 20 else "")
        include = v.boolean(body.get("includeSpreadsheetInResponse"), "includeSpreadsheetInResponse")
        response_ranges = [
            v.string(r, "responseRanges[]") for r in v.array(body.get("responseRanges"), "responseRanges")
        ]
        grid = v.boolean(body.get("responseIncludeGridData"), "responseIncludeGridData")
        mask = parse_mask(fields) if fields else None
        with self.store.edit(sid) as ss:
            replies = apply_requests(ss, requests)
        out: dict[str, Any] = {"spreadsheetId": sid, "replies": replies}
        if include:
            out["updatedSpreadsheet"] = spreadsheet_json(
                self.store.get(sid), include_grid=grid, ranges=response_ranges or None
            )
        return self._json(apply_mask(out, mask))

    # -- values: one range -------------------------------------------------------------------
    def _values_get(self, request: Incoming, call: Call, args: dict[str, str]) -> Response:
        params = request.query_params
        option, dt = self._render_params(params)
        major = v.enum(params.get("majorDimension"), "majorDimension", MAJOR, default="ROWS")
        call.summary = f"{option}" + (f" {major}" if major != "ROWS" else "")
        ss = self.store.get(args["id"])
        return self._json(self._mask(get_values(ss, args["range"], option, dt, major), params.get("fields")))  # type: ignore[arg-type]

    def _values_update(self, request: Incoming, call: Call, args: dict[str, str]) -> Response:
        sid, rng, params = args["id"], args["range"], request.query_params
        body = self._body(request)
        option = self._input_option(params)
        rows, major = self._value_range(body, rng, "")
        call.summary = f"{self._shape(rows)} {option}"
        self.store.get(sid)
        with self.store.edit(sid) as ss:
            result = write_values(ss, rng, rows, option, major)  # type: ignore[arg-type]
        result = {"spreadsheetId": sid, **result}
        self._include_values(params, sid, result)
        return self._json(self._mask(result, params.get("fields")))

    def _values_append(self, request: Incoming, call: Call, args: dict[str, str]) -> Response:
        sid, rng, params = args["id"], args["range"], request.query_params
        body = self._body(request)
        option = self._input_option(params)
        insert = v.enum(
            params.get("insertDataOption"), "insertDataOption", ("OVERWRITE", "INSERT_ROWS"), default="OVERWRITE"
        )
        rows, major = self._value_range(body, rng, "")
        call.summary = f"{self._shape(rows)} {option} {insert}"
        self.store.get(sid)
        with self.store.edit(sid) as ss:
            table, updates = append_values(ss, rng, rows, option, major, insert)  # type: ignore[arg-type]
        updates = {"spreadsheetId": sid, **updates}
        self._include_values(params, sid, updates)
        out: dict[str, Any] = {"spreadsheetId": sid}
        if table:
            out["tableRange"] = table
        out["updates"] = updates
        return self._json(self._mask(out, params.get("fields")))

    def _values_clear(self, request: Incoming, call: Call, args: dict[str, str]) -> Response:
        sid, rng = args["id"], args["range"]
        self._body(request)
        self.store.get(sid)
        parse_a1(rng)
        with self.store.edit(sid) as ss:
            cleared = clear_values(ss, rng)
        return self._json(
            self._mask({"spreadsheetId": sid, "clearedRange": cleared}, request.query_params.get("fields"))
        )

    # -- values: several ranges --------------------------------------------------------------
    def _values_batch_get(self, request: Incoming, call: Call, args: dict[str, str]) -> Response:
        sid, params = args["id"], request.query_params
        ranges = params.getlist("ranges")
        option, dt = self._render_params(params)
        major = v.enum(params.get("majorDimension"), "majorDimension", MAJOR, default="ROWS")
        call.summary = f"ranges={ranges} {option}"[:300]
        ss = self.store.get(sid)
        value_ranges = [get_values(ss, r, option, dt, major) for r in ranges]  # type: ignore[arg-type]
        return self._json(self._mask({"spreadsheetId": sid, "valueRanges": value_ranges}, params.get("fields")))

    def _values_batch_update(self, request: Incoming, call: Call, args: dict[str, str]) -> Response:
        sid = args["id"]
        body = self._body(request)
        v.only_keys(
            body,
            {
                "valueInputOption",
                "data",
                "includeValuesInResponse",
                "responseValueRenderOption",
                "responseDateTimeRenderOption",
            },
            "",
        )
        option = v.enum(body.get("valueInputOption"), "valueInputOption", INPUT, default=None)
        data = v.array(body.get("data"), "data", max_len=MAX_BATCH_REQUESTS)
        parsed = []
        for i, item in enumerate(data):
            item = v.obj(item, f"data[{i}]")
            rng = v.string(item.get("range"), f"data[{i}].range")
            parse_a1(rng)
            rows, major = self._value_range(item, None, f"data[{i}].")
            parsed.append((rng, rows, major))
        call.summary = f"{len(parsed)} ranges {option}: " + ", ".join(p[0] for p in parsed)[:200]
        self.store.get(sid)
        responses = []
        with self.store.edit(sid) as ss:
            for rng, rows, major in parsed:
                responses.append({"spreadsheetId": sid, **write_values(ss, rng, rows, option, major)})  # type: ignore[arg-type]
        if v.boolean(body.get("includeValuesInResponse"), "includeValuesInResponse"):
            wrapped = {
                "includeValuesInResponse": "true",
                "responseValueRenderOption": body.get("responseValueRenderOption"),
                "responseDateTimeRenderOption": body.get("responseDateTimeRenderOption"),
            }
            for r in responses:
                self._include_values({k: x for k, x in wrapped.items() if x is not None}, sid, r)
        out: dict[str, Any] = {"spreadsheetId": sid}
        totals = {
            "totalUpdatedRows": "updatedRows",
            "totalUpdatedColumns": "updatedColumns",
            "totalUpdatedCells": "updatedCells",
        }
        for total, key in totals.items():
            n = sum(r.get(key, 0) for r in responses)
            if n:
                out[total] = n
        sheets = {r["updatedRange"].rsplit("!", 1)[0] for r in responses if r.get("updatedCells")}
        if sheets:
            out["totalUpdatedSheets"] = len(sheets)
        if responses:
            out["responses"] = responses
        return self._json(self._mask(out, request.query_params.get("fields")))

    def _values_batch_clear(self, request: Incoming, call: Call, args: dict[str, str]) -> Response:
        sid = args["id"]
        body = self._body(request)
        v.only_keys(body, {"ranges"}, "")
        ranges = [v.string(r, f"ranges[{i}]") for i, r in enumerate(v.array(body.get("ranges"), "ranges"))]
        for r in ranges:
            parse_a1(r)
        call.summary = "ranges: " + ", ".join(ranges)[:250]
        self.store.get(sid)
        with self.store.edit(sid) as ss:
            cleared = [clear_values(ss, r) for r in ranges]
        return self._json(
            self._mask({"spreadsheetId": sid, "clearedRanges": cleared}, request.query_params.get("fields"))
        )

    # -- values: shared checks ---------------------------------------------------------------
    @staticmethod
    def _render_params(params: Any) -> tuple[str, str]:
        option = v.enum(params.get("valueRenderOption"), "valueRenderOption", RENDER_OPTIONS, default="FORMATTED_VALUE")
        dt = v.enum(
            params.get("dateTimeRenderOption"), "dateTimeRenderOption", DATETIME_OPTIONS, default="SERIAL_NUMBER"
        )
        return option, dt

    @staticmethod
    def _input_option(params: Any) -> str:
        if not params.get("valueInputOption"):
            raise invalid("'valueInputOption' is required but not specified")
        return v.enum(params.get("valueInputOption"), "valueInputOption", INPUT)

    @staticmethod
    def _value_range(body: dict[str, Any], url_range: str | None, where: str) -> tuple[list[list[Any]], str]:
        """Validate a ``ValueRange`` body; its ``range`` must agree with the URL's, as Google requires."""
        v.only_keys(body, {"range", "majorDimension", "values"}, where.rstrip(".") or "")
        major = v.enum(body.get("majorDimension"), f"{where}majorDimension", MAJOR, default="ROWS")
        rows = check_values(body.get("values"), f"{where}values")
        if url_range is not None and body.get("range") is not None:
            body_range = v.string(body["range"], f"{where}range")
            a, b = parse_a1(url_range), parse_a1(body_range)
            same = (a.row0, a.col0, a.row1, a.col1) == (b.row0, b.col0, b.row1, b.col1) and (
                (a.sheet or "").casefold() == (b.sheet or "").casefold() or a.sheet is None or b.sheet is None
            )
            if not same:
                raise invalid(f"Requested range [{url_range}] does not match the range in the body [{body_range}].")
        return rows, major

    @staticmethod
    def _shape(rows: list[list[Any]]) -> str:
        return f"{len(rows)}x{max((len(r) for r in rows), default=0)} values"

    def _include_values(self, params: Any, sid: str, result: dict[str, Any]) -> None:
        """``includeValuesInResponse``: add ``updatedData`` rendered as asked."""
        if not v.boolean(params.get("includeValuesInResponse"), "includeValuesInResponse"):
            return
        option = v.enum(
            params.get("responseValueRenderOption"),
            "responseValueRenderOption",
            RENDER_OPTIONS,
            default="FORMATTED_VALUE",
        )
        dt = v.enum(
            params.get("responseDateTimeRenderOption"),
            "responseDateTimeRenderOption",
            DATETIME_OPTIONS,
            default="SERIAL_NUMBER",
        )
        rng = result.get("updatedRange")
        if rng:
            result["updatedData"] = get_values(self.store.get(sid), rng, option, dt)  # type: ignore[arg-type]

    @staticmethod
    def _mask(data: dict[str, Any], fields: str | None) -> dict[str, Any]:
        return apply_mask(data, parse_mask(fields)) if fields else data

    # -- drive -------------------------------------------------------------------------------
    @staticmethod
    def _query(request: Incoming) -> dict[str, str]:
        """The query parameters, one value each (what the Drive endpoints read)."""
        return {k: request.query_params.get(k) for k in request.query_params.keys()}  # type: ignore[misc]

    def _files_list(self, request: Incoming, call: Call, args: dict[str, str]) -> Response:
        params = self._query(request)
        call.target = "drive"
        call.summary = f"q={params.get('q') or ''}"[:250]
        return self._json(list_files(self.store, params, self.config.owner))

    def _files_create(self, request: Incoming, call: Call, args: dict[str, str]) -> Response:
        name, parents = check_create(self._body(request))
        call.summary = f"name={name!r}"
        ss = self.store.create(name)
        ss.parents = parents
        call.target = ss.id
        return self._json(get_file(self.store, ss.id, self._query(request), self.config.owner))

    def _files_copy(self, request: Incoming, call: Call, args: dict[str, str]) -> Response:
        file_id = args["id"]
        body = self._body(request)
        v.only_keys(body, {"name", "parents", "description", "mimeType"}, "")
        source = self.store.spreadsheets.get(file_id)
        if source is None:
            raise file_not_found(file_id)
        name = v.string(body.get("name"), "name", default=f"Copy of {source.title}", max_len=1000)
        call.summary = f"name={name!r}"
        work.charge(sum(len(s.cells) for s in source.sheets) * work.WORK_CELL_MOVE)
        copy = self.store.create(
            name, [s.clone() for s in source.sheets], locale=source.locale, time_zone=source.time_zone
        )
        copy.sheet_seq = source.sheet_seq
        return self._json(get_file(self.store, copy.id, self._query(request), self.config.owner))

    def _files_export(self, request: Incoming, call: Call, args: dict[str, str]) -> Response:
        ss = self.store.spreadsheets.get(args["id"])
        if ss is None:
            raise file_not_found(args["id"])
        mime = self._query(request).get("mimeType") or ""
        call.summary = f"mimeType={mime}"
        data, media = export(ss, mime)
        return Response(data, media_type=media)

    def _comments_list(self, request: Incoming, call: Call, args: dict[str, str]) -> Response:
        if args["id"] not in self.store.spreadsheets:
            raise file_not_found(args["id"])
        # Comments are not modelled: no file here has any (gspread's copy() reads them).
        out = {"kind": "drive#commentList", "comments": []}
        fields = self._query(request).get("fields")
        return self._json(apply_mask(out, parse_mask(fields)) if fields else out)

    def _files_get(self, request: Incoming, call: Call, args: dict[str, str]) -> Response:
        return self._json(get_file(self.store, args["id"], self._query(request), self.config.owner))

    def _files_delete(self, request: Incoming, call: Call, args: dict[str, str]) -> Response:
        if args["id"] not in self.store.spreadsheets:
            raise file_not_found(args["id"])
        self.store.delete(args["id"])
        return Response(status_code=204)

    def _files_update(self, request: Incoming, call: Call, args: dict[str, str]) -> Response:
        file_id = args["id"]
        changes = check_update(self._body(request))
        call.summary = ", ".join(f"{k}={val!r}" for k, val in changes.items())
        if file_id not in self.store.spreadsheets:
            raise file_not_found(file_id)
        with self.store.edit(file_id) as ss:
            if "name" in changes:
                ss.title = changes["name"]
            if "trashed" in changes:
                ss.trashed = changes["trashed"]
        return self._json(get_file(self.store, file_id, self._query(request), self.config.owner))

    # -- admin plane -------------------------------------------------------------------------
    def _admin(self, request: Incoming, path: str) -> dict[str, Any]:
        """Answer from :data:`ADMIN_ROUTES` (the harness's plane: no 405s, every miss is a 404)."""
        found = find(ADMIN_ROUTES, request.method, path)
        if found is None:
            raise not_found(f"No admin endpoint {request.method} {path}")
        route, raw = found
        if isinstance(route.answer, Refusal):
            raise route.answer.error(request.method, raw)
        return route.answer(self, request, {name: unquote(value) for name, value in raw.items()})

    def _restore(self, request: Incoming, args: dict[str, str]) -> dict[str, Any]:
        self.store.restore(self._body(request))
        return {}


Handler = Callable[[SheetsServer, Incoming, Call, dict[str, str]], Response]
"""An agent-plane handler: the server, the request, its audit record, the decoded placeholders."""

AdminHandler = Callable[[SheetsServer, Incoming, dict[str, str]], dict[str, Any]]
"""An admin-plane handler: the server, the request, the decoded placeholders → the JSON answer."""

SHEETS_ROUTES: tuple[Route[Handler], ...] = (
    Route("POST", "/v4/spreadsheets/?", SheetsServer._create, "spreadsheets.create"),
    Route(ANY, "/v4/spreadsheets/?", Refusal(405, "Use POST /v4/spreadsheets to create a spreadsheet.")),
    Route("GET", "/v4/spreadsheets/{id}", SheetsServer._get, "spreadsheets.get"),
    Route("POST", "/v4/spreadsheets/{id}:batchUpdate", SheetsServer._batch_update, "spreadsheets.batchUpdate"),
    Route(
        ANY,
        "/v4/spreadsheets/{id}:getByDataFilter",
        Refusal(501, "spreadsheets.getByDataFilter is not supported by this server"),
    ),
    Route(
        ANY, "/v4/spreadsheets/{id}{verb:verb}", Refusal(405, "No such method: {method} /v4/spreadsheets/{{id}}{verb}")
    ),
    Route("GET", "/v4/spreadsheets/{id}/values:batchGet", SheetsServer._values_batch_get, "values.batchGet"),
    Route("POST", "/v4/spreadsheets/{id}/values:batchUpdate", SheetsServer._values_batch_update, "values.batchUpdate"),
    Route("POST", "/v4/spreadsheets/{id}/values:batchClear", SheetsServer._values_batch_clear, "values.batchClear"),
    Route(
        ANY,
        "/v4/spreadsheets/{id}/values:{how:segment}ByDataFilter",
        Refusal(501, "values.{how}ByDataFilter is not supported by this server"),
    ),
    Route(
        ANY, "/v4/spreadsheets/{id}/values:{verb:segment}", Refusal(405, "No such method: {method} .../values:{verb}")
    ),
    Route("POST", "/v4/spreadsheets/{id}/values/{range:path}:clear", SheetsServer._values_clear, "values.clear"),
    Route(
        ANY,
        "/v4/spreadsheets/{id}/values/{range:path}:clear",
        Refusal(405, "values.clear is POST .../values/{{range}}:clear"),
    ),
    Route("POST", "/v4/spreadsheets/{id}/values/{range:path}:append", SheetsServer._values_append, "values.append"),
    Route(
        ANY,
        "/v4/spreadsheets/{id}/values/{range:path}:append",
        Refusal(405, "values.append is POST .../values/{{range}}:append"),
    ),
    Route("GET", "/v4/spreadsheets/{id}/values/{range:path}", SheetsServer._values_get, "values.get"),
    Route("PUT", "/v4/spreadsheets/{id}/values/{range:path}", SheetsServer._values_update, "values.update"),
    Route(
        ANY, "/v4/spreadsheets/{id}/values/{range:path}", Refusal(405, "No such method: {method} .../values/{{range}}")
    ),
    Route(
        ANY,
        "/v4/spreadsheets/{id}/sheets/{sheet:path}:copyTo",
        Refusal(501, "spreadsheets.sheets.copyTo is not supported by this server"),
    ),
    Route(ANY, "/v4/spreadsheets/{id}/{rest:path}", Refusal(404, "Method not found.")),
    Route(ANY, "/v4/spreadsheets{rest:path}", Refusal(404, "Method not found.")),
)
"""The Sheets API v4. ``{id}`` (decoded) is what the audit log records as the target, or
``{id}!{range}`` for the routes of one range."""

DRIVE_ROUTES: tuple[Route[Handler], ...] = (
    Route("GET", "/drive/v3/files/?", SheetsServer._files_list, "drive.files.list"),
    Route("POST", "/drive/v3/files/?", SheetsServer._files_create, "drive.files.create"),
    Route(ANY, "/drive/v3/files/?", Refusal(405, "No such method: {method} /drive/v3/files")),
    Route("POST", "/drive/v3/files/{id:segment}/copy", SheetsServer._files_copy, "drive.files.copy"),
    Route("GET", "/drive/v3/files/{id:segment}/export", SheetsServer._files_export, "drive.files.export"),
    Route("GET", "/drive/v3/files/{id:segment}/comments", SheetsServer._comments_list, "drive.comments.list"),
    Route("GET", "/drive/v3/files/{id:segment}/?", SheetsServer._files_get, "drive.files.get"),
    Route("DELETE", "/drive/v3/files/{id:segment}/?", SheetsServer._files_delete, "drive.files.delete"),
    Route("PATCH", "/drive/v3/files/{id:segment}/?", SheetsServer._files_update, "drive.files.update"),
    Route(ANY, "/drive/v3/files/{id:segment}/?", Refusal(405, "No such method: {method} /drive/v3/files/{{fileId}}")),
    Route(ANY, "/drive/v3/files/{id:segment}/{sub:path}", Refusal(404, "Method not found.")),
    Route(ANY, "/drive/v3/files{rest:path}", Refusal(404, "Method not found.")),
)
"""The Drive v3 files endpoints spreadsheets need; every error they answer is in Drive's shape.
A file's sub-resource asked with the wrong method is a 404, as on Drive."""


def _with_body(op: Callable[[Store, str, dict[str, Any]], dict[str, Any]]) -> AdminHandler:
    """An admin handler calling ``op(store, spreadsheet id, JSON body)``."""
    return lambda server, request, args: op(server.store, args["id"], server._body(request))


def _with_query(op: Callable[[Store, str, dict[str, str]], dict[str, Any]]) -> AdminHandler:
    """An admin handler calling ``op(store, spreadsheet id, query parameters)``."""
    return lambda server, request, args: op(server.store, args["id"], server._query(request))


ADMIN_ROUTES: tuple[Route[AdminHandler], ...] = (
    Route("GET", "/_admin/ping", lambda server, request, args: {"ok": True}),
    Route("GET", "/_admin/snapshot", lambda server, request, args: server.store.snapshot()),
    Route("PUT", "/_admin/snapshot", SheetsServer._restore),
    Route(
        "POST", "/_admin/spreadsheets", lambda server, request, args: admin.create(server.store, server._body(request))
    ),
    Route(
        "GET",
        "/_admin/spreadsheets",
        lambda server, request, args: admin.listing(server.store, server._query(request).get("title")),
    ),
    Route(
        "DELETE", "/_admin/spreadsheets/{id}/?", lambda server, request, args: admin.delete(server.store, args["id"])
    ),
    Route("POST", "/_admin/spreadsheets/{id}:batchUpdate/?", _with_body(admin.batch_update)),
    Route("GET", "/_admin/spreadsheets/{id}/values", _with_query(admin.values)),
    Route("POST", "/_admin/spreadsheets/{id}/values:update", _with_body(admin.update)),
    Route("POST", "/_admin/spreadsheets/{id}/values:append", _with_body(admin.append)),
    Route("GET", "/_admin/spreadsheets/{id}/rows", _with_query(admin.rows)),
    Route("POST", "/_admin/spreadsheets/{id}/rows:find", _with_body(admin.find)),
    Route("POST", "/_admin/spreadsheets/{id}/rows:update", _with_body(admin.update_row)),
    Route("POST", "/_admin/spreadsheets/{id}/rows:delete", _with_body(admin.delete_row)),
)
"""The harness's admin plane (see :mod:`.admin`); it is reached with the admin token only."""


def create_app(config: SheetsConfig) -> SheetsServer:
    """Build a server; serve ``server.app`` with any ASGI server (uvicorn in the local backend)."""
    return SheetsServer(config)


__all__ = ["SheetsConfig", "SheetsServer", "create_app"]
