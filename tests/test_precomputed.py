"""The dual on a given Gram matrix (svm_engine/precomputed.py): with a kernel it is `fit`'s
problem; with a function that is not a kernel, cvxopt refuses or SMO meets η ≤ 0 and stops at
a KKT point that depends on its start."""

import math

import numpy as np
import pytest

import svm_engine as se
from svm_engine import datasets, gram
from svm_engine import precomputed as pc


@pytest.mark.parametrize("kernel", [se.Gaussian(0.5), se.Polynomial(2, 1.0), se.Linear()])
@pytest.mark.parametrize("solver", ["smo", "qp"])
def test_a_kernel_matrix_gives_fits_answer(kernel, solver):
    d = datasets.moons(n=60, noise=0.2, seed=1)
    K = gram.gram_matrix(kernel, d.X)
    ref = se.fit(d.X, d.y, kernel=kernel, C=1.0, solver="qp", tol=1e-10)
    got = pc.fit_gram(K, d.y, 1.0, solver, tol=1e-6)
    assert got.converged
    assert got.dual == pytest.approx(ref.dual_objective, rel=1e-5)
    Z = np.random.default_rng(0).uniform(-1.5, 2.5, size=(40, 2))
    np.testing.assert_allclose(got.decision(kernel(Z, d.X), d.y), ref.decision_function(Z),
                               atol=2e-3)
    if solver == "smo":
        assert got.eta_nonpositive == 0 and got.kkt_gap <= 1e-6


def test_not_a_kernel_qp_refuses_and_smo_meets_eta_le_0():
    d = datasets.circles(n=40, noise=0.2, seed=0)
    K = gram.gram_matrix(se.Polynomial(2, -1.0), d.X)
    assert gram.conditional_eigenvalues(K)[0] < -1.0       # not convex on Σαᵢyᵢ = 0
    qp = pc.fit_gram(K, d.y, 1.0, "qp")
    assert qp.alpha is None and not qp.converged
    assert qp.message.startswith("cvxopt stopped: ValueError")
    with pytest.raises(ValueError, match="qp gave no solution: cvxopt stopped"):
        qp.decision(K, d.y)
    smo = pc.fit_gram(K, d.y, 1.0, "smo")
    assert smo.converged and smo.kkt_gap <= 1e-3          # a KKT point ...
    assert smo.eta_nonpositive > 0                         # ... reached through η ≤ 0 steps
    assert smo.steps_recorded == smo.n_iter


def test_not_a_kernel_has_several_kkt_points():
    """Non-convex: SMO from different starts stops at different dual objectives; with a
    kernel every start reaches the same one."""
    d = datasets.circles(n=40, noise=0.2, seed=0)
    bad = pc.smo_starts(gram.gram_matrix(se.Polynomial(2, -1.0), d.X), d.y, 1.0, starts=8)
    duals = sorted({round(r.dual, 4) for r in bad})
    assert len(duals) >= 2, duals
    assert all(r.converged for r in bad)
    good = pc.smo_starts(gram.gram_matrix(se.Gaussian(0.5), d.X), d.y, 1.0, starts=8, tol=1e-6)
    vals = [r.dual for r in good]
    assert max(vals) - min(vals) <= 1e-6 * max(vals)


def test_bad_input_is_named():
    K = np.eye(3)
    with pytest.raises(ValueError, match=r"square matrix, got shape \(3, 2\)"):
        pc.fit_gram(np.ones((3, 2)), [1, -1, 1])
    with pytest.raises(ValueError, match="y has 2 labels for a 3 × 3 matrix K"):
        pc.fit_gram(K, [1, -1])
    with pytest.raises(ValueError, match=r"y has 3 classes \[0, 1, 2\]; expected exactly two"):
        pc.fit_gram(K, [0, 1, 2])
    with pytest.raises(ValueError, match="C must be a finite number > 0, got inf"):
        pc.fit_gram(K, [1, -1, 1], C=math.inf)
    with pytest.raises(ValueError, match="unknown solver 'newton'"):
        pc.fit_gram(K, [1, -1, 1], solver="newton")
    with pytest.raises(ValueError, match="starts must be an integer ≥ 1, got 0"):
        pc.smo_starts(K, [1, -1, 1], starts=0)


def test_starts_stop_at_their_budget_and_only_the_first_keeps_a_trace():
    d = datasets.moons(n=30, noise=0.2, seed=0)
    K = gram.gram_matrix(se.Gaussian(1.0), d.X)
    ticks = iter(range(100))
    runs = pc.smo_starts(K, d.y, 1.0, starts=6, budget_s=2.5, clock=lambda: float(next(ticks)))
    # the clock reads 0 at the start, then 1, 2, 3 before starts 2, 3, 4: the fourth is over
    assert len(runs) == 3
    assert runs[0].eta_nonpositive == 0 and runs[0].steps_recorded == runs[0].n_iter
    assert all(r.eta_nonpositive is None and r.steps_recorded is None for r in runs[1:])
    capped = pc.fit_gram(K, d.y, 1.0, "smo", tol=1e-12, max_iter=3)
    assert not capped.converged and capped.n_iter == 3 and "max_iter = 3" in capped.message
