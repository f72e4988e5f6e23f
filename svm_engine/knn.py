"""k nearest neighbours (k-NN), with the Euclidean distance or a distance through a kernel,
and the Voronoi cells of 1-NN.

Problem (seed 003, "kNN algorithm"; seed 002, "Kernelizing k-NN"): to classify a point x,
find the k training points closest to x and give x the majority class among their labels.
Nothing is learned: the classifier *is* the training set (a memory-based method, seed 002:
"fast at training, slow at testing"), where the SVM keeps only its support vectors.

    C(x) = {x_{i₁}, …, x_{i_k}}: the k smallest d(x, xᵢ)
    ŷ(x) = the majority class in {y_{i₁}, …, y_{i_k}}

d is ‖x − xᵢ‖² (Euclidean) or, through a kernel, ‖φ(x) − φ(xᵢ)‖² = K(x, x) + K(xᵢ, xᵢ) −
2K(x, xᵢ) (`kernel_distance.py`): the Gaussian kernel's is an increasing function of the
Euclidean distance (the same neighbours), the polynomial kernel's is not.

Ties, stated once:
- between neighbours at the same distance: the point that comes first in the data wins;
- between classes with as many votes: the class that comes first in sorted order wins (as
  scikit-learn's KNeighborsClassifier).

1-NN's Voronoi cells (seed 003, "1NN decision boundary"): the cell of xᵢ is the set of
places closer to xᵢ than to any other point; 1-NN gives the whole cell xᵢ's class, so its
decision boundary is made of the cell edges between points of different classes
(`voronoi_edges`, from scipy.spatial.Voronoi).

| seed 002 / 003     | here                 | meaning                                          |
|--------------------|----------------------|--------------------------------------------------|
| D = {(xᵢ, yᵢ)}     | X, y                 | the training points and their labels (any kind)  |
| K                  | k                    | the number of neighbours                          |
| C(x)               | neighbours[a]        | the indices of the k nearest, nearest first      |
| d(x, xᵢ)           | D2[a, i]             | the squared distance (Euclidean or the kernel's) |
| g (majority)       | votes, predicted     | the votes per class and the winner               |
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from .kernel_distance import squared_distances
from .validation import check_integer, check_X

#: distances computed at once (query points × training points): ~16 MB of float64
BLOCK = 2_000_000


@dataclass(frozen=True, eq=False)
class Neighbours:
    """The k-NN answer for a set of query points."""

    classes: np.ndarray      # the labels in sorted order
    neighbours: np.ndarray   # (m, k): training indices, nearest first
    distances: np.ndarray    # (m, k): their squared distances
    votes: np.ndarray        # (m, len(classes)): votes per class
    index: np.ndarray        # (m,): the winning class's index into classes

    @property
    def predicted(self) -> np.ndarray:
        return self.classes[self.index]


def _check(X, y, k):
    X = check_X(X)  # the engine's one check of X (named errors)
    y = np.asarray(y)
    if y.shape != (len(X),):
        raise ValueError(f"y must have one label per point ({len(X)}), got shape {y.shape}")
    k = check_integer("k", k, 1, len(X))
    classes, codes = np.unique(y, return_inverse=True)
    return X, codes.reshape(-1), classes, k


def k_smallest(D2: np.ndarray, k: int) -> np.ndarray:
    """(m, k) indices of the k smallest entries of each row, smallest first; equal values in
    index order (argmin returns the first one)."""
    D = np.array(D2, dtype=float, copy=True)
    rows = np.arange(len(D))
    out = np.empty((len(D), k), dtype=np.int64)
    for step in range(k):
        j = np.argmin(D, axis=1)
        out[:, step] = j
        D[rows, j] = np.inf
    return out


def kneighbours(X, y, Z, k: int = 1, kernel=None) -> Neighbours:
    """The k nearest training points of every row of Z and the majority vote (module
    docstring); ``kernel=None``: the Euclidean distance, else the kernel's distance.
    Raises ValueError naming a bad argument."""
    X, codes, classes, k = _check(X, y, k)
    Z = np.asarray(Z, dtype=float)
    if Z.ndim == 1:
        Z = Z.reshape(1, -1)
    m, n = len(Z), len(X)
    nb = np.empty((m, k), dtype=np.int64)
    dist = np.empty((m, k))
    step = max(1, BLOCK // n)
    for a in range(0, m, step):
        D2 = squared_distances(kernel, Z[a:a + step], X)
        idx = k_smallest(D2, k)
        nb[a:a + step] = idx
        dist[a:a + step] = np.take_along_axis(D2, idx, axis=1)
    votes = np.zeros((m, len(classes)), dtype=np.int64)
    np.add.at(votes, (np.repeat(np.arange(m), k), codes[nb].reshape(-1)), 1)
    return Neighbours(classes=classes, neighbours=nb, distances=dist, votes=votes,
                      index=np.argmax(votes, axis=1))   # first of the tied: sorted order


def grid_classes(X, y, xs, ys, k: int = 1, kernel=None) -> np.ndarray:
    """(len(ys), len(xs)): the index (into the sorted classes) k-NN gives each place of the
    grid xs × ys: the decision regions."""
    gx, gy = np.meshgrid(np.asarray(xs, dtype=float), np.asarray(ys, dtype=float))
    Z = np.column_stack([gx.ravel(), gy.ravel()])
    return kneighbours(X, y, Z, k, kernel).index.reshape(gx.shape)


def voronoi_edges(X, x_range, y_range) -> tuple[np.ndarray, np.ndarray]:
    """The edges of the points' Voronoi cells inside the box x_range × y_range, as
    (segments (e, 2, 2), pairs (e, 2)): each edge's two ends, and the two points (indices of
    X; a repeated point: its first copy) whose cells it separates.

    Four far-away points are added around the box so that every cell of a real point is
    bounded (no infinite ridges) and Qhull works for one, two or collinear points; they are
    farther than 3 box-and-points diameters, so no place in the box is closer to one of them
    than to a real point: the edges inside the box are exactly the real points' own."""
    from scipy.spatial import QhullError, Voronoi

    X = np.asarray(X, dtype=float)
    if X.ndim != 2 or X.shape[1] != 2 or not np.isfinite(X).all():
        raise ValueError(f"X must be finite points in the plane (n, 2), got shape {X.shape}")
    (x0, x1), (y0, y1) = sorted(map(float, x_range)), sorted(map(float, y_range))
    if len(X) == 0:
        return np.zeros((0, 2, 2)), np.zeros((0, 2), dtype=np.int64)
    P, first = np.unique(X, axis=0, return_index=True)
    m = len(P)
    corners = np.array([[x0, y0], [x1, y1], *P.min(axis=0, keepdims=True),
                        *P.max(axis=0, keepdims=True)])
    centre = (corners.min(axis=0) + corners.max(axis=0)) / 2
    diam = max(float(np.linalg.norm(corners.max(axis=0) - corners.min(axis=0))), 1.0)
    far = centre + 10 * diam * np.array([[-1, -1], [1, -1], [1, 1], [-1, 1]])
    try:
        V = Voronoi(np.vstack([P, far]))
    except QhullError:     # nearly coincident points: let Qhull joggle them
        V = Voronoi(np.vstack([P, far]), qhull_options="QJ")
    segs, pairs = [], []
    for (p, q), verts in zip(V.ridge_points, V.ridge_vertices, strict=True):
        if p >= m or q >= m or -1 in verts:
            continue
        seg = _clip(V.vertices[verts[0]], V.vertices[verts[1]], (x0, x1), (y0, y1))
        if seg is not None:
            segs.append(seg)
            pairs.append(sorted((int(first[p]), int(first[q]))))
    if not segs:
        return np.zeros((0, 2, 2)), np.zeros((0, 2), dtype=np.int64)
    return np.array(segs), np.array(pairs, dtype=np.int64)


def _clip(a, b, xr, yr):
    """The part of the segment a–b inside the box (Liang–Barsky), or None."""
    t0, t1 = 0.0, 1.0
    d = b - a
    for p, q in ((-d[0], a[0] - xr[0]), (d[0], xr[1] - a[0]),
                 (-d[1], a[1] - yr[0]), (d[1], yr[1] - a[1])):
        if p == 0:
            if q < 0:
                return None
            continue
        t = q / p
        if p < 0:
            t0 = max(t0, t)
        else:
            t1 = min(t1, t)
        if t0 > t1:
            return None
    return np.array([a + t0 * d, a + t1 * d])
