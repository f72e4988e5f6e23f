"""A number: w₁, w₂, b, the margin, a slack ξᵢ, h(z) (here), η and the clipped α of an SMO
step, an SGA update and a kernel value (``steps.py``). The exact value comes from the
engine's fit of the task's own points; the tolerance is stated in the prompt.

params: ``quantity`` (one of ``QUANTITIES``), ``dataset`` ("two_point" | "D1" | "D2";
default per quantity), ``settings`` (override the book's), ``point`` (ξ: 0-based index; a
seeded variant picks a point with slack itself, as its points are renumbered), ``z`` (h:
[z1, z2]), ``step`` (η, α₂: 1-based SMO step), ``k`` (sga: 1-based update),
``kernel``/``degree``/``coef0``/``sigma``/``x`` (kernel), ``C`` (sga), ``seeded`` (default
true: seed 0 is the book's numbers, other seeds move the points: another pair of points for
the two-point example, the picture turned, mirrored, renumbered and one point moved for D1
and D2, other points for a kernel value), ``question`` (the teacher's words, first).

The margin is the book's δ* = 1/‖w‖ (slides 6–7). 2/‖w‖, the width between the bounding
planes h = ±1 (the SVM blog note's and the Proximal SVM slides' convention), is marked wrong
with a message that names it: the prompt asks for the book's margin.
"""

from __future__ import annotations

import math

import numpy as np

from svm_engine.bounds import free_mask
from ui.classroom.model import Feedback, Task
from ui.shared.numbers import fmt_fixed, fmt_num, fmt_setting, linear_combination

from . import fits, steps
from .common import (
    clean_text,
    coords,
    flag,
    label,
    note,
    one_of,
    only_keys,
    point_text,
    right,
    rng_for,
    slide,
    wrong,
)

QUANTITIES = ("w1", "w2", "b", "margin", "xi", "h", "eta", "alpha2", "sga", "kernel")
KEYS = ("quantity", "dataset", "settings", "point", "z", "step", "k", "kernel", "degree",
        "coef0", "sigma", "x", "C", "seeded", "question")
DEFAULT_DATASET = {"w1": "two_point", "w2": "two_point", "b": "two_point",
                   "margin": "two_point", "xi": "D2", "h": "D1", "eta": "two_point",
                   "alpha2": "two_point", "sga": "D1", "kernel": "D1"}
#: relative tolerance; each quantity adds an absolute floor (Q["floor"])
REL_TOL = 0.005


def validate(params: dict) -> dict:
    only_keys(params, KEYS, "number")
    out = dict(params)
    q = one_of(params, "quantity", QUANTITIES)
    out.setdefault("dataset", DEFAULT_DATASET[q])
    if out["dataset"] == "custom":
        raise ValueError("a number screen uses a book dataset: D1, D2 or two_point")
    flag(params, "seeded", True)
    if "question" in params:
        out["question"] = clean_text(params["question"], name="question")
    make(out, 0)  # the book's variant must exist: a bad point, step or kernel says so here
    return out


def make(params: dict, seed: int) -> Task:
    q = params["quantity"]
    X, y, s = fits.picture(params, DEFAULT_DATASET[q])
    rng = rng_for(params, seed)
    seeded = flag(params, "seeded", True) and seed != 0
    Q = _BUILD[q](params, X, y, s, rng, seeded)
    tol = nice(max(Q["floor"], REL_TOL * abs(Q["exact"])))
    prompt = " ".join(p for p in (params.get("question", ""), Q["given"], Q["ask"],
                                  f"Answer to ±{fmt_num(tol, 2)}.") if p)
    data = {"exact": Q["exact"], "why": Q["why"], "how": Q["how"],
            "mistakes": Q["mistakes"], "unit": Q["unit"], "draw_fit": False}
    return Task("number", "number", prompt, Q["slide"], tuple(map(tuple, Q["X"].tolist())),
                tuple(int(v) for v in Q["y"]), Q["settings"], tolerance=tol, unit=Q["unit"],
                data=data)


