"""Take a fitted model away: as JSON (and back), and as scikit-learn code.

``to_json(model)`` writes the settings (kernel and its parameters, loss, C, bias, solver),
α, b, w (linear kernel), the support vectors with their labels and α, the training points,
and whether the fit converged. ``from_json(text)`` reads it back into an `ExportedModel`
whose ``decision_function`` is h(z) = Σₛ αₛyₛK(xₛ, z) + b computed as
`SVMModel.decision_function` computes it (Z @ w + b for the linear kernel), so it gives the
same numbers. Strict JSON: no NaN or Infinity (the hard margin's C = ∞ is written as
``"C": null, "hard_margin": true``; an infinite margin as null).

``sklearn_code(model)`` is Python source that rebuilds the model with scikit-learn on the same
points. scikit-learn has the SVM Lab problem only for some settings; ``sklearn_plan(model)``
says which estimator is used and why:

| SVM Lab model                                | scikit-learn                           |
|----------------------------------------------|----------------------------------------|
| hinge loss, free bias (smo, qp)              | SVC(C, kernel): the same problem        |
| linear kernel, augmented bias (b penalised)  | LinearSVC(loss="hinge"/"squared_hinge",|
|   hinge or quadratic loss (qp, sga, newton)  |   intercept_scaling=1): its intercept   |
|                                              |   is a weight on a constant-1 feature   |
| PSVM, linear kernel                          | RidgeClassifier(alpha = 1/(2C),        |
|                                              |   fit_intercept=False) on (x, 1)        |
| quadratic loss with a free bias; augmented   | none: SVC is hinge loss with a free    |
|   bias or PSVM with a non-linear kernel      |   bias. The code says so and replicates |
|                                              |   h from the fitted coefficients        |

Kernel parameters: scikit-learn's rbf γ = 1/(2σ²); our polynomial (c + xᵀz)^q is its "poly"
with degree = q, coef0 = c, gamma = 1. The hard margin (C = ∞) is the soft margin with any
C ≥ max αᵢ (the hard-margin optimum is feasible there and still optimal): the code uses
C = 10·max αᵢ. Every generated program defines ``h(Z)`` (SVM Lab's h, from scikit-learn's
``decision_function``) and ends by printing the largest |h_sklearn − h_SVM Lab| on the
training points, against the values SVM Lab computed. Agreement is limited by LIBSVM's
kernel cache, kept in single precision: |Δh| ~ 1e-7 relative to the kernel's values (1e-8
absolute on the book's data with the linear or Gaussian kernel, ~1e-5 of max |h| with a cubic
kernel).
"""

from __future__ import annotations

import json
import math
import textwrap
import unicodedata
from dataclasses import dataclass

import numpy as np

from .kernels import Gaussian, Linear, Polynomial, make_kernel
from .validation import check_number

FORMAT, VERSION = "svmlab.model", 1
#: SVM Lab's h at the training points is embedded in the code up to this many points
CHECK_POINTS = 2000


def _num(v) -> float | None:
    v = float(v)
    return v if math.isfinite(v) else None


def kernel_settings(kernel) -> dict:
    """{"name": ..., parameters, plus "gamma" for the Gaussian (scikit-learn's name)}."""
    out = {"name": kernel.name, **kernel.params}
    if isinstance(kernel, Gaussian):
        out["gamma"] = kernel.gamma
    return out


