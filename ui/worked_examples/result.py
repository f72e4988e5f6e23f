"""What one worked example computes (`Result`), and the fit every example runs: the engine at
run time, its ConvergenceWarning kept for the page, at tolerances tight enough for the book's
printed digits."""

from __future__ import annotations

import warnings
from dataclasses import dataclass, field
from typing import Any

import numpy as np

import svm_engine as se
from svm_engine.certify import TOL
from svm_engine.solvers import registry
from ui.shared import fit_words
from ui.shared.fitting import PAGE_TIME_BUDGET
from ui.shared.numbers import hyperplane_equation
from ui.worked_examples.rows import Row

TIGHT = {s.key: s.book_tol for s in registry.SOLVERS if s.book_tol is not None}
#: |yᵢh(xᵢ) − 1| up to this: the point lies on its margin (the engine's TOL, which also
#: decides its categories and what it reports as 0)
ON_MARGIN_TOL = TOL


#: a hyperplane the book prints, ((w₁, w₂), b), for drawing it
BookLine = tuple[tuple[float, float], float]


@dataclass(frozen=True, eq=False)
class QPMatrices:
    """The primal QP cvxopt solves, min ½xᵀPx + qᵀx s.t. Gx ≤ h (`primal_qp_matrices`)."""

    P: np.ndarray
    q: np.ndarray
    G: np.ndarray
    h: np.ndarray


@dataclass(frozen=True, eq=False)
class LinearSystem:
    """PSVM's linear system M·(w, γ) = v (`proximal_system`)."""

    M: np.ndarray
    v: np.ndarray


@dataclass
class Result:
    """What one example computed: the match rows, the fitted models (for the plots), extra
    tables {title: rows}, sentences computed from the numbers, solver warnings, and what
    some examples show besides: the book's printed hyperplane (or one per C), the QP's
    matrices, PSVM's linear system."""

    rows: list[Row]
    models: dict[str, Any]
    tables: dict[str, list[dict]] = field(default_factory=dict)
    notes: list[str] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)
    book_line: BookLine | None = None
    book_lines: dict[int, BookLine] = field(default_factory=dict)
    matrices: QPMatrices | None = None
    system: LinearSystem | None = None


def fit(d, log: list[str], **kw):
    """se.fit on a dataset; a ConvergenceWarning is kept for the page instead of printed."""
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always", se.ConvergenceWarning)
        m = se.fit(d.X, d.y, time_budget=PAGE_TIME_BUDGET, **kw)
    log += [f"{kw.get('solver')}: {fit_words.warning_note([w])}" for w in caught
            if issubclass(w.category, se.ConvergenceWarning)]
    return m


def on_margin(m) -> np.ndarray:
    """Indices of the points with yᵢh(xᵢ) = 1 (0-based)."""
    return np.flatnonzero(np.abs(m.y * m.h_train - 1.0) <= ON_MARGIN_TOL)


def coef_text(m) -> str:
    return hyperplane_equation(m.w, m.b) if m.w is not None else "–"
