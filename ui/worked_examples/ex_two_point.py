"""Example 7: the two-point KKT example and its cvxopt primal QP (the KKT note), and SMO's one
step by the note's formulas."""

from __future__ import annotations

import math

from svm_engine import datasets
from svm_engine.solvers.qp import primal_qp_matrices
from ui.shared.numbers import fmt_fixed as fixed
from ui.worked_examples.book_values import BOOK_TWO_POINT, SEED004, book_line
from ui.worked_examples.result import TIGHT, QPMatrices, Result, fit
from ui.worked_examples.rows import Row, claim_row, matrix_row, number_row


def compute() -> Result:
    """Example 7: the two-point KKT example and its cvxopt primal QP (the KKT note)."""
    d, log = datasets.two_point(), []
    m = fit(d, log, C=math.inf, solver="qp", qp_form="primal", tol=TIGHT["qp"])
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
    smo = fit(d, log, C=math.inf, solver="smo", tol=TIGHT["smo"], trace=True)
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
                  matrices=QPMatrices(P, q, G, h), book_line=book_line(B))


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
