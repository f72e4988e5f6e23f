"""Take the Playground's model away (ui.playground.takeaway and its panel): the JSON file
predicts as the Playground's fit, the scikit-learn code the panel shows runs and agrees."""

import contextlib
import io
import math
from pathlib import Path

import numpy as np
from streamlit.testing.v1 import AppTest

from svm_engine import datasets, export
from ui.playground import takeaway
from ui.shared import fitting
from ui.shared import state as S
from ui.shared.session import shared
from ui.shared.settings import Settings

PAGE = str(Path(__file__).resolve().parents[1] / "pages" / "1_playground.py")


def run_code(code: str) -> tuple[dict, str]:
    """Run the generated code (ours, from our own model) in a fresh namespace."""
    ns, out = {}, io.StringIO()
    with contextlib.redirect_stdout(out):
        exec(compile(code, "<panel code>", "exec"), ns)
    return ns, out.getvalue()


def grid(X, k=20):
    lo, hi = X.min(0) - 1, X.max(0) + 1
    g = np.meshgrid(np.linspace(lo[0], hi[0], k), np.linspace(lo[1], hi[1], k))
    return np.column_stack([a.ravel() for a in g])


def test_build_exports_the_playgrounds_own_fit():
    d = datasets.d2()
    settings = Settings.from_dataset(d.settings)
    t = takeaway.build(d.X, d.y, settings, d.title)
    model = fitting.fit_points(d.X, d.y, settings).model
    G = grid(d.X)
    np.testing.assert_array_equal(export.from_json(t.json_text).decision_function(G),
                                  model.decision_function(G))
    assert t.estimator == "SVC" and t.converged and t.code.startswith(f"# {d.title}\n")
    ns, out = run_code(t.code)
    h = model.decision_function(G)
    assert np.abs(ns["h"](G) - h).max() <= 1e-4 * max(1.0, np.abs(h).max())
    assert "largest |h − h_SVM Lab|" in out


def test_build_says_why_there_is_no_model():
    t = takeaway.build(np.array([[0.0, 0.0], [1.0, 1.0]]), np.array([1, 1]),
                       Settings.parse({}), "one class")
    assert t.error and "each class" in t.error and not t.json_text and not t.code


def test_file_stem():
    assert takeaway.file_stem("Book D1: separable (slide 15)") == \
        "svm_lab_model_book_d1_separable_slide_15"
    assert takeaway.file_stem("../../etc/passwd") == "svm_lab_model_etc_passwd"
    assert takeaway.file_stem("") == "svm_lab_model"


def open_export(at: AppTest) -> AppTest:
    at.segmented_control(key="pg.panel").set_value("Import / export")
    at.run()
    assert not at.exception, [e.value for e in at.exception]
    return at


def test_the_panel_shows_code_that_rebuilds_the_current_model():
    at = open_export(AppTest.from_file(PAGE, default_timeout=120).run())
    (code,) = at.code
    labels = [b.proto.label for b in at.get("download_button")]
    assert "Download the model (JSON)" in labels
    X, y = np.asarray(shared(at.session_state).X), np.asarray(shared(at.session_state).y)
    settings = dict(shared(at.session_state).settings)
    assert settings["hard_margin"]                      # the default: book D1, C = ∞
    model = fitting.fit_points(X, y, settings).model
    want = takeaway.build(X, y, settings, shared(at.session_state).title).code
    assert code.value == want.rstrip("\n")   # st.code drops the last newline
    assert "C = ∞" in code.value and "from sklearn.svm import SVC" in code.value
    ns, _ = run_code(code.value)
    G = grid(X)
    np.testing.assert_allclose(ns["h"](G), model.decision_function(G), atol=1e-4)
    np.testing.assert_allclose(model.w, [5 / 6, 1 / 3], atol=1e-4)   # the book's line


def test_the_panel_is_honest_when_scikit_learn_cannot_refit():
    at = AppTest.from_file(PAGE, default_timeout=120).run()
    at.toggle(key="pg.hard_margin").set_value(False).run()
    at.radio(key="pg.loss").set_value("quadratic").run()
    at = open_export(at)
    (code,) = at.code
    assert "scikit-learn cannot refit this model" in code.value
    assert any("no estimator for this model" in str(m.value) for m in at.markdown)
    X, y = np.asarray(shared(at.session_state).X), np.asarray(shared(at.session_state).y)
    model = fitting.fit_points(X, y, dict(shared(at.session_state).settings)).model
    assert model.loss == "quadratic" and not math.isinf(model.C)
    ns, _ = run_code(code.value)
    np.testing.assert_allclose(ns["h"](grid(X)), model.decision_function(grid(X)), atol=1e-12)


def test_no_model_no_files_and_the_points_stay():
    at = AppTest.from_file(PAGE, default_timeout=120)
    ss = {}
    S.load_into_playground(ss, [[0.0, 1.0], [1.0, 0.0]], [1, 1], {}, "one class")
    for k, v in ss.items():
        at.session_state[k] = v
    at = open_export(at.run())
    assert not at.code and not [b for b in at.get("download_button")
                                if b.proto.label == "Download the model (JSON)"]
    assert any("No model to export" in str(i.value) for i in at.info)
    assert np.asarray(shared(at.session_state).y).tolist() == [1, 1]
