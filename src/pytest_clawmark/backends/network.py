"""A world's private network: the one network an agent container joins (``--agent-isolation=container``).

Why a network per world: an agent in a container must reach its own world's services and nothing
else — not the host's loopback (the harness, other trials' embedded worlds, the engine's published
ports), not another trial's containers, not the internet. A Docker *internal* bridge network gives
exactly that: the containers on it reach each other by name (each service container joins it
under its service's name: ``mail``, ``calendar``, ``kb``, ``sheets``), and it has no route out.
The agent's addresses are rewritten to those names (:func:`in_network_env`); the harness keeps
talking to the same containers through their loopback ports.
"""

from __future__ import annotations

import hashlib
import os
import re
from collections.abc import Mapping
from typing import Any

from .containers import LABEL, PID_LABEL, ContainerError

Endpoints = Mapping[int, tuple[str, int]]
"""A published loopback port -> (the service's name on the world's network, its port there)."""


class WorldNetwork:
    """An internal bridge network named after its world (created on :meth:`create`)."""

    def __init__(self, world_root: str) -> None:
        digest = hashlib.sha256(f"{world_root}\0{os.getpid()}".encode()).hexdigest()[:16]
        self.name = f"clawmark-{digest}"
        self.world_root = world_root
        self._network: Any = None

    def create(self) -> WorldNetwork:
        import docker

        try:
            client = docker.from_env()
            self._network = client.networks.create(
                self.name, driver="bridge", internal=True, check_duplicate=True,
                labels={LABEL: self.world_root, PID_LABEL: str(os.getpid())},
            )  # fmt: skip
            self._network.reload()  # its address plan (the gateway) is known once created
        except Exception as exc:
            raise ContainerError(
                f"cannot create the world's private network {self.name}: {type(exc).__name__}: {exc}"
            ) from None
        return self

    @property
    def gateway(self) -> str:
        """The host's own address on the network: where the harness offers the agent's container
        what is not a world service (the scripted model), reachable from this network only."""
        try:
            return str(self._network.attrs["IPAM"]["Config"][0]["Gateway"])
        except (AttributeError, KeyError, IndexError, TypeError):
            return ""

    def attach(self, container_id: str, alias: str) -> None:
        """Put a service's container on the network, reachable there as ``alias``."""
        try:
            self._network.connect(container_id, aliases=[alias])
        except Exception as exc:
            raise ContainerError(
                f"cannot attach the {alias} container to the world's network: {type(exc).__name__}: {exc}"
            ) from None

    def remove(self) -> None:
        """Remove the network (after its containers; an agent container still on it is removed)."""
        network, self._network = self._network, None
        if network is None:
            return
        try:
            network.reload()
            for container in network.containers:
                container.remove(force=True)
            network.remove()
        except Exception:  # already gone; remove_leftovers sweeps what a crash left
            pass


def in_network_env(env: Mapping[str, str], endpoints: Endpoints) -> dict[str, str]:
    """The agent's variables as seen from the world's network: ``127.0.0.1:<published>`` becomes
    ``<service>:<port>``, and a ``*_PORT`` holding a published port (with its ``*_HOST``) too."""
    out = {key: in_network_text(value, endpoints) for key, value in env.items()}
    for key, value in env.items():
        if key.endswith("_PORT") and value.isdigit() and int(value) in endpoints:
            alias, port = endpoints[int(value)]
            out[key] = str(port)
            host_key = key[: -len("_PORT")] + "_HOST"
            if out.get(host_key) in ("127.0.0.1", "localhost"):
                out[host_key] = alias
    return out


def in_network_text(text: str, endpoints: Endpoints) -> str:
    """``text`` (a URL, TOOLS.md) with every ``127.0.0.1:<published>`` as ``<service>:<port>``."""

    def swap(match: re.Match[str]) -> str:
        found = endpoints.get(int(match.group(2)))
        return f"{found[0]}:{found[1]}" if found else match.group(0)

    return re.sub(r"\b(127\.0\.0\.1|localhost):(\d{1,5})\b", swap, text)
