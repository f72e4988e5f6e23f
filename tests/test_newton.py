"""The compiled linear Newton (`newton_linear`: one pass per evaluation of J, v and S updated
by the points that enter or leave the violator set, Cholesky for H⁻¹∇, the loop compiled)
takes the same steps as the readable `newton` on X′ = (X, 1), and reaches the optimum that
cvxopt's qp reaches on the same problem (quadratic loss, augmented bias). Its small solves
agree with np.linalg.lstsq, which the readable `newton` uses.

Nothing is hard-coded: each random problem is solved by both implementations and compared
iteration by iteration, and against the qp solver's primal objective.

The kernel form (SVM-Primal-Kernel, slide 41) gets H⁻¹∇ from the violators' |V| × |V|
system by Cholesky: checked against slide 41's S, v, ∇ and H formed in full, against cvxopt,
and for the records the Step-through reads.
"""

import os

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import svm_engine as se
from svm_engine import datasets as ds
from svm_engine.problem import build_problem
from svm_engine.solvers.newton import (
    ACCEPT,
    ETA_MIN,
    HALVE,
    STALLED,
    _kernel_direction,
    _solve,
    newton,
    newton_linear,
    safeguard,
)
from tests.random_problems import make_problem

W_RTOL = 1e-10       # w per iteration, relative to ‖w‖
FACTOR = int(os.environ.get("SVMLAB_EXAMPLES_FACTOR", "1"))   # as in test_engine_random.py


def readable(X, y, C, **kw):
    """The slide-39 iteration in plain numpy on X′ = (X, 1)."""
    return newton(np.hstack([X, np.ones((len(y), 1))]), y, C, kernel_form=False, trace=True,
                  **kw)


def assert_same_steps(X, y, C, **kw):
    """newton_linear and the readable newton: the same iterations, records and α."""
    fast = newton_linear(X, y, C, trace=True, **kw)
    ref = readable(X, y, C, **kw)
    assert fast.n_iter == ref.n_iter, (fast.status, ref.status)
    assert fast.converged == ref.converged
    assert len(fast.trace) == len(ref.trace) == ref.n_iter
    # ∇ = Hw − 2Cv cancels near the optimum: its rounding is relative to the first ‖∇‖ = 2C‖v₀‖
    grad_scale = ref.trace[0]["grad_norm"] if ref.trace else 0.0
    for a, b in zip(fast.trace, ref.trace, strict=True):
        assert a.keys() == b.keys()
        assert a["it"] == b["it"]
        assert a["n_violators"] == b["n_violators"]
        assert a["step"] == b["step"]
        scale = max(float(np.linalg.norm(b["w"])), 1e-300)
        assert np.linalg.norm(a["w"] - b["w"]) <= W_RTOL * scale, (a["it"], a["w"], b["w"])
        assert a["primal"] == pytest.approx(b["primal"], rel=1e-10), a["it"]
        assert a["grad_norm"] == pytest.approx(b["grad_norm"], rel=1e-8,
                                               abs=1e-12 * grad_scale), a["it"]
        assert a["step_norm"] == pytest.approx(b["step_norm"], rel=1e-6, abs=1e-10 * scale)
    np.testing.assert_allclose(fast.w_primal, ref.w_primal, rtol=0,
                               atol=W_RTOL * max(float(np.linalg.norm(ref.w_primal)), 1.0))
    # α = 2C·max(0, 1 − yᵢx′ᵢᵀw): a change δw moves αᵢ by at most 2C‖x′ᵢ‖‖δw‖
    x_norm = float(np.sqrt((X**2).sum(axis=1) + 1.0).max())
    w_norm = float(np.linalg.norm(ref.w_primal))
    np.testing.assert_allclose(fast.alpha, ref.alpha, rtol=0,
                               atol=W_RTOL * 2.0 * C * x_norm * max(w_norm, 1.0))
    # the untraced run takes the same steps (the same compiled loop)
    quiet = newton_linear(X, y, C, **kw)
    assert quiet.n_iter == fast.n_iter and quiet.trace is None
    np.testing.assert_array_equal(quiet.w_primal, fast.w_primal)
    np.testing.assert_array_equal(quiet.alpha, fast.alpha)
    assert quiet.status == fast.status
    return fast, ref


