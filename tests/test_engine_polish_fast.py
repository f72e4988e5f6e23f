"""Issue 31: the compiled polish (svm_engine/polish_fast.py) takes the steps of
`polish._rounds`, and hands singular systems back to it."""

import math
import warnings

import numpy as np
import pytest

import svm_engine as se
from svm_engine import polish as P
from svm_engine import polish_fast as PF
from svm_engine.bounds import at_C_mask
from svm_engine.certify import Columns, certify, expansion
from svm_engine.finalize import finalize
from svm_engine.jit import JIT
from svm_engine.problem import build_problem

pytestmark = pytest.mark.skipif(not JIT, reason="the compiled path runs only with numba")

KERNELS = [se.Linear(), se.Gaussian(sigma=0.7), se.Polynomial(degree=3, coef0=1.0)]


def _start(X, y, kernel, C, loss, bias, **kw):
    """What `api._checked` hands the polish: the solver's α (SMO at tol 1e-3; SGA for the
    augmented bias), not polished, its expansion with the free SVs' columns kept, b, and the
    problem."""
    solver = "sga" if bias == "augmented" else "smo"
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", se.ConvergenceWarning)
        m = se.fit(X, y, kernel=kernel, C=C, loss=loss, bias=bias, solver=solver,
                   tol=1e-3 if solver == "smo" else None, polish=False, **kw)
    problem = build_problem(X, np.where(y > 0, 1.0, -1.0), kernel, C, loss, bias,
                            materialize=False)
    alpha = m.alpha
    columns = Columns(problem)
    keep = (alpha > 0) & ~at_C_mask(alpha, problem.C_box)
    ex = expansion(problem, alpha, columns, keep=keep)
    b = finalize(problem, alpha, g=ex.g)["b"]
    return problem, alpha, b, ex, columns


def _both(monkeypatch, problem, alpha, b, ex, columns):
    fast = P.polish(problem, alpha, b, ex, columns)
    with monkeypatch.context() as mp:
        mp.setattr(P, "JIT", False)                # `_rounds` in numpy, as before issue 31
        slow = P.polish(problem, alpha, b, ex, Columns(problem))
    return fast, slow


def test_the_compiled_rounds_find_the_polish_of_the_numpy_rounds(monkeypatch):
    rng = np.random.default_rng(31)
    polished = compiled = 0
    for trial in range(36):
        n = int(rng.integers(30, 160))
        X = rng.normal(size=(n, 2))
        y = np.where(X[:, 0] + 0.5 * np.sin(3 * X[:, 1]) + rng.normal(0.3, 0.4, n) > 0,
                     1.0, -1.0)
        kernel = KERNELS[trial % 3]
        loss = "quadratic" if trial % 4 == 3 else "hinge"
        bias = "augmented" if trial % 5 == 4 else "free"
        C = [1.0, 10.0, 100.0][trial % 3 if trial % 2 else (trial + 1) % 3]
        problem, alpha, b, ex, columns = _start(X, y, kernel, C, loss, bias)
        free = (alpha > 0) & ~at_C_mask(alpha, problem.C_box)
        code = P._compiled(problem, alpha, b, ex, columns, alpha == 0.0,
                           at_C_mask(alpha, problem.C_box), np.flatnonzero(free))[0]
        compiled += code == PF.DONE
        fast, slow = _both(monkeypatch, problem, alpha, b, ex, columns)
        assert (fast is None) == (slow is None), (trial, code)
        if fast is None:
            continue
        polished += 1
        scale = max(float(slow.alpha.max()), 1e-300)
        np.testing.assert_allclose(fast.alpha, slow.alpha, rtol=0, atol=1e-7 * scale,
                                   err_msg=str(trial))
        assert fast.b == pytest.approx(slow.b, rel=1e-6, abs=1e-6)
        sol = finalize(problem, fast.alpha, g=fast.expansion.g)
        assert certify(problem, sol["alpha"], sol["b"], fast.expansion).passed, trial
        # the expansion it carried is the one recomputed from X, to its rounding bound
        again = expansion(problem, fast.alpha)
        assert np.all(np.abs(fast.expansion.g - again.g) <= 1e-9 * (1.0 + again.mag))
    assert polished >= 20 and compiled >= 15, (polished, compiled)


def test_a_singular_free_block_goes_back_to_the_numpy_rounds(monkeypatch):
    """Eight points on the two margins of x₁ = ±1 (linear kernel, free bias, C = ∞), SMO
    started near α = 1/8 everywhere (an optimum: α is not unique here): the free block has
    rank 2 and, with the bias row, cannot be factored: the compiled rounds hand it back
    (FALLBACK) and `polish` answers what `_rounds` answers."""
    X = np.array([[s, t] for s in (1.0, -1.0) for t in (-1.0, 0.0, 1.0, 2.0)])
    y = np.where(X[:, 0] > 0, 1.0, -1.0)
    problem, alpha, b, ex, columns = _start(X, y, se.Linear(), math.inf, "hinge", "free",
                                            alpha0=np.full(8, 0.12))
    free = alpha > 0
    assert free.sum() == 8
    code = P._compiled(problem, alpha, b, ex, columns, alpha == 0.0,
                       np.zeros(len(y), dtype=bool), np.flatnonzero(free))[0]
    assert code == PF.FALLBACK
    fast, slow = _both(monkeypatch, problem, alpha, b, ex, columns)
    assert (fast is None) == (slow is None)
    if fast is not None:
        np.testing.assert_array_equal(fast.alpha, slow.alpha)
