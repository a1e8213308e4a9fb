"""The Drive v3 ``files`` endpoints a spreadsheet workflow needs, over the same store.

Why Drive at all: clients find spreadsheets by *name* through Drive (gspread's ``open(title)``
lists files with ``q``; ``create`` and ``del_spreadsheet`` go through Drive too). Only Google
Sheets files exist on this server; creating any other kind of file is refused clearly.

The ``q`` language is parsed properly (``and``/``or``/``not``, parentheses, single- or
double-quoted strings) for the terms spreadsheet work uses: ``name``, ``mimeType``,
``trashed``, ``starred``, ``createdTime``, ``modifiedTime``, ``fullText``, ``parents``,
``owners`` and ``sharedWithMe``. ``contains`` on names is a case-insensitive substring match
(Drive's is a word-prefix match — a superset, so agents are never surprised by a miss).
"""

from __future__ import annotations

import base64
import csv
import io
import re
from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime, timezone
from typing import Any

from . import validate as v
from . import work
from .errors import ApiError
from .fields import apply_mask, parse_mask
from .resource import spreadsheet_url
from .store import Spreadsheet, Store
from .values import read_matrix

SHEETS_MIME = "application/vnd.google-apps.spreadsheet"
FOLDER_MIME = "application/vnd.google-apps.folder"
DEFAULT_FILE_FIELDS = ("kind", "id", "name", "mimeType")


def drive_error(code: int, message: str, location: str | None = None) -> ApiError:
    return ApiError(code, message, location=location, drive=True)


def file_not_found(file_id: str) -> ApiError:
    return drive_error(404, f"File not found: {file_id}.", "fileId")


@dataclass(frozen=True)
class Owner:
    """The account that owns every file (the person the agent works for)."""

    name: str = ""
    email: str = ""


def file_json(ss: Spreadsheet, owner: Owner) -> dict[str, Any]:
    """The full Drive ``File`` resource of a spreadsheet (callers narrow it with ``fields``)."""
    out: dict[str, Any] = {
        "kind": "drive#file",
        "id": ss.id,
        "name": ss.title,
        "mimeType": SHEETS_MIME,
        "starred": False,
        "trashed": ss.trashed,
        "explicitlyTrashed": ss.trashed,
        "parents": list(ss.parents),
        "webViewLink": spreadsheet_url(ss.id),
        "createdTime": ss.created,
        "modifiedTime": ss.modified,
        "modifiedByMe": True,
        "ownedByMe": True,
        "shared": False,
        "capabilities": {"canEdit": True, "canDelete": True, "canTrash": True, "canRename": True},
    }
    if owner.email:
        out["owners"] = [{"kind": "drive#user", "displayName": owner.name, "emailAddress": owner.email, "me": True}]
    return out


def narrow(
    data: dict[str, Any], fields: str | None, default: Callable[[dict[str, Any]], dict[str, Any]]
) -> dict[str, Any]:
    return apply_mask(data, parse_mask(fields)) if fields else default(data)


# -- the q language ----------------------------------------------------------------------------
_TOKEN_RE = re.compile(
    r"""\s*(?:
        (?P<str>'(?:[^'\\]|\\.)*'|"(?:[^"\\]|\\.)*")
      | (?P<op><=|>=|!=|=|<|>)
      | (?P<paren>[()])
      | (?P<word>[A-Za-z_][A-Za-z0-9_.]*)
      | (?P<num>-?\d+(?:\.\d+)?)
    )""",
    re.VERBOSE,
)
_FIELDS = {
    "name",
    "mimeType",
    "trashed",
    "starred",
    "createdTime",
    "modifiedTime",
    "fullText",
    "parents",
    "owners",
    "sharedWithMe",
    "writers",
    "readers",
}


def _bad_q(detail: str = "") -> ApiError:
    return drive_error(400, "Invalid Value" + (f": {detail}" if detail else ""), "q")


def _tokenize(q: str) -> list[tuple[str, str]]:
    tokens: list[tuple[str, str]] = []
    pos = 0
    q = q.rstrip()
    while pos < len(q):
        m = _TOKEN_RE.match(q, pos)
        if not m:
            raise _bad_q(f"cannot read the query at character {pos + 1}")
        kind = m.lastgroup or ""
        text = m.group(kind)
        if kind == "str":
            text = re.sub(r"\\(.)", r"\1", text[1:-1])
        tokens.append((kind, text))
        pos = m.end()
    return tokens


