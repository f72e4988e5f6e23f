"""The quadratic kernel's explicit feature map, and the fitted plane in that feature space.

Seed 002 (Odobez) and seed 004; slides 24–29 (Zaki & Meira ch. 21). For x, z in R²:

    (xᵀz)²     = φ₀(x)ᵀφ₀(z),  φ₀(x) = (x₁², √2·x₁x₂, x₂²)                       (homogeneous)
    (xᵀz + c)² = φ_c(x)ᵀφ_c(z), φ_c(x) = (x₁², √2·x₁x₂, x₂², √(2c)·x₁, √(2c)·x₂, c)  (c > 0)

(seed 004's expansion: Σᵢⱼ(xᵢxⱼ)(zᵢzⱼ) + Σᵢ(√(2c)xᵢ)(√(2c)zᵢ) + c²). A model fitted with
either kernel is a plane in that space (slide 28): h(x) = w_φᵀφ(x) + b, w_φ = Σ αᵢyᵢφ(xᵢ),
and the plane's preimage in R² is the conic h(x) = 0, the boundary the Playground draws.

What a 3-D picture can show (`view_3d`): φ₀ has three coordinates, so the homogeneous
kernel's feature space is drawn as it is, the plane included. φ_c has six, one of them the
constant c, and no three of them carry the plane: h also depends on the three left out. So for
c > 0 the picture is a projection chosen to keep the plane exact: the first axis is the unit
normal w_φ/‖w_φ‖ (the signed distance to the plane is read on it, exactly), the other two are
the two directions perpendicular to w_φ along which the lifted points spread most.

The map is written for d = 2 inputs (the app's plane); other d raise ValueError.
"""

from __future__ import annotations

import math
import numbers
from dataclasses import dataclass

import numpy as np

from .kernels import Polynomial

SQRT2 = math.sqrt(2.0)
HOMOGENEOUS_NAMES = ("x1²", "√2·x1x2", "x2²")
INHOMOGENEOUS_NAMES = HOMOGENEOUS_NAMES + ("√(2c)·x1", "√(2c)·x2", "c")


def _check_c(c) -> float:
    if isinstance(c, bool) or not isinstance(c, numbers.Real) or not math.isfinite(c):
        raise ValueError(f"c must be a finite number ≥ 0, got {c!r}")
    if c < 0:
        raise ValueError(f"c = {c!r} < 0: (xᵀz + c)² has no real feature map (√(2c) is "
                         "imaginary) and is not a kernel; expected c ≥ 0")
    return float(c)


def _check_points(X, name: str = "X") -> np.ndarray:
    A = np.asarray(X, dtype=float)
    if A.ndim == 1:
        A = A.reshape(1, -1)
    if A.ndim != 2 or A.shape[1] != 2:
        raise ValueError(f"{name} must be points in the plane, shape (n, 2); got shape {A.shape}")
    if not np.isfinite(A).all():
        raise ValueError(f"{name} holds a value that is not a finite number")
    return A


def feature_names(c: float) -> tuple[str, ...]:
    """The coordinates of φ₀ (c = 0) or φ_c (c > 0)."""
    return HOMOGENEOUS_NAMES if _check_c(c) == 0 else INHOMOGENEOUS_NAMES


def quadratic_map(X, c: float = 0.0) -> np.ndarray:
    """φ(x) for each row of X: (n, 3) for c = 0, (n, 6) for c > 0 (module docstring)."""
    c = _check_c(c)
    X = _check_points(X)
    x1, x2 = X[:, 0], X[:, 1]
    cols = [x1 * x1, SQRT2 * x1 * x2, x2 * x2]
    if c > 0:
        r = math.sqrt(2.0 * c)
        cols += [r * x1, r * x2, np.full(len(X), c)]
    return np.column_stack(cols)


