"""The scaling run: each solver's time against n on generated data, and its log–log slope.

For n in a geometric range (default 50 … 2,000) the solvers of the comparison table fit the
same generated points; the time is the wall time of the whole ``se.fit`` (problem build +
solve + finalize), the minimum of up to three repeats when a fit takes under 50 ms. The slope
of log t against log n estimates the exponent p in t ≈ c·nᵖ (SMO ≈ 1–2, cvxopt ≈ 3).

A solver is not run at a size where its time, extrapolated from its previous size with
exponent 3 (cvxopt, kernel Newton: O(n³) per iteration) or 2 (the others), would exceed the
budget (``costs.BUDGET_S``): cvxopt at n = 2,000 would take ~15 s. On the page every fit
also runs in a worker that is killed at the budget (the page's ``scaling_fit``).

Cancellation: ``should_stop()`` is asked before every fit, so a cancel takes effect within one
fit (≤ the budget). Nothing here is shared between calls — no module state, no locks, no
cache — so concurrent runs in other browser sessions neither wait for nor see each other.

| symbol | here       | meaning                                             |
|--------|------------|-----------------------------------------------------|
| n      | `n`        | number of generated points                           |
| t(n)   | `time_s`   | wall time of one fit (seconds)                       |
| p      | `slope`    | least-squares slope of log t against log n            |
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np

import svm_engine as se
from svm_engine import datasets
from ui.compare import comparison as cmp
from ui.serving.costs import BUDGET_S
from ui.shared.numbers import fmt_fixed, fmt_setting
from ui.shared.settings import settings_to_kernel

N_MIN, N_MAX = 50, 2000
DEFAULT_COUNT = 6
REPEAT_BELOW_S = 0.05
REPEATS = 3
WARMUP_N = 20
SCALING_TEXT = (
    "Each solver above fits generated data for n from the range below (soft margin, the "
    "kernel, loss and C chosen here, the tolerance chosen in the sidebar). A solver is "
    f"skipped at a size where it would take more than {fmt_setting(BUDGET_S)} s (cvxopt beyond "
    "n ≈ 1,000), and stopped if a fit runs longer. The run belongs to this session only; "
    "Stop ends it at once.")


def size_range(n_min: int = N_MIN, n_max: int = N_MAX,
               count: int = DEFAULT_COUNT) -> tuple[int, ...]:
    """``count`` sizes from n_min to n_max, evenly spaced on a log axis (rounded, distinct)."""
    n_min, n_max, count = int(n_min), int(n_max), int(count)
    if not (4 <= n_min <= n_max):
        raise ValueError(f"need 4 ≤ n_min ≤ n_max, got n_min = {n_min}, n_max = {n_max}")
    if count < 1:
        raise ValueError(f"count must be ≥ 1, got {count}")
    if count == 1 or n_min == n_max:
        return (n_max,)
    grid = np.round(np.geomspace(n_min, n_max, count)).astype(int)
    return tuple(int(v) for v in dict.fromkeys(grid.tolist()))


def scaling_settings(settings: Mapping[str, Any]) -> dict:
    """The table's settings with a soft margin: generated classes overlap, and the hard
    margin (C = ∞) has no solution there."""
    s = dict(settings)
    s["hard_margin"] = False
    return s


def default_generator(settings: Mapping[str, Any]) -> str:
    return "blobs" if settings.get("kernel", "linear") == "linear" else "moons"


def exponent(spec: cmp.RowSpec, kernel) -> float:
    """The growth assumed when extrapolating to the next size (worst case, see module doc)."""
    kernel_system = spec.solver in ("newton", "psvm") and not isinstance(kernel, se.Linear)
    cubic = spec.solver == "qp" or kernel_system
    return 3.0 if cubic else 2.0


def predict(n_prev: int, t_prev: float, n: int, p: float) -> float:
    """t(n) ≈ t(n_prev)·(n / n_prev)ᵖ."""
    return t_prev * (n / n_prev) ** p


def fit_slope(ns: Sequence[float], ts: Sequence[float]) -> float | None:
    """Least-squares slope of log t on log n (None with fewer than two distinct sizes)."""
    pts = [(math.log(n), math.log(t)) for n, t in zip(ns, ts) if n > 0 and t and t > 0]
    if len({p[0] for p in pts}) < 2:
        return None
    a = np.array(pts)
    return float(np.polyfit(a[:, 0], a[:, 1], 1)[0])


@dataclass(frozen=True)
class Measurement:
    key: str
    label: str
    n: int
    time_s: float | None = None  # None: not run (skipped, failed or cancelled)
    n_iter: int | None = None
    converged: bool | None = None
    note: str | None = None


@dataclass
class ScalingResult:
    sizes: tuple[int, ...]
    labels: dict[str, str]  # row key → label, in table order
    measurements: list[Measurement] = field(default_factory=list)
    planned: int = 0
    status: str = "running"  # "running", "done" or "cancelled"
    elapsed_s: float = 0.0
    generator: str = "blobs"
    problem: str = ""  # kernel, loss and C, for the figure's title

    def series(self, key: str) -> tuple[list[int], list[float]]:
        """(n, time in s) of the measured fits of one solver."""
        ms = [m for m in self.measurements if m.key == key and m.time_s is not None]
        return [m.n for m in ms], [float(m.time_s) for m in ms]

    def slope(self, key: str) -> float | None:
        return fit_slope(*self.series(key))

    def notes(self) -> list[Measurement]:
        return [m for m in self.measurements if m.note]


def _data(generator: str, n: int, seed: int, noise: float | None):
    params: dict[str, Any] = {"n": n, "seed": seed}
    if noise is not None:
        params["noise"] = noise
    ds = datasets.load(generator, **params)
    return ds.X, ds.y


def timed_fit_row(X, y, kernel, C, spec, tol, max_iter, clock=time.perf_counter):
    """(``compare.fit_row``'s Run, its wall time in seconds): one fit of the run."""
    t0 = clock()
    run = cmp.fit_row(X, y, kernel, C, spec, tol=tol, max_iter=max_iter)
    return run, clock() - t0


def run_scaling(
    specs: Sequence[cmp.RowSpec],
    settings: Mapping[str, Any],
    sizes: Sequence[int] | None = None,
    *,
    generator: str | None = None,
    noise: float | None = None,
    seed: int = 0,
    tol_mode: str = "default",
    budget_s: float = BUDGET_S,
    progress: Callable[[int, int, str], None] | None = None,
    should_stop: Callable[[], bool] | None = None,
    on_update: Callable[[ScalingResult], None] | None = None,
    clock: Callable[[], float] = time.perf_counter,
    fit: Callable | None = None,
) -> ScalingResult:
    """Time every row spec at every size (default ``size_range()``).

    ``progress(done, total, text)`` after each fit; ``on_update(result)`` after each
    measurement (the partial result, e.g. to keep it in the session); ``should_stop()`` before
    each fit: True ends the run with status "cancelled". ``fit(X, y, kernel, C, spec, tol,
    max_iter)`` → (Run, seconds) runs one fit (default: ``timed_fit_row`` here; the page
    passes its ``scaling_fit``, a worker with the time budget, whose seconds are None
    when it stopped the fit: the solver is then skipped at larger n)."""
    if fit is None:
        def fit(X, y, kernel, C, spec, tol, max_iter):
            return timed_fit_row(X, y, kernel, C, spec, tol, max_iter, clock)
    settings = scaling_settings(settings)
    kernel = settings_to_kernel(settings)
    C = float(settings["C"])
    generator = generator or default_generator(settings)
    sizes = tuple(sorted(int(n) for n in (size_range() if sizes is None else sizes)))
    specs = list(specs)
    labels = {s.key: s.full_label for s in specs}
    extra = {"gaussian": f" σ = {fmt_setting(settings['sigma'])}",
             "polynomial": f" q = {settings['degree']}, c = {fmt_setting(settings['coef0'])}"}
    problem = (f"{settings['kernel']}{extra.get(settings['kernel'], '')}, "
               f"{settings['loss']} loss, C = {fmt_setting(C)}")
    res = ScalingResult(sizes, labels, planned=len(sizes) * len(specs), generator=generator,
                        problem=problem)
    t_start = clock()
    stop = should_stop or (lambda: False)

    def finish(status: str) -> ScalingResult:
        res.status = status
        res.elapsed_s = clock() - t_start
        if on_update:
            on_update(res)
        return res

    # load compiled code / import cvxopt before timing (not counted)
    Xw, yw = _data(generator, WARMUP_N, seed, noise)
    for spec in specs:
        if stop():
            return finish("cancelled")
        fit(Xw, yw, kernel, C, spec, cmp.tolerance(spec, tol_mode), None)

    last: dict[str, tuple[int, float]] = {}
    capped: set[str] = set()
    done = 0
    for n in sizes:
        X, y = _data(generator, n, seed, noise)
        for spec in specs:
            if stop():
                return finish("cancelled")
            done += 1
            m = _measure(spec, n, X, y, kernel, C, tol_mode, budget_s, last, capped, fit)
            res.measurements.append(m)
            res.elapsed_s = clock() - t_start
            if m.time_s is not None:
                last[spec.key] = (n, m.time_s)
            if on_update:
                on_update(res)
            if progress:
                progress(done, res.planned, f"n = {n}: {labels[spec.key]} ({done}/{res.planned})")
    return finish("done")


def _measure(spec, n, X, y, kernel, C, tol_mode, budget_s, last, capped, fit) -> Measurement:
    key, label = spec.key, spec.full_label
    if key in capped:
        return Measurement(key, label, n, note="skipped (over the time budget at a smaller n)")
    if key in last:
        n_prev, t_prev = last[key]
        guess = predict(n_prev, t_prev, n, exponent(spec, kernel))
        if guess > budget_s:
            capped.add(key)
            return Measurement(key, label, n, note=f"skipped: would take ≈ {fmt_fixed(guess, 0)} s "
                               f"(> {fmt_setting(budget_s)} s budget)")
    tol = cmp.tolerance(spec, tol_mode)
    cap = cmp.default_max_iter(spec, n, kernel)
    run, t = fit(X, y, kernel, C, spec, tol, cap)
    if t is None:  # stopped at the time budget: larger n would be stopped too
        capped.add(key)
        return Measurement(key, label, n, note=f"stopped: {run.error}")
    if run.model is None:
        return Measurement(key, label, n, note=f"failed: {run.error}")
    for _ in range(REPEATS - 1):
        if t >= REPEAT_BELOW_S:
            break
        again = fit(X, y, kernel, C, spec, tol, cap)[1]
        t = t if again is None else min(t, again)
    conv = bool(run.model.converged)
    return Measurement(key, label, n, t, int(run.model.n_iter), conv,
                       None if conv else "did not converge (time shown anyway)")
