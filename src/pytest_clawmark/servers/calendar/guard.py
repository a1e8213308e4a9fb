"""A thin WSGI guard in front of Radicale: what it refuses, Radicale never sees.

Why: Radicale is a real CalDAV server and stays the one that implements the protocol, but hostile
input made it answer 500 (malformed Basic credentials, ``Content-Length: abc``, a refused DTD, an
over-long collection name, an unknown charset), wait for a body that never came, or accept
operations that break the world (deleting the principal, turning a calendar into a plain folder
with PROPPATCH). The guard checks, in order: header size, framing (``Content-Length``,
``Transfer-Encoding``), charset, path lengths, Basic credentials' shape, then reads the body
(bounded, with a timeout) and applies the method's checks — XML safety, protected properties,
date ranges of queries, the iCalendar limits (:mod:`.icalcheck`), the account's quotas
(:mod:`.usage`) and the destructive operations a real server refuses. Every refusal is a 4xx (or a
207 whose per-property status is 403, as RFC 4918 specifies for PROPPATCH) with a readable reason.

The guard leaves the body it read in ``environ[BODY_KEY]`` so the audit middleware can describe
the request without reading the socket itself.
"""

from __future__ import annotations

import base64
import binascii
import codecs
import io
import re
import xml.etree.ElementTree as ET
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from http import HTTPStatus
from pathlib import Path
from typing import Any
from urllib.parse import unquote, urlsplit

from radicale import pathutils
from radicale import utils as radicale_utils

from . import davxml, icalcheck, limits, recurrence, usage
from .davxml import CALDAV, DAV

__all__ = ["BODY_KEY", "RequestGuard", "Refusal"]

BODY_KEY = "clawmark.body"
"""The environ key under which the guard leaves the request body it read (bytes)."""

REALM = "Radicale - Password Required"
"""Radicale's default realm, so a 401 from the guard looks like one from Radicale."""

XML_METHODS = frozenset({"PROPFIND", "PROPPATCH", "REPORT", "MKCALENDAR", "MKCOL"})
_CLAWMARK_NS = "https://clawmark.invalid/ns/caldav"
_CALENDAR_TYPES = {f"{{{DAV}}}collection", f"{{{CALDAV}}}calendar"}
_CHARSET = re.compile(r"charset\s*=\s*\"?([^\";\s]*)", re.IGNORECASE)

StartResponse = Callable[..., Any]


@dataclass
class Refusal:
    """An answer the guard gives instead of Radicale."""

    status: int
    body: bytes
    content_type: str = "text/plain; charset=utf-8"
    headers: list[tuple[str, str]] = field(default_factory=list)

    def respond(self, start_response: StartResponse) -> Iterable[bytes]:
        status = f"{self.status} {HTTPStatus(self.status).phrase}"
        start_response(
            status,
            [("Content-Type", self.content_type), ("Content-Length", str(len(self.body))), *self.headers],
        )
        return [self.body]


def plain(status: int, reason: str, headers: list[tuple[str, str]] | None = None) -> Refusal:
    return Refusal(status, (reason + "\n").encode("utf-8"), headers=headers or [])


def dav_error(status: int, precondition: str, reason: str) -> Refusal:
    """A ``DAV:error`` body naming the precondition (RFC 4918 §16), with the reason beside it."""
    root = ET.Element(f"{{{DAV}}}error")
    ET.SubElement(root, precondition)
    ET.SubElement(root, f"{{{_CLAWMARK_NS}}}reason").text = reason
    body = ET.tostring(root, encoding="utf-8", xml_declaration=True)
    return Refusal(status, body, "application/xml; charset=utf-8")


