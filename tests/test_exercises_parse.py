"""A student's raw answer: what parse accepts, and the clear AnswerError for what it does not
(empty, huge, non-numeric, code, out of range, duplicate or unknown points)."""

from __future__ import annotations

import pytest

from ui.classroom import exercises as ex
from ui.classroom.model import ANSWER_MAX, Screen


@pytest.fixture(scope="module")
def tasks():
    screens = {
        "points": Screen("mark", {"what": "sv", "dataset": "D1"}),
        "number": Screen("number", {"quantity": "margin"}),
        "point": Screen("place", {"goal": "sv"}),
        "control": Screen("control", {"control": "C", "target": "margin", "value": 1.5}),
        "degree": Screen("control", {"control": "degree", "target": "test_acc", "value": 0.8,
                                     "dataset": "circles"}),
        "choice": Screen("choice", {"question": "Q?", "choices": ["a", "b", "c"], "answer": 1}),
    }
    return {k: ex.variant(ex.validate_screen(s), 0) for k, s in screens.items()}


@pytest.mark.parametrize("raw, value", [
    ({"value": "0.71"}, 0.71), ({"value": 0.71}, 0.71), ({"value": " −3.33 "}, -3.33),
    ({"value": "0,71"}, 0.71), ({"value": "5/6"}, 5 / 6), ({"value": "1.5e-3"}, 0.0015),
    ({"value": "-0"}, 0.0), ({"value": 2}, 2.0),
])
def test_numbers_that_parse(tasks, raw, value):
    assert ex.parse(tasks["number"], raw)["value"] == pytest.approx(value)


@pytest.mark.parametrize("raw, words", [
    ({}, "No answer"), ({"value": ""}, "empty"), ({"value": "   "}, "empty"),
    ({"value": "abc"}, "not a number"), ({"value": "nan"}, "not a number"),
    ({"value": "inf"}, "not a number"), ({"value": "1e400"}, "not a finite number"),
    ({"value": float("nan")}, "not a finite number"), ({"value": 1e12}, "out of range"),
    ({"value": 10**400}, "not a finite number"),
    ({"value": "<script>alert(1)</script>"}, "looks like code"),
    ({"value": "1" * 61}, "too long"), ({"value": None}, "Type a number"),
    ({"value": True}, "Type a number"), ({"value": [1]}, "Type a number"),
    ({"value": "1/0"}, "divides by zero"), ({"value": "1,000,000"}, "not a number"),
    ({"value": "x" * (ANSWER_MAX + 10)}, "too long"),
])
def test_numbers_that_do_not_parse(tasks, raw, words):
    with pytest.raises(ex.AnswerError, match=words):
        ex.parse(tasks["number"], raw)


def test_not_a_dict_is_no_answer(tasks):
    for raw in (None, "0.7", [0.7], 0.7):
        with pytest.raises(ex.AnswerError, match="No answer"):
            ex.parse(tasks["number"], raw)


def test_points(tasks):
    t = tasks["points"]
    assert ex.parse(t, {"points": [12, 0, 3]}) == {"points": [0, 3, 12]}
    assert ex.parse(t, {"points": []}) == {"points": []}            # "none of them"
    assert ex.parse(t, {"points": ["x1", "4"]}) == {"points": [0, 4]}
    for raw, words in [({"points": [0, 0]}, "x1 is marked twice"),
                       ({"points": [14]}, "no point x15"), ({"points": [-1]}, "no point x0"),
                       ({"points": [1.5]}, "could not be read"),
                       ({"points": [True]}, "could not be read"),
                       ({"points": "0,1"}, "could not be read"), ({}, "No answer"),
                       ({"other": 1}, "Tap the points"),
                       ({"points": list(range(500))}, "too long")]:
        with pytest.raises(ex.AnswerError, match=words):
            ex.parse(t, raw)


def test_place_a_point(tasks):
    t = tasks["point"]
    assert ex.parse(t, {"x": ["3", 2.5], "label": -1}) == {"x": [3.0, 2.5], "label": -1}
    lo, hi = t.bounds
    for raw, words in [({"x": [hi + 1, 0], "label": 1}, "inside the picture"),
                       ({"x": [1], "label": 1}, "two coordinates"),
                       ({"x": [1, 2]}, "Choose the point's class"),
                       ({"x": [1, 2], "label": 0}, "Choose the point's class"),
                       ({"x": ["a", 2], "label": 1}, "not a number")]:
        with pytest.raises(ex.AnswerError, match=words):
            ex.parse(t, raw)


def test_a_fixed_label_is_the_tasks_own():
    t = ex.variant(ex.validate_screen(Screen("place", {"goal": "sv", "label": -1})), 0)
    assert ex.parse(t, {"x": [3, 3]}) == {"x": [3.0, 3.0], "label": -1}
    with pytest.raises(ex.AnswerError, match="class −1"):
        ex.parse(t, {"x": [3, 3], "label": 1})


def test_controls_and_choices(tasks):
    assert ex.parse(tasks["control"], {"value": "0,5"}) == {"value": 0.5}
    with pytest.raises(ex.AnswerError, match="from 0.001 to 1000"):
        ex.parse(tasks["control"], {"value": 5000})
    assert ex.parse(tasks["degree"], {"value": 3}) == {"value": 3.0}
    with pytest.raises(ex.AnswerError, match="whole number"):
        ex.parse(tasks["degree"], {"value": 2.5})
    assert ex.parse(tasks["choice"], {"choice": 2}) == {"choice": 2}
    for bad in (3, -1, "b", None, True):
        with pytest.raises(ex.AnswerError, match="Pick one"):
            ex.parse(tasks["choice"], {"choice": bad})
