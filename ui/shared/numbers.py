"""How SVM Lab prints a number: one set of rules for every page (pure; no streamlit).

The same value prints the same way wherever it appears: a real minus sign (−), "∞" for
infinity, "–" for a missing value (None, NaN) and 1.5·10⁻⁷ rather than 1.5e-07.

- ``fmt_num(v, digits=4)``: significant digits; the numbers panels, tables and messages.
- ``fmt_setting(v)``: a setting as the student chose it (C, σ, c, a tolerance): up to six
  significant digits, so 0.015 and 10000 print in full.
- ``fmt_fixed(v, decimals)``: a fixed number of decimals, for a value set beside a book's
  printed one (the book prints decimals, not significant digits).
- ``fmt_tex(v, digits=4)`` / ``fmt_tex_factor``: the same number for ``st.latex``.
- ``hyperplane_equation(w, b)``: "0.833·x1 − 0.333·x2 − 3.333 = 0", as the book writes it.
"""

from __future__ import annotations

import math

import numpy as np

MINUS = "\u2212"
MISSING = "–"
_SUPERSCRIPT = str.maketrans("-0123456789", "⁻⁰¹²³⁴⁵⁶⁷⁸⁹")


def _special(v) -> str | None:
    """The text of a value that is not a finite number, else None."""
    if v is None:
        return MISSING
    v = float(v)
    if math.isnan(v):
        return MISSING
    if math.isinf(v):
        return "∞" if v > 0 else f"{MINUS}∞"
    return None


def fmt_num(v, digits: int = 4) -> str:
    """``v`` to ``digits`` significant digits: "−0.25", "1.5·10⁻⁷", "∞", "–"."""
    special = _special(v)
    if special is not None:
        return special
    if v == 0:  # −0.0 too: a zero has no sign (as in fmt_fixed)
        return "0"
    s = f"{float(v):.{digits}g}"
    if "e" in s:  # 1.162·10⁻⁵, as a slide writes it (not 1.162·10^−5)
        mant, exp = s.split("e")
        s = f"{mant}·10{str(int(exp)).translate(_SUPERSCRIPT)}"
    return s.replace("-", MINUS)


def fmt_setting(v) -> str:
    """A setting's value as the student chose it: "0.015", "10000", "∞"."""
    return fmt_num(v, 6)


def fmt_fixed(v, decimals: int) -> str:
    """``v`` with ``decimals`` decimals: "−3.3327"; never "−0.000" (a rounded zero has no
    sign)."""
    special = _special(v)
    if special is not None:
        return special
    s = f"{float(v):.{decimals}f}"
    if float(s) == 0:
        s = s.lstrip("-")
    return s.replace("-", MINUS)


def fmt_tex(v, digits: int = 4) -> str:
    """``fmt_num``'s number as LaTeX: "-0.25", "1.5\\cdot 10^{-7}", "\\infty"."""
    if _special(v) == MISSING:
        return r"\text{–}"
    v = float(v)
    if math.isinf(v):
        return r"\infty" if v > 0 else r"-\infty"
    s = f"{v:.{digits}g}"
    if "e" in s:
        mant, exp = s.split("e")
        return rf"{mant}\cdot 10^{{{int(exp)}}}"
    return s


def fmt_tex_factor(v, digits: int = 4) -> str:
    """``fmt_tex``, in parentheses when negative (for "+ (−0.5)")."""
    s = fmt_tex(v, digits)
    return f"({s})" if s.startswith("-") else s


def hyperplane_equation(w, b: float, names=("x1", "x2"), decimals: int = 3) -> str:
    """The line h(x) = 0 as the book writes it: "0.833·x1 + 0.334·x2 − 3.332 = 0"."""
    parts = []
    for k, wk in enumerate(np.asarray(w, dtype=float)):
        name = names[k] if k < len(names) else f"x{k + 1}"
        mag = f"{fmt_fixed(abs(wk), decimals)}·{name}"
        if k == 0:
            parts.append(f"{MINUS}{mag}" if wk < 0 else mag)
        else:
            parts.append(f" {MINUS if wk < 0 else '+'} {mag}")
    parts.append(f" {MINUS if b < 0 else '+'} {fmt_fixed(abs(b), decimals)} = 0")
    return "".join(parts)
