"""The teacher links a teacher can start from: the book's worked examples
(``ui.shared.book_setups.SETUPS``) with a title, a question and what they lock and hide."""

from __future__ import annotations

from dataclasses import dataclass

from ui.playground.teacher_spec import TeacherSpec, make_spec
from ui.shared.book_setups import SETUPS, playground_target
from ui.shared.settings import SETTING_KEYS


@dataclass(frozen=True)
class Preset:
    """A worked example's setup (``ui.shared.book_setups.SETUPS``: example key, setup index) as
    a teacher link."""

    key: str
    label: str
    example: str
    setup: int
    title: str
    question: str
    locked: tuple[str, ...]
    hidden: tuple[str, ...]


_FIXED = ("points", "kernel", "loss", "bias", "solver")
PRESETS: tuple[Preset, ...] = (
    Preset("d1", "D1, hard margin (slides 15–16)", "d1", 0,
           "D1: the widest street between two classes (slides 15–16)",
           "Which points are the support vectors? Point at them before the table is shown. "
           "Then turn the hard margin off: what changes?",
           _FIXED, ("sv", "numbers", "table")),
    Preset("d2", "D2, soft margin C = 1 (slides 21–23)", "d2", 0,
           "D2: a soft margin with C = 1 (slides 21–23)",
           "Which points need slack (ξ > 0), and which of them are misclassified? "
           "Then make C smaller: does the margin get wider or narrower?",
           _FIXED, ("sv", "table")),
    Preset("iris", "Iris setosa, C = 10 (slide 34)", "iris", 0,
           "Iris: setosa against the other two species (slide 34)",
           "Predict first: with C = 1000 instead of 10, is the margin wider or narrower? "
           "Which flowers become support vectors?",
           _FIXED, ("table",)),
    Preset("nonlinear", "Nonlinear, quadratic kernel (slides 25, 29)", "nonlinear", 0,
           "Nonlinear data: the quadratic kernel (slides 25 and 29)",
           "No line separates these points. Switch the kernel to linear and back: what can "
           "K(x, z) = (1 + xᵀz)² draw that a line cannot?",
           ("points", "loss", "C", "bias", "solver"), ()),
    Preset("two_point", "Two points: KKT by hand", "two_point", 0,
           "Two points: the KKT conditions by hand",
           "Work out w, b and the margin δ* = 1/‖w‖ by hand (the book's margin; the width "
           "between the planes h(x) = ±1 is 2/‖w‖) before you look at the numbers. "
           "Then drag a point: how do w and b change?",
           ("kernel", "loss", "C", "bias", "solver"), ("numbers", "table")),
)
PRESETS_BY_KEY = {p.key: p for p in PRESETS}


def preset_spec(key: str) -> TeacherSpec:
    """The spec of a preset: the worked example's data and settings
    (``ui.shared.book_setups``, as the Worked examples page opens them)."""
    p = PRESETS_BY_KEY[key]
    X, y, settings, _ = playground_target(SETUPS[p.example][p.setup])
    settings = {k: v for k, v in settings.items() if k in SETTING_KEYS}
    return make_spec(X, y, settings, title=p.title, question=p.question,
                     locked=p.locked, hidden=p.hidden)  # fmt: skip