def linear_problem(size, seed, separation, log_scale, log_C, extra_dims):
    """A random problem of tests/random_problems.py, with `extra_dims` more random features."""
    p = make_problem(se.Linear(), size, seed, separation, log_scale, log_C)
    rng = np.random.default_rng(seed + 1)
    X = np.hstack([p.X, rng.normal(size=(size, extra_dims)) * 10.0**log_scale])
    return X, p.y, p.C


PROBLEMS = st.builds(linear_problem, size=st.integers(6, 120),
                     seed=st.integers(0, 2**32 - 2), separation=st.floats(0.0, 4.0),
                     log_scale=st.floats(-2.0, 1.0), log_C=st.floats(-2.0, 2.0),
                     extra_dims=st.integers(0, 2))


@settings(max_examples=40 * FACTOR, deadline=None)
@given(problem=PROBLEMS)
def test_compiled_linear_newton_takes_the_readable_steps(problem):
    assert_same_steps(*problem)


@settings(max_examples=15 * FACTOR, deadline=None)
@given(problem=PROBLEMS)
def test_compiled_linear_newton_reaches_the_qp_optimum(problem):
    X, y, C = problem
    kw = {"kernel": se.Linear(), "C": C, "loss": "quadratic", "bias": "augmented"}
    newton_fit = se.fit(X, y, solver="newton", **kw)
    qp = se.fit(X, y, solver="qp", tol=1e-10, **kw)
    assert newton_fit.converged and qp.converged, (newton_fit.status, qp.status)
    assert newton_fit.primal_objective == pytest.approx(qp.primal_objective, rel=1e-6,
                                                        abs=1e-9)
    assert newton_fit.primal_objective == pytest.approx(qp.dual_objective, rel=1e-6, abs=1e-9)


@pytest.mark.parametrize("C", [1.0, 100.0])
def test_longer_run_and_more_points(C):
    """2,000 blobs: more iterations than the compiled loop's first trace rows (8), and many
    points crossing the margin in each pass."""
    d = ds.load("blobs", n=2000, seed=0)
    X = (d.X - d.X.mean(axis=0)) / d.X.std(axis=0)
    y = np.where(d.y > 0, 1.0, -1.0)
    fast, ref = assert_same_steps(X, y, C)
    assert ref.n_iter > 8 and fast.converged


@pytest.mark.parametrize("max_iter", [0, 1, 2])
def test_max_iter_stops_both_alike(max_iter):
    X, y, C = linear_problem(60, 7, 1.0, 0.5, 1.0, 0)
    fast, ref = assert_same_steps(X, y, C, max_iter=max_iter)
    assert fast.n_iter == max_iter and not fast.converged
    assert fast.status.startswith(f"stopped at max_iter = {max_iter}")


def test_zero_tolerance_ends_on_the_settled_violator_set():
    """With ε = 0 only the second stopping rule (a full step keeps V) can end the run."""
    X, y, C = linear_problem(80, 3, 2.0, 0.0, 0.5, 1)
    fast, _ = assert_same_steps(X, y, C, tol=0.0)
    assert fast.converged and fast.status.startswith("exact:")


