"""Number exercises: seed 0 gives the book's numbers (computed by the engine, compared with
the values the sources print), other seeds other numbers that are still right; wrong answers
name the likely mistake."""

from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

import svm_engine as se
from svm_engine import datasets
from ui.classroom import exercises as ex
from ui.classroom.model import Screen


def task(seed=0, **params):
    return ex.variant(ex.validate_screen(Screen("number", params)), seed)


def answer(t, value):
    return ex.check(t, ex.parse(t, {"value": value}))


#: printed by the sources: the two-point example (the SVM blog note), D1 (slide 16), D2
#: (slides 22–23)
@pytest.mark.parametrize("params, printed", [
    ({"quantity": "w1"}, 1.0), ({"quantity": "w2"}, 1.0), ({"quantity": "b"}, -3.0),
    ({"quantity": "margin"}, 1 / math.sqrt(2)),
    ({"quantity": "w1", "dataset": "D1"}, 0.833), ({"quantity": "w2", "dataset": "D1"}, 0.334),
    ({"quantity": "b", "dataset": "D1"}, -3.332),
    ({"quantity": "b", "dataset": "D2"}, -3.334),
    ({"quantity": "xi"}, 1.667),                    # ξ16 on D2 (slide 23)
    ({"quantity": "xi", "point": 17}, 2.834),       # ξ18
    ({"quantity": "h"}, -0.167),                    # wᵀx17 + b (slide 23)
])
def test_seed_0_is_the_books_number(params, printed):
    t = task(**params)
    assert abs(t.data["exact"] - printed) <= t.tolerance
    fb = answer(t, str(printed))
    assert fb.correct and fb.message.startswith("Right")
    assert t.slide.startswith(("Zaki & Meira, Data Mining and Machine Learning, ch. 21",
                               "Note 4"))
    assert "±" in t.prompt


def test_the_exact_values_are_the_engines():
    d = datasets.d1()
    m = se.fit(d.X, d.y, C=math.inf, solver="qp")
    assert task(quantity="margin", dataset="D1").data["exact"] == pytest.approx(m.margin)
    assert task(quantity="w1", dataset="D1").data["exact"] == pytest.approx(m.w[0])
    d2 = datasets.d2()
    m2 = se.fit(d2.X, d2.y, C=1.0, solver="qp")
    assert task(quantity="xi").data["exact"] == pytest.approx(m2.xi[15], abs=1e-6)
    assert task(quantity="kernel").data["exact"] == pytest.approx(
        float(se.Polynomial(2, 1.0)(d.X[:1], d.X[1:2])[0, 0]))


@pytest.mark.parametrize("params, value, words", [
    ({"quantity": "margin"}, "1.4142", "2/‖w‖, the width between the bounding planes"),
    ({"quantity": "margin", "dataset": "D1"}, "2.2284", "book's margin δ* = 1/‖w‖"),
    ({"quantity": "b"}, "3", "sign is flipped"),
    ({"quantity": "xi"}, "-0.6667", "y·h(x) itself"),
    ({"quantity": "xi"}, "0.3333", "sign is flipped"),
    ({"quantity": "h"}, "3.1667", "b is missing"),
    ({"quantity": "eta"}, "-2", "note's η"),
    ({"quantity": "alpha2"}, "-1", "sign is flipped"),
    ({"quantity": "alpha2", "dataset": "D2", "step": 2}, "5.9672", "unclipped"),
    ({"quantity": "sga"}, "0.0385", "ηₖ·1"), ({"quantity": "sga"}, "0.0319", "α1, the update"),
    ({"quantity": "kernel"}, "27.75", "power 2 is missing"),
    ({"quantity": "kernel", "kernel": "gaussian"}, "0.1633", "2 of 2σ²"),
])
def test_wrong_answers_name_the_mistake(params, value, words):
    fb = answer(task(**params), value)
    assert fb.status == "wrong" and words in fb.message, fb.message


def test_a_wrong_answer_gets_the_method_not_the_number():
    t = task(quantity="xi")
    fb = answer(t, "5")
    assert fb.status == "wrong" and "too large" in fb.message
    assert "max(0, 1 − yᵢh(xᵢ))" in fb.message and "1.667" not in fb.message
    assert fb.accepted == "1.667"                   # for the teacher's dashboard


def test_smo_and_sga_by_hand():
    t = task(quantity="eta")                        # (2,2) and (1,1): η = ‖x1 − x2‖² = 2
    assert t.data["exact"] == pytest.approx(2.0)
    t = task(quantity="alpha2")
    assert t.data["exact"] == pytest.approx(1.0) and answer(t, "1").correct
    d = datasets.d1()
    t = task(quantity="sga")                        # slide 33 by hand, with x′ = (x, 1)
    a1 = 1 / (d.X[0] @ d.X[0] + 1)
    a2 = (1 - d.y[1] * a1 * d.y[0] * (d.X[0] @ d.X[1] + 1)) / (d.X[1] @ d.X[1] + 1)
    assert t.data["exact"] == pytest.approx(a2)


@given(st.integers(1, 100_000))
def test_two_point_variants_differ_and_have_one_answer(seed):
    t0, t = task(quantity="w1"), task(seed, quantity="w1")
    Xp, Xm = np.array(t.X[0]), np.array(t.X[1])
    assert t.y == (1, -1) and not np.array_equal(Xp, Xm)
    d = Xp - Xm                                     # the hard margin on two points, by hand
    w = 2 * d / (d @ d)
    assert t.data["exact"] == pytest.approx(w[0], abs=1e-6)
    assert t.slide == t0.slide and t.tolerance > 0


def test_two_point_variants_are_many():
    prompts = {task(seed, quantity="b").prompt for seed in range(1, 41)}
    assert len(prompts) >= 30                       # copying a neighbour's b rarely works


@given(st.integers(1, 100_000))
def test_d_variants_move_the_numbers_yet_stay_well_posed(seed):
    t0, t = task(quantity="margin", dataset="D1"), task(seed, quantity="margin", dataset="D1")
    X, y = np.array(t.X), np.array(t.y)
    m = se.fit(X, y, C=math.inf, solver="qp")       # another solver agrees
    assert t.data["exact"] == pytest.approx(m.margin, rel=1e-6)
    assert abs(t.data["exact"] - t0.data["exact"]) > 0.01


@given(st.integers(1, 100_000))
def test_xi_variants_ask_for_a_point_with_slack(seed):
    t = task(seed, quantity="xi")
    assert t.data["exact"] > 0.05
    assert answer(t, str(t.data["exact"])).correct


def test_a_bad_number_screen_names_the_value():
    for params, words in [({"quantity": "w3"}, "quantity must be one of"),
                          ({"quantity": "xi", "point": 40}, "point must be"),
                          ({"quantity": "eta", "step": 9}, "step must be"),
                          ({"quantity": "h", "z": "here"}, "z must be"),
                          ({"quantity": "kernel", "kernel": "sigmoid"}, "kernel must be"),
                          ({"quantity": "w1", "colour": 1}, "no parameter colour"),
                          ({"quantity": "w1", "dataset": "D3"}, "dataset must be")]:
        with pytest.raises(ValueError, match=words):
            ex.validate_screen(Screen("number", params))
