"""ui.shared.theory: every number a "Why?" text prints is the engine's (the fit's h, α, b,
‖w‖, its support-vector sets), and the KKT case lists on the book's D1 and D2 are the ones the
book's example implies."""

import math

import numpy as np
import pytest

import svm_engine as se
from svm_engine import datasets
from ui.shared import tables, theory
from ui.shared.numbers import fmt_num


@pytest.fixture(scope="module")
def d1():
    d = datasets.d1()
    return se.fit(d.X, d.y, C=math.inf, solver="smo", tol=1e-5)


@pytest.fixture(scope="module")
def d2():
    d = datasets.d2()
    return se.fit(d.X, d.y, C=1.0, solver="smo", tol=1e-5)


@pytest.fixture(scope="module")
def d2_quadratic():
    d = datasets.d2()
    return se.fit(d.X, d.y, C=1.0, loss="quadratic", solver="smo", tol=1e-5)


def test_delta_is_y_h_over_the_norm_and_its_minimum_is_the_margin_on_d1(d1):
    r, delta = theory.directed_distances(d1)
    assert np.allclose(r * d1.w_norm, d1.h_train)
    assert np.allclose(delta, d1.y * d1.h_train / np.linalg.norm(d1.w))
    assert delta.min() == pytest.approx(d1.margin, rel=1e-6)   # slide 6: δ* = min δ
    text = theory.distance(d1).text
    assert f"the smallest δ is {fmt_num(delta.min())} = 1/‖w‖" in text
    assert fmt_num(delta.min()) == fmt_num(d1.margin) and f"‖w‖ = {fmt_num(d1.w_norm)}" in text
    assert f"2/‖w‖ = {fmt_num(2 * d1.margin)}" in text


def test_the_table_column_delta(d2):
    df = tables.with_distance(tables.point_table(d2), d2)
    cols = list(df.columns)
    assert cols[cols.index("y·h(x)") + 1] == tables.DELTA_COLUMN
    assert np.allclose(df[tables.DELTA_COLUMN], d2.y * d2.h_train / d2.w_norm)
    # slide 23: x18 = (5, 3) is the worst, δ = y·h/‖w‖ with y·h = 1 − ξ = −1.834
    assert df[tables.DELTA_COLUMN].idxmin() == 17


def test_kkt_cases_on_d1_hold_the_book_support_vectors_or_points_on_the_margin(d1):
    cases = theory.kkt_cases(d1)
    yh = d1.y * d1.h_train
    book_sv = {0, 1, 3, 12, 13}                             # slide 16: x1, x2, x4, x13, x14
    assert set(cases["free"]) <= book_sv and len(cases["bound"]) == 0
    assert np.allclose(yh[cases["free"]], 1, atol=1e-6)    # α > 0 ⇒ y·h = 1
    assert np.all(yh[cases["zero"]] >= 1 - 1e-6)            # α = 0 ⇒ y·h ≥ 1
    assert set(cases["zero"]) | set(cases["free"]) == set(range(14))
    text = theory.kkt(d1).text
    assert theory.names(cases["free"]) in text and theory.names(cases["zero"]) in text


def test_kkt_cases_on_d2_bound_svs_are_the_books(d2):
    cases = theory.kkt_cases(d2)
    yh = d2.y * d2.h_train
    # slide 22: x15..x18 have α = C = 1; the book's x4 and x13 (0.9928) sit on the margin
    assert {14, 15, 16, 17} <= set(cases["bound"])
    assert np.all(yh[cases["bound"]] <= 1 + 1e-6)           # α = C ⇒ y·h ≤ 1
    assert np.allclose(yh[cases["free"]], 1, atol=1e-6)    # 0 < α < C ⇒ y·h = 1
    assert np.all(yh[cases["zero"]] >= 1 - 1e-6)
    text = theory.kkt(d2).text
    assert "αᵢ = C ⇒" in text and theory.names(cases["bound"]) in text


