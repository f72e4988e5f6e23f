"""The ready activities a teacher can start a live class with, and ``activity_from_screens``,
which checks a teacher's own sequence of screens.

``READY`` is plain data (building it runs no fit); tests/test_exercises_activities.py
validates every screen and checks each predict screen's answer with the engine.
"""

from __future__ import annotations

from collections.abc import Iterable

from ui.classroom.exercises import validate_screen
from ui.classroom.exercises.common import clean_text
from ui.classroom.model import SCREENS_MAX, TITLE_MAX, Activity, Screen

__all__ = ["READY", "activity_from_screens"]

CHAPTER = "Chapter 21: the SVM in eight screens"
SOFT = "Soft margin on D2"
BY_HAND = "SMO, SGA and kernels by hand"

_CHAPTER = (
    Screen("choice", {
        "question": "Which points are the support vectors of a separating hyperplane?",
        "choices": ["The points at the minimum distance from the hyperplane",
                    "Every point of the +1 class",
                    "The points farthest from the hyperplane",
                    "Only the misclassified points"],
        "answer": 0, "slide": "slide 6",
        "why": "The margin is the smallest distance y·h(x)/‖w‖ of a point to the hyperplane; "
               "the points that reach it are the support vectors (slide 6)."},
        "Support vectors"),
    Screen("number", {"quantity": "margin", "dataset": "two_point"}, "Two points by hand"),
    Screen("place", {"goal": "unchanged", "dataset": "D1"}, "A point that changes nothing"),
    Screen("mark", {"what": "sv", "dataset": "D1"}, "Mark the support vectors of D1"),
    Screen("predict", {
        "question": "D2 is fitted with C = 1. Refit it with C = 100: what happens to the "
                    "margin 1/‖w‖?",
        "choices": ["It shrinks", "It grows", "It stays the same"],
        "answer": 2, "slide": "slide 19",
        "why": "It stays the same: from C = 1 up the fit of D2 keeps the same w and b (check "
               "it in the Playground). Moving the hyperplane to cut the slack of x15 to x18 "
               "would cost more than it saves at any C ≥ 1; below C = 1 the margin does grow "
               "as C falls (slide 19: a small C favours the margin)."},
        "Predict: a larger C"),
    Screen("number", {"quantity": "xi", "dataset": "D2"}, "The slack of a point"),
    Screen("control", {"control": "sigma", "target": "test_acc", "value": 0.9,
                       "dataset": "moons"}, "Tune the Gaussian kernel"),
    Screen("number", {"quantity": "sga", "dataset": "D1"}, "One step of SVM-Dual"),
)

_SOFT = (
    Screen("mark", {"what": "slack", "dataset": "D2"}, "Points with slack"),
    Screen("mark", {"what": "misclassified", "dataset": "D2"}, "Misclassified points"),
    Screen("number", {"quantity": "xi", "dataset": "D2"}, "ξ of one point"),
    Screen("place", {"goal": "misclassified", "dataset": "D2"}, "A point beyond repair"),
    Screen("control", {"control": "C", "target": "margin", "value": 1.5, "dataset": "D2"},
           "Buy a wider margin"),
)

_BY_HAND = (
    Screen("number", {"quantity": "eta", "dataset": "two_point"}, "η of an SMO pair"),
    Screen("number", {"quantity": "alpha2", "dataset": "two_point"}, "SMO's new α"),
    Screen("number", {"quantity": "sga", "dataset": "D1"}, "An SGA update"),
    Screen("number", {"quantity": "kernel", "kernel": "polynomial"}, "A polynomial kernel"),
    Screen("number", {"quantity": "kernel", "kernel": "gaussian"}, "A Gaussian kernel"),
)

#: the activities a teacher can start as they are, by title
READY: dict[str, Activity] = {a.title: a for a in (
    Activity(CHAPTER, _CHAPTER), Activity(SOFT, _SOFT), Activity(BY_HAND, _BY_HAND))}


def activity_from_screens(title: str, screens: Iterable[Screen]) -> Activity:
    """A teacher's activity, checked: the title cleaned (plain text, ≤ TITLE_MAX), 1 to
    SCREENS_MAX screens, each validated (``exercises.validate_screen``). ValueError names
    the bad screen and value."""
    title = clean_text(title, TITLE_MAX, "title")
    if not title:
        raise ValueError("the activity needs a title")
    screens = list(screens)
    if not 1 <= len(screens) <= SCREENS_MAX:
        raise ValueError(f"an activity has 1 to {SCREENS_MAX} screens; got {len(screens)}")
    out = []
    for k, screen in enumerate(screens, 1):
        try:
            out.append(validate_screen(screen))
        except ValueError as exc:
            raise ValueError(f"screen {k}: {exc}") from None
    return Activity(title, tuple(out))
