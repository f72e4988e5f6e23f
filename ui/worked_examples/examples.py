"""The worked examples: the book's numbers as data, and one pure function per example that
computes the app's values from the engine at run time (no streamlit here).

Only the "book value" column is typed in: the numbers as printed, each citing its slide of
Zaki & Meira ch. 21 or another source (docs/sources.md). Every "app value" comes from
`svm_engine.fit` when the page runs, and every "match" from `matches_printed`, the one rule:

* a number printed with k decimals matches a value within 1.5 units of its last digit,
  1.5·10⁻ᵏ (the book's numbers carry the rounding of its own 4-decimal α, so half a unit
  would be too tight — the same rule as `printed()` in tests/test_engine_book.py);
* a number a seed states exactly (a hand-solved w, the entries of a matrix) must agree to
  1e-6 relative (what is left is solver round-off).

Claims the slides make only in a figure ("no line separates these points") become rows
whose match is a computed test of the claim, stated in the row.
"""

from __future__ import annotations

import math
import warnings
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np

import svm_engine as se
from svm_engine import datasets
from svm_engine.solvers.psvm import proximal_system
from svm_engine.solvers.qp import primal_qp_matrices
from ui.shared import fit_words
from ui.shared.book_setups import SETUPS, Setup
from ui.shared.cite import cite
from ui.shared.fitting import PAGE_TIME_BUDGET
from ui.shared.labels import SOLVER_NAMES, kernel_formula
from ui.shared.numbers import (
    MINUS,
    fmt_num,
    fmt_pct,
    fmt_setting,
    fmt_tex_decimals,
    hyperplane_equation,
)
from ui.shared.numbers import fmt_fixed as fixed  # a short name: it is used fifty times

TICK, CROSS = "✓", "✗"
EXACT_RTOL = 1e-6
ON_MARGIN_TOL = 1e-6  # |yᵢh(xᵢ) − 1| below this: the point lies on its margin

# ------------------------------------------------------------------------- the match rule


@dataclass(frozen=True)
class Printed:
    """A number as the book prints it ("0.833", "-3.332"), with where it is printed."""

    text: str
    source: str
    exact: bool = False

    @property
    def value(self) -> float:
        return float(self.text)


def printed_decimals(text: str) -> int:
    return len(text.split(".")[1]) if "." in text else 0


def tolerance(book: Printed) -> float:
    """How far a value may lie from a printed number and still match it."""
    if book.exact:
        return EXACT_RTOL * max(1.0, abs(book.value))
    return 1.5 * 10.0 ** -printed_decimals(book.text)


def matches_printed(value: float, book: Printed) -> bool:
    """The match rule (module docstring). Non-finite values never match."""
    value = float(value)
    if not math.isfinite(value):
        return False
    return abs(value - book.value) <= tolerance(book) * (1 + 1e-12)


def mark(ok: bool) -> str:
    return TICK if ok else CROSS


# ----------------------------------------------------------------------------- rows


@dataclass(frozen=True)
class Row:
    """One line of a "book value | app value | match" table."""

    quantity: str
    book: str
    source: str
    app: str
    match: bool


def show(text: str) -> str:
    """Printed text with a real minus sign."""
    return str(text).replace("-", MINUS)


def number_row(quantity: str, value: float, book: Printed) -> Row:
    """App value shown with one digit more than the book prints (exact values: 6 decimals,
    the precision they are held to)."""
    digits = 6 if book.exact else printed_decimals(book.text) + 1
    return Row(quantity, show(book.text), book.source, fixed(value, digits),
               matches_printed(value, book))


def point_names(idx: Sequence[int]) -> str:
    """0-based indices → 'x1, x2, x4' (the book numbers points from 1)."""
    return ", ".join(f"x{i + 1}" for i in sorted(int(i) for i in idx)) or "none"


def set_row(quantity: str, app_idx: Sequence[int], book_idx: Sequence[int], source: str) -> Row:
    """Sets of points; book_idx 0-based. Matches when the sets are equal."""
    return Row(quantity, point_names(book_idx), source, point_names(app_idx),
               set(map(int, app_idx)) == set(map(int, book_idx)))


def claim_row(quantity: str, book: str, source: str, app: str, ok: bool) -> Row:
    return Row(quantity, book, source, app, bool(ok))


def matrix_text(M) -> str:
    M = np.atleast_2d(np.asarray(M, dtype=float))
    return "; ".join(" ".join(fixed(v, 0) if v == int(v) else fixed(v, 3) for v in r) for r in M)


def matrix_row(name: str, app, book, source: str) -> Row:
    """A matrix the seed prints entry by entry (exact). Column vectors compare as vectors."""
    A, B = np.asarray(app, dtype=float), np.asarray(book, dtype=float)
    if A.ndim == 2 and A.shape[1] == 1 and B.ndim == 1:
        A = A.ravel()
    ok = A.shape == B.shape and bool(np.allclose(A, B, rtol=EXACT_RTOL, atol=EXACT_RTOL))
    return Row(name, f"[{matrix_text(B)}]", source, f"[{matrix_text(A)}]", ok)


def latex_matrix(M, digits: int = 4) -> str:
    """A matrix (or vector, as a column) as LaTeX bmatrix; integers shown without decimals."""
    M = np.asarray(M, dtype=float)
    M = M.reshape(-1, 1) if M.ndim == 1 else M

    body = r" \\ ".join(" & ".join(fmt_tex_decimals(v, digits) for v in row) for row in M)
    return r"\begin{bmatrix} " + body + r" \end{bmatrix}"


def rows_table(rows: Sequence[Row]) -> list[dict]:
    """The rows as the page shows them."""
    return [{"quantity": r.quantity, "book value": r.book, "source": r.source,
             "app value": r.app, "match": mark(r.match)} for r in rows]


