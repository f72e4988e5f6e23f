"""The Losses & perceptron page under streamlit's AppTest: the loss curves with the points'
margins, the perceptron stepped update by update beside the maximum-margin line, and what the
page says about them — checked against the engine run here on the same points."""

import json
import math

import numpy as np
import pytest
from streamlit.testing.v1 import AppTest

import svm_engine as se
from svm_engine import datasets
from svm_engine import losses as L
from svm_engine import perceptron as P
from tests.plotly_json import chart_data, decoded
from ui.serving import budget
from ui.shared import state
from ui.shared.numbers import fmt_num
from ui.shared.session import shared

PAGE = "../pages/9_losses_perceptron.py"
TIMEOUT = 180


def start(source=None, **widgets):
    at = AppTest.from_file(PAGE, default_timeout=TIMEOUT)
    at.run()
    assert not at.exception, [e.value for e in at.exception]
    if source is not None:
        at.selectbox(key="los.source").select(source).run()
    for key, value in widgets.items():
        widget(at, "los." + key).set_value(value).run()
    assert not at.exception, [e.value for e in at.exception]
    return at


def widget(at, key):
    for kind in ("radio", "slider", "select_slider", "selectbox", "number_input"):
        for w in getattr(at, kind):
            if w.key == key:
                return w
    raise KeyError(key)


def press(at, key):
    (b,) = [b for b in at.button if b.key == key]
    b.click().run()
    assert not at.exception, [e.value for e in at.exception]



def charts(at) -> dict:
    out = {}
    for key, d in chart_data(at):
        out[key.rsplit("los.fig.", 1)[-1]] = decoded(json.loads(d["fig"]))
    return out


def text(at) -> str:
    return "\n".join(str(e.value) for kind in ("markdown", "caption", "success", "warning",
                                                "error") for e in getattr(at, kind))


def loss_table(at) -> dict:
    (df,) = [d.value for d in at.dataframe if "Σ over the points" in d.value.columns]
    return dict(zip(df["loss"], df["Σ over the points"], strict=True))


def num(s: str) -> float:
    if s == "≈ 0":
        return 0.0
    s = s.replace("−", "-")
    if "·10" in s:
        mant, exp = s.split("·10")
        return float(mant) * 10.0 ** int(exp.translate(str.maketrans("⁻⁰¹²³⁴⁵⁶⁷⁸⁹",
                                                                     "-0123456789")))
    return float(s)


def overlay_line(fig, name):
    """(w, b) of the overlay contour called ``name``, read back from its z grid."""
    (t,) = [t for t in fig["data"] if t.get("name") == name]
    xs, ys, z = np.array(t["x"]), np.array(t["y"]), np.array(t["z"], dtype=float)
    w0 = (z[0, -1] - z[0, 0]) / (xs[-1] - xs[0])
    w1 = (z[-1, 0] - z[0, 0]) / (ys[-1] - ys[0])
    return np.array([w0, w1]), z[0, 0] - w0 * xs[0] - w1 * ys[0]


def test_default_d1_losses_and_converged_perceptron():
    at = start()
    d = datasets.d1()
    run = P.perceptron(d.X, d.y, eta=1.0, max_epochs=100, shuffle=True, seed=0)
    assert "Losses & perceptron" in at.title[0].value
    (ok,) = at.success
    assert f"after {run.n_updates} updates" in ok.value and "Converged" in ok.value
    # the step slider covers every recorded update and starts at the last one
    (s,) = [s for s in at.slider if s.key == "los.step"]
    assert s.max == run.n_updates == s.value
    # the SVM's margins (hard margin on D1: every m ≥ 1) marked on each curve
    svm = se.fit(d.X, d.y, C=math.inf)
    m = L.margins(svm, d.X, d.y)
    fig = charts(at)["losses"]
    for name in L.NAMES:
        marks = [t for t in fig["data"] if t["meta"] == {"role": "points", "loss": name,
                                                         "label": 1}]
        (tr,) = marks
        idx = np.array(tr["customdata"]) - 1
        np.testing.assert_allclose(tr["x"], m[idx], atol=1e-4)
        np.testing.assert_allclose(tr["y"], L.get(name)(m[idx]), atol=1e-4)
    t = loss_table(at)
    assert t["0-1"] == "0" and t["hinge (k = 1)"] in ("0", "≈ 0")
    # the perceptron's line in the figure is the run's, and so is the SVM's
    fig = charts(at)["perceptron"]
    w, b = overlay_line(fig, "perceptron")
    scale = np.linalg.norm(np.append(run.w, run.b)) / np.linalg.norm(np.append(w, b))
    np.testing.assert_allclose(np.append(w, b) * scale, np.append(run.w, run.b), atol=1e-3)
    assert any(t.get("name") == "SVM h(x) = 0" for t in fig["data"])
    words = text(at)
    bound = P.novikoff_bound(d.X, d.y, svm.w, svm.b)[2]
    assert f"This run made {run.n_updates}" in words and f"{bound:.4g}" in words
    assert "0.833·x1 + 0.333·x2 − 3.333 = 0" in words          # the book's line, slide 16


