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
    step: what one of its iterations is called; takes_alpha0: it starts from a given α
    (`fit`'s alpha0: a warm start after an edit); default_tol: `se.fit`'s tol=None (None:
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
    takes_alpha0: bool
    default_tol: float | None
    tight_tol: float | None
    book_tol: float | None = None
    page_max_iter: Callable[[int], int] | None = None

    def max_iter(self, n: int) -> int | None:
        """The cap of a page's fit on n points (None: the engine's default)."""
        return None if self.page_max_iter is None else self.page_max_iter(n)


BOTH = ("hinge", "quadratic")

SOLVERS = (
    Solver("smo", label="SMO (Platt)", name="SMO", message_name="SMO", biases=("free",),
           losses=BOTH, hard_margin=True, step="step", takes_alpha0=True,
           default_tol=1e-3,        # LIBSVM's
           tight_tol=1e-8, book_tol=1e-9, page_max_iter=_smo_cap),
    Solver("qp", label="QP (cvxopt, interior point)", name="QP (cvxopt)",
           message_name="the QP solver (cvxopt)", biases=("free", "augmented"), losses=BOTH,
           hard_margin=True, step="iteration", takes_alpha0=False,
           default_tol=None,        # cvxopt's own
           tight_tol=1e-10,         # the dual's; the primal stalls there (Compare's own 1e-9)
           book_tol=1e-10),
    Solver("newton", label="Newton (SVM-Primal)", name="Newton (SVM-Primal)",
           message_name="SVM-Primal (Newton)", biases=("augmented",), losses=("quadratic",),
           hard_margin=False, step="iteration", takes_alpha0=False, default_tol=1e-8,
           tight_tol=1e-8),
    Solver("sga", label="SGA (SVM-Dual, gradient ascent)", name="SGA (SVM-Dual)",
           message_name="SVM-Dual (SGA)", biases=("augmented",), losses=BOTH, hard_margin=True,
           step="sweep", takes_alpha0=True,
           default_tol=1e-4,        # the book's ε
           tight_tol=1e-7),
    # proximal SVM: squared error C Σrᵢ² on every point, b regularised (solvers/psvm.py): one
    # linear system, no tolerance
    Solver("psvm", label="PSVM (proximal SVM)", name="PSVM", message_name="PSVM",
           biases=("augmented",), losses=("quadratic",), hard_margin=False, step="iteration",
           takes_alpha0=False, default_tol=None, tight_tol=None),
)
BY_KEY = {s.key: s for s in SOLVERS}
