"""One world service in a container: started by testcontainers, reached on loopback, and driven
through the container's control plane (:mod:`..servers.standalone`).

Why testcontainers: it is how pytest fixtures start disposable services, and it owns the
container's life (start, port lookup, stop) so this module only adds what a world needs: the
service's environment, a loopback-only published port, the wait until the service answers, the
in-universe clock pushed before each turn, and the agent's requests pulled into the world's audit
log. No image registry is needed (images are built locally, :mod:`.images`), so testcontainers'
reaper image is disabled unless the user asks for it; containers carry our labels and are removed
on stop, and ``remove_leftovers`` sweeps those of processes that died.
"""

from __future__ import annotations

import json
import os
import time
from collections.abc import Callable, Mapping
from datetime import datetime
from pathlib import Path
from typing import Any

import httpx

from ..world.service import ServiceUnavailable

os.environ.setdefault("TESTCONTAINERS_RYUK_DISABLED", "true")  # the reaper image cannot be pulled without a registry

PORT = 8000
"""The port every service listens on inside its container."""

READY_TIMEOUT_S = 30.0
LABEL = "org.clawmark.world"
"""Label on every container a world starts (its value: the world's folder)."""
PID_LABEL = "org.clawmark.pid"
MEMORY_LIMIT = "2g"
"""A service container's memory (swap included): what the agent stores is bounded by the services'
own quotas far below this, so reaching it is the agent's doing (see :meth:`ServiceContainer.crash`)."""


class ContainerError(ServiceUnavailable):
    """A service container could not be started, stopped answering, or answered wrongly (one
    paragraph, with its log)."""


