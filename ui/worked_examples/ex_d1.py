"""Example 1: D1, hard margin (slides 15–16); α is not unique."""

from __future__ import annotations

import math

import numpy as np

from svm_engine import datasets
from ui.shared.numbers import fmt_fixed as fixed
from ui.worked_examples.alpha_table import alpha_comparison, book_column, model_column
from ui.worked_examples.book_values import BOOK_D1, SLIDE16, TYPO_SLIDE8, book_line
from ui.worked_examples.match import Printed
from ui.worked_examples.result import TIGHT, Result, fit, on_margin
from ui.worked_examples.rows import number_row, set_row


def compute() -> Result:
    """Example 1: D1, hard margin (slides 15–16); α is not unique."""
    d, log = datasets.d1(), []
    smo = fit(d, log, C=math.inf, solver="smo", tol=TIGHT["smo"])
    qp = fit(d, log, C=math.inf, solver="qp", tol=TIGHT["qp"])
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
    optimum = qp.primal_objective  # ½‖w‖² of the optimal hyperplane (the hard margin)
    table = alpha_comparison(d, math.inf, {"book α (slide 16)": book_column(d, B["alpha"]),
                                           "app α: smo": model_column(smo),
                                           "app α: qp": model_column(qp)}, optimum)
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
                  notes, log, book_line=book_line(B))