def to_dict(model) -> dict:
    """The model as plain JSON-ready data (see the module docstring)."""
    sv = np.asarray(model.support, dtype=int)
    w = model.w
    hard = math.isinf(model.C)
    return {
        "format": FORMAT,
        "version": VERSION,
        "settings": {
            "kernel": kernel_settings(model.kernel),
            "loss": model.loss,
            "C": None if hard else float(model.C),
            "hard_margin": hard,
            "bias": model.bias,
            "solver": model.solver,
            "tol": _num(model.tol) if model.tol is not None else None,
        },
        "classes": np.asarray(model.classes).tolist(),
        "decision_function": ("h(x) = sum over s of support_alpha[s]·support_labels[s]·"
                              "K(support_vectors[s], x) + b; predict classes[1] if h(x) > 0 "
                              "else classes[0]"),
        "b": float(model.b),
        "w": None if w is None else np.asarray(w, dtype=float).tolist(),
        "margin": _num(model.margin),
        "support_index": sv.tolist(),
        "support_vectors": model.X[sv].tolist(),
        "support_labels": model.y[sv].astype(int).tolist(),
        "support_alpha": model.alpha[sv].tolist(),
        "alpha": model.alpha.tolist(),
        "points": {"X": model.X.tolist(), "y": model.y.astype(int).tolist()},
        "converged": bool(model.converged),
        "status": str(model.status),
        "n_iter": int(model.n_iter),
        "primal_objective": _num(model.primal_objective),
        "dual_objective": _num(model.dual_objective),
    }


def to_json(model, indent: int | None = 1) -> str:
    return json.dumps(to_dict(model), indent=indent, allow_nan=False, ensure_ascii=False)


@dataclass(eq=False)
class ExportedModel:
    """A model read back from JSON: predicts as the model it was written from."""

    kernel: object
    b: float
    w: np.ndarray | None
    support_vectors: np.ndarray
    support_labels: np.ndarray   # ±1
    support_alpha: np.ndarray
    classes: np.ndarray
    settings: dict
    alpha: np.ndarray
    X: np.ndarray
    y: np.ndarray
    converged: bool
    status: str

    def decision_function(self, Z) -> np.ndarray:
        Z = np.asarray(Z, dtype=float)
        if Z.ndim == 1:
            Z = Z.reshape(1, -1)
        d = self.support_vectors.shape[1] if self.w is None else len(self.w)
        if Z.ndim != 2 or Z.shape[1] != d:
            raise ValueError(f"Z must have shape (m, {d}), got {Z.shape}")
        if self.w is not None:
            return Z @ self.w + self.b
        if len(self.support_alpha) == 0:
            return np.full(len(Z), self.b)
        coef = self.support_alpha * self.support_labels
        return self.kernel.expansion(Z, self.support_vectors, coef) + self.b

    def predict(self, Z) -> np.ndarray:
        return np.where(self.decision_function(Z) > 0, self.classes[1], self.classes[0])


def _array(data: dict, key: str, ndim: int, length: int | None = None,
           width: int | None = None) -> np.ndarray:
    """data[key] as a finite float array of ndim dimensions (an empty list: 0 rows of
    ``width`` columns), else ValueError naming the key."""
    if key not in data:
        raise ValueError(f"the model file has no {key!r}")
    try:
        a = np.array(data[key], dtype=float)
    except (TypeError, ValueError):
        raise ValueError(f"{key!r} must be a list of numbers") from None
    if ndim == 2 and a.size == 0 and width is not None:
        a = a.reshape(0, width)
    if a.ndim != ndim or (length is not None and len(a) != length) or (
            ndim == 2 and width is not None and a.shape[1] != width):
        want = f"{length if length is not None else 'n'}" + (f" × {width}" if ndim == 2 else "")
        raise ValueError(f"{key!r} has shape {a.shape}; expected {want}")
    if not np.isfinite(a).all():
        raise ValueError(f"{key!r} contains a non-finite number")
    return a