# --------------------------------------------------------------------------- results


@dataclass
class Result:
    """What one example computed: the match rows, the fitted models (for the plots), extra
    tables {title: rows}, sentences computed from the numbers, and solver warnings."""

    rows: list[Row]
    models: dict[str, Any]
    tables: dict[str, list[dict]] = field(default_factory=dict)
    notes: list[str] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)
    extra: dict[str, Any] = field(default_factory=dict)


def _fit(d, log: list[str], **kw):
    """se.fit on a dataset; a ConvergenceWarning is kept for the page instead of printed."""
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always", se.ConvergenceWarning)
        m = se.fit(d.X, d.y, time_budget=PAGE_TIME_BUDGET, **kw)
    log += [f"{kw.get('solver')}: {fit_words.warning_note([w])}" for w in caught
            if issubclass(w.category, se.ConvergenceWarning)]
    return m


def on_margin(m) -> np.ndarray:
    """Indices of the points with yᵢh(xᵢ) = 1 (0-based)."""
    return np.flatnonzero(np.abs(m.y * m.h_train - 1.0) <= ON_MARGIN_TOL)


def primal_value(X, y, w, b, C, augmented=False) -> float:
    """½‖w‖² (+ ½b² when b is folded into w) + C Σ ξᵢ for a hyperplane (hinge loss); for the
    hard margin (C = ∞) ½‖w‖² if no point violates its margin (beyond solver round-off),
    else ∞."""
    xi = np.maximum(0.0, 1.0 - y * (X @ w + b))
    if math.isinf(C):
        slack = 0.0 if xi.max(initial=0.0) <= ON_MARGIN_TOL else math.inf
    else:
        slack = C * float(xi.sum())
    return float(0.5 * w @ w + (0.5 * b * b if augmented else 0.0) + slack)


def dual_value(X, y, alpha) -> float:
    """Σα − ½‖Σαᵢyᵢxᵢ‖² (linear kernel, slide 20)."""
    w = (alpha * y) @ X
    return float(alpha.sum() - 0.5 * w @ w)


def alpha_comparison(d, C: float, columns: Mapping[str, tuple[np.ndarray, float]],
                     optimum: float) -> list[dict]:
    """α side by side: one row per point with α > 0 in any column, then Σαᵢyᵢ, the bounds,
    w = Σαᵢyᵢxᵢ, the dual objective, and two computed checks.

    columns: {name: (α, rounding)} where rounding is half a unit of the last printed digit
    for the book's α (0 for the app's). Feasible: |Σαᵢyᵢ| and the bound violations within
    the rounding (1e-6 for the app). Optimal: the dual objective equals `optimum` (the
    primal objective of the app's hyperplane, an upper bound on every feasible dual value)
    within what the rounding can move it, Σᵢ|∂L/∂αᵢ|·rounding (1e-6 relative for the app).
    """
    X, y = d.X, d.y.astype(float)
    used = sorted({int(i) for a, _ in columns.values() for i in np.flatnonzero(a > 0)})
    rows = [{"": f"α{i + 1}  (x{i + 1}, y = {'+1' if y[i] > 0 else MINUS + '1'})",
             **{k: fixed(a[i], 4) for k, (a, _) in columns.items()}} for i in used]
    stats = {}
    for k, (a, rnd) in columns.items():
        w = (a * y) @ X
        grad = 1.0 - y * (X @ w)                       # ∂L_dual/∂αᵢ (slide 31)
        tol_feas = max(rnd * max(1, np.count_nonzero(a)), 1e-6)
        tol_opt = max(float(np.abs(grad[a > 0]).sum()) * rnd, 1e-6 * max(1.0, abs(optimum)))
        feas = (abs(a @ y) <= tol_feas and a.min() >= -tol_feas
                and (not math.isfinite(C) or a.max() <= C + tol_feas))
        dual = dual_value(X, y, a)
        optimal = math.isfinite(optimum) and abs(dual - optimum) <= tol_opt
        stats[k] = (a @ y, a.min(), a.max(), w, dual, feas, optimal)
    box = "0 ≤ αᵢ" if not math.isfinite(C) else f"0 ≤ αᵢ ≤ C = {fmt_setting(C)}"
    rows += [
        {"": "Σ αᵢyᵢ  (must be 0)", **{k: fixed(s[0], 4) for k, s in stats.items()}},
        {"": "smallest αᵢ", **{k: fixed(s[1], 4) for k, s in stats.items()}},
        {"": "largest αᵢ", **{k: fixed(s[2], 4) for k, s in stats.items()}},
        {"": "w = Σ αᵢyᵢxᵢ", **{k: f"({fixed(s[3][0], 3)}, {fixed(s[3][1], 3)})"
                                for k, s in stats.items()}},
        {"": "dual objective Σα − ½‖w‖²", **{k: fixed(s[4], 4) for k, s in stats.items()}},
        {"": f"feasible: Σαᵢyᵢ = 0, {box}", **{k: mark(s[5]) for k, s in stats.items()}},
        {"": f"optimal: dual = primal optimum {fixed(optimum, 4)}",
         **{k: mark(s[6]) for k, s in stats.items()}},
    ]
    return rows


def _coef_text(m) -> str:
    return hyperplane_equation(m.w, m.b) if m.w is not None else "–"


def _angle_deg(w1, w2) -> float:
    c = float(w1 @ w2 / (np.linalg.norm(w1) * np.linalg.norm(w2)))
    return math.degrees(math.acos(max(-1.0, min(1.0, c))))


def _grid_agreement(m1, m2, X, n: int = 60) -> float:
    """Share of a grid over the data (10 % padding) where both models predict the same side."""
    lo, hi = X.min(axis=0), X.max(axis=0)
    pad = 0.1 * (hi - lo)
    gx, gy = np.meshgrid(np.linspace(lo[0] - pad[0], hi[0] + pad[0], n),
                         np.linspace(lo[1] - pad[1], hi[1] + pad[1], n))
    Z = np.column_stack([gx.ravel(), gy.ravel()])
    return float(np.mean(np.sign(m1.decision_function(Z)) == np.sign(m2.decision_function(Z))))