@dataclass(frozen=True)
class IdentityCheck:
    """K(x, z) computed twice: from the kernel formula and as φ(x)ᵀφ(z)."""

    c: float
    phi_x: np.ndarray
    phi_z: np.ndarray
    by_kernel: float      # (xᵀz + c)²
    by_map: float         # φ(x)ᵀφ(z)

    @property
    def difference(self) -> float:
        return abs(self.by_kernel - self.by_map)

    @property
    def allowed(self) -> float:
        """What rounding alone can make the two differ by: both sums have a handful of terms,
        each term of magnitude ≤ (‖x‖‖z‖ + c)², so a few ulps of that (8ε·(‖x‖‖z‖ + c)²)."""
        scale = (np.linalg.norm(self.phi_x) * np.linalg.norm(self.phi_z))
        return 8.0 * np.finfo(float).eps * max(scale, np.finfo(float).tiny)

    @property
    def holds(self) -> bool:
        return self.difference <= self.allowed


def identity(x, z, c: float = 0.0) -> IdentityCheck:
    """K(x, z) = φ(x)ᵀφ(z), checked numerically for two points."""
    c = _check_c(c)
    x, z = _check_points(x, "x"), _check_points(z, "z")
    if len(x) != 1 or len(z) != 1:
        raise ValueError(f"x and z must be single points; got {len(x)} and {len(z)}")
    px, pz = quadratic_map(x, c)[0], quadratic_map(z, c)[0]
    by_kernel = float(Polynomial(degree=2, coef0=c)(x, z)[0, 0])
    return IdentityCheck(c=c, phi_x=px, phi_z=pz, by_kernel=by_kernel, by_map=float(px @ pz))


# ------------------------------------------------------------------ the plane of a fitted model


def quadratic_c(model) -> float:
    """c of a model fitted with (xᵀz + c)², c ≥ 0, on points in the plane; else ValueError."""
    k = model.kernel
    if not (isinstance(k, Polynomial) and k.degree == 2):
        raise ValueError(f"the feature map is drawn for the quadratic kernel (xᵀz + c)²; this "
                         f"model has {getattr(k, 'label', k)!r}")
    if model.X.shape[1] != 2:
        raise ValueError(f"the feature map is drawn for points in the plane; this model has "
                         f"{model.X.shape[1]} features")
    return _check_c(k.coef0)


@dataclass(frozen=True)
class FeaturePlane:
    """h(x) = wᵀφ(x) + b: the fitted plane in feature space (w = w_φ = Σ αᵢyᵢφ(xᵢ))."""

    c: float
    w: np.ndarray
    b: float

    @property
    def names(self) -> tuple[str, ...]:
        return feature_names(self.c)

    def decision(self, X) -> np.ndarray:
        return quadratic_map(X, self.c) @ self.w + self.b

    def conic(self) -> np.ndarray:
        """(A, B, C, D, E, F) with h(x) = A·x1² + B·x1x2 + C·x2² + D·x1 + E·x2 + F: the plane's
        preimage h(x) = 0 is this conic in the plane of the inputs (the coefficients only:
        the Kernels page writes the equation, ui/kernels/text.py `preimage_equation`)."""
        w = self.w
        A, B, C = w[0], SQRT2 * w[1], w[2]
        if self.c > 0:
            r = math.sqrt(2.0 * self.c)
            return np.array([A, B, C, r * w[3], r * w[4], self.c * w[5] + self.b])
        return np.array([A, B, C, 0.0, 0.0, self.b])


def conic_points(coef, x_range, y_range, m: int = 200) -> np.ndarray:
    """Points of the conic A·x1² + B·x1x2 + C·x2² + D·x1 + E·x2 + F = 0 in the box, solved
    exactly: for each of m values of x1 the roots in x2, and for each of m values of x2 the
    roots in x1 (so that steep and flat parts are both sampled). (k, 2), unordered."""
    A, B, C, D, E, F = (float(v) for v in coef)
    (x0, x1), (y0, y1) = x_range, y_range
    out = []
    for t in np.linspace(x0, x1, m):           # C·v² + (B·t + E)·v + (A·t² + D·t + F) = 0
        for v in _roots(C, B * t + E, A * t * t + D * t + F):
            if y0 <= v <= y1:
                out.append((t, v))
    for t in np.linspace(y0, y1, m):           # A·u² + (B·t + D)·u + (C·t² + E·t + F) = 0
        for u in _roots(A, B * t + D, C * t * t + E * t + F):
            if x0 <= u <= x1:
                out.append((u, t))
    return np.array(out, dtype=float).reshape(-1, 2)


