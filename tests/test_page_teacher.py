"""Teacher links on the Playground page (AppTest): what a student sees, the locks, reset, the
teacher's panel and present mode."""

from pathlib import Path

import numpy as np
import pytest
from streamlit.testing.v1 import AppTest

from svm_engine import datasets
from tests.plotly_json import read_payload
from ui.classroom.store import get_store
from ui.playground import panels, teacher_panel
from ui.playground import teacher as T
from ui.playground import teacher_presets as TP
from ui.playground import teacher_spec as TS
from ui.playground import teacher_store as TL
from ui.serving import fit_api
from ui.shared import links
from ui.shared.session import shared

PAGE = str(Path(__file__).resolve().parents[1] / "pages" / "1_playground.py")
EVIL = "**x** <script>alert(1)</script> [a](javascript:x)"
QUESTION = "Which points need slack? <b>Predict</b> first: $x$ :red[now]"


@pytest.fixture(autouse=True)
def link_db(tmp_path, monkeypatch):
    """The short links' store of this test: a database of its own (ui/classroom/store)."""
    url = f"sqlite:///{tmp_path / 'links.db'}"
    monkeypatch.setenv("SVMLAB_DATABASE_URL", url)
    return get_store(url)


def d2_spec(**kw) -> TS.TeacherSpec:
    d = datasets.d2()
    args = {"title": EVIL, "question": QUESTION, "locked": ["points", "kernel", "C", "solver"],
            "hidden": ["table", "numbers"]} | kw  # fmt: skip
    return TS.make_spec(d.X, d.y, {"C": 1.0, "solver": "smo"}, **args)


def open_page(query) -> AppTest:
    at = AppTest.from_file(PAGE, default_timeout=120)
    at.query_params.update(query)
    return at.run()


def no_traceback(at: AppTest) -> None:
    assert not at.exception, [e.value for e in at.exception]


def canvas(at: AppTest) -> dict:
    """The data the page sent to the click canvas on the last run (see test_page_playground)."""
    (el,) = [e for e in at.get("bidi_component") if e.proto.id.endswith(panels.CANVAS_KEY)]
    return read_payload(el.proto.json)


def all_markdown(at: AppTest) -> str:
    return "\n".join(str(m.value) for m in (*at.markdown, *at.caption, *at.warning, *at.info))


def test_a_teacher_link_shows_title_and_question_as_plain_text_and_locks_controls():
    at = open_page({"ts": TS.encode_blob(d2_spec())})
    no_traceback(at)
    assert [t.value for t in at.text][:2] == [EVIL, QUESTION]  # st.text: never markdown
    md = all_markdown(at)
    assert "<script>" not in md and "javascript:" not in md and "Predict" not in md
    locked = [at.radio(key="pg.kernel"), at.select_slider(key="pg.C"),
              at.toggle(key="pg.hard_margin"), at.selectbox(key="pg.dataset"),
              at.button(key="pg.load"), at.button(key="pg.solver.qp")]  # fmt: skip
    for w in locked:
        assert w.disabled and w.help == T.LOCKED_HELP, w.key
    for w in (at.radio(key="pg.loss"), at.radio(key="pg.bias")):
        assert not w.disabled, w.key
    # the canvas (it draws the numbers and the table): points locked, both hidden
    data = canvas(at)
    assert data["locked"] is True and data["hide"] == ["numbers", "table"]
    # (and the endpoint, whose answers carry the style, leaves them out too)
    assert data["style"] == {"scale": 1.0, "show_sv": True, "hide": ["numbers", "table"],
                             "student": True}  # a teacher link opens in the student view
    assert shared(at.session_state).settings == d2_spec().settings


def test_the_student_changes_what_is_unlocked_and_reset_brings_the_picture_back():
    spec = d2_spec()
    blob = TS.encode_blob(spec)
    at = open_page({"ts": blob})
    at.radio(key="pg.loss").set_value("quadratic").run()
    no_traceback(at)
    assert shared(at.session_state).settings["loss"] == "quadratic"
    assert at.query_params["ts"] == blob and at.query_params["l"] == "quadratic"
    at.button(key="svmlab.teacher.reset").click().run()
    no_traceback(at)
    assert shared(at.session_state).settings == spec.settings
    assert at.radio(key="pg.loss").value == "hinge"
    assert dict(at.query_params) == {"ts": blob}
    at.button(key="svmlab.teacher.undo_reset").click().run()
    assert at.radio(key="pg.loss").value == "quadratic"


def test_a_reloaded_student_link_keeps_the_changes_within_the_locks():
    spec = d2_spec()
    mine = links.encode_query(spec.X, spec.y, {**spec.settings, "loss": "quadratic",
                                           "kernel": "gaussian"})  # fmt: skip
    at = open_page({"ts": TS.encode_blob(spec), **mine})
    no_traceback(at)
    assert at.radio(key="pg.loss").value == "quadratic"
    assert at.radio(key="pg.kernel").value == "linear"  # locked: the teacher's


