"""Declared dependencies match the imports: every third-party module the app imports is pinned
in requirements.txt, every one the tests and benchmarks import in requirements-test.txt, and
nothing is pinned that nothing imports (issue 18: pandas was imported but not declared).
pyproject.toml describes the package it builds, svm_engine alone: its dependencies and extras
are what svm_engine imports, and an extra is one the engine runs without."""

from __future__ import annotations

import ast
import functools
import math
import re
import sys
import tomllib
from importlib.metadata import packages_distributions
from pathlib import Path

import pytest

from tests import fresh_python
from tests.source_ast import file_nodes

ROOT = Path(__file__).resolve().parents[1]
APP = [ROOT / "app.py", ROOT / "pages", ROOT / "ui", ROOT / "svm_engine", ROOT / "deploy"]
DEV = [ROOT / "tests", ROOT / "benchmarks"]
OURS = {"ui", "svm_engine", "pages", "tests", "benchmarks", "deploy", "app", "conftest"}
# pinned for what they do, not imported: the cvxopt QP is imported as cvxopt (listed); ruff and
# pytest run as commands; playwright's module is imported by the browser tests (listed).
NOT_IMPORTED = {"ruff", "pytest-xdist"}   # xdist: the -n option of make test


def _files(paths):
    for p in paths:
        yield from ([p] if p.is_file() else sorted(p.rglob("*.py")))


def imported_top_modules(paths) -> set[str]:
    """Top-level names of every absolute import in the files (function-level imports too)."""
    found = set()
    for f in _files(paths):
        for node in file_nodes(f):
            if isinstance(node, ast.Import):
                found |= {a.name.split(".")[0] for a in node.names}
            elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
                found.add(node.module.split(".")[0])
    local = {p.stem for d in ("tests", "benchmarks") for p in ROOT.glob(f"{d}/**/*.py")}
    return {m for m in found if m not in sys.stdlib_module_names and m not in OURS | local}




def distributions(modules: set[str]) -> set[str]:
    """The distribution (PyPI name, normalised) of each module; unknown ones as themselves."""
    dist = _packages()
    return {_norm(dist.get(m, [m])[0]) for m in modules}


@functools.cache   # reads the metadata of every installed distribution
def _packages() -> dict:
    return packages_distributions()


def pinned(req: Path) -> set[str]:
    names = set()
    for line in req.read_text().splitlines():
        line = line.split("#")[0].strip()
        if line and not line.startswith("-"):
            names.add(_norm(re.split(r"[=<>!~\[ ;]", line)[0]))
    return names


def _norm(name: str) -> str:
    return re.sub(r"[-_.]+", "-", name).lower()


def test_every_module_the_app_imports_is_pinned_in_requirements_txt():
    missing = distributions(imported_top_modules(APP)) - pinned(ROOT / "requirements.txt")
    assert not missing, f"imported by the app but not in requirements.txt: {sorted(missing)}"


def test_every_module_the_tests_import_is_pinned():
    have = pinned(ROOT / "requirements.txt") | pinned(ROOT / "requirements-test.txt")
    missing = distributions(imported_top_modules(DEV)) - have
    assert not missing, f"imported by tests/benchmarks but not pinned: {sorted(missing)}"


def test_nothing_is_pinned_that_nothing_imports():
    used = distributions(imported_top_modules(APP + DEV)) | NOT_IMPORTED
    runtime_unused = pinned(ROOT / "requirements.txt") - distributions(imported_top_modules(APP))
    assert not runtime_unused, f"in requirements.txt but the app never imports: {runtime_unused}"
    unused = pinned(ROOT / "requirements-test.txt") - used
    assert not unused, f"in requirements-test.txt but nothing imports: {sorted(unused)}"


def _project() -> dict:
    return tomllib.loads((ROOT / "pyproject.toml").read_text())


def _names(specs) -> set[str]:
    return {_norm(re.split(r"[=<>!~\[ ;]", spec)[0]) for spec in specs}