# ------------------------------------------------------------------------ book values

SLIDE16, SLIDE22, SLIDE23, SLIDE34 = "slide 16", "slide 22", "slide 23", "slide 34"
SEED004 = cite("kkt")

BOOK_D1 = {
    "w1": Printed("0.833", SLIDE16), "w2": Printed("0.334", SLIDE16),
    "b": Printed("-3.332", SLIDE16),
    "alpha": {1: "0.0437", 2: "0.2162", 4: "0.1427", 13: "0.3589", 14: "0.0437"},
}
BOOK_D2 = {
    "w1": Printed("0.834", SLIDE22), "w2": Printed("0.333", SLIDE22),
    "b": Printed("-3.334", SLIDE22),
    "alpha": {1: "0.0271", 2: "0.2162", 4: "0.9928", 13: "0.9928", 14: "0.2434",
              15: "1", 16: "1", 17: "1", 18: "1"},
    # slide 23: xᵢ, wᵀxᵢ, wᵀxᵢ + b, ξᵢ
    "slack": {15: ("4.001", "0.667", "0.333"), 16: ("2.667", "-0.667", "1.667"),
              17: ("3.167", "-0.167", "0.833"), 18: ("5.168", "1.834", "2.834")},
    "total_slack": Printed("5.667", SLIDE23),
    "misclassified": (16, 18),
    "margin_sv": (1, 2, 4, 13, 14),  # "support vectors that are on the margin" (ξ = 0)
}
BOOK_IRIS = {  # slide 34: h10 and h1000, SVM-Dual, bias folded into w
    10: (Printed("2.74", SLIDE34), Printed("-3.74", SLIDE34), Printed("-3.09", SLIDE34)),
    1000: (Printed("8.56", SLIDE34), Printed("-7.14", SLIDE34), Printed("-23.12", SLIDE34)),
}
BOOK_TWO_POINT = {  # the KKT note: KKT by hand and the cvxopt primal QP
    "w1": Printed("1", SEED004, exact=True), "w2": Printed("1", SEED004, exact=True),
    "b": Printed("-3", SEED004, exact=True),
    "h": {1: Printed("1", SEED004, exact=True), 2: Printed("-1", SEED004, exact=True)},
    "P": ((1.0, 0.0, 0.0), (0.0, 1.0, 0.0), (0.0, 0.0, 0.0)),
    "q": (0.0, 0.0, 0.0),
    "G": ((-2.0, -2.0, -1.0), (1.0, 1.0, 1.0)),
    "h_vec": (-1.0, -1.0),
}
SGA_EPS = 1e-4  # the book's stopping rule ‖α_t − α_{t−1}‖ ≤ ε (slide 33)
TIGHT = {"smo": 1e-9, "qp": 1e-10}  # tighter than the Playground so the printed digits settle


def book_alpha(d, printed: Mapping[int, str]) -> tuple[np.ndarray, float]:
    """The book's α as an array (points numbered from 1) and half a unit of its last digit."""
    a = np.zeros(d.n)
    for i, text in printed.items():
        a[i - 1] = float(text)
    return a, 0.5 * 10.0 ** -max(printed_decimals(t) for t in printed.values())


def book_line(book) -> tuple[tuple[float, float], float]:
    """(w, b) of a printed hyperplane, for drawing it."""
    return (book["w1"].value, book["w2"].value), book["b"].value


# ------------------------------------------------------------------------- examples


def ex_d1_separable() -> Result:
    """Example 1: D1, hard margin (slides 15–16); α is not unique."""
    d, log = datasets.d1(), []
    smo = _fit(d, log, C=math.inf, solver="smo", tol=TIGHT["smo"])
    qp = _fit(d, log, C=math.inf, solver="qp", tol=TIGHT["qp"])
    B = BOOK_D1
    book_w = np.array([B["w1"].value, B["w2"].value])
    margin_book = Printed(fixed(1 / np.linalg.norm(book_w), 3), "1/‖w‖ of slide 16's w")
    book_sv = [i - 1 for i in B["alpha"]]
    rows = [
        number_row("w₁", smo.w[0], B["w1"]),
        number_row("w₂", smo.w[1], B["w2"]),
        number_row("b", smo.b, B["b"]),
        number_row("margin δ* = 1/‖w‖ (the book's; 2/‖w‖ between the planes h = ±1)",
                   smo.margin, margin_book),
        set_row("support vectors = the points on the margin (y·h(x) = 1)", on_margin(smo),
                book_sv, SLIDE16),
    ]
    a_book, rnd = book_alpha(d, B["alpha"])
    optimum = primal_value(d.X, d.y, qp.w, qp.b, math.inf)
    table = alpha_comparison(d, math.inf, {"book α (slide 16)": (a_book, rnd),
                                           "app α: smo": (smo.alpha, 0.0),
                                           "app α: qp": (qp.alpha, 0.0)}, optimum)
    n_margin = len(on_margin(smo))
    notes = [
        f"All three α are optimal: each is feasible and its dual objective equals the primal "
        f"objective ½‖w‖² = {fixed(optimum, 4)} of the optimal hyperplane, which no feasible "
        f"α can exceed (weak duality). They differ because only w is unique: {n_margin} points "
        f"lie on the margin, more than the d + 1 = 3 that fix (w, b) in the plane, so many "
        f"combinations Σ αᵢyᵢxᵢ of them give the same w = ({fixed(smo.w[0], 4)}, "
        f"{fixed(smo.w[1], 4)}).",
        TYPO_SLIDE8,
    ]
    return Result(rows, {"smo": smo, "qp": qp},
                  {"α is not unique: the book's, SMO's and the QP's side by side": table},
                  notes, log, {"book_line": book_line(B)})


