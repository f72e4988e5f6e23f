"""A page's settings survive a visit to another page (streamlit drops the values of widgets a
run does not draw): a page's ``ui.shared.session.Widgets`` (``keep`` / ``restore``), and the
pages that use them."""

from pathlib import Path

import pytest
from streamlit.testing.v1 import AppTest

from ui.shared.nav import note_page
from ui.shared.session import Widgets, shared

ROOT = Path(__file__).resolve().parents[1]


def test_keep_and_restore_round_trip_without_overwriting():
    ss = {"p.kernel": "gaussian", "p.C": 10.0, "p.play": True, "q.kernel": "linear"}
    w = Widgets("p.")
    w.keep(ss, ("kernel", "C", "missing"))
    assert w.kept == {"kernel": "gaussian", "C": 10.0}
    del ss["p.kernel"], ss["p.C"]                 # what streamlit does on another page
    ss["p.C"] = 1.0                               # a value the session has wins
    w.restore(ss)
    assert (ss["p.kernel"], ss["p.C"], ss["q.kernel"]) == ("gaussian", 1.0, "linear")
    Widgets("p.").restore({})                     # nothing remembered: nothing to do


def test_a_fragment_rerun_after_arriving_keeps_what_the_user_typed():
    """Issue 32 item 1: the teacher panel runs in the Playground's canvas fragment, whose
    reruns do not pass through app.py, so the page still counted as just arrived and each
    rerun wrote the stored (empty) title back over the one the teacher had typed."""
    ss: dict = {}
    w = Widgets("tl.")
    note_page(ss, "")                              # a fresh session's first full run
    assert shared(ss).arrived()
    w.restore(ss)
    ss["tl.title"] = ""                            # the panel draws its widgets
    w.keep(ss, ("title",))
    ss["tl.title"] = "My title"                    # typed: the fragment reruns
    w.restore(ss)
    assert ss["tl.title"] == "My title"
    w.keep(ss, ("title",))
    note_page(ss, "step_through")                  # another page, and back: stale again
    ss["tl.title"] = ""                            # Streamlit's default on return
    note_page(ss, "")
    w.restore(ss)
    assert ss["tl.title"] == "My title"


def _widget(at, kind, key):
    return next(w for w in getattr(at, kind) if w.key == key)


@pytest.mark.parametrize("page, kind, key, value", [
    ("pages/3_step_through.py", "radio", "stp.kernel", "gaussian"),
    ("pages/3_step_through.py", "radio", "stp.solver", "sga"),
    ("pages/4_compare_solvers.py", "radio", "cmp.loss", "quadratic"),
    ("pages/4_compare_solvers.py", "radio", "cmp.tol", "default"),
])
def test_a_setting_survives_a_visit_to_the_playground(page, kind, key, value):
    at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=180).run()
    at.switch_page(page).run()
    assert _widget(at, kind, key).value != value
    _widget(at, kind, key).set_value(value).run()
    at.switch_page("pages/1_playground.py").run()
    assert not at.exception
    at.switch_page(page).run()
    assert not at.exception, [e.value for e in at.exception]
    assert _widget(at, kind, key).value == value


@pytest.mark.parametrize("other", ["pages/2_worked_examples.py", "pages/3_step_through.py"])
def test_the_playground_model_settings_survive_a_visit_to_another_page(other):
    """Issue 16 item 8: degree 4 came back as 2 and σ 0.4 as 1 (Streamlit drew the widgets
    from their defaults on return, and the page stored that)."""

    at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=180).run()
    _widget(at, "radio", "pg.kernel").set_value("polynomial").run()
    _widget(at, "slider", "pg.degree").set_value(4).run()
    at.switch_page(other).run()
    at.switch_page("pages/1_playground.py").run()
    assert not at.exception, [e.value for e in at.exception]
    assert _widget(at, "slider", "pg.degree").value == 4
    assert shared(at.session_state).settings["degree"] == 4
    _widget(at, "radio", "pg.kernel").set_value("gaussian").run()
    _widget(at, "select_slider", "pg.sigma").set_value(0.4).run()
    at.switch_page(other).run()
    at.switch_page("pages/1_playground.py").run()
    assert _widget(at, "select_slider", "pg.sigma").value == 0.4
    assert shared(at.session_state).settings["sigma"] == 0.4
    # and a change right after the return is the student's, not overwritten by the stored one
    _widget(at, "select_slider", "pg.sigma").set_value(2.0).run()
    assert shared(at.session_state).settings["sigma"] == 2.0