def test_stepping_shows_each_update():
    at = start()
    d = datasets.d1()
    run = P.perceptron(d.X, d.y, seed=0)
    press(at, "los.first")
    assert at.session_state["los.step"] == 0 and "**Start:**" in text(at)
    assert not [t for t in charts(at)["perceptron"]["data"] if t.get("name") == "perceptron"]
    press(at, "los.next")
    press(at, "los.next")
    rec = run.trace[1]
    words = text(at)
    assert "**Update 2**" in words and f"x{_sub(rec['i'] + 1)} = " in words
    fig = charts(at)["perceptron"]
    w, b = overlay_line(fig, "perceptron")
    want = np.append(rec["w_after"], rec["b_after"])
    np.testing.assert_allclose(np.append(w, b) / np.abs(np.append(w, b)).max(),
                               want / np.abs(want).max(), atol=1e-3)
    (hl,) = [t for t in fig["data"] if t["meta"]["role"] == "highlight"]
    assert [hl["x"][0], hl["y"][0]] == d.X[rec["i"]].tolist()
    press(at, "los.prev")
    assert "**Update 1**" in text(at)
    press(at, "los.last")
    assert at.session_state["los.step"] == run.n_updates


def _sub(i):
    return str(i).translate(str.maketrans("0123456789", "₀₁₂₃₄₅₆₇₈₉"))


def test_margins_of_the_perceptron_at_the_step():
    at = start(h_from="perceptron")
    d = datasets.d1()
    run = P.perceptron(d.X, d.y, seed=0)
    press(at, "los.first")
    press(at, "los.next")
    w, b = run.trace[0]["w_after"], run.trace[0]["b_after"]
    m = d.y * (d.X @ np.array(w) + b)
    t = loss_table(at)
    assert num(t["0-1"]) == float((m <= 0).sum())
    assert num(t["perceptron"]) == pytest.approx(L.perceptron(m).sum(), rel=1e-3)
    press(at, "los.last")                     # converged: no point on the wrong side
    assert num(loss_table(at)["0-1"]) == 0 and num(loss_table(at)["perceptron"]) == 0


def test_d2_is_not_separable_and_the_page_says_so():
    at = start("d2", epochs=50)
    d = datasets.d2()
    (warn,) = at.warning
    assert "epoch cap (50 epochs" in warn.value and "not linearly separable" in warn.value
    words = text(at)
    assert "not linearly separable, so the perceptron never has" in words
    assert "Novikoff" not in words
    t = loss_table(at)                          # the book's soft margin, C = 1 (slides 22–23)
    assert num(t["0-1"]) == 2 and num(t["hinge (k = 1)"]) == pytest.approx(5.667, abs=1e-3)
    run = P.perceptron(d.X, d.y, max_epochs=50, seed=0)
    (s,) = [s for s in at.slider if s.key == "los.step"]
    assert s.max == run.n_updates


def test_seed_and_data_order_change_the_run():
    at = start()
    d = datasets.d1()
    at = start(seed=2)
    run = P.perceptron(d.X, d.y, seed=2)
    assert f"after {run.n_updates} updates" in at.success[0].value
    assert at.session_state["los.step"] == run.n_updates     # a new run shows its end
    widget(at, "los.order").set_value("data").run()
    fixed = P.perceptron(d.X, d.y, shuffle=False)
    assert f"after {fixed.n_updates} updates" in at.success[0].value
    assert widget(at, "los.seed").disabled


def test_epoch_cap_is_lowered_for_many_points():
    at = start("xor")
    widget(at, "los.gen.n").set_value(2000).run()
    widget(at, "los.epochs").set_value(1000).run()
    assert not at.exception
    (warn,) = at.warning
    assert "The cap is 100 epochs here, not 1000" in warn.value
    assert "The hard margin is not drawn" in text(at)


def test_one_class_is_refused_and_the_points_stay():
    at = AppTest.from_file(PAGE, default_timeout=TIMEOUT)
    ss = {}
    state.load_into_playground(ss, [[0.0, 1.0], [1.0, 0.0]], [1, 1], {}, "one class")
    for k, v in ss.items():
        at.session_state[k] = v
    at.run()
    assert not at.exception
    (err,) = at.error
    assert "at least one point of each class" in err.value
    assert shared(at.session_state).y.tolist() == [1, 1]


def playground(X, y, settings, title="points") -> AppTest:
    """The page run on the Playground's points and settings (the default source)."""
    at = AppTest.from_file(PAGE, default_timeout=TIMEOUT)
    ss = {}
    state.load_into_playground(ss, X, y, settings, title)
    for k, v in ss.items():
        at.session_state[k] = v
    return at.run()