Predicate = Callable[[dict[str, Any]], bool]


def _time(value: str) -> datetime:
    try:
        when = datetime.fromisoformat(value.replace("Z", "+00:00"))
    except ValueError:
        raise _bad_q(f"{value!r} is not an RFC 3339 date-time") from None
    return when if when.tzinfo else when.replace(tzinfo=timezone.utc)


def _compare(op: str, a: Any, b: Any) -> bool:
    return {"=": a == b, "!=": a != b, "<": a < b, "<=": a <= b, ">": a > b, ">=": a >= b}[op]


def _term(field: str, op: str, value: Any, user_email: str) -> Predicate:
    if field not in _FIELDS:
        raise _bad_q(f"unsupported query term {field!r}")
    if field in ("name", "mimeType"):
        if not isinstance(value, str):
            raise _bad_q(f"{field} takes a quoted string")
        key = "name" if field == "name" else "mimeType"
        if op == "contains":
            needle = value.casefold()
            return lambda f: needle in f[key].casefold()
        if op not in ("=", "!="):
            raise _bad_q(f"{field} supports =, != and contains")
        return lambda f: _compare(op, f[key], value)
    if field in ("trashed", "starred", "sharedWithMe"):
        if not isinstance(value, bool) or op not in ("=", "!="):
            raise _bad_q(f"{field} takes = or != with true or false")
        return lambda f: _compare(op, bool(f.get(field, False)), value)
    if field in ("createdTime", "modifiedTime"):
        if not isinstance(value, str) or op == "contains":
            raise _bad_q(f"{field} compares with a quoted RFC 3339 date-time")
        when = _time(value)
        return lambda f: _compare(op, _time(f[field]), when)
    if field == "fullText":
        if op != "contains" or not isinstance(value, str):
            raise _bad_q("fullText supports contains with a quoted string")
        needle = value.casefold()
        return lambda f: needle in f["_text"]
    if op != "in" or not isinstance(value, str):
        raise _bad_q(f"{field} is queried as 'value' in {field}")
    if field == "parents":
        return lambda f: value in f["parents"]
    if field == "owners":
        return lambda f: value == "me" or (bool(user_email) and value.casefold() == user_email.casefold())
    return lambda f: False  # writers / readers: nobody else has access in a private world


MAX_QUERY_DEPTH = 32
"""Deepest nesting of parentheses and ``not`` in a ``q`` query (each level is a recursive call)."""


