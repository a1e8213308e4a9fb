"""A per-world Radicale: its configuration, its htpasswd file and its WSGI application.

Settings that matter (docs/world.md):

* ``auth.delay = 0`` and ``server.delay_on_error = 0``: Radicale sleeps ~1 s on every 401/403
  and on every 5xx by default; a CalDAV client's first request is always a 401 challenge;
* no configuration files are read (``/etc/radicale/config`` or the user's would leak in);
* ``storage._filesystem_fsync = False``: a world is thrown away after its trial, so fsync buys
  nothing and costs milliseconds per write;
* ``rights.type = owner_only``: each person sees only their own calendars;
* ``rights.permit_overwrite_collection = False``: a PUT on a collection URL replaced the whole
  calendar (a Radicale extension no CalDAV client needs); real servers answer it with 403/405;
* the size and recurrence limits come from :mod:`.limits` (the guard in front enforces the rest);
* ``storage.type`` is Radicale's ``multifilesystem`` counting its writes (:mod:`.storage`), so
  the admin plane's item cache knows when to look again;
* the web UI is off.
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path

import radicale
import radicale.config
import radicale.storage

from . import limits

__all__ = ["RadicaleSetup", "build_configuration"]


def build_configuration(root: Path, htpasswd: Path) -> radicale.config.Configuration:
    """Radicale's configuration for one world (defaults + ours, no files)."""
    configuration = radicale.config.load([])
    configuration.update(
        {
            "server": {
                "delay_on_error": "0",
                "max_content_length": str(limits.MAX_REQUEST_BYTES),
                "max_resource_size": str(limits.MAX_RESOURCE_BYTES),
                "max_vevent_rrule_occurrence": str(limits.MAX_INSTANCES),
            },
            "auth": {
                "type": "htpasswd",
                "htpasswd_filename": str(htpasswd),
                "htpasswd_encryption": "plain",
                "delay": "0",
            },
            "rights": {"type": "owner_only", "permit_overwrite_collection": "False"},
            "storage": {
                "type": "pytest_clawmark.servers.calendar.storage",  # multifilesystem, counting writes
                "filesystem_folder": str(root / "collections"),
                "_filesystem_fsync": "False",
            },
            "web": {"type": "none"},
            "logging": {"level": "warning", "mask_passwords": "True"},
        },
        "clawmark world",
        privileged=True,
    )
    return configuration


class RadicaleSetup:
    """The world's Radicale application and an admin handle on the same storage."""

    def __init__(self, root: Path, passwords: Mapping[str, str]) -> None:
        # Radicale logs a warning when it has to create its storage folders: make them first.
        (root / "collections" / "collection-root").mkdir(parents=True, exist_ok=True)
        self.htpasswd = root / "htpasswd"
        # Plain htpasswd: per-world random secrets in the world's private folder (never the
        # agent's workspace); bcrypt would cost ~0.2 s per login.
        self.htpasswd.write_text("".join(f"{login}:{pw}\n" for login, pw in passwords.items()), encoding="utf-8")
        self.configuration = build_configuration(root, self.htpasswd)
        self.application = radicale.Application(self.configuration)
        # The admin plane's own storage object on the same folder: Radicale's storage lock is
        # a file lock (flock), so it serialises with the application's requests.
        self.storage = radicale.storage.load(self.configuration)
        self.collection_root = root / "collections" / "collection-root"