@pytest.mark.parametrize("seed", range(20))
def test_small_solves_agree_with_lstsq(seed):
    """`_solve` is `newton`'s np.linalg.lstsq(H, g, rcond=None) on H = I + 2CS: an LU solve
    while no eigenvalue falls under lstsq's cutoff, least squares with that cutoff beyond."""
    rng = np.random.default_rng(seed)
    p = int(rng.integers(1, 7))
    g = rng.normal(size=p)
    # H = I + 2CS of a random problem, moderate C: tr H < 0.01/(p·ε), the LU branch
    B = rng.normal(size=(p, int(rng.integers(0, p + 1))))
    H = np.eye(p) + 2.0 * 10.0 ** rng.uniform(-2, 4) * (B @ B.T)
    np.testing.assert_allclose(_solve(H, g), np.linalg.lstsq(H, g, rcond=None)[0], rtol=1e-9)
    # S of rank < p and C·tr S ~ 1e17: the eigenvalues 1 of H fall under the cutoff p·ε·σ_max
    # and are dropped, as lstsq drops them (an LU solve would keep them)
    p = int(rng.integers(2, 7))
    B = rng.normal(size=(p, int(rng.integers(1, p))))
    S, g = B @ B.T, rng.normal(size=p)
    H = np.eye(p) + 1e17 / np.trace(S) * S
    want = np.linalg.lstsq(H, g, rcond=None)[0]
    np.testing.assert_allclose(_solve(H, g), want, rtol=0,
                               atol=1e-7 * np.linalg.norm(g) / np.linalg.norm(H, 2))


@pytest.mark.parametrize("C", [1e13, 1e15, 1e18])
@pytest.mark.parametrize("seed", range(3))
def test_collinear_points_and_huge_C(C, seed):
    """Points on a line: S is singular and H = I + 2CS is singular to rounding once C·tr S is
    beyond ~1e15 (Cholesky would stop). Both implementations still reach the same minimum."""
    rng = np.random.default_rng(seed)
    t = rng.normal(size=100)
    X = np.c_[3.7 * t, 1.3 * t + 0.2 * (seed % 2)]
    y = np.where(t + 0.3 * rng.normal(size=100) > 0, 1.0, -1.0)
    fast = newton_linear(X, y, C)
    ref = readable(X, y, C)

    def J(w):
        return 0.5 * w @ w + C * np.sum(np.maximum(0.0, 1.0 - y * (X @ w[:2] + w[2])) ** 2)

    assert fast.converged and ref.converged, (fast.status, ref.status)
    assert J(fast.w_primal) == pytest.approx(J(ref.w_primal), rel=1e-8)


# -- SVM-Primal-Kernel (slide 41): H⁻¹∇ from the violators' |V| × |V| system, by Cholesky --


def moons_problem(n, seed=0):
    d = ds.moons(n=n, noise=0.2, seed=seed)
    X = (d.X - d.X.mean(axis=0)) / d.X.std(axis=0)
    return X, np.where(d.y > 0, 1.0, -1.0)


def test_kernel_newton_never_solves_the_n_by_n_system(monkeypatch):
    """The kernel form solves (K_VV + I/(2C))β′_V = y_V (LAPACK's Cholesky) instead of
    least squares on the n × n H = K + 2CS (the code before: 21 s at n = 1,000). It still
    reaches cvxopt's optimum."""
    X, y = moons_problem(200)
    kw = {"kernel": se.Gaussian(sigma=0.5), "C": 10.0, "loss": "quadratic",
          "bias": "augmented"}
    qp = se.fit(X, y, solver="qp", tol=1e-10, **kw)

    def refuse(*args, **kwargs):
        raise AssertionError("np.linalg.lstsq on the n × n Hessian")

    monkeypatch.setattr(np.linalg, "lstsq", refuse)
    m = se.fit(X, y, solver="newton", **kw)
    assert m.converged, m.status
    assert m.primal_objective == pytest.approx(qp.dual_objective, rel=1e-6)
    assert m.primal_objective == pytest.approx(qp.primal_objective, rel=1e-6)


@settings(max_examples=30 * FACTOR, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), n=st.integers(5, 60), log_C=st.floats(-2.0, 3.0),
       log_sigma=st.floats(-0.5, 0.5), log_beta=st.floats(-3.0, 1.0))
