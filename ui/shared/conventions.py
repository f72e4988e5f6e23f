"""The conventions a page states where it matters (issue 27, item 9, and the margin of item 8):
which margin a number is, σ against γ, the class coding. One wording, used by every page."""

from __future__ import annotations

import numpy as np

from ui.shared.numbers import fmt_num

#: the numbers panel's margin row: the book's δ* (slides 6–7), never the width 2/‖w‖
MARGIN_ROW = "margin δ* = 1/‖w‖ (the book's)"
#: the row after it: what the Proximal SVM slides and the KKT note call the margin
WIDTH_ROW = "width between the planes h = ±1: 2/‖w‖"


def margin_rows(margin: float) -> list[tuple[str, str]]:
    """The two rows every numbers panel shows: δ* = 1/‖w‖ and the width 2/‖w‖."""
    return [(MARGIN_ROW, fmt_num(margin)), (WIDTH_ROW, fmt_num(2 * margin))]


def margin_words(margin: float, digits: int = 4) -> str:
    """'margin δ* = 1/‖w‖ = 0.7071 (the book's; the planes h = ±1 are 2/‖w‖ = 1.414 apart)'."""
    return (f"margin δ* = 1/‖w‖ = {fmt_num(margin, digits)} (the book's; the planes h = ±1 are "
            f"2/‖w‖ = {fmt_num(2 * margin, digits)} apart)")


def sigma_gamma(sigma: float) -> str:
    """The Gaussian's width in both notations: the book's σ and the kernel lecture's γ."""
    return (f"σ = {fmt_num(sigma)}, i.e. γ = 1/(2σ²) = {fmt_num(1 / (2 * sigma * sigma))}: "
            "exp(−‖x − z‖²/(2σ²)) here is the kernel lecture's exp(−γ‖x − z‖²)")


#: why Iris-setosa is the class −1 (Worked examples 3 and 6)
SETOSA_CODING = ("Class coding: Iris-setosa is y = −1 and the two other species +1. With this "
                 "coding the fitted lines have slide 34's signs (2.74·x1 − 3.74·x2 − 3.09); the "
                 "other coding gives the same line with every sign flipped.")

#: the Regression page's symbols against the classification pages'
REGRESSION_NOTATION = ("Notation: this page follows the kernel-methods lecture's regression: "
                       "targets t and the fitted function y(x). The classification pages use "
                       "the chapter's labels y = ±1 and h(x) = wᵀx + b.")

#: slide 8's canonical hyperplane (Worked example 1), reproduced with its misprint
SLIDE8_TYPO = ("Slide 8 prints the canonical hyperplane as 5/6·x + 2/6·y − 20/6 = "
               "“0.334x + 0.833y − 3.332”: the decimals are swapped (5/6 = 0.833 multiplies x, "
               "as slide 16's w = (0.833, 0.334) says). The app shows 0.833·x1 + 0.333·x2.")

#: slide 23's name for a misclassified point (Worked example 2), reproduced with its misprint
SLIDE23_TYPO = ("Slide 23 names the misclassified points “x16 = (3,3)ᵀ and x18 = (5,3)ᵀ”; "
                "slide 21's table, which the app uses, has x16 = (2, 3) (ξ16 = 1.667 is that "
                "point's): (3,3) is a misprint.")


def support_count_note(counts: list[int], on_margin: int) -> str | None:
    """Compare solvers: why solvers with the same w and b report different numbers of support
    vectors (D1: 3, 4, 5); None when they all agree."""
    shown = sorted(set(counts))
    if len(shown) < 2:
        return None
    listed = " / ".join(str(c) for c in shown)
    return (f"Why {listed} support vectors for the same w and b: {on_margin} points lie exactly "
            "on the margin (y·h(x) = 1), more than the optimum needs, so the optimal α is not "
            "unique. Each solver returns a different optimal α, and a point on the margin may "
            "keep α = 0. It is still a support vector in slide 6's sense (a point at the "
            "margin's distance), so count the points on the margin, not the αᵢ > 0.")


def models_support_note(models) -> str | None:
    """``support_count_note`` for fitted models: those converged to the first one's w and b
    (to 10⁻⁴), their support-vector counts and the points on its margin."""
    fits = [m for m in models if m is not None and m.converged and m.w is not None]
    if not fits:
        return None
    ref = fits[0]
    same = [m for m in fits if abs(m.b - ref.b) <= 1e-4 and np.allclose(m.w, ref.w, atol=1e-4)]
    yh = np.where(np.asarray(ref.y) > 0, 1.0, -1.0) * np.asarray(ref.h_train, dtype=float)
    on = int(np.sum(np.abs(yh - 1.0) <= 5e-4))
    return support_count_note([int(m.n_support) for m in same], on)
