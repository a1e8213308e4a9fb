"""The HTTP surface: routing, authentication, body limits, errors and the audit trail.

One ASGI app serves three things under one base URL:

* ``/v4/spreadsheets...`` — the Sheets API v4 (what gspread and ``build("sheets", "v4")`` call);
* ``/drive/v3/files...`` — the Drive v3 files endpoints spreadsheets need;
* ``/_admin/...`` — the harness's admin plane (admin token only, never audited as the agent).

Why routing by hand on the *raw* path: ranges travel inside the path (``values/Sheet1!A1:B2``),
percent-encoded to different degrees by different clients, may contain ``/`` (a sheet named
``Q1/Q2``), and custom methods hang off them with a colon (``...:append``). Splitting the
undecoded path first and decoding each piece afterwards is the only way to get all of these
right. Every agent request — accepted or refused — is recorded in the audit log with a short,
secret-free summary, and so is every attempt on the admin plane without the admin token.

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
from .drive import Owner, check_create, check_update, drive_error, export, file_not_found, get_file, list_files
from .errors import ApiError, invalid, not_found, unimplemented
from .fields import apply_mask, parse_mask, selects
from .limits import MAX_ADMIN_BODY_BYTES, MAX_BATCH_REQUESTS, MAX_BODY_BYTES, MAX_HEADER_BYTES, MAX_JSON_DEPTH, MAX_URL_CHARS
from .render import DATETIME_OPTIONS, RENDER_OPTIONS
from .resource import spreadsheet_json
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

    No router: every request goes to :meth:`_endpoint`, which routes on the raw path (a
    framework router would match the *decoded* path, where a range like ``%0A`` or ``%2F``
    has already changed shape).
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
    def app(self) -> "SheetsServer":
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
            raise invalid(f"Invalid JSON payload received. The payload nests deeper than {MAX_JSON_DEPTH} levels.") from None
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
            self.config.audit(operation=call.operation[:200], target=call.target[:200], summary=summary[:300], status=str(status))
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
                incoming = Incoming(request.method, request.query_params, await self._read(request, self.config.max_admin_body_bytes))
                return await self._in_worker(lambda: self._json(self._admin(incoming, path)))
            self._authorize(request, False)
            incoming = Incoming(request.method, request.query_params, await self._read(request, self.config.max_body_bytes))

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
        method = request.method
        params = request.query_params
        if path.startswith("/v4/spreadsheets"):
            rest = path[len("/v4/spreadsheets") :]
            if rest in ("", "/"):
                if method != "POST":
                    raise ApiError(405, "Use POST /v4/spreadsheets to create a spreadsheet.")
                call.operation = "POST spreadsheets.create"
                return self._json(self._create(self._body(request), call, params.get("fields")))
            if not rest.startswith("/"):
                raise not_found("Method not found.")
            head, sep, tail = rest[1:].partition("/")
            sid_raw, colon, custom = head.partition(":")
            sid = unquote(sid_raw)
            call.target = sid
            if not sep:
                if not colon and method == "GET":
                    call.operation = "GET spreadsheets.get"
                    return self._json(self._get(sid, params, call))
                if custom == "batchUpdate" and method == "POST":
                    call.operation = "POST spreadsheets.batchUpdate"
                    return self._json(self._batch_update(sid, self._body(request), call, params.get("fields")))
                if custom == "getByDataFilter":
                    raise unimplemented("spreadsheets.getByDataFilter is not supported by this server")
                raise ApiError(405, f"No such method: {method} /v4/spreadsheets/{{id}}{colon}{custom}")
            if tail.startswith("values:") and "/" not in tail:
                return self._values_batch(request, sid, tail[len("values:") :], call)
            if tail.startswith("values/"):
                return self._values_one(request, sid, tail[len("values/") :], call)
            if tail.startswith("sheets/") and tail.endswith(":copyTo"):
                raise unimplemented("spreadsheets.sheets.copyTo is not supported by this server")
            raise not_found("Method not found.")
        if path.startswith("/drive/v3/files"):
            return self._drive(request, path[len("/drive/v3/files") :], call)
        raise not_found(f"Method not found: {method} {unquote(path)[:200]}")

    # -- spreadsheets ------------------------------------------------------------------------
    def _create(self, body: dict[str, Any], call: Call, fields: str | None) -> dict[str, Any]:
        props, sheets = create_body(body)
        title = v.string(props.get("title"), "properties.title", default="Untitled spreadsheet", max_len=1000)
        call.summary = f"title={title!r}, {len(sheets) or 1} sheet(s)"
        locale = v.string(props.get("locale"), "properties.locale", default="en_US", max_len=50)
        tz = v.string(props.get("timeZone"), "properties.timeZone", default="Etc/GMT", max_len=100)
        mask = parse_mask(fields) if fields else None
        ss = self.store.create(title, locale=locale, time_zone=tz, fill=lambda draft: fill_created(draft, sheets))
        call.target = ss.id
        return apply_mask(spreadsheet_json(ss), mask)

    def _get(self, sid: str, params: Any, call: Call) -> dict[str, Any]:
        ranges = params.getlist("ranges")
        fields = params.get("fields")
        mask = parse_mask(fields) if fields else None
        include = v.boolean(params.get("includeGridData"), "includeGridData") or selects(mask, "sheets", "data")
        call.summary = (f"ranges={ranges} " if ranges else "") + ("with grid data" if include else "metadata")
        ss = self.store.get(sid)
        return apply_mask(spreadsheet_json(ss, include_grid=include, ranges=ranges or None), mask)

    def _batch_update(self, sid: str, body: dict[str, Any], call: Call, fields: str | None) -> dict[str, Any]:
        v.only_keys(body, {"requests", "includeSpreadsheetInResponse", "responseRanges", "responseIncludeGridData"}, "")
        requests = v.array(body.get("requests"), "requests", optional=False, max_len=MAX_BATCH_REQUESTS)
        kinds = [next(iter(r), "?") if isinstance(r, dict) else "?" for r in requests]
        call.summary = "requests: " + ", ".join(kinds[:20]) + (" ..." if len(kinds) > 20 else "")
        include = v.boolean(body.get("includeSpreadsheetInResponse"), "includeSpreadsheetInResponse")
        response_ranges = [v.string(r, "responseRanges[]") for r in v.array(body.get("responseRanges"), "responseRanges")]
        grid = v.boolean(body.get("responseIncludeGridData"), "responseIncludeGridData")
        mask = parse_mask(fields) if fields else None
        with self.store.edit(sid) as ss:
            replies = apply_requests(ss, requests)
        out: dict[str, Any] = {"spreadsheetId": sid, "replies": replies}
        if include:
            out["updatedSpreadsheet"] = spreadsheet_json(self.store.get(sid), include_grid=grid, ranges=response_ranges or None)
        return apply_mask(out, mask)

    # -- values ------------------------------------------------------------------------------
    @staticmethod
    def _render_params(params: Any) -> tuple[str, str]:
        option = v.enum(params.get("valueRenderOption"), "valueRenderOption", RENDER_OPTIONS, default="FORMATTED_VALUE")
        dt = v.enum(params.get("dateTimeRenderOption"), "dateTimeRenderOption", DATETIME_OPTIONS, default="SERIAL_NUMBER")
        return option, dt

    def _values_one(self, request: Incoming, sid: str, raw_range: str, call: Call) -> Response:
        method = request.method
        custom = ""
        for suffix in (":append", ":clear"):
            if raw_range.endswith(suffix):
                raw_range, custom = raw_range[: -len(suffix)], suffix[1:]
        rng = unquote(raw_range)
        call.target = f"{sid}!{rng}"[:200]
        params = request.query_params
        fields = params.get("fields")
        if custom == "clear":
            if method != "POST":
                raise ApiError(405, "values.clear is POST .../values/{range}:clear")
            call.operation = "POST values.clear"
            self._body(request)
            self.store.get(sid)
            parse_a1(rng)
            with self.store.edit(sid) as ss:
                cleared = clear_values(ss, rng)
            return self._json(self._mask({"spreadsheetId": sid, "clearedRange": cleared}, fields))
        if custom == "append":
            if method != "POST":
                raise ApiError(405, "values.append is POST .../values/{range}:append")
            call.operation = "POST values.append"
            body = self._body(request)
            option = self._input_option(params)
            insert = v.enum(params.get("insertDataOption"), "insertDataOption", ("OVERWRITE", "INSERT_ROWS"), default="OVERWRITE")
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
            return self._json(self._mask(out, fields))
        if method == "GET":
            call.operation = "GET values.get"
            option, dt = self._render_params(params)
            major = v.enum(params.get("majorDimension"), "majorDimension", MAJOR, default="ROWS")
            call.summary = f"{option}" + (f" {major}" if major != "ROWS" else "")
            ss = self.store.get(sid)
            return self._json(self._mask(get_values(ss, rng, option, dt, major), fields))  # type: ignore[arg-type]
        if method == "PUT":
            call.operation = "PUT values.update"
            body = self._body(request)
            option = self._input_option(params)
            rows, major = self._value_range(body, rng, "")
            call.summary = f"{self._shape(rows)} {option}"
            self.store.get(sid)
            with self.store.edit(sid) as ss:
                result = write_values(ss, rng, rows, option, major)  # type: ignore[arg-type]
            result = {"spreadsheetId": sid, **result}
            self._include_values(params, sid, result)
            return self._json(self._mask(result, fields))
        raise ApiError(405, f"No such method: {method} .../values/{{range}}")

    def _values_batch(self, request: Incoming, sid: str, custom: str, call: Call) -> Response:
        method = request.method
        params = request.query_params
        fields = params.get("fields")
        if custom == "batchGet" and method == "GET":
            call.operation = "GET values.batchGet"
            ranges = params.getlist("ranges")
            option, dt = self._render_params(params)
            major = v.enum(params.get("majorDimension"), "majorDimension", MAJOR, default="ROWS")
            call.summary = f"ranges={ranges} {option}"[:300]
            ss = self.store.get(sid)
            value_ranges = [get_values(ss, r, option, dt, major) for r in ranges]  # type: ignore[arg-type]
            return self._json(self._mask({"spreadsheetId": sid, "valueRanges": value_ranges}, fields))
        if custom == "batchUpdate" and method == "POST":
            call.operation = "POST values.batchUpdate"
            body = self._body(request)
            v.only_keys(body, {"valueInputOption", "data", "includeValuesInResponse", "responseValueRenderOption", "responseDateTimeRenderOption"}, "")
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
            totals = {"totalUpdatedRows": "updatedRows", "totalUpdatedColumns": "updatedColumns", "totalUpdatedCells": "updatedCells"}
            for total, key in totals.items():
                n = sum(r.get(key, 0) for r in responses)
                if n:
                    out[total] = n
            sheets = {r["updatedRange"].rsplit("!", 1)[0] for r in responses if r.get("updatedCells")}
            if sheets:
                out["totalUpdatedSheets"] = len(sheets)
            if responses:
                out["responses"] = responses
            return self._json(self._mask(out, fields))
        if custom == "batchClear" and method == "POST":
            call.operation = "POST values.batchClear"
            body = self._body(request)
            v.only_keys(body, {"ranges"}, "")
            ranges = [v.string(r, f"ranges[{i}]") for i, r in enumerate(v.array(body.get("ranges"), "ranges"))]
            for r in ranges:
                parse_a1(r)
            call.summary = "ranges: " + ", ".join(ranges)[:250]
            self.store.get(sid)
            with self.store.edit(sid) as ss:
                cleared = [clear_values(ss, r) for r in ranges]
            return self._json(self._mask({"spreadsheetId": sid, "clearedRanges": cleared}, fields))
        if custom.endswith("ByDataFilter"):
            raise unimplemented(f"values.{custom} is not supported by this server")
        raise ApiError(405, f"No such method: {method} .../values:{custom}")

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
                raise invalid(
                    f"Requested range [{url_range}] does not match the range in the body [{body_range}]."
                )
        return rows, major

    @staticmethod
    def _shape(rows: list[list[Any]]) -> str:
        return f"{len(rows)}x{max((len(r) for r in rows), default=0)} values"

    def _include_values(self, params: Any, sid: str, result: dict[str, Any]) -> None:
        """``includeValuesInResponse``: add ``updatedData`` rendered as asked."""
        if not v.boolean(params.get("includeValuesInResponse"), "includeValuesInResponse"):
            return
        option = v.enum(params.get("responseValueRenderOption"), "responseValueRenderOption", RENDER_OPTIONS, default="FORMATTED_VALUE")
        dt = v.enum(params.get("responseDateTimeRenderOption"), "responseDateTimeRenderOption", DATETIME_OPTIONS, default="SERIAL_NUMBER")
        rng = result.get("updatedRange")
        if rng:
            result["updatedData"] = get_values(self.store.get(sid), rng, option, dt)  # type: ignore[arg-type]

    @staticmethod
    def _mask(data: dict[str, Any], fields: str | None) -> dict[str, Any]:
        return apply_mask(data, parse_mask(fields)) if fields else data

    # -- drive -------------------------------------------------------------------------------
    def _drive(self, request: Incoming, rest: str, call: Call) -> Response:
        method = request.method
        params = {k: request.query_params.get(k) for k in request.query_params.keys()}
        owner = self.config.owner
        try:
            if rest in ("", "/"):
                if method == "GET":
                    call.operation = "GET drive.files.list"
                    call.target = "drive"
                    call.summary = f"q={params.get('q') or ''}"[:250]
                    return self._json(list_files(self.store, params, owner))
                if method == "POST":
                    call.operation = "POST drive.files.create"
                    name, parents = check_create(self._body(request))
                    call.summary = f"name={name!r}"
                    ss = self.store.create(name)
                    ss.parents = parents
                    call.target = ss.id
                    return self._json(get_file(self.store, ss.id, params, owner))
                raise ApiError(405, f"No such method: {method} /drive/v3/files", drive=True)
            if not rest.startswith("/"):
                raise drive_error(404, "Method not found.")
            file_id_raw, _, sub = rest[1:].partition("/")
            file_id = unquote(file_id_raw)
            call.target = file_id
            if sub == "copy" and method == "POST":
                call.operation = "POST drive.files.copy"
                body = self._body(request)
                v.only_keys(body, {"name", "parents", "description", "mimeType"}, "")
                source = self.store.spreadsheets.get(file_id)
                if source is None:
                    raise file_not_found(file_id)
                name = v.string(body.get("name"), "name", default=f"Copy of {source.title}", max_len=1000)
                call.summary = f"name={name!r}"
                work.charge(sum(len(s.cells) for s in source.sheets) * work.WORK_CELL_MOVE)
                copy = self.store.create(name, [s.clone() for s in source.sheets], locale=source.locale, time_zone=source.time_zone)
                copy.sheet_seq = source.sheet_seq
                return self._json(get_file(self.store, copy.id, params, owner))
            if sub == "export" and method == "GET":
                call.operation = "GET drive.files.export"
                ss = self.store.spreadsheets.get(file_id)
                if ss is None:
                    raise file_not_found(file_id)
                mime = params.get("mimeType") or ""
                call.summary = f"mimeType={mime}"
                data, media = export(ss, mime)
                return Response(data, media_type=media)
            if sub == "comments" and method == "GET":
                call.operation = "GET drive.comments.list"
                if file_id not in self.store.spreadsheets:
                    raise file_not_found(file_id)
                # Comments are not modelled: no file here has any (gspread's copy() reads them).
                out = {"kind": "drive#commentList", "comments": []}
                return self._json(apply_mask(out, parse_mask(params["fields"])) if params.get("fields") else out)
            if sub:
                raise drive_error(404, "Method not found.")
            if method == "GET":
                call.operation = "GET drive.files.get"
                return self._json(get_file(self.store, file_id, params, owner))
            if method == "DELETE":
                call.operation = "DELETE drive.files.delete"
                if file_id not in self.store.spreadsheets:
                    raise file_not_found(file_id)
                self.store.delete(file_id)
                return Response(status_code=204)
            if method == "PATCH":
                call.operation = "PATCH drive.files.update"
                changes = check_update(self._body(request))
                call.summary = ", ".join(f"{k}={val!r}" for k, val in changes.items())
                if file_id not in self.store.spreadsheets:
                    raise file_not_found(file_id)
                with self.store.edit(file_id) as ss:
                    if "name" in changes:
                        ss.title = changes["name"]
                    if "trashed" in changes:
                        ss.trashed = changes["trashed"]
                return self._json(get_file(self.store, file_id, params, owner))
            raise ApiError(405, f"No such method: {method} /drive/v3/files/{{fileId}}", drive=True)
        except ApiError as exc:
            exc.drive = True
            raise

    # -- admin plane -------------------------------------------------------------------------
    def _admin(self, request: Incoming, path: str) -> dict[str, Any]:
        method = request.method
        params = {k: request.query_params.get(k) for k in request.query_params.keys()}
        rest = path[len("/_admin") :]
        store = self.store
        if rest == "/ping" and method == "GET":
            return {"ok": True}
        if rest == "/snapshot":
            if method == "GET":
                return store.snapshot()
            if method == "PUT":
                store.restore(self._body(request))
                return {}
        if rest == "/spreadsheets":
            if method == "POST":
                return admin.create(store, self._body(request))
            if method == "GET":
                return admin.listing(store, params.get("title"))
        if rest.startswith("/spreadsheets/"):
            head, _, tail = rest[len("/spreadsheets/") :].partition("/")
            sid_raw, _, custom = head.partition(":")
            sid = unquote(sid_raw)
            if not tail and not custom and method == "DELETE":
                return admin.delete(store, sid)
            if not tail and custom == "batchUpdate" and method == "POST":
                return admin.batch_update(store, sid, self._body(request))
            if tail == "values" and method == "GET":
                return admin.values(store, sid, params)  # type: ignore[arg-type]
            if tail == "values:update" and method == "POST":
                return admin.update(store, sid, self._body(request))
            if tail == "values:append" and method == "POST":
                return admin.append(store, sid, self._body(request))
            if tail == "rows" and method == "GET":
                return admin.rows(store, sid, params)  # type: ignore[arg-type]
            if tail == "rows:find" and method == "POST":
                return admin.find(store, sid, self._body(request))
            if tail == "rows:update" and method == "POST":
                return admin.update_row(store, sid, self._body(request))
            if tail == "rows:delete" and method == "POST":
                return admin.delete_row(store, sid, self._body(request))
        raise not_found(f"No admin endpoint {method} {path}")


def create_app(config: SheetsConfig) -> SheetsServer:
    """Build a server; serve ``server.app`` with any ASGI server (uvicorn in the local backend)."""
    return SheetsServer(config)


__all__ = ["SheetsConfig", "SheetsServer", "create_app"]
