"""What the Generalisation page computes (pure functions of plain values, run in a fit worker
within the time budget by the page): one seeded train/test split, and k-fold cross-validation
over a grid with the model of the best cell fitted on every point. The numbers come from
`svm_engine.model_selection`; nothing here imports streamlit.
"""

from __future__ import annotations

import warnings
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

import svm_engine as se
from svm_engine import model_selection as ms
from ui.shared import fit_words
from ui.shared.fitting import PAGE_TIME_BUDGET

C_OPTIONS = (0.01, 0.1, 1.0, 10.0, 100.0, 1000.0, 10000.0)
SIGMA_OPTIONS = (0.05, 0.1, 0.2, 0.5, 1.0, 2.0, 5.0)
DEGREE_OPTIONS = (1, 2, 3, 4, 5, 6)
#: The default grid: 4 × 4 cells, 3 folds (48 fits), from an overfitting corner (C = 100,
#: σ = 0.05) to an underfitting one (C = 0.1, σ = 5). On the default 200 moons it takes
#: ~0.08 s of CPU and 0.3–0.6 s of wall time with the other core busy under load
#: (benchmarks/bench_model_selection.py --page --busy): well inside CV_BUDGET_S, where the
#: former 5 × 5 × 5 folds (0.35 s of CPU) ran past it under load.
DEFAULT_CS = (0.1, 1.0, 10.0, 100.0)
DEFAULT_SIGMAS = (0.05, 0.2, 1.0, 5.0)
DEFAULT_DEGREES = (1, 2, 3)
DEFAULT_K = 3
#: The polynomial kernel's c on this page: (xᵀz + 1)^q, slide 29's form.
COEF0 = 1.0
#: The grid stops starting fits after this many seconds (of the 2 s budget: the model of the
#: best cell is fitted after it, and the answer goes back to the page).
CV_BUDGET_S = 1.2


def kernel_of(family: str, value):
    return ms.grid_kernel(family, value, COEF0)


def _fit_notes(caught) -> str | None:
    return fit_words.warning_note(caught)


@dataclass(frozen=True)
class SplitOutcome:
    result: ms.SplitResult
    warning: str | None


def split_run(X, y, family: str, value, C: float, test_fraction: float,
              seed: int) -> SplitOutcome:
    """Fit on the training part of a seeded stratified split; both accuracies."""
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always", se.ConvergenceWarning)
        r = ms.split_and_fit(np.asarray(X, float), np.asarray(y), kernel_of(family, value), C,
                             test_fraction=test_fraction, seed=seed)
    return SplitOutcome(result=r, warning=_fit_notes(caught))


@dataclass(frozen=True)
class CVOutcome:
    grid: ms.GridResult
    model: object | None      # fitted on every point at the best cell (None: no cell done)
    warning: str | None


def cv_run(X, y, family: str, Cs: Sequence, values: Sequence, k: int, seed: int,
           budget_s: float = CV_BUDGET_S) -> CVOutcome:
    """Cross-validation over Cs × values, then the best cell's model on all the points."""
    X, y = np.asarray(X, float), np.asarray(y)
    grid = ms.cross_validate(X, y, family, list(Cs), list(values), k=k, seed=seed,
                             coef0=COEF0, budget_s=budget_s)
    if grid.best_params is None:
        return CVOutcome(grid=grid, model=None, warning=None)
    p = grid.best_params
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always", se.ConvergenceWarning)
        model = se.fit(X, y, kernel=kernel_of(family, p[grid.param]), C=p["C"],
                       max_iter=ms.fit_max_iter(len(X)), time_budget=PAGE_TIME_BUDGET)
    return CVOutcome(grid=grid, model=model, warning=_fit_notes(caught))