def parse_query(q: str, user_email: str = "") -> Predicate:
    """Compile a Drive ``q`` string into a predicate over file dicts."""
    if len(q) > 5000:
        raise _bad_q("query too long")
    tokens = _tokenize(q)
    pos = 0

    def peek() -> tuple[str, str] | None:
        return tokens[pos] if pos < len(tokens) else None

    def take() -> tuple[str, str]:
        nonlocal pos
        if pos >= len(tokens):
            raise _bad_q("unexpected end of query")
        pos += 1
        return tokens[pos - 1]

    def value_of(tok: tuple[str, str]) -> Any:
        kind, text = tok
        if kind == "str":
            return text
        if kind == "word" and text.lower() in ("true", "false"):
            return text.lower() == "true"
        if kind == "num":
            return float(text)
        raise _bad_q(f"expected a value, found {text!r}")

    depth = 0

    def primary() -> Predicate:
        nonlocal depth
        depth += 1
        try:
            if depth > MAX_QUERY_DEPTH:
                raise _bad_q(f"the query nests more than {MAX_QUERY_DEPTH} levels deep")
            return term()
        finally:
            depth -= 1

    def term() -> Predicate:
        tok = take()
        if tok == ("paren", "("):
            inner = disjunction()
            if take() != ("paren", ")"):
                raise _bad_q("unbalanced parentheses")
            return inner
        if tok[0] == "word" and tok[1].lower() == "not":
            inner = primary()
            return lambda f: not inner(f)
        if tok[0] == "str":  # 'value' in field
            word = take()
            if word[0] != "word" or word[1].lower() != "in":
                raise _bad_q("expected 'in' after a quoted value")
            field = take()
            if field[0] != "word":
                raise _bad_q("expected a field after 'in'")
            return _term(field[1], "in", tok[1], user_email)
        if tok[0] != "word":
            raise _bad_q(f"unexpected {tok[1]!r}")
        op_tok = take()
        if op_tok[0] == "op":
            op = op_tok[1]
        elif op_tok[0] == "word" and op_tok[1].lower() in ("contains", "in", "has"):
            op = op_tok[1].lower()
        else:
            raise _bad_q(f"expected an operator after {tok[1]!r}")
        if op == "in":  # gspread writes `parents in "folder-id"`
            return _term(tok[1], "in", value_of(take()), user_email)
        return _term(tok[1], op, value_of(take()), user_email)

    def conjunction() -> Predicate:
        parts = [primary()]
        while (t := peek()) is not None and t[0] == "word" and t[1].lower() == "and":
            take()
            parts.append(primary())
        return lambda f: all(p(f) for p in parts)

    def disjunction() -> Predicate:
        parts = [conjunction()]
        while (t := peek()) is not None and t[0] == "word" and t[1].lower() == "or":
            take()
            parts.append(conjunction())
        return lambda f: any(p(f) for p in parts)

    if not tokens:
        return lambda f: True
    predicate = disjunction()
    if pos != len(tokens):
        raise _bad_q(f"unexpected {tokens[pos][1]!r}")
    return predicate


# -- endpoints ---------------------------------------------------------------------------------
_ORDER_KEYS = {
    "name",
    "name_natural",
    "createdTime",
    "modifiedTime",
    "folder",
    "starred",
    "recency",
    "viewedByMeTime",
    "quotaBytesUsed",
    "sharedWithMeTime",
    "modifiedByMeTime",
}


def _order(files: list[dict[str, Any]], order_by: str) -> list[dict[str, Any]]:
    keys = []
    for part in order_by.split(","):
        bits = part.split()
        if not bits or len(bits) > 2 or bits[0] not in _ORDER_KEYS or (len(bits) == 2 and bits[1].lower() != "desc"):
            raise drive_error(400, f"Invalid Value: orderBy {order_by!r}", "orderBy")
        keys.append((bits[0], len(bits) == 2))
    for key, desc in reversed(keys):
        field = {
            "name_natural": "name",
            "recency": "modifiedTime",
            "viewedByMeTime": "modifiedTime",
            "modifiedByMeTime": "modifiedTime",
        }.get(key, key)
        if field in ("folder", "starred", "quotaBytesUsed", "sharedWithMeTime"):
            continue  # the same for every file here
        files = sorted(files, key=lambda f: f[field].casefold() if field == "name" else f[field], reverse=desc)
    return files


def _page_token(offset: int) -> str:
    return base64.urlsafe_b64encode(f"offset:{offset}".encode()).decode().rstrip("=")


def _offset(token: str) -> int:
    try:
        text = base64.urlsafe_b64decode(token + "=" * (-len(token) % 4)).decode()
        kind, _, n = text.partition(":")
        if kind != "offset" or not n.isdigit():
            raise ValueError
        return int(n)
    except (ValueError, UnicodeDecodeError):
        raise drive_error(400, "Invalid Value: pageToken", "pageToken") from None


def _text(ss: Spreadsheet) -> str:
    work.charge(sum(len(sheet.cells) for sheet in ss.sheets) * work.WORK_CELL_MOVE)
    parts = [ss.title]
    for sheet in ss.sheets:
        parts.append(sheet.title)
        parts.extend(str(c.value) for c in sheet.cells.values() if c.formula is None and c.value is not None)
    return "\n".join(parts).casefold()


