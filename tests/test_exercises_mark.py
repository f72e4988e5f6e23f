"""Mark the support vectors / the points with slack / the misclassified points: the accepted
sets come from the engine's fit, checked here against an independent linear program (scipy)
and the book's printed answers (slides 16, 22–23)."""

from __future__ import annotations

import itertools
import math

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st
from scipy.optimize import linprog

import svm_engine as se
from svm_engine import datasets
from ui.classroom import exercises as ex
from ui.classroom.model import Screen

#: slide 16: the book's support vectors of D1 (1-based)
BOOK_D1_SV = {1, 2, 4, 13, 14}
#: slide 23: ξ of x15..x18, and the misclassified x16, x18
BOOK_D2_XI = {15: 0.333, 16: 1.667, 17: 0.833, 18: 2.834}


def task(**params):
    return ex.variant(ex.validate_screen(Screen("mark", params)), 0)


def answer(t, points):
    return ex.check(t, ex.parse(t, {"points": sorted(points)}))


def achievable(X, y, alpha, margin, S):
    """Is there an α ≥ 0, > 0 exactly on S among the margin points, with the same w and
    Σαᵢyᵢ = 0? (maximise the smallest αᵢ on S by linear programming)"""
    idx = sorted(margin)
    w = (alpha * y) @ X
    n = len(idx)                                    # variables: α over idx, then t
    A_eq = np.vstack([(y[idx, None] * X[idx]).T, y[idx][None, :]])
    A_eq = np.hstack([A_eq, np.zeros((3, 1))])
    b_eq = np.append(w, 0.0)
    A_ub, b_ub = [], []
    for k, i in enumerate(idx):
        if i in S:                                  # t − αᵢ ≤ 0
            row = np.zeros(n + 1)
            row[k], row[n] = -1.0, 1.0
            A_ub.append(row)
            b_ub.append(0.0)
    bounds = [(0, None) if i in S else (0, 0) for i in idx] + [(0, 1)]
    c = np.zeros(n + 1)
    c[n] = -1.0
    r = linprog(c, A_ub=np.array(A_ub) if A_ub else None, b_ub=b_ub or None, A_eq=A_eq,
                b_eq=b_eq, bounds=bounds)
    return r.status == 0 and -r.fun > 1e-7


def test_d1_every_accepted_set_is_an_optimal_alphas_support_and_no_other():
    t = task(what="sv", dataset="D1")
    d = datasets.d1()
    m = se.fit(d.X, d.y, C=math.inf, solver="qp")
    margin = set(np.flatnonzero(np.abs(m.y * m.h_train - 1) < 1e-6).tolist())
    assert margin == {0, 1, 3, 12, 13}              # x1, x2, x4, x13, x14 (slide 16)
    expected = {tuple(sorted(S)) for k in range(1, 6) for S in itertools.combinations(
        sorted(margin), k) if achievable(d.X, d.y, m.alpha, margin, set(S))}
    expected.add(tuple(sorted(margin)))             # slide 6: every point on the margin
    assert {tuple(s) for s in t.data["accepted"]} == expected
    assert len(expected) > 1                        # α is not unique on D1


def test_d1_the_books_and_the_solvers_sets_are_right():
    t = task(what="sv", dataset="D1")
    d = datasets.d1()
    smo = se.fit(d.X, d.y, C=math.inf, solver="smo", tol=1e-8)
    qp = se.fit(d.X, d.y, C=math.inf, solver="qp")
    for S in ({i - 1 for i in BOOK_D1_SV}, set(smo.support.tolist()), set(qp.support.tolist())):
        fb = answer(t, S)
        assert fb.correct, fb.message
    fb = answer(t, {0, 3, 12})                      # x1, x4, x13
    assert fb.correct and "x1, x2 and x14 lie on the margin" in fb.message
    assert "not unique" in fb.message and "slide 6" in fb.message


