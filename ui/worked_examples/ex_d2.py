"""Example 2: D2, hinge loss, C = 1 (slides 21–23)."""

from __future__ import annotations

import numpy as np

from svm_engine import datasets
from ui.shared.numbers import MINUS
from ui.shared.numbers import fmt_fixed as fixed
from ui.worked_examples.alpha_table import alpha_comparison, book_column, model_column
from ui.worked_examples.book_values import BOOK_D2, SLIDE22, SLIDE23, TYPO_SLIDE23, book_line
from ui.worked_examples.match import Printed, mark, matches_printed
from ui.worked_examples.result import TIGHT, Result, fit, on_margin
from ui.worked_examples.rows import number_row, point_names, set_row, show


def compute() -> Result:
    """Example 2: D2, hinge loss, C = 1 (slides 21–23)."""
    d, log = datasets.d2(), []
    smo = fit(d, log, C=1.0, solver="smo", tol=TIGHT["smo"])
    qp = fit(d, log, C=1.0, solver="qp", tol=TIGHT["qp"])
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
    optimum = qp.primal_objective  # ½‖w‖² + C Σξᵢ of the optimal hyperplane
    alphas = alpha_comparison(d, 1.0, {"book α (slide 22)": book_column(d, B["alpha"]),
                                       "app α: smo": model_column(smo),
                                       "app α: qp": model_column(qp)}, optimum)
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
    return Result(rows, {"smo": smo, "qp": qp}, tables, notes, log, book_line=book_line(B))
