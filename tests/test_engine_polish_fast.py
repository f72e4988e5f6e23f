"""Issue 31: the compiled polish (svm_engine/polish_fast.py) takes the steps of
`polish._rounds`, and hands singular systems back to it; its factor of the free block,
updated as points leave and join, is the Cholesky factor of that block."""

import math
import warnings

import numpy as np
import pytest

import svm_engine as se
from svm_engine import datasets
from svm_engine import polish as P
from svm_engine import polish_fast as PF
from svm_engine.bounds import at_C_mask
from svm_engine.certify import Columns, certify, expansion, rounding
from svm_engine.finalize import finalize
from svm_engine.jit import JIT
from svm_engine.problem import build_problem

compiled_only = pytest.mark.skipif(not JIT, reason="the compiled path runs only with numba")

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


@compiled_only
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


@compiled_only
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


def _agree(monkeypatch, problem, alpha, b, ex, columns):
    """The compiled rounds' code and rounds from the solver's α, and the polish of both
    paths: the same α, b, and a certified point."""
    free = np.flatnonzero((alpha > 0) & ~at_C_mask(alpha, problem.C_box))
    code, *_, solved = P._compiled(problem, alpha, b, ex, columns, alpha == 0.0,
                                   at_C_mask(alpha, problem.C_box), free)
    fast, slow = _both(monkeypatch, problem, alpha, b, ex, columns)
    assert fast is not None and slow is not None
    scale = float(slow.alpha.max())
    np.testing.assert_allclose(fast.alpha, slow.alpha, rtol=0, atol=1e-7 * scale)
    assert fast.b == pytest.approx(slow.b, rel=1e-6, abs=1e-6)
    sol = finalize(problem, fast.alpha, g=fast.expansion.g)
    assert certify(problem, sol["alpha"], sol["b"], fast.expansion).passed
    return len(free), code, solved


@compiled_only
@pytest.mark.parametrize("sigma, C, seed", [(0.2, 1000.0, 0), (0.1, 100.0, 1)])
def test_free_sets_above_128_are_compiled_and_agree(monkeypatch, sigma, C, seed):
    """Moons with a narrow Gaussian: hundreds of free SVs (the compiled rounds took ≤ 128
    before issue 31's factor updates)."""
    d = datasets.load("moons", n=700, noise=0.3, seed=seed)
    X = (d.X - d.X.mean(axis=0)) / d.X.std(axis=0)
    y = np.where(d.y > 0, 1.0, -1.0)
    start = _start(X, y, se.Gaussian(sigma=sigma), C, "hinge", "free")
    m, code, solved = _agree(monkeypatch, *start)
    assert m > 128 and code == PF.DONE and solved >= 1, (m, code, solved)


@compiled_only
def test_a_start_whose_rounding_is_above_strict_is_compiled(monkeypatch):
    """Moons, Gaussian, C = 100: α up to 100 over a few hundred SVs put the start's
    rounding above STRICT (`_rounds`' stale case, which sums afresh); the compiled rounds keep
    their sums (within ROUND_OK) and find the same point over several rounds."""
    d = datasets.load("moons", n=900, noise=0.3, seed=1)
    X = (d.X - d.X.mean(axis=0)) / d.X.std(axis=0)
    y = np.where(d.y > 0, 1.0, -1.0)
    problem, alpha, b, ex, columns = _start(X, y, se.Gaussian(sigma=0.5), 100.0, "hinge",
                                            "free")
    assert (rounding(problem, alpha, ex.mag, b) > P.STRICT).any()
    m, code, solved = _agree(monkeypatch, problem, alpha, b, ex, columns)
    assert code == PF.DONE and solved >= 2, (m, code, solved)


def _factor_inputs(K, y, aug, diag):
    n = len(y)
    pos = np.arange(n, dtype=np.int64)
    return K, pos, y, np.empty(n, dtype=np.int64), np.empty(n), np.zeros(n), aug, diag


