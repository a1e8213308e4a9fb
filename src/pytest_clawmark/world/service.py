"""The contract every service of a world fulfils, whatever backend runs it.

A service has two planes (docs/world.md):

* the **agent plane**: real protocol endpoints on loopback with the agent's credentials,
  described by :meth:`Service.agent_env` (environment variables) and
  :meth:`Service.tools_markdown` (a section of the generated ``TOOLS.md``);
* the **admin plane**: the service object itself, used by turn setup (seed, mutate with a
  ``silent=`` marker) and by checkers (deterministic reads), plus :meth:`snapshot`,
  :meth:`restore` and the shared :class:`~pytest_clawmark.world.audit.AuditLog`.

Services are known by name: the built-ins in :data:`SERVICE_TYPES`, a third party's through the
entry-point group ``pytest_clawmark.services`` (``name = "package.module:ServiceClass"`` in its
``pyproject.toml``) or :func:`register_service`; all are dotted paths imported lazily, so that a
task using only ``fs`` never imports the mail or calendar stacks.
"""

from __future__ import annotations

import abc
import contextlib
import functools
import importlib
import secrets
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path
from typing import TYPE_CHECKING, Any, ClassVar

from ..servers.clock import WORLD_EPOCH as WORLD_EPOCH  # the public name of the clock's origin
from ..servers.loop import WorldLoop
from .audit import AuditLog

if TYPE_CHECKING:
    from ..faults import FaultGate, FaultPlan


class ServiceUnavailable(RuntimeError):
    """A service of the world stopped answering the harness (its container exited or cannot be
    reached). Infrastructure, never a verdict: the trial is errored (excluded from the scores),
    with the service's last log lines, and never blamed on the agent by the reference twin."""


@dataclass(frozen=True)
class Person:
    """Someone in the task's universe. Every person gets a mailbox (and calendar credentials)."""

    name: str
    email: str

    @property
    def login(self) -> str:
        return self.email


@dataclass
class Credentials:
    """Per-world secrets. The agent gets ``agent_token`` / ``agent_password``; ``admin_token``
    stays in the harness (turn setup, checkers) and is refused on agent-plane requests."""

    agent_token: str = field(default_factory=lambda: "agent-" + secrets.token_urlsafe(18))
    agent_password: str = field(default_factory=lambda: secrets.token_urlsafe(12))
    admin_token: str = field(default_factory=lambda: "admin-" + secrets.token_urlsafe(24))
    people_password: str = field(default_factory=lambda: secrets.token_urlsafe(12))


@dataclass
class ServiceContext:
    """What a service needs to start: its private folder, the world's people and secrets."""

    root: Path  # private to this service in this world; never shown to the agent
    workspace: Path  # the agent's workspace folder (the fs service)
    task_dir: Path  # the task module's folder: evidence paths are relative to it
    loop: WorldLoop
    audit: AuditLog
    user: Person  # the human the agent works for; the agent acts with this identity
    people: tuple[Person, ...]  # everyone else in the task (the user excluded)
    credentials: Credentials
    clock: Callable[[], datetime]  # the in-universe clock of the current turn (WORLD_EPOCH before the first)
    mutations: MutationLedger
    network: Any = (
        None  # the world's private network (backends.network.WorldNetwork), when the agent runs in a container
    )
    faults: FaultPlan | None = None  # the agent plane's injected faults (--clawmark-faults), if any

    def fault_gate(self, stream: str) -> FaultGate | None:
        """The fault stream a server's agent plane consults, or None when no faults are injected."""
        return self.faults.gate(stream) if self.faults is not None and self.faults.profile.active else None


class MutationLedger:
    """Records the silent mutations a turn setup applies (``silent="name"`` markers).

    Why: every silent mutation a task declares must be detected by a checker and must really
    be applied by its turn; the ledger is how the harness sees the second half.
    """

    def __init__(self) -> None:
        self.applied: list[tuple[str, str, str]] = []  # (marker, service, description)
        self.allowed: frozenset[str] | None = None

    def note(self, marker: str | None, service: str, description: str) -> None:
        if marker is None:
            return
        if self.allowed is not None and marker not in self.allowed:
            known = ", ".join(sorted(self.allowed)) or "none"
            raise ValueError(f"silent={marker!r} is not declared by this task (declared: {known})")
        self.applied.append((marker, service, description))


