"""Example 6: SVM-Dual (hinge) against SVM-Primal Newton (quadratic loss), slides 40, 42."""

from __future__ import annotations

import math

import numpy as np

import svm_engine as se
from svm_engine import datasets
from ui.shared.labels import SOLVER_NAMES
from ui.shared.numbers import fmt_fixed as fixed
from ui.shared.numbers import fmt_pct
from ui.worked_examples.book_values import SGA_EPS
from ui.worked_examples.result import Result, coef_text, fit
from ui.worked_examples.rows import claim_row


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


def compute() -> Result:
    """Example 6: SVM-Dual (hinge) against SVM-Primal Newton (quadratic loss), slides 40, 42."""
    log: list[str] = []
    iris, pca = datasets.iris_setosa(), datasets.iris_versicolor_pca()
    aug = {"C": 10.0, "bias": "augmented"}
    hd = fit(iris, log, solver="sga", tol=SGA_EPS, **aug)
    hp = fit(iris, log, solver="newton", loss="quadratic", **aug)
    quad = se.Polynomial(degree=2, coef0=1.0)
    hd_q = fit(pca, log, kernel=quad, solver="sga", tol=SGA_EPS, **aug)
    hp_q = fit(pca, log, kernel=quad, solver="newton", loss="quadratic", **aug)
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
    coef = [{"": name, "hyperplane": coef_text(m), "loss": m.loss,
             "solver": SOLVER_NAMES.get(m.solver, m.solver),
             "iterations": f"{m.n_iter:,}", "training accuracy": fmt_pct(m.training_accuracy)}
            for name, m in (("hd (SVM-Dual, hinge)", hd), ("hp (SVM-Primal, quadratic)", hp))]
    notes = ["The slides print neither the coefficients nor C; we use C = 10 for both. The "
             "two minimise different losses (Σξᵢ against Σξᵢ²), so the lines differ a little."]
    return Result(rows, {"hd": hd, "hp": hp, "hd_q": hd_q, "hp_q": hp_q},
                  {"Slide 40: the two hyperplanes": coef}, notes, log)