#: the slides' misprints, named where the app's numbers would otherwise seem to contradict them
TYPO_SLIDE8 = (f"{cite('chapter', 8)} prints the canonical hyperplane as 0.334x + 0.833y − 3.332: "
               "the two coefficients are swapped (5/6 = 0.833 multiplies x, 2/6 = 0.334 "
               "multiplies y, as on slide 16). The app prints 0.833·x1 + 0.334·x2 − 3.332.")
TYPO_SLIDE23 = (f"{cite('chapter', 23)} names the misclassified x16 as (3, 3); slide 21 lists "
                "x16 = (2, 3), and that point gives the slide's own ξ16 = 1.667. The app uses "
                "(2, 3).")
SETOSA_CODING = ("Setosa is the class −1 and the other two species +1: the printed h10 is "
                 "negative on setosa flowers (at (5.0, 3.4): 2.74·5 − 3.74·3.4 − 3.09 = "
                 f"{fixed(2.74 * 5 - 3.74 * 3.4 - 3.09, 3)}), so only that coding reproduces "
                 "the slide's signs.")


def ex_d2_soft_margin() -> Result:
    """Example 2: D2, hinge loss, C = 1 (slides 21–23)."""
    d, log = datasets.d2(), []
    smo = _fit(d, log, C=1.0, solver="smo", tol=TIGHT["smo"])
    qp = _fit(d, log, C=1.0, solver="qp", tol=TIGHT["qp"])
    B = BOOK_D2
    rows = [number_row("w₁", smo.w[0], B["w1"]), number_row("w₂", smo.w[1], B["w2"]),
            number_row("b", smo.b, B["b"])]
    wx = d.X @ smo.w
    for i, (_, _, xi) in B["slack"].items():
        rows.append(number_row(f"ξ{i}", smo.xi[i - 1], Printed(xi, SLIDE23)))
    rows.append(number_row("total slack Σξᵢ", float(smo.xi.sum()), B["total_slack"]))
    rows.append(set_row("misclassified (ξᵢ > 1)", np.flatnonzero(smo.category == "misclassified"),
                        [i - 1 for i in B["misclassified"]], SLIDE23))
    rows.append(set_row("support vectors on the margin (ξᵢ = 0)", on_margin(smo),
                        [i - 1 for i in B["margin_sv"]], SLIDE23))
    for i in (15, 16, 17, 18):  # ξᵢ > 0 forces αᵢ = C, so these α are unique
        rows.append(number_row(f"α{i} (ξ{i} > 0 forces α = C)", smo.alpha[i - 1],
                               Printed(B["alpha"][i], SLIDE22)))
    slack = []
    for i, (t_wx, t_h, t_xi) in B["slack"].items():
        k = i - 1
        checks = [(wx[k], t_wx), (wx[k] + smo.b, t_h), (smo.xi[k], t_xi)]
        slack.append({
            "point": f"x{i} = ({fixed(d.X[k, 0], 0)}, {fixed(d.X[k, 1], 0)}), "
                     f"y = {'+1' if d.y[k] > 0 else MINUS + '1'}",
            "wᵀxᵢ book": show(t_wx), "wᵀxᵢ app": fixed(wx[k], 4),
            "wᵀxᵢ + b book": show(t_h), "wᵀxᵢ + b app": fixed(wx[k] + smo.b, 4),
            "ξᵢ book": show(t_xi), "ξᵢ app": fixed(smo.xi[k], 4),
            "match": mark(all(matches_printed(v, Printed(t, SLIDE23)) for v, t in checks)),
        })
    a_book, rnd = book_alpha(d, B["alpha"])
    optimum = primal_value(d.X, d.y, qp.w, qp.b, 1.0)
    alphas = alpha_comparison(d, 1.0, {"book α (slide 22)": (a_book, rnd),
                                       "app α: smo": (smo.alpha, 0.0),
                                       "app α: qp": (qp.alpha, 0.0)}, optimum)
    mis = point_names(np.flatnonzero(smo.category == "misclassified"))
    notes = [
        f"{mis} lie on the wrong side of h(x) = 0 (ξᵢ > 1, crossed in the plot); the other two "
        "points with slack are inside the margin (0 < ξᵢ < 1).",
        f"Here too α is not unique (the {len(on_margin(smo))} margin points are more than the "
        f"3 that fix (w, b)): every column is feasible and reaches the optimum "
        f"½‖w‖² + C Σξᵢ = {fixed(optimum, 4)}. Only the αᵢ of points with slack are "
        "forced (αᵢ = C).",
        TYPO_SLIDE23,
    ]
    tables = {"The slack table of slide 23": slack,
              "α is not unique: the book's, SMO's and the QP's side by side": alphas}
    return Result(rows, {"smo": smo, "qp": qp}, tables, notes, log,
                  {"book_line": book_line(B)})