class Service(abc.ABC):
    """Base class of a world's service. Subclasses set :attr:`name` and implement the planes.

    A subclass is constructed with a :class:`ServiceContext` (its folder, the world's people and
    credentials, the clock, the audit log, the loop) and must implement :meth:`start`,
    :meth:`stop`, :meth:`agent_env`, :meth:`tools_markdown`, :meth:`snapshot` and
    :meth:`restore`; its other public methods are its admin plane (seeding, ``silent=``
    mutations noted with ``ctx.mutations.note``, deterministic reads for checkers). Register it
    with the ``pytest_clawmark.services`` entry-point group (docs/world.md).
    """

    name: ClassVar[str]

    def __init__(self, ctx: ServiceContext) -> None:
        self.ctx = ctx

    # -- lifecycle ---------------------------------------------------------------------------
    @abc.abstractmethod
    def start(self) -> None:
        """Start serving the agent plane. Must be fast (the whole world: well under a second)."""

    @abc.abstractmethod
    def stop(self) -> None:
        """Stop serving and release ports and threads. Must be idempotent."""

    # -- agent plane -------------------------------------------------------------------------
    @abc.abstractmethod
    def agent_env(self) -> dict[str, str]:
        """Environment variables (``CLAWMARK_*``) telling the agent how to reach this service."""

    @abc.abstractmethod
    def tools_markdown(self) -> str:
        """A section of the workspace's ``TOOLS.md``: endpoints, credentials, a usage example."""

    def ping(self) -> None:
        """Raise unless every agent-plane endpoint answers (used by benchmarks and readiness)."""

    # -- admin plane: evidence ---------------------------------------------------------------
    @abc.abstractmethod
    def snapshot(self) -> dict[str, Any]:
        """The service's whole state as JSON-able data, deterministically ordered (the same state
        gives the same bytes: evidence, ``--rerun-determinism`` and ``clawmark recheck`` rely on it)."""

    @abc.abstractmethod
    def restore(self, data: dict[str, Any]) -> None:
        """Replace the service's state with a :meth:`snapshot`.

        Args:
            data: what :meth:`snapshot` returned, possibly in another process or run.

        Raises:
            ValueError: ``data`` cannot be restored faithfully (never a partial restore).
        """

    def admin_transport(self) -> Any:
        """The httpx transport of an HTTP admin plane (None: httpx's own). A service in a container
        passes one that turns "cannot reach the server" into :class:`ServiceUnavailable`."""
        return None

    def unavailable(self) -> str:
        """'' while the service answers; else why not (checked after each agent turn)."""
        return ""

    def crashed(self) -> str:
        """'' unless the service's server stopped by itself — what the agent sent crashed it or
        filled its memory (a container's; see ``backends.containers``): the agent's doing."""
        return ""

    def clock_changed(self, now: datetime) -> None:
        """The world's clock moved (a new turn). Embedded services read ``ctx.clock`` when they
        need it; a service in a container is told (see ``backends.docker_services``)."""

    def network_endpoints(self) -> dict[int, tuple[str, int]]:
        """Published loopback port -> (name, port) on the world's private network, for a service
        in a container (see backends/network.py); embedded services have none."""
        return {}

    def before_agent(self) -> None:
        """The agent (or an author's client) is about to use the agent plane: anything the admin
        plane wrote must be servable now (the docker mail hands root-written files to Dovecot's uid)."""

    def batch(self) -> contextlib.AbstractContextManager[None]:
        """Admin writes inside the block may be stored together when it ends (a turn's setup runs
        in one: see :meth:`World.batched`). Reads inside the block still see every write."""
        return contextlib.nullcontext()

    def audit(self, since: int = 0) -> list[Any]:
        return self.ctx.audit.entries(self.name, since)

    # -- helpers for implementations ---------------------------------------------------------
    def _now(self) -> datetime:
        """The in-universe time to stamp stored things with (never the wall clock)."""
        return self.ctx.clock()

    def _record(self, operation: str, target: str, summary: str, status: str) -> None:
        """Append one agent request to the world's audit log under this service's name."""
        self.ctx.audit.record(self.name, operation, target, summary, status)


