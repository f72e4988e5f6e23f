"""Place a point: one that becomes a support vector, one that leaves the hyperplane unchanged,
or one that is misclassified with ξ > 1 after the refit (slides 6, 12–13, 17). The answer is
the point and its class; the check refits the picture with it (the Playground's settings).

params: ``goal`` ("sv" | "unchanged" | "misclassified"), ``dataset`` (default D1; D2 for
"misclassified", which needs a soft margin), ``X``/``y`` (dataset "custom"), ``settings``,
``label`` (+1/−1: the class of the point to place; absent, the student chooses),
``seeded`` (default false: one picture for the class, so the dashboard overlays the points),
``question``.
"""

from __future__ import annotations

import math

import numpy as np

from svm_engine import NotSeparableError
from ui.classroom.model import Feedback, Task
from ui.shared import fit_words
from ui.shared.numbers import fmt_fixed

from . import fits
from .common import clean_text, coords, flag, label, one_of, only_keys, right, rng_for, slide, wrong

KEYS = ("goal", "dataset", "X", "y", "settings", "label", "seeded", "question")
GOALS = ("sv", "unchanged", "misclassified")
_ASK = {"sv": "Place a point that becomes a support vector.",
        "unchanged": "Place a point that leaves the hyperplane unchanged.",
        "misclassified": "Place a point that is misclassified (ξ > 1) even after the refit."}
_SLIDE = {"sv": slide(6), "unchanged": slide(13), "misclassified": slide(17)}
#: relative change of (w, b) (or of h on the points, for a kernel) below this is "unchanged"
SAME = 1e-5


def validate(params: dict) -> dict:
    only_keys(params, KEYS, "place")
    out = dict(params)
    goal = one_of(params, "goal", GOALS, "sv")
    out["goal"] = goal
    out.setdefault("dataset", "D2" if goal == "misclassified" else "D1")
    if "label" in params and params["label"] not in (1, -1) or isinstance(
            params.get("label"), bool):
        raise ValueError(f"label must be +1 or −1; got {params['label']!r}")
    flag(params, "seeded", False)
    if "question" in params:
        out["question"] = clean_text(params["question"], name="question")
    X, y, s = fits.picture(out)
    if goal == "misclassified" and s["hard_margin"]:
        raise ValueError("a misclassified point needs a soft margin (finite C): under the "
                         "hard margin no point may be on the wrong side")
    if out["dataset"] == "custom":
        out.update(X=X.tolist(), y=y.tolist(), settings=s)
    return out


def make(params: dict, seed: int) -> Task:
    goal = params["goal"]
    X, y, s, m = fits.picture_fit(params, seed, rng_for(params, seed), shift=False)
    lo, hi = math.floor(X.min()) - 1.0, math.ceil(X.max()) + 1.0
    fixed = params.get("label")
    which = f" Its class: {label(fixed)}." if fixed else " Choose its class (+1 or −1)."
    prompt = " ".join(p for p in (params.get("question", ""), _ASK[goal] + which,
                                  f"({fits.describe(s)})") if p)
    data = {"goal": goal, "label": fixed, "draw_fit": True}
    return Task("place", "point", prompt, _SLIDE[goal], tuple(map(tuple, X.tolist())),
                tuple(int(v) for v in y), s, bounds=(lo, hi), data=data)


def _plane(m) -> str:
    w = m.w
    if w is None:
        return "the decision boundary"
    return f"w = ({fmt_fixed(w[0], 3)}, {fmt_fixed(w[1], 3)}), b = {fmt_fixed(m.b, 3)}"


def _same(m0, m1, Z) -> bool:
    h0, h1 = m0.decision_function(Z), m1.decision_function(Z)
    return float(np.abs(h1 - h0).max()) <= SAME * (1.0 + float(np.abs(h0).max()))


def check(task: Task, answer: dict) -> Feedback:
    p, lab = np.array(answer["x"], float), int(answer["label"])
    X, y = np.array(task.X), np.array(task.y)
    summary = f"{coords(p)} {label(lab)}"
    m0 = fits.fit(X, y, task.settings)
    yh0 = lab * float(m0.decision_function(p[None])[0])
    X1, y1 = np.vstack([X, p]), np.append(y, lab)
    try:
        m1 = fits.fit(X1, y1, task.settings)
    except NotSeparableError:
        return wrong(f"With {summary} the points are not linearly separable, so the hard "
                     "margin has no solution (slide 9): a point of this class must stay on "
                     "its class's side of every separating line.", summary)
    except ValueError as exc:           # another refusal of the engine's: its own words
        return wrong(f"The refit with {summary} has no model: {exc}", summary)
    if not m1.converged:
        return wrong(f"The refit with {summary} did not converge "
                     f"({fit_words.status_text(m1)}); try another place.", summary)
    yh1, a1 = float(m1.y[-1] * m1.h_train[-1]), float(m1.alpha[-1])
    goal = task.data["goal"]
    before = f"under the old hyperplane y·h = {fmt_fixed(yh0, 3)}"
    after = f"after the refit y·h = {fmt_fixed(yh1, 3)}, α = {fmt_fixed(a1, 4)}"
    same = _same(m0, m1, X1)
    moved = "w and b do not change" if same else f"{_plane(m0)} become {_plane(m1)}"
    if goal == "unchanged":
        if same:
            return right(f"Right: {summary} is on or beyond its margin: {before} ≥ 1, so "
                         f"α = 0 and {moved} (only support vectors shape w, slide 13).",
                         summary)
        return wrong(f"{summary} is inside its margin or on the wrong side: {before} < 1, so "
                     f"it would get α > 0 and the hyperplane moves: {moved}. Place it where "
                     "y·h ≥ 1.", summary)
    if goal == "sv":
        if yh1 <= 1.0 + fits.ON_MARGIN:
            where = "on the new margin" if abs(yh1 - 1) <= fits.ON_MARGIN else (
                "inside the new margin (α = C)" if yh1 > 0 else "on the wrong side (α = C)")
            return right(f"Right: {summary} is a support vector, {where}: {after}; {moved}.",
                         summary)
        return wrong(f"{summary} is not a support vector: after the refit y·h = "
                     f"{fmt_fixed(yh1, 3)} > 1, beyond the margin, so α = 0 and {moved} "
                     "(slide 12). Place it on or inside the margin.",
                     summary)
    xi = max(0.0, 1.0 - yh1)
    if yh1 < 0:
        return right(f"Right: {after}, so ξ = {fmt_fixed(xi, 3)} > 1: even after the refit "
                     f"it is on the wrong side of h(x) = 0 ({moved}).", summary)
    return wrong(f"{summary} is not misclassified after the refit: {after}, ξ = "
                 f"{fmt_fixed(xi, 3)} ≤ 1 ({moved}); the refit moved the hyperplane towards "
                 "it. Place it deeper inside the other class.", summary)