def test_a_failed_svm_is_a_warning_and_the_rest_is_shown():
    d = datasets.d2()                                  # not separable by a line
    at = playground(d.X, d.y, {"kernel": "linear", "hard_margin": True}, "D2")
    assert not at.exception, [e.value for e in at.exception]
    warnings = [str(w.value) for w in at.warning]
    (svm,) = [w for w in warnings if w.startswith("No SVM with the Playground's settings")]
    assert se.NOT_SEPARABLE in svm and "Use a finite C" in svm
    assert "Change them on the Playground" in svm
    fig = charts(at)["losses"]                         # the five curves, no points marked
    assert sorted(t["meta"]["loss"] for t in fig["data"]) == sorted(L.NAMES)
    assert all(t["meta"]["role"] == "curve" for t in fig["data"])
    run = P.perceptron(d.X, d.y, max_epochs=100, seed=0)      # the perceptron is still there
    (s,) = [s for s in at.slider if s.key == "los.step"]
    assert s.max == run.n_updates
    perceptron = charts(at)["perceptron"]
    assert any(t.get("name") == "perceptron" for t in perceptron["data"])
    assert any(t.get("name") == "SVM h(x) = 0" for t in perceptron["data"])  # the soft margin
    widget(at, "los.h_from").set_value("perceptron").run()   # its margins are marked
    assert not at.exception
    marks = [t for t in charts(at)["losses"]["data"] if t["meta"]["role"] == "points"]
    assert sum(len(t["x"]) for t in marks) == len(L.NAMES) * len(d.X)


def test_a_stopped_perceptron_says_what_to_change(monkeypatch):
    def stopped(*args, **kwargs):
        raise budget.Stopped("This did not finish within its 2 s budget and was stopped.")

    monkeypatch.setattr(budget, "run", stopped)
    at = AppTest.from_file(PAGE, default_timeout=TIMEOUT)
    at.session_state["los.seed"] = 4321                # a run no other test cached
    at.run()
    assert not at.exception, [e.value for e in at.exception]
    (err,) = [str(e.value) for e in at.error]
    assert "2 s budget" in err and "Lower the epoch cap or use fewer points" in err
    assert f"n = {len(datasets.d1().X)} points" in text(at)      # the points are kept


def test_a_stopped_svm_says_so_and_the_rest_is_shown(monkeypatch):
    real = budget.run

    def svm_stopped(task, *args, **kwargs):
        if task == "fit":
            raise budget.Stopped("This did not finish within its 2 s budget and was stopped.")
        return real(task, *args, **kwargs)

    monkeypatch.setattr(budget, "run", svm_stopped)
    at = AppTest.from_file(PAGE, default_timeout=TIMEOUT)
    at.session_state["los.source"] = "blobs"
    at.session_state["los.gen.seed"] = 4322            # points no other test fitted
    at.run()
    assert not at.exception, [e.value for e in at.exception]
    warnings = [str(w.value) for w in at.warning]
    assert any(w.startswith("No SVM with the suggested settings of these points: This did not "
                            "finish within its 2 s budget") for w in warnings), warnings
    assert any(w.startswith("No maximum-margin line: This did not finish") for w in warnings)
    d = datasets.load("blobs", n=60, noise=0.1, seed=4322)
    run = P.perceptron(d.X, d.y, max_epochs=100, seed=0)
    (s,) = [s for s in at.slider if s.key == "los.step"]
    assert s.max == run.n_updates
    assert sorted(t["meta"]["loss"] for t in charts(at)["losses"]["data"]) == sorted(L.NAMES)
    assert any(t.get("name") == "perceptron" for t in charts(at)["perceptron"]["data"])


def distance_table_rows(at) -> dict:
    """The distance table's rows as {name: [cells]} (read off the page's markdown)."""
    rows = {}
    for line in text(at).splitlines():
        cells = [c.strip() for c in line.strip().strip("|").split(" | ")]
        if cells and cells[0] in ("perceptron", "SVM"):
            rows[cells[0]] = cells
    return rows


def test_d2_distances_say_the_line_does_not_separate():
    """Slide 6's δ* is a margin only for a separating line: on D2 the SVM's closest point is
    x17 (|h|/‖w‖ = 0.186), its worst signed one x18 (−2.043), and no margin is shown."""
    at = start("d2", epochs=50)
    d = datasets.d2()
    svm = se.fit(d.X, d.y, C=1.0)
    h = d.X @ svm.w + svm.b
    norm = float(np.linalg.norm(svm.w))
    row = distance_table_rows(at)["SVM"]
    assert row[2].startswith("no")
    assert row[3] == "–"
    close = int(np.argmin(np.abs(h)))
    assert close == 16 and row[4] == f"{fmt_num(np.abs(h).min() / norm)} (x17)"
    assert float(row[4].split()[0]) == pytest.approx(0.186, abs=5e-4)
    worst = float((d.y * h).min() / norm)
    assert row[5] == f"{fmt_num(worst)} (x18)"
    assert float(row[5].split()[0].replace("−", "-")) == pytest.approx(-2.043, abs=5e-4)
    assert "only when the line separates" in text(at)


def test_d1_distances_show_the_margin():
    at = start()
    row = distance_table_rows(at)["SVM"]
    assert row[2] == "yes" and float(row[3]) == pytest.approx(1 / math.hypot(5 / 6, 1 / 3),
                                                               abs=1e-3)
