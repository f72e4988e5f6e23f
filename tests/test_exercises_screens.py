"""Choice and predict screens, the teacher's screens and activities (validated, texts cleaned),
a Playground teacher link as a screen, and the ready activities."""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
import pytest

import svm_engine as se
from svm_engine import datasets
from ui.classroom import activities
from ui.classroom import exercises as ex
from ui.classroom.exercises import _variant, fits
from ui.classroom.model import KINDS, PROMPT_MAX, SCREENS_MAX, Activity, Screen
from ui.shared import fitting

CHOICE = {"question": "What does C trade?", "choices": ["margin for slack", "the kernel"],
          "answer": 0, "why": "Slide 19: C weighs the slack against the margin."}


def test_a_choice_is_checked_and_says_why():
    t = ex.variant(ex.validate_screen(Screen("choice", CHOICE)), 0)
    assert t.form == "choice" and not t.reveal_first and t.choices == tuple(CHOICE["choices"])
    fb = ex.check(t, ex.parse(t, {"choice": 1}))
    assert fb.status == "wrong" and "margin for slack" in fb.message and "Slide 19" in fb.message
    assert ex.check(t, ex.parse(t, {"choice": 0})).correct


def test_predict_commits_first():
    t = ex.variant(ex.validate_screen(Screen("predict", CHOICE)), 0)
    assert t.reveal_first and t.kind == "predict"
    t = ex.variant(ex.validate_screen(Screen("predict", {
        "number": {"quantity": "margin", "dataset": "D1"}})), 0)
    assert t.reveal_first and t.form == "number"
    assert ex.check(t, ex.parse(t, {"value": "1.114"})).correct
    t = ex.variant(ex.validate_screen(Screen("predict", {
        "question": "How many SVs has D2 at C = 1?", "answer": 9, "why": "Slide 22."})), 0)
    assert "exact number" in t.prompt and ex.check(t, ex.parse(t, {"value": "9"})).correct
    assert ex.check(t, ex.parse(t, {"value": "8"})).status == "wrong"


def test_teacher_texts_are_cleaned_and_capped():
    s = ex.validate_screen(Screen("choice", {**CHOICE, "question": "  Why\x00 is\n\tC\u202e? "},
                                  " A\ttitle "))
    assert s.params["question"] == "Why is C?" and s.title == "A title"
    s = ex.validate_screen(Screen("choice", {**CHOICE, "question": "<script>x</script>"}))
    assert s.params["question"] == "<script>x</script>"  # kept as plain text, never markup
    for params, words in [({**CHOICE, "question": "x" * (PROMPT_MAX + 1)}, "at most"),
                          ({**CHOICE, "question": ""}, "question is empty"),
                          ({**CHOICE, "answer": 2}, "answer must be"),
                          ({**CHOICE, "answer": True}, "answer must be"),
                          ({**CHOICE, "choices": ["a"]}, "2 to 6"),
                          ({**CHOICE, "choices": ["a", "a"]}, "own, non-empty"),
                          ({**CHOICE, "question": 3}, "must be text"),
                          ({**CHOICE, "extra": 1}, "no parameter extra")]:
        with pytest.raises(ValueError, match=words):
            ex.validate_screen(Screen("choice", params))
    with pytest.raises(ValueError, match="kind must be one of"):
        ex.validate_screen(Screen("essay", {}))


def test_variants_are_deterministic_and_seeds_checked():
    for screen in (Screen("number", {"quantity": "b"}),
                   Screen("number", {"quantity": "xi", "dataset": "D2"}),
                   Screen("mark", {"what": "sv", "dataset": "D1", "seeded": True})):
        s = ex.validate_screen(screen)
        first = ex.variant(s, 5)
        _variant.cache_clear()                      # computed again, not read back
        fits._fit.cache_clear()
        assert ex.variant(s, 5) == first
        assert ex.variant(s, 6) != first
    for bad in (-1, 1.5, "3", True, 2**40):
        with pytest.raises(ValueError, match="seed"):
            ex.variant(s, bad)


@dataclass
class Spec:  # the fields of ui.playground.teacher.TeacherSpec that a screen reads
    X: np.ndarray
    y: np.ndarray
    settings: dict
    title: str = ""
    question: str = ""


