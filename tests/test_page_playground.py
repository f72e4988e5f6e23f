"""The Playground page end to end with Streamlit's AppTest (no browser).

The browser draws the picture, the numbers panel and the points table from the fit answer
(``ui.serving.fit_api.answer``) that the page puts in the canvas's payload; these tests read it
there.
"""

import re
from pathlib import Path

import numpy as np
import pytest
from streamlit.testing.v1 import AppTest

from svm_engine import datasets
from tests.plotly_json import read_payload
from ui.playground import panels
from ui.serving import fit_api
from ui.shared import links
from ui.shared import state as S
from ui.shared.numbers import fmt_pct
from ui.shared.session import shared
from ui.shared.settings import KERNELS, LOSSES, Settings

PAGE = str(Path(__file__).resolve().parents[1] / "pages" / "1_playground.py")
NOT_SEPARABLE = "not linearly separable in this feature space"


def new_app(query=None) -> AppTest:
    at = AppTest.from_file(PAGE, default_timeout=120)
    if query:
        at.query_params.update(query)
    return at.run()


def no_traceback(at: AppTest) -> None:
    assert not at.exception, [e.value for e in at.exception]
    for el in (*at.error, *at.warning, *at.markdown):
        assert "Traceback" not in str(el.value)


def canvas(at: AppTest) -> dict:
    """The data the page sent to the click canvas on the last run."""
    (el,) = [e for e in at.get("bidi_component") if e.proto.id.endswith(panels.CANVAS_KEY)]
    return read_payload(el.proto.json)


def answer(at: AppTest) -> dict:
    """The fit answer the canvas draws (the picture, the numbers panel and the points
    table): the page sends it after a change of data or settings; without one the browser
    posts the payload's points and settings to the fit endpoint, as done here."""
    data = canvas(at)
    if data["answer"] is not None:
        return data["answer"]
    home = {"x": data["home"][0], "y": data["home"][1]}
    return fit_api.refit({"points": data["points"], "settings": data["settings"],
                          "view": home, "home": home})  # fmt: skip


def numbers(at: AppTest) -> dict[str, str]:
    """The numbers panel as {quantity: value} ({} when there is no model)."""
    ans = answer(at)
    return {k: v for k, v in ans["panel"]} if ans["ok"] else {}


def load(at: AppTest, name: str) -> AppTest:
    at.selectbox(key="pg.dataset").set_value(name)
    at.run()
    at.button(key="pg.load").click()
    return at.run()


def state_points(at: AppTest):
    return np.asarray(shared(at.session_state).X), np.asarray(shared(at.session_state).y)


def test_default_is_book_d1_with_the_book_hyperplane():
    at = new_app()
    no_traceback(at)
    n = numbers(at)
    assert n["hyperplane"].startswith("0.83") and n["b"].startswith("−3.33"), n
    assert at.toggle(key="pg.hard_margin").value is True
    assert at.query_params["d"] == "d1" and at.query_params["C"] == "inf"


def test_every_dataset_kernel_and_loss_runs_without_exception():
    at = new_app()
    for name in (*datasets.BOOK, *datasets.GENERATORS):
        load(at, name)
        no_traceback(at)
        for kernel in KERNELS:
            at.radio(key="pg.kernel").set_value(kernel)
            for loss in LOSSES:
                at.radio(key="pg.loss").set_value(loss)
                at.run()
                no_traceback(at)
                assert numbers(at), f"{name} / {kernel} / {loss}: no model"
                assert shared(at.session_state).settings["kernel"] == kernel
                assert shared(at.session_state).settings["loss"] == loss


def test_changing_C_changes_the_reported_margin():
    at = load(new_app(), "d2")
    margins = []
    # the exact margins (cvxopt): 1.707 at C = 0.1, 1.266 at C = 0.5, 1.114 from C = 1 on
    # (the slack points x15..x18 are bound SVs for every C ≥ 1, so the hyperplane stays)
    for C in (0.1, 0.5, 1.0, 10.0):
        at.select_slider(key="pg.C").set_value(C)
        at.run()
        no_traceback(at)
        margins.append(float(numbers(at)["margin 1/‖w‖"]))
    assert margins[0] > margins[1] > margins[2]  # larger C, narrower margin
    assert margins[2:] == pytest.approx([1.114, 1.114], abs=1e-3)


