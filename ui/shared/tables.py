"""The per-point table and the numbers panel (pure: model → pandas / text; every number
printed by ``ui.shared.numbers``)."""

from __future__ import annotations

import math

import numpy as np
import pandas as pd

from ui.shared import fit_words
from ui.shared.labels import solver_text
from ui.shared.numbers import MINUS, fmt_fixed, fmt_num, fmt_pct, hyperplane_equation
from ui.shared.sv_labels import point_labels

POINT_COLUMNS = ["i", "x1", "x2", "y", "α", "h(x)", "y·h(x)", "ξ", "category"]


def point_table(
    model=None, X: np.ndarray | None = None, y: np.ndarray | None = None
) -> pd.DataFrame:
    """One row per point: i (1-based, as x₁…xₙ in the book), x1, x2, y, α, h(x), y·h(x), ξ,
    category by ``ui.shared.sv_labels.point_labels`` (its LABEL_LEGEND says what each means).

    Without a model (or when ``X`` is not the model's training set) only i, x1, x2, y are
    filled; the model columns are empty (NaN / "").
    """
    if X is None:
        if model is None:
            raise ValueError("point_table needs a model or the points X, y")
        X, y = model.X, model.y
    X = np.asarray(X, dtype=float).reshape(-1, 2)
    y = np.where(np.asarray(y).reshape(-1) > 0, 1, -1)
    n = len(X)
    df = pd.DataFrame(
        {
            "i": np.arange(1, n + 1),
            "x1": X[:, 0],
            "x2": X[:, 1],
            "y": y,
        }
    )
    same = (
        model is not None
        and np.shape(model.X) == X.shape
        and np.array_equal(np.asarray(model.X, dtype=float), X)
        and np.array_equal(np.where(np.asarray(model.y) > 0, 1, -1), y)
    )
    if same:
        h = np.asarray(model.h_train, dtype=float)
        df["α"] = np.asarray(model.alpha, dtype=float)
        df["h(x)"] = h
        df["y·h(x)"] = y * h
        df["ξ"] = np.asarray(model.xi, dtype=float)
        df["category"] = point_labels(model)
    else:
        for c in ("α", "h(x)", "y·h(x)", "ξ"):
            df[c] = np.nan
        df["category"] = ""
    return df[POINT_COLUMNS]


def with_distance(df: pd.DataFrame, model) -> pd.DataFrame:
    """``point_table``'s frame with the column δ = y·h(x)/‖w‖ after y·h(x): each point's
    distance to the hyperplane, positive on its own side (slide 6; ‖w‖ in feature space)."""
    out = df.copy()
    norm = float(getattr(model, "w_norm", math.nan)) if model is not None else math.nan
    delta = out["y·h(x)"] / norm if norm > 0 else np.nan
    out.insert(out.columns.get_loc("y·h(x)") + 1, DELTA_COLUMN, delta)
    return out


DELTA_COLUMN = "δ = y·h(x)/‖w‖"

#: the numbers panel's row beside "margin 1/‖w‖"
WIDTH_ROW = "width between the planes 2/‖w‖"
#: the margin convention, said wherever a margin is shown (docs/pages.md, "Conventions")
MARGIN_CONVENTION = "PSVM's and the KKT note's “margin”; the book's is 1/‖w‖"


def model_summary(model, names=("x1", "x2"), *, student: bool = False
                  ) -> list[tuple[str, str]]:  # fmt: skip
    """(label, value) rows for the numbers panel; ``student``: the student view's
    (``student_rows``)."""
    rows = _summary_rows(model, names)
    return student_rows(model, rows) if student else rows


#: the numbers panel's rows the student view leaves out: the solver's run, not the chapter's
STUDENT_HIDDEN_ROWS = ("time",)