def ex_iris_sga() -> Result:
    """Example 3: Iris setosa vs rest, SVM-Dual with the bias folded into w (slide 34)."""
    d, log = datasets.iris_setosa(), []
    aug = {"bias": "augmented"}
    # the book's α as SVM-Dual leaves it at ε = 1e-4 (not polished onto the optimum): its
    # "not converged" is this example's lesson (the table against qp), not a warning
    sga = {C: _fit(d, [], C=C, solver="sga", tol=SGA_EPS, polish=False, **aug)
           for C in (10, 1000)}
    qp = {C: _fit(d, log, C=C, solver="qp", tol=TIGHT["qp"], **aug) for C in (10, 1000)}
    free = _fit(d, log, C=10, solver="smo", tol=TIGHT["smo"])
    rows = []
    for C, book in BOOK_IRIS.items():
        m = sga[C]
        for name, v, p in zip(("w₁", "w₂", "b"), (m.w[0], m.w[1], m.b), book, strict=True):
            rows.append(number_row(f"h{C}: {name}", v, p))
    def vs_row(C, name, a, b, diff):
        return {"C": f"{C}", "": name, "SGA, ε = 1e-4": a, "exact optimum (qp)": b,
                "SGA − optimum": diff}

    versus = []
    for C in (10, 1000):
        s, q = sga[C], qp[C]
        pairs = zip(("w₁", "w₂", "b", "dual objective"), (*s.w, s.b, s.dual_objective),
                    (*q.w, q.b, q.dual_objective), strict=True)
        versus += [vs_row(C, n, fixed(a, 3), fixed(b, 3), fixed(a - b, 3)) for n, a, b in pairs]
        versus.append(vs_row(C, "sweeps", f"{s.n_iter:,}", "–", "–"))
    X, y, a10 = d.X, d.y.astype(float), qp[10]
    bias_rows = []
    for label, m in (("book's problem: b folded into w (qp, C = 10)", a10),
                     ("free bias (smo, C = 10)", free)):
        bias_rows.append({
            "hyperplane": label, "w₁": fixed(m.w[0], 3), "w₂": fixed(m.w[1], 3),
            "b": fixed(m.b, 3),
            "½‖w‖² + CΣξ (free-bias objective)": fixed(primal_value(X, y, m.w, m.b, 10), 2),
            "½(‖w‖² + b²) + CΣξ (book's objective)":
                fixed(primal_value(X, y, m.w, m.b, 10, augmented=True), 2),
            "training accuracy": fmt_pct(m.training_accuracy),
        })
    far = max(abs(sga[1000].b - qp[1000].b), *np.abs(sga[1000].w - qp[1000].w))
    notes = [
        SETOSA_CODING,
        f"The book's h1000 is the algorithm stopped by its rule ‖α_t − α_(t−1)‖ ≤ ε = 1e-4 after "
        f"{sga[1000].n_iter:,} sweeps, up to {fixed(far, 3)} away from the exact optimum of the "
        f"same problem; h10 converges much closer.",
        f"These are SGA's numbers where it stops by that rule, as the book prints them. The "
        f"Playground runs the same SGA and then solves the KKT conditions on its support vectors "
        f"exactly (it “polishes” the stop): there the same points and C = 10 show the exact "
        f"optimum, w = ({fixed(qp[10].w[0], 3)}, {fixed(qp[10].w[1], 3)}), "
        f"b = {fixed(qp[10].b, 3)} (the column “exact optimum (qp)”).",
        f"The book folds b into w (x′ = (x, 1), slide 30), so its objective also charges ½b²: "
        f"b = {fixed(free.b, 2)} would cost ½b² = {fixed(0.5 * free.b ** 2, 1)}, and the optimum "
        f"settles at b = {fixed(a10.b, 2)} with a differently tilted w. With a free bias (the "
        "standard SVM, Σαᵢyᵢ = 0) b costs nothing. Each hyperplane is best for its own objective "
        "(the two right-hand columns): two different problems, not a wrong answer.",
    ]
    models = {"sga10": sga[10], "sga1000": sga[1000], "qp10": qp[10], "qp1000": qp[1000],
              "free10": free}
    tables = {"SGA stopped at ε = 1e-4 against the exact optimum of the same problem": versus,
              "Free bias against the book's folded bias (C = 10)": bias_rows}
    lines = {C: ((b[0].value, b[1].value), b[2].value) for C, b in BOOK_IRIS.items()}
    return Result(rows, models, tables, notes, log, {"book_lines": lines})


def ex_iris_kernels() -> Result:
    """Example 4: versicolor vs rest on the first two principal components (slides 35, 42)."""
    d, log = datasets.iris_versicolor_pca(), []
    kw = {"C": 10.0, "bias": "augmented", "solver": "sga", "tol": SGA_EPS}
    hl = _fit(d, log, kernel=se.Linear(), **kw)
    hq = _fit(d, log, kernel=se.Polynomial(degree=2, coef0=1.0), **kw)
    rows = [
        claim_row("no line separates versicolor (it lies between the other two species)",
                  "figure: hl leaves versicolor on both sides", "slide 35",
                  f"hl training accuracy {fmt_pct(hl.training_accuracy)} (test: < 100 %)",
                  hl.training_accuracy < 1.0),
        claim_row("the quadratic kernel fits the versicolor band better than the line",
                  "figure: hq curves around versicolor", "slide 35",
                  f"hq {fmt_pct(hq.training_accuracy)} vs hl {fmt_pct(hl.training_accuracy)} "
                  "(test: hq > hl)", hq.training_accuracy > hl.training_accuracy),
    ]
    table = [{"": name, "kernel": kernel_formula(m.kernel),
              "training accuracy": fmt_pct(m.training_accuracy),
              "support vectors": str(m.n_support), "sweeps": f"{m.n_iter:,}"}
             for name, m in (("hl", hl), ("hq", hq))]
    notes = ["The slides print no numbers here (figure only) and no C; we use C = 10 and the "
             "book's SVM-Dual (bias folded into w). The match column tests what the figure "
             "shows."]
    return Result(rows, {"hq": hq, "hl": hl}, {"The two fits": table}, notes, log)


