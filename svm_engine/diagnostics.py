"""What a fit found out about itself beside the solution (`SVMModel.diagnostics`): why the
solver stopped, the certificate, what the polish and the refinement did, and what the next
fit after an edit may carry over (the kernel expansion). Typed, so that nothing reads a key
some other code may or may not have set."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from .certify import Certificate, Expansion
from .solvers.result import StopReason


@dataclass
class FitDiagnostics:
    """stop, solver_status, max_iter: the solver's run (`solvers.result.SolverResult`; after a
    refinement, the refinement's when it did not converge). certificate: `certify.py`'s
    verdict on the model's α. solver_alpha: the solver's own α (without rounding residues):
    model.alpha unless `polished`. refined_iter: the iterations SMO went on for when its α
    failed the certificate (None: no refinement). expansion, expansion_age: the recomputed
    kernel expansion and how many edits it was carried through (None for psvm). w_primal,
    b_primal: a primal solver's own w and b (qp primal, newton, linear psvm), else None."""

    certificate: Certificate
    stop: StopReason
    solver_status: str
    max_iter: int | None = None
    solver_alpha: np.ndarray | None = None
    polished: bool = False
    refined_iter: int | None = None
    expansion: Expansion | None = None
    expansion_age: int = 0
    w_primal: np.ndarray | None = None
    b_primal: float | None = None

    @property
    def solver_converged(self) -> bool:
        """The solver met its own stopping rule (the certificate aside)."""
        return self.stop is StopReason.CONVERGED
