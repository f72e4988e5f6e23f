"""The solvers agree with each other on random problems, and their answers satisfy the KKT
conditions (issue 2, "Must show": random problems).

Reference answers are never hard-coded: each test solves the same random problem two ways
(smo vs cvxopt's qp, newton vs qp, sga vs qp, primal vs dual QP, two working-set rules, cold
vs warm start) and checks the two against each other and against tests/kkt.py's
independent KKT check. Problems: tests/random_problems.py (n 6..40, 2-D, both classes,
data scales over several decades, every kernel).
"""

import math
import os
import warnings

import numpy as np
import pytest
from hypothesis import event, example, given, settings
from hypothesis import strategies as st

import svm_engine as se
from svm_engine.solvers.smo import TRACE_CAP
from tests.kkt import assert_kkt
from tests.random_problems import make_problem, problems, separable_problems

SMO_TOL = 1e-8     # m(α) − M(α) ≤ 1e-8
QP_TOL = 1e-10     # cvxopt abstol = reltol
LOSSES = st.sampled_from(["hinge", "quadratic"])
BIASES = st.sampled_from(["free", "augmented"])


# SVMLAB_EXAMPLES_FACTOR=20 runs 20× more examples (a deeper search, minutes instead of seconds)
FACTOR = int(os.environ.get("SVMLAB_EXAMPLES_FACTOR", "1"))


def quick(n):
    return settings(max_examples=n * FACTOR, deadline=None)


def same_objective(a, b, rel=1e-6):
    """a and b agree to rel relative (with an absolute floor for objectives near 0)."""
    return a == pytest.approx(b, rel=rel, abs=rel * 1e-3)


def fit_quietly(p, **kw):
    """Fit and return (model, warnings raised): used where non-convergence is part of the
    test's arithmetic (a capped trace) rather than a failure."""
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always", se.ConvergenceWarning)
        m = p.fit(**kw)
    return m, caught


def smo_gap_bound(n: int, C: float, loss: str, tol: float) -> float:
    """What SMO's stopping rule m(α) − M(α) ≤ tol guarantees for primal − dual.

    Hinge loss. With G = Qα − 1, w = Σαⱼyⱼφ(xⱼ) and rᵢ = yᵢh(xᵢ) − 1 = Gᵢ + yᵢb (the free
    bias), P − D = ½‖w‖² + CΣξᵢ − (Σαᵢ − ½‖w‖²) = αᵀG + CΣξᵢ = Σᵢ [αᵢrᵢ + C·max(0, −rᵢ)]
    (αᵀG = Σαᵢrᵢ because Σαᵢyᵢ = 0). The engine's b lies in [M, m] (the average of the free
    SVs' −yᵢGᵢ, each in [M, m], or the midpoint of [M, m] when none is free), and
    −yᵢGᵢ = b − yᵢrᵢ is ≤ m on I_up and ≥ M on I_low, so the stopping rule bounds each term:
      αᵢ = 0:      i may only move up (−yᵢrᵢ ≤ m − b) or only down (yᵢrᵢ ≤ b − M): with
                   the sign of yᵢ that is −rᵢ ≤ m − M, so C·max(0, −rᵢ) ≤ C·tol;
      αᵢ = C:      the other way round, rᵢ ≤ tol, and αᵢrᵢ + C·max(0, −rᵢ) = C·max(rᵢ, 0);
      0 < αᵢ < C:  both, |rᵢ| ≤ tol, and the term is αᵢrᵢ ≤ C·tol or (C − αᵢ)|rᵢ| ≤ C·tol.
    So 0 ≤ P − D ≤ n·C·tol: absolute, not 1e-6 relative (at C = 100, n = 40 and tol = 1e-8,
    4e-5, where the objectives can be ~1).
    Quadratic loss (K_eff = K + δ/(2C), no upper bound, rᵢ = yᵢh(xᵢ) + αᵢ/(2C) − 1):
    P − D = Σᵢ [αᵢrᵢ − αᵢ²/(4C) + C·max(0, αᵢ/(2C) − rᵢ)²], each term C·rᵢ² (αᵢ > 0,
    |rᵢ| ≤ tol) or C·max(0, −rᵢ)² (αᵢ = 0, −rᵢ ≤ tol): 0 ≤ P − D ≤ n·C·tol².
    (The engine may polish SMO's α to the exact KKT point, whose gap is smaller still.)"""
    return n * C * (tol if loss == "hinge" else tol * tol)


