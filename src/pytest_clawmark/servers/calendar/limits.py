"""Every limit of the calendar (CalDAV) server, in one place.

Why limits at all: the agent under test is untrusted code, and the harness reads the calendar
after every turn (snapshots, checkers) with no turn time limit to save it. Each limit below bounds
either one request's cost (so Radicale answers quickly) or the stored state's size (so a snapshot
of a calendar filled to its limits is bounded: ``python benchmarks/hostile_calendar.py``).

The values follow what real CalDAV servers enforce; Apple's Calendar Server (``MaxResourceSize``,
``MaxResourcesPerCollection``, ``MaxCollectionsPerHome``, ``MaxAttendeesPerInstance``,
``MaxAllowedInstances``) is cited where it has an equivalent. Ours are lower where the harness
re-parses every stored item (the admin plane reads iCalendar with ``icalendar``, ~60 µs a line).
An agent over a limit gets the protocol's own answer (see :mod:`.guard`): a 4xx status with a
plain-text reason, or a ``DAV:error`` body naming the RFC 4791 / RFC 4918 precondition.
"""

from __future__ import annotations

# -- HTTP framing --------------------------------------------------------------------------------
MAX_REQUEST_BYTES = 512 * 1024
"""Largest request body (413 above). Fits any legitimate calendar-multiget or PUT; Radicale's own
default is 100 MB, which would let one request hold a connection thread for a long parse."""

MAX_HEADER_BYTES = 32 * 1024
"""Total size of all request headers (431 above). nginx's default is 4 buffers of 8 KiB
(``large_client_header_buffers``); wsgiref itself allows 100 headers of 64 KiB each."""

MAX_PATH_CHARS = 1024
"""Longest decoded request path or ``Destination`` path (414 above)."""

MAX_NAME_BYTES = 200
"""Longest path segment (collection or item name) in UTF-8 bytes (414 above). Radicale stores
each name as a file name (255 bytes on Linux file systems) and in its cache folder; a longer name
made it answer 500."""

IDLE_TIMEOUT_S = 10.0
"""Seconds the server waits for the next bytes of a request before giving up (408 if a body was
announced and not sent). Real servers use 20-60 s over the internet; everything here is on
loopback."""

MAX_CONNECTIONS = 32
"""Connections served at once (one thread each); further connections wait in the listen backlog
until one finishes, as with Radicale's own ``max_connections`` (default 8)."""

# -- XML bodies (PROPFIND, PROPPATCH, REPORT, MKCALENDAR, MKCOL) -----------------------------------
MAX_XML_DEPTH = 32
"""Deepest element nesting (400 above). The deepest CalDAV request (a calendar-query with nested
comp-, prop- and param-filters) nests about 10 levels."""

MAX_XML_ELEMENTS = 20_000
"""Elements in one XML body (400 above): enough for a calendar-multiget of ``MAX_RESOURCES_PER_CALENDAR`` hrefs."""

# DTDs, entity declarations and external references are refused outright (400): CalDAV never
# needs them, and they are how billion-laughs and external-entity attacks work.

# -- collection properties (PROPPATCH, MKCALENDAR, extended MKCOL) ---------------------------------
PROPERTY_VALUE_CHARS = {
    "{DAV:}displayname": 256,
    "{urn:ietf:params:xml:ns:caldav}calendar-description": 4096,
    "{urn:ietf:params:xml:ns:caldav}calendar-timezone": 64 * 1024,
    "{http://apple.com/ns/ical/}calendar-color": 32,
    "{http://apple.com/ns/ical/}calendar-order": 16,
}
"""The only properties an agent may set, with their longest value. Everything else is protected
(RFC 4918 ``DAV:cannot-modify-protected-property``): ``resourcetype`` (changing it turned a
calendar into a plain folder, or the principal into a calendar), ``supported-calendar-component-set``
(protected after creation by RFC 4791 §5.2.3), live properties (``getetag``, ``sync-token``...)."""

CREATE_ONLY_PROPERTIES = frozenset({"{urn:ietf:params:xml:ns:caldav}supported-calendar-component-set"})
"""Properties MKCALENDAR / extended MKCOL may set at creation (RFC 4791 §5.2.3) but PROPPATCH may not."""

