"""The exercises' pictures and their fits: the book's datasets, a teacher's own points, the
seeded moves that make a student's variant, and the engine's fit with the Playground's
settings (so a task shows the numbers the Playground shows for the same points).

Every fit here is small (≤ ``MAX_POINTS`` points), deterministic (the engine's SMO takes the
same steps for the same input) and bounded in time (``FIT_BUDGET``: the engine stops SMO/SGA
there, and the model says it did not converge, which a variant rejects).
"""

from __future__ import annotations

import json
import math
import warnings
from collections.abc import Mapping
from functools import lru_cache
from typing import Any

import numpy as np

import svm_engine as se
from svm_engine import datasets
from ui.shared import fit_words
from ui.shared.fitting import SMO_TOL, combination_error, smo_max_iter
from ui.shared.markdown import kernel_text
from ui.shared.numbers import fmt_setting
from ui.shared.settings import Settings, effective_C, settings_to_kernel

from .common import flag

#: the book's pictures an exercise may use, by the name a screen gives
DATASETS = {"D1": "d1", "D2": "d2", "two_point": "two_point"}
#: a teacher's own picture (a Playground link) may hold at most this many points: every fit
#: of an exercise stays in the milliseconds, and a marked answer fits ANSWER_MAX
MAX_POINTS = 60
#: coordinates a picture may use (the Playground's canvas is far smaller)
COORD_MAX = 1e3
#: seconds one exercise fit may take (the engine's time_budget for SMO and SGA)
FIT_BUDGET = 2.0
#: |y·h(x) − 1| below this: the point lies on its margin (the certificate's digits on the
#: book's data; a teacher's clicked points that near are drawn on the line)
ON_MARGIN = 1e-4


def book(dataset: str) -> tuple[np.ndarray, np.ndarray, dict]:
    """(X, y, Playground settings) of a book dataset: D1, D2 or two_point."""
    d = datasets.load(DATASETS[dataset])
    return d.X.astype(float), d.y.astype(int), Settings.from_dataset(d.settings).as_dict()


def custom(X: Any, y: Any, settings: Any) -> tuple[np.ndarray, np.ndarray, dict]:
    """A teacher's picture, checked: ValueError naming what is wrong."""
    try:
        X = np.asarray(X, dtype=float)
        y = np.asarray(y, dtype=float)
    except (TypeError, ValueError):
        raise ValueError("X must be a list of [x1, x2] pairs and y a list of +1/−1") from None
    if X.ndim != 2 or X.shape[1] != 2 or len(X) < 2:
        raise ValueError(f"X must hold at least two [x1, x2] pairs, got shape {X.shape}")
    if len(X) > MAX_POINTS:
        raise ValueError(f"an exercise's picture holds at most {MAX_POINTS} points, "
                         f"got {len(X)}")
    if not np.isfinite(X).all() or np.abs(X).max() > COORD_MAX:
        raise ValueError(f"X must be finite coordinates within ±{fmt_setting(COORD_MAX)}")
    if y.shape != (len(X),) or not np.isin(y, (-1.0, 1.0)).all():
        raise ValueError("y must hold one label, +1 or −1, per point of X")
    if len(np.unique(y)) < 2:
        raise ValueError("the picture needs points of both classes (+1 and −1)")
    return X, y.astype(int), Settings.parse(settings or {}).as_dict()


def fit(X: np.ndarray, y: np.ndarray, settings: Mapping[str, Any]):
    """The engine's model of the points with the Playground's settings (what
    ``ui.shared.fitting.fit_points`` runs, within ``FIT_BUDGET``). Raises ValueError (the
    engine's message: e.g. not separable under the hard margin)."""
    s = Settings.parse(settings)
    key = (np.ascontiguousarray(X, float).tobytes(), np.asarray(y, int).tobytes(),
           json.dumps(s.as_dict(), sort_keys=True))
    return _fit(key, len(X))


@lru_cache(maxsize=512)
def _fit(key, n: int):
    # one fit per (points, settings) per process: 200 students' variants of one screen
    # share it. Models are read, never changed.
    X = np.frombuffer(key[0], dtype=float).reshape(n, 2).copy()
    y = np.frombuffer(key[1], dtype=int).copy()
    s = json.loads(key[2])
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", se.ConvergenceWarning)  # model.converged says it
        return se.fit(X, y, kernel=settings_to_kernel(s), C=effective_C(s), loss=s["loss"],
                      bias=s["bias"], solver=s["solver"], wss=s["wss"],
                      tol=SMO_TOL if s["solver"] == "smo" else None,
                      max_iter=smo_max_iter(n) if s["solver"] == "smo" else None,
                      time_budget=FIT_BUDGET)


def fitted(X, y, settings):
    """``fit``, or None when the engine refuses or does not converge."""
    try:
        m = fit(X, y, settings)
    except ValueError:
        return None
    return m if m.converged else None


def well_posed(m) -> bool:
    """A model a student can reason about from the picture: converged; no point so close to
    its margin or to h(x) = 0 that the picture cannot tell (0 < |y·h − 1| < 0.05, |h| < 0.05);
    and b unique (a soft margin has a point on its margin, else b may slide)."""
    if m is None or not m.converged:
        return False
    yh = m.y * m.h_train
    near = np.abs(yh - 1.0)
    if ((near > ON_MARGIN) & (near < 0.05)).any() or (np.abs(m.h_train) < 0.05).any():
        return False
    return bool((near <= ON_MARGIN).any())


