"""The rows of a "book value | app value | match" table, and the matrices the page writes
in LaTeX: how a computed value is set beside a printed one (``match`` decides the tick)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from ui.shared.numbers import MINUS, fmt_tex_decimals
from ui.shared.numbers import fmt_fixed as fixed
from ui.worked_examples.match import EXACT_RTOL, Printed, mark, matches_printed, printed_decimals


@dataclass(frozen=True)
class Row:
    """One line of a "book value | app value | match" table."""

    quantity: str
    book: str
    source: str
    app: str
    match: bool


def show(text: str) -> str:
    """Printed text with a real minus sign."""
    return str(text).replace("-", MINUS)


def number_row(quantity: str, value: float, book: Printed) -> Row:
    """App value shown with one digit more than the book prints (exact values: 6 decimals,
    the precision they are held to)."""
    digits = 6 if book.exact else printed_decimals(book.text) + 1
    return Row(quantity, show(book.text), book.source, fixed(value, digits),
               matches_printed(value, book))


def point_names(idx: Sequence[int]) -> str:
    """0-based indices → 'x1, x2, x4' (the book numbers points from 1)."""
    return ", ".join(f"x{i + 1}" for i in sorted(int(i) for i in idx)) or "none"


def set_row(quantity: str, app_idx: Sequence[int], book_idx: Sequence[int], source: str) -> Row:
    """Sets of points; book_idx 0-based. Matches when the sets are equal."""
    return Row(quantity, point_names(book_idx), source, point_names(app_idx),
               set(map(int, app_idx)) == set(map(int, book_idx)))


def claim_row(quantity: str, book: str, source: str, app: str, ok: bool) -> Row:
    return Row(quantity, book, source, app, bool(ok))


def matrix_text(M) -> str:
    M = np.atleast_2d(np.asarray(M, dtype=float))
    return "; ".join(" ".join(fixed(v, 0) if v == int(v) else fixed(v, 3) for v in r) for r in M)


def matrix_row(name: str, app, book, source: str) -> Row:
    """A matrix the seed prints entry by entry (exact). Column vectors compare as vectors."""
    A, B = np.asarray(app, dtype=float), np.asarray(book, dtype=float)
    if A.ndim == 2 and A.shape[1] == 1 and B.ndim == 1:
        A = A.ravel()
    ok = A.shape == B.shape and bool(np.allclose(A, B, rtol=EXACT_RTOL, atol=EXACT_RTOL))
    return Row(name, f"[{matrix_text(B)}]", source, f"[{matrix_text(A)}]", ok)


def latex_matrix(M, digits: int = 4) -> str:
    """A matrix (or vector, as a column) as LaTeX bmatrix; integers shown without decimals."""
    M = np.asarray(M, dtype=float)
    M = M.reshape(-1, 1) if M.ndim == 1 else M

    body = r" \\ ".join(" & ".join(fmt_tex_decimals(v, digits) for v in row) for row in M)
    return r"\begin{bmatrix} " + body + r" \end{bmatrix}"


def rows_table(rows: Sequence[Row]) -> list[dict]:
    """The rows as the page shows them."""
    return [{"quantity": r.quantity, "book value": r.book, "source": r.source,
             "app value": r.app, "match": mark(r.match)} for r in rows]
