"""The conventions a page states where it matters (issue 27, item 9, and the margin of item 8):
which margin a number is, σ against γ, the class coding. One wording, used by every page."""

from __future__ import annotations

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