def _proppatch_multistatus(href: str, refused: dict[str, str], others: list[str]) -> Refusal:
    """RFC 4918 §9.2.1: 403 for each refused property, 424 for the rest (nothing is applied)."""
    root = ET.Element(f"{{{DAV}}}multistatus")
    response = ET.SubElement(root, f"{{{DAV}}}response")
    ET.SubElement(response, f"{{{DAV}}}href").text = href
    for tag, reason in refused.items():
        propstat = ET.SubElement(response, f"{{{DAV}}}propstat")
        ET.SubElement(ET.SubElement(propstat, f"{{{DAV}}}prop"), tag)
        ET.SubElement(propstat, f"{{{DAV}}}status").text = "HTTP/1.1 403 Forbidden"
        error = ET.SubElement(propstat, f"{{{DAV}}}error")
        ET.SubElement(error, f"{{{DAV}}}cannot-modify-protected-property")
        ET.SubElement(propstat, f"{{{DAV}}}responsedescription").text = reason
    if others:
        propstat = ET.SubElement(response, f"{{{DAV}}}propstat")
        prop = ET.SubElement(propstat, f"{{{DAV}}}prop")
        for tag in others:
            ET.SubElement(prop, tag)
        ET.SubElement(propstat, f"{{{DAV}}}status").text = "HTTP/1.1 424 Failed Dependency"
    body = ET.tostring(root, encoding="utf-8", xml_declaration=True)
    return Refusal(207, body, "application/xml; charset=utf-8")


@dataclass(frozen=True)
class Target:
    """A request path as segments: ``[]`` root, ``[owner]`` principal, ``[owner, calendar]``,
    ``[owner, calendar, href]``."""

    path: str
    segments: tuple[str, ...]

    @classmethod
    def of(cls, raw_path: str) -> Target:
        sane = pathutils.sanitize_path(raw_path)
        stripped = pathutils.strip_path(sane)
        return cls(sane, tuple(stripped.split("/")) if stripped else ())


def _path_refusal(path: str, what: str) -> Refusal | None:
    if len(path) > limits.MAX_PATH_CHARS:
        return plain(414, f"{what} is {len(path)} characters long; the limit is {limits.MAX_PATH_CHARS}")
    for segment in path.split("/"):
        size = len(segment.encode("utf-8", "surrogatepass"))
        if size > limits.MAX_NAME_BYTES:
            return plain(
                414,
                f"a collection or item name in the {what} is {size} bytes long; the limit is {limits.MAX_NAME_BYTES}",
            )
    return None