def test_hard_margin_on_d2_says_not_separable():
    at = load(new_app(), "d2")
    at.toggle(key="pg.hard_margin").set_value(True)
    at.run()
    no_traceback(at)
    ans = answer(at)
    assert not ans["ok"] and ans["kind"] == "not_separable" and NOT_SEPARABLE in ans["message"]
    assert not numbers(at)
    X, _ = state_points(at)
    assert len(X) == 18  # the points are still there


def _open_panel(at: AppTest, panel: str) -> AppTest:
    at.segmented_control(key="pg.panel").set_value(panel)
    return at.run()


def _uploader(at: AppTest):
    (up,) = [u for u in at.file_uploader if str(u.key).startswith("pg.upload.")]
    return up


@pytest.mark.parametrize(
    "name, content, word",
    [
        ("bad.csv", b"1,2\nfoo,bar,baz\n", "line 2: 3 values, but the first line has 2"),
        ("bad.csv", b"1,2,1\n3,4,1\n", "need two classes, found 1"),
        ("bad.csv", b"x1,x2,y\n1,2,1\n3,nan,-1\n", "line 3: x2 (column 'x2'): 'nan' is not a"),
        ("big.csv", b"".join(b"%d,%d,%d\n" % (i, i, i % 2) for i in range(2001)), "too many"),
        ("bad.libsvm", b"1 1:2 1:3\n-1 1:0\n", "line 1: feature 1 is given twice"),
        ("![x](http://example.com/a.png).csv", b"x,y\n1,2\n", "need three columns"),
    ],
)
def test_bad_upload_shows_an_error_and_keeps_the_points(name, content, word):
    at = _open_panel(new_app(), "Import / export")
    before = state_points(at)
    _uploader(at).set_value((name, content, "text/csv"))
    at.run()
    no_traceback(at)
    errors = " ".join(unescape(e.value) for e in at.error)
    assert "Could not import" in errors and word in errors and "kept" in errors
    assert "![" not in " ".join(str(e.value) for e in at.error)   # a name is not Markdown
    after = state_points(at)
    np.testing.assert_array_equal(after[0], before[0])
    np.testing.assert_array_equal(after[1], before[1])


def unescape(text) -> str:
    """A message as the user reads it (`ui.data.io.markdown_safe` escapes Markdown)."""
    return re.sub(r"\\(.)", r"\1", str(text))


def test_good_upload_replaces_the_points():
    at = _open_panel(new_app(), "Import / export")
    _uploader(at).set_value(("pts.csv", b"x1,x2,y\n0,0,a\n1,1,b\n2,0,a\n", "text/csv"))
    at.run()
    no_traceback(at)
    X, y = state_points(at)
    np.testing.assert_array_equal(X, [[0, 0], [1, 1], [2, 0]])
    np.testing.assert_array_equal(y, [-1, 1, -1])
    assert any("Imported 3 points" in str(s.value) for s in at.success)
    assert numbers(at)  # and it was fitted


def test_a_label_first_csv_is_imported_by_its_column_names():
    """The issue's file: `y,x1,x2` was read as x1, x2, label (columns swapped)."""
    at = _open_panel(new_app(), "Import / export")
    content = b"y,x1,x2\n1,0.5,2.5\n-1,3,-1\n1,0.25,4\n-1,2.5,0\n"
    _uploader(at).set_value(("label_first.csv", content, "text/csv"))
    at.run()
    no_traceback(at)
    X, y = state_points(at)
    np.testing.assert_array_equal(X, [[0.5, 2.5], [3, -1], [0.25, 4], [2.5, 0]])
    np.testing.assert_array_equal(y, [1, -1, 1, -1])
    (msg,) = [unescape(s.value) for s in at.success]
    assert "Imported 4 points from label_first.csv: x1 = 'x1', x2 = 'x2', label = 'y'" in msg
    assert canvas(at)["points"] == [[0.5, 2.5, 1], [3.0, -1.0, -1], [0.25, 4.0, 1],
                                    [2.5, 0.0, -1]]


