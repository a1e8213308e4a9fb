"""The Sheets server's modules form an import DAG, with every intra-package import at top level.

Why: imports hidden inside functions to dodge a cycle (calc ↔ refs ↔ store, batch → render...)
make the real dependencies invisible and fail only on the code path that runs them. Each module
is therefore imported in a fresh interpreter as the *first* module of the package to run (the
package's ``__init__``, which imports :mod:`.app` and with it everything, is skipped), so a
cycle through any module fails here whichever module it is entered from. The AST check keeps
the imports where a reader sees them: at module level (or under a module-level
``if TYPE_CHECKING:``, for annotations only). Third-party imports may stay lazy on purpose
(formulas, numpy, the Google clients): importing the server must stay cheap, which the last
test checks.
"""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

import pytest

import pytest_clawmark.servers.sheets as sheets_package

PACKAGE = sheets_package.__name__
SOURCES = sorted(Path(sheets_package.__file__).parent.glob("*.py"))
MODULES = [p.stem for p in SOURCES if p.stem != "__init__"]

IMPORT_FIRST = """
import importlib, importlib.util, sys
name = sys.argv[1]
spec = importlib.util.find_spec(name)
sys.modules[name] = importlib.util.module_from_spec(spec)  # the package, its __init__ not run
assert not [m for m in sys.modules if m.startswith(name + ".")], "a package module ran first"
importlib.import_module(name + "." + sys.argv[2])
"""


def _python(code: str, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-c", code, *args], capture_output=True, text=True, timeout=120)


@pytest.mark.parametrize("module", MODULES)
def test_each_module_imports_first_in_a_fresh_interpreter(module: str) -> None:
    run = _python(IMPORT_FIRST, PACKAGE, module)
    assert run.returncode == 0, f"importing {PACKAGE}.{module} first fails (an import cycle?):\n{run.stderr[-3000:]}"


def _type_checking(node: ast.stmt) -> bool:
    return isinstance(node, ast.If) and isinstance(node.test, ast.Name) and node.test.id == "TYPE_CHECKING"


def _intra_package(node: ast.AST) -> bool:
    if isinstance(node, ast.ImportFrom):
        return node.level > 0 or (node.module or "").startswith(PACKAGE)
    if isinstance(node, ast.Import):
        return any(alias.name.startswith(PACKAGE) for alias in node.names)
    return False


def test_intra_package_imports_are_at_module_level() -> None:
    misplaced = []
    for source in SOURCES:
        tree = ast.parse(source.read_text(encoding="utf-8"), filename=str(source))
        top = set()
        for stmt in tree.body:
            top.add(stmt)
            if _type_checking(stmt):
                top.update(stmt.body)
        misplaced += [
            f"{source.name}:{node.lineno}" for node in ast.walk(tree) if _intra_package(node) and node not in top
        ]
    assert not misplaced, f"intra-package imports inside a function or block (move them to the top): {misplaced}"


def test_importing_the_server_loads_neither_formulas_nor_numpy() -> None:
    code = f"import sys, {PACKAGE}; print(sorted({{'formulas', 'numpy', 'schedula'}} & set(sys.modules)))"
    run = _python(code)
    assert run.returncode == 0, run.stderr[-3000:]
    assert run.stdout.strip() == "[]", f"the server's import pulls in {run.stdout.strip()} (keep those imports lazy)"
