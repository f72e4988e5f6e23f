"""Contract of the non-public Streamlit APIs the app uses (ui/shared/st_private.py).

Each test fails with a message naming the API, the installed Streamlit version and the one
the module was written for: after an upgrade that changed one, adapt ui/shared/st_private.py
(nothing else imports Streamlit's internals: ``test_no_other_module_reaches_into_streamlit``).
"""

from __future__ import annotations

import ast
import importlib
import importlib.util
import re
import types
from pathlib import Path

import streamlit
from streamlit.testing.v1 import AppTest

from tests.source_ast import nodes
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


def test_the_tests_own_private_apis():
    """What tests/test_st_interrupt.py and tests/test_fit_api.py use (tests only)."""
    ctx = _resolve("streamlit.runtime.scriptrunner_utils.script_run_context",
                   "get_script_run_ctx")
    assert callable(ctx), changed("…script_run_context.get_script_run_ctx", "not callable")
    rerun = _resolve("streamlit.runtime.scriptrunner_utils.script_requests", "RerunData")
    assert isinstance(rerun(), rerun), changed("…script_requests.RerunData",
                                               "no longer made without arguments")
    api = "streamlit.web.server.app_discovery.discover_asgi_app"
    found = _resolve("streamlit.web.server.app_discovery", "discover_asgi_app")(ROOT / "app.py")
    assert getattr(found, "is_asgi_app", None) is True, changed(api, f"gave {found!r}")
    assert getattr(found, "import_string", None) == "app:app", changed(api, f"gave {found!r}")


# The places a private use could hide: every Python file of the app and of its tests (but the
# fence and this, its contract test).
SCANNED = sorted([ROOT / "app.py", *(ROOT / "pages").glob("*.py"), *(ROOT / "ui").rglob("*.py"),
                  *(ROOT / "tests").rglob("*.py")])
FENCE = (ROOT / "ui" / "shared" / "st_private.py", Path(__file__).resolve())
#: Streamlit's documented modules beyond `streamlit` itself, with their documented names
#: (a module's other attributes, e.g. streamlit.components.v2.manifest_scanner, are not).
PUBLIC = {"streamlit.testing.v1": {"AppTest"},
          "streamlit.components.v1": {"html", "iframe", "declare_component"},
          "streamlit.components.v2": {"component"},
          "streamlit.column_config": None}          # None: every name without a leading _
#: What the tests may reach beyond that: the private APIs the fence lists, contract-tested.
FENCED = {f"{module}.{name}" for module, name in st_private.APIS}


def private_part(path: str, in_tests: bool) -> str | None:
    """The part of a dotted path into Streamlit ("streamlit.x.y…") that is not public, or
    None: a name with a leading _, a module that is not `streamlit` or one of PUBLIC (nor on
    the way to one), or a name of a PUBLIC module that it does not document. In tests, a path
    on the way to an API of st_private.APIS (e.g. its class) is allowed too."""
    if in_tests and any(api == path or api.startswith(path + ".") for api in FENCED):
        return None
    obj, here = streamlit, "streamlit"
    for part in path.split(".")[1:]:
        name = f"{here}.{part}"
        if part.startswith("_"):
            return name
        if here in PUBLIC:
            return None if PUBLIC[here] is None or part in PUBLIC[here] else name
        attr = getattr(obj, part, None)
        if attr is None and importlib.util.find_spec(name) is not None:
            attr = importlib.import_module(name)          # a module not imported yet
        if not isinstance(attr, types.ModuleType):        # a function, class, … (or nothing)
            return None if here == "streamlit" else name  # st.dataframe: public
        if not any(m == name or m.startswith(name + ".") for m in PUBLIC):
            return name
        obj, here = attr, name
    return None


def _dotted(node: ast.AST, aliases: set[str]) -> str | None:
    """`st.a.b` (st bound to streamlit) as "streamlit.a.b", else None."""
    names = []
    while isinstance(node, ast.Attribute):
        names.append(node.attr)
        node = node.value
    if isinstance(node, ast.Name) and node.id in aliases:
        return ".".join(["streamlit", *reversed(names)])
    return None


def private_uses(source: str, in_tests: bool = False) -> list[str]:
    """Every non-public Streamlit name a Python source reaches: by import, by attribute
    (`st._x`, `st.runtime.x`), by getattr(st, "_x") (any string the name argument holds) or by
    a dotted string ("streamlit.runtime.x", as monkeypatch.setattr takes)."""
    aliases = {a.asname or a.name for node in nodes(source) if isinstance(node, ast.Import)
               for a in node.names if a.name == "streamlit"}
    paths = []
    for node in nodes(source):
        if isinstance(node, ast.Import):
            paths += [a.name for a in node.names if a.name.startswith("streamlit.")]
        elif isinstance(node, ast.ImportFrom) and (node.module or "").split(".")[0] == "streamlit":
            paths += [f"{node.module}.{a.name}" for a in node.names]
        elif isinstance(node, ast.Attribute) and not isinstance(node.ctx, ast.Del):
            paths.append(_dotted(node, aliases))
        elif (isinstance(node, ast.Call) and isinstance(node.func, ast.Name)
              and node.func.id in ("getattr", "setattr", "hasattr", "delattr")
              and len(node.args) >= 2 and _dotted_root(node.args[0], aliases)):
            root = _dotted_root(node.args[0], aliases)
            paths += [f"{root}.{c.value}" for c in ast.walk(node.args[1])
                      if isinstance(c, ast.Constant) and isinstance(c.value, str)]
        elif (isinstance(node, ast.Constant) and isinstance(node.value, str)
              and re.fullmatch(r"streamlit(\.\w+)+", node.value)):
            paths.append(node.value)
    found = {private_part(p, in_tests) for p in paths if p}
    return sorted(f for f in found if f)


