"""A teacher link's "predict first", on every page, until the teacher reveals it (issue 26):
a hiding link has its own id (a nonce) and reveal key; the hidden points are hidden on the
other pages too (not one page away); the teacher's reveal reaches a student's session; a
forged key reveals nothing."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from streamlit.testing.v1 import AppTest

from svm_engine import datasets
from ui.classroom.store import get_store
from ui.playground import panels
from ui.playground import teacher as T
from ui.playground import teacher_spec as TS
from ui.playground import teacher_store as TL
from ui.shared import reveal
from ui.shared.state import Playground

PAGES = Path(__file__).resolve().parents[1] / "pages"
TEACHER_PANEL = "Teacher link"


@pytest.fixture(autouse=True)
def link_db(tmp_path, monkeypatch):
    monkeypatch.setenv("SVMLAB_DATABASE_URL", f"sqlite:///{tmp_path / 'links.db'}")


def d2_spec(nonce: str = "", hidden=("numbers", "table")) -> TS.TeacherSpec:
    d = datasets.d2()
    return TS.make_spec(d.X, d.y, {"C": 1.0, "solver": "smo"}, title="D2", hidden=hidden,
                       nonce=nonce)


def test_a_nonce_makes_a_hiding_link_its_own_and_survives_both_link_forms():
    a, b = d2_spec("0123abcd"), d2_spec("89abcdef")
    assert a.id != b.id != d2_spec().id and d2_spec("0123abcd").id == a.id
    assert TS.decode_blob(TS.encode_blob(a)) == a and TS.decode_blob(TS.encode_blob(a)).nonce
    assert d2_spec("0123abcd", hidden=()).nonce == ""          # nothing hidden: no nonce
    assert d2_spec("", hidden=()).id == d2_spec("0123abcd", hidden=()).id
    with pytest.raises(TS.TeacherLinkError, match="nonce"):
        d2_spec("<script>")


def test_hidden_points_are_hidden_until_the_store_says_revealed():
    spec = d2_spec("0123abcd")
    link_id = TL.put_link(spec, key="the-teachers-key")
    ss: dict = {}
    T.open_link(ss, {"t": link_id})
    d, d1 = datasets.d2(), datasets.d1()
    assert reveal.hidden(ss) == {"numbers", "table"} and not T.shows(ss, "numbers")
    assert reveal.hides_points(ss, d.X, d.y) and not reveal.hides_points(ss, d1.X, d1.y)
    assert not reveal.hides_points(ss, d.X, -d.y)             # other labels: not the teacher's
    assert reveal.poll(ss) is False                           # not revealed yet
    with pytest.raises(TS.TeacherLinkError, match="reveal key"):
        TL.reveal_link(link_id, "a-forged-key")
    assert reveal.poll(ss) is False and reveal.hidden(ss)
    TL.reveal_link(link_id, "the-teachers-key")
    assert reveal.poll(ss) is True
    assert reveal.hidden(ss) == frozenset() and T.shows(ss, "numbers")
    assert not reveal.hides_points(ss, d.X, d.y)


def test_a_link_made_without_a_key_cannot_be_revealed():
    link_id = TL.put_link(d2_spec("0123abcd"))
    with pytest.raises(TS.TeacherLinkError):
        TL.reveal_link(link_id, "")


def student_session(at: AppTest, spec: TS.TeacherSpec) -> AppTest:
    ss: dict = {}
    T.open_link(ss, {"t": spec.id})
    for k, v in ss.items():
        at.session_state[k] = v
    return at


def test_worked_examples_hide_the_teacher_s_points_until_the_reveal():
    d = datasets.d1()
    spec = TS.make_spec(d.X, d.y, {"hard_margin": True}, hidden=["numbers"], nonce="00ff00ff")
    TL.put_link(spec, key="k" * 20)
    at = student_session(AppTest.from_file(str(PAGES / "2_worked_examples.py"),
                                           default_timeout=300), spec).run()
    assert not at.exception
    assert any(reveal.HIDDEN_TEXT in i.value for i in at.info)        # D1's tab: hidden
    assert not any("Book value" in m.value for m in at.markdown)
    TL.reveal_link(spec.id, "k" * 20)
    at.run()                                  # the watch fragment polls, then the page reruns
    assert not at.exception
    assert not any(reveal.HIDDEN_TEXT in i.value for i in at.info)
    assert any("Book value" in m.value for m in at.markdown)


def test_compare_solvers_hide_the_teacher_s_points_but_not_other_points():
    spec = d2_spec("0123abcd")
    TL.put_link(spec, key="k" * 20)
    at = AppTest.from_file(str(PAGES / "4_compare_solvers.py"), default_timeout=300)
    at = student_session(at, spec).run()       # its source: the Playground's points (D2)
    assert not at.exception
    assert any(reveal.HIDDEN_TEXT in i.value for i in at.info)
    assert not [d for d in at.dataframe if "agrees with cvxopt" in d.value.columns]
    at.selectbox(key="cmp.source").select("d1").run()
    assert not at.exception and not any(reveal.HIDDEN_TEXT in i.value for i in at.info)
    assert [d for d in at.dataframe if "agrees with cvxopt" in d.value.columns]


def test_the_teacher_panel_gives_a_hiding_link_a_key_and_reveals_it():
    from tests.test_page_teacher import open_page  # the Playground under AppTest
    at = open_page({})
    at.button_group(key="pg.panel").set_value(TEACHER_PANEL).run()
    at.selectbox(key="tl.preset").select("d2").run()
    at.button(key="tl.load").click().run()          # D2's preset hides the SVs and the table
    at.button(key="tl.make").click().run()
    assert not at.exception
    made = Playground.of(at.session_state).made
    assert made["id"] and made["spec"].nonce and made["spec"].hidden
    assert not get_store().link_revealed(made["id"])
    at.button(key="tl.reveal").click().run()
    assert not at.exception and get_store().link_revealed(made["id"])
    assert at.button(key="tl.reveal").disabled       # "Revealed to the students"
    assert np.array_equal(made["spec"].X, datasets.d2().X)


def canvas_place(at: AppTest) -> tuple[int, ...] | None:
    """Where the last run drew the Playground's canvas: its indices from the page's main
    area, as in Streamlit's delta path (the browser keeps an element by its place)."""
    return place_of(at, lambda node: node.type == "bidi_component"
                    and node.proto.id.endswith(panels.CANVAS_KEY))