BACKENDS = ("local", "docker")
DOCKER_SERVICES = ("mail", "calendar", "kb", "sheets")
"""The services the docker backend runs in containers; fs is the workspace folder itself."""


def backend_of(name: str, backend: str) -> str:
    """Where service ``name`` runs on ``backend``: ``"docker"`` or ``"local"``."""
    return "docker" if backend == "docker" and name in DOCKER_SERVICES else "local"


SERVICE_TYPES: dict[str, str] = {
    "fs": "pytest_clawmark.world.fs:FsService",
    "mail": "pytest_clawmark.world.mail:MailService",
    "calendar": "pytest_clawmark.world.calendar:CalendarService",
    "kb": "pytest_clawmark.world.kb:KbService",
    "sheets": "pytest_clawmark.world.sheets:SheetsService",
}
"""The built-in services (see :func:`known_services` for all)."""
SERVICE_ENTRY_POINT_GROUP = "pytest_clawmark.services"
_REGISTERED: dict[str, str] = {}


def register_service(name: str, dotted: str) -> None:
    """Make service ``name`` (a lower-case identifier) available to tasks: ``dotted`` is
    ``"package.module:ServiceClass"``, a :class:`Service` subclass, imported when a world uses it.

    Raises:
        ValueError: the name is not an identifier, names a built-in, or ``dotted`` is not
            ``module:attribute``.
    """
    if not name.isidentifier() or name != name.lower():
        raise ValueError(f"a service name is a lower-case identifier, got {name!r}")
    if name in SERVICE_TYPES:
        raise ValueError(f"{name!r} is a built-in service and cannot be replaced")
    module, sep, attr = dotted.partition(":")
    if not sep or not module or not attr:
        raise ValueError(f"a service is given as 'package.module:ServiceClass', got {dotted!r}")
    _REGISTERED[name] = dotted


@functools.cache
def _plugin_services() -> dict[str, str]:
    """The entry-point group, read once per process (a read scans every installed distribution:
    ~10 ms, too much to pay per world or per service)."""
    from importlib.metadata import entry_points

    return {ep.name: ep.value for ep in entry_points(group=SERVICE_ENTRY_POINT_GROUP)}


def known_services() -> dict[str, str]:
    """Every service a task may declare, name -> dotted path: the built-ins, those registered
    with :func:`register_service`, then those of installed plugins (the entry-point group)."""
    return {**_plugin_services(), **_REGISTERED, **SERVICE_TYPES}


def service_type(name: str, backend: str = "local") -> type[Service]:
    """The class serving ``name`` on ``backend`` (``local``: embedded; ``docker``: in containers
    where the service has an image, embedded otherwise — see :data:`backend_of`)."""
    if backend == "docker" and name in DOCKER_SERVICES:
        from ..backends.docker_services import DOCKER_SERVICES as types

        return types[name]  # type: ignore[no-any-return]
    dotted = SERVICE_TYPES.get(name) or _REGISTERED.get(name) or _plugin_services().get(name)
    if dotted is None:
        raise ValueError(f"unknown service {name!r} (known: {', '.join(sorted(known_services()))})")
    module, _, attr = dotted.partition(":")
    try:
        found = getattr(importlib.import_module(module), attr)
    except (ImportError, AttributeError) as exc:
        raise ValueError(f"service {name!r} ({dotted}) cannot be loaded: {type(exc).__name__}: {exc}") from None
    if not (isinstance(found, type) and issubclass(found, Service)):
        raise ValueError(f"service {name!r} ({dotted}) is not a Service subclass")
    return found