def _dotted_root(node: ast.AST, aliases: set[str]) -> str | None:
    return _dotted(node, aliases) if isinstance(node, (ast.Name, ast.Attribute)) else None


def test_the_scan_sees_every_way_in():
    """The scan below can fail: each of these reaches a private part, each public use not."""
    reaches = {
        "from streamlit.runtime.pages_manager import PagesManager": "streamlit.runtime",
        "import streamlit.web.server": "streamlit.web",
        "from streamlit import runtime": "streamlit.runtime",
        "from streamlit.components.v2 import manifest_scanner":
            "streamlit.components.v2.manifest_scanner",
        "import streamlit as st\nst._main": "streamlit._main",
        "import streamlit as xx\nxx.runtime.exists()": "streamlit.runtime",
        "import streamlit as st\ngetattr(st, '_main')": "streamlit._main",
        "import streamlit as st\ngetattr(st, 'info' if a else '_bottom')": "streamlit._bottom",
        "m.setattr('streamlit.runtime.pages_manager.PagesManager.x', 1)": "streamlit.runtime",
        "from streamlit.testing.v1.element_tree import Button": "streamlit.testing.v1.element_tree",
    }
    for source, part in reaches.items():
        assert private_uses(source) == [part], source
    public = ("import streamlit as st\nst.components.v2.component('x', html='')\n"
              "st.column_config.NumberColumn('n')\nst.session_state.x = 1\n"
              "getattr(st, 'error' if a else 'info')('t')\n"
              "from streamlit.testing.v1 import AppTest\nimport streamlit.components.v1\n"
              "m.setattr('streamlit.rerun', f)\n")
    assert private_uses(public) == []
    # a test may reach what the fence lists (and contract-tests), the app may not
    fenced = "from streamlit.runtime.pages_manager import PagesManager"
    assert private_uses(fenced, in_tests=True) == [] and private_uses(fenced) != []


def test_no_other_module_reaches_into_streamlit():
    assert all(p in SCANNED for p in FENCE) and len(SCANNED) > 50
    tests = ROOT / "tests"
    offenders = {str(p.relative_to(ROOT)): private_uses(p.read_text(encoding="utf-8"),
                                                         in_tests=tests in p.parents)
                 for p in SCANNED if p not in FENCE}
    offenders = {p: found for p, found in offenders.items() if found}
    assert not offenders, ("Streamlit internals outside ui/shared/st_private.py (move them "
                           "there, or for a test list them in its APIS, with a contract test "
                           f"here): {offenders}")


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


def test_a_script_is_compiled_once_per_text_and_again_after_an_edit(tmp_path, monkeypatch):
    from streamlit.runtime.scriptrunner.script_cache import ScriptCache

    api = "streamlit.runtime.scriptrunner.script_cache.ScriptCache.get_bytecode"
    script = tmp_path / "page.py"
    script.write_text("x = 1\n")
    code = ScriptCache().get_bytecode(str(script))     # Streamlit's (memoized by conftest.py)
    assert isinstance(code, types.CodeType) and code.co_filename == str(script), changed(
        api, f"gave {code!r}")

    calls = []

    def get_bytecode(self, script_path):
        calls.append(script_path)
        return compile(Path(script_path).read_text(), script_path, "exec")

    monkeypatch.setattr(ScriptCache, "get_bytecode", get_bytecode)
    st_private.memoize_script_bytecode()
    memoized = ScriptCache.get_bytecode
    assert memoized is not get_bytecode

    def run(code) -> int:
        namespace = {}
        exec(code, namespace)
        return namespace["x"]

    first = ScriptCache().get_bytecode(str(script))
    assert ScriptCache().get_bytecode(str(script)) is first and len(calls) == 1
    script.write_text("x = 2\n")                        # an edit: compiled again
    assert run(ScriptCache().get_bytecode(str(script))) == 2 and len(calls) == 2
    script.write_text("x = 1\n")                        # the first text again: its code
    assert ScriptCache().get_bytecode(str(script)) is first and run(first) == 1
    assert len(calls) == 2
    st_private.memoize_script_bytecode()                # idempotent: not wrapped twice
    assert ScriptCache.get_bytecode is memoized
