"""α side by side (the book's, SMO's, the QP's): α is not unique, so the table shows that each
column is feasible and optimal rather than equal. The app's columns carry their fit's own dual
objective (the engine's finalize); only the book's α, which no fit produced, is evaluated
here."""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass

import numpy as np

from ui.shared.numbers import MINUS, fmt_setting
from ui.shared.numbers import fmt_fixed as fixed
from ui.worked_examples.match import mark, printed_decimals

#: what the app's α is held to in the checks (its rounding is 0): feasibility within this,
#: the dual objective within this relative
APP_TOL = 1e-6


@dataclass(frozen=True)
class AlphaColumn:
    """One column: α, half a unit of its last printed digit (0 for the app's) and its dual
    objective Σα − ½‖Σαᵢyᵢxᵢ‖²."""

    alpha: np.ndarray
    rounding: float
    dual: float


def dual_value(X, y, alpha) -> float:
    """Σα − ½‖Σαᵢyᵢxᵢ‖² (linear kernel, slide 20), for an α no fit produced."""
    w = (alpha * y) @ X
    return float(alpha.sum() - 0.5 * w @ w)


def alpha_column(d, alpha: np.ndarray, rounding: float) -> AlphaColumn:
    """A column for an α typed in (the book's, or a test's)."""
    return AlphaColumn(alpha, rounding, dual_value(d.X, d.y.astype(float), alpha))


def book_column(d, printed: Mapping[int, str]) -> AlphaColumn:
    """The book's α (points numbered from 1), rounded to half a unit of its last digit."""
    a = np.zeros(d.n)
    for i, text in printed.items():
        a[i - 1] = float(text)
    return alpha_column(d, a, 0.5 * 10.0 ** -max(printed_decimals(t) for t in printed.values()))


def model_column(m) -> AlphaColumn:
    """A fit's α with the dual objective the engine computed for it."""
    return AlphaColumn(m.alpha, 0.0, float(m.dual_objective))


def alpha_comparison(d, C: float, columns: Mapping[str, AlphaColumn],
                     optimum: float) -> list[dict]:
    """α side by side: one row per point with α > 0 in any column, then Σαᵢyᵢ, the bounds,
    w = Σαᵢyᵢxᵢ, the dual objective, and two computed checks.

    Feasible: |Σαᵢyᵢ| and the bound violations within the column's rounding (APP_TOL for the
    app). Optimal: the dual objective equals `optimum` (the primal objective of the app's
    hyperplane, an upper bound on every feasible dual value) within what the rounding can
    move it, Σᵢ|∂L/∂αᵢ|·rounding (APP_TOL relative for the app).
    """
    X, y = d.X, d.y.astype(float)
    used = sorted({int(i) for c in columns.values() for i in np.flatnonzero(c.alpha > 0)})
    rows = [{"": f"α{i + 1}  (x{i + 1}, y = {'+1' if y[i] > 0 else MINUS + '1'})",
             **{k: fixed(c.alpha[i], 4) for k, c in columns.items()}} for i in used]
    stats = {}
    for k, c in columns.items():
        a, rnd = c.alpha, c.rounding
        w = (a * y) @ X
        grad = 1.0 - y * (X @ w)                       # ∂L_dual/∂αᵢ (slide 31)
        tol_feas = max(rnd * max(1, np.count_nonzero(a)), APP_TOL)
        tol_opt = max(float(np.abs(grad[a > 0]).sum()) * rnd, APP_TOL * max(1.0, abs(optimum)))
        feas = (abs(a @ y) <= tol_feas and a.min() >= -tol_feas
                and (not math.isfinite(C) or a.max() <= C + tol_feas))
        optimal = math.isfinite(optimum) and abs(c.dual - optimum) <= tol_opt
        stats[k] = (a @ y, a.min(), a.max(), w, c.dual, feas, optimal)
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