# -- iCalendar resources (PUT) ---------------------------------------------------------------------
MAX_RESOURCE_BYTES = 256 * 1024
"""Largest calendar object resource (RFC 4791 ``CALDAV:max-resource-size``, 403). Apple's Calendar
Server allows 1 MiB; parsing costs grow with the size, in Radicale and in every snapshot."""

MAX_RESOURCE_LINES = 5_000
"""Content lines in one resource (403 ``CALDAV:max-resource-size``): parse time grows with lines,
~0.3 s for 5,000 in both Radicale (vobject) and the admin plane (icalendar). A recurring meeting
with a hundred overridden instances needs about 1,500."""

MAX_ATTENDEES_PER_INSTANCE = 100
"""Attendees of one component (RFC 4791 ``CALDAV:max-attendees-per-instance``, 403); Apple's
Calendar Server uses 100 as well."""

MAX_INSTANCES = 10_000
"""Occurrences one recurrence rule may produce (RFC 4791 ``CALDAV:max-instances``, 403, checked for
``COUNT`` here and for ``UNTIL`` by Radicale's ``max_vevent_rrule_occurrence``, whose default this
is); Apple's Calendar Server indexes at most 3,000 instances (``MaxAllowedInstances``)."""

SUB_DAILY_FREQUENCIES = frozenset({"SECONDLY", "MINUTELY", "HOURLY"})
"""Recurrence frequencies finer than daily are accepted only with ``COUNT`` or ``UNTIL`` and no
``BY`` parts (403 ``CALDAV:max-instances`` otherwise): an endless ``FREQ=SECONDLY`` rule made a
time-range REPORT iterate for minutes, and a ``BY`` part that rarely matches makes dateutil search
for years between occurrences. Calendar apps (Google Calendar, Outlook) offer nothing finer than daily."""

MAX_EXPANDING_BY_VALUES = 1
"""Values allowed in ``BYHOUR``, ``BYMINUTE`` and ``BYSECOND`` of a daily or coarser rule: more
would make it sub-daily (``FREQ=DAILY;BYMINUTE=0,1,...``)."""

MAX_QUERY_OCCURRENCES = 200_000
"""Occurrences a time-range REPORT may make Radicale iterate over the queried calendars (403
above; ~6 µs each, so about a second). Radicale iterates each recurring event from its DTSTART to
the end of the range: an endless daily event from 1970 queried in 2099 costs ~47,000."""

MIN_YEAR = 1970
"""Earliest year of any date in a resource or a query (RFC 4791 ``CALDAV:min-date-time``, 403).
Recurrence expansion iterates from DTSTART, so an early DTSTART makes every query slow."""

MAX_YEAR = 2099
"""Latest year of any date in a resource or a query (RFC 4791 ``CALDAV:max-date-time``, 403)."""

# -- stored state (per account) --------------------------------------------------------------------
MAX_CALENDARS_PER_ACCOUNT = 20
"""Calendar collections in one account (403 on MKCALENDAR above). Apple's Calendar Server: 50
(``MaxCollectionsPerHome``); Google Calendar caps how many calendars one can create a day."""

MAX_RESOURCES_PER_CALENDAR = 1_000
"""Items in one calendar (403 on PUT above). Apple's Calendar Server: 10,000
(``MaxResourcesPerCollection``); ours is lower because Radicale's PUT and REPORT cost grows with
the calendar's size and the admin plane parses every item for a snapshot."""

MAX_RESOURCES_PER_ACCOUNT = 2_000
"""Items over all of an account's calendars (403 on PUT above): a snapshot costs ~0.6 ms an item
(icalendar), plus ~1.6 ms an item the first time Radicale reads an item it has not cached."""

MAX_ACCOUNT_BYTES = 2 * 1024 * 1024
"""Stored iCalendar bytes of one account (403 on PUT above; RFC 4331 quota, reported as a 403 with
a ``DAV:error`` rather than 507 so that clients see a client-side refusal). Bounds a snapshot."""