def student_rows(model, rows: list[tuple[str, str]]) -> list[tuple[str, str]]:
    """The student view's numbers panel: no time, the solver without its working-set rule,
    the iterations without the polish's note."""
    shown = {"solver": solver_text(model.solver), "iterations": iterations_text(model.n_iter)}
    return [(k, shown.get(k, v)) for k, v in rows if k not in STUDENT_HIDDEN_ROWS]


def _summary_rows(model, names) -> list[tuple[str, str]]:
    rows: list[tuple[str, str]] = []
    w = model.w
    if w is not None:
        rows.append(("w", "(" + ", ".join(fmt_num(v) for v in w) + ")"))
    rows.append(("b", fmt_num(model.b)))
    if w is not None:
        rows.append(("hyperplane", hyperplane_equation(w, model.b, names)))
    rows.append(("margin 1/‖w‖", fmt_num(model.margin)))
    # the Proximal SVM slides and the KKT note call 2/‖w‖ "the margin": say which is which
    rows.append((WIDTH_ROW, f"{fmt_num(2 * model.margin)} ({MARGIN_CONVENTION})"))
    rows.append(("support vectors", support_text(model)))
    rows.append(("primal objective", fmt_num(model.primal_objective, 6)))
    rows.append(("dual objective", fmt_num(model.dual_objective, 6)))
    rows.append(("total slack Σξ", fmt_num(float(np.sum(model.xi)), 4)))
    rows.append(("training accuracy", fmt_pct(model.training_accuracy)))
    rows.append(("solver", solver_text(model.solver, model.wss)))
    rows.append(("iterations", iterations_text(model.n_iter)
                 + (POLISHED_TEXT if polished_visibly(model) else "")))
    rows.append(("time", f"{fmt_fixed(1000 * model.time_s, 1)} ms"))
    rows.append(("converged", converged_text(model)))
    return rows


#: after the iterations of a fit whose stop was polished (svm_engine/polish.py): why its
#: numbers differ in the last digits from the algorithm's own stop (Worked example 3)
POLISHED_TEXT = (", then polished: the optimality equations solved exactly on its support "
                 "vectors (the algorithm's own stop, as the Worked examples show it, differs "
                 "in the last digits)")


def polished_visibly(model) -> bool:
    """SGA's stop at ε is far enough from the optimum to show in the printed digits (slide 34:
    2.748 against 2.746); SMO's polish changes digits no page prints."""
    return model.solver == "sga" and model.diagnostics is not None and model.diagnostics.polished


def iterations_text(n_iter: int) -> str:
    """The iteration count; 0 says why (a refit that started from the previous answer, which
    already met the optimality conditions, moved no α)."""
    if n_iter == 0:
        return "0: no α had to change (the start was already optimal)"
    return str(n_iter)


def support_text(model) -> str:
    """'3 (3 free, 0 bound)', with what a student needs to read the count: PSVM's α have
    either sign (every point is a support vector), and when more points lie on the margin
    with α = 0 than are needed, α is not unique (D1: the book lists 5 where SMO uses 3)."""
    if model.solver == "psvm":
        neg = int(np.sum(model.alpha < 0))
        return f"{model.n_support}: every point (PSVM's α have either sign: {neg} negative)"
    text = f"{model.n_support} ({len(model.free_support)} free, {len(model.bound_support)} bound)"
    yh = np.asarray(model.y) * np.asarray(model.h_train)
    idle = int(np.sum((np.abs(yh - 1.0) <= 1e-6) & (np.asarray(model.alpha) == 0)))
    if idle and model.converged:
        text += (f"; {idle} more on the margin with α = 0: α is not unique here, another "
                 "optimal α uses them too")
    return text


def converged_text(model) -> str:
    """"yes" when the engine's independent check passed, else "not converged: what failed —
    try …" (`fit_words.status_text`, from the engine's diagnostics)."""
    if model.converged:
        return "yes"
    status = fit_words.status_text(model)
    return status if status.startswith("not converged") else f"not converged: {status}"


class EditorError(ValueError):
    """A table edit that cannot be applied; the message is meant for the user."""


