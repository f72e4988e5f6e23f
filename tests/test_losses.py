"""svm_engine.losses: the five losses of m = y·h(x), checked against their definitions and
against the SVM's own slack (the hinge total is Σξᵢ, the book's D2 numbers)."""

import math

import numpy as np
import pytest

import svm_engine as se
from svm_engine import datasets as ds
from svm_engine import losses as L

M = np.concatenate([np.linspace(-6, 6, 1201), [0.0, 1.0, -1.0, 1e-300, -1e-300]])


def test_each_loss_is_its_formula():
    for m in M.tolist():
        assert L.zero_one(m) == (1.0 if m <= 0 else 0.0)
        assert L.hinge(m) == max(0.0, 1.0 - m)
        assert L.squared_hinge(m) == max(0.0, 1.0 - m) ** 2
        assert L.perceptron(m) == max(0.0, -m)
        assert L.logistic(m) == pytest.approx(math.log2(1.0 + math.exp(-m)), rel=1e-14)


def test_logistic_is_base_two_and_does_not_overflow():
    assert L.logistic(0.0) == 1.0                 # log₂ 2: where it meets the 0-1 loss
    big = np.array([-1e4, 1e4])
    out = L.logistic(big)
    assert np.isfinite(out).all()
    assert out[0] == pytest.approx(1e4 / math.log(2), rel=1e-12) and out[1] == 0.0


def test_which_losses_bound_zero_one_from_above():
    zero_one = L.zero_one(M)
    for loss in L.LOSSES:
        holds = bool((loss(M) >= zero_one).all())
        assert holds == loss.bounds_zero_one, loss.name
    # the perceptron loss fails exactly where a point is on the line or barely right of it
    assert L.perceptron(0.0) == 0.0 and L.zero_one(0.0) == 1.0


def test_registry_and_bad_names():
    assert L.NAMES == ("zero_one", "hinge", "squared_hinge", "logistic", "perceptron")
    assert L.get("hinge").fn is L.hinge
    with pytest.raises(ValueError, match="'cross_entropy'.*zero_one"):
        L.get("cross_entropy")


def test_d2_hinge_total_is_the_book_slack():
    """Slides 22–23: ξ15..ξ18 = 0.333, 1.667, 0.833, 2.834 (total 5.667), x16, x18 wrong."""
    d = ds.d2()
    m = se.fit(d.X, d.y, C=1.0, solver="qp", tol=1e-10)
    mm = L.margins(m, d.X, d.y)
    np.testing.assert_allclose(L.hinge(mm), m.xi, atol=1e-6)
    t = L.totals(mm)
    assert t["hinge"] == pytest.approx(17 / 3, abs=1e-5)
    assert t["zero_one"] == 2.0
    assert np.flatnonzero(L.zero_one(mm)).tolist() == [15, 17]     # x16 and x18
    np.testing.assert_allclose(L.hinge(mm)[14:], [1 / 3, 5 / 3, 5 / 6, 17 / 6], atol=1e-5)
    # the objective is ½‖w‖² + C·Σ hinge (slide 19, k = 1)
    assert 0.5 * m.w @ m.w + 1.0 * t["hinge"] == pytest.approx(m.primal_objective, rel=1e-6)


@pytest.mark.parametrize("kernel", [se.Linear(), se.Gaussian(0.9)])
def test_quadratic_loss_objective_is_squared_hinge(kernel):
    """k = 2: the primal ½‖w‖² + C·Σξᵢ² with ξᵢ = max(0, 1 − yᵢh(xᵢ)); in feature space
    ‖w‖² = (αy)ᵀK(αy)."""
    d = ds.d2()
    C = 0.7
    m = se.fit(d.X, d.y, kernel=kernel, C=C, loss="quadratic", solver="qp", tol=1e-10)
    mm = L.margins(m, d.X, d.y)
    ay = m.alpha * m.y
    w2 = ay @ (kernel(d.X, d.X) @ ay)
    assert 0.5 * w2 + C * L.totals(mm)["squared_hinge"] == pytest.approx(
        m.primal_objective, rel=1e-6)


def test_point_losses_shapes_and_margins_errors():
    d = ds.d1()
    m = se.fit(d.X, d.y, C=math.inf)
    mm = L.margins(m, d.X, d.y)
    assert (mm >= 1 - 1e-6).all()                 # hard margin: every point on or beyond
    per = L.point_losses(mm)
    assert list(per) == list(L.NAMES) and all(v.shape == (14,) for v in per.values())
    assert per["zero_one"].sum() == 0 and per["perceptron"].sum() == 0
    with pytest.raises(ValueError, match=r"\+1/−1"):
        L.margins(m, d.X, np.where(d.y > 0, 1, 0))
    with pytest.raises(ValueError, match="13 labels for 14 points"):
        L.margins(m, d.X, d.y[:13])
