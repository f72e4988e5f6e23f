"""What every solver returns: one typed result (`SolverResult`) with why it stopped
(`StopReason`), instead of a dict whose keys each solver chose.

`status` stays the solver's own sentence (its numbers, e.g. "stopped at max_iter = 100 with
m(α) − M(α) = 0.02 > tol"): an engine message for a library user. Code never parses it: it
reads `stop`, `n_iter` and `max_iter`.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass, replace

import numpy as np


class StopReason(enum.Enum):
    """Why a solver stopped."""

    CONVERGED = "converged"        # its own stopping rule was met
    MAX_ITER = "max_iter"          # it reached max_iter first
    TIME_BUDGET = "time_budget"    # the clock (fit's time_budget) stopped it first
    STALLED = "stalled"            # no step lowers its objective any more (Newton's line search)
    NOT_OPTIMAL = "not_optimal"    # an external solver (cvxopt) did not report an optimum at tol
    FAILED = "failed"              # its numbers are not finite (PSVM's linear system)


@dataclass
class SolverResult:
    """One solver run. alpha: the dual variables (psvm: of either sign); b: the bias when the
    solver computes one itself (psvm), else None (`finalize` derives it from α); G: the dual's
    gradient Qα − 1 at alpha when the solver keeps it (the compiled SMO), else None.
    max_iter: the iteration limit the run had (None when it has none, e.g. psvm)."""

    alpha: np.ndarray | None
    n_iter: int
    stop: StopReason
    status: str
    max_iter: int | None = None
    b: float | None = None
    G: np.ndarray | None = None
    trace: list | None = None
    trace_truncated: bool = False
    alpha0: np.ndarray | None = None      # the start actually used (replays begin there)
    columns: tuple | None = None          # SMO's kernel column cache, for the next warm start
    w_primal: np.ndarray | None = None    # the primal solvers' own w and b (qp primal, newton,
    b_primal: float | None = None         # psvm linear), beside the w that α gives
    refined_iter: int = 0                 # a warm refit's steps past tol (`warmstart.refit`)

    @property
    def converged(self) -> bool:
        return self.stop is StopReason.CONVERGED

    def but(self, **changes) -> SolverResult:
        """A copy with some fields changed."""
        return replace(self, **changes)


def stop_reason(converged: bool, it: int, max_iter: int, time_budget: float | None) -> StopReason:
    """The stop of an iterative loop that ends at its rule, at max_iter or at its deadline
    (a stop before max_iter that is not converged is the clock's)."""
    if converged:
        return StopReason.CONVERGED
    if time_budget is not None and it < max_iter:
        return StopReason.TIME_BUDGET
    return StopReason.MAX_ITER
