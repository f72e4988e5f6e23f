"""One state object per page under one session key (issue 30): no module but the state's home
(ui/shared/session.py) names a session key as a raw string. A page's state is a dataclass
(``ui.shared.session.PageState``) read with ``Cls.of(ss)``; its widget keys come from
``Cls.widget_key(name)``. The scan reads the AST of every module under ui/ and pages/ and of
app.py: a subscript, ``get``/``pop``/``setdefault``/``__setitem__``/``update`` or ``in`` on
the session state (``ss``, ``st.session_state``) whose key is a string literal, an f-string
or a ``K_*`` constant fails."""

from __future__ import annotations

import ast
import dataclasses
from pathlib import Path

import pytest

from ui.shared import session
from ui.shared.session import PageState, Shared, Widgets, page_state, shared

ROOT = Path(__file__).resolve().parents[1]
HOME = ROOT / "ui" / "shared" / "session.py"
SOURCES = sorted([*(ROOT / "ui").rglob("*.py"), *(ROOT / "pages").glob("*.py"), ROOT / "app.py"])
STATE_NAMES = {"ss", "session_state"}
METHODS = {"get", "pop", "setdefault", "__setitem__", "__getitem__", "__delitem__", "update"}


def _is_state(node: ast.AST) -> bool:
    """``ss``, ``session_state`` or ``<anything>.session_state``."""
    return ((isinstance(node, ast.Name) and node.id in STATE_NAMES)
            or (isinstance(node, ast.Attribute) and node.attr == "session_state"))


def _is_raw_key(node: ast.AST) -> bool:
    """A string literal, an f-string, or a ``K_*`` constant (``K_X``, ``state.K_X``)."""
    if isinstance(node, ast.Constant):
        return isinstance(node.value, str)
    if isinstance(node, ast.JoinedStr):
        return True
    name = node.id if isinstance(node, ast.Name) else getattr(node, "attr", "")
    return name.startswith("K_")


def raw_keys(tree: ast.AST) -> list[tuple[int, str]]:
    """(line, code) of every raw session key in ``tree``."""
    out = []
    for node in ast.walk(tree):
        key = None
        if isinstance(node, ast.Subscript) and _is_state(node.value):
            key = node.slice
        elif (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)
              and node.func.attr in METHODS and _is_state(node.func.value) and node.args):
            key = node.args[0]
            if node.func.attr == "update" and isinstance(key, ast.Dict):
                key = next((k for k in key.keys if k is not None and _is_raw_key(k)), None)
        elif (isinstance(node, ast.Compare) and len(node.ops) == 1
              and isinstance(node.ops[0], ast.In | ast.NotIn) and _is_state(node.comparators[0])):
            key = node.left
        if key is not None and _is_raw_key(key):
            out.append((node.lineno, ast.unparse(node)[:80]))
    return out


def test_no_module_but_the_home_names_a_session_key():
    found = [f"{p.relative_to(ROOT)}:{line}: {code}"
             for p in SOURCES if p != HOME
             for line, code in raw_keys(ast.parse(p.read_text(encoding="utf-8")))]
    assert not found, "session keys belong to ui/shared/session.py's objects:\n" + "\n".join(found)


@pytest.mark.parametrize("code", [
    'ss["svmlab.X"] = X', "st.session_state[K_RUN] = 1", "ss.pop(state.K_FLASH, None)",
    'ss.setdefault(f"{P}x", 0)', 'ss.update({"a": 1})', 'if "nav.page" in ss: pass',
    'x = st.session_state.get("svmlab.present")',
])
def test_the_scan_sees_each_form_of_a_raw_key(code):
    assert raw_keys(ast.parse(code))


@pytest.mark.parametrize("code", [
    'ss[K("dataset")] = "d1"', "ss[P + name] = v", "Playground.of(ss).answered = None",
    'ss.get(Playground.widget_key("panel"))', "ss[key]",
])
def test_widget_keys_from_the_page_class_are_not_raw(code):
    assert not raw_keys(ast.parse(code))


def test_every_page_state_has_its_own_key_and_widget_prefix():
    """A page's objects never collide: one key each, no prefix the start of another's."""
    import importlib

    for p in sorted((ROOT / "ui").glob("*/page_state.py")):
        importlib.import_module(f"ui.{p.parent.name}.page_state")
    importlib.import_module("ui.shared.state")
    classes = [Shared, *_subclasses(PageState)]
    keys = [c.KEY for c in classes]
    assert len(set(keys)) == len(keys) and all(keys), keys
    prefixes = [c.PREFIX for c in classes if c is not Shared]
    assert all(a == b or not b.startswith(a) for a in prefixes for b in prefixes), prefixes
    assert not any(k.startswith(p) for k in keys for p in prefixes)  # a load's clear keeps them
    ss: dict = {}
    shared(ss).epoch = 5
    ss[Shared.widget_key("student.toggle")] = True
    Shared.clear_widgets(ss)  # a widget goes, the objects stay
    assert list(ss) == [Shared.KEY] and shared(ss).epoch == 5


def _subclasses(cls):
    for sub in cls.__subclasses__():
        if sub is not Shared:
            yield sub
        yield from _subclasses(sub)


def test_one_object_per_page_made_once():
    ss: dict = {}
    a = shared(ss)
    a.epoch = 3
    assert page_state(ss, Shared) is a and list(ss) == [Shared.KEY] and shared(ss).epoch == 3
    assert dataclasses.is_dataclass(a)
    ss[Shared.KEY] = "stale"  # not the class (a reloaded module's): made anew
    assert shared(ss) is not a and shared(ss).epoch == 0


def test_kept_widgets_survive_a_visit_to_another_page():
    ss = {"p.kernel": "gaussian", "p.C": 10.0, "q.kernel": "linear"}
    w = Widgets("p.")
    w.keep(ss, ("kernel", "C", "missing"))
    assert w.kept == {"kernel": "gaussian", "C": 10.0}
    del ss["p.kernel"], ss["p.C"]  # what streamlit does on another page
    ss["p.C"] = 1.0  # a value the session has wins (no page was noted: not "arrived")
    w.restore(ss)
    assert (ss["p.kernel"], ss["p.C"], ss["q.kernel"]) == ("gaussian", 1.0, "linear")
    Widgets("p.").restore({})  # nothing remembered: nothing to do
    assert session.Shared.widget_key("student.toggle") == "svmlab.student.toggle"