def _cell_number(v, what: str) -> float:
    if v is None or isinstance(v, bool):
        raise EditorError(f"{what} is empty; fill in a number")
    if isinstance(v, str):
        v = v.strip().replace(MINUS, "-")
    try:
        f = float(v)
    except (TypeError, ValueError):
        raise EditorError(f"{what} {str(v)[:20]!r} is not a number") from None
    if not math.isfinite(f):
        raise EditorError(f"{what} must be a finite number")
    return f


def _cell_label(v, what: str) -> int:
    f = _cell_number(v, what)
    if f not in (1.0, -1.0):
        raise EditorError(f"{what} must be +1 or −1, got {fmt_num(f)}")
    return int(f)


def apply_editor_changes(
    X: np.ndarray, y: np.ndarray, changes, max_points: int
) -> tuple[np.ndarray, np.ndarray]:
    """Apply ``st.data_editor`` changes ({"edited_rows", "added_rows", "deleted_rows"}) on
    the columns x1, x2, y to the points. Raises EditorError (points untouched) if an edit is
    not a finite number, a label is not ±1, a new row is incomplete or there would be too
    many points."""
    X = np.asarray(X, dtype=float).reshape(-1, 2)
    y = np.asarray(y).reshape(-1)
    rows = [[float(a), float(b), int(lab)] for (a, b), lab in zip(X, y, strict=True)]
    if not isinstance(changes, dict):
        return X.copy(), y.copy()
    cols = {"x1": 0, "x2": 1, "y": 2}
    for key, edit in (changes.get("edited_rows") or {}).items():
        try:
            r = int(key)
        except (TypeError, ValueError):
            raise EditorError(f"unknown row {key!r}") from None
        if not (0 <= r < len(rows)) or not isinstance(edit, dict):
            raise EditorError(f"row {key} does not exist")
        for col, val in edit.items():
            if col not in cols:
                continue  # read-only columns (i, α, …) are ignored
            what = f"row {r + 1}, {col}"
            rows[r][cols[col]] = _cell_label(val, what) if col == "y" else _cell_number(val, what)
    deleted = set()
    for key in changes.get("deleted_rows") or []:
        try:
            deleted.add(int(key))
        except (TypeError, ValueError):
            raise EditorError(f"unknown row {key!r}") from None
    rows = [r for i, r in enumerate(rows) if i not in deleted]
    for k, new in enumerate(changes.get("added_rows") or [], start=1):
        if not isinstance(new, dict):
            raise EditorError(f"new row {k} is not valid")
        what = f"new row {k}"
        rows.append(
            [
                _cell_number(new.get("x1"), f"{what}, x1"),
                _cell_number(new.get("x2"), f"{what}, x2"),
                _cell_label(new.get("y"), f"{what}, y"),
            ]
        )
    if len(rows) > max_points:
        raise EditorError(f"too many points: {len(rows)} (at most {max_points})")
    if not rows:
        return np.zeros((0, 2)), np.zeros(0, dtype=np.int64)
    arr = np.array(rows, dtype=float)
    return arr[:, :2].copy(), arr[:, 2].astype(np.int64)


def option_values(grid, current: float) -> list[float]:
    """Slider options: ``grid`` plus ``current`` (kept exact, so a link or a book setting
    such as C = 4 is not rounded away), sorted."""
    vals = {float(v) for v in grid}
    vals.add(float(current))
    return sorted(vals)


def log_grid(lo_exp: int, hi_exp: int, mantissas=(1, 1.5, 2, 3, 4, 5, 7)) -> list[float]:
    """1, 1.5, 2, 3, 4, 5, 7 × 10^k for k in [lo_exp, hi_exp), then 10^hi_exp."""
    out = [float(f"{m}e{k}") for k in range(lo_exp, hi_exp) for m in mantissas]
    return [*out, float(f"1e{hi_exp}")]
