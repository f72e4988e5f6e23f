"""What the Kernel k-means & PCA page computes (pure; no streamlit), in a fit worker within the
time budget: the kernel from the page's controls (a base kernel or one built by the rules,
``svm_engine.kernel_rules``) and its Gram matrix's eigenvalue check (``gram.mercer_check``, the
Kernels page's), kernel k-means and plain k-means (the linear kernel) from the same seeded
starts, kernel PCA and linear PCA, and the new points (the student's clicks) assigned and
projected. Stepping reads the recorded run (``Phase``), it never reruns it.
"""

from __future__ import annotations

import math
import time
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

import numpy as np

import svm_engine as se
from svm_engine import gram
from svm_engine import kernel_kmeans as kk
from svm_engine import kernel_pca as kp
from svm_engine import kernel_rules as kr
from ui.shared.labels import kernel_formula
from ui.shared.numbers import fmt_num, fmt_pct, fmt_setting

#: The most training points: an n × n Gram matrix, the eigenvalues of K̃ (~30 ms at 300) and
#: N_INIT k-means runs on it (~1 ms an iteration).
MAX_POINTS = 300
MAX_NEW = 20                 # new points (clicks) at most
N_INIT = 10                  # seeded starts; the run with the smallest W is shown
MAX_ITER = 100
KMEANS_BUDGET_S = 1.2        # no k-means start begins after this (the worker's budget is 2 s)
GRID = 60                    # the regions' grid, GRID × GRID
BARS = 10                    # eigenvalues in the bar chart
BASES = ("linear", "polynomial", "gaussian")
KERNELS = (*BASES, "rules")
KERNEL_NAMES = {"linear": "linear", "polynomial": "polynomial", "gaussian": "Gaussian",
                "rules": "built by the rules"}
RULE_NAMES = {"sum": "K₁ + K₂", "product": "K₁ · K₂", "scale": "a·K₁", "exp": "exp(K₁)",
              "difference": "K₁ − K₂ (not a rule)"}
DEFAULTS = {"kernel": "gaussian", "degree": 2, "coef0": 1.0, "sigma": 0.3, "rule": "sum",
            "k1": "gaussian", "k2": "polynomial", "a": 2.0, "k": 2, "seed": 0}


def base_kernel(name: str, s: Mapping[str, Any]):
    """linear, polynomial (q, c) or Gaussian (σ) with the page's parameters."""
    return se.make_kernel(name, degree=int(s["degree"]), coef0=float(s["coef0"]),
                          sigma=float(s["sigma"]))


def make_kernel(s: Mapping[str, Any]):
    """The page's kernel: a base kernel, or the rule ``s["rule"]`` applied to K₁ = ``s["k1"]``
    (and K₂ = ``s["k2"]``), with a = ``s["a"]`` for a·K₁. ValueError naming a bad choice."""
    if s["kernel"] in BASES:
        return base_kernel(s["kernel"], s)
    if s["kernel"] != "rules":
        raise ValueError(f"unknown kernel {s['kernel']!r}; expected one of {', '.join(KERNELS)}")
    two = s["rule"] in ("sum", "product", "difference")
    return kr.combine(s["rule"], base_kernel(s["k1"], s),
                      base_kernel(s["k2"], s) if two else None, a=float(s["a"]))


def _formula(k) -> str:
    return kernel_formula(k).split("K(x,z) = ", 1)[-1]


def formula(s: Mapping[str, Any]) -> str:
    """The kernel in words and symbols, numbers printed by ui.shared.numbers."""
    if s["kernel"] in BASES:
        return kernel_formula(base_kernel(s["kernel"], s))
    k1, k2 = (_formula(base_kernel(s[n], s)) for n in ("k1", "k2"))
    return {"sum": f"K₁ + K₂ = {k1} + {k2}", "product": f"K₁ · K₂ = ({k1}) · ({k2})",
            "scale": f"a·K₁ = {fmt_setting(s['a'])} · ({k1})", "exp": f"exp(K₁) = exp({k1})",
            "difference": f"K₁ − K₂ = {k1} − ({k2}): not a rule"}[s["rule"]]


@dataclass(frozen=True)
class Phase:
    """What one position of the stepper shows: "assign" (assignment t: each point to its
    nearest centre) or "distances" (the distances to the implicit centroids of assignment
    t's clusters: the points that will move)."""

    kind: str
    t: int
    labels: np.ndarray
    regions: np.ndarray        # the nearest centre over the grid (GRID × GRID)
    movers: np.ndarray         # indices of the points the next assignment moves
    D: np.ndarray              # the distances this phase is about (n × k)