#: the square's eight symmetries (rotations by 90° and reflections), as 2 × 2 matrices
SYMMETRIES = tuple(np.array(m, dtype=float) for m in (
    [[1, 0], [0, 1]], [[0, -1], [1, 0]], [[-1, 0], [0, -1]], [[0, 1], [-1, 0]],
    [[-1, 0], [0, 1]], [[1, 0], [0, -1]], [[0, 1], [1, 0]], [[0, -1], [-1, 0]]))


def moved(X, y, rng: np.random.Generator, *, shift: bool) -> tuple[np.ndarray, np.ndarray]:
    """A seeded variant of a picture: turned or mirrored about its centre (the square's
    symmetries keep a grid on the grid), moved by up to one unit, its points renumbered,
    and with ``shift`` one point moved by half a unit (the numbers change, not only their
    places). The caller refits and keeps it only if ``well_posed``."""
    X = np.asarray(X, float)
    centre = np.round(X.mean(axis=0) * 2) / 2
    sym = SYMMETRIES[int(rng.integers(1, len(SYMMETRIES)))]
    t = rng.integers(-2, 3, size=2) / 2
    Z = (X - centre) @ sym.T + centre + t
    if shift:
        k = int(rng.integers(len(Z)))
        Z[k] += (0.5, 0.0) if rng.integers(2) else (0.0, 0.5)
    order = rng.permutation(len(Z))
    return Z[order] + 0.0, np.asarray(y)[order]


def variant_points(X, y, settings, rng, *, shift: bool, ok=well_posed, tries: int = 24):
    """(X, y, model) of the first seeded move whose fit is ``ok``; the picture itself if none
    is (a symmetry alone keeps a well-posed picture well posed, so that is rare)."""
    for _ in range(tries):
        Z, yz = moved(X, y, rng, shift=shift)
        m = fitted(Z, yz, settings)
        if m is not None and ok(m):
            return Z, yz, m
    return np.asarray(X, float), np.asarray(y), fit(X, y, settings)



def picture(params: Mapping[str, Any], default: str = "D1") -> tuple[np.ndarray, np.ndarray,
                                                                        dict]:
    """``_picture``, with settings an exercise can use: a combination the engine solves, and
    an SVM (PSVM's α may be negative: it has no support vectors in the SVM's sense)."""
    X, y, s = _picture(params, default)
    why = combination_error(s)
    if why is not None:
        raise ValueError(f"the picture's settings: {why}")
    if s["solver"] == "psvm":
        raise ValueError("a PSVM picture has no support vectors in the SVM's sense (its α "
                         "may be negative): choose an SVM solver (smo or qp) for it")
    return X, y, s


def _picture(params: Mapping[str, Any], default: str) -> tuple[np.ndarray, np.ndarray,
                                                                 dict]:
    """(X, y, settings) a screen names: a book dataset ("D1", "D2", "two_point", with its
    Playground settings, which ``settings`` may override) or "custom" (``X``, ``y``,
    ``settings``: a teacher's picture)."""
    dataset = params.get("dataset", default)
    if dataset == "custom":
        return custom(params.get("X"), params.get("y"), params.get("settings"))
    if dataset not in DATASETS:
        raise ValueError(f"dataset must be one of {', '.join([*DATASETS, 'custom'])}; "
                         f"got {dataset!r}")
    if "X" in params or "y" in params:
        raise ValueError(f"X and y belong to dataset \"custom\", not {dataset!r}")
    X, y, s = book(dataset)
    over = params.get("settings") or {}
    if not isinstance(over, Mapping):
        raise ValueError("settings must be a mapping of Playground settings")
    if over:  # the book's settings with the teacher's changes (C = inf: hard margin)
        s = Settings.parse({**s, **({"hard_margin": False} if "C" in over else {}), **over})
        s = s.as_dict()
    return X, y, s


def describe(settings: Mapping[str, Any]) -> str:
    """"linear kernel, hard margin" / "linear kernel, hinge loss, C = 1"."""
    kernel = f"{kernel_text(settings)} kernel"
    if settings["hard_margin"]:
        return f"{kernel}, hard margin"
    return f"{kernel}, {settings['loss']} loss, C = {fmt_setting(settings['C'])}"


def describe_model(m) -> str:
    """``describe`` of a fitted model: "linear kernel, hard margin"."""
    kernel = kernel_text({"kernel": m.kernel.name, **m.kernel.params})
    if math.isinf(m.C):
        return f"{kernel} kernel, hard margin"
    return f"{kernel} kernel, {m.loss} loss, C = {fmt_setting(m.C)}"


def picture_fit(params: Mapping[str, Any], seed: int, rng, *, shift: bool):
    """(X, y, settings, model) of a mark or place screen: its picture (moved for a student's
    seed when the screen is seeded) and the engine's converged fit of it (ValueError else)."""
    X, y, s = picture(params)
    if flag(params, "seeded", False) and seed:
        X, y, m = variant_points(X, y, s, rng, shift=shift)
    else:
        m = fit(X, y, s)
    if not m.converged:
        raise ValueError(f"the picture's fit did not converge ({fit_words.status_text(m)})")
    return X, y, s, m
