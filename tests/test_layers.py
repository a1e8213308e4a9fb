"""The layering of docs/architecture.md holds: the servers import nothing of the world, the agents,
the trial or the plugin (the world drives the servers, never the other way), and scoring is pure."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parents[1] / "src" / "pytest_clawmark"
UPWARD = {
    "servers": ("world", "agents", "trial", "plugin", "collect", "backends", "upstream"),
    "scoring.py": ("world", "agents", "trial", "plugin", "collect", "servers", "backends"),
}


def _imports(path: Path) -> list[tuple[int, str]]:
    """Absolute names (``pytest_clawmark.x.y``) of what ``path`` imports, with line numbers."""
    package = ["pytest_clawmark", *path.relative_to(PACKAGE).parent.parts]
    found = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.ImportFrom):
            if node.level:
                base = package[: len(package) - node.level + 1]
                found.append((node.lineno, ".".join([*base, *(node.module.split(".") if node.module else [])])))
            elif node.module:
                found.append((node.lineno, node.module))
        elif isinstance(node, ast.Import):
            found += [(node.lineno, alias.name) for alias in node.names]
    return found


@pytest.mark.parametrize("layer", sorted(UPWARD))
def test_no_upward_imports(layer: str) -> None:
    files = [PACKAGE / layer] if layer.endswith(".py") else sorted((PACKAGE / layer).rglob("*.py"))
    forbidden = tuple(f"pytest_clawmark.{name}" for name in UPWARD[layer])
    bad = [
        f"{path.relative_to(PACKAGE)}:{line}: imports {name}"
        for path in files
        for line, name in _imports(path)
        if any(name == f or name.startswith(f + ".") for f in forbidden)
    ]
    assert not bad, "\n".join(bad)
