"""The match rule of the worked examples: when an app value matches a number the book prints.

* a number printed with k decimals matches a value within 1.5 units of its last digit,
  1.5·10⁻ᵏ (the book's numbers carry the rounding of its own 4-decimal α, so half a unit
  would be too tight — the same rule as `printed()` in tests/test_engine_book.py);
* a number a seed states exactly (a hand-solved w, the entries of a matrix) must agree to
  EXACT_RTOL relative (what is left is solver round-off).
"""

from __future__ import annotations

import math
from dataclasses import dataclass

TICK, CROSS = "✓", "✗"
EXACT_RTOL = 1e-6


@dataclass(frozen=True)
class Printed:
    """A number as the book prints it ("0.833", "-3.332"), with where it is printed."""

    text: str
    source: str
    exact: bool = False

    @property
    def value(self) -> float:
        return float(self.text)


def printed_decimals(text: str) -> int:
    return len(text.split(".")[1]) if "." in text else 0


def tolerance(book: Printed) -> float:
    """How far a value may lie from a printed number and still match it."""
    if book.exact:
        return EXACT_RTOL * max(1.0, abs(book.value))
    return 1.5 * 10.0 ** -printed_decimals(book.text)


def matches_printed(value: float, book: Printed) -> bool:
    """The match rule (module docstring). Non-finite values never match."""
    value = float(value)
    if not math.isfinite(value):
        return False
    return abs(value - book.value) <= tolerance(book) * (1 + 1e-12)


def mark(ok: bool) -> str:
    return TICK if ok else CROSS
