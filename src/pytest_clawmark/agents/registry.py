"""Agent selection: built-ins, pluggy hook implementations and the entry-point group."""

from __future__ import annotations

from collections.abc import Mapping
from importlib.metadata import entry_points
from typing import Any

from .base import AgentError, AgentFactory
from .command import CommandAgent
from .noop import NoopAgent
from .openclaw import OpenClawAgent
from .reference import ReferenceAgent

BUILTIN: dict[str, AgentFactory] = {
    "reference": ReferenceAgent,
    "noop": NoopAgent,
    "command": CommandAgent,
    "openclaw": OpenClawAgent,
}
ENTRY_POINT_GROUP = "pytest_clawmark.agents"


def available(hook: Any | None = None) -> dict[str, AgentFactory]:
    """All known agent factories: built-ins, then entry points, then hook implementations."""
    found: dict[str, AgentFactory] = dict(BUILTIN)
    for ep in entry_points(group=ENTRY_POINT_GROUP):
        found.setdefault(ep.name, _lazy(ep))
    if hook is not None:
        for mapping in hook.pytest_clawmark_agents():
            for name, factory in (mapping or {}).items():
                found[name] = factory
    return found


def _lazy(ep: Any) -> AgentFactory:
    def factory(options: Mapping[str, str]) -> Any:
        try:
            target = ep.load()
        except Exception as exc:
            raise AgentError(f"agent {ep.name!r} from entry point {ep.value!r} cannot be loaded: {exc}") from None
        return target(options)

    return factory


def parse_options(pairs: list[str]) -> dict[str, str]:
    """``["k=v", ...]`` -> dict; a malformed pair is a clear error."""
    options: dict[str, str] = {}
    for pair in pairs:
        key, sep, value = pair.partition("=")
        if not sep or not key.strip():
            raise AgentError(f"--agent-option expects key=value, got {pair!r}")
        options[key.strip()] = value
    return options


def make_agent(name: str, options: Mapping[str, str], hook: Any | None = None) -> Any:
    factories = available(hook)
    if name not in factories:
        raise AgentError(f"unknown agent {name!r} (available: {', '.join(sorted(factories))})")
    return factories[name](options)


IN_PROCESS = (ReferenceAgent, NoopAgent)
"""Built-in agents that run inside pytest and start no process of their own."""


def starts_processes(agent: Any) -> bool:
    """Whether ``agent`` runs processes that isolation could confine.

    An adapter says so with a ``starts_processes`` attribute; the built-in in-process agents
    (``reference``, ``noop``) do not; any other adapter is taken to (the safe side: with
    ``--agent-isolation=auto`` and no working sandbox, its run is refused)."""
    declared = getattr(agent, "starts_processes", None)
    if isinstance(declared, bool):
        return declared
    return not isinstance(agent, IN_PROCESS)
