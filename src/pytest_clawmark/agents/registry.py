"""Agent selection: built-ins, pluggy hook implementations and the entry-point group."""

from __future__ import annotations

import importlib
from collections.abc import Mapping
from importlib.metadata import entry_points
from typing import Any

from .base import AgentError, AgentFactory
from .baselines import BASELINES

BUILTIN: dict[str, str] = {
    "reference": "pytest_clawmark.agents.reference:ReferenceAgent",
    "noop": "pytest_clawmark.agents.noop:NoopAgent",
    "command": "pytest_clawmark.agents.command:CommandAgent",
    "openclaw": "pytest_clawmark.agents.openclaw:OpenClawAgent",
    **BASELINES,
}
"""The built-in agents, imported only when chosen (OpenClaw's and the sandboxes' modules are not
a cost of a run with another agent). ``baseline:*`` are the shortcut baselines (agents/baselines/)."""
ENTRY_POINT_GROUP = "pytest_clawmark.agents"


def _builtin(dotted: str) -> AgentFactory:
    def factory(options: Mapping[str, str]) -> Any:
        module, _, attr = dotted.partition(":")
        return getattr(importlib.import_module(module), attr)(options)

    return factory


def available(hook: Any | None = None) -> dict[str, AgentFactory]:
    """All known agent factories: built-ins, then entry points, then hook implementations."""
    found: dict[str, AgentFactory] = {name: _builtin(dotted) for name, dotted in BUILTIN.items()}
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


def starts_processes(agent: Any) -> bool:
    """Whether ``agent`` runs processes that isolation could confine.

    An adapter says so with a ``starts_processes`` attribute; the built-in in-process agents
    (``reference``, ``noop``, the ``baseline:*`` shortcut baselines) do not; any other adapter is taken to (the safe side: with
    ``--agent-isolation=auto`` and no working sandbox, its run is refused)."""
    from .noop import NoopAgent
    from .reference import ReferenceAgent

    declared = getattr(agent, "starts_processes", None)
    if isinstance(declared, bool):
        return declared
    return not isinstance(agent, (ReferenceAgent, NoopAgent))  # in pytest, no process of their own
