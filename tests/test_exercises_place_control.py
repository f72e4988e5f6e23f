"""Place a point and set a control: each answer is refitted with the Playground's settings and
the feedback says what the point or the value did."""

from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import svm_engine as se
from svm_engine import datasets
from ui.classroom import exercises as ex
from ui.classroom.model import Screen


def task(kind, seed=0, **params):
    return ex.variant(ex.validate_screen(Screen(kind, params)), seed)


def answer(t, raw):
    return ex.check(t, ex.parse(t, raw))


def test_place_a_support_vector():
    t = task("place", goal="sv")
    fb = answer(t, {"x": [3, 3], "label": 1})       # inside D1's margin: the plane moves
    assert fb.correct and "support vector" in fb.message and "become" in fb.message
    d = datasets.d1()
    m = se.fit(np.vstack([d.X, [3, 3]]), np.append(d.y, 1), C=math.inf, solver="qp")
    assert m.alpha[-1] > 0                          # another solver agrees
    fb = answer(t, {"x": [5, 5], "label": 1})
    assert fb.status == "wrong" and "y·h = 2.500 > 1" in fb.message and "α = 0" in fb.message
    fb = answer(t, {"x": [1, 1], "label": 1})       # a +1 deep among the −1: no hard margin
    assert fb.status == "wrong" and "not linearly separable" in fb.message


def test_place_a_point_that_changes_nothing():
    t = task("place", goal="unchanged")
    fb = answer(t, {"x": [3, 2], "label": -1})      # y·h = 1/6: inside D1's margin
    assert fb.status == "wrong" and "< 1" in fb.message
    fb = answer(t, {"x": [5, 1], "label": 1})
    assert fb.correct and "y·h = 1.167 ≥ 1" in fb.message and "do not change" in fb.message
    fb = answer(t, {"x": [0.5, 0.5], "label": -1})
    assert fb.correct


def test_place_a_misclassified_point():
    t = task("place", goal="misclassified")
    assert t.settings["hard_margin"] is False
    fb = answer(t, {"x": [0.5, 0.5], "label": 1})
    assert fb.correct and "ξ = " in fb.message and "> 1" in fb.message
    fb = answer(t, {"x": [3, 2.5], "label": 1})
    assert fb.status == "wrong" and "not misclassified" in fb.message
    with pytest.raises(ValueError, match="soft margin"):
        ex.validate_screen(Screen("place", {"goal": "misclassified", "dataset": "D1"}))


def test_control_exactly_k_support_vectors():
    t = task("control", control="C", target="n_sv", value=9)
    assert answer(t, {"value": 1}).correct          # the book's C = 1: 9 SVs (slide 22)
    fb = answer(t, {"value": 0.01})
    assert fb.status == "wrong" and "16 support vectors" in fb.message
    assert "Try a larger value" in fb.message and "slide 19" in fb.message
    with pytest.raises(ValueError, match="reaches the target"):
        ex.validate_screen(Screen("control", {"control": "C", "target": "n_sv", "value": 2}))


def test_control_margin_and_test_accuracy():
    t = task("control", control="C", target="margin", value=1.5)
    assert answer(t, {"value": 0.05}).correct
    fb = answer(t, {"value": 1})
    assert fb.status == "wrong" and "1/‖w‖ = 1.114" in fb.message and "smaller" in fb.message
    t = task("control", control="sigma", target="test_acc", value=0.9)
    assert len(t.X) == 20 and len(t.data["X_test"]) == 10
    assert t.settings["kernel"] == "gaussian"
    fb = answer(t, {"value": 5})
    assert fb.status == "wrong" and "test accuracy of" in fb.message
    good = [s for s in (0.1, 0.3, 0.5, 1, 2) if answer(t, {"value": s}).correct]
    assert good
    with pytest.raises(ValueError, match="held-out split"):
        ex.validate_screen(Screen("control", {"control": "sigma", "target": "test_acc",
                                              "value": 0.9, "dataset": "D2"}))


@settings(max_examples=10, deadline=None)
@given(st.integers(1, 10_000))
def test_seeded_places_and_controls_stay_well_posed(seed):
    t0 = task("place", goal="sv", seeded=True)
    t = task("place", seed, goal="sv", seeded=True)
    assert t.X != t0.X and sorted(t.y) == sorted(t0.y)
    c0 = task("control", control="sigma", target="test_acc", value=0.9, seeded=True)
    c = task("control", seed, control="sigma", target="test_acc", value=0.9, seeded=True)
    assert c.X != c0.X
    scan = np.geomspace(0.05, 10.0, 25)             # the control's own scan: reachable
    assert any(answer(c, {"value": float(s)}).correct for s in scan)