def test_a_short_link_opens_the_stored_picture(link_db):
    spec = d2_spec(hidden=[])
    link_id = TL.put_link(spec, link_db)
    at = open_page({"t": link_id})
    no_traceback(at)
    assert not at.warning
    assert at.text[0].value == EVIL
    np.testing.assert_array_equal(shared(at.session_state).X, spec.X)
    assert canvas(at)["hide"] == [] and canvas(at)["locked"] is True


def test_an_unknown_short_link_says_so_and_shows_the_default():
    at = open_page({"t": "aaaaaaaaaa"})
    no_traceback(at)
    assert any("not stored on this server" in str(w.value) and "long link" in str(w.value)
               for w in at.warning)  # fmt: skip
    np.testing.assert_array_equal(shared(at.session_state).X, datasets.d1().X)
    assert not at.radio(key="pg.kernel").disabled
    assert canvas(at)["locked"] is False


@pytest.mark.parametrize("query", [{"ts": "AAAA$"}, {"t": "../x"}, {"ts": "eJzLSM3JyQcABiwCFQ"}])
def test_a_tampered_teacher_link_gives_a_message_not_a_traceback(query):
    at = open_page(query)
    no_traceback(at)
    assert any("could not be opened" in str(w.value) for w in at.warning)
    np.testing.assert_array_equal(shared(at.session_state).X, datasets.d1().X)


def test_the_teacher_makes_a_link_from_a_preset_and_it_opens(link_db):
    at = AppTest.from_file(PAGE, default_timeout=120).run()
    at.segmented_control(key="pg.panel").set_value("Teacher link").run()
    at.selectbox(key=teacher_panel.TK("preset")).set_value("nonlinear").run()
    at.button(key=teacher_panel.TK("load")).click().run()
    no_traceback(at)
    preset = TP.PRESETS_BY_KEY["nonlinear"]
    assert at.text_input(key=teacher_panel.TK("title")).value == preset.title
    assert shared(at.session_state).settings["kernel"] == "polynomial"
    at.text_input(key=teacher_panel.TK("title")).set_value(EVIL).run()
    at.button(key=teacher_panel.TK("make")).click().run()
    no_traceback(at)
    spec = TP.preset_spec("nonlinear")
    spec = TS.make_spec(spec.X, spec.y, spec.settings, title=EVIL, question=spec.question,
                       locked=spec.locked, hidden=spec.hidden)  # fmt: skip
    codes = [c.value for c in at.code]
    assert f"/?t={spec.id}" in codes[0] or codes[0] == f"?t={spec.id}"
    assert link_db.get_link(spec.id) == spec.canonical()
    assert any(c.endswith(TS.encode_blob(spec)) for c in codes)  # the long link
    # a student opens it
    student = open_page({"t": spec.id})
    no_traceback(student)
    assert student.text[0].value == EVIL
    assert student.radio(key="pg.loss").disabled and not student.radio(key="pg.kernel").disabled


def test_present_mode_toggles_from_the_panel_and_the_link():
    at = AppTest.from_file(PAGE, default_timeout=120).run()
    at.segmented_control(key="pg.panel").set_value("Teacher link").run()
    at.toggle(key=teacher_panel.TK("present")).set_value(True).run()
    no_traceback(at)
    assert shared(at.session_state).present and at.query_params["present"] == "1"
    at.button(key="svmlab.present.exit").click().run()
    assert not shared(at.session_state).present and "present" not in at.query_params
    assert at.toggle(key=teacher_panel.TK("present")).value is False
    at2 = open_page({"ts": TS.encode_blob(d2_spec(hidden=["sv"])), "present": "1"})
    no_traceback(at2)
    assert shared(at2.session_state).present and at2.button(key="svmlab.present.exit")
    # the figure: larger markers, no SV rings or slack (also in the endpoint's answers)
    data = canvas(at2)
    assert data["style"] == {"scale": T.PRESENT_SCALE, "show_sv": False, "student": True}
    fig = data["answer"]["figure"]
    roles = {t["meta"]["role"] for t in fig["data"]}
    assert "points" in roles and not {"sv", "slack"} & roles
    pts = next(t for t in fig["data"] if t["meta"]["role"] == "points")
    assert pts["marker"]["size"] > 12 and data["answer"]["rings"] == []
    home = {"x": data["home"][0], "y": data["home"][1]}
    posted = fit_api.refit({"points": data["points"], "settings": data["settings"],
                            "view": home, "home": home, "style": data["style"]})  # fmt: skip
    assert posted["rings"] == [] and posted["slack"]["lines"] == []
