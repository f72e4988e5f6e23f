"""Undo across the changes made in Python (ui/shared/history.py): a load says what it changed, and
the canvas's Undo, past its own edits, brings back the points and the settings (issue 16
item 8: "Load dataset" silently replaced the kernel and C, and Undo brought back only the
points)."""

import math
from pathlib import Path

from streamlit.testing.v1 import AppTest

from tests.plotly_json import read_payload
from ui.playground import panels
from ui.shared import history
from ui.shared import state as S
from ui.shared.session import shared
from ui.shared.settings import DEFAULTS

ROOT = Path(__file__).resolve().parents[1]


def test_changes_names_what_differs():
    a = dict(DEFAULTS, kernel="polynomial", degree=4, C=10.0)
    b = dict(DEFAULTS, kernel="linear", C=math.inf, hard_margin=True)
    text = history.changes(a, b)
    assert "the kernel changed from polynomial to linear" in text and "C from 10 to ∞" in text
    assert "degree" not in text  # not a setting of the linear kernel
    assert history.changes(a, a) == ""


def test_remember_and_undo_round_trip():
    ss = {}
    S.ensure_state(ss)
    X0, y0, s0 = shared(ss).X.copy(), shared(ss).y.copy(), S.current_settings(ss)
    S.load_dataset(ss, "moons", n=40, noise=0.1, seed=1)
    assert len(shared(ss).y) == 40 and history.can_undo(ss)
    msg = history.undo(ss)
    assert (shared(ss).X == X0).all() and (shared(ss).y == y0).all()
    assert S.current_settings(ss) == s0 and "are back" in msg
    assert not history.can_undo(ss) and history.undo(ss) is None


def _canvas(at) -> dict:
    (el,) = [e for e in at.get("bidi_component") if e.proto.id.endswith(panels.CANVAS_KEY)]
    return read_payload(el.proto.json)


def test_a_load_says_what_it_changed_and_undo_brings_back_points_and_settings():
    at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=180).run()
    next(w for w in at.radio if w.key == "pg.kernel").set_value("gaussian").run()
    before = dict(shared(at.session_state).settings)
    n_before = len(shared(at.session_state).y)
    assert _canvas(at)["can_undo"] is False
    next(w for w in at.selectbox if w.key == "pg.dataset").set_value("d2").run()
    next(b for b in at.button if b.key == "pg.load").click().run()
    info = " ".join(str(i.value) for i in at.info)
    assert "Loaded" in info and f"replace your {n_before}" in info and "Undo" in info
    # the dataset's suggested settings, named in the sidebar's words
    assert "the kernel changed from Gaussian (RBF) to linear" in info
    shown = [t.value for t in at.text if t.value.startswith("Shown: ")]
    assert shown == [f"Shown: {shared(at.session_state).title}"]  # the sidebar names the data
    data = _canvas(at)
    assert data["can_undo"] is True and len(data["points"]) != n_before
    # the canvas's Undo with no edits of its own left asks the session
    at.session_state[panels.CANVAS_KEY] = {"points": {
        "epoch": data["epoch"], "seq": data["seq"], "points": data["points"], "undo": True}}
    at.run()
    assert not at.exception, [e.value for e in at.exception]
    assert shared(at.session_state).settings == before
    assert len(shared(at.session_state).y) == n_before
    assert any("are back" in str(i.value) for i in at.info)
    assert next(w for w in at.radio if w.key == "pg.kernel").value == "gaussian"
    assert _canvas(at)["can_undo"] is False


def test_points_without_settings_load_the_default_without_recursing():
    ss: dict = {}
    shared(ss).X, shared(ss).y = [[0.0, 0.0], [1.0, 1.0]], [1, -1]
    s = S.current_settings(ss)  # used to recurse: ensure_state → load → remember → …
    assert s == S.current_settings(ss) and shared(ss).settings is not None
