"""Kernel PCA: principal components in the feature space of a kernel, from the Gram matrix;
and linear PCA, for comparison.

Problem (seed 002, "Kernel PCA"): the eigenvectors vᵢ of the covariance of the centred
feature vectors, C = (1/N) Σₗ φ̃(xₗ)φ̃(xₗ)ᵀ, φ̃(x) = φ(x) − (1/N) Σₗ φ(xₗ). Each vᵢ = Σₗ aᵢₗ φ̃(xₗ)
(the dual form), and the aᵢ solve the eigenvalue problem of the centred Gram matrix

    K̃ aᵢ = λᵢ aᵢ,     K̃ = K − 1_N K − K 1_N + 1_N K 1_N    (1_N: the N × N matrix of 1/N),

with λᵢ = N·(the covariance's eigenvalue). Normalisation (seed 002): ‖vᵢ‖ = 1 in feature
space, i.e. aᵢᵀK̃aᵢ = λᵢ‖aᵢ‖² = 1 — the convention here: ‖aᵢ‖ = 1/√λᵢ. The coordinate of a
point on vᵢ is then yᵢ(x) = vᵢᵀφ̃(x) = Σₗ aᵢₗ k̃(x, xₗ):

- training points: the rows of K̃ aᵢ = λᵢ aᵢ (= √λᵢ times the unit eigenvector);
- new points z (test centring): k̃(z, xₗ) = k(z, xₗ) − (1/N)Σⱼ k(z, xⱼ) − (1/N)Σⱼ k(xⱼ, xₗ)
  + (1/N²)Σⱼₘ k(xⱼ, xₘ), i.e. K̃_z = K_z − 1′K − K_z 1_N + 1′K 1_N, 1′ the m × N matrix of 1/N.
  Seed 002's summary writes yᵢ(x) = Σₗ aᵢₗ k(x, xₗ), uncentred. As K̃1 = 0, every aᵢ of a
  λᵢ ≠ 0 has Σₗ aᵢₗ = 0, so the terms of k̃ constant in l cancel, but not the column means:
  the uncentred formula is off by the constant Σₗ aᵢₗ·(1/N)Σⱼ k(xⱼ, xₗ) per component, which
  moves the new points away from the training points' picture. `transform` centres.

Only eigenvalues λᵢ > `tolerance` (the Mercer check's rounding allowance, `gram.mercer_check`)
make components: a zero λ has no direction to normalise, a negative one (a kernel that is not
positive semi-definite) no real √λ. Signs: each aᵢ is turned so that its entry of largest
|aᵢₗ| is positive (a deterministic choice; any sign is an eigenvector).

Source: seed 002 (Odobez), the kernel PCA slides; Schölkopf, Smola & Müller (Neural
Computation 1998). scikit-learn's KernelPCA: ``eigenvalues_`` are the λᵢ here (of K̃, not
divided by N), ``eigenvectors_`` the unit eigenvectors (aᵢ·√λᵢ), and ``transform`` the same
test centring (tests/test_kernel_pca.py).

| seed 002 | here             | meaning                                                     |
|----------|------------------|-------------------------------------------------------------|
| K, K̃     | `K`, `Kc`        | the Gram matrix and the centred one                         |
| λᵢ       | `eigenvalues`    | eigenvalues of K̃, descending (= N × the covariance's)       |
| aᵢ       | `alphas[:, i]`   | the dual coefficients, λᵢ‖aᵢ‖² = 1                          |
| yᵢ(x)    | `projections`, `transform` | the coordinate on the i-th component             |
| N        | `n`              | the number of training points                               |
| u, S     | `LinearPCA`      | linear PCA: unit eigenvectors of S = (1/N)Σ(x − x̄)(x − x̄)ᵀ  |
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from .gram import MercerCheck, mercer_check


def centre_gram(K) -> np.ndarray:
    """K̃ = K − 1_N K − K 1_N + 1_N K 1_N (the Gram matrix of the centred φ̃)."""
    K = np.asarray(K, dtype=float)
    row = K.mean(axis=0)                         # (1_N K)ᵢⱼ = mean over l of Kₗⱼ
    return K - row[None, :] - K.mean(axis=1)[:, None] + K.mean()


def centre_rows(K_new, K) -> np.ndarray:
    """K̃_z for new points: K_z (m, N) = k(zₐ, xₗ), centred with the training Gram matrix K."""
    K_new = np.asarray(K_new, dtype=float)
    K = np.asarray(K, dtype=float)
    return K_new - K.mean(axis=0)[None, :] - K_new.mean(axis=1)[:, None] + K.mean()


def _flip(V: np.ndarray) -> np.ndarray:
    """Each column turned so that its entry of largest magnitude is positive."""
    big = np.argmax(np.abs(V), axis=0)
    signs = np.sign(V[big, np.arange(V.shape[1])])
    return V * np.where(signs == 0, 1.0, signs)


@dataclass(eq=False)
class KernelPCAResult:
    eigenvalues: np.ndarray      # every eigenvalue of K̃, descending (negative ones included)
    alphas: np.ndarray           # (N, r): the kept components' aᵢ, λᵢ‖aᵢ‖² = 1
    tolerance: float             # eigenvalues ≤ this make no component
    K: np.ndarray = field(repr=False)
    Kc: np.ndarray = field(repr=False)

    @property
    def n(self) -> int:
        return len(self.K)

    @property
    def n_components(self) -> int:
        return self.alphas.shape[1]

    @property
    def kept(self) -> np.ndarray:
        """The eigenvalues of the components, λ₁ ≥ … ≥ λ_r > tolerance."""
        return self.eigenvalues[: self.n_components]

    @property
    def explained(self) -> np.ndarray:
        """λᵢ / Σⱼ λⱼ over the kept components: the fraction of the feature-space variance
        (the trace of C, from the positive eigenvalues) along each."""
        return self.kept / self.kept.sum() if self.n_components else self.kept

    @property
    def covariance_eigenvalues(self) -> np.ndarray:
        """λᵢ / N: the eigenvalues of C itself (with linear K: those of linear PCA's S)."""
        return self.kept / self.n

    @property
    def projections(self) -> np.ndarray:
        """(N, r): yᵢ(xₗ) = (K̃aᵢ)ₗ for the training points."""
        return self.Kc @ self.alphas

    def transform(self, K_new) -> np.ndarray:
        """(m, r): yᵢ(z) for new points, K_new (m, N) = k(zₐ, xₗ) (test centring)."""
        K_new = np.asarray(K_new, dtype=float)
        if K_new.ndim != 2 or K_new.shape[1] != self.n:
            raise ValueError(f"K_new must have shape (m, {self.n}): the new points' kernel "
                             f"values against the {self.n} training points; got {K_new.shape}")
        return centre_rows(K_new, self.K) @ self.alphas


def kernel_pca(K, n_components: int | None = None, check: MercerCheck | None = None
               ) -> KernelPCAResult:
    """Kernel PCA of the Gram matrix K (module docstring): the eigenvalues of K̃ and the
    normalised aᵢ of the first ``n_components`` (None: every λ > tolerance). ValueError for a
    K that is not square, symmetric and finite, or a bad n_components. ``check``: K's
    `gram.mercer_check`, when the caller has it already (not computed twice)."""
    chk = mercer_check(K) if check is None else check   # square, finite; the tolerance
    if not chk.symmetric:
        raise ValueError(f"K is not symmetric (max |Kᵢⱼ − Kⱼᵢ| = {chk.asymmetry:.3g}); a Gram "
                         "matrix is")
    K = np.asarray(K, dtype=float)
    Kc = centre_gram(K)
    lam, V = np.linalg.eigh(0.5 * (Kc + Kc.T))
    lam, V = lam[::-1], V[:, ::-1]
    r = int(np.sum(lam > chk.tolerance))
    if n_components is not None:
        if (isinstance(n_components, bool) or not isinstance(n_components, int | np.integer)
                or n_components < 1):
            raise ValueError(f"n_components must be an integer ≥ 1 or None, got "
                             f"{n_components!r}")
        r = min(r, int(n_components))
    alphas = _flip(V[:, :r]) / np.sqrt(lam[:r])[None, :]
    return KernelPCAResult(eigenvalues=lam, alphas=alphas, tolerance=chk.tolerance, K=K, Kc=Kc)


@dataclass(eq=False)
class LinearPCA:
    """Linear PCA (seed 002, "Standard PCA"): x̄, the unit eigenvectors u of the covariance
    S = (1/N)Σ(xₙ − x̄)(xₙ − x̄)ᵀ (columns, by decreasing eigenvalue), and yₙ = Uᵀ(xₙ − x̄)."""

    mean: np.ndarray
    components: np.ndarray       # (d, d): U, the columns uᵢ
    eigenvalues: np.ndarray      # of S, descending

    @property
    def explained(self) -> np.ndarray:
        total = self.eigenvalues.sum()
        return self.eigenvalues / total if total > 0 else self.eigenvalues

    def transform(self, Z) -> np.ndarray:
        Z = np.atleast_2d(np.asarray(Z, dtype=float))
        return (Z - self.mean) @ self.components


def linear_pca(X) -> LinearPCA:
    """Linear PCA of the rows of X (N × d, N ≥ 1); signs as `kernel_pca`'s (largest entry of
    each uᵢ positive)."""
    X = np.asarray(X, dtype=float)
    if X.ndim != 2 or len(X) == 0 or not np.isfinite(X).all():
        raise ValueError(f"X must be a non-empty (N, d) array of finite numbers, got shape "
                         f"{X.shape}")
    mean = X.mean(axis=0)
    S = (X - mean).T @ (X - mean) / len(X)
    lam, U = np.linalg.eigh(S)
    lam, U = np.maximum(lam[::-1], 0.0), U[:, ::-1]
    return LinearPCA(mean=mean, components=_flip(U), eigenvalues=lam)