def test_the_reveal_leaves_the_playground_s_canvas_in_its_place():
    """The reveal's rerun drew the page without the watch's fragment: every later element
    moved up one place, so the browser mounted a second canvas beside the old one until the
    run ended (two numbers panels: the browser test's locator matched both), and the clicks
    the old one had not yet sent to the session were lost."""
    from tests.test_page_teacher import canvas, open_page  # the Playground under AppTest

    spec = d2_spec("5eed5eed", hidden=("numbers",))
    TL.put_link(spec, key="k" * 20)
    at = open_page({"t": spec.id})
    assert not at.exception and canvas(at)["hide"] == ["numbers"]
    place = canvas_place(at)
    TL.reveal_link(spec.id, "k" * 20)
    at.run()                                  # the watch fragment polls, then the page reruns
    assert not at.exception and canvas(at)["hide"] == []
    assert place is not None and canvas_place(at) == place


def place_of(at: AppTest, found) -> tuple[int, ...] | None:
    """Where the last run drew the first node for which found(node) holds: its indices from
    the page's main area, as in Streamlit's delta path."""
    def walk(node, path):
        if found(node):
            return path
        for i, child in getattr(node, "children", {}).items():
            if (hit := walk(child, (*path, i))) is not None:
                return hit
        return None

    return walk(at.main, ())


def _keyboard_help(node) -> bool:
    return node.type == "expander" and getattr(node.proto, "label", "") == "Keyboard"


def _more_picker(node) -> bool:
    return node.type == "button_group" and getattr(node, "key", None) == "pg.panel"


def test_the_reveal_moves_nothing_a_keyboard_user_may_be_in():
    """Revealing the table added its legend before the "Keyboard" help, and revealing the
    numbers the "Why?" panel before the "More" picker: both moved one place down. The browser
    keeps an element by its place (a widget with a key by its key): it made the help anew,
    closed under a student reading it (the browser test of it in test_teacher_link.py)."""
    from tests.test_page_teacher import open_page  # the Playground under AppTest

    spec = d2_spec("5eed5eee", hidden=("numbers", "table"))
    TL.put_link(spec, key="k" * 20)
    at = open_page({"t": spec.id})
    assert not at.exception
    before = place_of(at, _keyboard_help), place_of(at, _more_picker)
    TL.reveal_link(spec.id, "k" * 20)
    at.run()
    assert not at.exception
    assert None not in before and (place_of(at, _keyboard_help), place_of(at, _more_picker)) \
        == before
    assert any(e.label.startswith("Why?") for e in at.expander)   # the reveal did show them
    assert any(panels.LABEL_LEGEND == c.value for c in at.caption)