def _roots(a: float, b: float, c: float) -> list[float]:
    """Real roots of a·v² + b·v + c (a linear or empty equation when a is 0 to rounding);
    the stable form avoids cancellation between −b and √disc."""
    scale = max(abs(a), abs(b), abs(c))
    if scale == 0.0:
        return []
    if abs(a) <= 1e-12 * scale:
        return [] if b == 0.0 else [-c / b]
    disc = b * b - 4.0 * a * c
    if disc < 0:
        return []
    q = -0.5 * (b + math.copysign(math.sqrt(disc), b))
    roots = [q / a]
    if q != 0.0:
        roots.append(c / q)
    return roots


def feature_plane(model) -> FeaturePlane:
    """w_φ = Σ αᵢyᵢφ(xᵢ) and b of a model fitted with (xᵀz + c)² (slide 28)."""
    c = quadratic_c(model)
    w = (model.alpha * model.y) @ quadratic_map(model.X, c)
    return FeaturePlane(c=c, w=w, b=float(model.b))


@dataclass(frozen=True)
class View3D:
    """Points in a 3-D picture of feature space, and the plane there: normalᵀu + b = h."""

    c: float
    points: np.ndarray     # (n, 3)
    axes: tuple[str, str, str]
    normal: np.ndarray     # (3,): normalᵀu + b equals h at every lifted point
    b: float
    exact: bool            # True: the axes are the feature coordinates themselves
    basis: np.ndarray      # (dim φ, 3): u = φ(x) @ basis
    note: str

    def lift(self, X) -> np.ndarray:
        """Other points of the plane of inputs (e.g. the boundary curve) in the same view."""
        return quadratic_map(X, self.c) @ self.basis


def view_3d(model) -> View3D:
    """The lifted points and the separating plane in 3-D (module docstring)."""
    plane = feature_plane(model)
    Phi = quadratic_map(model.X, plane.c)
    if plane.c == 0:
        return View3D(c=0.0, points=Phi, axes=HOMOGENEOUS_NAMES, normal=plane.w.copy(), b=plane.b,
                      exact=True, basis=np.eye(3),
                      note="φ(x) = (x1², √2·x1x2, x2²) has three coordinates: this is the "
                           "whole feature space, and the plane is wᵀφ(x) + b = 0 itself.")
    return _normal_view(Phi, plane)


def _normal_view(Phi: np.ndarray, plane: FeaturePlane) -> View3D:
    w = plane.w
    norm = float(np.linalg.norm(w))
    if norm == 0.0:
        raise ValueError("w_φ = 0: the model is a constant, there is no plane to draw")
    e1 = w / norm
    # the spread perpendicular to w_φ: principal directions of the centred, projected points
    P = Phi - Phi.mean(axis=0)
    P = P - np.outer(P @ e1, e1)
    _, _, Vt = np.linalg.svd(P, full_matrices=True)
    others = [v - (v @ e1) * e1 for v in Vt]          # orthogonal to e1 (up to rounding)
    basis = [e1]
    for v in others:
        v = v - sum((v @ e) * e for e in basis)
        if np.linalg.norm(v) > 1e-8:
            basis.append(v / np.linalg.norm(v))
        if len(basis) == 3:
            break
    B = np.column_stack(basis)
    return View3D(c=plane.c, points=Phi @ B, axes=("w_φᵀφ(x) / ‖w_φ‖", "⊥ w_φ: spread 1",
                                                     "⊥ w_φ: spread 2"),
                  normal=np.array([norm, 0.0, 0.0]), b=plane.b, exact=False, basis=B,
                  note="φ(x) = (x1², √2·x1x2, x2², √(2c)·x1, √(2c)·x2, c) has six "
                       "coordinates, and no three of them carry the plane. This view is a "
                       "projection: the first axis is the plane's unit normal w_φ/‖w_φ‖, so "
                       "distances to the plane are exact; the other two are the directions ⊥ "
                       "w_φ along which the lifted points spread most.")
