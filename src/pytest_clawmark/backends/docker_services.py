"""The world's services on the docker backend: the same admin planes, the servers in containers.

Why subclasses of the embedded services: the admin plane (seeding, silent changes, checker reads,
snapshots) is the part checkers depend on, and it must be the *same code* on both backends, so
verdicts and messages are identical. Only where the server runs changes:

- **kb** and **sheets**: their admin planes already speak HTTP to the server (``/_admin/...``); here
  that server is :mod:`..servers.standalone` in a ``clawmark/servers`` container, reached on a
  loopback port.
- **calendar**: Radicale runs in the container on the world's own calendar folder, mounted at
  ``/data``; the admin plane keeps reading and writing those files directly (Radicale's storage
  lock is a file lock, honoured across the mount), as it does beside the embedded Radicale.

What the embedded servers got by calling into the world, the containers get over their control
plane: the in-universe clock is pushed whenever the world's changes, and the agent's requests are
pulled into the world's audit log (through the embedded service's own audit hook, so entries read
the same) whenever the log is read.
"""

from __future__ import annotations

import json
import os
from datetime import datetime
from typing import Any

import httpx

from ..servers.mail.container import IMAP_PORT, SMTP_PORT
from ..servers.mail.delivery import sent_on_disk
from ..world.calendar import DEFAULT_CALENDAR, CalendarService
from ..world.kb import KbService
from ..world.mail import MailService
from ..world.sheets import SheetsService
from .containers import PORT, ContainerError, ServiceContainer

IMAGE = "clawmark/servers:latest"
"""The image ``clawmark images build`` tags last (see :mod:`.images`)."""
MAIL_IMAGE = "clawmark/mail:latest"
MAIL_UID = 5000
"""Who owns the maildir's files while the agent works when the harness runs as root (Dovecot
refuses uid 0); a harness that is not root keeps its own uid."""


class _InContainer:
    """What the three services share: their container, its clock and its audit."""

    container: ServiceContainer | None = None
    ctx: Any
    name: str

    def _start_container(
        self,
        data: Any = None,
        extra_env: dict[str, str] | None = None,
        *,
        image: str = IMAGE,
        ports: tuple[int, ...] = (),
        as_root: bool = False,
    ) -> ServiceContainer:
        ctx = self.ctx
        env = {
            "CLAWMARK_AGENT_TOKEN": ctx.credentials.agent_token,
            "CLAWMARK_ADMIN_TOKEN": ctx.credentials.admin_token,
            "CLAWMARK_USER": json.dumps([ctx.user.name, ctx.user.email]),
            "CLAWMARK_PEOPLE": json.dumps([[p.name, p.email] for p in ctx.people]),
            **(extra_env or {}),
        }
        container = ServiceContainer(
            image,
            self.name,
            env,
            ctx.credentials.admin_token,
            world=str(ctx.root),
            data=data,
            ports=ports,
            as_root=as_root,
        )
        self.container = container.start()
        try:
            if ctx.network is not None:  # the agent's container reaches this one by its service's name
                ctx.network.attach(container.container_id, self.name)
            container.set_clock(ctx.clock())
        except BaseException:  # a world that failed to start is stopped without this service: stop its container here
            self.container = None
            container.stop()
            raise
        ctx.audit.add_source(self._pull_audit)
        return container

    _audit_lost = False

    def _pull_audit(self) -> None:
        """Runs before every read of the audit log. A container that stopped answering cannot
        say what the agent did since the last pull: that gap is recorded in the log (once), and
        the next admin-plane call fails with the container's log (ServiceUnavailable)."""
        if self.container is None or self.container.http is None or self._audit_lost:
            return
        try:
            self.container.pull_audit(self._record)  # type: ignore[attr-defined]
        except ContainerError as exc:
            self._audit_lost = True
            self.ctx.audit.record(
                self.name,
                "AUDIT LOST",
                "",
                f"the {self.name} container stopped answering; requests since the last pull are unknown: {exc}",
                "lost",
            )

    def clock_changed(self, now: datetime) -> None:
        if self.container is not None:
            self.container.set_clock(now)

    def admin_transport(self) -> Any:
        return _Guarded(self)

    def network_endpoints(self) -> dict[int, tuple[str, int]]:
        if self.container is None or not self.container.url:
            return {}
        found = {int(self.container.url.rpartition(":")[2]): (self.name, PORT)}
        found.update({published: (self.name, port) for port, published in self.container.host_ports.items()})
        return found

    def unavailable(self) -> str:
        if self.container is None:
            return ""
        return self.container.problem()

    def crashed(self) -> str:
        if self.container is None:
            return ""
        return self.container.crash()

    @property
    def url(self) -> str:
        """The agent plane: the container's port on loopback."""
        if self.container is None:
            raise RuntimeError(f"the {self.name} service is not running")
        return self.container.url

    def stop(self) -> None:
        http, self._http = getattr(self, "_http", None), None
        if isinstance(http, httpx.Client):  # the admin plane's client of the container
            http.close()
        self._stop_container()

    def _stop_container(self) -> None:
        try:
            self._pull_audit()  # the last requests, before the container goes (a lost one is noted)
        finally:
            container, self.container = self.container, None
            if container is not None:
                container.stop()