def ex_nonlinear() -> Result:
    """Example 5: nonlinear data, K = (1 + xᵀz)², C = 4 (slides 25 and 29)."""
    d, log = datasets.nonlinear(), []
    quad = _fit(d, log, kernel=se.Polynomial(degree=2, coef0=1.0), C=4.0, solver="smo",
                tol=TIGHT["smo"])
    lin = _fit(d, log, kernel=se.Linear(), C=4.0, solver="smo", tol=TIGHT["smo"])
    rows = [
        claim_row("no linear classifier separates the points",
                  "“There is no linear classifier that can discriminate between the points”",
                  "slide 25", f"linear SVM, C = 4: {fmt_pct(lin.training_accuracy)} "
                  "(test: < 100 %)", lin.training_accuracy < 1.0),
        claim_row("K = (1 + xᵀz)², C = 4 separates them perfectly",
                  "“a perfect quadratic classifier”, C = 4, q = 2", "slides 25, 29",
                  f"{fmt_pct(quad.training_accuracy)}, {quad.n_support} SVs (test: = 100 %)",
                  quad.training_accuracy == 1.0),
    ]
    notes = [f"The slides show this data set only as a figure, so these {d.n} points are SVM "
             "Lab's own (svm_engine.datasets.nonlinear), placed in the spirit of slide 25: a "
             "bump of −1 points surrounded by +1 points."]
    return Result(rows, {"quad": quad, "lin": lin}, {}, notes, log)


def ex_dual_primal() -> Result:
    """Example 6: SVM-Dual (hinge) against SVM-Primal Newton (quadratic loss), slides 40, 42."""
    log: list[str] = []
    iris, pca = datasets.iris_setosa(), datasets.iris_versicolor_pca()
    aug = {"C": 10.0, "bias": "augmented"}
    hd = _fit(iris, log, solver="sga", tol=SGA_EPS, **aug)
    hp = _fit(iris, log, solver="newton", loss="quadratic", **aug)
    quad = se.Polynomial(degree=2, coef0=1.0)
    hd_q = _fit(pca, log, kernel=quad, solver="sga", tol=SGA_EPS, **aug)
    hp_q = _fit(pca, log, kernel=quad, solver="newton", loss="quadratic", **aug)
    angle = _angle_deg(hd.w, hp.w)
    same = float(np.mean(np.sign(hd.h_train) == np.sign(hp.h_train)))
    grid_q = _grid_agreement(hd_q, hp_q, pca.X)
    rows = [
        claim_row("hd and hp: nearly the same line", "figure: hd, hp drawn as one (linear)",
                  "slide 40", f"normals {fixed(angle, 1)}° apart; {fmt_pct(same)} of the "
                  "flowers on the same side (test: ≤ 10° and ≥ 95 %)",
                  angle <= 10.0 and same >= 0.95),
        claim_row("hd and hp: nearly the same curve", "figure: hd and hp close (quadratic)",
                  "slide 42", f"same side on {fmt_pct(grid_q)} of the plotted area (test: ≥ 90 %)",
                  grid_q >= 0.90),
    ]
    coef = [{"": name, "hyperplane": _coef_text(m), "loss": m.loss,
             "solver": SOLVER_NAMES.get(m.solver, m.solver),
             "iterations": f"{m.n_iter:,}", "training accuracy": fmt_pct(m.training_accuracy)}
            for name, m in (("hd (SVM-Dual, hinge)", hd), ("hp (SVM-Primal, quadratic)", hp))]
    notes = ["The slides print neither the coefficients nor C; we use C = 10 for both. The "
             "two minimise different losses (Σξᵢ against Σξᵢ²), so the lines differ a little."]
    return Result(rows, {"hd": hd, "hp": hp, "hd_q": hd_q, "hp_q": hp_q},
                  {"Slide 40: the two hyperplanes": coef}, notes, log)


def ex_two_point() -> Result:
    """Example 7: the two-point KKT example and its cvxopt primal QP (the KKT note)."""
    d, log = datasets.two_point(), []
    m = _fit(d, log, C=math.inf, solver="qp", qp_form="primal", tol=TIGHT["qp"])
    P, q, G, h = primal_qp_matrices(d.X, d.y.astype(float), math.inf)
    B = BOOK_TWO_POINT
    w, b = m.diagnostics.w_primal, m.diagnostics.b_primal
    rows = [number_row("w₁", w[0], B["w1"]), number_row("w₂", w[1], B["w2"]),
            number_row("b", b, B["b"])]
    for i, p in B["h"].items():
        x = d.X[i - 1]
        rows.append(number_row(f"h(({fixed(x[0], 0)}, {fixed(x[1], 0)})) = wᵀx + b",
                               float(x @ w + b), p))
    rows += [matrix_row("P", P, B["P"], SEED004), matrix_row("q", q, B["q"], SEED004),
             matrix_row("G", G, B["G"], SEED004), matrix_row("h", h, B["h_vec"], SEED004)]
    smo = _fit(d, log, C=math.inf, solver="smo", tol=TIGHT["smo"], trace=True)
    rows += smo_step_rows(d, smo)
    notes = ["cvxopt solves min ½uᵀPu + qᵀu subject to Gu ≤ h over u = (w₁, w₂, b); each row "
             "of G is −yᵢ(xᵢ, 1), the constraint yᵢ(wᵀxᵢ + b) ≥ 1 written as ≤. P has a 0 for b: "
             "the bias is free, not regularised.",
             "SMO (the note's §6) takes one step from λ = 0. The note writes η = −K₁₁ − K₂₂ + "
             "2K₁₂ ≤ 0 and λ₂ + y₂(E₂ − E₁)/η; the engine, as Platt (1998), η = K₁₁ + K₂₂ − "
             "2K₁₂ ≥ 0 and λ₂ + y₂(E₁ − E₂)/η: the same step. The note's U, V are the "
             "engine's L, H (V = ∞: the hard margin has no upper bound).",
             f"Margin: the book's δ* = 1/‖w‖ = {fixed(1 / math.hypot(*w), 4)} (the distance "
             "from the hyperplane to the closest point); the note, like Fung & Mangasarian, "
             f"calls the width between h(x) = +1 and h(x) = −1 the margin: 2/‖w‖ = "
             f"{fixed(2 / math.hypot(*w), 4)}."]
    return Result(rows, {"qp": m, "smo": smo}, {}, notes, log,
                  {"matrices": {"P": P, "q": q, "G": G, "h": h},
                   "book_line": book_line(B)})


