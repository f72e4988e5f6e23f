"""The layers of ui/ (ui/__init__.py): the shared layer (ui/shared, ui/data, ui/serving) imports
no page package, and a page package (ui/playground, ui/step_through, …) imports no other page's
package, except the pairs of ``ALLOWED`` whose reason ui/__init__.py states. Imports are read
from the source (every ``import``/``from … import``, also inside functions, and
``importlib.import_module`` with a constant name), so a lazy import cannot hide one."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

import ui
from tests.source_ast import file_nodes

UI = Path(__file__).resolve().parents[1] / "ui"
#: the layers every page may use; they may not use a page
LAYERS = ("shared", "data", "serving", "classroom")
#: every other package directly under ui/ is a page's
PAGES = sorted(p.parent.name for p in UI.glob("*/__init__.py") if p.parent.name not in LAYERS)

#: page package → page package imports that are meant, each with its reason in ui/__init__.py
ALLOWED = {
    # the two-point worked example shows SMO's first step in its box with the Step-through
    # page's own recorder and drawing (step_through.record.build_run, box_chart): the
    # same picture on both pages, not a copy
    ("worked_examples", "step_through"),
}


def imported(path: Path) -> list[tuple[int, str]]:
    """(line, module) of every ui.* module ``path`` imports."""
    out = []
    for node in file_nodes(path):
        names = []
        if isinstance(node, ast.Import):
            names = [a.name for a in node.names]
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            names = [node.module] if node.module != "ui" else [f"ui.{a.name}" for a in node.names]
        elif (isinstance(node, ast.Call) and node.args
              and isinstance(node.args[0], ast.Constant) and isinstance(node.args[0].value, str)
              and getattr(node.func, "attr", getattr(node.func, "id", None))
              in ("import_module", "__import__")):
            names = [node.args[0].value]
        out += [(node.lineno, n) for n in names if n.startswith("ui.")]
    return out


def package_imports(package: str) -> list[tuple[str, int, str]]:
    """(file, line, imported package) of the ui packages ``package``'s files import."""
    return [(str(p.relative_to(UI.parent)), line, mod.split(".")[1])
            for p in sorted((UI / package).rglob("*.py")) for line, mod in imported(p)]


def test_the_layers_and_pages_are_found():
    assert {"playground", "step_through", "worked_examples", "compare"} <= set(PAGES)
    assert all((UI / layer / "__init__.py").exists() for layer in LAYERS)


@pytest.mark.parametrize("layer", LAYERS)
def test_the_shared_layer_imports_no_page(layer):
    bad = [f"{f}:{line} imports ui.{pkg}" for f, line, pkg in package_imports(layer)
           if pkg in PAGES]
    assert not bad, ("the shared layer may not import a page's package; move the piece into "
                     "ui/shared (or data, serving), or pass it in as an argument: "
                     + "; ".join(bad))


@pytest.mark.parametrize("page", PAGES)
def test_a_page_package_imports_no_other_page(page):
    bad = [f"{f}:{line} imports ui.{pkg}" for f, line, pkg in package_imports(page)
           if pkg in PAGES and pkg != page and (page, pkg) not in ALLOWED]
    assert not bad, ("a page's package may import ui.shared, ui.data, ui.serving and the "
                     "engine, not another page's package (unless ALLOWED here with its reason "
                     "in ui/__init__.py): " + "; ".join(bad))


@pytest.mark.parametrize("pair", sorted(ALLOWED), ids="→".join)
def test_an_allowed_page_import_is_used_and_explained(pair):
    page, other = pair
    assert any(pkg == other for _, _, pkg in package_imports(page)), (
        f"ui.{page} no longer imports ui.{other}: remove the pair from ALLOWED and ui/__init__.py")
    assert f"``ui.{page}`` → ``ui.{other}``" in ui.__doc__, (
        f"ui/__init__.py must say why ui.{page} imports ui.{other}")


def test_the_scanner_sees_lazy_and_dynamic_imports(tmp_path):
    f = tmp_path / "m.py"
    f.write_text("import importlib\nfrom ui import playground\n\n\ndef g():\n"
                 "    from ui.compare.comparison import RowSpec\n"
                 "    import ui.kernels.compute\n"
                 "    return importlib.import_module('ui.losses.figures')\n")
    assert sorted(m for _, m in imported(f)) == [
        "ui.compare.comparison", "ui.kernels.compute", "ui.losses.figures", "ui.playground"]
