"""The engine call the pages cache: pure functions of plain values (no streamlit).

``fit_points`` never raises for bad input: it returns a ``FitOutcome`` with the model or
with a message for ``st.error`` / ``st.warning``, so a page can cache it and show the result.
"""

from __future__ import annotations

import hashlib
import logging
import math
import threading
import warnings
from collections import OrderedDict
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

import numpy as np

import svm_engine as se
from svm_engine.solvers import registry
from svm_engine.solvers.smo import interactive_max_iter
from ui.serving import costs
from ui.shared import fit_words, tables
from ui.shared.labels import SOLVER_NAMES
from ui.shared.settings import effective_C, settings_to_kernel

log = logging.getLogger(__name__)

#: Solvers that accept a warm start (``alpha0``).
WARM_START_SOLVERS = tuple(s.key for s in registry.SOLVERS if s.takes_alpha0)


#: SMO's stopping tolerance on the pages (m(α) − M(α) ≤ tol). The engine's default 1e-3 is
#: LIBSVM's; at 1e-3 D1 shows b = −3.334 and a duality gap in the 4th digit, at 1e-5 the
#: exact −3.333 and primal = dual to 6 digits, for a few more steps (D1: 11 → 17).
SMO_TOL = 1e-5
#: se.fit's own time limit for a page's fit: none. A page's fit runs in a worker that the
#: fit pool's budget kills (ui/serving/budget.py, the message says what to change), so the
#: same points and settings take the same steps whatever the machine's load
PAGE_TIME_BUDGET = None


def smo_max_iter(n: int) -> int:
    """SMO's iteration cap on every page: the engine's ``interactive_max_iter`` (its reason
    is written there)."""
    return interactive_max_iter(n)


@dataclass(frozen=True)
class FitOutcome:
    """What a fit produced: a model, or ``error`` (then ``model`` is None).

    ``kind`` is "ok", "not_separable", "unsupported", "need_two_classes", "failed" or
    "over_budget" (predicted or stopped over the time budget, ``ui.serving.costs``).
    ``warning`` holds the convergence warning text, if any.
    """

    model: Any = None
    error: str | None = None
    kind: str = "ok"
    warning: str | None = None

    @property
    def ok(self) -> bool:
        return self.model is not None


#: How the pages name the losses and bias forms in their sentences.
_LOSS_WORDS = {"hinge": "the hinge loss (k = 1)", "quadratic": "the quadratic loss (k = 2)"}
_BIAS_WORDS = {"free": "the free bias b", "augmented": "the augmented bias (b in w)"}


def combination_error(settings: Mapping[str, Any], solver: str | None = None) -> str | None:
    """None if ``solver`` (default: the chosen one) can solve this problem, else the reason
    as a sentence for a student: what the solver needs and where to choose it (the engine's
    own message names the API's arguments instead)."""
    from svm_engine.validation import SUPPORT

    solver = solver or settings["solver"]
    try:
        se.check_combination(settings_to_kernel(settings), settings["loss"], settings["bias"],
                             solver, effective_C(settings))  # fmt: skip
    except ValueError as exc:
        need, name = SUPPORT.get(solver), SOLVER_NAMES.get(solver, solver)
        if need is None:
            return str(exc)
        if math.isinf(effective_C(settings)) and settings["loss"] == "quadratic":
            return "the hard margin (C = ∞) needs the hinge loss: choose a finite C"
        if settings["loss"] not in need["loss"]:
            return f"{name} solves {_LOSS_WORDS[need['loss'][0]]} only: choose it under Loss"
        if settings["bias"] not in need["bias"]:
            return f"{name} uses {_BIAS_WORDS[need['bias'][0]]} only: choose it under Bias"
        if math.isinf(effective_C(settings)) and not need["hard"]:
            return f"{name} needs a finite C (no hard margin): turn the hard margin off"
        return str(exc)
    return None


def solver_availability(settings: Mapping[str, Any], n: int | None = None,
                        budget: bool = True) -> dict[str, str | None]:
    """{solver: None if it can solve the problem else the reason} for every solver; with
    ``n`` (and ``budget``), also the reason when it is predicted over the time budget on n
    points (``costs.refusal``)."""
    why = {s: combination_error(settings, s) for s in se.SOLVERS}
    if n is None or not budget:
        return why
    able = [s for s, w in why.items() if w is None]
    for s in able:
        why[s] = costs.refusal("fit", settings, int(n), solver=s, solvers=able)
    return why


