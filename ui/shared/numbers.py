"""How SVM Lab prints a number: one set of rules for every page (pure; no streamlit).

The same value prints the same way wherever it appears: a real minus sign (−), "∞" for
infinity, "–" for a missing value (None, NaN) and 1.5·10⁻⁷ rather than 1.5e-07.

- ``fmt_num(v, digits=4)``: significant digits; the numbers panels, tables and messages.
- ``fmt_setting(v)``: a setting as the student chose it (C, σ, c, a tolerance): up to six
  significant digits, so 0.015 and 10000 print in full.
- ``fmt_fixed(v, decimals)``: a fixed number of decimals, for a value set beside a book's
  printed one (the book prints decimals, not significant digits).
- ``fmt_pct(fraction, decimals=1)``: a share or an accuracy as a percentage, "93.3 %".
- ``fmt_tex(v, digits=4)`` / ``fmt_tex_factor``: the same number for ``st.latex``;
  ``fmt_tex_decimals(v, decimals)``: at most that many decimals, for a matrix in ``st.latex``.
- ``linear_combination(terms)``: "0.833·x1 − 0.333·x2 − 3.333", one rule for the signs of
  every equation a page prints; ``hyperplane_equation(w, b)``: "0.833·x1 − 0.333·x2 − 3.333
  = 0", as the book writes it (the Kernels page's conic is built from the same terms).

Nothing in ``ui/`` or ``pages/`` formats a number with a format spec of its own
(tests/test_number_formats.py fails on a new one). Two kinds of numbers are formatted in the
browser instead, by specs the browser's libraries read, and print a hyphen-minus and "1e-05":

- Plotly's hover labels (``hovertemplate: "%{y:.4g}"``): plotly.js formats the value under
  the pointer (d3-format); the text a student reads beside a figure comes from here.
- ``st.column_config.NumberColumn(format="%.4f")``: Streamlit's table formats a column that
  stays numeric, so that it sorts by value and aligns on the decimal point.

The browser's own text (the Playground's canvas, the step player) uses ui/browser/format.js,
which prints as ``fmt_num`` and ``fmt_fixed`` do (checked by tests/js/format_cases.json).
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


def fmt_pct(fraction, decimals: int = 1) -> str:
    """A fraction as a percentage with ``decimals`` decimals: 0.9333 → "93.3 %"."""
    special = _special(fraction)
    if special is not None:
        return special
    return f"{fmt_fixed(100.0 * float(fraction), decimals)} %"


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


def fmt_tex_decimals(v, decimals: int) -> str:
    """``v`` for ``st.latex`` with at most ``decimals`` decimals (trailing zeros dropped):
    "-2", "0.5", "0.3333"; a rounded zero has no sign."""
    if _special(v) is not None:
        return fmt_tex(v)
    s = fmt_fixed(v, decimals).replace(MINUS, "-")
    return s.rstrip("0").rstrip(".") if "." in s else s


def linear_combination(terms, decimals: int = 3, *, drop_zeros: bool = False) -> str:
    """Σ cₖ·nameₖ as the book writes it, from (cₖ, nameₖ) pairs ("" names a constant):
    "0.833·x1 − 0.333·x2 − 3.333". Each coefficient has ``decimals`` decimals and the sign of
    the number printed (a coefficient that rounds to zero has none). ``drop_zeros`` leaves out
    the terms that print as zero ("0" when every term does)."""
    parts = []
    for coef, name in terms:
        coef = float(coef)
        mag = fmt_fixed(abs(coef), decimals)   # "∞" and "–" (NaN) as fmt_fixed prints them
        zero = math.isfinite(coef) and float(mag) == 0.0
        if zero and drop_zeros:
            continue
        negative = coef < 0 and not zero
        body = f"{mag}·{name}" if name else mag
        if not parts:
            parts.append(f"{MINUS}{body}" if negative else body)
        else:
            parts.append(f" {MINUS if negative else '+'} {body}")
    return "".join(parts) or "0"


def hyperplane_equation(w, b: float, names=("x1", "x2"), decimals: int = 3) -> str:
    """The line h(x) = 0 as the book writes it: "0.833·x1 + 0.334·x2 − 3.332 = 0"."""
    w = np.asarray(w, dtype=float)
    terms = [(wk, names[k] if k < len(names) else f"x{k + 1}") for k, wk in enumerate(w)]
    return linear_combination([*terms, (float(b), "")], decimals) + " = 0"
