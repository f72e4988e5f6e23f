"""The Kernel perceptron & k-NN page's numbers and words (pure; no streamlit).

- the kernel perceptron run (``svm_engine.kernel_perceptron``) within the page's visit cap,
  h after any update (`StepModel`), the words for one update and for the whole run beside
  the SVM's support vectors, and the table of mistake counts αᵢ beside the SVM's αᵢ;
- k-NN (``svm_engine.knn``): the regions on a grid, 1-NN's Voronoi edges, the neighbours of
  a query point, and the memory-based against model-based sentence.

`run_perceptron` and `knn_answer` are what the page sends to a fit worker
(``ui.serving.budget.run``, killed at the budget). Symbols as seed 002: αᵢ, K(x, z), h(x).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from svm_engine import knn
from svm_engine.kernel_perceptron import KernelPerceptronResult, kernel_perceptron
from ui.shared.describe import describe_model, describe_points
from ui.shared.numbers import fmt_num
from ui.shared.settings import settings_to_kernel

#: n × epochs visits the page allows: ~1 µs a visit (as the Losses page's perceptron,
#: ui/losses/compute.py) …
MAX_VISITS = 200_000
#: … and n² × epochs, the most an update-per-visit run adds to the n values h(xⱼ): an update
#: on 2,000 points costs ~20 µs on a loaded machine (96,000 updates took 2.1 s), so ~0.5 s
MAX_WORK = 50_000_000
EPOCH_CHOICES = (10, 50, 100, 500, 1000)
K_MAX = 15                       # the k slider's top (seed 003: "usually k < 10")
MAX_KNN_POINTS = 500             # k-NN's grid costs (grid places × n) distances


def kernel_of(settings: dict):
    """The engine kernel of the page's kernel widgets."""
    return settings_to_kernel(settings)