@dataclass(frozen=True)
class Answer:
    formula: str
    check: gram.MercerCheck
    kmeans: kk.KernelKMeansResult
    plain: kk.KernelKMeansResult          # the linear kernel: plain k-means
    plain_centres: np.ndarray             # its explicit centroids (k × 2)
    regions: list                         # [start, after assignment 0, 1, …] (GRID × GRID)
    grid: tuple                           # (xs, ys) of the regions
    pca: kp.KernelPCAResult
    linear: kp.LinearPCA
    new_labels: np.ndarray                # the new points' nearest final centroid
    new_kpca: np.ndarray                  # their kernel PCA coordinates (m × 2)
    new_linear: np.ndarray                # and linear PCA's (m × 2)
    time_cut: bool = False
    ari: dict = field(default_factory=dict)

    @property
    def steps(self) -> int:
        """The stepper's last position: assignments 0 … T and the distances between them."""
        return 2 * (len(self.kmeans.trace) - 1)

    def phase(self, p: int) -> Phase:
        tr = self.kmeans.trace
        p = max(0, min(int(p), self.steps))
        t = p // 2
        labels = np.array(tr[t]["labels"])
        if p % 2 == 0:
            return Phase("assign", t, labels, self.regions[t], np.zeros(0, dtype=int),
                         np.array(tr[t]["D"]))
        nxt = np.array(tr[t + 1]["labels"])
        return Phase("distances", t, labels, self.regions[t + 1],
                     np.flatnonzero(nxt != labels), np.array(tr[t + 1]["D"]))


def too_many(n: int, m: int) -> str | None:
    if n > MAX_POINTS:
        return (f"This page takes at most {MAX_POINTS} points (these are {n}): the Gram matrix "
                "has n² entries and k-means runs on it ten times. Choose fewer points.")
    if m > MAX_NEW:
        return f"At most {MAX_NEW} new points; remove some."
    return None


def grid_for(X, Z) -> tuple[np.ndarray, np.ndarray]:
    P = np.vstack([X, Z]) if len(Z) else X
    lo, hi = P.min(axis=0), P.max(axis=0)
    pad = 0.15 * np.maximum(hi - lo, 1e-3)
    return np.linspace(lo[0] - pad[0], hi[0] + pad[0], GRID), np.linspace(
        lo[1] - pad[1], hi[1] + pad[1], GRID)


def _regions(K, kernel, G, labels_list, start_idx, X) -> list:
    """The nearest centre at each grid point: the start's centre points, then the implicit
    centroids of each assignment's clusters."""
    Kg = kernel(G, X)
    diag = kr.diagonal(kernel, G)
    k = len(start_idx)
    start = diag[:, None] - 2.0 * Kg[:, start_idx] + np.diag(K)[start_idx][None, :]
    out = [np.argmin(start, axis=1).reshape(GRID, GRID).astype(np.int8)]
    for labels in labels_list:
        D = kk.centroid_distances(K, np.asarray(labels), k, Kg, diag)
        out.append(np.argmin(D, axis=1).reshape(GRID, GRID).astype(np.int8))
    return out


def adjusted_rand(a, b) -> float:
    from sklearn.metrics import adjusted_rand_score  # ~0.3 s to import: in the worker only

    return float(adjusted_rand_score(a, b))


def run(X, y, Z, s: Mapping[str, Any]) -> Answer:
    """Everything the page shows (module docstring); ValueError naming what does not work
    (the kernel overflows, it is not a kernel on these points, k > n)."""
    X, Z = np.asarray(X, dtype=float), np.asarray(Z, dtype=float).reshape(-1, 2)
    kernel = make_kernel(s)
    K, check = kr.check_on(kernel, X)
    if not check.psd:
        raise ValueError(f"{formula(s)}: not a kernel on these points — its Gram matrix has "
                         f"λ_min = {fmt_num(check.min_eigenvalue)} < 0. Kernel k-means and "
                         "kernel PCA need a kernel (distances and variances in a feature "
                         "space); choose one of the rules: "
                         + ", ".join(RULE_NAMES[r] for r in kr.KERNEL_RULES) + ".")
    k = int(s["k"])
    t0 = time.perf_counter()
    km = kk.kernel_kmeans(K, k, seed=int(s["seed"]), n_init=N_INIT, max_iter=MAX_ITER,
                          time_budget=KMEANS_BUDGET_S)
    left = max(1e-3, KMEANS_BUDGET_S - (time.perf_counter() - t0))
    plain = kk.kernel_kmeans(X @ X.T, k, seed=int(s["seed"]), n_init=N_INIT,
                             max_iter=MAX_ITER, time_budget=left)
    cut = len(km.starts) < N_INIT or len(plain.starts) < N_INIT or "time budget" in km.status
    centres = np.array([X[plain.labels == c].mean(axis=0) for c in range(k)])
    xs, ys = grid_for(X, Z)
    gx, gy = np.meshgrid(xs, ys)
    G = np.column_stack([gx.ravel(), gy.ravel()])
    regions = _regions(K, kernel, G, [t["labels"] for t in km.trace], km.centres, X)
    pca = kp.kernel_pca(K, check=check)
    lin = kp.linear_pca(X)
    if len(Z):
        Kz = kernel(Z, X)
        new_labels = km.predict(Kz, kr.diagonal(kernel, Z))
        new_kpca, new_lin = two(pca.transform(Kz)), two(lin.transform(Z))
    else:
        new_labels, new_kpca, new_lin = np.zeros(0, dtype=int), np.zeros((0, 2)), np.zeros((0, 2))
    ari = {}
    if len(set(np.asarray(y).tolist())) > 1:
        ari = {"kernel": adjusted_rand(y, km.labels), "plain": adjusted_rand(y, plain.labels)}
    return Answer(formula=formula(s), check=check, kmeans=km, plain=plain,
                  plain_centres=centres, regions=regions, grid=(xs, ys), pca=pca, linear=lin,
                  new_labels=new_labels, new_kpca=new_kpca, new_linear=new_lin, time_cut=cut,
                  ari=ari)


