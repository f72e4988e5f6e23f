"""How a task of the fit pool (``ui.serving.fit_pool``) can end without its result; the
pages and the endpoint turn each into words (``ui.serving.budget``)."""

from __future__ import annotations

from ui.shared.numbers import fmt_fixed, fmt_setting


class PoolError(RuntimeError):
    """The pool could not run the task (the subclasses say why)."""


class BudgetExceeded(PoolError):
    """The task ran out of its wall-time budget; its worker was killed."""

    def __init__(self, budget_s: float, elapsed_s: float):
        super().__init__(f"stopped after {fmt_fixed(elapsed_s, 1)} s (budget "
                         f"{fmt_setting(budget_s)} s)")
        self.budget_s = budget_s
        self.elapsed_s = elapsed_s


class Cancelled(PoolError):
    """The caller stopped waiting (``should_stop()``); the worker was killed if it ran."""


class PoolBusy(PoolError):
    """Every worker of the lane stayed busy for the whole queue wait."""


class WorkerDied(PoolError):
    """The worker process ended without an answer (killed from outside, out of memory)."""
