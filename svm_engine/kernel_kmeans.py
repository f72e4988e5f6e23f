"""Kernel k-means: Lloyd's k-means run in the feature space of a kernel, from the Gram matrix
only — the centroids are never formed.

Problem (seed 002, "Kernel K-Means"): split the points into k clusters C₁ … C_k that minimise
the within-cluster sum of squares in feature space,

    W = Σ_c Σ_{i∈C_c} ‖φ(xᵢ) − μ_c‖²,     μ_c = (1/|C_c|) Σ_{j∈C_c} φ(xⱼ).

φ may be infinite-dimensional (the Gaussian kernel), so μ_c is kept in its dual form, the
weights α^c_j = 1/|C_c| for j ∈ C_c (0 otherwise), and every distance comes from the Gram
matrix Kᵢⱼ = K(xᵢ, xⱼ) = φ(xᵢ)ᵀφ(xⱼ) alone:

    ‖φ(xᵢ) − μ_c‖² = Kᵢᵢ − (2/|C_c|) Σ_{j∈C_c} Kᵢⱼ + (1/|C_c|²) Σ_{j,l∈C_c} Kⱼₗ.

Source: seed 002 (Odobez, kernel methods lecture), the kernel k-means slide; Lloyd (1982) for
the iteration; Dhillon, Guan & Kulis (KDD 2004) for kernel k-means as written here.

| seed 002     | here         | meaning                                                     |
|--------------|--------------|-------------------------------------------------------------|
| k(x, x′)     | `K`          | the Gram matrix, n × n (any kernel; `gram.gram_matrix`)     |
| μ_i          | (never made) | the centroid of cluster i in feature space                  |
| α^i_j        | `weights`    | 1/N_i when xⱼ is in cluster i, else 0: μ_i = Σⱼ α^i_j φ(xⱼ) |
| N_i          | `sizes`      | the cluster's number of points                              |
| ‖φ(x) − μ_i‖² | `D[:, i]`   | the squared distance to the implicit centroid               |
| K (clusters) | `k`          | the number of clusters (K is the Gram matrix here)          |

The iteration (the trace records both halves of each one, for stepping):
  0. seeded start: k distinct points xₛ₁ … xₛₖ are the first centres, μ_c = φ(xₛ_c)
     (init="random": drawn by ``numpy.random.default_rng(seed)``; init="k-means++": the
     first drawn, each next one with probability ∝ its squared feature-space distance to
     the nearest centre so far; or the indices given): Dᵢ_c = Kᵢᵢ − 2Kᵢₛ + Kₛₛ, s = s_c.
  1. assignment: each point goes to its nearest centroid, c(i) = argmin_c Dᵢ_c (ties: the
     smaller c).
  2. empty clusters (the rule): a cluster left with no point takes the point farthest from
     its own centroid (largest Dᵢ_c(i)) among the clusters with two points or more, as
     scikit-learn's KMeans does; one point per empty cluster, largest distance first.
  3. distances: Dᵢ_c from the new clusters (the formula above), then back to 1.
Stops when an assignment equals the one before (converged: a fixed point of Lloyd's
iteration; W never rises on the way when K is positive semi-definite) or at ``max_iter``
assignments, or at the time budget (``time_budget`` seconds; the run says which).

Cost: one iteration is K·onehot, n²k multiply-adds (numpy), ~1 ms at n = 300, k = 5.
A kernel that is not positive semi-definite gives "distances" that may be negative; the
iteration still runs (it is only arithmetic) but W may rise and the run may cycle to the cap.
"""

from __future__ import annotations

import math
import time
from dataclasses import dataclass, field

import numpy as np

from .validation import check_integer, check_number

INITS = ("k-means++", "random")
#: Iterations whose distances the trace keeps (the run goes on; ``trace_truncated`` says so).
TRACE_CAP = 200


@dataclass(eq=False)
class KernelKMeansResult:
    labels: np.ndarray          # the final assignment c(i), 0 … k−1
    D: np.ndarray               # the distances of the last assignment, (n, k)
    inertia: float              # W of the final clusters (scikit-learn's ``inertia_``)
    converged: bool             # an assignment equal to the one before it
    n_iter: int                 # assignments made after the start's
    status: str
    centres: np.ndarray         # the start's point indices s₁ … s_k
    trace: list[dict]           # one record per assignment (see `kernel_kmeans`)
    trace_truncated: bool
    K: np.ndarray = field(repr=False)
    starts: list = field(default_factory=list)   # every seeded start's final W

    @property
    def k(self) -> int:
        return self.D.shape[1]

    @property
    def sizes(self) -> np.ndarray:
        return np.bincount(self.labels, minlength=self.k)

    def distances_to(self, K_new, K_new_diag) -> np.ndarray:
        """‖φ(z) − μ_c‖² for new points z: ``K_new`` (m, n) = K(zₐ, xⱼ), ``K_new_diag`` (m,)
        = K(zₐ, zₐ); the final clusters' implicit centroids."""
        return centroid_distances(self.K, self.labels, self.k, K_new, K_new_diag)

    def predict(self, K_new, K_new_diag) -> np.ndarray:
        """The nearest final centroid of each new point (ties: the smaller c)."""
        return np.argmin(self.distances_to(K_new, K_new_diag), axis=1)