def from_dict(data) -> ExportedModel:
    """The inverse of `to_dict`; ValueError naming the field that is missing or wrong."""
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        raise ValueError(f"not an SVM Lab model file (expected \"format\": \"{FORMAT}\")")
    if data.get("version") != VERSION:
        raise ValueError(f"model file version {data.get('version')!r}; expected {VERSION}")
    s = data.get("settings")
    if not isinstance(s, dict) or not isinstance(s.get("kernel"), dict):
        raise ValueError("the model file has no settings.kernel")
    k = s["kernel"]
    kernel = make_kernel(str(k.get("name")), degree=k.get("degree", 2),
                         coef0=k.get("coef0", 1.0), sigma=k.get("sigma", 1.0))
    pts = data.get("points")
    if not isinstance(pts, dict):
        raise ValueError("the model file has no 'points'")
    X = _array(pts, "X", 2)
    y = _array(pts, "y", 1, len(X))
    alpha = _array(data, "alpha", 1, len(X))
    sv = _array(data, "support_vectors", 2, width=X.shape[1])
    n_sv = len(sv)
    labels = _array(data, "support_labels", 1, n_sv)
    if not np.isin(labels, (-1.0, 1.0)).all():
        raise ValueError("'support_labels' must be +1 or −1")
    alpha_sv = _array(data, "support_alpha", 1, n_sv)
    b = check_number("'b'", data.get("b"))
    w = None
    if data.get("w") is not None:
        w = _array(data, "w", 1, X.shape[1])
    elif isinstance(kernel, Linear):
        raise ValueError("a linear model needs 'w'")
    classes = np.array(data.get("classes"))
    if classes.shape != (2,):
        raise ValueError(f"'classes' must hold two labels, got {data.get('classes')!r}")
    return ExportedModel(kernel=kernel, b=float(b), w=w, support_vectors=sv,
                         support_labels=labels, support_alpha=alpha_sv, classes=classes,
                         settings=dict(s), alpha=alpha, X=X, y=y,
                         converged=bool(data.get("converged")), status=str(data.get("status")))


