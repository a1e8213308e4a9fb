"""Bytecode caching where ``PYTHONDONTWRITEBYTECODE`` is set (``pytest_clawmark.bytecode``)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from conftest import REPO

IMPORT = "import sys, pytest_clawmark.checks; print(sys.dont_write_bytecode, sys.pycache_prefix)"


def run(env_extra: dict[str, str]) -> str:
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPYCACHEPREFIX", "CLAWMARK_PYCACHE")}
    env.update({"PYTHONDONTWRITEBYTECODE": "1", **env_extra})
    done = subprocess.run([sys.executable, "-c", IMPORT], env=env, capture_output=True, text=True, cwd=REPO)
    assert done.returncode == 0, done.stderr
    return done.stdout.strip()


def test_the_package_caches_its_bytecode_outside_the_source_tree(tmp_path: Path) -> None:
    cache = tmp_path / "pycache"
    assert run({"CLAWMARK_PYCACHE": str(cache)}) == f"False {cache}"
    cached = [p.name for p in cache.rglob("*.pyc")]
    assert any(name.startswith("checks.") for name in cached), cached  # imported after install()
    assert run({"CLAWMARK_PYCACHE": str(cache)}) == f"False {cache}"  # a second process reads them


def test_it_can_be_switched_off() -> None:
    assert run({"CLAWMARK_PYCACHE": "off"}) == "True None"