def test_kernel_direction_is_slide_41s_newton_step(seed, n, log_C, log_sigma, log_beta):
    """∇ and H⁻¹∇ of `_kernel_direction` against slide 41's S, v, ∇ and H formed in full:
    ∇ equal, H·d = ∇ (d solves the Newton system), and where H is well conditioned d is
    np.linalg.solve(H, ∇) (the solution is unique)."""
    rng = np.random.default_rng(seed)
    X = rng.normal(size=(n, 2))
    y = np.where(rng.random(n) < 0.5, -1.0, 1.0)
    C = 10.0**log_C
    K = build_problem(X, y, se.Gaussian(sigma=10.0**log_sigma), C, "quadratic",
                      "augmented").K
    beta = rng.normal(size=n) * 10.0**log_beta
    F = K @ beta
    viol = y * F < 1.0
    grad, d = _kernel_direction(K, y, C, beta, F, viol)
    Kv = K[viol]
    S, v = Kv.T @ Kv, Kv.T @ y[viol]                  # lines 7–8
    H = K + 2.0 * C * S                               # line 10
    grad_ref = H @ beta - 2.0 * C * v                 # line 9
    scale = float(np.abs(H).max() * np.abs(beta).max() + 2.0 * C * np.abs(v).max())
    np.testing.assert_allclose(grad, grad_ref, rtol=0, atol=1e-10 * scale)
    hd = float(np.abs(H).max() * np.abs(d).max())
    np.testing.assert_allclose(H @ d, grad_ref, rtol=0, atol=1e-8 * max(hd, scale))
    if np.linalg.cond(H) < 1e8:
        np.testing.assert_allclose(d, np.linalg.solve(H, grad_ref), rtol=1e-6,
                                   atol=1e-9 * float(np.abs(d).max()))


def test_kernel_newton_keeps_the_step_through_records():
    """The Step-through (ui/step_through/pack.py pack_newton) reads w = β of each record and
    computes h = K′β from it: the records' keys, and the last record's h is the model's."""
    X, y = moons_problem(120)
    m = se.fit(X, y, kernel=se.Gaussian(sigma=0.5), C=10.0, loss="quadratic",
               bias="augmented", solver="newton", trace=True)
    assert m.converged and len(m.trace) == m.n_iter
    keys = {"it", "w", "n_violators", "grad_norm", "step", "step_norm", "primal"}
    assert all(set(r) == keys for r in m.trace)
    K = build_problem(X, y, m.kernel, m.C, "quadratic", "augmented").K
    h = K @ m.trace[-1]["w"]
    np.testing.assert_allclose(h, m.h_train, atol=1e-9 * max(1.0, float(np.abs(h).max())))
    xi = np.maximum(0.0, 1.0 - y * h)
    J = 0.5 * m.trace[-1]["w"] @ K @ m.trace[-1]["w"] + m.C * xi @ xi
    assert m.trace[-1]["primal"] == pytest.approx(J, rel=1e-9)


@pytest.mark.parametrize("J", [0.0, 1e-3, 2.5, 1e9])
def test_the_line_search_accepts_no_rise_halves_a_rise_and_stalls_below_the_smallest_step(J):
    """Both forms' safeguard: a step that lowers J, or raises it by no more than rounding
    (1e-12 relative, 1e-12 absolute below 1), is taken; one that raises it more is halved,
    until η < ETA_MIN: then the fit stops as stalled."""
    allow = 1e-12 * max(1.0, J)
    for eta in (1.0, 2.0 * ETA_MIN, ETA_MIN):
        assert safeguard(J - 1.0, J, eta) == ACCEPT
        assert safeguard(J + 0.5 * allow, J, eta) == ACCEPT
        assert safeguard(J + 2.0 * allow, J, eta) == HALVE
    assert safeguard(J - 1.0, J, 0.5 * ETA_MIN) == ACCEPT
    assert safeguard(J + 2.0 * allow, J, 0.5 * ETA_MIN) == STALLED