def check(task: Task, answer: dict) -> Feedback:
    v, d = float(answer["value"]), task.data
    exact, tol = d["exact"], task.tolerance
    summary = fmt_num(v, 4)
    if abs(v - exact) <= tol:
        return right(f"Right: {d['unit']} = {fmt_num(exact, 4)}. {d['why']}", summary,
                     fmt_num(exact, 4))
    for value, why in d["mistakes"]:
        if abs(v - value) <= tol and abs(value - exact) > tol:
            return wrong(f"Not quite: {why}. {d['how']}", summary, fmt_num(exact, 4))
    off = "too large" if v > exact else "too small"
    return wrong(f"{fmt_num(v, 4)} is {off} (the tolerance is ±{fmt_num(tol, 2)}). "
                 f"{d['how']}", summary, fmt_num(exact, 4))


def nice(t: float) -> float:
    """``t`` rounded up to 1, 2 or 5 times a power of ten: a tolerance a prompt can state
    (±0.002, not ±0.00167)."""
    e = math.floor(math.log10(t))
    for f in (1, 2, 5, 10):
        if f * 10.0**e >= t * (1 - 1e-12):
            return float(f"{f}e{e}")
    return 10.0 ** (e + 1)  # pragma: no cover


# ----------------------------------------------------------------- the numbers of a fit


def _points(params, X, y, s, rng, seeded):
    """The picture, its model: seeded, another two-point pair or D1/D2 moved."""
    if not seeded:
        return X, y, fits.fit(X, y, s)
    if params.get("dataset") == "two_point":
        X = steps.two_points(rng)
        return X, y, fits.fit(X, y, s)
    base = fits.fit(X, y, s).margin

    def other(m) -> bool:  # a moved support vector: other numbers, not only other places
        return fits.well_posed(m) and abs(m.margin - base) > 0.01

    return fits.variant_points(X, y, s, rng, shift=True, ok=other)


def _w_text(w) -> str:
    return f"w = ({fmt_fixed(w[0], 4)}, {fmt_fixed(w[1], 4)})"


def _given_two(X, y) -> str:
    return (f"Two points: {point_text(X, y, 0)} and {point_text(X, y, 1)}; the hard-margin "
            "SVM.")


def _given_alpha(m) -> str:
    sv = np.flatnonzero(m.alpha > 0)
    rows = "; ".join(f"{point_text(m.X, m.y, i)}: α = {fmt_fixed(m.alpha[i], 4)}" for i in sv)
    return f"The solver's αᵢ > 0 ({fits.describe_model(m)}): {rows}."


def _given_plane(m) -> str:
    h = linear_combination([(m.w[0], "x1"), (m.w[1], "x2"), (m.b, "")], 4)
    return f"The hyperplane h(x) = {h} ({fits.describe_model(m)})."