def epoch_cap(n: int, wanted: int) -> int:
    """The student's epoch cap, lowered so that n × epochs ≤ MAX_VISITS and n² × epochs ≤
    MAX_WORK (within the time budget whatever the points)."""
    n = max(1, int(n))
    return max(1, min(int(wanted), MAX_VISITS // n, MAX_WORK // (n * n)))


def run_perceptron(X, y, settings: dict, epochs: int, bias: str) -> KernelPerceptronResult:
    """The kernel perceptron on the page's points, data order, within the visit cap."""
    return kernel_perceptron(X, y, kernel_of(settings), max_epochs=epoch_cap(len(X), epochs),
                             bias=bias)


@dataclass(frozen=True)
class StepModel:
    """The kernel perceptron's h after its first k updates (a figure overlay's model)."""

    run: KernelPerceptronResult
    k: int

    def decision_function(self, Z) -> np.ndarray:
        return self.run.decision_after(Z, self.k)


def _sub(i: int) -> str:
    return str(i).translate(str.maketrans("0123456789", "₀₁₂₃₄₅₆₇₈₉"))


def update_words(run: KernelPerceptronResult, k: int) -> str:
    """Markdown for update k (1-based); k = 0: the start."""
    if k == 0:
        return ("**Start:** every αᵢ = 0 and b = 0, so h(x) = 0 everywhere: the first point "
                "visited is a mistake (y·h(x) = 0 ≤ 0).")
    r = run.record(k)
    sign = "+" if r.y > 0 else "−"
    b = (f", b ← b + y = {fmt_num(run.b_after(k))}" if run.bias == "free"
         else " (b stays 0: no bias)")
    return (f"**Update {k}** (epoch {r.epoch}): x{_sub(r.i + 1)} with y = {sign}1 has "
            f"y·h(x) = {fmt_num(r.y * r.h)} ≤ 0, a mistake. So α{_sub(r.i + 1)} ← "
            f"{r.alpha_i}{b}: h(x) gains {sign}K(x{_sub(r.i + 1)}, x)"
            f"{f' {sign} 1' if run.bias == 'free' else ''}.")


def mistakes_after(run: KernelPerceptronResult, k: int) -> int:
    """Training points with y·h(x) ≤ 0 after the first k updates (what the step shows)."""
    return int((run.y * run.decision_after(run.X, k) <= 0).sum())


def run_words(run: KernelPerceptronResult, svm, wanted_epochs: int) -> str:
    """The run in one sentence, its numbers beside the SVM's support vectors (svm: the
    model, or None)."""
    upd = f"{run.n_updates} update{'s' if run.n_updates != 1 else ''}"
    used = int((run.alpha > 0).sum())
    if run.converged:
        text = (f"The kernel perceptron stopped after {upd} ({run.epochs} epochs) with 0 "
                f"training mistakes; {used} of the {len(run.X)} points have αᵢ > 0.")
    else:
        text = (f"The kernel perceptron did not converge: it stopped at the epoch cap after "
                f"{upd} with {run.training_mistakes} training mistakes.")
    if run.max_epochs < wanted_epochs:
        text += (f" (The cap is {run.max_epochs} epochs here, not {wanted_epochs}: on "
                 f"{len(run.X):,} points more would not fit in the time budget.)")
    if svm is not None:
        text += (f" The SVM has {svm.n_support} support vectors (αᵢ > 0), on the same "
                 "points and kernel.")
    return text


def alpha_rows(run: KernelPerceptronResult, k: int, svm) -> list[dict]:
    """One row per point with a perceptron αᵢ > 0 (after update k) or an SVM αᵢ > 0: the
    mistake count beside the SVM's multiplier."""
    a = run.alpha_after(k)
    sv = np.zeros(len(a)) if svm is None else np.asarray(svm.alpha, dtype=float)
    rows = []
    for i in np.flatnonzero((a > 0) | (sv > 0)):
        row = {"point": f"x{i + 1}", "x1": fmt_num(run.X[i, 0]), "x2": fmt_num(run.X[i, 1]),
               "y": "+1" if run.y[i] > 0 else "−1",
               "perceptron αᵢ (mistakes)": int(a[i])}
        if svm is not None:
            row["SVM αᵢ"] = fmt_num(sv[i])
        rows.append(row)
    return rows


# ----------------------------------------------------------------------------------- k-NN


@dataclass(frozen=True)
class KnnAnswer:
    """What the k-NN figure and words need (arrays and text: small to cache)."""

    classes: tuple
    k: int
    xs: np.ndarray
    ys: np.ndarray
    region: np.ndarray            # (len(ys), len(xs)) class index
    predicted: np.ndarray         # each training point's class index (itself included)
    query: tuple[float, float]
    neighbours: np.ndarray        # the query's k nearest (indices), nearest first
    distances: np.ndarray         # their squared distances
    votes: np.ndarray             # the query's votes per class
    winner: int
    edges: np.ndarray             # 1-NN's Voronoi edges (e, 2, 2); empty for k > 1
    edge_pairs: np.ndarray        # the two points of each edge


def plot_ranges(X) -> tuple[tuple[float, float], tuple[float, float]]:
    """The plotted box: the points with a margin of 15 % (at least 1 wide)."""
    X = np.asarray(X, dtype=float)
    lo, hi = X.min(axis=0), X.max(axis=0)
    pad = np.maximum(0.15 * (hi - lo), 0.5)
    return (float(lo[0] - pad[0]), float(hi[0] + pad[0])), (float(lo[1] - pad[1]),
                                                            float(hi[1] + pad[1]))


def knn_answer(X, labels, k: int, settings: dict | None, query, steps: int | None = None
               ) -> KnnAnswer:
    """k-NN on the points: the regions on a steps-wide grid, the training points' classes,
    the query's neighbours and votes, and (k = 1) the Voronoi edges. ``settings`` None: the
    Euclidean distance, else the kernel's (its kernel widgets)."""
    X = np.asarray(X, dtype=float)
    if len(X) > MAX_KNN_POINTS:
        raise ValueError(f"{len(X)} points are more than k-NN draws here within its time "
                         f"budget (at most {MAX_KNN_POINTS})")
    kernel = None if settings is None else kernel_of(settings)
    steps = steps or (110 if len(X) <= 200 else 80)     # a coarser grid for many points
    xr, yr = plot_ranges(X)
    wide = max(xr[1] - xr[0], yr[1] - yr[0])
    xs = np.linspace(*xr, max(10, round(steps * (xr[1] - xr[0]) / wide)))
    ys = np.linspace(*yr, max(10, round(steps * (yr[1] - yr[0]) / wide)))
    region = knn.grid_classes(X, labels, xs, ys, k, kernel)
    train = knn.kneighbours(X, labels, X, k, kernel)
    q = knn.kneighbours(X, labels, np.asarray(query, dtype=float).reshape(1, 2), k, kernel)
    edges, pairs = (knn.voronoi_edges(X, xr, yr) if k == 1
                    else (np.zeros((0, 2, 2)), np.zeros((0, 2), dtype=np.int64)))
    return KnnAnswer(classes=tuple(train.classes.tolist()), k=int(k), xs=xs, ys=ys,
                     region=region, predicted=train.index, query=tuple(map(float, query)),
                     neighbours=q.neighbours[0], distances=q.distances[0], votes=q.votes[0],
                     winner=int(q.index[0]), edges=edges, edge_pairs=pairs)


def training_accuracy(a: KnnAnswer, labels) -> float:
    codes = np.searchsorted(np.array(a.classes), np.asarray(labels))
    return float(np.mean(a.predicted == codes))


def query_words(a: KnnAnswer, labels) -> str:
    """The query's k nearest points and the vote, in words (plain text: the page escapes
    it); ``labels``: every point's class as text."""
    near = ", ".join(f"x{_sub(int(i) + 1)} ({labels[i]}, d² = {fmt_num(d)})"
                     for i, d in zip(a.neighbours, a.distances, strict=True))
    votes = ", ".join(f"{c} {int(v)}" for c, v in zip(a.classes, a.votes, strict=True) if v)
    who = "nearest point" if a.k == 1 else f"{a.k} nearest"
    return (f"The {who} to the query point ({fmt_num(a.query[0])}, {fmt_num(a.query[1])}), "
            f"nearest first: {near}. Votes: {votes} → "
            f"{a.classes[a.winner]}.")


def perceptron_plot_words(X, y, svm, run: KernelPerceptronResult, k: int) -> str:
    """The perceptron's plot for a screen reader: the SVM's picture in the Playground's words
    (``ui.shared.describe``), then the perceptron after update k."""
    head = describe_model(X, y, svm) if svm is not None else describe_points(y)
    return (f"{head} The kernel perceptron's boundary (long dashes) after update {k} of "
            f"{run.n_updates}: {mistakes_after(run, k)} training mistakes.")


def knn_plot_words(a: KnnAnswer, labels) -> str:
    """The k-NN plot for a screen reader: the points by class, then the query's vote."""
    labels = np.asarray(labels).astype(str)
    counts = ", ".join(f"{int((labels == str(c)).sum())} of {c}" for c in a.classes)
    return f"{len(labels)} points: {counts}. {query_words(a, labels)}"


def memory_words(n: int, k: int, svm_support: int | None) -> str:
    """Memory-based against model-based, in one sentence with the real counts."""
    among = "takes the class of the nearest" if k == 1 else f"votes among the {k} nearest"
    text = (f"k-NN is memory-based: to classify a new point it keeps all {n} training points "
            f"and compares it with each of them (then {among})")
    if svm_support is None:
        return text + "; an SVM is model-based: it keeps only its support vectors."
    return (text + f"; the SVM is model-based: on the same points it keeps only its "
            f"{svm_support} support vectors (h(x) = Σ αᵢyᵢK(xᵢ, x) + b over them).")


def distance_labels(kernel_words: str) -> dict:
    """The distance choices, the kernel named in the second."""
    return {"euclidean": "Euclidean ‖x − z‖²",
            "kernel": f"through the kernel ({kernel_words}): K(x,x) + K(z,z) − 2K(x,z)"}
