"""The More classes page's numbers (pure, no streamlit): one k-class fit
(`svm_engine.multiclass`, one-vs-rest or one-vs-one on the binary engine) and what the page
shows of it — every class's region on a grid, each machine's h on that grid, the scores and
votes of every point, a summary per machine.

`run` is what the page sends to a fit worker (`ui.serving.budget.run`, killed at the budget).
`data_points` reads the page's data sources: the 3-species Iris, the k-class generator, an
imported file with k classes (`ui.data` reads it; any number of classes up to MAX_CLASSES).
"""

from __future__ import annotations

import warnings
from dataclasses import dataclass
from typing import Any

import numpy as np

import svm_engine as se
from svm_engine.datasets_multiclass import MAX_K, blobs_k, iris_species
from svm_engine.multiclass import STRATEGY_NAMES, grid, regions
from ui.data import io as pio
from ui.shared import fit_words
from ui.shared.labels import LOSS_LABELS, SOLVER_NAMES
from ui.shared.settings import check_numbers

MAX_POINTS = 400          # OvO fits k(k−1)/2 machines, OvR k machines on all the points
#: The QP (cvxopt, which cannot be stopped) is refused when Σ over the machines of (its
#: points)² is larger: measured under load (benchmarks/bench_svr_multiclass.py) 0.3–2 s per
#: million units, up to ~10 s per million with the linear kernel on a busier machine
#: (one-vs-rest, 8 classes on 200 points: 320,000 units, 2.5–4 s); the kill at the budget
#: covers the rest
QP_MAX_WORK = 150_000
MAX_CLASSES = MAX_K       # the palette's colours
GRID_STEPS = 90
SOLVERS = {s: SOLVER_NAMES[s] for s in ("smo", "qp")}  # the solvers a k-class machine may use
LOSSES = LOSS_LABELS
DEFAULTS: dict[str, Any] = {"strategy": "ovr", "kernel": "linear", "degree": 2, "coef0": 1.0,
                            "sigma": 1.0, "C": 1.0, "loss": "hinge", "solver": "smo"}


@dataclass(frozen=True)
class Answer:
    """What the page draws and tabulates (no models: only arrays and text, small to cache)."""

    strategy: str
    classes: tuple[str, ...]
    machines: tuple[dict, ...]     # name, positive, negative, points, SVs, b, converged, ...
    scores: np.ndarray             # (n, M): each machine's h(xᵢ)
    votes: np.ndarray              # (n, k)
    predicted: np.ndarray          # (n,) index into classes
    xs: np.ndarray
    ys: np.ndarray
    region: np.ndarray             # (len(ys), len(xs)) class index
    machine_grid: np.ndarray       # (M, len(ys), len(xs)) float32: each machine's h
    converged: bool
    status: str
    time_s: float


def check_settings(s: dict) -> dict:
    out = {**DEFAULTS, **s}
    for name, choices in (("strategy", tuple(STRATEGY_NAMES)), ("solver", tuple(SOLVERS)),
                          ("loss", tuple(LOSSES)), ("kernel", se.KERNELS)):
        if out[name] not in choices:
            raise ValueError(f"{name} must be one of {choices}, got {out[name]!r}")
    check_numbers(out, (("C", 1e-4, 1e6), ("sigma", 1e-3, 1e3), ("coef0", 0.0, 1e3),
                        ("degree", 1, 10)))
    return out


def qp_work(labels: np.ndarray, strategy: str) -> int:
    """Σ over the binary machines of (the points it is trained on)²."""
    counts = np.unique(labels, return_counts=True)[1] if len(labels) else np.zeros(0, int)
    if strategy == "ovr" and len(counts) > 2:
        return len(counts) * len(labels) ** 2
    if strategy == "ovr":
        return len(labels) ** 2
    return int(sum((a + b) ** 2 for i, a in enumerate(counts) for b in counts[i + 1:]))


def refusal(X: np.ndarray, labels: np.ndarray, s: dict | None = None) -> str | None:
    """Why these points are not fitted (a message that says what to change), or None."""
    k = len(np.unique(labels)) if len(labels) else 0
    if len(X) == 0:
        return ("No points yet: upload a file in the sidebar, choose another source, or click "
                "the plot to add points (two classes at least).")
    if k < 2:
        return "The points need at least two classes: add points of another class."
    if k > MAX_CLASSES:
        return f"{k} classes are more than this page draws (at most {MAX_CLASSES})."
    if len(X) > MAX_POINTS:
        return (f"{len(X)} points are more than this page fits within its time budget (at most "
                f"{MAX_POINTS}): generate fewer points or remove some.")
    if s is not None and s["solver"] == "qp" and qp_work(labels, s["strategy"]) > QP_MAX_WORK:
        return (f"The QP (cvxopt) would take more than the time budget on these "
                f"{len(X)} points ({STRATEGY_NAMES[s['strategy']]}, {k} classes): choose SMO, "
                "one-vs-one (its machines see two classes each) or fewer points.")
    return None


