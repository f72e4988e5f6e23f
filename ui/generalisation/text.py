"""The Generalisation page's sentences (pure: results in, words out)."""

from __future__ import annotations

import numpy as np

from svm_engine import model_selection as ms
from ui.shared.numbers import fmt_fixed, fmt_pct, fmt_setting

#: Training accuracy this much above test accuracy is called overfitting (and test accuracy
#: this much above training accuracy, luck of the split).
GAP = 0.1
#: An accuracy below this is called low (underfitting, when the training accuracy is).
LOW = 0.8


def points(fraction) -> str:
    """A difference of two accuracies in percentage points: 0.27 → "27.0 percentage points"
    (accuracies print as percentages on every page: fmt_pct)."""
    return f"{fmt_fixed(100.0 * float(fraction), 1)} percentage points"


def param_text(param: str, value) -> str:
    return f"σ = {fmt_setting(value)}" if param == "sigma" else f"q = {int(value)}"


def split_sentence(r: ms.SplitResult) -> str:
    """The two accuracies, and what their difference says."""
    head = (f"Training accuracy **{fmt_pct(r.train_accuracy)}** on the {len(r.train)} "
            f"points the model was fitted on; test accuracy **{fmt_pct(r.test_accuracy)}** "
            f"on {len(r.test)} "
            "points it never saw. ")
    gap = r.train_accuracy - r.test_accuracy
    if gap >= GAP:
        return head + (f"It does {points(gap)} better on its own points than on new ones: "
                       "**overfitting** — the boundary follows the noise of the training "
                       "points. A larger σ (a lower degree) or a smaller C smooths it.")
    # the words must agree with both numbers: "both are low" only when both are
    simple = ("the boundary is too simple for these points. A smaller σ (a higher degree) "
              "or a larger C lets it bend.")
    lucky = (f"The test accuracy is {points(-gap)} higher than the training accuracy: a model "
             f"does not do better on points it never saw — these {len(r.test)} test points "
             "happened to be easier ones (luck of the split: another seed, or the "
             "cross-validation below, which holds out every point once, gives a steadier "
             "figure). ") if -gap >= GAP else ""
    if r.train_accuracy < LOW and r.test_accuracy < LOW:
        return head + lucky + "Both are low: **underfitting** — " + simple
    if r.train_accuracy < LOW:
        return head + lucky + ("The training accuracy is low: **underfitting** — " + simple)
    if lucky:
        return head + lucky
    return head + "The two are close: this model generalises about as well as it fits."


def _complex_cell(grid: ms.GridResult) -> tuple[int, int]:
    """The most flexible finished cell: the largest C with the smallest σ (largest degree)."""
    done = [(i, j) for i in range(len(grid.Cs)) for j in range(len(grid.values))
            if grid.done[i, j]]
    sign = 1.0 if grid.param == "sigma" else -1.0
    return max(done, key=lambda ij: (grid.Cs[ij[0]], -sign * grid.values[ij[1]]))


def overfit_sentence(grid: ms.GridResult) -> str:
    """Training against held-out accuracy at the most flexible cell and at the best one."""
    if grid.best is None:
        return ""
    cv, tr = grid.mean_accuracy, grid.mean_train_accuracy
    bi, bj = grid.best
    best = (f"The best cell, C = {fmt_setting(grid.Cs[bi])}, "
            f"{param_text(grid.param, grid.values[bj])}, scores {fmt_pct(cv[bi, bj])} on "
            f"held-out points (training {fmt_pct(tr[bi, bj])}).")
    ci, cj = _complex_cell(grid)
    if (ci, cj) == (bi, bj):
        return best + " It is also the most flexible cell of the grid: try smaller σ or larger C."
    gap = tr[ci, cj] - cv[ci, cj]
    where = f"At C = {fmt_setting(grid.Cs[ci])}, {param_text(grid.param, grid.values[cj])}"
    if gap >= GAP:
        return (f"{where} (the most flexible cell) the models fit their training folds with "
                f"accuracy {fmt_pct(tr[ci, cj])} but score only {fmt_pct(cv[ci, cj])} "
                f"on the fold they did not see: that gap of {points(gap)} is "
                "**overfitting**. " + best)
    return (f"{where} (the most flexible cell) training {fmt_pct(tr[ci, cj])} and held-out "
            f"{fmt_pct(cv[ci, cj])} stay within {points(GAP)}: no overfitting shows on "
            "this grid. " + best)


def unfinished_text(grid: ms.GridResult) -> str:
    """The cells a stopped grid did not finish, row by row: "C = 100 (σ = 1, 5); C = 1000
    (every σ)"; "" when every cell is done."""
    name = "σ" if grid.param == "sigma" else "q"
    rows: dict = {}
    for C, v in grid.unfinished:
        rows.setdefault(C, []).append(v)
    return "; ".join(
        f"C = {fmt_setting(C)} (every {name})" if len(vs) == len(grid.values) else
        f"C = {fmt_setting(C)} ({name} = {', '.join(fmt_setting(v) for v in vs)})"
        for C, vs in rows.items())


def cv_sentence(grid: ms.GridResult) -> str:
    folds = f"{grid.k}-fold cross-validation"
    acc = grid.mean_accuracy
    n_cells = int(grid.done.sum())
    if n_cells == 0:
        return f"{folds}: {grid.summary}."
    spread = float(np.nanmax(acc) - np.nanmin(acc))
    missing = f" Not finished: {unfinished_text(grid)}." if grid.stopped else ""
    return (f"{folds}: each cell is the mean accuracy on the held-out fold over the {grid.k} "
            f"folds; {grid.summary}. Accuracies across the grid span {points(spread)}; "
            "ties go to "
            "the simplest model (smaller C, then larger σ or lower degree)." + missing)