IRIS_LIKE = (b"sepal_length,sepal_width,petal_length,petal_width,species\n"
             b"5.1,3.5,1.4,0.2,setosa\n7.0,3.2,4.7,1.4,versicolor\n6.3,3.3,6.0,2.5,virginica\n"
             b"4.9,3.0,1.4,0.2,setosa\n6.4,3.2,4.5,1.5,versicolor\n5.8,2.7,5.1,1.9,virginica\n")


def test_a_wider_file_waits_for_the_columns_and_two_classes():
    at = _open_panel(new_app(), "Import / export")
    before = state_points(at)
    _uploader(at).set_value(("iris.csv", IRIS_LIKE, "text/csv"))
    at.run()
    no_traceback(at)
    np.testing.assert_array_equal(state_points(at)[0], before[0])   # nothing imported yet
    (k,) = [str(b.key)[: -len("go")] for b in at.button if str(b.key).endswith(".go")]
    assert at.selectbox(key=k + "x1").value == 0 and at.selectbox(key=k + "label").value == 4
    assert at.selectbox(key=k + "neg.4").options == ["setosa", "versicolor", "virginica"]
    at.selectbox(key=k + "x1").set_value(2)
    at.selectbox(key=k + "x2").set_value(3)
    at.selectbox(key=k + "neg.4").set_value(2)      # virginica → −1
    at.selectbox(key=k + "pos.4").set_value(1)      # versicolor → +1
    at.run()
    at.button(key=k + "go").click()
    at.run()
    no_traceback(at)
    X, y = state_points(at)
    np.testing.assert_array_equal(X, [[4.7, 1.4], [6.0, 2.5], [4.5, 1.5], [5.1, 1.9]])
    np.testing.assert_array_equal(y, [1, -1, 1, -1])
    (msg,) = [unescape(s.value) for s in at.success]
    assert "2 rows of other classes left out" in msg
    assert not [b for b in at.button if str(b.key).endswith(".go")]   # the picker is gone
    assert numbers(at)


def test_an_svmlight_file_with_five_features_waits_for_the_two_picked():
    """A file written by scikit-learn's dump_svmlight_file (zero-based, d = 5, labels 1 and
    2, separable in features 4 and 2): nothing is imported until the user picks x1 and x2
    among the five features; then the points are those two columns, exactly, and are fitted."""
    import io

    from sklearn.datasets import dump_svmlight_file

    rng = np.random.default_rng(8)
    X5 = rng.normal(size=(10, 5)).round(6)
    labels = np.where(X5[:, 4] + X5[:, 2] > 0, 2, 1)
    buf = io.BytesIO()
    dump_svmlight_file(X5, labels, buf, comment="five features")
    at = _open_panel(new_app(), "Import / export")
    before = state_points(at)
    _uploader(at).set_value(("five.svmlight", buf.getvalue(), "application/octet-stream"))
    at.run()
    no_traceback(at)
    np.testing.assert_array_equal(state_points(at)[0], before[0])   # nothing imported yet
    (k,) = [str(b.key)[: -len("go")] for b in at.button if str(b.key).endswith(".go")]
    x1 = at.selectbox(key=k + "x1")
    assert x1.options == ["label", *(f"feature {j}" for j in range(5))]   # as shown
    assert at.selectbox(key=k + "label").value == 0
    x1.set_value(5)                                  # feature 4
    at.selectbox(key=k + "x2").set_value(3)          # feature 2
    at.run()
    at.button(key=k + "go").click()
    at.run()
    no_traceback(at)
    X, y = state_points(at)
    np.testing.assert_array_equal(X, X5[:, [4, 2]])
    np.testing.assert_array_equal(y, np.where(labels == 2, 1, -1))
    (msg,) = [unescape(s.value) for s in at.success]
    assert "Imported 10 points from five.svmlight: x1 = 'feature 4', x2 = 'feature 2'" in msg
    assert numbers(at)["training accuracy"] == fmt_pct(1.0)      # separable in these two


def test_a_picked_column_that_is_not_a_number_is_refused_and_the_points_stay():
    at = _open_panel(new_app(), "Import / export")
    before = state_points(at)
    _uploader(at).set_value(("iris.csv", IRIS_LIKE, "text/csv"))
    at.run()
    (k,) = [str(b.key)[: -len("go")] for b in at.button if str(b.key).endswith(".go")]
    at.selectbox(key=k + "label").set_value(3)       # petal width as the label…
    at.run()
    at.selectbox(key=k + "x2").set_value(4)          # …and species as x2
    at.run()
    at.button(key=k + "go").click()
    at.run()
    no_traceback(at)
    errors = " ".join(unescape(e.value) for e in at.error)
    assert "line 2: x2 (column 'species'): 'setosa' is not a number" in errors
    np.testing.assert_array_equal(state_points(at)[0], before[0])


