"""Safe reading of WebDAV/CalDAV XML request bodies, and the checks Radicale lacks.

Why here and not in Radicale: Radicale parses with defusedxml, but a refused DTD or entity
surfaced as a generic 500, and a deeply nested body reached code that recursed into it. We parse
first, incrementally (``iterparse``), stop at the first DTD, entity, over-deep or over-long
document, and answer with a precise 400. The parsed tree then lets the guard enforce what RFC 4918
and RFC 4791 say about protected properties and what :mod:`.limits` says about query ranges.
"""

from __future__ import annotations

import io
import re
import xml.etree.ElementTree as ET
from collections.abc import Iterator
from dataclasses import dataclass

import defusedxml
import defusedxml.ElementTree as DefusedET

from . import limits

__all__ = ["DAV", "CALDAV", "XmlRefusal", "check_shape", "parse", "properties_to_set", "query_bounds", "resource_types"]

DAV = "DAV:"
CALDAV = "urn:ietf:params:xml:ns:caldav"


class XmlRefusal(ValueError):
    """The body is not acceptable XML; ``str(exc)`` says why, for the 400 answer."""


def parse(body: bytes) -> ET.Element:
    """The document element of ``body``, parsed without DTDs, entities or external references,
    at most :data:`~.limits.MAX_XML_DEPTH` deep and :data:`~.limits.MAX_XML_ELEMENTS` long."""
    depth = elements = 0
    try:
        events = DefusedET.iterparse(io.BytesIO(body), events=("start", "end"), forbid_dtd=True)
        for event, _element in events:
            if event == "start":
                depth += 1
                elements += 1
                if depth > limits.MAX_XML_DEPTH:
                    raise XmlRefusal(f"XML nested deeper than {limits.MAX_XML_DEPTH} levels")
                if elements > limits.MAX_XML_ELEMENTS:
                    raise XmlRefusal(f"XML body has more than {limits.MAX_XML_ELEMENTS} elements")
            else:
                depth -= 1
        root = events.root  # type: ignore[attr-defined]
    except XmlRefusal:
        raise
    except defusedxml.DTDForbidden:
        raise XmlRefusal("XML document type declarations (DTDs) are not accepted") from None
    except defusedxml.EntitiesForbidden:
        raise XmlRefusal("XML entity declarations are not accepted") from None
    except defusedxml.ExternalReferenceForbidden:
        raise XmlRefusal("XML external references are not accepted") from None
    except ET.ParseError as exc:
        raise XmlRefusal(f"malformed XML: {exc}") from None
    except (LookupError, ValueError) as exc:  # e.g. an unknown encoding="..." in the declaration
        raise XmlRefusal(f"unreadable XML: {str(exc)[:200]}") from None
    if root is None:  # pragma: no cover - iterparse always has a root after a full parse
        raise XmlRefusal("empty XML document")
    return root


_DOCUMENT_ELEMENTS = {
    "PROPFIND": {f"{{{DAV}}}propfind"},
    "PROPPATCH": {f"{{{DAV}}}propertyupdate"},
    "MKCALENDAR": {f"{{{CALDAV}}}mkcalendar"},
    "MKCOL": {f"{{{DAV}}}mkcol"},
}
_PROPFIND_CHILDREN = {f"{{{DAV}}}prop", f"{{{DAV}}}allprop", f"{{{DAV}}}propname"}


def check_shape(method: str, root: ET.Element) -> None:
    """Refuse a body whose document element does not fit the method (Radicale indexed into it
    blindly and answered 500 for an empty ``propfind``)."""
    expected = _DOCUMENT_ELEMENTS.get(method)
    if expected is not None and root.tag not in expected:
        raise XmlRefusal(f"a {method} body should be {' or '.join(sorted(expected))}, not {root.tag[:80]}")
    if method == "PROPFIND" and (len(root) == 0 or root[0].tag not in _PROPFIND_CHILDREN):
        raise XmlRefusal("a DAV:propfind should start with DAV:prop, DAV:allprop or DAV:propname")


@dataclass(frozen=True)
class PropertyUpdate:
    """One property a PROPPATCH/MKCALENDAR/MKCOL body sets or removes."""

    tag: str  # Clark notation, e.g. "{DAV:}displayname"
    value_chars: int  # length of its text content (the whole serialised element for structured values)
    remove: bool


def properties_to_set(root: ET.Element) -> list[PropertyUpdate]:
    """Every property of a ``propertyupdate`` / ``mkcalendar`` / ``mkcol`` body, in order."""
    out: list[PropertyUpdate] = []
    for action in root:
        if action.tag not in (f"{{{DAV}}}set", f"{{{DAV}}}remove"):
            continue
        for prop in action.iter(f"{{{DAV}}}prop"):
            for element in prop:
                text = "".join(element.itertext())
                size = len(text) if len(element) == 0 else len(ET.tostring(element, encoding="unicode"))
                out.append(PropertyUpdate(element.tag, size, action.tag.endswith("remove")))
    return out


def resource_types(root: ET.Element) -> set[str]:
    """The ``DAV:resourcetype`` children an extended MKCOL (RFC 5689) asks for."""
    return {child.tag for rt in root.iter(f"{{{DAV}}}resourcetype") for child in rt}


_UTC_STAMP = re.compile(r"^(\d{4})(\d{2})(\d{2})T(\d{2})(\d{2})(\d{2})Z$")
_RANGE_ELEMENTS = ("time-range", "expand", "limit-recurrence-set", "limit-freebusy-set")


def query_bounds(root: ET.Element) -> Iterator[tuple[str, str, int | None]]:
    """``(element, attribute value, year or None if unparseable)`` of every date bound in a REPORT."""
    for name in _RANGE_ELEMENTS:
        for element in root.iter(f"{{{CALDAV}}}{name}"):
            for attribute in ("start", "end"):
                value = element.get(attribute)
                if value is None:
                    continue
                match = _UTC_STAMP.match(value.strip())
                yield name, value, int(match.group(1)) if match else None