def list_files(store: Store, params: dict[str, str], owner: Owner) -> dict[str, Any]:
    """``files.list``: filter with ``q``, order, page; every spreadsheet in creation order by default."""
    q = params.get("q") or ""
    predicate = parse_query(q, owner.email)
    page_size = v.integer(params.get("pageSize"), "pageSize", default=100, low=1, high=1000)
    offset = _offset(params["pageToken"]) if params.get("pageToken") else 0
    needs_text = "fulltext" in q.lower()
    matches = []
    for ss in store.spreadsheets.values():
        f = file_json(ss, owner)
        if needs_text:
            f["_text"] = _text(ss)
        if predicate(f):
            f.pop("_text", None)
            matches.append(f)
    if params.get("orderBy"):
        matches = _order(matches, params["orderBy"])
    page = matches[offset : offset + page_size]
    out: dict[str, Any] = {"kind": "drive#fileList", "incompleteSearch": False, "files": page}
    if offset + page_size < len(matches):
        out["nextPageToken"] = _page_token(offset + page_size)
    fields = params.get("fields")
    if fields:
        return apply_mask(out, parse_mask(fields))
    out["files"] = [{k: f[k] for k in DEFAULT_FILE_FIELDS} for f in page]
    return out


def _default_file(f: dict[str, Any]) -> dict[str, Any]:
    return {k: f[k] for k in DEFAULT_FILE_FIELDS}


def get_file(store: Store, file_id: str, params: dict[str, str], owner: Owner) -> dict[str, Any]:
    ss = store.spreadsheets.get(file_id)
    if ss is None:
        raise file_not_found(file_id)
    return narrow(file_json(ss, owner), params.get("fields"), _default_file)


def check_create(body: dict[str, Any]) -> tuple[str, list[str]]:
    """Validate a ``files.create`` body: (name, parents). Only Google Sheets files can exist here."""
    v.only_keys(
        body,
        {
            "name",
            "mimeType",
            "parents",
            "description",
            "starred",
            "properties",
            "appProperties",
            "kind",
            "id",
            "folderColorRgb",
            "writersCanShare",
            "copyRequiresWriterPermission",
        },
        "",
    )
    mime = body.get("mimeType")
    if mime != SHEETS_MIME:
        raise drive_error(
            400,
            f"This Drive holds Google Sheets only: mimeType must be {SHEETS_MIME!r} (got {mime!r}).",
            "mimeType",
        )
    name = v.string(body.get("name"), "name", default="Untitled spreadsheet", max_len=1000)
    parents = [v.string(p, "parents[]", max_len=200) for p in v.array(body.get("parents"), "parents", max_len=10)]
    return name, parents or ["root"]


def check_update(body: dict[str, Any]) -> dict[str, Any]:
    """Validate a ``files.update`` body: name and trashed change; other fields are tolerated."""
    v.only_keys(
        body,
        {
            "name",
            "trashed",
            "starred",
            "description",
            "mimeType",
            "properties",
            "appProperties",
            "kind",
            "id",
            "parents",
            "writersCanShare",
            "copyRequiresWriterPermission",
        },
        "",
    )
    changes: dict[str, Any] = {}
    if "name" in body:
        name = v.string(body["name"], "name", max_len=1000)
        if not name.strip():
            raise drive_error(400, "Invalid Value: name cannot be empty", "name")
        changes["name"] = name
    if "trashed" in body:
        changes["trashed"] = v.boolean(body["trashed"], "trashed")
    if body.get("mimeType") not in (None, SHEETS_MIME):
        raise drive_error(400, "Invalid Value: the mimeType of a file cannot change", "mimeType")
    return changes


EXPORT_TYPES = {"text/csv": ",", "text/tab-separated-values": "\t"}


def export(ss: Spreadsheet, mime: str) -> tuple[bytes, str]:
    """``files.export``: the first sheet as CSV or TSV of its formatted values (as Drive does)."""
    if mime not in EXPORT_TYPES:
        raise drive_error(
            400, f"Export only supports {', '.join(EXPORT_TYPES)} on this server (got {mime!r}).", "mimeType"
        )
    sheet = ss.sheets[0]
    rows = read_matrix(ss, sheet, 0, 0, sheet.row_count, sheet.column_count)
    width = max((len(r) for r in rows), default=0)
    buf = io.StringIO()
    writer = csv.writer(buf, delimiter=EXPORT_TYPES[mime], lineterminator="\r\n")
    for row in rows:
        writer.writerow(list(row) + [""] * (width - len(row)))
    return buf.getvalue().encode("utf-8"), mime
