"""Distance through a kernel: how far apart two points are in the feature space of K.

Problem: k-NN (and k-means) need ‖x − z‖², but a kernel method never forms φ(x). Seed 002
("Kernelizing k-NN") expands the square into dot products and replaces each by the kernel:

    ‖φ(x) − φ(z)‖² = φ(x)·φ(x) − 2φ(x)·φ(z) + φ(z)·φ(z) = K(x, x) + K(z, z) − 2K(x, z)

| seed 002            | here               | meaning                                           |
|---------------------|--------------------|---------------------------------------------------|
| x, xᵢ               | Z[a], X[i]         | a query point, a training point                   |
| k(x, x')            | kernel(X, Z)       | K = φ(x)·φ(x') (`svm_engine.kernels`)             |
| ‖φ(x) − φ(xᵢ)‖²     | D2[a, i]           | the squared distance in the feature space         |

What it gives for the engine's kernels:
- linear K = xᵀz: ‖x − z‖², the Euclidean distance itself (up to rounding);
- Gaussian K = exp(−‖x − z‖²/(2σ²)): 2 − 2·exp(−‖x − z‖²/(2σ²)), an increasing function of
  the Euclidean distance: the same order, so the same nearest neighbours (ties aside); it
  saturates at 2 for points far apart compared with σ;
- polynomial (c + xᵀz)^q: not a function of ‖x − z‖ alone (it depends on where the points
  are, e.g. their norms): the neighbours change.

Rounding can leave a tiny negative value where the distance is 0 (x = z): it is clipped to 0.
Cost: one K(Z, X) block, plus the diagonals K(x, x), from the compiled kernel code.
"""

from __future__ import annotations

import numpy as np

from . import kernel_values as kv


def _points(name: str, A) -> np.ndarray:
    A = np.asarray(A, dtype=float)
    if A.ndim == 1:
        A = A.reshape(1, -1)
    if A.ndim != 2 or A.shape[1] == 0:
        raise ValueError(f"{name} must be a 2-D array (points × features), got shape {A.shape}")
    if not np.isfinite(A).all():
        raise ValueError(f"{name} contains NaN or inf; expected finite coordinates")
    return A


def self_similarity(kernel, A) -> np.ndarray:
    """K(aᵢ, aᵢ) for every row of A (one pair at a time: no m × m matrix)."""
    A = _points("A", A)
    return np.array([float(kernel(a, a)[0, 0]) for a in A]) if len(A) else np.zeros(0)


def squared_distances(kernel, Z, X) -> np.ndarray:
    """D2[a, i] = ‖φ(Z[a]) − φ(X[i])‖² = K(z, z) + K(x, x) − 2K(z, x), clipped at 0.

    ``kernel=None`` is the Euclidean distance ‖z − x‖² computed directly (no kernel)."""
    Z, X = _points("Z", Z), _points("X", X)
    if Z.shape[1] != X.shape[1]:
        raise ValueError(f"Z has {Z.shape[1]} features and X {X.shape[1]}; expected the same")
    if kernel is None:
        D2 = np.zeros((len(Z), len(X)))
        for k in range(Z.shape[1]):                # one feature at a time: no m × n × d
            diff = Z[:, k, None] - X[None, :, k]
            D2 += diff * diff
        return D2
    kzz = _diagonal(kernel, Z)
    kxx = _diagonal(kernel, X)
    D2 = kzz[:, None] + kxx[None, :] - 2.0 * kernel(Z, X)
    return np.maximum(D2, 0.0)


def _diagonal(kernel, A) -> np.ndarray:
    """K(a, a) for every row, from the compiled kernel code with K(X, Z)'s operations (so
    that D2 = 0 exactly where z = x): `kernel_values.kernel_diag`; any other kernel object
    (a callable K(A, B)) one pair at a time."""
    numbers = getattr(kernel, "as_numbers", None)
    if numbers is None:
        return self_similarity(kernel, A)
    return kv.kernel_diag(numbers, np.ascontiguousarray(A, dtype=float))