def run(X: np.ndarray, labels: np.ndarray, settings: dict) -> Answer:
    """Fit every binary machine and evaluate them on the points and a grid (in a worker)."""
    s = check_settings(settings)
    why = refusal(X, labels, s)
    if why:
        raise ValueError(why)
    kernel = se.make_kernel(s["kernel"], degree=int(s["degree"]), coef0=float(s["coef0"]),
                            sigma=float(s["sigma"]))
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", se.ConvergenceWarning)   # the answer says so
        model = se.fit_multiclass(X, labels, s["strategy"], kernel=kernel, C=float(s["C"]),
                                  loss=s["loss"], solver=s["solver"])
    S = model.scores(X)
    xs, ys, _ = grid(X, steps=GRID_STEPS)
    reg = regions(model, xs, ys)
    machines = tuple({
        "machine": m.name, "+1 (h > 0)": str(m.positive),
        "−1": "rest" if len(m.negative) > 1 else str(m.negative[0]),
        "points": len(m.rows), "support vectors": m.model.n_support, "b": float(m.model.b),
        "iterations": int(m.model.n_iter), "converged": bool(m.model.converged),
        "status": fit_words.status_text(m.model)} for m in model.machines)
    return Answer(strategy=s["strategy"], classes=tuple(str(c) for c in model.classes),
                  machines=machines, scores=S, votes=model.votes(X, S),
                  predicted=model.predict_index(X, S), xs=xs, ys=ys, region=reg.index,
                  machine_grid=reg.scores.astype(np.float32), converged=model.converged,
                  status=multiclass_status(model), time_s=model.time_s)


def multiclass_status(model) -> str:
    """The k-class model's status in the pages' words: every machine converged, or the first
    that did not and why (`fit_words.status_text`)."""
    bad = [m for m in model.machines if not m.model.converged]
    if not bad:
        return f"all {len(model.machines)} machines converged"
    return (f"not converged: {', '.join(m.name for m in bad)} — "
            f"{fit_words.status_text(bad[0].model)}")


def point_rows(a: Answer, X: np.ndarray, labels: np.ndarray) -> list[dict]:
    """Per point: its coordinates and class, every machine's h(xᵢ), the votes per class
    (one-vs-one), the predicted class and whether it is right."""
    rows = []
    names = [m["machine"] for m in a.machines]
    for i in range(len(X)):
        row = {"i": i + 1, "x1": float(X[i, 0]), "x2": float(X[i, 1]), "class": str(labels[i])}
        row.update({f"h: {n}": float(a.scores[i, j]) for j, n in enumerate(names)})
        if a.strategy == "ovo":
            row.update({f"votes {c}": int(a.votes[i, j]) for j, c in enumerate(a.classes)})
        row["predicted"] = a.classes[a.predicted[i]]
        row["right"] = row["predicted"] == row["class"]
        rows.append(row)
    return rows


def accuracy(a: Answer, labels: np.ndarray) -> float:
    return float(np.mean(np.array(a.classes, dtype=object)[a.predicted] == labels.astype(str)))


# ------------------------------------------------------------------------------ the data

def iris(features: tuple[str, str]) -> tuple[np.ndarray, np.ndarray, tuple[str, str]]:
    d = iris_species(features)
    return np.array(d.X), d.y.astype(str), tuple(d.feature_names)


def blobs(k: int, n: int, noise: float, seed: int):
    d = blobs_k(k=k, n=n, noise=noise, seed=seed)
    return np.array(d.X), np.array([f"class {c}" for c in d.y]), ("x1", "x2")


def read_table(name: str, data: bytes) -> pio.Table:
    """An uploaded file as a table (CSV or svmlight; ValueError naming what is wrong)."""
    if len(data) > pio.MAX_UPLOAD_BYTES:
        raise pio.PointsFileError(f"the file is too large ({len(data):,} bytes; at most "
                                  f"{pio.MAX_UPLOAD_BYTES:,})")
    return pio.read_upload(name, data)


def table_points(table: pio.Table, x1: int, x2: int, label: int):
    """(X, labels as text, feature names) of every row, k classes (2..MAX_CLASSES)."""
    if len({x1, x2, label}) < 3:
        raise pio.PointsFileError("x1, x2 and the label must be three different columns")
    classes = pio.label_classes(table, label)
    if len(classes) > MAX_CLASSES:
        raise pio.PointsFileError(f"the label column has {len(classes)} classes; this page "
                                  f"draws at most {MAX_CLASSES}")
    if table.n_rows > MAX_POINTS:
        raise pio.PointsFileError(f"too many points: {table.n_rows} rows (at most {MAX_POINTS})")
    cols = []
    for j, what in ((x1, "x1"), (x2, "x2")):
        v = table.column(j)
        bad = np.flatnonzero(~np.isfinite(v))
        if len(bad):
            raise pio.PointsFileError(f"line {table.lines[bad[0]]}: {what} (column "
                                      f"{table.columns[j]!r}) is not a number")
        cols.append(v)
    raw = table.column(label) if table.is_numeric(label) else table.text[label]
    labels = np.array([pio.show_class(c) if isinstance(c, float) else str(c)
                       for c in (raw.tolist())])
    return np.column_stack(cols), labels, (table.columns[x1], table.columns[x2])