def test_a_teacher_link_becomes_a_mark_screen():
    d = datasets.d1()
    spec = Spec(d.X, d.y, {"kernel": "linear", "hard_margin": True}, "My D1",
                "Look at the margin.")
    s = ex.screen_from_link(spec)
    assert s.kind == "mark" and s.title == "My D1" and s.params["dataset"] == "custom"
    t = ex.variant(s, 0)
    assert t.prompt.startswith("Look at the margin.") and len(t.X) == 14
    assert ex.check(t, ex.parse(t, {"points": [0, 3, 12]})).correct
    with pytest.raises(ValueError, match="at most 60 points"):
        ex.screen_from_link(Spec(np.zeros((61, 2)), np.ones(61), {}))
    with pytest.raises(ValueError, match="both classes"):
        ex.screen_from_link(Spec(d.X, np.ones(14), {}))
    with pytest.raises(ValueError, match="PSVM picture"):
        ex.screen_from_link(Spec(d.X, d.y, {"solver": "psvm", "loss": "quadratic",
                                            "bias": "augmented"}))
    with pytest.raises(ValueError, match="SMO uses the free bias"):
        ex.screen_from_link(Spec(d.X, d.y, {"solver": "smo", "bias": "augmented"}))
    with pytest.raises(ValueError, match="not linearly separable"):
        ex.screen_from_link(Spec(datasets.d2().X, datasets.d2().y, {"hard_margin": True}))


def test_the_ready_activities():
    assert activities.CHAPTER in activities.READY and activities.SOFT in activities.READY
    for title, a in activities.READY.items():
        checked = activities.activity_from_screens(title, a.screens)
        assert isinstance(checked, Activity) and len(checked.screens) == len(a.screens)
        for s in checked.screens:
            for seed in (0, 1, 2):
                t = ex.variant(s, seed)
                assert t.prompt and t.slide
    chapter = activities.READY[activities.CHAPTER].screens
    assert len(chapter) == 8 and {s.kind for s in chapter} == set(KINDS)
    slides = [int(ex.variant(ex.validate_screen(s), 0).slide.split("slide ")[-1].split(";")[0]
                  .split(" ")[0]) for s in chapter]
    assert slides == sorted(slides)                 # in the chapter's order


def test_the_ready_predictions_are_the_engines():
    d = datasets.d2()
    m1 = se.fit(d.X, d.y, C=1.0, solver="qp")
    m100 = se.fit(d.X, d.y, C=100.0, solver="qp")
    (predict,) = [s for s in activities.READY[activities.CHAPTER].screens
                  if s.kind == "predict"]
    change = m100.margin - m1.margin
    expected = ("It stays the same" if abs(change) < 1e-6 else
                "It shrinks" if change < 0 else "It grows")
    assert predict.params["choices"][predict.params["answer"]] == expected
    m05 = se.fit(d.X, d.y, C=0.5, solver="qp")     # the why: below C = 1 it grows
    assert m05.margin > m1.margin + 0.1 and math.isfinite(m100.margin)


def test_activity_from_screens_names_the_bad_screen():
    good = Screen("choice", CHOICE)
    with pytest.raises(ValueError, match="screen 2: quantity must be one of"):
        activities.activity_from_screens("T", [good, Screen("number", {"quantity": "x"})])
    with pytest.raises(ValueError, match="needs a title"):
        activities.activity_from_screens("  ", [good])
    with pytest.raises(ValueError, match=f"1 to {SCREENS_MAX} screens"):
        activities.activity_from_screens("T", [])
    a = activities.activity_from_screens("T", [good])
    assert Activity.from_json(a.to_json()) == a


@pytest.mark.parametrize("dataset", ["D1", "D2", "two_point"])
def test_the_fits_are_the_playgrounds(dataset):
    X, y, s = fits.book(dataset)
    mine, page = fits.fit(X, y, s), fitting.fit_points(X, y, s).model
    assert np.array_equal(mine.alpha, page.alpha) and mine.b == page.b
    assert mine.solver == page.solver and mine.converged


def test_an_answer_the_engine_cannot_check_is_invalid_not_a_traceback():
    t = ex.variant(ex.validate_screen(Screen("place", {"goal": "sv"})), 0)
    fb = ex.check(t, {"x": "not a point", "label": 1})   # what parse would never pass
    assert fb.status == "invalid" and "answer again" in fb.message


def test_tasks_and_feedback_are_plain_json():
    from dataclasses import asdict

    from ui.classroom.model import as_json

    for a in activities.READY.values():
        for s in a.screens:
            t = ex.variant(ex.validate_screen(s), 3)
            as_json(asdict(t))                      # a page may cache it, a store keep it