def _hyperplane(params, X, y, s, rng, seeded) -> dict:
    q = params["quantity"]
    X, y, m = _points(params, X, y, s, rng, seeded)
    w, b, two = m.w, m.b, params["dataset"] == "two_point"
    nw = float(np.linalg.norm(w))
    plane = f"{_w_text(w)}, b = {fmt_fixed(b, 4)}"
    if two:
        d = X[0] - X[1] if y[0] > 0 else X[1] - X[0]
        why = (f"Both points lie on their margins (y·h = 1 for each), so w is along x₊ − x₋ "
               f"= {coords(d)}, scaled to w = 2(x₊ − x₋)/‖x₊ − x₋‖² and b = 1 − wᵀx₊: "
               f"{plane}; the margin 1/‖w‖ = {fmt_fixed(1 / nw, 4)}.")
        given, cite = _given_two(X, y), note("§3") + f"; {slide(9)}"
        how = ("Both points are support vectors, y·h = 1 at each (slide 7): w points along "
               "x₊ − x₋, scaled so that h(x₊) = 1 and h(x₋) = −1.")
    else:
        given, cite = (_given_alpha(m) if q in ("w1", "w2") else _given_plane(m)), slide(13)
        how = {"b": "On a support vector on its margin yᵢ(wᵀxᵢ + b) = 1, so bᵢ = yᵢ − wᵀxᵢ; "
                    "the book averages the bᵢ (slide 13).",
               "margin": "The book's margin is δ* = 1/‖w‖ (slide 7)."}.get(
            q, "w = Σ αᵢyᵢxᵢ over the support vectors (slide 13).")
        why = (f"w = Σ αᵢyᵢxᵢ over the support vectors, b = yᵢ − wᵀxᵢ on a support vector on "
               f"its margin (averaged, slide 13): {plane}; the margin 1/‖w‖ = "
               f"{fmt_fixed(1 / nw, 4)}.")
    k = {"w1": 0, "w2": 1}.get(q)
    if k is not None:
        ask = f"What is w{k + 1}?"
        mistakes = [(float(w[1 - k]), f"that is w{2 - k}, the other component"),
                    (float(-w[k]), "the sign is flipped: w points towards the +1 class")]
        if two:
            mistakes.append((float(d[k]), "that is x₊ − x₋ unscaled: the canonical "
                             "hyperplane has y·h(x) = 1 at the support vectors (slide 7)"))
        else:
            a = m.alpha * np.ones_like(m.y)
            mistakes.append((float(a @ m.X[:, k]), "that is Σ αᵢxᵢ: each term needs its yᵢ"))
        return dict(exact=float(w[k]), ask=ask, unit=f"w{k + 1}", given=given, why=why, how=how,
                    mistakes=mistakes, floor=0.01, slide=cite, X=X, y=y, settings=s)
    if q == "b":
        free = _free_margin(m)
        if not two:
            given = (f"{_given_plane_w(m)} The support vectors on the margin: "
                     f"{', '.join(point_text(m.X, m.y, i) for i in free)}.")
        mistakes = [(float(-b), "the sign is flipped: bᵢ = yᵢ − wᵀxᵢ")]
        if not two and m.C_box < math.inf:
            sv = np.flatnonzero(m.alpha > 0)
            avg = float(np.mean(m.y[sv] - m.X[sv] @ w))
            mistakes.append((avg, "that averages bᵢ over every αᵢ > 0, those inside the "
                             "margin too: bᵢ = yᵢ − wᵀxᵢ holds only where y·h = 1"))
        return dict(exact=float(b), ask="What is b?", unit="b", given=given, why=why, how=how,
                    mistakes=mistakes, floor=0.01, slide=cite, X=X, y=y, settings=s)
    # margin
    if not two:
        given = _given_plane_w(m)
    mistakes = [(2 / nw, "that is 2/‖w‖, the width between the bounding planes h(x) = ±1 "
                 "(the blog note's and the Proximal SVM slides' convention); the book's "
                 "margin δ* = 1/‖w‖ is half of it (slide 7)"),
                (nw, "that is ‖w‖; the margin is 1/‖w‖"),
                (1 / nw**2, "that is 1/‖w‖²; the margin is 1/‖w‖")]
    return dict(exact=1 / nw, ask="What is the margin δ* (the book's: the distance from "
                "h(x) = 0 to the closest point)?", unit="δ*", given=given, why=why, how=how,
                mistakes=mistakes, floor=0.01, slide=(cite if two else slide(7)), X=X, y=y,
                settings=s)


def _given_plane_w(m) -> str:
    return f"The solver's {_w_text(m.w)} ({fits.describe_model(m)})."


def _free_margin(m) -> list[int]:
    yh = m.y * m.h_train
    on = np.abs(yh - 1) <= fits.ON_MARGIN
    free = on & free_mask(m.alpha, m.C_box)
    return np.flatnonzero(free if free.any() else on).tolist()