def test_a_link_built_from_a_state_restores_it():
    X = np.array([[0.0, 0.0], [1.0, 0.5], [2.0, 2.0], [3.0, 2.5], [0.5, 2.0]])
    y = np.array([-1, -1, 1, 1, 1])
    settings = Settings.parse(
        {"kernel": "polynomial", "degree": 3, "coef0": 1.0, "C": 4.0, "solver": "qp"}
    )
    at = new_app(links.encode_query(X, y, settings))
    no_traceback(at)
    X2, y2 = state_points(at)
    np.testing.assert_array_equal(X2, X)
    np.testing.assert_array_equal(y2, y)
    assert shared(at.session_state).settings == settings
    assert at.radio(key="pg.kernel").value == "polynomial"
    assert at.slider(key="pg.degree").value == 3
    assert at.select_slider(key="pg.C").value == 4.0
    assert numbers(at)["solver"] == "QP (cvxopt, interior point)"


def test_a_generator_link_restores_the_generator_widgets():
    at = new_app({"v": "1", "d": "moons", "n": "60", "noise": "0.3", "seed": "7", "k": "gaussian",
                  "s": "0.5"})  # fmt: skip
    no_traceback(at)
    assert len(state_points(at)[0]) == 60
    assert at.slider(key="pg.gen.n").value == 60 and at.number_input(key="pg.gen.seed").value == 7


@pytest.mark.parametrize(
    "query",
    [
        {"v": "1", "p": "not-base64!!"},
        {"v": "1", "d": "d1", "k": "sigmoid"},
        {"v": "1", "d": "d1", "C": "-3"},
        {"v": "1", "d": "evil", "n": "1e9"},
    ],
)
def test_a_tampered_link_gives_a_message_not_a_traceback(query):
    at = new_app(query)
    no_traceback(at)
    assert any("could not be opened" in str(w.value) for w in at.warning)
    X, _ = state_points(at)
    np.testing.assert_array_equal(X, datasets.d1().X)


def test_solvers_that_cannot_solve_the_problem_are_disabled_with_the_reason():
    at = load(new_app(), "d2")  # hinge loss, free bias
    assert not at.button(key="pg.solver.smo").disabled
    assert not at.button(key="pg.solver.qp").disabled
    assert at.button(key="pg.solver.newton").disabled
    assert at.button(key="pg.solver.sga").disabled
    captions = " ".join(str(c.value) for c in at.sidebar.caption)
    assert "Newton (SVM-Primal) solves the quadratic loss (k = 2) only" in captions
    assert "SGA (SVM-Dual) uses the augmented bias (b in w) only" in captions
    at.button(key="pg.solver.qp").click()
    at.run()
    assert numbers(at)["solver"] == "QP (cvxopt, interior point)"


def test_choosing_an_impossible_combination_switches_solver_with_a_note():
    at = load(new_app(), "d2")  # smo
    at.radio(key="pg.bias").set_value("augmented")  # smo needs a free bias
    at.run()
    no_traceback(at)
    assert shared(at.session_state).settings["solver"] != "smo"
    assert any(str(i.value).startswith("Solver changed to ") and "because SMO" in str(i.value)
               for i in at.info)
    assert numbers(at)


def test_the_points_table_columns_come_with_the_answer():
    at = load(new_app(), "d2")
    assert shared(at.session_state).settings["C"] == 1.0
    ans = answer(at)
    assert len(ans["category"]) == len(ans["xi"]) == len(ans["h"]) == len(ans["alpha"]) == 18
    assert ans["category"][15] == "misclassified" and abs(ans["xi"][15] - 1.667) < 5e-3
    assert canvas(at)["points"][15] == [2.0, 3.0, 1]  # x16 of slide 21


