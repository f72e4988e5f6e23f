"""Mark points: the support vectors, the points with slack ξ > 0, or the misclassified points
(slides 6, 12, 16–17, 22–23). The answer is a set of 0-based point indices.

params: ``what`` ("sv" | "slack" | "misclassified"), ``dataset`` ("D1" | "D2" | "two_point"
| "custom" with ``X``, ``y``), ``settings`` (Playground settings; override a book dataset's),
``seeded`` (default false: every student marks the same picture, so the teacher's dashboard
can overlay the marks; true moves the points per student), ``question`` (the teacher's words,
shown before the task's own).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from ui.classroom.model import Feedback, Task
from ui.shared.numbers import fmt_fixed

from . import fits, supports
from .common import (
    clean_text,
    flag,
    name,
    names,
    note,
    one_of,
    only_keys,
    right,
    rng_for,
    slide,
    summary_of,
    wrong,
)

KEYS = ("what", "dataset", "X", "y", "settings", "seeded", "question")
WHAT = ("sv", "slack", "misclassified")
_ASK = {"sv": "Tap the support vectors of this hyperplane.",
        "slack": "Tap every point with slack ξ > 0.",
        "misclassified": "Tap every misclassified point (ξ > 1: on the wrong side of "
                         "h(x) = 0)."}


def validate(params: dict) -> dict:
    only_keys(params, KEYS, "mark")
    out = dict(params)
    out["what"] = one_of(params, "what", WHAT, "sv")
    flag(params, "seeded", False)
    if "question" in params:
        out["question"] = clean_text(params["question"], name="question")
    X, y, s = fits.picture(params)
    if params.get("dataset") == "custom":
        out.update(X=X.tolist(), y=y.tolist(), settings=s)
    return out


def _cite(what: str, dataset: str) -> str:
    if what == "sv":
        return {"D1": slide(16), "D2": slide(22), "two_point": note("§3")}.get(
            dataset, slide(6))
    return slide(23) if dataset == "D2" else slide(17)


def make(params: dict, seed: int) -> Task:
    what, dataset = params["what"], params.get("dataset", "D1")
    X, y, s, m = fits.picture_fit(params, seed, rng_for(params, seed), shift=True)
    yh = m.y * m.h_train
    data: dict[str, Any] = {"what": what, "yh": yh.round(6).tolist(),
                            "xi": m.xi.round(6).tolist(), "alpha": m.alpha.round(6).tolist(),
                            "C": None if m.C_box == float("inf") else float(m.C_box),
                            "draw_fit": True}
    if what == "sv":
        sets, exact = supports.accepted_sets(m)
        data.update(accepted=sets, exact=exact)
    else:
        cut = 1.0 if what == "slack" else 0.0
        data["required"] = np.flatnonzero(yh < cut - fits.ON_MARGIN).tolist()
        data["optional"] = (np.flatnonzero(np.abs(yh) <= fits.ON_MARGIN).tolist()
                            if what == "misclassified" else [])
    prompt = " ".join(p for p in (params.get("question", ""), _ASK[what],
                                  f"({fits.describe(s)})") if p)
    return Task("mark", "points", prompt, _cite(what, dataset), tuple(map(tuple, X.tolist())),
                tuple(int(v) for v in y), s, data=data)


def _yh(task: Task, i: int) -> str:
    return f"y·h({name(i)}) = {fmt_fixed(task.data['yh'][i], 3)}"


def _xi(task: Task, i: int) -> str:
    return f"ξ{i + 1} = {fmt_fixed(task.data['xi'][i], 3)}"


def _why_sv(task: Task, i: int, missing: bool = False) -> str:
    yh = task.data["yh"][i]
    if abs(yh - 1.0) <= fits.ON_MARGIN:
        if missing:
            return (f"{name(i)} lies on its margin ({_yh(task, i)}) and every optimal α has "
                    f"α{i + 1} > 0: without {name(i)}, Σ αᵢyᵢxᵢ cannot give this w")
        return f"{name(i)} lies on its margin ({_yh(task, i)})"
    if yh < 1.0:
        where = "inside its margin" if yh > 0 else "on the wrong side of h(x) = 0"
        return (f"{name(i)} is {where} ({_yh(task, i)} < 1, {_xi(task, i)} > 0), so "
                f"α{i + 1} = C in every optimum")
    return (f"{name(i)} is beyond its margin ({_yh(task, i)} > 1), so α{i + 1} = 0 "
            "(slide 12)")


def check(task: Task, answer: dict) -> Feedback:
    S = sorted(set(answer["points"]))
    if task.data["what"] == "sv":
        return _check_sv(task, S)
    return _check_set(task, S)


def _check_sv(task: Task, S: list[int]) -> Feedback:
    sets, exact = task.data["accepted"], task.data["exact"]
    must = set.intersection(*map(set, sets)) if exact else set(sets[0])
    can = set().union(*map(set, sets))
    optional = sorted(can - must)
    accepted = " | ".join(summary_of(t) for t in sets)
    either = ""
    if optional:
        verb = "lies" if len(optional) == 1 else "lie"
        them = "it" if len(optional) == 1 else "them"
        either = (f" {names(optional)} {verb} on the margin too: counting {them} or not is "
                  "accepted (every set that some optimal α is > 0 on, and the set of all the "
                  "points on the margin), because the optimal α is not unique here: more "
                  "points lie on the margin than are needed to fix w and b, and different "
                  "optimal α (all with the same w and b) put αᵢ = 0 on different ones; "
                  "slide 6 calls every point at the minimum distance a support vector.")
    if supports.is_accepted(S, sets, exact):
        why = "; ".join(_why_sv(task, i) for i in S) or "no point"
        return right(f"Right: {why}.{either}", summary_of(S), accepted)
    missing, extra = sorted(must - set(S)), sorted(set(S) - can)
    parts = []
    if missing:
        parts.append(f"Missing: {names(missing)}. "
                     + "; ".join(_why_sv(task, i, missing=True) for i in missing) + ".")
    if extra:
        parts.append(f"Not support vectors: {names(extra)}. "
                     + "; ".join(_why_sv(task, i) for i in extra) + ".")
    if not parts:
        parts.append(f"{names(S)} all lie on the margin, but no optimal α is > 0 on exactly "
                     f"these points: with them alone Σ αᵢyᵢxᵢ = w and Σ αᵢyᵢ = 0 have no "
                     f"solution with every αᵢ > 0 (slide 10).")
    return wrong(" ".join(parts) + either, summary_of(S), accepted)


def _check_set(task: Task, S: list[int]) -> Feedback:
    what = task.data["what"]
    must, optional = set(task.data["required"]), set(task.data["optional"])
    word = "slack ξ > 0" if what == "slack" else "misclassified (ξ > 1)"
    accepted = summary_of(sorted(must)) + (
        f" (with or without {summary_of(sorted(optional))})" if optional else "")
    either = (f" {names(sorted(optional))} lie on h(x) = 0 (ξ = 1): slide 17 counts ξ ≥ 1 as "
              "misclassified, so marking them or not are both accepted." if optional else "")
    if must <= set(S) <= must | optional:
        why = "; ".join(f"{_yh(task, i)}, {_xi(task, i)}" for i in sorted(must))
        if not must:
            why = ("no point: every point has y·h(x) ≥ 1" if what == "slack"
                   else "no point: every point is on its correct side, y·h(x) > 0")
        return right(f"Right: {why}.{either}", summary_of(S), accepted)
    missing, extra = sorted(must - set(S)), sorted(set(S) - must - optional)
    parts = []
    if missing:
        parts.append(f"Missing: {names(missing)}, "
                     + "; ".join(f"{_yh(task, i)}, so {_xi(task, i)}" for i in missing) + ".")
    if extra:
        parts.append(f"Not {word}: {names(extra)}, "
                     + "; ".join(f"{_yh(task, i)}, so {_xi(task, i)}" for i in extra) + ".")
    rule = (" ξᵢ = max(0, 1 − yᵢh(xᵢ)) (slide 23): ξ > 0 inside the margin, ξ > 1 on the "
            "wrong side of h(x) = 0 (slide 17).")
    return wrong(" ".join(parts) + rule + either, summary_of(S), accepted)