def fit_points(
    X: np.ndarray,
    y: np.ndarray,
    settings: Mapping[str, Any],
    alpha0: np.ndarray | None = None,
    warm_start: Any = None,
    budget: bool = True,
) -> FitOutcome:
    """Train on the points with the settings; never raises. ``warm_start``: the model of the
    same settings before an edit (smo: α and gradient carried over), else ``alpha0``.
    A fit predicted over the time budget is refused (kind "over_budget"; ``budget=False``
    runs it anyway, for the benchmark that measures the costs)."""
    X = np.asarray(X, dtype=float).reshape(-1, 2)
    y = np.asarray(y)
    if len(X) == 0 or len(np.unique(y)) < 2:
        return FitOutcome(
            error="Add at least one point of each class (+1 and −1) to train an SVM.",
            kind="need_two_classes",
        )
    reason = combination_error(settings)
    if reason is not None:
        return FitOutcome(error=reason, kind="unsupported")
    reason = costs.refusal("fit", settings, len(X)) if budget else None
    if reason is not None:
        return FitOutcome(error=reason, kind="over_budget")
    if alpha0 is not None and settings["solver"] not in WARM_START_SOLVERS:
        alpha0 = None
    if warm_start is not None and settings["solver"] == "smo":
        alpha0 = None
        if not isinstance(warm_start, se.SVMModel) or len(warm_start.classes) != 2 or not (
            np.array_equal(warm_start.classes, np.unique(y))
        ):
            warm_start = None            # not a model of these labels: a cold start
    else:
        warm_start = None
    try:
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always", se.ConvergenceWarning)
            model = se.fit(
                X,
                y,
                kernel=settings_to_kernel(settings),
                C=effective_C(settings),
                loss=settings["loss"],
                bias=settings["bias"],
                solver=settings["solver"],
                wss=settings["wss"],
                alpha0=alpha0,
                warm_start=warm_start,
                tol=SMO_TOL if settings["solver"] == "smo" else None,
                max_iter=smo_max_iter(len(X)) if settings["solver"] == "smo" else None,
                time_budget=PAGE_TIME_BUDGET,
            )
    except se.NotSeparableError as exc:
        return FitOutcome(error=str(exc), kind="not_separable")
    except ValueError as exc:
        return FitOutcome(error=str(exc), kind="failed")
    except Exception as exc:  # an engine bug must not become a traceback on the page
        log.exception("fit_points: the engine failed")
        return FitOutcome(error=f"The solver failed ({type(exc).__name__}: {exc}).", kind="failed")
    warn = None
    if not model.converged:   # "not converged: …, try …" (fit_words, from its diagnostics)
        warn = tables.converged_text(model)
    elif caught:              # (se.fit warns only when not converged: another's warning)
        warn = fit_words.warning_note(caught)
    return FitOutcome(model=model, warning=warn)


def fit_key(X: np.ndarray, y: np.ndarray, settings: Mapping[str, Any]) -> bytes:
    """A digest of everything a fit depends on (points, labels, settings)."""
    h = hashlib.blake2b(digest_size=16)
    h.update(np.ascontiguousarray(X, dtype=np.float64).tobytes())
    h.update(b"|" + np.ascontiguousarray(y, dtype=np.float64).tobytes() + b"|")
    h.update(repr(sorted((str(k), repr(v)) for k, v in settings.items())).encode())
    return h.digest()


class RecentModels:
    """The last few models by `fit_key`, so that the next refit can start from the one before
    the edit (`svm_engine.warmstart`). A cache of pure results: the key is the whole input
    (the points themselves), so it holds nothing one user could learn about another; bounded
    (``size`` models of ≤ 2,000 points, ~100 KB each plus at most 8 MB of SMO's kernel
    columns, ``kernel_cache.KEEP_COLUMNS_MB``), thread-safe."""

    def __init__(self, size: int = 32):
        self._size = size
        self._items: OrderedDict[bytes, Any] = OrderedDict()
        self._lock = threading.Lock()

    def get(self, key: bytes):
        with self._lock:
            model = self._items.get(key)
            if model is not None:
                self._items.move_to_end(key)
            return model

    def put(self, key: bytes, model) -> None:
        with self._lock:
            self._items[key] = model
            self._items.move_to_end(key)
            while len(self._items) > self._size:
                self._items.popitem(last=False)

    def __len__(self) -> int:
        return len(self._items)


def grid_axes(x_range, y_range, resolution: int = 100) -> tuple[np.ndarray, np.ndarray]:
    """Grid coordinates covering the ranges; the longer side gets ``resolution`` cells and
    the other side is scaled to keep the cells square."""
    (x0, x1), (y0, y1) = x_range, y_range
    wx, wy = max(x1 - x0, 1e-12), max(y1 - y0, 1e-12)
    if wx >= wy:
        nx, ny = resolution, max(10, int(math.ceil(resolution * wy / wx)))
    else:
        nx, ny = max(10, int(math.ceil(resolution * wx / wy))), resolution
    return np.linspace(x0, x1, nx), np.linspace(y0, y1, ny)


def decision_grid(model, x_range, y_range, resolution: int = 100):
    """(xs, ys, H) with H[j, i] = h(xs[i], ys[j]) (float32, what plotly draws)."""
    xs, ys = grid_axes(x_range, y_range, resolution)
    gx, gy = np.meshgrid(xs, ys)
    Z = np.column_stack([gx.ravel(), gy.ravel()])
    H = np.asarray(model.decision_function(Z), dtype=float).reshape(len(ys), len(xs))
    H = np.nan_to_num(H, nan=0.0, posinf=1e6, neginf=-1e6)
    return xs, ys, H.astype(np.float32)