def test_a_canvas_sync_reruns_without_fitting_or_sending_the_picture_again():
    at = new_app()
    assert answer(at)["ok"]
    pts = canvas(at)["points"] + [[1.0, 1.0, -1]]
    at.session_state[panels.CANVAS_KEY] = {"points": {"epoch": canvas(at)["epoch"], "seq": 1,
                                                        "points": pts}}  # fmt: skip
    at.run()
    no_traceback(at)
    assert len(state_points(at)[0]) == 15 and canvas(at)["seq"] == 1
    assert canvas(at)["answer"] is None  # the browser fitted this edit through the endpoint
    # one path for an answer: a sync never asks for one (the "older server" fallback is gone)
    pts2 = pts + [[1.5, 1.0, -1]]
    at.session_state[panels.CANVAS_KEY] = {"points": {"epoch": canvas(at)["epoch"], "seq": 2,
                                                        "points": pts2, "want_answer": True}}
    at.run()
    no_traceback(at)
    assert len(state_points(at)[0]) == 16 and canvas(at)["answer"] is None


def test_load_into_playground_from_another_page():
    at = AppTest.from_file(PAGE, default_timeout=120)
    X = np.array([[1.0, 1.0], [2.0, 2.0]])
    S.load_into_playground(at.session_state, X, np.array([-1, 1]), {"C": 2.0}, "From page 2")
    at.run()
    no_traceback(at)
    assert state_points(at)[0].tolist() == X.tolist()
    assert at.select_slider(key="pg.C").value == 2.0
    assert canvas(at)["title"] == "From page 2"


def test_the_page_says_its_shared_answer_s_time_is_not_this_click_s():
    """Issue 16 item 12: the panel showed the first visitor's cached 2,266 ms as "time"."""
    at = new_app()
    data = canvas(at)
    assert data["answer"] is not None  # the page's own answer (cached, shared)
    time_row = dict(data["answer"]["panel"])["time"]
    assert time_row.startswith("already computed (") and time_row.endswith(" ms the first time)")
    body = {"points": data["points"], "settings": data["settings"]}
    assert dict(fit_api.refit(body)["panel"])["time"].endswith(" ms")  # the endpoint's: now
    assert "already" not in dict(fit_api.refit(body)["panel"])["time"]


def test_the_c_slider_says_infinity_under_the_hard_margin_and_the_page_has_a_heading():
    """Issue 32's cosmetics: the disabled C slider showed "1" under the hard margin; the
    Playground had no heading of its own (only the dataset's name beside the plot)."""
    from ui.shared.controls import HARD_C_TEXT

    at = new_app()  # D1: the hard margin
    c = at.select_slider(key="pg.C")
    assert at.toggle(key="pg.hard_margin").value is True and c.disabled
    assert list(c.proto.options).count(HARD_C_TEXT) == 1 and c.value == 1.0  # the thumb's
    assert [h.value for h in at.title] == ["Playground"]
    at.toggle(key="pg.hard_margin").set_value(False).run()
    no_traceback(at)
    c = at.select_slider(key="pg.C")
    assert not c.disabled and HARD_C_TEXT not in c.proto.options
    assert c.value == 1.0 and "1" in c.proto.options  # the soft margin's C, kept


def test_quick_controls_and_sidebar_share_one_state():
    """Issue 32 item 13: kernel, loss and C beside the plot are the sidebar's settings: a
    change in one shows in the other and refits (the canvas's payload carries the new C)."""
    at = new_app()
    at.toggle(key=S.Playground.widget_key("hard_margin")).set_value(False).run()  # D1 starts hard
    quick_c = at.select_slider(key="quick.C")
    quick_c.set_value(10.0).run()
    no_traceback(at)
    assert S.current_settings(at.session_state)["C"] == 10.0
    assert at.select_slider(key=S.Playground.widget_key("C")).value == 10.0
    at.select_slider(key=S.Playground.widget_key("C")).set_value(0.1).run()
    assert at.select_slider(key="quick.C").value == 0.1
    at.selectbox(key="quick.kernel").set_value("gaussian").run()
    no_traceback(at)
    assert at.radio(key=S.Playground.widget_key("kernel")).value == "gaussian"
    assert at.select_slider(key="quick.sigma").label.startswith("σ")
    at.selectbox(key="quick.loss").set_value("quadratic").run()
    assert at.radio(key=S.Playground.widget_key("loss")).value == "quadratic"
    assert S.current_settings(at.session_state)["loss"] == "quadratic"
