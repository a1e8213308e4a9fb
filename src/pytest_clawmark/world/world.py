"""The World bundle: one task trial's private set of services.

Turn setup and checkers receive a :class:`World`; its attributes are the admin planes of the
services the task declared (``world.fs``, ``world.mail``, ``world.calendar``, ``world.kb``,
``world.sheets``). Asking for a service the task did not declare is a clear error.
"""

from __future__ import annotations

import contextlib
import json
import os
import shutil
import time
from collections.abc import Iterable, Iterator
from datetime import datetime
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ..servers.loop import WorldLoop
from .audit import AuditLog
from .fs import FsService
from .fs_limits import WorkspaceLimits
from .service import (
    BACKENDS,
    WORLD_EPOCH,
    Credentials,
    MutationLedger,
    Person,
    Service,
    ServiceContext,
    backend_of,
    service_type,
)
from .untrusted_fs import open_regular, write_replacing

if TYPE_CHECKING:
    from ..faults import FaultPlan

TOOLS_BEGIN = "<!-- clawmark: your work systems (the harness rewrites this section every day) -->"
TOOLS_END = "<!-- /clawmark -->"
"""Markers around the harness's section of TOOLS.md: a task (upstream-format tasks ship their own
TOOLS.md) or the agent may keep their own text there; only the marked section is ours."""
TOOLS_KEEP_MAX = 1 << 20
"""Bytes of someone else's TOOLS.md kept when the harness rewrites its section."""

SERVICE_ORDER = ("fs", "mail", "calendar", "kb", "sheets")
"""Start order (fs first: the others may write into the workspace, e.g. TOOLS.md)."""


class ServiceNotDeclared(AttributeError):
    pass