@quick(40)
@given(p=problems(), loss=LOSSES)
def test_smo_and_qp_reach_the_same_dual_optimum(p, loss):
    smo = p.fit(loss=loss, solver="smo", tol=SMO_TOL)
    qp = p.fit(loss=loss, solver="qp", tol=QP_TOL)
    assert smo.converged and qp.converged, (smo.status, qp.status)
    assert smo.kkt_violation <= SMO_TOL
    # the objectives are recomputed sums: allow their rounding
    rnd = 1e-12 * max(1.0, abs(smo.primal_objective), abs(qp.primal_objective))
    gap_smo = smo.primal_objective - smo.dual_objective
    gap_qp = qp.primal_objective - qp.dual_objective
    # strong duality to what SMO's stopping rule guarantees (smo_gap_bound's derivation)
    assert -rnd <= gap_smo <= smo_gap_bound(len(p.y), p.C, loss, SMO_TOL) + rnd
    assert -rnd <= gap_qp
    # weak duality: both duals ≤ D* ≤ both primals, so the duals are as close as the gaps
    assert abs(smo.dual_objective - qp.dual_objective) <= max(gap_smo, gap_qp) + rnd
    assert_kkt(smo, 1e-6)
    # qp: see test_qp_answers_satisfy_the_kkt_conditions for the tight check. Here, on
    # near-degenerate problems too (K ≈ const: linear at scale 0.01, Gaussian with σ ≫ the
    # data), cvxopt cannot resolve which αᵢ are at a bound and its b is good to ~1e-3 only
    assert_kkt(qp, 1e-2)
    scale = max(1.0, float(np.abs(qp.h_train).max()))
    np.testing.assert_allclose(smo.h_train, qp.h_train, atol=1e-2 * scale)


@quick(30)
@given(p=problems(min_log_scale=0.0), loss=LOSSES, bias=BIASES)
def test_qp_answers_satisfy_the_kkt_conditions(p, loss, bias):
    """On data of scale ≥ 1 (K far from constant), qp's α, polished onto the active set
    (solvers/qp.py), is a KKT point: b, ξ and the support vectors are exact."""
    qp = p.fit(loss=loss, bias=bias, solver="qp", tol=QP_TOL)
    assert qp.converged, qp.status
    assert same_objective(qp.primal_objective, qp.dual_objective)
    assert_kkt(qp, 1e-6)
    if bias == "free":
        smo = p.fit(loss=loss, solver="smo", tol=SMO_TOL)
        scale = max(1.0, float(np.abs(qp.h_train).max()))
        np.testing.assert_allclose(smo.h_train, qp.h_train, atol=1e-5 * scale)


@quick(25)
@given(p=problems())
def test_newton_and_qp_agree_on_the_augmented_quadratic_loss_problem(p):
    kw = {"loss": "quadratic", "bias": "augmented"}
    newton = p.fit(solver="newton", tol=1e-8, **kw)
    qp = p.fit(solver="qp", tol=QP_TOL, **kw)
    assert newton.converged and qp.converged, (newton.status, qp.status)
    # newton minimises the primal, qp maximises the dual: they meet at the optimum
    assert same_objective(newton.primal_objective, qp.dual_objective)
    assert same_objective(newton.primal_objective, qp.primal_objective)
    assert_kkt(newton, 1e-5)
    assert_kkt(qp, 1e-5)


# SVM-Dual is coordinate ascent: on data of scale < 1 the augmented kernel K + 1 of the
# polynomial kernels is nearly the rank-one 11ᵀ (and so is the linear one at scale 0.1), and
# it needs millions of sweeps to reach ε = 1e-9 (a property of the method, not of the code);
# these tests take scales ≥ 1 and C ≤ 10.
SGA_SCALE = 0.0
SGA_PROBLEMS = problems(log_C=(-2.0, 1.0), min_log_scale=SGA_SCALE)


@quick(20)
@given(p=SGA_PROBLEMS, loss=LOSSES)
def test_sga_at_a_tight_eps_approaches_the_augmented_optimum(p, loss):
    """The book's SVM-Dual stops at ‖α_t − α_t−1‖ ≤ ε; with ε = 1e-9 it is at qp's optimum."""
    kw = {"loss": loss, "bias": "augmented"}
    sga = p.fit(solver="sga", tol=1e-9, max_iter=500_000, **kw)
    qp = p.fit(solver="qp", tol=QP_TOL, **kw)
    assert sga.converged and qp.converged, (sga.status, qp.status)
    assert sga.dual_objective <= qp.dual_objective * (1 + 1e-9) + 1e-12  # qp is the maximum
    assert same_objective(sga.dual_objective, qp.dual_objective)
    assert_kkt(sga, 1e-5)