def _block(K, y, fo, Dv, cv, aug, diag):
    """B = A + ccᵀ for the points fo, as `_solve_f` defines it."""
    A = (y[fo, None] * y[None, fo]) * (K[np.ix_(fo, fo)] + (1.0 if aug else 0.0))
    A = A + diag * np.eye(len(fo))
    A = A * Dv[:, None] * Dv[None, :]
    return A + np.outer(cv, cv)


@pytest.mark.parametrize("aug, diag", [(False, 0.0), (True, 0.0), (False, 0.05)])
def test_the_updated_factor_is_the_cholesky_factor_of_the_block(aug, diag):
    """Points deleted (Givens) and appended (one sweep) in a random order: after each change
    L·Lᵀ is the block of the points in the factor; a point identical to one in the factor
    (a singular block) is refused by its pivot; the solve answers the block's equations."""
    rng = np.random.default_rng(7)
    n = 40
    X = rng.normal(size=(n, 2))
    X[n - 1] = X[3]                                   # a twin of point 3
    K = np.exp(-((X[:, None, :] - X[None, :, :]) ** 2).sum(axis=2))
    y = np.where(rng.random(n) < 0.5, 1.0, -1.0)
    H, pos, y, fo, Dv, cv, aug, diag = _factor_inputs(K, y, aug, diag)
    L = np.zeros((n, n))
    fo[:12] = np.arange(12)
    t = PF._scales(H, pos, fo, 12, Dv, aug, diag)
    cv[:12] = t * Dv[:12] * y[fo[:12]]
    assert PF._fresh(L, 12, H, pos, y, fo, Dv, cv, aug, diag)
    m, outside = 12, list(range(12, n - 1))
    for step in range(30):
        if step % 3 == 2 and m > 2:                   # a point leaves
            p = int(rng.integers(m))
            PF._delete(L, m, p)
            fo[p:m - 1], Dv[p:m - 1], cv[p:m - 1] = (fo[p + 1:m].copy(), Dv[p + 1:m].copy(),
                                                     cv[p + 1:m].copy())
            m -= 1
        else:                                         # a point joins, last
            j = outside.pop(int(rng.integers(len(outside))))
            fo[m], Dv[m] = j, PF._unit(H, pos, j, aug, diag)
            cv[m] = t * Dv[m] * y[j]
            assert PF._append(L, m, H, pos, y, fo, Dv, cv, aug, diag)
            m += 1
        Lm = np.tril(L[:m, :m])
        B = _block(K, y, fo[:m], Dv[:m], cv[:m], aug, diag)
        np.testing.assert_allclose(Lm @ Lm.T, B, rtol=0, atol=1e-12, err_msg=str(step))
        assert np.all(np.diag(Lm) > 0)
    # the solve: A u + c β = z, cᵀu = e
    rhs, e, dF = rng.normal(size=m), 0.3, np.empty(m)
    ok, beta = PF._solve_f(L, m, H, pos, y, fo, Dv, cv, aug, diag, rhs, True, e, dF)
    assert ok
    A = _block(K, y, fo[:m], Dv[:m], cv[:m], aug, diag) - np.outer(cv[:m], cv[:m])
    u = dF / Dv[:m]
    np.testing.assert_allclose(A @ u + cv[:m] * beta, rhs * Dv[:m], atol=1e-9)
    assert float(cv[:m] @ u) == pytest.approx(e, abs=1e-9)
    # the twin: a singular block, refused by the appended pivot (3 in the factor, else add it)
    if 3 not in fo[:m]:
        fo[m], Dv[m] = 3, PF._unit(H, pos, 3, aug, diag)
        cv[m] = t * Dv[m] * y[3]
        assert PF._append(L, m, H, pos, y, fo, Dv, cv, aug, diag)
        m += 1
    if diag:
        return      # K + diag·I: the twins' rows differ on the diagonal, B is regular
    fo[m], Dv[m] = n - 1, PF._unit(H, pos, n - 1, aug, diag)
    cv[m] = t * Dv[m] * y[n - 1]
    assert not PF._append(L, m, H, pos, y, fo, Dv, cv, aug, diag)