def smo_step_rows(d, smo) -> list[Row]:
    """Seed 004's SMO formulas (§6), evaluated on the two points from λ = 0, beside the
    engine's one recorded step and the w, b it ends at."""
    (rec,) = smo.trace                              # one step reaches the optimum
    B, C = BOOK_TWO_POINT, math.inf
    i, j = rec["i"], rec["j"]                       # the seed's λ₁, λ₂
    K = d.X @ d.X.T
    y1, y2 = float(d.y[i]), float(d.y[j])
    a1, a2 = 0.0, 0.0                               # λ₁, λ₂ before the step
    eta = -K[i, i] - K[j, j] + 2.0 * K[i, j]        # the seed's sign: η ≤ 0
    E1, E2 = -y1, -y2                               # E = (ΣλₜyₜKₜᵢ + b) − yᵢ at λ = 0 (b cancels)
    l2_unc = a2 + y2 * (E2 - E1) / eta
    if y1 != y2:
        U, V = max(0.0, a2 - a1), min(C, C - a1 + a2)
    else:
        U, V = max(0.0, a2 + a1 - C), min(C, a1 + a2)
    l2 = min(max(l2_unc, U), V)
    l1 = a1 + y1 * y2 * (a2 - l2)
    pair = f"(x{i + 1}, x{j + 1})"
    close = math.isclose
    return [
        claim_row(f"SMO step 1, pair {pair}: η", f"−K₁₁ − K₂₂ + 2K₁₂ = {fixed(eta, 0)}", SEED004,
                  f"{fixed(-rec['eta'], 0)} (−η of Platt's η = K₁₁ + K₂₂ − 2K₁₂ = "
                  f"{fixed(rec['eta'], 0)})",
                  close(-rec["eta"], eta)),
        claim_row("λ₂ unclipped", f"λ₂ + y₂(E₂ − E₁)/η = {fixed(l2_unc, 0)}", SEED004,
                  fixed(rec["aj_unclipped"], 6), close(rec["aj_unclipped"], l2_unc)),
        claim_row("U ≤ λ₂ ≤ V", f"U = {fixed(U, 0)}, V = {fixed(V, 0)}", SEED004,
                  f"L = {fixed(rec['L'], 0)}, H = {fixed(rec['H'], 0)}",
                  (rec["L"], rec["H"]) == (U, V)),
        claim_row("λ₂, λ₁ after the step", f"λ₂ = {fixed(l2, 0)}, λ₁ + y₁y₂(λ₂ − λ₂ⁿᵉʷ) = "
                  f"{fixed(l1, 0)}", SEED004,
                  f"{fixed(rec['aj_new'], 6)}, {fixed(rec['ai_new'], 6)}; optimal after this "
                  f"step (m − M = {fixed(smo.kkt_violation, 0)})",
                  close(rec["aj_new"], l2) and close(rec["ai_new"], l1) and smo.converged),
        number_row("SMO's w₁", smo.w[0], B["w1"]),
        number_row("SMO's w₂", smo.w[1], B["w2"]),
        number_row("SMO's b", smo.b, B["b"]),
    ]


def ex_psvm() -> Result:
    """Example 8: Fung & Mangasarian's proximal SVM on D2 beside the SVM (KDD 2001)."""
    d, log = datasets.d2(), []
    C = 1.0
    svm = _fit(d, log, C=C, solver="smo", tol=TIGHT["smo"])
    prox = _fit(d, log, C=C, loss="quadratic", bias="augmented", solver="psvm")
    newton = _fit(d, log, C=C, loss="quadratic", bias="augmented", solver="newton")
    y = d.y.astype(float)
    M, v = proximal_system(d.X, y, 2 * C)
    z = np.append(prox.w, -prox.b)           # [w; γ], γ = −b
    res = float(np.max(np.abs(M @ z - v)))
    src = cite("psvm")
    rows = [
        claim_row("one linear system of size (d + 1) × (d + 1)",
                  "“a single system of linear equations”, (n + 1) × (n + 1)", src,
                  f"{M.shape[0]} × {M.shape[1]}, solved once (iterations: {prox.n_iter})",
                  M.shape == (d.X.shape[1] + 1,) * 2 and prox.n_iter == 1),
        claim_row("[w; γ] = (I/ν + HᵀH)⁻¹ HᵀDe, H = [A −e]", "the formula", src,
                  f"residual max |(I/ν + HᵀH)[w; γ] − HᵀDe| = {fmt_num(res, 2)} (test: ≤ 10⁻⁹)",
                  res <= 1e-9 * max(1.0, float(np.abs(v).max()))),
        claim_row("strongly convex: the solution is unique (gradient 0)", "the objective", src,
                  f"max |∇| = {fmt_num(prox.kkt_violation, 2)}; primal − dual = "
                  f"{fmt_num(prox.primal_objective - prox.dual_objective, 2)} (test: both ≤ 10⁻⁸)",
                  prox.kkt_violation <= 1e-8
                  and abs(prox.primal_objective - prox.dual_objective) <= 1e-8),
    ]
    table = []
    for name, m in (("SVM (smo, hinge, C = 1)", svm), ("PSVM (ν = 2C = 2)", prox),
                    ("SVM-Primal (newton, quadratic, C = 1)", newton)):
        table.append({
            "": name, "hyperplane": _coef_text(m), "margin 1/‖w‖": fixed(m.margin, 3),
            "training accuracy": fmt_pct(m.training_accuracy),
            "points with α ≠ 0": str(int(np.count_nonzero(m.alpha))),
            "α < 0": str(int(np.count_nonzero(m.alpha < 0))),
            "loss on": {"psvm": "every point: C Σ rᵢ², rᵢ = 1 − yᵢh(xᵢ) of either sign",
                        "newton": "violators: C Σ ξᵢ²"}.get(m.solver, "violators: C Σ ξᵢ"),
        })
    notes = [
        "PSVM turns the SVM's inequality yᵢh(xᵢ) ≥ 1 − ξᵢ into an equality: every point is "
        "pulled towards its own proximal plane h(x) = ±1 (green dots), from either side, and b is "
        "regularised with w. So all 18 points shape the answer (α of both signs, no sparsity), "
        "while the SVM listens only to its support vectors. The book's SVM-Primal (Newton) "
        "minimises the same squared loss but only over points that violate the margin; "
        "that is the whole difference between the two lines.",
        "Symbols: Fung & Mangasarian's ν is 2C here (its ν/2‖y‖² is the book's C Σξᵢ²), γ = −b, "
        "A = X, D = diag(y).",
    ]
    return Result(rows, {"svm": svm, "psvm": prox, "newton": newton},
                  {"SVM, PSVM and SVM-Primal on D2": table}, notes, log,
                  {"system": {"M": M, "v": v}})