def _xi(params, X, y, s, rng, seeded) -> dict:
    X, y, m = _points(params, X, y, s, rng, seeded)
    i = params.get("point")
    if i is None or seeded:
        pos = np.flatnonzero(m.xi > 0)
        book = 15 if params["dataset"] == "D2" and not seeded else None
        i = book if book is not None else int(pos[rng.integers(len(pos))]) if len(pos) else 0
    if isinstance(i, bool) or not isinstance(i, int) or not 0 <= i < len(X):
        raise ValueError(f"point must be a point's 0-based index, 0 to {len(X) - 1}; got {i!r}")
    h = float(m.h_train[i])
    xi = float(m.xi[i])
    why = (f"ξ{i + 1} = max(0, 1 − y{i + 1}·h(x{i + 1})) = max(0, 1 − ({label(y[i])})·"
           f"({fmt_fixed(h, 4)})) = {fmt_fixed(xi, 4)}"
           + (": above 1, the point is on the wrong side (slide 17)." if xi > 1 else
              ": inside the margin, correctly classified." if xi > 0 else
              ": on or beyond its margin."))
    yh = y[i] * h
    mistakes = [(1 + yh, "the sign is flipped: ξ = 1 − y·h(x)"),
                (yh, "that is y·h(x) itself; ξ = 1 − y·h(x)"),
                (1 - yh, "ξ is never negative: ξ = max(0, 1 − y·h(x))")]
    if y[i] < 0:
        mistakes.append((1 - h, f"the label is missing: x{i + 1} has y = −1, ξ = 1 − y·h(x)"))
    return dict(exact=xi, ask=f"What is the slack ξ{i + 1} of {point_text(X, y, i)}?",
                unit=f"ξ{i + 1}", given=_given_plane(m), why=why, mistakes=mistakes,
                how="ξᵢ = max(0, 1 − yᵢh(xᵢ)) with h(x) = wᵀx + b (slide 23).",
                floor=0.01, slide=slide(23), X=X, y=y, settings=s)


def _h(params, X, y, s, rng, seeded) -> dict:
    X, y, m = _points(params, X, y, s, rng, seeded)
    z = params.get("z", [3.0, 2.0])
    if seeded:
        z = (rng.integers(0, 13, 2) / 2).tolist()
    try:
        z = np.asarray(z, dtype=float).reshape(2)
    except (TypeError, ValueError):
        raise ValueError(f"z must be a point [z1, z2], got {params.get('z')!r}") from None
    if not np.isfinite(z).all() or np.abs(z).max() > fits.COORD_MAX:
        raise ValueError(f"z must be finite coordinates within ±{fmt_setting(fits.COORD_MAX)}")
    w, b = m.w, m.b
    h = float(m.decision_function(z[None])[0])
    cls = "+1" if h > 0 else "−1"
    why = (f"h(z) = wᵀz + b = {fmt_fixed(w[0], 4)}·{fmt_num(z[0])} + {fmt_fixed(w[1], 4)}·"
           f"{fmt_num(z[1])} + ({fmt_fixed(b, 4)}) = {fmt_fixed(h, 4)}: z is predicted "
           f"{cls} (slide 14).")
    mistakes = [(h - b, "b is missing: h(z) = wᵀz + b"),
                (h - 2 * b, "the sign of b is flipped: h(z) = wᵀz + b"),
                (float(w[1] * z[0] + w[0] * z[1] + b), "w₁ and w₂ are swapped")]
    return dict(exact=h, ask=f"What is h(z) for z = {coords(z)}?", unit="h(z)",
                given=_given_plane(m), why=why, mistakes=mistakes, floor=0.01,
                how="h(z) = wᵀz + b (slide 14).", slide=slide(14), X=X, y=y, settings=s)


_BUILD = {"w1": _hyperplane, "w2": _hyperplane, "b": _hyperplane, "margin": _hyperplane,
          "xi": _xi, "h": _h, "eta": steps.smo_step, "alpha2": steps.smo_step,
          "sga": steps.sga_step, "kernel": steps.kernel_value}