@quick(25)
@given(p=problems(), loss=LOSSES, wss=st.sampled_from(se.WSS_RULES))
def test_replaying_an_smo_trace_reproduces_its_alpha_exactly(p, loss, wss):
    m, _ = fit_quietly(p, loss=loss, solver="smo", tol=SMO_TOL, trace=True, wss=wss,
                       max_iter=TRACE_CAP)
    assert len(m.trace) == m.n_iter and not m.trace_truncated
    replayed = se.replay_smo(m)
    np.testing.assert_array_equal(replayed, m.alpha)
    # each record is one Platt step on the pair it names, inside its segment [L, H]
    for r in m.trace:
        assert r["L"] <= r["aj_new"] <= r["H"]
        assert r["yi"] * r["ai_new"] + r["yj"] * r["aj_new"] == pytest.approx(
            r["yi"] * r["ai_old"] + r["yj"] * r["aj_old"], abs=1e-9 * max(1.0, p.C))


@quick(25)
@given(p=problems(), loss=LOSSES)
def test_both_working_set_rules_reach_the_same_objective(p, loss):
    second = p.fit(loss=loss, solver="smo", tol=SMO_TOL, wss="second_order")
    platt = p.fit(loss=loss, solver="smo", tol=SMO_TOL, wss="max_violating_pair")
    assert second.converged and platt.converged
    assert second.wss == "second_order" and platt.wss == "max_violating_pair"
    assert same_objective(second.dual_objective, platt.dual_objective)
    assert_kkt(platt, 1e-6)


@quick(25)
@given(p=problems(), loss=LOSSES, factor=st.floats(0.1, 10.0), seed=st.integers(0, 2**16),
       trace=st.booleans())
def test_warm_start_reaches_the_same_optimum(p, loss, factor, seed, trace):
    """α0 from another C (what the Playground does when C moves), or random and infeasible
    (Σαᵢyᵢ ≠ 0, above C): SMO makes it feasible and ends at the cold-start optimum."""
    cold = p.fit(loss=loss, solver="smo", tol=SMO_TOL)
    if seed % 2:
        alpha0 = p.fit(loss=loss, solver="smo", tol=1e-3, C=p.C * factor).alpha
    else:
        alpha0 = np.random.default_rng(seed).uniform(0, 2 * p.C, len(p.y))
    warm = p.fit(loss=loss, solver="smo", tol=SMO_TOL, alpha0=alpha0, trace=trace)
    assert warm.converged
    assert same_objective(warm.dual_objective, cold.dual_objective)
    assert_kkt(warm, 1e-6)
    if trace:   # the replay starts from the feasible α0 actually used (model.alpha0)
        assert warm.trace_truncated == (warm.n_iter > TRACE_CAP)
        if not warm.trace_truncated:
            np.testing.assert_array_equal(se.replay_smo(warm), warm.alpha)


@quick(15)
@given(p=SGA_PROBLEMS, loss=LOSSES, seed=st.integers(0, 2**16))
def test_sga_warm_start_reaches_the_same_optimum(p, loss, seed):
    kw = {"loss": loss, "bias": "augmented", "solver": "sga", "tol": 1e-9,
          "max_iter": 500_000}
    cold = p.fit(**kw)
    alpha0 = np.random.default_rng(seed).uniform(0, 2 * p.C, len(p.y))
    warm = p.fit(alpha0=alpha0, **kw)
    assert cold.converged and warm.converged
    assert same_objective(warm.dual_objective, cold.dual_objective)


def check_hard_margin(fits):
    for m in fits:
        assert m.converged, m.status
        assert math.isinf(m.C) and m.bound_support.size == 0
        # every point on or outside its margin: ξ = 0, and primal = ½‖w‖² = dual
        assert (m.y * m.h_train >= 1 - 1e-6).all()
        assert m.xi.max() <= 1e-6
        assert math.isfinite(m.primal_objective)
        assert same_objective(m.primal_objective, m.dual_objective, rel=1e-5)
        assert_kkt(m, 1e-5)
    assert same_objective(fits[0].dual_objective, fits[1].dual_objective, rel=1e-5)
    assert fits[0].margin == pytest.approx(fits[1].margin, rel=1e-5)


@quick(25)
@given(p=separable_problems())
def test_hard_margin_on_separable_data(p):
    check_hard_margin([p.fit(solver="smo", tol=SMO_TOL), p.fit(solver="qp", tol=QP_TOL)])