class World:
    """A task trial's world. Create, :meth:`start`, use, :meth:`stop` (idempotent)."""

    parallel_containers: bool = True
    """Start a world's containers side by side (benchmarks/container_world.py compares both)."""

    def __init__(
        self,
        services: Iterable[str],
        root: Path,
        *,
        user: Person,
        people: Iterable[Person] = (),
        task_dir: Path | None = None,
        credentials: Credentials | None = None,
        fs_limits: WorkspaceLimits | None = None,
        backend: str = "local",
        agent_network: bool = False,
        faults: FaultPlan | None = None,
    ) -> None:
        if backend not in BACKENDS:
            raise ValueError(f"unknown backend {backend!r} (known: {', '.join(BACKENDS)})")
        if agent_network and backend != "docker":
            raise ValueError("agent_network needs the docker backend (the agent joins the world's containers' network)")
        self.agent_network = agent_network
        """The agent runs in a container on this world's private network (``--agent-isolation=container``):
        its addresses are the services' names there (see backends/network.py)."""
        self.network: Any = None  # the WorldNetwork, while the world runs with agent_network
        self.backend = backend
        """``local`` (every server embedded) or ``docker`` (calendar, kb and sheets in containers)."""
        names = set(services) | {"fs"}
        for n in names:
            service_type(n)  # fail early and clearly on unknown names
        self.names: tuple[str, ...] = tuple(sorted(names, key=lambda n: (SERVICE_ORDER + (n,)).index(n)))
        self.root = Path(root)
        self.workspace = self.root / "workspace"
        self.user = user
        self.people = tuple(p for p in people if p.email != user.email)
        self.task_dir = Path(task_dir) if task_dir else Path.cwd()
        self.credentials = credentials or Credentials()
        self.fs_limits = fs_limits or WorkspaceLimits()
        """Bounds of the harness's reads of the workspace (snapshots, evidence, checker reads)."""
        self.audit = AuditLog()
        self.mutations = MutationLedger()
        if faults is not None and faults.profile.active and backend != "local":
            raise ValueError(
                f"fault injection (--clawmark-faults={faults.profile.name}) runs on the local backend only: "
                f"the {backend} backend's servers take no fault profile yet"
            )
        self.faults = faults
        """The agent plane's seeded faults (``--clawmark-faults``); None: none."""
        if faults is not None:
            faults.attach(self.audit.record)
        self._services: dict[str, Service] = {}
        self._clock: datetime | None = None
        self._loop: WorldLoop | None = None
        self._snapshot_cut: dict[str, Any] = {}
        self.start_seconds: float = 0.0

    # -- lifecycle -----------------------------------------------------------------------------
    def start(self) -> World:
        t0 = time.perf_counter()
        self.root.mkdir(parents=True, exist_ok=True)
        self._loop = WorldLoop(f"clawmark-world-{self.root.name}")
        try:
            if self.agent_network:
                from ..backends.network import WorldNetwork

                self.network = WorldNetwork(str(self.root)).create()
            services: dict[str, Service] = {}
            for name in self.names:
                ctx = ServiceContext(
                    root=self.root / "services" / name,
                    workspace=self.workspace,
                    task_dir=self.task_dir,
                    loop=self._loop,
                    audit=self.audit,
                    user=self.user,
                    people=self.people,
                    credentials=self.credentials,
                    clock=self.now,
                    mutations=self.mutations,
                    network=self.network,
                    faults=self.faults,
                )
                ctx.root.mkdir(parents=True, exist_ok=True)
                svc = service_type(name, self.backend)(ctx)
                if isinstance(svc, FsService):
                    svc.limits = self.fs_limits
                services[name] = svc
            self._start_services(services)
        except BaseException:
            self.stop()
            raise
        self.write_tools_md()
        self.start_seconds = time.perf_counter() - t0
        return self

    def _start_services(self, services: dict[str, Service]) -> None:
        """Start every service, in :data:`SERVICE_ORDER`; services in containers start side by side
        (each waits on its own container, ~1 s), the embedded ones one after the other (ms)."""
        remote = [n for n in services if backend_of(n, self.backend) == "docker"]
        for name, svc in services.items():
            if name not in remote:
                svc.start()
                self._services[name] = svc
        if not remote:
            return
        from concurrent.futures import ThreadPoolExecutor

        workers = len(remote) if self.parallel_containers else 1
        with ThreadPoolExecutor(max_workers=workers, thread_name_prefix="clawmark-container") as pool:
            futures = {name: pool.submit(services[name].start) for name in remote}
        failed = []
        for name in remote:
            if futures[name].exception() is None:
                self._services[name] = services[name]  # started: stopped by stop(), like the others
            else:
                failed.append(futures[name].exception())
        self._services = {n: self._services[n] for n in services if n in self._services}  # SERVICE_ORDER
        if failed:
            raise failed[0]  # type: ignore[misc]

    def stop(self) -> None:
        def stop_one(svc: Service) -> None:
            try:
                svc.stop()
            except Exception:  # pragma: no cover - teardown must go on for the others
                pass

        remote = [n for n in self._services if backend_of(n, self.backend) == "docker"]
        if len(remote) > 1:  # containers stop side by side (~0.2 s each)
            from concurrent.futures import ThreadPoolExecutor

            with ThreadPoolExecutor(max_workers=len(remote), thread_name_prefix="clawmark-container") as pool:
                list(pool.map(stop_one, [self._services.pop(n) for n in remote]))
        for name in reversed(list(self._services)):
            stop_one(self._services[name])
        self._services.clear()
        if self._loop is not None:
            self._loop.close()
            self._loop = None
        network, self.network = self.network, None
        if network is not None:
            network.remove()

    def __enter__(self) -> World:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()

    def discard(self) -> None:
        """Stop and delete the world's folder (benchmarks, ``clawmark serve``)."""
        self.stop()
        shutil.rmtree(self.root, ignore_errors=True)

    # -- admin planes --------------------------------------------------------------------------
    def __getattr__(self, name: str) -> Any:
        services = self.__dict__.get("_services", {})
        if name in services:
            return services[name]
        if name in ("fs", "mail", "calendar", "kb", "sheets"):
            raise ServiceNotDeclared(
                f"this task does not declare the {name!r} service (declared: {', '.join(self.names)})"
            )
        raise AttributeError(name)

    def service(self, name: str) -> Service:
        return getattr(self, name)

    @property
    def services(self) -> dict[str, Service]:
        return dict(self._services)

    @property
    def clock(self) -> datetime | None:
        """The current turn's in-universe time (None before the first turn); setting it tells
        the services that keep their own clock (containers)."""
        return self._clock

    @clock.setter
    def clock(self, value: datetime | None) -> None:
        self._clock = value
        for svc in self._services.values():
            svc.clock_changed(self.now())

    @contextlib.contextmanager
    def batched(self) -> Iterator[None]:
        """Every service's :meth:`Service.batch` at once: the harness runs each turn's setup in
        one, so seeding a thousand mails is one store visit instead of a thousand."""
        with contextlib.ExitStack() as stack:
            for svc in self._services.values():
                stack.enter_context(svc.batch())
            yield

    def before_agent(self) -> None:
        """Call right before the agent's turn (or a client's use): see :meth:`Service.before_agent`."""
        for svc in self._services.values():
            svc.before_agent()

    def unavailable(self) -> list[str]:
        """Why services stopped answering (checked after each agent turn; embedded ones never do)."""
        return [f"{name}: {why}" for name, svc in self._services.items() if (why := svc.unavailable())]

    def crashed(self) -> list[str]:
        """The services whose server stopped by itself (checked after each agent turn, before
        :meth:`unavailable`): one deterministic sentence each."""
        return [why for svc in self._services.values() if (why := svc.crashed())]

    def backends(self) -> dict[str, str]:
        """Where each service of this world runs (``local`` or ``docker``), by name."""
        return {name: backend_of(name, self.backend) for name in self.names}

    def now(self) -> datetime:
        """The in-universe clock of the current turn; a fixed epoch before the first turn.

        Services stamp what they store with it (mail dates, created_time, DTSTAMP...), so the
        same seed and the same agent actions give byte-identical state on every run.
        """
        return self.clock if self.clock is not None else WORLD_EPOCH

    # -- agent plane ---------------------------------------------------------------------------
    def agent_env(self) -> dict[str, str]:
        env = {
            "CLAWMARK_USER_NAME": self.user.name,
            "CLAWMARK_USER_EMAIL": self.user.email,
        }
        for svc in self._services.values():
            env.update(svc.agent_env())
        if self.clock is not None:
            env["CLAWMARK_NOW"] = self.clock.isoformat()
        if self.network is not None:
            from ..backends.network import in_network_env

            env = in_network_env(env, self._endpoints())
        return env

    def _endpoints(self) -> dict[int, tuple[str, int]]:
        found: dict[int, tuple[str, int]] = {}
        for svc in self._services.values():
            found.update(svc.network_endpoints())
        return found

    def tools_markdown(self) -> str:
        parts = [
            "# TOOLS.md — how to reach your work systems\n",
            f"You work for {self.user.name} <{self.user.email}> and act with their accounts.\n"
            "The same values are in your environment as `CLAWMARK_*` variables.\n",
        ]
        parts += [svc.tools_markdown() for svc in self._services.values()]
        if self.network is not None:
            from ..backends.network import in_network_text

            return in_network_text("\n".join(parts), self._endpoints())
        return "\n".join(parts)

    def write_tools_md(self) -> None:
        """(Re)write the harness's section of the workspace's TOOLS.md, keeping any other text
        there (a task's own TOOLS.md is merged, not overwritten) — as a new file renamed over
        the old name: the agent may have left a link or a hard link to a host file there (see
        world/untrusted_fs.py)."""
        self.workspace.mkdir(parents=True, exist_ok=True)
        ours = f"{TOOLS_BEGIN}\n{self.tools_markdown().rstrip()}\n{TOOLS_END}\n"
        theirs = _without_section(_read_kept(self.workspace / "TOOLS.md", self.workspace))
        text = f"{theirs.rstrip()}\n\n{ours}" if theirs.strip() else ours
        fs = self._services.get("fs")
        if isinstance(fs, FsService):
            fs.write("TOOLS.md", text)
        else:
            write_replacing(self.workspace / "TOOLS.md", text, root=self.workspace)

    def ping(self) -> None:
        for svc in self._services.values():
            svc.ping()

    # -- evidence ------------------------------------------------------------------------------
    def snapshot(self) -> dict[str, Any]:
        return {name: svc.snapshot() for name, svc in self._services.items()}

    def save_evidence(self, folder: Path, since: int) -> dict[str, str]:
        """Write each service's snapshot and the audit slice ``since`` into ``folder``.

        Each file is written new and renamed into place: whatever stands at its name (in mode
        ``none`` the agent can write the evidence folder) is replaced, never written through."""
        folder.mkdir(parents=True, exist_ok=True)
        paths: dict[str, str] = {}
        self._snapshot_cut = {}
        for name, svc in self._services.items():
            p = folder / f"{name}.snapshot.json"
            snap = svc.snapshot()
            if name == "fs" and snap.get("truncated"):
                self._snapshot_cut = snap["truncated"]
            # compact: json's C encoder serves only unindented output (indent=1 ran the pure-Python
            # encoder, the largest part of a big world's evidence time)
            write_replacing(p, json.dumps(snap, sort_keys=True, separators=(",", ":"), default=str))
            paths[f"{name}_snapshot"] = str(p)
        audit = folder / "audit.jsonl"
        write_replacing(
            audit, "".join(json.dumps(e.to_json(), sort_keys=True) + "\n" for e in self.audit.entries(since=since))
        )
        paths["audit"] = str(audit)
        return paths

    def evidence_notes(self) -> dict[str, Any]:
        """What the last evidence of the workspace could not keep whole (``truncated`` of its
        snapshot, when a limit was reached) and where harness writes replaced links the agent
        left; {} for a well-behaved workspace. For the day's record."""
        notes: dict[str, Any] = {}
        if self._snapshot_cut:
            notes["workspace_snapshot_truncated"] = self._snapshot_cut
        fs = self._services.get("fs")
        if isinstance(fs, FsService):
            replaced = fs.take_replaced()
            if replaced:
                notes["harness_replaced_in_workspace"] = replaced
            if not fs.last_sweep.complete:
                notes["workspace_sweep_incomplete"] = True
        return notes


def _read_kept(path: Path, root: Path) -> str:
    """A regular file's first :data:`TOOLS_KEEP_MAX` bytes as text; '' for anything else."""
    try:
        fd = open_regular(path, root=root)
    except OSError:
        return ""
    with os.fdopen(fd, "rb") as fh:
        return fh.read(TOOLS_KEEP_MAX).decode("utf-8", errors="replace")


def _without_section(text: str) -> str:
    """``text`` without the harness's marked section(s)."""
    while TOOLS_BEGIN in text:
        head, _, rest = text.partition(TOOLS_BEGIN)
        _, found, tail = rest.partition(TOOLS_END)
        text = head.rstrip() + ("\n" + tail.lstrip("\n") if found and tail.strip() else "\n")
    return text
