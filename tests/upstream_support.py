"""Shared by the upstream adapter tests: a started world of some services, and running coroutines."""

from __future__ import annotations

import asyncio
from collections.abc import Coroutine, Iterator
from pathlib import Path
from typing import Any, TypeVar

from pytest_clawmark.world import World
from pytest_clawmark.world.service import Person

T = TypeVar("T")


def run(coro: Coroutine[Any, Any, T]) -> T:
    """Upstream's stages and checkers are coroutines; its managers' methods too."""
    return asyncio.run(coro)


def world_of(tmp_path: Path, services: set[str], user: Person) -> Iterator[World]:
    """A started world (for a fixture: ``yield from world_of(...)``), stopped afterwards."""
    w = World(services, tmp_path / "w", user=user).start()
    try:
        yield w
    finally:
        w.stop()
