"""Contract of the non-public Streamlit APIs the app uses (ui/shared/st_private.py).

Each test fails with a message naming the API, the installed Streamlit version and the one
the module was written for: after an upgrade that changed one, adapt ui/shared/st_private.py
(nothing else imports Streamlit's internals: ``test_no_other_module_reaches_into_streamlit``).
"""

from __future__ import annotations

import importlib
import re
from pathlib import Path

import streamlit
from streamlit.testing.v1 import AppTest

from ui.shared import st_private

ROOT = Path(__file__).resolve().parents[1]


def changed(api: str, what: str) -> str:
    return (f"Streamlit {streamlit.__version__} changed the non-public API {api} ({what}); "
            f"ui/shared/st_private.py was written for Streamlit {st_private.WRITTEN_FOR}: "
            "adapt it (its docstring says what the app needs from it)")


def _resolve(module: str, name: str):
    api = f"{module}.{name}"
    try:
        obj = importlib.import_module(module)
    except ImportError as exc:
        raise AssertionError(changed(api, f"module gone: {exc}")) from None
    for part in name.split("."):
        assert hasattr(obj, part), changed(api, f"no attribute {part!r}")
        obj = getattr(obj, part)
    return obj


def test_every_private_api_still_exists():
    for module, name in st_private.APIS:
        _resolve(module, name)


def test_pages_folder_mode_is_a_class_flag_that_st_navigation_clears():
    api = "streamlit.runtime.pages_manager.PagesManager.uses_pages_directory"
    flag = _resolve("streamlit.runtime.pages_manager", "PagesManager.uses_pages_directory")
    assert flag is None or isinstance(flag, bool), changed(api, f"not a bool: {flag!r}")

    def script():
        import streamlit as st
        from streamlit.runtime.pages_manager import PagesManager

        before = PagesManager.uses_pages_directory
        st.navigation([st.Page(lambda: None, title="only", url_path="only")], position="hidden")
        st.write(f"{before} {PagesManager.uses_pages_directory}")

    at = AppTest.from_function(script).run(timeout=60)
    assert not at.exception, [e.value for e in at.exception]
    assert at.markdown[0].value.endswith(" False"), changed(
        api, f"st.navigation no longer sets it False: {at.markdown[0].value!r}")


def test_leave_pages_folder_mode(monkeypatch):
    from streamlit.runtime.pages_manager import PagesManager

    monkeypatch.setattr(PagesManager, "uses_pages_directory", True)
    assert st_private.leave_pages_folder_mode() is True
    assert PagesManager.uses_pages_directory is False
    assert st_private.leave_pages_folder_mode() is False  # navigation mode: nothing to do


def test_the_yield_check_and_its_exceptions():
    api = "streamlit.runtime.scriptrunner_utils"
    get = _resolve("streamlit.runtime.scriptrunner_utils.script_run_context",
                   "get_run_yield_check")
    assert callable(get), changed(api + ".script_run_context.get_run_yield_check",
                                  "not callable")
    base = _resolve("streamlit.runtime.scriptrunner_utils.exceptions", "ScriptControlException")
    assert isinstance(base, type) and issubclass(base, BaseException), changed(
        api + ".exceptions.ScriptControlException", "not an exception class")
    for name in ("RerunException", "StopException"):
        sub = _resolve("streamlit.runtime.scriptrunner_utils.exceptions", name)
        assert issubclass(sub, base), changed(
            f"{api}.exceptions.{name}", "no longer a ScriptControlException")
    assert st_private.control_exception() is base
    assert st_private.yield_check() is None  # outside a script run
    # inside a run: tests/test_st_interrupt.py (a rerun request is seen and consumed)


# the places a private import could hide: every Python file of the app
APP_FILES = sorted([ROOT / "app.py", *(ROOT / "pages").glob("*.py"), *(ROOT / "ui").rglob("*.py")])
# streamlit.* modules but the documented ones, and st._private attributes
PRIVATE_USE = re.compile(r"^\s*(?:from|import)\s+streamlit\.(?!(?:testing|components)\b)[\w.]+"
                         r"|\bst\._\w+", re.M)


def test_no_other_module_reaches_into_streamlit():
    fenced = ROOT / "ui" / "shared" / "st_private.py"
    assert fenced in APP_FILES and len(APP_FILES) > 10
    offenders = {str(p.relative_to(ROOT)): PRIVATE_USE.findall(p.read_text(encoding="utf-8"))
                 for p in APP_FILES if p != fenced}
    offenders = {p: found for p, found in offenders.items() if found}
    assert not offenders, ("Streamlit internals outside ui/shared/st_private.py (move them "
                           f"there, with a contract test here): {offenders}")


def test_the_component_scan_runs_once_and_gives_the_same_manifests(monkeypatch):
    from streamlit.components.v2 import manifest_scanner

    calls = []

    def scan(max_workers=None):
        calls.append(max_workers)
        return [("manifest", "root")]

    monkeypatch.setattr(manifest_scanner, "scan_component_manifests", scan)
    st_private.memoize_component_scan()
    memoized = manifest_scanner.scan_component_manifests
    assert memoized is not scan
    assert memoized() == memoized() == [("manifest", "root")] and len(calls) == 1
    st_private.memoize_component_scan()                 # idempotent: not wrapped twice
    assert manifest_scanner.scan_component_manifests is memoized
