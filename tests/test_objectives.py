"""svm_engine.objectives, the one home of the primal and dual formulas: at a fitted α it gives
the model's own objectives (finalize's compiled pass uses the same primal_value/dual_value),
for both losses and both biases, and the hard margin's primal is ∞ while a margin is violated."""

import math

import numpy as np
import pytest

import svm_engine as se
from svm_engine import datasets
from svm_engine.objectives import objectives


@pytest.mark.parametrize("loss, bias, C", [("hinge", "free", 1.0), ("quadratic", "free", 2.0),
                                          ("hinge", "augmented", 0.5), ("hinge", "free", math.inf)])
def test_objectives_at_a_fit_are_the_models(loss, bias, C):
    ds = datasets.load("d1" if math.isinf(C) else "d2")
    kernel = se.Polynomial(2, 1.0)
    m = se.fit(ds.X, ds.y, kernel=kernel, C=C, loss=loss, bias=bias, solver="qp" if bias ==
               "augmented" else "smo")
    u = kernel(m.X, m.X) @ (m.alpha * m.y)
    primal, dual, G = objectives(m.alpha, m.y, u, m.b, C, loss, bias)
    assert primal == pytest.approx(m.primal_objective, rel=1e-9, abs=1e-12)
    assert dual == pytest.approx(m.dual_objective, rel=1e-9, abs=1e-12)
    assert G.shape == (len(m.y),)


def test_the_hard_margins_primal_is_infinite_while_a_margin_is_violated():
    y = np.array([1.0, -1.0])
    u = np.zeros(2)                                   # α = 0: h = b = 0, both ξ = 1
    primal, dual, _ = objectives(np.zeros(2), y, u, 0.0, math.inf, "hinge", "free")
    assert math.isinf(primal) and dual == 0.0
    primal, _, _ = objectives(np.zeros(2), y, u, 0.0, 1.0, "hinge", "free")
    assert primal == 2.0                              # ½·0 + C·(1 + 1)
