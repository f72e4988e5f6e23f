"""The solvers' facts, one record each: what the engine checks (`validation.SUPPORT`), its
defaults (`api.DEFAULT_TOL`), the caps and tolerances the pages use, and the words every page
names a solver by (`ui.shared.labels`). Nothing else writes a solver's name, tolerance or cap.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass


def _smo_cap(n: int) -> int:
    # imported when called: smo imports finalize, which imports certify, which reads this table
    from .smo import interactive_max_iter

    return interactive_max_iter(n)


@dataclass(frozen=True)
class Solver:
    """One solver. label: the widgets' ("SMO (Platt)"); name: the short one of sentences, table
    cells and chart titles; message_name: the engine's own messages' (`certify.status_text`);
    step: what one of its iterations is called; default_tol: `se.fit`'s tol=None (None:
    the solver's own default); tight_tol: close to the exact optimum (Compare solvers'
    "tight"; None: no tol to tighten); book_tol: the Worked examples' (tighter than the
    Playground's, so the printed digits settle; None: not used there); page_max_iter: the
    iteration cap of a page's fit (None: the engine's default)."""

    key: str
    label: str
    name: str
    message_name: str
    biases: tuple[str, ...]
    losses: tuple[str, ...]
    hard_margin: bool
    step: str
    default_tol: float | None
    tight_tol: float | None
    book_tol: float | None = None
    page_max_iter: Callable[[int], int] | None = None

    def max_iter(self, n: int) -> int | None:
        """The cap of a page's fit on n points (None: the engine's default)."""
        return None if self.page_max_iter is None else self.page_max_iter(n)


BOTH = ("hinge", "quadratic")

SOLVERS = (
    # default tol 1e-3 as LIBSVM; tight 1e-8 (docs/engine_api.md)
    Solver("smo", "SMO (Platt)", "SMO", "SMO", ("free",), BOTH, True, "step", 1e-3, 1e-8, 1e-9,
           _smo_cap),
    # cvxopt's own default tolerances; tight 1e-10 (the dual; the primal stalls there: Compare)
    Solver("qp", "QP (cvxopt, interior point)", "QP (cvxopt)", "the QP solver (cvxopt)",
           ("free", "augmented"), BOTH, True, "iteration", None, 1e-10, 1e-10),
    Solver("newton", "Newton (SVM-Primal)", "Newton (SVM-Primal)", "SVM-Primal (Newton)",
           ("augmented",), ("quadratic",), False, "iteration", 1e-8, 1e-8),
    # the book's ε = 1e-4
    Solver("sga", "SGA (SVM-Dual, gradient ascent)", "SGA (SVM-Dual)", "SVM-Dual (SGA)",
           ("augmented",), BOTH, True, "sweep", 1e-4, 1e-7),
    # proximal SVM: squared error C Σrᵢ² on every point, b regularised (solvers/psvm.py); one
    # linear system, no tolerance
    Solver("psvm", "PSVM (proximal SVM)", "PSVM", "PSVM", ("augmented",), ("quadratic",), False,
           "iteration", None, None),
)
BY_KEY = {s.key: s for s in SOLVERS}