def test_d1_wrong_sets_say_which_point_and_why():
    t = task(what="sv", dataset="D1")
    fb = answer(t, {0, 1, 12})                      # x4 missing
    assert fb.status == "wrong" and "Missing: x4" in fb.message
    assert "y·h(x4) = 1.000" in fb.message
    fb = answer(t, {0, 2, 3, 12})                   # x3 is no support vector
    assert fb.status == "wrong" and "Not support vectors: x3" in fb.message
    assert "y·h(x3) = 1.333 > 1" in fb.message and "α" in fb.message
    assert fb.summary == "x1 x3 x4 x13"
    assert "x1 x4 x13" in fb.accepted


def test_d2_slack_and_misclassified_are_the_books():
    d = datasets.d2()
    t = task(what="slack", dataset="D2")
    book = {i - 1 for i in BOOK_D2_XI}
    fb = answer(t, book)
    assert fb.correct, fb.message
    for i, xi in BOOK_D2_XI.items():              # the engine's ξ, as the slide prints them
        assert t.data["xi"][i - 1] == pytest.approx(xi, abs=1.5e-3)
    wrong = answer(t, {15, 17})
    assert wrong.status == "wrong" and "Missing: x15 and x17" in wrong.message
    assert "ξ15 = 0.333" in wrong.message and "max(0, 1 − yᵢh(xᵢ))" in wrong.message
    t = task(what="misclassified", dataset="D2")
    mis = {i - 1 for i, xi in BOOK_D2_XI.items() if xi > 1}
    assert answer(t, mis).correct
    fb = answer(t, mis | {14})
    assert fb.status == "wrong" and "Not misclassified (ξ > 1): x15" in fb.message
    m = se.fit(d.X, d.y, C=1.0, solver="qp")
    assert set(np.flatnonzero(m.y * m.h_train < 0).tolist()) == mis


def test_d1_has_no_slack_and_no_mistake():
    for what in ("slack", "misclassified"):
        t = task(what=what, dataset="D1")
        fb = answer(t, set())
        assert fb.correct and "no point" in fb.message
        assert answer(t, {0}).status == "wrong"


def test_d2_support_vectors_include_the_points_with_slack():
    t = task(what="sv", dataset="D2")
    fb = answer(t, {1, 3, 12, 13, 14, 15, 16, 17})
    assert fb.correct, fb.message
    fb = answer(t, {1, 3, 12, 13})
    assert fb.status == "wrong" and "x15" in fb.message and "inside its margin" in fb.message


@given(st.integers(1, 10_000))
def test_seeded_marks_differ_yet_stay_well_posed(seed):
    s = ex.validate_screen(Screen("mark", {"what": "sv", "dataset": "D1", "seeded": True}))
    t0, t = ex.variant(s, 0), ex.variant(s, seed)
    assert t.X != t0.X
    assert len(t.X) == 14 and sorted(t.y) == sorted(t0.y)
    sets = t.data["accepted"]
    assert answer(t, sets[0]).correct and answer(t, sets[-1]).correct
    yh = np.array(t.data["yh"])
    assert ((np.abs(yh - 1) < 1e-4) | (yh > 1.05)).all()   # no near-tie a picture hides


def test_many_points_on_the_margin_accept_every_set_between_the_two_ends():
    xs = np.arange(6.0)
    X = np.vstack([np.c_[xs, np.zeros(6)], np.c_[xs, np.full(6, 2.0)]])
    y = np.r_[-np.ones(6), np.ones(6)].astype(int)
    t = task(what="sv", dataset="custom", X=X.tolist(), y=y.tolist(),
             settings={"hard_margin": True})
    assert t.data["exact"] is False                 # 12 margin points: not enumerated
    lo, hi = map(set, (t.data["accepted"][0], t.data["accepted"][-1]))
    assert hi == set(range(12)) and lo <= hi
    assert answer(t, hi).correct and answer(t, lo).correct


def test_quadratic_loss_has_one_alpha():
    t = task(what="sv", dataset="D2", settings={"loss": "quadratic", "C": 1.0})
    d = datasets.d2()
    m = se.fit(d.X, d.y, C=1.0, loss="quadratic", solver="qp")
    assert set(map(tuple, t.data["accepted"])) == {tuple(m.support)}
