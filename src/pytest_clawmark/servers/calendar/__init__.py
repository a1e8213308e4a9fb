"""Glue that hosts Radicale (CalDAV) in a world.

One concept per module: :mod:`.radicale_app` (per-world configuration and application),
:mod:`.wsgi` (threaded WSGI serving on an ephemeral loopback port, bounded connections, lingering
closes), :mod:`.guard` (the WSGI guard in front of Radicale: what it refuses, Radicale never sees)
with its helpers :mod:`.davxml` (safe XML), :mod:`.icalcheck` (iCalendar limits), :mod:`.usage`
(an account's stored size) and :mod:`.recurrence` (what a query would iterate), all bounded by
:mod:`.limits`; :mod:`.audit` (the agent's requests into the audit log), :mod:`.store` (locked
admin access to Radicale's storage), :mod:`.events` (building and reading iCalendar with
``icalendar``). Nothing here knows about pytest or the World; :mod:`pytest_clawmark.world.calendar`
wires it up.
"""