class RequestGuard:
    """WSGI middleware enforcing :mod:`.limits` in front of ``app`` (Radicale)."""

    def __init__(
        self, app: Callable[..., Iterable[bytes]], collection_root: Path, protected_calendars: Iterable[str] = ()
    ) -> None:
        self.app = app
        self.collection_root = collection_root
        self.protected_calendars = frozenset(protected_calendars)

    def __call__(self, environ: dict[str, Any], start_response: StartResponse) -> Iterable[bytes]:
        refusal = self.check(environ)
        if refusal is not None:
            return refusal.respond(start_response)
        return self.app(environ, start_response)

    # -- the checks, in order ----------------------------------------------------------------
    def check(self, environ: dict[str, Any]) -> Refusal | None:
        method = str(environ.get("REQUEST_METHOD", "")).upper()
        refusal = self._framing(environ) or self._paths(environ) or self._credentials(environ)
        if refusal is not None:
            return refusal
        body_or_refusal = self._read_body(environ)
        if isinstance(body_or_refusal, Refusal):
            return body_or_refusal
        body = body_or_refusal
        target = Target.of(str(environ.get("PATH_INFO", "")))
        root: ET.Element | None = None
        if method in XML_METHODS and body.strip():
            try:
                root = davxml.parse(body)
                davxml.check_shape(method, root)
            except davxml.XmlRefusal as exc:
                return plain(400, f"refused XML body: {exc}")
        if method == "PROPPATCH":
            return self._proppatch(target, root)
        if method in ("MKCALENDAR", "MKCOL"):
            return self._make_collection(method, target, root)
        if method == "REPORT" and root is not None:
            return self._report(target, root)
        if method == "PUT":
            return self._put(target, body)
        if method == "DELETE":
            return self._delete(target)
        if method == "MOVE":
            return self._move(target, environ)
        return None

    def _framing(self, environ: dict[str, Any]) -> Refusal | None:
        header_bytes = sum(len(k) + len(str(v)) for k, v in environ.items() if k.startswith("HTTP_"))
        header_bytes += len(str(environ.get("CONTENT_TYPE", ""))) + len(str(environ.get("CONTENT_LENGTH", "")))
        if header_bytes > limits.MAX_HEADER_BYTES:
            return plain(431, f"request headers total {header_bytes} bytes; the limit is {limits.MAX_HEADER_BYTES}")
        if environ.get("HTTP_TRANSFER_ENCODING"):
            return plain(411, "Transfer-Encoding is not supported here; send the body with a Content-Length")
        declared = str(environ.get("CONTENT_LENGTH") or "").strip()
        if declared and not (declared.isascii() and declared.isdigit()):
            return plain(400, f"Content-Length {declared[:40]!r} is not a non-negative decimal number")
        if declared and int(declared) > limits.MAX_REQUEST_BYTES:
            return plain(413, f"request body of {declared} bytes; the limit is {limits.MAX_REQUEST_BYTES}")
        match = _CHARSET.search(str(environ.get("CONTENT_TYPE") or ""))
        if match:
            if not _is_text_encoding(match.group(1)):
                return plain(415, f"unsupported charset {match.group(1)[:40]!r}; use utf-8")
        return None

    def _paths(self, environ: dict[str, Any]) -> Refusal | None:
        refusal = _path_refusal(str(environ.get("PATH_INFO", "")), "request path")
        if refusal is None and environ.get("HTTP_DESTINATION"):
            destination = unquote(urlsplit(str(environ["HTTP_DESTINATION"])).path)
            refusal = _path_refusal(destination, "Destination path")
            if refusal is not None:
                refusal.status = 400
        return refusal

    def _credentials(self, environ: dict[str, Any]) -> Refusal | None:
        header = str(environ.get("HTTP_AUTHORIZATION", ""))
        if not header.startswith("Basic"):  # Radicale only reads this spelling; others are anonymous
            return None
        challenge = [("WWW-Authenticate", f'Basic realm="{REALM}"')]
        encoded = header[len("Basic") :].strip()
        try:
            decoded = base64.b64decode(encoded.encode("ascii"), validate=True)
        except (UnicodeEncodeError, binascii.Error, ValueError):
            return plain(401, "malformed Basic credentials (not base64)", challenge)
        if ":" not in _as_radicale_decodes(decoded, environ):
            return plain(401, "malformed Basic credentials (no ':' between user and password)", challenge)
        return None

    def _read_body(self, environ: dict[str, Any]) -> bytes | Refusal:
        declared = str(environ.get("CONTENT_LENGTH") or "").strip()
        length = int(declared) if declared else 0
        body = b""
        if length:
            stream = environ["wsgi.input"]
            chunks: list[bytes] = []
            received = 0
            try:
                while received < length:
                    chunk = stream.read(min(length - received, 64 * 1024))
                    if not chunk:
                        break
                    chunks.append(chunk)
                    received += len(chunk)
            except TimeoutError:
                return plain(408, f"the request body did not arrive within {limits.IDLE_TIMEOUT_S:g} s")
            except OSError:
                return plain(400, "the connection failed while the request body was being read")
            body = b"".join(chunks)
            if len(body) < length:
                return plain(400, f"the request body ended after {len(body)} of {length} announced bytes")
        environ["wsgi.input"] = io.BytesIO(body)
        environ["CONTENT_LENGTH"] = str(len(body))
        environ[BODY_KEY] = body
        return body

    # -- method policies ---------------------------------------------------------------------
    def _proppatch(self, target: Target, root: ET.Element | None) -> Refusal | None:
        if root is None:
            return plain(400, "PROPPATCH needs a DAV:propertyupdate body")
        updates = davxml.properties_to_set(root)
        refused: dict[str, str] = {}
        for update in updates:
            if len(target.segments) < 2:
                refused[update.tag] = "the properties of the principal and the root are protected"
            else:
                reason = _property_refusal(update, creating=False)
                if reason:
                    refused[update.tag] = reason
        if not refused:
            return None
        others = [u.tag for u in updates if u.tag not in refused]
        return _proppatch_multistatus(target.path, refused, others)

    def _make_collection(self, method: str, target: Target, root: ET.Element | None) -> Refusal | None:
        if root is not None:
            if method == "MKCOL" and not davxml.resource_types(root) <= _CALENDAR_TYPES:
                return dav_error(403, f"{{{DAV}}}valid-resourcetype", "only calendar collections can be created here")
            for update in davxml.properties_to_set(root):
                if update.tag == f"{{{DAV}}}resourcetype" and method == "MKCOL":
                    continue
                reason = _property_refusal(update, creating=True)
                if reason:
                    return dav_error(403, f"{{{DAV}}}cannot-modify-protected-property", reason)
        if len(target.segments) == 2:
            used = usage.account_usage(self.collection_root, target.segments[0])
            if used.calendars >= limits.MAX_CALENDARS_PER_ACCOUNT:
                return dav_error(
                    403,
                    f"{{{_CLAWMARK_NS}}}max-calendars",
                    f"the account already has {used.calendars} calendars; "
                    f"the limit is {limits.MAX_CALENDARS_PER_ACCOUNT}",
                )
        return None

    def _report(self, target: Target, root: ET.Element) -> Refusal | None:
        bounds = list(davxml.query_bounds(root))
        for element, value, year in bounds:
            if year is None:
                continue  # Radicale answers 400 for a malformed date-time
            if year < limits.MIN_YEAR:
                reason = f"{element} {value[:40]!r} is before {limits.MIN_YEAR}"
                return dav_error(403, f"{{{CALDAV}}}min-date-time", reason)
            if year > limits.MAX_YEAR:
                reason = f"{element} {value[:40]!r} is after {limits.MAX_YEAR}"
                return dav_error(403, f"{{{CALDAV}}}max-date-time", reason)
        if not bounds or not target.segments:
            return None  # no time range: Radicale expands no recurrence
        ends = [year for _, _, year in bounds if year is not None]
        until = max(ends) if ends else limits.MAX_YEAR
        home = self.collection_root / target.segments[0]
        if len(target.segments) >= 2:
            folders = [home / target.segments[1]]
        else:
            folders = sorted(p for p in home.glob("*") if p.is_dir() and not p.name.startswith("."))
        cost = recurrence.estimated_occurrences(folders, until, limits.MAX_QUERY_OCCURRENCES)
        if cost > limits.MAX_QUERY_OCCURRENCES:
            return dav_error(
                403,
                f"{{{_CLAWMARK_NS}}}max-query-occurrences",
                f"this time-range query would make the server step through more than {limits.MAX_QUERY_OCCURRENCES} "
                f"occurrences of recurring events (each is followed from its DTSTART to {until}); query an earlier "
                "end date or a calendar with fewer long-running recurring events",
            )
        return None

    def _put(self, target: Target, body: bytes) -> Refusal | None:
        if len(target.segments) != 3:
            return None  # Radicale refuses PUT on collections (permit_overwrite_collection = False)
        try:
            icalcheck.check_resource(body)
        except icalcheck.IcsRefusal as exc:
            return dav_error(403, exc.precondition, exc.message)
        owner, calendar, href = target.segments
        return self._room_for(owner, calendar, usage.item_size(self.collection_root, owner, calendar, href), len(body))

    def _room_for(self, owner: str, calendar: str, replaced: int | None, size: int) -> Refusal | None:
        """Whether the account may store one more item of ``size`` bytes (replacing ``replaced`` bytes)."""
        used = usage.account_usage(self.collection_root, owner)
        if replaced is None:
            if used.items_in.get(calendar, 0) >= limits.MAX_RESOURCES_PER_CALENDAR:
                return dav_error(
                    403,
                    f"{{{_CLAWMARK_NS}}}max-resources",
                    f"the calendar already holds {used.items_in[calendar]} items; "
                    f"the limit is {limits.MAX_RESOURCES_PER_CALENDAR}",
                )
            if used.items >= limits.MAX_RESOURCES_PER_ACCOUNT:
                return dav_error(
                    403,
                    f"{{{_CLAWMARK_NS}}}max-resources",
                    f"the account already holds {used.items} items; the limit is {limits.MAX_RESOURCES_PER_ACCOUNT}",
                )
        if used.bytes - (replaced or 0) + size > limits.MAX_ACCOUNT_BYTES:
            return dav_error(
                403,
                f"{{{DAV}}}quota-not-exceeded",
                f"the account stores {used.bytes} bytes; this item would take it past the quota of "
                f"{limits.MAX_ACCOUNT_BYTES} bytes",
            )
        return None

    def _delete(self, target: Target) -> Refusal | None:
        if len(target.segments) == 1:
            return plain(403, "the principal (calendar home) cannot be deleted")
        if len(target.segments) == 2 and target.segments[1] in self.protected_calendars:
            return plain(403, f"the default calendar {target.segments[1]!r} cannot be deleted")
        return None

    def _move(self, target: Target, environ: dict[str, Any]) -> Refusal | None:
        raw = urlsplit(str(environ.get("HTTP_DESTINATION", "")))
        try:
            port = raw.port
        except ValueError:
            return plain(400, "the Destination header has an invalid port")
        if raw.netloc:
            netloc = raw.netloc if port is not None else raw.netloc + (":443" if raw.scheme == "https" else ":80")
            if netloc != radicale_utils.get_server_netloc(environ, force_port=True):
                # RFC 4918 suggests 502 for another server; a client-side refusal says the same.
                return plain(403, "MOVE can only move items within this server")
        destination = Target.of(unquote(raw.path))
        if len(target.segments) != 3 or len(destination.segments) != 3:
            return None  # Radicale moves items only
        owner, calendar, _ = destination.segments
        if (owner, calendar) == target.segments[:2]:
            return None  # a rename inside one calendar stores nothing new
        # owner_only rights keep moves inside one account: the account's bytes do not change,
        # but the destination calendar gains an item unless one is overwritten.
        replaced = usage.item_size(self.collection_root, *destination.segments)
        return self._room_for(owner, calendar, replaced, 0)