def _extras() -> dict[str, set[str]]:
    return {k: _names(v) for k, v in _project()["project"]["optional-dependencies"].items()}


def test_pyproject_declares_what_svm_engine_imports():
    """The package is svm_engine only, so its dependencies and extras are the distributions
    svm_engine imports, each once (no streamlit or plotly: the app is not in the package), and
    each is pinned in requirements.txt (the versions the app is tested with)."""
    toml = _project()
    assert toml["tool"]["setuptools"]["packages"]["find"]["include"] == ["svm_engine*"]
    required = _names(toml["project"]["dependencies"])
    optional = set().union(*_extras().values())
    imported = distributions(imported_top_modules([ROOT / "svm_engine"]))
    assert not required & optional, f"both required and an extra: {required & optional}"
    assert required | optional == imported, (
        f"declared, not imported by svm_engine: {sorted((required | optional) - imported)}; "
        f"imported, not declared: {sorted(imported - required - optional)}")
    missing = (required | optional) - pinned(ROOT / "requirements.txt")
    assert not missing, f"in pyproject.toml but not pinned in requirements.txt: {missing}"


ENGINE_RUN = """
import json, math
import svm_engine as se
from svm_engine import datasets as ds
d = ds.d1()
m = se.fit(d.X, d.y, C=math.inf)
g = se.fit(d.X, d.y, kernel=se.Gaussian(sigma=0.7), C=1.0)
svc = None
if "sklearn" in BLOCKED:  # the facade without it (loading it would take ~2 s)
    try:
        se.SVC
        svc = "loaded"
    except ImportError as exc:
        svc = str(exc)
print(json.dumps({"wb": [*m.w.tolist(), m.b], "h": g.decision_function(d.X).tolist(),
                  "converged": [m.converged, g.converged], "svc": svc,
                  "loaded": sorted(n for n in sys.modules if n.split(".")[0] in BLOCKED)}))
"""


@pytest.mark.parametrize("extra", sorted(_extras()))
def test_the_engine_runs_without_each_extra(extra):
    """An extra is honest only if the engine runs without it: a fresh interpreter with its
    modules blocked imports svm_engine and fits D1 (linear, hard margin) and a Gaussian, with
    the answers of this process (which has everything); se.SVC without scikit-learn says what
    to install."""
    dist = _packages()
    modules = {m for m, names in dist.items() if _extras()[extra] & {_norm(n) for n in names}}
    assert modules, f"no installed module for the extra {extra!r}"
    out = fresh_python.run(ENGINE_RUN, blocked=modules)
    assert out["loaded"] == [] and out["converged"] == [True, True]
    import svm_engine as se
    from svm_engine import datasets as ds

    d = ds.d1()
    m = se.fit(d.X, d.y, C=math.inf)
    g = se.fit(d.X, d.y, kernel=se.Gaussian(sigma=0.7), C=1.0)
    assert out["wb"] == pytest.approx([*m.w, m.b], abs=1e-6)
    assert out["h"] == pytest.approx(g.decision_function(d.X).tolist(), abs=1e-6)
    if "sklearn" in modules:
        assert "needs scikit-learn" in out["svc"] and "svm-lab[sklearn]" in out["svc"]


def test_the_checker_reads_imports_and_pins(tmp_path):
    f = tmp_path / "m.py"
    f.write_text("import numpy\nimport yaml.x\nfrom os import path\nfrom . import x\n"
                 "def f():\n    from sklearn.svm import SVC\n")
    assert imported_top_modules([f]) == {"numpy", "yaml", "sklearn"}
    assert distributions({"sklearn", "numpy"}) == {"scikit-learn", "numpy"}
    req = tmp_path / "r.txt"
    req.write_text("-r other.txt\nNumPy==1  # x\nscikit_learn>=1\n\n")
    assert pinned(req) == {"numpy", "scikit-learn"}
