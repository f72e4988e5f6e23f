"""The book's printed values, as data: only this column of the examples is typed in, each
number as printed and citing its slide of Zaki & Meira ch. 21 or another source
(docs/sources.md). Points are numbered from 1, as the book numbers them. Also the slides'
misprints, named where the app's numbers would otherwise seem to contradict them."""

from __future__ import annotations

from ui.shared.cite import cite
from ui.shared.numbers import fmt_fixed
from ui.worked_examples.match import Printed

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

#: the slides' misprints, named where the app's numbers would otherwise seem to contradict them
TYPO_SLIDE8 = (f"{cite('chapter', 8)} prints the canonical hyperplane as 0.334x + 0.833y − 3.332: "
               "the two coefficients are swapped (5/6 = 0.833 multiplies x, 2/6 = 0.334 "
               "multiplies y, as on slide 16). The app prints 0.833·x1 + 0.334·x2 − 3.332.")
TYPO_SLIDE23 = (f"{cite('chapter', 23)} names the misclassified x16 as (3, 3); slide 21 lists "
                "x16 = (2, 3), and that point gives the slide's own ξ16 = 1.667. The app uses "
                "(2, 3).")
SETOSA_CODING = ("Setosa is the class −1 and the other two species +1: the printed h10 is "
                 "negative on setosa flowers (at (5.0, 3.4): 2.74·5 − 3.74·3.4 − 3.09 = "
                 f"{fmt_fixed(2.74 * 5 - 3.74 * 3.4 - 3.09, 3)}), so only that coding "
                 "reproduces the slide's signs.")


def book_line(book) -> tuple[tuple[float, float], float]:
    """(w, b) of a printed hyperplane, for drawing it."""
    return (book["w1"].value, book["w2"].value), book["b"].value