class _Guarded(httpx.HTTPTransport):
    """The admin client's transport: a container that cannot be reached is ServiceUnavailable
    (with the container's log), never an httpx error a checker would report as its own."""

    def __init__(self, service: _InContainer) -> None:
        super().__init__(verify=False)  # plain HTTP on loopback (as the embedded admin clients)
        self._service = service

    def handle_request(self, request: httpx.Request) -> httpx.Response:
        try:
            return super().handle_request(request)
        except httpx.TransportError as exc:
            container = self._service.container
            log = container.logs() if container is not None else "(no container)"
            raise ContainerError(
                f"the {self._service.name} container does not answer ({type(exc).__name__}: {exc}); its log ends:\n{log}"
            ) from None


class DockerKb(_InContainer, KbService):
    def start(self) -> None:
        self.handle = None
        self._connect(self._start_container().url)


class DockerSheets(_InContainer, SheetsService):
    def start(self) -> None:
        self.handle = None
        self._http = None  # made on first use, for self.url: the container
        self._start_container()


class DockerCalendar(_InContainer, CalendarService):
    def _serve(self, passwords: dict[str, str]) -> None:
        # the same storage folder (the admin plane's files), served by Radicale in the container
        self._start_container(
            data=self.ctx.root,
            extra_env={"CLAWMARK_PASSWORDS": json.dumps(passwords), "CLAWMARK_PROTECTED": DEFAULT_CALENDAR},
        )

    @property
    def url(self) -> str:
        return super().url + "/"  # CalDAV clients take the root collection

    def _endpoint(self) -> tuple[str, int]:
        host, _, port = super().url.removeprefix("http://").partition(":")
        return host, int(port)


class DockerMail(_InContainer, MailService):
    """Dovecot and Postfix in a ``clawmark/mail`` container, on the world's maildir (mounted at
    ``/data``); the admin plane keeps using pymap on those files (see :mod:`..servers.mail.container`)."""

    def _serve(self, passwords: dict[str, str]) -> None:
        self._imap = self._smtp = None
        maildir = self.ctx.root / "maildir"
        (maildir / ".tmp").mkdir(exist_ok=True)  # the container's pymap renames files from there
        self._owner = (os.getuid(), os.getgid()) if os.geteuid() != 0 else (MAIL_UID, MAIL_UID)
        self.before_agent()
        env = {
            "CLAWMARK_PASSWORDS": json.dumps(passwords),
            "CLAWMARK_MAIL_UID": str(self._owner[0]),
            "CLAWMARK_MAIL_GID": str(self._owner[1]),
        }
        self._start_container(data=maildir, extra_env=env, image=MAIL_IMAGE, ports=(IMAP_PORT, SMTP_PORT), as_root=True)

    @property
    def imap_port(self) -> int:
        return self._published(IMAP_PORT)

    @property
    def smtp_port(self) -> int:
        return self._published(SMTP_PORT)

    def _published(self, port: int) -> int:
        if self.container is None:
            raise RuntimeError("the mail service is not running")
        return self.container.host_ports[port]

    def before_agent(self) -> None:
        """Files the harness wrote as root (seeding, silent changes, a restore) go to the uid
        Dovecot and the filter work as, before anyone else touches the maildir."""
        super().before_agent()  # queued deliveries land first
        uid, gid = self._owner
        if os.geteuid() != 0:
            return
        for dirpath, dirnames, filenames in os.walk(self.ctx.root / "maildir"):
            for name in (dirpath, *(os.path.join(dirpath, n) for n in (*dirnames, *filenames))):
                if os.lstat(name).st_uid != uid:
                    os.lchown(name, uid, gid)

    def snapshot(self) -> dict[str, Any]:
        self._postmaster.submissions = sent_on_disk(self.ctx.root / "maildir")
        return super().snapshot()


DOCKER_SERVICES: dict[str, type] = {
    "calendar": DockerCalendar,
    "kb": DockerKb,
    "sheets": DockerSheets,
    "mail": DockerMail,
}
"""The services that run in containers on the docker backend (fs stays the workspace folder itself)."""
