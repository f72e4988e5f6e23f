"""Every page file (pages/*.py, also those added later) is thin, starts like the others and
is in the menu: at most 300 lines (logic lives in tested modules under ui/), the first
statement after the imports is ``run_through_app()`` (a deep link on a fresh server goes
through app.py), and ``ui.shared.nav.PAGES`` lists it."""

import ast
from pathlib import Path

import pytest

from ui.shared import nav

ROOT = Path(__file__).resolve().parents[1]
PAGE_FILES = sorted((ROOT / "pages").glob("*.py"))
MAX_LINES = 300


def test_there_are_pages():
    assert len(PAGE_FILES) >= 4


@pytest.mark.parametrize("path", PAGE_FILES, ids=lambda p: p.name)
def test_a_page_is_thin(path):
    n = len(path.read_text(encoding="utf-8").splitlines())
    assert n <= MAX_LINES, (f"{path.name} has {n} lines (at most {MAX_LINES}): move its logic "
                            "and text into tested modules of its package under ui/")


@pytest.mark.parametrize("path", PAGE_FILES, ids=lambda p: p.name)
def test_a_page_runs_through_the_app_first(path):
    body = ast.parse(path.read_text(encoding="utf-8")).body
    first = next(s for s in body if not isinstance(s, ast.Import | ast.ImportFrom)
                 and not (isinstance(s, ast.Expr) and isinstance(s.value, ast.Constant)))
    call = first.value if isinstance(first, ast.Expr) else None
    name = getattr(getattr(call, "func", None), "id", None) or getattr(
        getattr(call, "func", None), "attr", None)
    assert isinstance(call, ast.Call) and name == "run_through_app", (
        f"{path.name}: call nav.run_through_app() first (line {first.lineno} is not it)")


@pytest.mark.parametrize("path", PAGE_FILES, ids=lambda p: p.name)
def test_a_page_is_in_the_menu(path):
    assert f"pages/{path.name}" in {p.path for p in nav.PAGES}, (
        f"{path.name} is not in ui/shared/nav.py PAGES")