def from_json(text: str | bytes) -> ExportedModel:
    try:
        data = json.loads(text)
    except (UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise ValueError(f"the model file is not valid JSON: {exc}") from None
    return from_dict(data)


# --------------------------------------------------------------------- scikit-learn code

def sklearn_plan(model) -> tuple[str, str]:
    """(estimator, why): "SVC", "LinearSVC", "RidgeClassifier" or "none" (a replica of h
    from the fitted coefficients), with a sentence saying why."""
    linear = isinstance(model.kernel, Linear)
    if model.solver == "psvm":
        if linear:
            return "RidgeClassifier", (
                "the linear proximal SVM minimises ½(‖w‖² + b²) + C·Σ(1 − yᵢh(xᵢ))², which is "
                "ridge regression on the ±1 labels with b as the weight of a constant-1 "
                "feature: RidgeClassifier(alpha = 1/(2C), fit_intercept=False) on (x, 1)")
        return "none", (
            "the proximal SVM with a non-linear kernel penalises the coefficients ū, not the "
            "norm of w in feature space; no scikit-learn estimator solves that problem")
    if model.bias == "free":
        if model.loss == "hinge":
            return "SVC", "SVC solves the same problem: hinge loss with a free bias"
        return "none", (
            "SVC minimises the hinge loss (k = 1), not the quadratic loss (k = 2), and "
            "LinearSVC's squared hinge penalises the bias, which is free here")
    if linear:
        return "LinearSVC", (
            "LinearSVC adds a constant-1 feature (intercept_scaling=1) whose weight is the "
            "bias and penalises it like w: ½(‖w‖² + b²) + C·Σξᵢ^k, the augmented problem "
            "(slide 30)")
    return "none", (
        "here b is penalised like w (the augmented bias) with a non-linear kernel, but SVC's "
        "bias is free (Σαᵢyᵢ = 0) and LinearSVC is linear only")


def _lit(a) -> str:
    """A Python literal of numbers that reads back to the same floats (repr round-trips)."""
    a = np.asarray(a)
    if a.ndim == 0:
        return repr(a.item())
    if a.ndim == 1:
        return "[" + "\n    ".join(textwrap.wrap(", ".join(repr(v) for v in a.tolist()),
                                                  width=92, break_long_words=False)) + "]"
    if len(a) == 0:
        return "[]"
    return "[\n    " + ",\n    ".join(_lit(r) for r in a) + ",\n]"


def _comment(text: str) -> str:
    """Comment lines; a title or status can never end the comment: every control and
    line-separator character becomes a space first."""
    text = "".join(" " if unicodedata.category(c)[0] in "CZ" and c != " " else c
                   for c in str(text))
    return "".join(f"# {line}\n" for line in textwrap.wrap(text, width=94))


def _label_lit(v) -> str:
    v = v.item() if isinstance(v, np.generic) else v
    if isinstance(v, bool) or not isinstance(v, (int, float, str)):
        v = str(v)
    return repr(v)


def _effective_C(model) -> tuple[float, str]:
    if math.isinf(model.C):
        C = 10.0 * float(np.max(model.alpha)) if len(model.alpha) else 1.0
        return C, (f"# the hard margin (C = ∞): the soft margin with C ≥ max αᵢ = "
                   f"{float(np.max(model.alpha)):.6g} has the same optimum\n")
    return float(model.C), ""


def _sklearn_kernel_args(kernel) -> tuple[str, str]:
    """(SVC's kernel arguments, a comment that relates them to ours)."""
    if isinstance(kernel, Linear):
        return 'kernel="linear"', "K(x, z) = xᵀz"
    if isinstance(kernel, Gaussian):
        return (f'kernel="rbf", gamma={kernel.gamma!r}',
                f"γ = 1/(2σ²) with σ = {kernel.sigma!r}")
    if isinstance(kernel, Polynomial):
        return (f'kernel="poly", degree={kernel.degree}, coef0={kernel.coef0!r}, gamma=1.0',
                f"(γ·xᵀz + coef0)^degree = ({kernel.coef0!r} + xᵀz)^{kernel.degree}")
    raise ValueError(f"unknown kernel {kernel!r}")


def _replica_kernel(kernel) -> str:
    if isinstance(kernel, Gaussian):
        return (f"GAMMA = {kernel.gamma!r}  # 1/(2σ²), σ = {kernel.sigma!r}\n\n\n"
                "def kernel(A, B):\n"
                '    """K(a, b) = exp(−γ‖a − b‖²), from the differences (exact far from 0)."""\n'
                "    d2 = ((A[:, None, :] - B[None, :, :]) ** 2).sum(axis=2)\n"
                "    return np.exp(-GAMMA * d2)\n")
    if isinstance(kernel, Polynomial):
        return ("def kernel(A, B):\n"
                f'    """K(a, b) = ({kernel.coef0!r} + aᵀb)^{kernel.degree}."""\n'
                f"    return ({kernel.coef0!r} + A @ B.T) ** {kernel.degree}\n")
    raise ValueError(f"no replica kernel for {kernel!r}")


def sklearn_code(model, title: str = "") -> str:
    """Python source that rebuilds ``model`` with scikit-learn (see `sklearn_plan`), defines
    ``h(Z)`` and prints its largest difference from SVM Lab's h on the training points."""
    kind, why = sklearn_plan(model)
    k = model.kernel
    labels = np.asarray(model.classes)[(np.asarray(model.y) > 0).astype(int)]
    check = min(len(model.y), CHECK_POINTS)
    head = [title or "SVM Lab model",
            f"kernel: {k.label}; loss: {model.loss}; C: "
            f"{'∞ (hard margin)' if math.isinf(model.C) else repr(float(model.C))}; "
            f"bias: {model.bias}; solver: {model.solver}",
            f"SVM Lab's fit: {'converged' if model.converged else 'NOT converged'} "
            f"({model.status})"]
    if not model.converged and kind != "none":
        head.append("scikit-learn finds the optimum: h may differ from SVM Lab's, which "
                    "stopped early")
    out = "".join(_comment(line) for line in head)
    out += "import numpy as np\n"
    body = ""
    if kind == "SVC":
        C, note = _effective_C(model)
        out += "from sklearn.svm import SVC\n\n"
        out += _comment(f"scikit-learn: {why}.")
        args, comment = _sklearn_kernel_args(k)
        body = (note + f"# {comment}; tol=1e-8: the default 1e-3 agrees to ~1e-3 only\n"
                f"clf = SVC(C={C!r}, {args}, tol=1e-8)\n"
                "clf.fit(X, y)\n\n\n"
                "def h(Z):\n"
                "    return clf.decision_function(np.asarray(Z, dtype=float))\n")
    elif kind == "LinearSVC":
        C, note = _effective_C(model)
        loss = "hinge" if model.loss == "hinge" else "squared_hinge"
        out += "from sklearn.svm import LinearSVC\n\n"
        out += _comment(f"scikit-learn: {why}.")
        body = (note + f'clf = LinearSVC(C={C!r}, loss="{loss}", dual=True, '
                "intercept_scaling=1.0,\n"
                "                tol=1e-10, max_iter=1_000_000)\n"
                "clf.fit(X, y)\n\n\n"
                "def h(Z):\n"
                "    return clf.decision_function(np.asarray(Z, dtype=float))\n")
    elif kind == "RidgeClassifier":
        out += "from sklearn.linear_model import RidgeClassifier\n\n"
        out += _comment(f"scikit-learn: {why}.")
        body = ("def with_one(Z):\n"
                "    Z = np.asarray(Z, dtype=float)\n"
                "    return np.hstack([Z, np.ones((len(Z), 1))])\n\n\n"
                f"clf = RidgeClassifier(alpha={1.0 / (2.0 * float(model.C))!r}, "
                "fit_intercept=False)  # 1/(2C)\n"
                "clf.fit(with_one(X), y)\n\n\n"
                "def h(Z):\n"
                "    return clf.decision_function(with_one(Z))\n")
    else:
        out += "\n" + _comment(
            f"scikit-learn cannot refit this model: {why}. Below is SVM Lab's fitted "
            "model itself (its coefficients and b), so h(Z) predicts exactly as SVM Lab does; "
            "it is not refitted.")
        if isinstance(k, Linear):
            body = (f"w = np.array({_lit(model.w)})\n"
                    f"b = {float(model.b)!r}\n\n\n"
                    "def h(Z):\n"
                    "    return np.asarray(Z, dtype=float) @ w + b\n")
        else:
            sv = np.asarray(model.support, dtype=int)
            d = model.X.shape[1]
            body = (_replica_kernel(k) + "\n\n"
                    f"support_vectors = np.array({_lit(model.X[sv])}).reshape(-1, {d})\n"
                    f"dual_coef = np.array({_lit(model.alpha[sv] * model.y[sv])})  # αᵢyᵢ\n"
                    f"b = {float(model.b)!r}\n\n\n"
                    "def h(Z):\n"
                    "    return kernel(np.asarray(Z, dtype=float), support_vectors) @ dual_coef"
                    " + b\n")
    labels_lit = "[" + ", ".join(_label_lit(v) for v in labels.tolist()) + "]"
    out += (f"\nX = np.array({_lit(model.X)})\n"
            f"y = np.array({labels_lit})\n"
            f"classes = [{_label_lit(model.classes[0])}, {_label_lit(model.classes[1])}]"
            "  # h > 0 ↦ classes[1]\n\n")
    out += body
    out += ("\n\ndef predict(Z):\n"
            "    return np.where(h(Z) > 0, classes[1], classes[0])\n\n\n"
            f"# SVM Lab's h at the first {check} training points\n"
            f"h_svmlab = np.array({_lit(np.asarray(model.h_train[:check], dtype=float))})\n"
            f"diff = np.abs(h(X[:{check}]) - h_svmlab).max()\n"
            'print(f"largest |h − h_SVM Lab| on the training points: {diff:.2e}",\n'
            '      f"(max |h| = {np.abs(h_svmlab).max():.3g})")\n')
    return out
