"""The Sources page's words (pure): the references from ``ui.shared.cite`` and the app's
conventions, in our own words, with the numbers a student can check."""

from __future__ import annotations

import math

from ui.shared.cite import SOURCES, cite
from ui.shared.numbers import fmt_num


def source_rows() -> list[dict[str, str]]:
    """One row per source: how pages cite it, the full reference, what the app takes."""
    return [{"cited as": s.short, "reference": s.title, "what the app takes from it": s.what}
            for s in SOURCES]


def conventions() -> list[tuple[str, str]]:
    """(topic, what the app does and why) for every place a source writes it differently."""
    sigma = 1.0
    gamma = 1 / (2 * sigma ** 2)
    w_norm = math.sqrt(2.0)                        # the two-point example: w = (1, 1)
    return [
        ("margin", f"The margin is δ* = 1/‖w‖, the distance from the hyperplane to the closest "
         f"point ({cite('chapter', 6)}). {cite('psvm')} and the KKT note call the width "
         "between the planes h(x) = +1 and h(x) = −1 the margin: 2/‖w‖. The two-point "
         f"example (w = (1, 1)): δ* = {fmt_num(1 / w_norm)}, width {fmt_num(2 / w_norm)}. "
         "The numbers panel shows both."),
        ("σ and γ", "The Gaussian kernel is written with σ as in the chapter: "
         "K(x, z) = exp(−‖x − z‖²/(2σ²)). The kernel lecture (Odobez) and scikit-learn write "
         f"exp(−γ‖x − z‖²): γ = 1/(2σ²), e.g. σ = {fmt_num(sigma)} is γ = {fmt_num(gamma)}."),
        ("class coding", "Labels are +1 and −1. On Iris, setosa is coded −1 and the other "
         f"two species +1: {cite('chapter', 34)} prints h10 = 2.74·x1 − 3.74·x2 − 3.09, which "
         f"is negative on setosa flowers (at (5.0, 3.4): {fmt_num(2.74 * 5 - 3.74 * 3.4 - 3.09)})"
         ", so only that coding gives the printed signs."),
        ("loss k = 2", "With the quadratic loss the dual's kernel is K + δᵢⱼ/(2C) and α has "
         f"no upper bound: αᵢ ≥ 0 only ({cite('chapter', '20–27')}). With the hinge loss "
         "(k = 1) the box is 0 ≤ αᵢ ≤ C."),
        ("regression symbols", "The Regression page writes the target t and the fitted "
         "function y(x), as the kernel lecture does; elsewhere y is the class label and "
         "h(x) the decision function."),
        ("support vectors", "A support vector is a point on the margin or inside it. A point "
         "on the margin may have α = 0 in the optimum a solver returns (D1's x2 and x14 with "
         "SMO); the tables label it \"SV (on the margin, α = 0)\". PSVM gives every point an "
         "α, of either sign."),
        ("slide typos", f"{cite('chapter', 8)} prints the canonical hyperplane as "
         "0.334x + 0.833y − 3.332; from 5/6·x + 2/6·y − 20/6 it is 0.833x + 0.334y − 3.332, "
         f"as slide 16 has it. {cite('chapter', 23)} names the misclassified x16 as (3, 3); "
         "slide 21 lists x16 = (2, 3), which the app uses (its ξ16 = 1.667 matches)."),
    ]