# (SGA on a linear or polynomial hard margin is coordinate ascent on a rank-3..10 kernel with
# large α: often more than 500,000 sweeps to ε = 1e-10; the Gaussian kernel is full rank)
@quick(15)
@given(p=separable_problems(kernel_names=("gaussian",), min_log_scale=SGA_SCALE))
def test_hard_margin_with_the_augmented_bias(p):
    kw = {"bias": "augmented"}
    check_hard_margin([p.fit(solver="qp", tol=QP_TOL, **kw),
                       p.fit(solver="sga", tol=1e-10, max_iter=500_000, **kw)])


# The primal QP (n + d + 1 variables) reaches cvxopt's gap 1e-10 less reliably than the dual
# ("unknown" on ~2 % of problems, and on ~1 in 3000 still at 1e-8), and on data of scale
# < 0.3 (K ≈ 0: nearly a linear program, w in the hundreds for the hard margin) it stops
# ~1e-6 from the optimum; these tests take tol 1e-7 and scales ≥ 1.
PRIMAL_TOL = 1e-7
PRIMAL_SCALE = 0.0


def check_primal_against_dual(p, C, loss, bias):
    dual = p.fit(loss=loss, bias=bias, solver="qp", tol=QP_TOL, C=C)
    tol = PRIMAL_TOL
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        primal = p.fit(loss=loss, bias=bias, solver="qp", qp_form="primal", tol=tol, C=C)
    if not primal.converged:
        # cvxopt can stall short of 1e-7 on the primal (status "unknown", a rare draw of
        # uncentred data and a large C): the model says so, with a warning; compare at 1e-6
        assert "unknown" in primal.status and caught, primal.status
        event("primal QP stalled at tol 1e-7, compared at 1e-6")
        tol = 1e-6
        primal = p.fit(loss=loss, bias=bias, solver="qp", qp_form="primal", tol=tol, C=C)
    assert dual.converged and primal.converged, (dual.status, primal.status)
    # the model of the primal QP is built from its α: the multipliers of the margin rows,
    # which cvxopt resolves less well than (w, b, ξ) themselves; they are polished onto the
    # active set (solvers/qp.py), but where that fails (~1 %) they are good to ~1e-3 only
    assert same_objective(primal.dual_objective, dual.dual_objective, rel=1e-3)
    if math.isfinite(C):  # (hard margin: the primal is ∞ for ξ > 1e-6, see the end)
        assert same_objective(primal.primal_objective, dual.primal_objective, rel=1e-3)
    # w is unique: the primal is 1-strongly convex in w, so ½‖w − w*‖² ≤ J − J* ≤ cvxopt's
    # gap (≈ tol·|J*|) bounds the error of its own iterate; Σαᵢyᵢxᵢ from the multipliers is
    # as good as they are (see above)
    w_err = 1.5 * math.sqrt(2 * tol * max(1.0, abs(dual.dual_objective)))
    np.testing.assert_allclose(primal.diagnostics.w_primal, dual.w, atol=w_err)
    np.testing.assert_allclose(primal.w, dual.w, atol=w_err + 1e-2 * np.abs(dual.w).max())
    # b need not be unique (no free SV: any b in an interval): cvxopt's (w, b) is optimal
    w, b = primal.diagnostics.w_primal, primal.diagnostics.b_primal
    xi = np.maximum(0.0, 1.0 - p.y * (p.X @ w + b))
    reg = 0.5 * (w @ w + (b * b if bias == "augmented" else 0.0))
    if math.isinf(C):
        assert xi.max() <= 1e-6
        primal_value = reg
    else:
        primal_value = reg + C * float(np.sum(xi ** (2 if loss == "quadratic" else 1)))
    assert same_objective(primal_value, dual.dual_objective, rel=1e-5)
    assert_kkt(primal, 1e-2)


@quick(25)
@given(p=problems(kernel_names=("linear",), min_log_scale=PRIMAL_SCALE), loss=LOSSES,
       bias=BIASES)
# a draw on which cvxopt's primal stalls at 1e-7 here (found by hypothesis)
@example(p=make_problem(se.Linear(), 40, 42832432, 0.75, 1.0, 2.0), loss="quadratic",
         bias="augmented")
def test_primal_qp_agrees_with_the_dual(p, loss, bias):
    """Seed 004's primal QP in (w, b, ξ) and the dual QP give the same w, b and objective."""
    check_primal_against_dual(p, p.C, loss, bias)


@quick(15)
@given(p=separable_problems(kernel_names=("linear",), min_log_scale=PRIMAL_SCALE),
       bias=BIASES)
def test_primal_qp_agrees_with_the_dual_for_the_hard_margin(p, bias):
    check_primal_against_dual(p, math.inf, "hinge", bias)