def one_hot(labels, k: int) -> np.ndarray:
    """The dual weights α: A[j, c] = 1/|C_c| for j ∈ C_c, else 0 (an empty cluster: 0)."""
    labels = np.asarray(labels)
    A = np.zeros((len(labels), k))
    A[np.arange(len(labels)), labels] = 1.0
    sizes = A.sum(axis=0)
    return A / np.where(sizes > 0, sizes, 1.0)


def centroid_distances(K, labels, k: int, K_rows=None, K_diag=None) -> np.ndarray:
    """D[i, c] = ‖φ(zᵢ) − μ_c‖² for the clusters ``labels`` of the training points (Gram
    matrix K), zᵢ the training points themselves (default) or new points with K_rows (m, n) =
    K(zᵢ, xⱼ) and K_diag (m,) = K(zᵢ, zᵢ). An empty cluster's distance is inf."""
    K = np.asarray(K, dtype=float)
    A = one_hot(labels, k)
    rows = K if K_rows is None else np.asarray(K_rows, dtype=float)
    diag = np.diag(K) if K_diag is None else np.asarray(K_diag, dtype=float)
    within = np.einsum("jc,jc->c", A, K @ A)             # (1/|C|²) Σ_{j,l∈C} Kⱼₗ
    D = diag[:, None] - 2.0 * rows @ A + within[None, :]
    D[:, np.bincount(np.asarray(labels), minlength=k) == 0] = math.inf
    return D


def inertia(K, labels, k: int) -> float:
    """W = Σ_c [Σ_{i∈C} Kᵢᵢ − (1/|C|) Σ_{i,j∈C} Kᵢⱼ]: the within-cluster sum of squares."""
    D = centroid_distances(K, labels, k)
    return float(D[np.arange(len(D)), labels].sum())


def _check(K, k, init, seed, max_iter, time_budget) -> tuple[np.ndarray, np.ndarray | None]:
    K = np.asarray(K, dtype=float)
    if K.ndim != 2 or K.shape[0] != K.shape[1] or K.shape[0] == 0:
        raise ValueError(f"K must be a square, non-empty Gram matrix, got shape {K.shape}")
    if not np.isfinite(K).all():
        raise ValueError("K holds a value that is not a finite number")
    n = len(K)
    check_integer("k (the number of clusters)", k, 1)
    if k > n:
        raise ValueError(f"k = {k} clusters need at least {k} points; there are {n}")
    check_integer("seed", seed, 0)
    check_integer("max_iter", max_iter, 1)
    if time_budget is not None:
        check_number("time_budget (seconds)", time_budget, 0)
    if isinstance(init, str):
        if init not in INITS:
            raise ValueError(f"init must be one of {', '.join(INITS)} or k point indices; "
                             f"got {init!r}")
        return K, None
    idx = np.asarray(init)
    if (idx.shape != (k,) or not np.issubdtype(idx.dtype, np.integer)
            or idx.min() < 0 or idx.max() >= n or len(set(idx.tolist())) != k):
        raise ValueError(f"init as indices must be k = {k} distinct point indices in 0 … {n - 1}; "
                         f"got {init!r}")
    return K, idx.astype(int)


def start_centres(K, k: int, init: str, seed: int) -> np.ndarray:
    """Step 0's k distinct point indices (module docstring), seeded."""
    rng = np.random.default_rng(seed)
    n = len(K)
    if init == "random":
        return np.sort(rng.choice(n, size=k, replace=False))
    diag = np.diag(K)
    centres = [int(rng.integers(n))]
    d2 = np.maximum(diag - 2.0 * K[:, centres[0]] + diag[centres[0]], 0.0)
    for _ in range(1, k):
        d2[centres] = 0.0
        total = d2.sum()
        # every remaining point at distance 0 (duplicates): any point not yet taken
        p = (d2 / total if total > 0
             else np.isin(np.arange(n), centres, invert=True) / (n - len(centres)))
        c = int(rng.choice(n, p=p))
        centres.append(c)
        d2 = np.minimum(d2, np.maximum(diag - 2.0 * K[:, c] + diag[c], 0.0))
    return np.array(centres)