def _as_radicale_decodes(data: bytes, environ: dict[str, Any]) -> str:
    """``data`` decoded the way Radicale decodes credentials and bodies: the request's charset
    first, then UTF-8, then Latin-1 (which always succeeds)."""
    match = _CHARSET.search(str(environ.get("CONTENT_TYPE") or ""))
    for charset in ([match.group(1)] if match else []) + ["utf-8", "iso8859-1"]:
        try:
            return data.decode(charset)
        except (UnicodeDecodeError, LookupError):
            continue
    return data.decode("iso8859-1")  # pragma: no cover - Latin-1 decodes every byte string


def _is_text_encoding(name: str) -> bool:
    """Whether Radicale can decode a body in charset ``name`` (it fails with 500 otherwise)."""
    try:
        return codecs.lookup(name)._is_text_encoding  # type: ignore[attr-defined]
    except (LookupError, ValueError, TypeError):
        return False


def _property_refusal(update: davxml.PropertyUpdate, *, creating: bool) -> str:
    """Why setting this property is refused ('' if it is allowed)."""
    limit = limits.PROPERTY_VALUE_CHARS.get(update.tag)
    if limit is None and not (creating and update.tag in limits.CREATE_ONLY_PROPERTIES):
        return f"{update.tag} is protected (settable: {', '.join(sorted(limits.PROPERTY_VALUE_CHARS))})"
    if limit is not None and update.value_chars > limit:
        return f"{update.tag} is {update.value_chars} characters long; the limit is {limit}"
    return ""
