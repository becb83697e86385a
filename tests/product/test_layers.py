"""The package's layers (pyproject.toml, [tool.importlinter]): each layer imports only the
layers below it, no module imports itself through others, and the contracts that say so break
when an import breaks them. Imports inside functions count as any other."""

import ast
import re
import shutil
import subprocess
import sys
import tomllib
from pathlib import Path

import grimp

ROOT = Path(__file__).resolve().parents[2]


def lint_imports(cwd: Path) -> subprocess.CompletedProcess:
    """`lint-imports` on the simsym package and the pyproject.toml of ``cwd`` (the command
    puts ``cwd`` first on its path, so a copy of the package there is the one it reads)."""
    command = Path(sys.executable).with_name("lint-imports")
    return subprocess.run([str(command if command.exists() else shutil.which("lint-imports")),
                           "--no-cache", "--no-logo"], cwd=cwd, capture_output=True, text=True,
                          timeout=300)


def test_the_import_contracts_are_kept():
    done = lint_imports(ROOT)
    assert done.returncode == 0, done.stdout + done.stderr
    assert "3 kept, 0 broken" in done.stdout, done.stdout


def test_no_module_imports_itself_through_others():
    """`import simsym.x` never reaches simsym.x again: for every import a -> b, no chain
    leads from b back to a (a cycle is printed as its modules)."""
    graph = grimp.build_graph("simsym", cache_dir=None)
    cycles = []
    for a in sorted(graph.modules):
        for b in sorted(graph.find_modules_directly_imported_by(a)):
            back = graph.find_shortest_chain(importer=b, imported=a)
            if back:
                cycles.append(" -> ".join((a, *back)))
    assert not cycles, "\n".join(cycles)


def test_the_contracts_break_on_an_upward_import_a_cycle_and_a_kernel_in_the_reference(
        tmp_path):
    shutil.copytree(ROOT / "simsym", tmp_path / "simsym",
                    ignore=shutil.ignore_patterns("__pycache__", "static", "templates"))
    shutil.copy(ROOT / "pyproject.toml", tmp_path)
    assert lint_imports(tmp_path).returncode == 0  # the copy, as it is, keeps them

    def add(module, text):
        path = tmp_path / "simsym" / module
        path.write_text(path.read_text() + "\n\n" + text)

    # inside function bodies: the imports a layer might hide there count as well
    add("model/rules.py", "def _up():\n    from simsym.studies import compare  # noqa\n")
    add("reference/hands.py", "def _back():\n    from simsym.reference import game  # noqa\n")
    add("reference/rng.py", "def _kernel():\n    from simsym.core import rng_nb  # noqa\n")
    done = lint_imports(tmp_path)
    out = done.stdout
    assert done.returncode == 1, out + done.stderr
    assert "simsym's layers BROKEN" in out, out
    assert "simsym.model.rules -> simsym.studies.compare" in out, out
    assert "No import cycles among the modules of any package BROKEN" in out, out
    assert "The reference engine does not import the kernels BROKEN" in out, out
    assert "simsym.reference.rng -> simsym.core.rng_nb" in out, out


def _layer_ranks() -> dict[str, int]:
    """Each layer's subpackage or module -> its rank in the layers contract (0 the top)."""
    config = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["importlinter"]
    layers = next(c for c in config["contracts"] if c["id"] == "layers")["layers"]
    return {name.strip(): rank for rank, line in enumerate(layers)
            for name in line.split("|")}


def _module_names(path: Path):
    """The strings of a module's code (not its docstrings) that name a module of simsym."""
    tree = ast.parse(path.read_text(), str(path))
    docstrings = {id(node.body[0].value) for node in ast.walk(tree)
                  if isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef,
                                       ast.AsyncFunctionDef))
                  and node.body and isinstance(node.body[0], ast.Expr)}
    for node in ast.walk(tree):
        if (isinstance(node, ast.Constant) and isinstance(node.value, str)
                and id(node) not in docstrings
                and re.fullmatch(r"simsym(\.\w+)+", node.value)):
            yield node.lineno, node.value


def test_no_module_names_an_upper_layer_in_a_string():
    """An import by name (``import_module("simsym.report.build")``) is hidden from
    import-linter: no module's code names a module of a layer above its own, in any string."""
    ranks = _layer_ranks()
    package = ROOT / "simsym"
    found = []
    for path in sorted(package.rglob("*.py")):
        part = path.relative_to(package).parts[0].removesuffix(".py")
        if part not in ranks:
            continue  # simsym/__init__.py
        for line, name in _module_names(path):
            named = name.split(".")[1]
            if named in ranks and ranks[named] < ranks[part]:
                found.append(f"{path.relative_to(ROOT)}:{line}: {name!r}")
    assert not found, "\n".join(found)
