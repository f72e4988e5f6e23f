"""The chapter's theory written out with the numbers of a fitted model (pure: model → text).

Each function takes the model a page already computed (``svm_engine.SVMModel``) and returns a
``Section``: a title and lines of markdown in the slides' notation (Zaki & Meira ch. 21), every
number printed by ``ui.shared.numbers``. Nothing here fits again nor re-derives a threshold:
the support-vector sets are the engine's (``model.free_support``, ``model.bound_support``,
finalize's residue rule), ``h(xᵢ)`` is ``model.h_train`` and ‖w‖ is ``model.w_norm``.

- ``distance``: r = h(x)/‖w‖, δ = y·h(x)/‖w‖, the canonical hyperplane, the margin (slides 5–7);
- ``dual``: the Lagrangian, ∂L/∂w = 0, ∂L/∂b = 0 and the dual it gives, for the model's loss
  and bias (slides 10–11, 19–20, 30);
- ``kkt``: the KKT conditions per case with the points in each (slides 12, 20);
- ``bias``: the slides' average of bᵢ beside the solver's b (slides 13, 28);
- ``kernel``: h(z) = Σ αᵢyᵢK(xᵢ, z) + b with its terms (slide 28).
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from svm_engine.certify import TOL
from ui.shared.labels import kernel_formula
from ui.shared.numbers import fmt_num, fmt_setting

#: how many points a case lists by name before "and n more"
MAX_NAMES = 12


@dataclass(frozen=True)
class Section:
    key: str
    title: str
    lines: tuple[str, ...]

    @property
    def text(self) -> str:
        return "\n\n".join(self.lines)


def names(idx, limit: int = MAX_NAMES) -> str:
    """"x2, x14" (1-based, as the slides), "none" when empty, "… and 9 more" past ``limit``."""
    idx = [int(i) for i in idx]
    if not idx:
        return "none"
    shown = ", ".join(f"x{i + 1}" for i in idx[:limit])
    return shown + (f" … and {len(idx) - limit} more" if len(idx) > limit else "")


def _yh(model) -> np.ndarray:
    return np.asarray(model.y, dtype=float) * np.asarray(model.h_train, dtype=float)


def directed_distances(model) -> tuple[np.ndarray, np.ndarray]:
    """(r, δ): r = h(xᵢ)/‖w‖ and δ = yᵢh(xᵢ)/‖w‖ for every training point (‖w‖ in feature
    space, bias excluded, as the engine's margin 1/‖w‖)."""
    norm = float(model.w_norm)
    h = np.asarray(model.h_train, dtype=float)
    if not norm > 0:
        return np.full(len(h), math.nan), np.full(len(h), math.nan)
    return h / norm, _yh(model) / norm


def is_hard(model) -> bool:
    return not math.isfinite(float(model.C))


def distance(model) -> Section:
    """Slides 5–7: directed distance, the canonical hyperplane, the margin as the minimum."""
    r, delta = directed_distances(model)
    yh = _yh(model)
    norm, k = float(model.w_norm), int(np.argmin(delta))
    i = int(np.flatnonzero(np.asarray(model.y) > 0)[0]) if np.any(model.y > 0) else 0
    lines = [
        "A point's **directed distance** to the hyperplane h(x) = 0 is r = h(x)/‖w‖: its "
        "sign says on which side it lies. Times its label, δ = y·h(x)/‖w‖ is positive exactly "
        "when the point is on its own class's side (the table's column δ).",
        f"Here ‖w‖ = {fmt_num(norm)}. For example x{i + 1}: h(x{i + 1}) = "
        f"{fmt_num(model.h_train[i])}, so r = {fmt_num(model.h_train[i])} / {fmt_num(norm)} = "
        f"{fmt_num(r[i])} and δ = {fmt_num(delta[i])}.",
        "**Canonical hyperplane.** Multiplying w and b by any s > 0 changes h (s·h(x)) but not "
        "the line s·h(x) = 0, nor any distance r = s·h(x)/(s·‖w‖). The canonical choice of s "
        "makes y·h(x) = 1 at the support vectors, so the closest points sit on h(x) = ±1.",
    ]
    margin = fmt_num(model.margin)
    if is_hard(model):
        lines.append(
            f"**Margin = the smallest distance.** Here min y·h(x) = {fmt_num(yh[k])} (at "
            f"x{k + 1}), so the smallest δ is {fmt_num(delta[k])} = 1/‖w‖: the margin δ* of "
            "the slides, the app's \"margin 1/‖w‖\". (The distance between the planes "
            "h(x) = ±1 is twice "
            f"that, 2/‖w‖ = {fmt_num(2 * model.margin)}.)")
    else:
        on = np.asarray(model.free_support, dtype=int)
        lines.append(
            f"**Margin.** With slack (C = {fmt_setting(model.C)}) the margin 1/‖w‖ = {margin} is "
            "the distance from h(x) = 0 to the planes h(x) = ±1, where the free support "
            f"vectors sit ({names(on)}); points with ξ > 0 come closer: the smallest δ here is "
            f"{fmt_num(delta[k])} (x{k + 1}, y·h = {fmt_num(yh[k])}). "
            f"Both planes are 2/‖w‖ = {fmt_num(2 * model.margin)} apart.")
    return Section("distance", "Distance, canonical hyperplane and margin", tuple(lines))


def dual(model) -> Section:
    """The Lagrangian, its stationarity conditions and the dual, for the model's setting."""
    hard, quad = is_hard(model), model.loss == "quadratic"
    aug = model.bias == "augmented"
    C = fmt_setting(model.C)
    a, y = np.asarray(model.alpha, dtype=float), np.asarray(model.y, dtype=float)
    if hard:
        primal = "min ½‖w‖² subject to yᵢ(wᵀxᵢ + b) ≥ 1 for every i"
        lag = "L = ½‖w‖² − Σᵢ αᵢ(yᵢ(wᵀxᵢ + b) − 1), αᵢ ≥ 0"
    elif quad:
        primal = "min ½‖w‖² + C Σᵢ ξᵢ² subject to yᵢ(wᵀxᵢ + b) ≥ 1 − ξᵢ (k = 2)"
        lag = "L = ½‖w‖² + C Σᵢ ξᵢ² − Σᵢ αᵢ(yᵢ(wᵀxᵢ + b) − 1 + ξᵢ), αᵢ ≥ 0"
    else:
        primal = "min ½‖w‖² + C Σᵢ ξᵢ subject to yᵢ(wᵀxᵢ + b) ≥ 1 − ξᵢ, ξᵢ ≥ 0 (k = 1)"
        lag = ("L = ½‖w‖² + C Σᵢ ξᵢ − Σᵢ αᵢ(yᵢ(wᵀxᵢ + b) − 1 + ξᵢ) − Σᵢ βᵢξᵢ, "
               "αᵢ ≥ 0, βᵢ ≥ 0")
    if aug:  # slide 30: x′ = (x, 1), w′ = (w, b), so b² joins the regulariser
        primal = primal.replace("½‖w‖²", "½‖w′‖² = ½(‖w‖² + b²)", 1)
        primal, lag = (t.replace("wᵀxᵢ + b", "w′ᵀx′ᵢ") for t in (primal, lag))
        lag = lag.replace("½‖w‖²", "½‖w′‖²", 1)
    lines = [f"**Primal:** {primal}.", f"**Lagrangian:** {lag}."]
    w_text = "∂L/∂w = w − Σᵢ αᵢyᵢxᵢ = 0, so w = Σᵢ αᵢyᵢxᵢ"
    if model.w is not None:
        w_text += f" = ({', '.join(fmt_num(v) for v in model.w)}) here"
    lines.append(w_text + ("." if model.w is not None else
                           " (in feature space: φ(xᵢ) in place of xᵢ, never formed)."))
    if aug:
        lines.append(
            "**No ∂L/∂b here:** the bias is folded into w (x′ = (x, 1), slide 30), so b is a "
            "weight like the others, there is no Σαᵢyᵢ = 0 constraint, the kernel becomes "
            f"K(xᵢ, xⱼ) + 1 and b = Σαᵢyᵢ = {fmt_num(float(a @ y))}.")
    else:
        lines.append(
            "∂L/∂b = −Σᵢ αᵢyᵢ = 0: the constraint Σαᵢyᵢ = 0 of the dual (here Σαᵢyᵢ = "
            f"{fmt_num(float(a @ y))}).")
    kern = "K(xᵢ, xⱼ)" + (" + 1" if aug else "")
    if quad and not hard:
        lines.append(
            "∂L/∂ξᵢ = 2Cξᵢ − αᵢ = 0, so ξᵢ = αᵢ/(2C). Substituted back, C Σξᵢ² − Σαᵢξᵢ = "
            "−Σαᵢ²/(4C): the dual has the kernel **K + δᵢⱼ/(2C)** (δᵢⱼ = 1 when i = j, else 0; "
            f"here 1/(2C) = {fmt_num(1 / (2 * model.C))}) and **αᵢ ≥ 0 with no upper bound** "
            "(slide 20).")
        kern += " + δᵢⱼ/(2C)"
        bounds = "αᵢ ≥ 0"
    elif hard:
        bounds = "αᵢ ≥ 0"
    else:
        lines.append(
            "∂L/∂ξᵢ = C − αᵢ − βᵢ = 0 with βᵢ ≥ 0, so αᵢ ≤ C: the box **0 ≤ αᵢ ≤ C** "
            f"(C = {C}; the largest α here is {fmt_num(float(a.max()) if len(a) else 0.0)}).")
        bounds = f"0 ≤ αᵢ ≤ C = {C}"
    cons = bounds if aug else bounds + ", Σᵢ αᵢyᵢ = 0"
    lines.append(
        "Putting w back into L leaves a function of α alone, the **dual**: "
        f"max Σᵢ αᵢ − ½ Σᵢ Σⱼ αᵢαⱼyᵢyⱼ{kern if kern == 'K(xᵢ, xⱼ)' else '(' + kern + ')'} "
        f"subject to {cons}. "
        f"At this fit: dual objective {fmt_num(model.dual_objective, 6)}, primal objective "
        f"{fmt_num(model.primal_objective, 6)}: at the optimum they are equal (strong "
        f"duality); the gap primal − dual = {fmt_num(model.duality_gap, 2)} is how far this "
        "fit stopped from it.")
    return Section("dual", "Lagrangian and dual", tuple(lines))


def kkt_cases(model) -> dict[str, np.ndarray]:
    """The points of each KKT case, by the engine's own sets: "zero" α = 0, "free" the free
    support vectors (0 < α < C), "bound" α = C (k = 1 only)."""
    a = np.asarray(model.alpha, dtype=float)
    return {"zero": np.flatnonzero(a == 0), "free": np.asarray(model.free_support, dtype=int),
            "bound": np.asarray(model.bound_support, dtype=int)}


def on_margin_at_zero(model) -> np.ndarray:
    """The points with α = 0 on the margin, |yᵢh(xᵢ) − 1| ≤ the certificate's TOL (the rule
    finalize's categories use for ξ)."""
    a = np.asarray(model.alpha, dtype=float)
    return np.flatnonzero((a == 0) & (np.abs(_yh(model) - 1.0) <= TOL))


def _range(values) -> str:
    v = np.asarray(values, dtype=float)
    if not len(v):
        return ""
    lo, hi = float(v.min()), float(v.max())
    return f" (y·h = {fmt_num(lo)})" if fmt_num(lo) == fmt_num(hi) else \
        f" (y·h from {fmt_num(lo)} to {fmt_num(hi)})"


def kkt(model) -> Section:
    """Slides 12 and 20: complementary slackness, case by case, with this fit's points."""
    cases, yh = kkt_cases(model), _yh(model)
    quad = model.loss == "quadratic" and not is_hard(model)
    if is_hard(model):
        head = ("At the optimum αᵢ(yᵢh(xᵢ) − 1) = 0 for every i (complementary slackness), "
                "with yᵢh(xᵢ) ≥ 1 and αᵢ ≥ 0. So each point is in one of two cases:")
        rows = [("αᵢ = 0 ⇒ yᵢh(xᵢ) ≥ 1", cases["zero"]),
                ("αᵢ > 0 ⇒ yᵢh(xᵢ) = 1 (a support vector, on the margin)", cases["free"])]
    elif quad:
        head = ("With k = 2: αᵢ(yᵢh(xᵢ) − 1 + ξᵢ) = 0 and ξᵢ = αᵢ/(2C), with no upper bound "
                "on α:")
        rows = [("αᵢ = 0 ⇒ yᵢh(xᵢ) ≥ 1", cases["zero"]),
                ("αᵢ > 0 ⇒ yᵢh(xᵢ) = 1 − αᵢ/(2C) (inside the margin by ξᵢ = αᵢ/(2C))",
                 cases["free"])]
    else:
        head = ("With k = 1: αᵢ(yᵢh(xᵢ) − 1 + ξᵢ) = 0 and βᵢξᵢ = (C − αᵢ)ξᵢ = 0. So:")
        rows = [("αᵢ = 0 ⇒ ξᵢ = 0 and yᵢh(xᵢ) ≥ 1", cases["zero"]),
                ("0 < αᵢ < C ⇒ ξᵢ = 0 and yᵢh(xᵢ) = 1 (free support vectors, on the margin)",
                 cases["free"]),
                ("αᵢ = C ⇒ yᵢh(xᵢ) = 1 − ξᵢ ≤ 1 (bound support vectors)", cases["bound"])]
    lines = [head] + [f"- **{rule}:** {names(idx)}{_range(yh[idx])}" for rule, idx in rows]
    idle = on_margin_at_zero(model)
    if len(idle):
        lines.append(
            f"Of the αᵢ = 0 points, {names(idle)} lie on the margin too (yᵢh(xᵢ) = 1 within the "
            f"engine's tolerance {fmt_num(TOL)}): support vectors in the sense of slide 6, with "
            "α = 0 in this solution because α is not unique here (another optimal α uses them).")
    if quad:
        idx = cases["free"]
        if len(idx):
            gap = np.abs(yh[idx] - (1 - np.asarray(model.alpha)[idx] / (2 * model.C)))
            lines.append(f"Check: the largest |yᵢh(xᵢ) − (1 − αᵢ/(2C))| over them is "
                         f"{fmt_num(float(gap.max()), 2)}.")
    lines.append("The equalities hold to the solver's accuracy, not exactly.")
    return Section("kkt", "KKT conditions, point by point", tuple(lines))


def slide_bias(model) -> tuple[float, np.ndarray, np.ndarray]:
    """(avg bᵢ, bᵢ, the points used): bᵢ = yᵢ − Σⱼ αⱼyⱼK(xⱼ, xᵢ) over the engine's free
    support vectors (slides 13 and 28; for k = 2 bᵢ = yᵢ(1 − αᵢ/(2C)) − Σⱼ αⱼyⱼK(xⱼ, xᵢ),
    since there yᵢh(xᵢ) = 1 − αᵢ/(2C)). NaN when no support vector is free."""
    idx = np.asarray(model.free_support, dtype=int)
    y = np.asarray(model.y, dtype=float)
    g = np.asarray(model.h_train, dtype=float) - float(model.b)   # Σⱼ αⱼyⱼK(xⱼ, xᵢ)
    target = y.copy()
    if model.loss == "quadratic" and not is_hard(model):
        target = y * (1 - np.asarray(model.alpha, dtype=float) / (2 * model.C))
    bi = target[idx] - g[idx]
    return (float(bi.mean()) if len(bi) else math.nan), bi, idx


def bias(model) -> Section:
    """The slides' b beside the solver's, and why they agree."""
    if model.bias == "augmented":
        a, y = np.asarray(model.alpha, dtype=float), np.asarray(model.y, dtype=float)
        return Section("bias", "Computing b", (
            "With the augmented bias b is the last weight of w′ = Σᵢ αᵢyᵢx′ᵢ, whose last "
            "coordinate is 1: b = Σᵢ αᵢyᵢ = "
            f"{fmt_num(float(a @ y))}: no average is needed. The solver's b is the same "
            f"number, {fmt_num(model.b)}.",))
    avg, bi, idx = slide_bias(model)
    lin = model.w is not None
    quad = model.loss == "quadratic" and not is_hard(model)
    term = "wᵀxᵢ" if lin else "Σⱼ αⱼyⱼK(xⱼ, xᵢ)"
    target = "yᵢ(1 − αᵢ/(2C))" if quad else "yᵢ"
    lines = [f"Every free support vector has yᵢh(xᵢ) = {'1 − αᵢ/(2C)' if quad else '1'}, so "
             f"each gives one value **bᵢ = {target} − {term}**; the slides take their average."]
    if len(idx):
        shown = ", ".join(f"b{i + 1} = {fmt_num(v)}" for i, v in zip(idx[:MAX_NAMES], bi,
                                                                      strict=False))
        more = f" … and {len(idx) - MAX_NAMES} more" if len(idx) > MAX_NAMES else ""
        lines.append(f"Here: {shown}{more}. Average: **b = {fmt_num(avg)}**.")
        lines.append(
            f"The solver's b: **{fmt_num(model.b)}** (the engine averages the same bᵢ; with no "
            "free support vector it would take the midpoint of the interval the KKT conditions "
            f"allow, as LIBSVM does). They differ by {fmt_num(abs(avg - model.b), 2)}: at the "
            "optimum every bᵢ is the same number, so any of them, their average or the "
            "midpoint give one b; the bᵢ spread only by the solver's remaining error.")
    else:
        lines.append(
            "No support vector is free here (every α is 0 or C), so there is no bᵢ to "
            "average: the solver takes the midpoint of the interval of b the KKT conditions "
            f"allow (as LIBSVM does): b = {fmt_num(model.b)}.")
    return Section("bias", "Computing b", tuple(lines))


def kernel(model, limit: int = 6) -> Section:
    """Slide 28: the decision function through the kernel, its terms, and b through K."""
    sv = np.asarray(model.support, dtype=int)
    a, y = np.asarray(model.alpha, dtype=float), np.asarray(model.y, dtype=float)
    coef = a[sv] * y[sv]
    terms = " + ".join(f"({fmt_num(c)})·K(x{i + 1}, z)" for i, c in zip(sv[:limit], coef,
                                                                     strict=False))
    more = f" + … ({len(sv) - limit} more)" if len(sv) > limit else ""
    b_text = fmt_num(model.b)
    lines = [
        f"Kernel: {kernel_formula(model.kernel)}. With a kernel w = Σᵢ αᵢyᵢφ(xᵢ) lives in the "
        "feature space and is never formed; only dot products φ(xᵢ)ᵀφ(z) = K(xᵢ, z) are needed:",
        "**h(z) = Σᵢ αᵢyᵢK(xᵢ, z) + b**, summed over the support vectors only (αᵢ = 0 "
        f"elsewhere): here {len(sv)} of them,",
        f"h(z) = {terms}{more} + ({b_text}).",
    ]
    if len(model.y):
        j = int(sv[0]) if len(sv) else 0
        g = float(model.h_train[j]) - float(model.b)
        lines.append(f"For example at z = x{j + 1}: the sum is {fmt_num(g)}, plus b gives "
                     f"h(x{j + 1}) = {fmt_num(model.h_train[j])}.")
    if model.bias != "augmented":
        avg, _bi, idx = slide_bias(model)
        got = (f"averaged over the free support vectors ({names(idx)}): {fmt_num(avg)}; the "
               f"solver's b is {b_text}" if len(idx) else
               f"no support vector is free here, so the solver's b = {b_text} is the midpoint "
               "the KKT conditions allow")
        lines.append(
            "**b through the kernel:** wᵀφ(xᵢ) = Σⱼ αⱼyⱼK(xⱼ, xᵢ), so bᵢ = yᵢ − Σⱼ αⱼyⱼK(xⱼ, xᵢ) "
            f"needs no φ either; {got}.")
    return Section("kernel", "The decision function through the kernel", tuple(lines))


def playground_sections(model) -> list[Section]:
    """What the Playground's "Why?" panel explains (PSVM solves another problem: none)."""
    if model.solver == "psvm":
        return []
    out = [distance(model), kkt(model), bias(model)]
    if model.w is None:
        out.append(kernel(model))
    return out


def example_sections(model) -> list[Section]:
    """What a worked example's "Why?" panel explains."""
    if model.solver == "psvm":
        return []
    return [dual(model), kkt(model), bias(model)]