class ServiceContainer:
    """A running service container and the control-plane client the admin plane uses."""

    def __init__(
        self,
        image: str,
        service: str,
        env: Mapping[str, str],
        admin_token: str,
        *,
        world: str,
        data: Path | None = None,
        ports: tuple[int, ...] = (),
        as_root: bool = False,
    ) -> None:
        """``data`` is mounted at ``/data``; the container runs as the harness's user then (so the
        harness can read and remove what it writes) unless ``as_root`` (a service that starts
        daemons and drops privileges itself). ``ports`` are published besides the control port."""
        from testcontainers.core.config import testcontainers_config
        from testcontainers.core.container import DockerContainer

        # testcontainers reads the variable when first imported, maybe before this module set it
        testcontainers_config.ryuk_disabled = os.environ["TESTCONTAINERS_RYUK_DISABLED"].lower() == "true"

        self.service = service
        self.admin_token = admin_token
        container = DockerContainer(image).with_command(service)
        for key, value in env.items():
            container = container.with_env(key, value)
        # published on loopback only, on a port the engine picks (with_bind_ports takes no address)
        for port in (PORT, *ports):
            container.ports[f"{port}/tcp"] = ("127.0.0.1", None)  # type: ignore[assignment]
        self._ports = ports
        kwargs: dict[str, Any] = {
            "labels": {LABEL: world, PID_LABEL: str(os.getpid())},
            "mem_limit": MEMORY_LIMIT,
            "memswap_limit": MEMORY_LIMIT,
        }
        if data is not None:
            container = container.with_volume_mapping(str(data), "/data", "rw")
            if not as_root:
                kwargs["user"] = f"{os.getuid()}:{os.getgid()}"  # files the harness can read and remove
        self._container = container.with_kwargs(**kwargs)
        self._audit_seen = 0
        self.url = ""
        self.host_ports: dict[int, int] = {}
        """The loopback port each of ``ports`` is published on."""
        self.http: httpx.Client | None = None
        self._started = 0.0

    def start(self) -> ServiceContainer:
        self._started = time.time()
        try:
            self._container.start()
            port = self._container._get_exposed_port(PORT)
        except Exception as exc:
            self.stop()
            raise ContainerError(f"cannot start the {self.service} container: {type(exc).__name__}: {exc}") from None
        self.url = f"http://127.0.0.1:{port}"
        self.host_ports = {p: int(self._container.get_exposed_port(p)) for p in self._ports}
        self.http = httpx.Client(
            base_url=self.url, trust_env=False, timeout=30.0, headers={"Authorization": f"Bearer {self.admin_token}"}
        )
        self._wait_ready()
        return self

    @property
    def container_id(self) -> str:
        return str(self._container.get_wrapped_container().id)

    def _wait_ready(self) -> None:
        assert self.http is not None
        deadline = time.monotonic() + READY_TIMEOUT_S
        while True:
            try:
                if self.http.get("/_clawmark/ready").status_code == 200:
                    return
            except httpx.HTTPError:
                pass
            wrapped = self._container.get_wrapped_container()
            wrapped.reload()
            if wrapped.status in ("exited", "dead") or time.monotonic() > deadline:
                log = self.logs()
                self.stop()
                raise ContainerError(
                    f"the {self.service} container did not become ready ({wrapped.status}); its log ends:\n{log}"
                )
            time.sleep(0.02)

    def problem(self) -> str:
        """'' while the container runs and its service answers; else what happened (with its log)."""
        try:
            wrapped = self._container.get_wrapped_container()
            wrapped.reload()
            state = wrapped.attrs.get("State", {})
        except Exception as exc:  # removed, or the engine is gone
            return f"the {self.service} container is gone ({type(exc).__name__}: {exc})"
        if state.get("Status") != "running":
            why = "killed for lack of memory" if state.get("OOMKilled") else f"exit code {state.get('ExitCode')}"
            return f"the {self.service} container stopped ({state.get('Status')}, {why}); its log ends:\n{self.logs()}"
        try:
            self._call("GET", "/_clawmark/ready")
        except ContainerError as exc:
            return str(exc)
        return ""

    def crash(self) -> str:
        """Why the container's own server ended it ('' while it runs, or when it was ended from outside).

        Why this distinction: a service that stops during the agent's turn cannot be read, and
        whether the trial still counts depends on who stopped it. The engine's events say: a
        ``kill`` event is the engine stopping it (``docker kill``/``stop``/``rm`` by an operator or
        a harness), a SIGKILL without one is the host (its OOM killer, ``kill -9``) — both the
        infrastructure's, and the trial is an error. What is left is the server ending by itself
        while serving the agent (it crashed on what it was sent, or filled its memory limit): the
        agent's doing, or an agent could remove its own trial from the score by crashing a service.
        The answer is one deterministic sentence (no log, no time), as checkers quote it.
        """
        try:
            wrapped = self._container.get_wrapped_container()
            wrapped.reload()
            state = wrapped.attrs.get("State", {})
            if state.get("Status") not in ("exited", "dead"):
                return ""
            client = wrapped.client
            events = client.events(
                since=int(self._started) - 1, until=int(time.time()) + 1, filters={"container": wrapped.id}, decode=True
            )
            actions = {str(e.get("Action") or e.get("status") or "") for e in events}
        except Exception:  # removed, or the engine is gone: not something the agent did
            return ""
        if "kill" in actions or "stop" in actions or "destroy" in actions:
            return ""
        code = state.get("ExitCode")
        if state.get("OOMKilled") or "oom" in actions:
            return f"the {self.service} service ran out of its {MEMORY_LIMIT} memory limit and stopped"
        if code == 137:
            return ""
        return f"the {self.service} service's server stopped by itself (exit code {code})"

    def logs(self, lines: int = 15) -> str:
        try:
            out, err = self._container.get_logs()
        except Exception:
            return "(no log)"
        text = (out + err).decode(errors="replace").strip().splitlines()
        return "\n".join(text[-lines:]) or "(empty)"

    def set_clock(self, now: datetime) -> None:
        """The service's in-universe clock (pushed whenever the world's changes)."""
        self._call("PUT", "/_clawmark/clock", {"now": now.isoformat()})

    def pull_audit(self, record: Callable[..., None]) -> int:
        """Replay the agent requests the service saw since the last pull into ``record`` (the
        embedded service's own audit hook), in order; returns how many."""
        entries = self._call("GET", f"/_clawmark/audit?since={self._audit_seen}")["entries"]
        for entry in entries:
            record(*entry["args"], **entry["kwargs"])
        self._audit_seen += len(entries)
        return len(entries)

    def _call(self, method: str, path: str, body: Any = None) -> Any:
        if self.http is None:
            raise ContainerError(f"the {self.service} container is not running")
        try:
            r = self.http.request(method, path, content=None if body is None else json.dumps(body))
        except httpx.HTTPError as exc:
            raise ContainerError(
                f"the {self.service} container does not answer {path}: {exc}; its log ends:\n{self.logs()}"
            ) from None
        if r.status_code != 200:
            raise ContainerError(f"the {self.service} container answered {path} with {r.status_code}: {r.text[:300]}")
        return r.json()

    def stop(self) -> None:
        if self.http is not None:
            self.http.close()
            self.http = None
        try:
            self._container.stop(force=True, delete_volume=True)
        except Exception:  # already gone, or never started
            pass


def remove_leftovers() -> int:
    """Remove the containers (services, agents) and private networks of clawmark processes that
    no longer run (a crash, a kill -9)."""
    try:
        import docker

        client = docker.from_env()
        removed = 0
        for c in client.containers.list(all=True, filters={"label": PID_LABEL}):
            pid = int(c.labels.get(PID_LABEL, "0") or 0)
            if pid > 0 and not _alive(pid):
                c.remove(force=True)
                removed += 1
        for network in client.networks.list(filters={"label": PID_LABEL}):  # worlds' private networks
            pid = int(network.attrs.get("Labels", {}).get(PID_LABEL, "0") or 0)
            if pid > 0 and not _alive(pid):
                network.remove()
        return removed
    except Exception:
        return 0


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True