def _fill_empty(labels: np.ndarray, D: np.ndarray, k: int) -> list[tuple[int, int]]:
    """Step 2 (the empty-cluster rule), in place; the (point, cluster) moves made."""
    moves = []
    for c in np.flatnonzero(np.bincount(labels, minlength=k) == 0):
        sizes = np.bincount(labels, minlength=k)
        own = D[np.arange(len(labels)), labels].copy()
        own[sizes[labels] < 2] = -math.inf          # never empty another cluster
        i = int(np.argmax(own))
        labels[i] = c
        moves.append((i, int(c)))
    return moves


def kernel_kmeans(K, k: int, *, init="k-means++", seed: int = 0, n_init: int = 1,
                  max_iter: int = 100, time_budget: float | None = None) -> KernelKMeansResult:
    """Kernel k-means on the Gram matrix K (module docstring). Raises ValueError naming a bad
    argument (k > n, k < 1, K not square or not finite, init not in INITS nor k distinct
    indices, n_init < 1, max_iter < 1).

    n_init: that many seeded starts (seeds ``seed``, ``seed`` + 1, …; one when ``init`` gives
    the indices), the run with the smallest final W kept (scikit-learn's n_init), its trace
    with it; ``starts`` lists every start's W. ``time_budget`` covers them all: no start
    begins after it.

    Trace record keys (one per assignment; record 0 is the start's): step (0, 1, …), D (n × k
    list of lists: the distances this assignment used — to the start's centre points at step
    0, to the implicit centroids of the previous clusters after), labels (the assignment),
    changed (points whose cluster changed; n at step 0), sizes, inertia (W of these
    clusters), moved (the empty-cluster rule's (point, cluster) moves).
    """
    K, given = _check(K, k, init, seed, max_iter, time_budget)
    check_integer("n_init", n_init, 1)
    t0 = time.perf_counter()
    best = None
    starts = []
    for s in range(1 if given is not None else n_init):
        left = None if time_budget is None else time_budget - (time.perf_counter() - t0)
        if s and left is not None and left <= 0:
            break
        run = _one_run(K, k, given if given is not None else start_centres(K, k, init, seed + s),
                       max_iter, left if left is None else max(left, 1e-9))
        starts.append(run.inertia)
        if best is None or run.inertia < best.inertia:
            best = run
    best.starts = starts
    return best


def _one_run(K, k: int, centres, max_iter: int, time_budget) -> KernelKMeansResult:
    n = len(K)
    diag = np.diag(K)
    D = diag[:, None] - 2.0 * K[:, centres] + diag[centres][None, :]
    t0 = time.perf_counter()
    trace: list[dict] = []
    labels = np.full(n, -1)
    converged = timed_out = False
    it = 0
    while True:
        new = np.argmin(D, axis=1)
        moved = _fill_empty(new, D, k)
        changed = int((new != labels).sum())
        D_next = centroid_distances(K, new, k)     # the next step's distances, and W of these
        W = float(D_next[np.arange(n), new].sum())
        if len(trace) < TRACE_CAP + 1:
            trace.append({"step": it, "D": D.tolist(), "labels": new.tolist(), "changed": changed,
                          "sizes": np.bincount(new, minlength=k).tolist(), "inertia": W,
                          "moved": moved})
        if changed == 0:
            converged = True
            break
        labels, D = new, D_next
        if it >= max_iter:
            break
        if time_budget is not None and time.perf_counter() - t0 > time_budget:
            timed_out = True
            break
        it += 1
    if converged:
        status = (f"converged: assignment {it} equals the one before "
                  f"({it} assignment{'s' if it != 1 else ''} after the start)")
    elif timed_out:
        status = (f"stopped at the time budget ({time_budget:g} s, after {it} assignments) "
                  "before the assignments settled; try fewer points")
    else:
        status = (f"stopped at max_iter = {max_iter} assignments: {changed} point(s) still "
                  "changed cluster (a kernel that is not positive semi-definite can cycle)")
    return KernelKMeansResult(           # `new` is the last assignment (= labels when converged)
        labels=new, D=D_next, inertia=W,
        converged=converged, n_iter=it, status=status, centres=np.asarray(centres),
        trace=trace, trace_truncated=len(trace) < it + 1, K=K)
