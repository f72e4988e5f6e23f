"""Numbers read back from what a page shows: the inverse of ui/shared/numbers.py's text
("−0.7869", "1.5·10⁻⁵", "64.48"), written independently of it."""

from __future__ import annotations

_DIGITS = str.maketrans("⁻⁰¹²³⁴⁵⁶⁷⁸⁹", "-0123456789")


def parse_num(text: str) -> float:
    """A number as a page prints it: '−0.7869', '1.5·10⁻⁵', '64.48', '∞'."""
    t = text.strip().replace("−", "-").replace("∞", "inf").replace("·10", "e").translate(_DIGITS)
    return float(t)