# --------------------------------------------------------------------------- registry


@dataclass(frozen=True)
class Example:
    key: str
    number: int
    title: str
    source: str
    dataset: str
    settings_text: str
    compute: Callable[[], Result]
    setups: tuple[Setup, ...]
    strict: bool = True  # the book prints numbers: every match must be a tick

    @property
    def tab(self) -> str:
        return f"{self.number} · {TAB_LABELS[self.key]}"


EXAMPLES: tuple[Example, ...] = (
    Example("d1", 1, "D1: the separable case", "Zaki & Meira ch. 21, slides 15–16", "d1",
            "linear kernel, hard margin (C = ∞), free bias; smo (tol 1e-9) and qp (cvxopt, "
            "tol 1e-10)", ex_d1_separable, SETUPS["d1"]),
    Example("d2", 2, "D2: soft margin, hinge loss, C = 1", "Zaki & Meira ch. 21, slides 21–23",
            "d2", "linear kernel, hinge loss (k = 1), C = 1, free bias; smo (tol 1e-9) and qp",
            ex_d2_soft_margin, SETUPS["d2"]),
    Example("iris", 3, "Iris setosa: h10 and h1000 with SVM-Dual", "Zaki & Meira ch. 21, "
            "slide 34", "iris_setosa", "linear kernel, hinge loss, bias folded into w "
            "(x′ = (x, 1)); SGA with the book's stopping rule ε = 1e-4; C = 10 and C = 1000",
            ex_iris_sga, SETUPS["iris"]),
    Example("kernels", 4, "Iris versicolor: linear against quadratic kernel",
            "Zaki & Meira ch. 21, slides 35 and 42", "iris_versicolor_pca",
            "first two principal components u1, u2; hinge loss, C = 10, bias folded into w, "
            "SGA; hl: linear, hq: K = (1 + xᵀz)²", ex_iris_kernels,
            SETUPS["kernels"], strict=False),
    Example("nonlinear", 5, "Nonlinear data: the inhomogeneous quadratic kernel",
            "Zaki & Meira ch. 21, slides 25 and 29", "nonlinear",
            "K = (1 + xᵀz)², hinge loss, C = 4, free bias; smo", ex_nonlinear,
            SETUPS["nonlinear"], strict=False),
    Example("dual_primal", 6, "Dual against primal: SVM-Dual and SVM-Primal",
            "Zaki & Meira ch. 21, slides 40 and 42", "iris_setosa",
            "C = 10, bias folded into w; hd: SGA, hinge loss; hp: Newton, quadratic loss; "
            "linear kernel on the sepal features (slide 40), K = (1 + xᵀz)² on the principal "
            "components (slide 42)", ex_dual_primal,
            SETUPS["dual_primal"], strict=False),
    Example("two_point", 7, "Two points: KKT by hand and the cvxopt primal QP",
            cite("kkt"), "two_point",
            "linear kernel, hard margin, free bias; qp on the primal (qp_form = \"primal\")",
            ex_two_point, SETUPS["two_point"]),
    Example("psvm", 8, "Proximal SVM (Fung & Mangasarian) on D2",
            "Fung & Mangasarian, Proximal SVM, KDD 2001", "d2",
            "D2; PSVM with ν = 2C = 2 (solver psvm: quadratic loss, b folded into w) beside "
            "the SVM of slide 22 (smo, hinge, C = 1)", ex_psvm,
            SETUPS["psvm"], strict=False),
)
BY_KEY = {e.key: e for e in EXAMPLES}
TAB_LABELS = {"d1": "D1 separable", "d2": "D2 soft margin", "iris": "Iris h10, h1000",
              "kernels": "Linear vs quadratic", "nonlinear": "Nonlinear data",
              "dual_primal": "Dual vs primal", "two_point": "Two points, cvxopt",
              "psvm": "Proximal SVM"}


def overview_table(results: Mapping[str, Result]) -> list[dict]:
    """One row per example: where it comes from and how many of its rows match (an example
    missing from ``results`` could not be computed)."""
    rows = []
    for e in EXAMPLES:
        r = results.get(e.key)
        if r is None:
            match = f"not computed {CROSS}"
        else:
            ok = sum(row.match for row in r.rows)
            match = f"{ok} of {len(r.rows)} {mark(ok == len(r.rows))}"
        rows.append({"example": f"{e.number} · {e.title}", "from": e.source,
                     "book values": "printed numbers" if e.strict else "figure / claims",
                     "match": match})
    return rows


def compute(key: str) -> Result:
    """The example's numbers, computed now from the engine."""
    return BY_KEY[key].compute()

