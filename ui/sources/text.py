"""What the Sources page shows, as plain data (tested without a server)."""

from __future__ import annotations

from ui.shared import conventions as CV
from ui.shared.cite import SOURCES

INTRO = ("SVM Lab teaches chapter 21 of Zaki & Meira and takes a few things from four other "
         "documents. Each is listed with what the app takes from it; the descriptions are "
         "ours. Pages cite them by these short names.")


def source_rows() -> list[dict]:
    """One row per source: the short name pages use, the full reference, what we take."""
    return [{"cited as": s.short, "reference": s.reference, "what the app takes": s.used_for}
            for s in SOURCES]


def convention_lines() -> list[str]:
    """Where the sources disagree with each other, which one the app follows."""
    return [
        "Margin: the app's margin is the book's δ* = 1/‖w‖ (slides 6–7), the distance from "
        "h(x) = 0 to the closest point. The Proximal SVM slides and the KKT/SMO note call the "
        "width between the planes h(x) = ±1, 2/‖w‖, the margin; every numbers panel shows both.",
        "Gaussian kernel: " + CV.sigma_gamma(1.0) + ".",
        CV.SETOSA_CODING,
        "Quadratic loss (k = 2): the dual uses K + δᵢⱼ/(2C) and its only bound is αᵢ ≥ 0 "
        "(slides 20 and 27); slide 33's clip at C is the hinge loss's box.",
        CV.REGRESSION_NOTATION,
        CV.SLIDE8_TYPO,
        CV.SLIDE23_TYPO,
    ]
