"""Platt's two-variable step (`solvers.smo.clip_pair`) and the stall it used to cause."""

import math

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

import svm_engine as se
from svm_engine import datasets as ds
from svm_engine.solvers.smo import clip_pair

finite = st.floats(0.0, 10.0, allow_nan=False)
label = st.sampled_from([-1.0, 1.0])


@given(a_i=finite, a_j=finite, aj_unc=st.floats(-50, 50), y_i=label, y_j=label,
       C=st.floats(0.01, 10.0))
def test_clip_pair_stays_in_the_box_and_on_the_line(a_i, a_j, aj_unc, y_i, y_j, C):
    a_i, a_j = min(a_i, C), min(a_j, C)
    L, H, ai_new, aj_new = clip_pair(a_i, a_j, aj_unc, y_i, y_j, C)
    assert 0.0 <= L <= H <= C
    assert L <= aj_new <= H and 0.0 <= ai_new <= C
    # the step moves along yᵢαᵢ + yⱼαⱼ = const
    assert y_i * ai_new + y_j * aj_new == pytest.approx(y_i * a_i + y_j * a_j, abs=1e-12)
    if L < aj_unc < H:
        assert aj_new == aj_unc


@pytest.mark.parametrize("a_i, a_j, y_i, y_j", [
    (0.3, 1.1, -1.0, -1.0),   # αᵢ + αⱼ = const: H = αᵢ + αⱼ ⇒ αᵢ = 0
    (0.1, 0.7, 1.0, -1.0),    # αᵢ − αⱼ = const: L = αⱼ − αᵢ ⇒ αᵢ = 0
])
def test_alpha_i_lands_exactly_on_zero(a_i, a_j, y_i, y_j):
    # 0.1 + 0.2 − 0.2 style residues: αᵢ must be exactly 0, not 3e-18
    for scale in (1.0, 1 / 3, 0.1, 2.77):
        ai, aj = a_i * scale, a_j * scale
        unc = 1e6 if y_i == y_j else -1e6
        L, H, ai_new, aj_new = clip_pair(ai, aj, unc, y_i, y_j, 4.0)
        assert ai_new == 0.0


def test_alpha_i_lands_exactly_on_C():
    C = 1.0
    for a_i, a_j in [(0.7, 0.6), (0.9, 0.3), (1 / 3, 0.9)]:
        L, H, ai_new, aj_new = clip_pair(a_i, a_j, -1e6, 1.0, 1.0, C)   # αⱼ → L = αᵢ + αⱼ − C
        assert aj_new == L and ai_new == C


@pytest.mark.parametrize("trace", [False, True])
def test_smo_converges_on_the_ill_conditioned_quadratic_kernel(trace):
    """(1 + xᵀz)² on the unscaled slide-25 data: K up to ~5,000. A residue αᵢ = 3e-18 used to
    make SMO pick the same zero-length step for ever (10 M iterations, m − M = 0.4)."""
    d = ds.nonlinear()
    k = se.Polynomial(degree=2, coef0=1)
    ref = se.fit(d.X, d.y, kernel=k, C=4, solver="qp", tol=1e-10)
    m = se.fit(d.X, d.y, kernel=k, C=4, solver="smo", tol=1e-6, trace=trace, max_iter=200_000)
    assert m.converged and m.kkt_violation <= 1e-6
    assert m.dual_objective == pytest.approx(ref.dual_objective, rel=1e-6)
    assert math.isfinite(m.b) and np.all(m.alpha >= 0) and np.all(m.alpha <= 4)
