"""The Losses & perceptron page's numbers and words (pure; no streamlit).

- the perceptron run (``svm_engine.perceptron``) with the page's visit cap, and the words
  for one of its updates;
- the linear maximum-margin SVM it is compared with: the hard margin when the points are
  separable, else the soft margin at the source's C (the perceptron does not converge then);
- the loss table: Σ L(mᵢ) over the points for each loss of ``svm_engine.losses``;
- why the two lines differ, with this run's numbers.

Symbols as Ribeiro's CS573 lecture and the book: h(x) = wᵀx + b, m = y·h(x), η, ξ.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

import numpy as np

from svm_engine import losses as L
from svm_engine import perceptron as P
from ui.shared.cite import cite
from ui.shared.labels import kernel_formula
from ui.shared.tables import fmt_num, hyperplane_equation

#: n × epochs visits the page allows: plain Python at ~1 µs a visit, ~0.2 s, well inside the
#: fit budget on a loaded server (svm_engine/perceptron.py)
MAX_VISITS = 200_000
EPOCH_CHOICES = (10, 50, 100, 500, 1000)
ETA_CHOICES = (0.1, 0.5, 1.0)


def epoch_cap(n: int, wanted: int) -> int:
    """The epochs the page runs: the student's cap, lowered so that n × epochs ≤ MAX_VISITS."""
    return max(1, min(int(wanted), MAX_VISITS // max(1, int(n))))


def run_perceptron(X, y, eta: float, max_epochs: int, bias: str, shuffle: bool,
                   seed: int) -> P.PerceptronResult:
    """The perceptron on the page's points, within the visit cap (runs in a budget worker)."""
    return P.perceptron(X, y, eta=eta, max_epochs=epoch_cap(len(X), max_epochs), bias=bias,
                        shuffle=shuffle, seed=seed)


def svm_settings(settings: Mapping[str, Any], hard: bool) -> dict:
    """The Playground-style settings of the linear SVM the perceptron is compared with:
    linear kernel, hinge loss, free bias (as the perceptron's), SMO; the hard margin or the
    source's C."""
    return {**dict(settings), "kernel": "linear", "loss": "hinge", "bias": "free",
            "solver": "smo", "hard_margin": bool(hard)}


def svm_failed_words(error: str, playground: bool) -> str:
    """Why no point is marked on the curves when the SVM gave no model, and what to change."""
    error = error.rstrip() if error.rstrip().endswith(".") else error.rstrip() + "."
    if playground:
        return (f"No SVM with the Playground's settings: {error} Change them on the "
                "Playground, or mark the perceptron's margins instead (above). The curves and "
                "the perceptron below do not need this SVM.")
    return (f"No SVM with the suggested settings of these points: {error} Mark the "
            "perceptron's margins instead (above), or open the points on the Playground to "
            "change the settings.")


def svm_words(model) -> str:
    """A caption naming the SVM whose h gives the margins: kernel, loss, C, bias, solver."""
    C = "∞ (hard margin)" if math.isinf(model.C) else fmt_num(model.C)
    state = "converged" if model.converged else "not converged"
    return (f"h: the SVM with the source's settings — {kernel_formula(model.kernel)}; {model.loss} "
            f"loss, C = {C}, {model.bias} bias, {model.solver} ({state}).")


def geometric_margin(w, b: float, X, y) -> float:
    """minᵢ yᵢ(wᵀxᵢ + b)/‖w‖: the distance from the line to the closest point (negative when
    a point is on the wrong side); nan for w = 0 (no line)."""
    w = np.asarray(w, dtype=float)
    norm = float(np.linalg.norm(w))
    if norm == 0:
        return math.nan
    return float((np.asarray(y) * (np.asarray(X) @ w + b)).min() / norm)


def closest_distance(w, b: float, X) -> float:
    """minᵢ |wᵀxᵢ + b|/‖w‖: how far the closest point is from the line, on either side
    (nan for w = 0)."""
    w = np.asarray(w, dtype=float)
    norm = float(np.linalg.norm(w))
    if norm == 0:
        return math.nan
    return float(np.abs(np.asarray(X) @ w + b).min() / norm)


#: why the table has three distances: slide 6's δ* is a margin only for a separating line
DISTANCE_NOTE = (
    f"The margin δ* = minᵢ yᵢh(xᵢ)/‖w‖ ({cite('chapter', 6)}) is the distance to the "
    "closest point only when the line separates the points (every yᵢh(xᵢ) > 0). When it does "
    "not, that minimum is the signed distance of the worst misclassified point (negative), "
    "and the closest point is another one: the table shows both.")


def distance_row(name: str, eq: str, w, b: float, X, y) -> str:
    """One row of the distance table: the line, whether it separates, δ* (only then), the
    closest point's |h(x)|/‖w‖ and the worst signed yᵢh(xᵢ)/‖w‖ (markdown)."""
    worst = geometric_margin(w, b, X, y)
    if math.isnan(worst):
        return f"| {name} | {eq} | no line | – | – | – |"
    X = np.asarray(X, dtype=float)
    h = X @ np.asarray(w, dtype=float) + b
    i_close = int(np.argmin(np.abs(h)))
    i_worst = int(np.argmin(np.asarray(y) * h))
    close = f"{fmt_num(closest_distance(w, b, X))} (x{i_close + 1})"
    signed = f"{fmt_num(worst)} (x{i_worst + 1})"
    if worst > 0:
        return f"| {name} | {eq} | yes | {fmt_num(worst)} | {close} | {signed} |"
    return f"| {name} | {eq} | no: no margin | – | {close} | {signed} |"


def loss_rows(m) -> list[dict]:
    """One row per loss: its formula, Σᵢ L(mᵢ) and the mean (for a table); |Σ| < ROUNDING
    is shown as ≈ 0."""
    m = np.asarray(m, dtype=float)
    rows = []
    for loss in L.LOSSES:
        v = loss(m)
        rows.append({"loss": loss.label, "L(m)": loss.formula, "Σ over the points":
                     _total(v.sum()), "mean": _total(v.mean()) if len(v) else "–",
                     "≥ 0-1 loss everywhere": "yes" if loss.bounds_zero_one else "no"})
    return rows


#: sums below this are rounding (the hinge of a hard margin: points at m = 1 − 1e-16)
ROUNDING = 1e-9


def _total(v: float) -> str:
    return "≈ 0" if 0 < abs(v) < ROUNDING else fmt_num(v)


def loss_words(m) -> str:
    """The loss chart in words (its description): where the points' margins lie and each
    loss summed over them, as the table below the chart prints the sums (``loss_rows``)."""
    m = np.asarray(m, dtype=float)
    sums = "; ".join(f"{r['loss']} {r['Σ over the points']}" for r in loss_rows(m))
    return (f"The loss functions L(m) against the margin m = y·h(x), each point's (m, L(m)) "
            f"marked on every curve. Of {len(m)} points, {int(np.sum(m >= 1))} have m ≥ 1 "
            f"(on or beyond their margin), {int(np.sum((m > 0) & (m < 1)))} have 0 < m < 1 "
            f"(inside it) and {int(np.sum(m <= 0))} have m ≤ 0 (on the wrong side or on the "
            f"line). Summed over the points: {sums}.")


def outside(m, lo: float, hi: float) -> int:
    """How many margins fall outside the plotted range [lo, hi]."""
    m = np.asarray(m, dtype=float)
    return int(((m < lo) | (m > hi)).sum())


def _vec(v) -> str:
    return "(" + ", ".join(fmt_num(x) for x in v) + ")"


def update_words(r: P.PerceptronResult, k: int) -> str:
    """Markdown for update k (1-based) of the trace; k = 0: the start."""
    if k == 0:
        return ("**Start:** w = (0, 0), b = 0: there is no line yet, so the first point "
                "visited is a mistake (y·f(x) = 0 ≤ 0).")
    t = r.trace[k - 1]
    i, yi, eta = t["i"] + 1, t["y"], r.eta
    sign = "+" if yi > 0 else "−"
    b_part = (f", b ← b + η·y = {fmt_num(t['b_before'])} {sign} {fmt_num(eta)} = "
              f"{fmt_num(t['b_after'])}") if r.bias == "free" else " (b stays 0: no bias)"
    return (f"**Update {k}** (epoch {t['epoch']}, mistake {t['mistakes']} of that epoch): "
            f"x{_sub(i)} = {_vec(t['x'])} with y = {sign}1 has y·f(x) = "
            f"{fmt_num(yi * t['f'])} ≤ 0, a mistake. So w ← w + η·y·x = "
            f"{_vec(t['w_before'])} {sign} {fmt_num(eta)}·{_vec(t['x'])} = "
            f"{_vec(t['w_after'])}{b_part}.")


_SUB = str.maketrans("0123456789", "₀₁₂₃₄₅₆₇₈₉")


def _sub(i: int) -> str:
    return str(i).translate(_SUB)


def run_words(r: P.PerceptronResult, wanted_epochs: int) -> str:
    """The run's outcome in a sentence, saying when the page lowered the epoch cap."""
    text = (r.status[0].upper() + r.status[1:] + ".").replace("raise max_epochs",
                                                              "raise the epoch cap")
    if r.max_epochs < wanted_epochs:
        text += (f" (The cap is {r.max_epochs} epochs here, not {wanted_epochs}: "
                 f"{len(r.y):,} points × epochs stay within {MAX_VISITS:,} visits.)")
    if r.trace_truncated:
        text += f" The first {P.TRACE_CAP:,} updates are kept for stepping."
    return text


@dataclass(frozen=True)
class Lines:
    """The perceptron's line and the maximum-margin one, for `why_words`."""

    perceptron: P.PerceptronResult
    svm: Any = None          # the linear SVM model, or None
    hard: bool = False       # svm is the hard margin
    #: the points are linearly separable: True (the hard margin exists, or the perceptron
    #: converged), False (the hard-margin check said not), None (not known: over the budget)
    separable: bool | None = None


def novikoff_words(r: P.PerceptronResult, svm) -> str | None:
    """Novikoff's bound with the hard-margin SVM's line as the separator (None without one,
    or with bias="none": the bound is then about lines through the origin)."""
    if svm is None or svm.w is None or r.bias != "free":
        return None
    R, gamma, bound = P.novikoff_bound(r.X, r.y, svm.w, svm.b)
    if not math.isfinite(bound):
        return None
    return (f"Perceptron convergence theorem (Novikoff 1962): from w = 0, at most (R/γ)² = "
            f"({fmt_num(R)}/{fmt_num(gamma)})² = {fmt_num(bound)} updates, where "
            f"R = max‖(xᵢ, 1)‖ and γ = minᵢ yᵢ(wᵀxᵢ + b)/‖(w, b)‖ for any separating line — "
            f"here the SVM's. This run made {r.n_updates}.")


def why_words(lines: Lines) -> str:
    """Why the perceptron's line is not the SVM's, with this run's numbers (markdown)."""
    r, svm = lines.perceptron, lines.svm
    parts = [
        "The perceptron's loss max(0, −m) is zero for **every** point on its correct side, "
        "however close to the line: it stops at the first line that separates the points. "
        "Which line that is depends on the visiting order (the seed), the start and η — "
        "change the seed and it stops somewhere else."
    ]
    if svm is not None and svm.w is not None:
        if lines.hard:
            parts.append(
                "The SVM asks for more: yᵢh(xᵢ) ≥ 1 at the smallest ‖w‖, i.e. the line "
                "farthest from the closest points (the hinge loss max(0, 1 − m) is still "
                "positive inside the margin). That line is unique.")
        elif lines.separable is False:
            parts.append(
                "These points are not linearly separable, so the perceptron never has an "
                "epoch without mistakes: it cycles, and its line is wherever the cap stopped "
                "it. The soft-margin SVM still has one optimum: ½‖w‖² + C·Σξᵢ.")
        else:
            parts.append(
                "The SVM drawn is the soft margin (the hard margin was not computed here): "
                "it minimises ½‖w‖² + C·Σξᵢ, with one optimum, wherever the perceptron stops.")
        eq_p = hyperplane_equation(r.w, r.b) if np.any(r.w) else "none (w = 0)"
        parts.append(
            "| | line | separates the points? | margin δ* | closest point: \\|h(x)\\|/‖w‖ "
            "| worst point: min yᵢh(xᵢ)/‖w‖ |\n|---|---|---|---|---|---|\n"
            + distance_row("perceptron", eq_p, r.w, r.b, r.X, r.y) + "\n"
            + distance_row("SVM", hyperplane_equation(svm.w, svm.b), svm.w, svm.b, r.X, r.y))
        parts.append(DISTANCE_NOTE)
    return "\n\n".join(parts)