def test_bias_average_over_free_svs_matches_the_solver(d1, d2, d2_quadratic):
    for m in (d1, d2, d2_quadratic):
        avg, bi, idx = theory.slide_bias(m)
        assert len(idx) > 0 and avg == pytest.approx(m.b, abs=1e-6)
        text = theory.bias(m).text
        assert f"b = {fmt_num(avg)}" in text and f"**{fmt_num(m.b)}**" in text
    # slide 13 with the linear kernel: bᵢ = yᵢ − wᵀxᵢ
    _, bi, idx = theory.slide_bias(d1)
    assert np.allclose(bi, d1.y[idx] - d1.X[idx] @ d1.w)


def test_quadratic_loss_dual_states_its_kernel_and_no_upper_bound(d2_quadratic, d2):
    q = theory.dual(d2_quadratic).text
    assert "K + δᵢⱼ/(2C)" in q and "αᵢ ≥ 0 with no upper bound" in q and "0 ≤ αᵢ ≤ C" not in q
    assert f"dual objective {fmt_num(d2_quadratic.dual_objective, 6)}" in q
    assert f"primal − dual = {fmt_num(d2_quadratic.duality_gap, 2)}" in q
    h = theory.dual(d2).text
    assert "0 ≤ αᵢ ≤ C = 1" in h and "δᵢⱼ" not in h and "∂L/∂b = −Σᵢ αᵢyᵢ = 0" in h
    # k = 2: ξᵢ = αᵢ/(2C) at every support vector, the KKT text's check
    m = d2_quadratic
    sv = m.alpha > 0
    assert np.allclose(m.xi[sv], m.alpha[sv] / (2 * m.C), atol=1e-6)
    assert "1 − αᵢ/(2C)" in theory.kkt(m).text


def test_augmented_bias_has_no_sum_constraint_and_b_is_the_sum():
    d = datasets.d2()
    m = se.fit(d.X, d.y, C=1.0, bias="augmented", solver="sga", tol=1e-6)
    text = theory.dual(m).text
    assert "no Σαᵢyᵢ = 0 constraint" in text and "∂L/∂b" in text
    assert f"b = Σαᵢyᵢ = {fmt_num(float(m.alpha @ m.y))}" in text
    assert float(m.alpha @ m.y) == pytest.approx(m.b)
    assert f"b = Σᵢ αᵢyᵢ = {fmt_num(m.b)}" in theory.bias(m).text
    assert "½(‖w‖² + b²)" in text and "w′ᵀx′ᵢ" in text


def test_kernel_decision_function_terms_are_the_models():
    d = datasets.d2()
    m = se.fit(d.X, d.y, C=1.0, kernel=se.Gaussian(sigma=1.0), solver="smo", tol=1e-5)
    text = theory.kernel(m).text
    sv = m.support
    first = f"({fmt_num(m.alpha[sv[0]] * m.y[sv[0]])})·K(x{sv[0] + 1}, z)"
    assert first in text and f"h(x{sv[0] + 1}) = {fmt_num(m.h_train[sv[0]])}" in text
    # the sum Σ αⱼyⱼK(xⱼ, z) + b at z = x_sv0, through the kernel itself
    k = m.kernel(m.X[sv], m.X[sv[:1]])[:, 0]
    assert float((m.alpha[sv] * m.y[sv]) @ k + m.b) == pytest.approx(m.h_train[sv[0]])
    avg, _, _ = theory.slide_bias(m)
    assert "averaged over the free support vectors" in text and fmt_num(avg) in text


def test_d1_points_on_the_margin_with_zero_alpha_are_named(d1):
    # slide 16 lists x2 and x14 as support vectors; SMO's α leaves some of the five at 0
    idle = set(theory.on_margin_at_zero(d1))
    book_sv = {0, 1, 3, 12, 13}
    assert idle == book_sv - set(theory.kkt_cases(d1)["free"])
    assert idle, "SMO's α on D1 uses 3 of the 5 points on the margin"
    assert f"Of the αᵢ = 0 points, {theory.names(sorted(idle))} lie on the margin" in \
        theory.kkt(d1).text
