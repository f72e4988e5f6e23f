"""Every module of tests/browser/ marks all its tests browser (``pytestmark =
pytest.mark.browser``): ``make test-fast`` (``-m "not browser"``) relies on it to leave the
folder uncollected (tests/conftest.py, ``pytest_ignore_collect``), so a test there without
the mark would run in neither ``make test-fast`` nor ``pytest -m browser``."""

from __future__ import annotations

import ast
import types
from pathlib import Path

TESTS = Path(__file__).resolve().parent
BROWSER = TESTS / "browser"


def marks_browser(source: str) -> bool:
    """True when the module assigns ``pytestmark = pytest.mark.browser`` (alone or in a list)."""
    for node in ast.parse(source).body:
        if isinstance(node, ast.Assign) and any(
                isinstance(t, ast.Name) and t.id == "pytestmark" for t in node.targets):
            values = node.value.elts if isinstance(node.value, ast.List | ast.Tuple) \
                else [node.value]
            return any(ast.unparse(v) == "pytest.mark.browser" for v in values)
    return False


def test_every_browser_test_module_marks_its_tests_browser():
    modules = sorted(BROWSER.glob("test_*.py"))
    assert len(modules) > 10
    unmarked = [m.name for m in modules if not marks_browser(m.read_text(encoding="utf-8"))]
    assert not unmarked, f"tests/browser modules without pytestmark = pytest.mark.browser: " \
                         f"{unmarked}"


def test_the_mark_check_can_fail():
    assert marks_browser("import pytest\npytestmark = pytest.mark.browser\n")
    assert marks_browser("import pytest\npytestmark = [pytest.mark.slow, pytest.mark.browser]\n")
    assert not marks_browser("import pytest\npytestmark = pytest.mark.slow\n")
    assert not marks_browser("import pytest\n\n@pytest.mark.browser\ndef test_x():\n    pass\n")


def test_the_browser_folder_is_left_out_only_when_browser_tests_are_deselected(request):
    (conftest,) = [p for p in request.config.pluginmanager.get_plugins()
                   if getattr(p, "__file__", None) == str(TESTS / "conftest.py")]

    def config(markexpr: str):
        return types.SimpleNamespace(getoption=lambda name: markexpr)

    assert conftest.BROWSER_TESTS == BROWSER
    assert conftest.pytest_ignore_collect(BROWSER, config("not browser")) is True
    for markexpr in ("", "browser", "not slow"):
        assert conftest.pytest_ignore_collect(BROWSER, config(markexpr)) is None
    assert conftest.pytest_ignore_collect(BROWSER / "test_theme.py", config("not browser")) \
        is None
