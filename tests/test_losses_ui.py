"""ui.losses: the page's pure pieces (the figures, the visit cap, the words)."""

import math

import numpy as np
import pytest

import svm_engine as se
from svm_engine import datasets as ds
from svm_engine import losses as L
from svm_engine import perceptron as P
from ui.losses import compute as C
from ui.losses import figures as F


def test_loss_figure_curves_and_marks():
    m = np.array([-2.0, 0.0, 0.5, 1.0, 4.0])
    y = np.array([1, -1, 1, -1, 1])
    fig = F.loss_figure(m, y)
    curves = {t["meta"]["loss"]: t for t in fig["data"] if t["meta"]["role"] == "curve"}
    assert list(curves) == list(L.NAMES)
    zo = curves["zero_one"]                  # the step is exact: 1 up to m = 0, then 0
    assert zo["x"][1:3] == [0.0, 0.0] and zo["y"] == [1.0, 1.0, 0.0, 0.0]
    xs = np.asarray(curves["logistic"]["x"])
    np.testing.assert_allclose(curves["logistic"]["y"], L.logistic(xs))
    assert fig["layout"]["xaxis"]["range"] == [-3.0, 4.5]
    marks = [t for t in fig["data"] if t["meta"]["role"] == "points"]
    assert len(marks) == 2 * len(L.NAMES)
    for t in marks:
        idx = np.asarray(t["customdata"]) - 1
        assert (y[idx] == t["meta"]["label"]).all()
        np.testing.assert_allclose(t["y"], L.get(t["meta"]["loss"])(m[idx]))
    with pytest.raises(ValueError, match="one label per margin"):
        F.loss_figure(m, y[:3])
    assert [t["meta"]["role"] for t in F.loss_figure()["data"]] == ["curve"] * 5


def test_m_range_limits():
    assert F.m_range([]) == F.M_SPAN
    assert F.m_range([-50.0, 80.0]) == (-F.M_LIMIT, F.M_LIMIT)
    assert C.outside([-50.0, 0.0, 80.0], -10, 10) == 2


def test_perceptron_figure_leaves_out_a_zero_line():
    d = ds.d1()
    svm = se.fit(d.X, d.y, C=math.inf)
    names = [t.get("name") for t in F.perceptron_figure(d.X, d.y, svm, after=([0, 0], 0.0))
             ["data"]]
    assert "perceptron" not in names and "SVM h(x) = 0" in names
    fig = F.perceptron_figure(d.X, d.y, None, before=([1, 0], -3.0), after=([1, 1], -5.0),
                              point=2)
    names = [t.get("name") for t in fig["data"]]
    assert "perceptron" in names and "perceptron, before this update" in names


def test_epoch_cap_keeps_the_visits_in_budget():
    assert C.epoch_cap(14, 1000) == 1000
    assert C.epoch_cap(2000, 1000) == C.MAX_VISITS // 2000
    assert C.epoch_cap(10**7, 5) == 1
    r = C.run_perceptron(*_xy("d2"), 1.0, 1000, "free", True, 0)
    assert r.max_epochs == min(1000, C.MAX_VISITS // 18)


def _xy(name):
    d = ds.load(name)
    return d.X, d.y


def test_words_name_the_update_and_the_outcome():
    X, y = _xy("d1")
    r = P.perceptron(X, y, eta=0.5, seed=1)
    t = r.trace[0]
    words = C.update_words(r, 1)
    assert words.startswith("**Update 1** (epoch 1, mistake 1")
    assert "y·f(x) = 0 ≤ 0" in words and f"b ← b + η·y = 0 {'+' if t['y'] > 0 else '−'} 0.5" \
        in words
    assert "Start" in C.update_words(r, 0)
    assert C.run_words(r, 100).startswith("Converged")
    capped = P.perceptron(*_xy("d2"), max_epochs=5)
    assert "raise the epoch cap" in C.run_words(capped, 5)
    assert "The cap is 5 epochs here, not 50" in C.run_words(capped, 50)


def test_why_words_follow_separability():
    X, y = _xy("d2")
    r = P.perceptron(X, y, max_epochs=5)
    svm = se.fit(X, y, C=1.0)
    assert "not linearly separable" in C.why_words(C.Lines(r, svm, False, False))
    assert "not computed here" in C.why_words(C.Lines(r, svm, False, None))
    X, y = _xy("d1")
    r = P.perceptron(X, y)
    hard = se.fit(X, y, C=math.inf)
    words = C.why_words(C.Lines(r, hard, True, True))
    assert "unique" in words
    assert "| SVM | 0.833·x1 + 0.333·x2 − 3.333 = 0 | yes | 1.114 | 1.114 (x" in words
    assert C.geometric_margin(hard.w, hard.b, X, y) == pytest.approx(hard.margin)
    assert math.isnan(C.geometric_margin([0, 0], 1.0, X, y))
    assert C.novikoff_words(r, hard).endswith(f"This run made {r.n_updates}.")
    assert C.novikoff_words(P.perceptron(X, y, bias="none"), hard) is None


def test_loss_rows():
    rows = C.loss_rows([-1.0, 2.0])
    assert [r["loss"] for r in rows] == [loss.label for loss in L.LOSSES]
    by = {r["loss"]: r for r in rows}
    assert by["hinge (k = 1)"]["Σ over the points"] == "2" and by["0-1"]["mean"] == "0.5"
    assert by["perceptron"]["≥ 0-1 loss everywhere"] == "no"
    assert C.loss_rows([1.0 - 1e-16])[1]["Σ over the points"] == "≈ 0"


def test_svm_failed_words_end_the_error_and_say_where_to_change():
    err = "X is too large for this kernel; rescale X (e.g. standardise each feature)"
    w = C.svm_failed_words(err, playground=True)
    assert w.startswith(f"No SVM with the Playground's settings: {err}. Change them on the "
                        "Playground")
    w = C.svm_failed_words("Stopped at the budget.", playground=False)
    assert "these points: Stopped at the budget. Mark the perceptron's margins" in w
    assert ".." not in w


def test_loss_figure_without_margins_has_the_curves_only():
    fig = F.loss_figure(None, np.array([1, -1, 1]))     # no classifier: y is not used
    assert [t["meta"]["role"] for t in fig["data"]] == ["curve"] * len(L.NAMES)
    with pytest.raises(ValueError, match="need one label per margin: 2 margins, 3 labels"):
        F.loss_figure(np.array([0.5, 1.0]), np.array([1, -1, 1]))