def two(Y) -> np.ndarray:
    """The first two columns of Y, zeros for a missing one (fewer than two components)."""
    Y = np.asarray(Y, dtype=float)
    out = np.zeros((len(Y), 2))
    out[:, : min(2, Y.shape[1])] = Y[:, :2]
    return out


# ------------------------------------------------------------------------------ words


def phase_words(a: Answer, ph: Phase) -> str:
    """What this position of the stepper shows, with its counts (markdown)."""
    tr = a.kmeans.trace[ph.t]
    sizes = ", ".join(f"C{c + 1}: {n}" for c, n in enumerate(tr["sizes"]))
    if ph.kind == "assign" and ph.t == 0:
        starts = ", ".join(f"x{i + 1}" for i in a.kmeans.centres)
        return (f"**Start (assignment 0):** the centres are the points {starts} "
                f"(k-means++, seeded); each point goes to the nearest in feature space, "
                f"‖φ(x) − φ(xₛ)‖² = K(x,x) − 2K(x,xₛ) + K(xₛ,xₛ). Cluster sizes {sizes}; "
                f"W = {fmt_num(tr['inertia'])}.")
    if ph.kind == "assign":
        return (f"**Assignment {ph.t}:** each point to its nearest implicit centroid. "
                f"{tr['changed']} point(s) changed cluster. Cluster sizes {sizes}; "
                f"W = {fmt_num(tr['inertia'])}"
                + (" — unchanged: converged." if tr["changed"] == 0 else "."))
    moving = len(ph.movers)
    return (f"**Distances after assignment {ph.t}:** ‖φ(xᵢ) − μ_c‖² = Kᵢᵢ − (2/|C|)Σⱼ∈C Kᵢⱼ "
            f"+ (1/|C|²)Σⱼ,ₗ∈C Kⱼₗ for every point and cluster — μ_c is never formed. The "
            f"shading is the nearest centroid; {moving} point(s) (ringed) are nearer another "
            f"cluster's and move at the next assignment.")


def mover_rows(X, ph: Phase, limit: int = 10) -> list[dict]:
    """The distances of the points the next assignment moves (at most ``limit``)."""
    rows = []
    for i in ph.movers[:limit]:
        row = {"point": f"x{i + 1}", "x1": fmt_num(X[i, 0]), "x2": fmt_num(X[i, 1]),
               "cluster now": f"C{ph.labels[i] + 1}"}
        for c in range(ph.D.shape[1]):
            row[f"‖φ(x) − μ{c + 1}‖²"] = fmt_num(ph.D[i, c]) if math.isfinite(ph.D[i, c]) else "∞"
        row["next"] = f"C{int(np.argmin(ph.D[i])) + 1}"
        rows.append(row)
    return rows


def eigen_rows(a: Answer) -> list[dict]:
    """The first BARS eigenvalues of K̃ and linear PCA's (N × those of S, the same scale)."""
    n = a.pca.n
    lin = a.linear.eigenvalues * n
    rows = []
    cov = a.pca.covariance_eigenvalues
    for i, lam in enumerate(a.pca.eigenvalues[:BARS]):
        frac = a.pca.explained[i] if i < a.pca.n_components else 0.0
        rows.append({"i": i + 1, "λᵢ of K̃": fmt_num(lam),
                     "λᵢ/N": fmt_num(cov[i]) if i < len(cov) else fmt_num(lam / n),
                     "share": fmt_pct(frac),
                     "linear PCA: N·λᵢ(S)": fmt_num(lin[i]) if i < len(lin) else "–"})
    return rows
