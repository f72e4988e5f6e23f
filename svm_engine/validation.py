"""All input checks of the engine, in one place, with messages that name the bad value."""

from __future__ import annotations

import math
import numbers

import numpy as np

from .jit import njit
from .kernels import KERNELS, Gaussian, Linear, Polynomial
from .solvers import registry as _registry

LOSSES = ("hinge", "quadratic")
BIASES = ("free", "augmented")
SOLVERS = tuple(s.key for s in _registry.SOLVERS)
WSS_RULES = ("second_order", "max_violating_pair")
QP_FORMS = ("dual", "primal")

# What each solver can do (solvers/registry.py); `check_combination` turns it into messages.
SUPPORT = {s.key: {"loss": s.losses, "bias": s.biases, "kernel": ("any",), "hard": s.hard_margin}
           for s in _registry.SOLVERS}


def check_data(X, y) -> tuple[np.ndarray, np.ndarray, np.ndarray, float | None]:
    """`check_X` and `check_y` together: (X copy, y_pm, classes, max ‖xᵢ‖² or None).

    The common case (float64 X, finite, two float64 or int64 labels: the pages send int64)
    is one compiled pass over X and y (`_scan`), which also finds max ‖xᵢ‖² for
    `check_kernel_range`; anything else goes through the two checks, which name what is
    wrong. (Compiled again, after numpy's ten passes: those cost 30–45 µs at n = 1,000, a
    tenth of a warm refit after one click, issue 31; the compiled pass costs ~5. int64
    labels took the two checks and `check_kernel_range`'s own pass: ~30 µs more.)"""
    if (type(X) is np.ndarray and X.dtype == np.float64 and X.ndim == 2 and X.size
            and X.flags.c_contiguous and type(y) is np.ndarray
            and (y.dtype == np.float64 or y.dtype == np.int64)
            and y.shape == (X.shape[0],)):
        ok, lo, hi, top, y_pm, copy = _scan(X, y)
        if ok:   # classes of y's dtype, as `check_y` gives them; X: the model's copy
            return copy, y_pm, np.array([lo, hi], dtype=y.dtype), top
    X = check_X(X)
    y_pm, classes = check_y(y, len(X))
    return X, y_pm, classes, None


@njit(cache=True, nogil=True)
def _scan(X, y):
    """(ok, lo, hi, max ‖xᵢ‖², y_pm, X's copy): ok when every ‖xᵢ‖² is finite (so every xᵢ
    is) and y holds exactly two finite values lo < hi (y_pm: +1 at hi, −1 at lo); lo and hi
    of y's dtype (float64 or int64: integers compared as integers). One pass over X and y
    (X copied as it is read: `np.array`'s second pass and call were ~2–4 µs of a warm refit,
    issue 31), then one over y."""
    n, d = X.shape
    copy = np.empty((n, d))
    top = 0.0
    finite = True
    lo, hi = y[0], y[0]
    for i in range(n):
        r = 0.0
        for c in range(d):
            copy[i, c] = X[i, c]
            r += X[i, c] * X[i, c]
        finite = finite and r < math.inf              # not inf, nor NaN in the row
        top = max(top, r)
        lo, hi = min(lo, y[i]), max(hi, y[i])
    y_pm = np.empty(n)
    if not (finite and lo < hi and -math.inf < lo and hi < math.inf):  # one label, inf / NaN
        return False, lo, hi, 0.0, y_pm, copy
    for i in range(n):
        if y[i] == hi:
            y_pm[i] = 1.0
        elif y[i] == lo:
            y_pm[i] = -1.0
        else:                                          # a third value, or NaN
            return False, lo, hi, 0.0, y_pm, copy
    return True, lo, hi, top, y_pm, copy


def row_norms2(X: np.ndarray) -> np.ndarray:
    """‖xᵢ‖² of every row (inf where it overflows, NaN where X holds one)."""
    return np.einsum("ij,ij->i", X, X)


def _two_labels(Y: np.ndarray):
    """(lo, hi) when the float array Y holds exactly two finite values lo < hi, else None."""
    lo, hi = Y.min(), Y.max()                 # NaN if Y holds one
    if not (-np.inf < lo < hi < np.inf) or not ((Y == lo) | (Y == hi)).all():
        return None
    return float(lo), float(hi)


def check_X(X) -> np.ndarray:
    if (type(X) is np.ndarray and X.dtype == np.float64 and X.ndim == 2 and X.size
            and X.flags.c_contiguous and np.isfinite(X).all()):   # the common case
        return np.array(X, order="C")             # a copy: the model keeps it
    if X is None:
        raise ValueError("X is None; expected a 2-D array of numbers with shape (n, d)")
    try:
        A = np.asarray(X)
    except Exception as exc:  # ragged lists etc.
        raise ValueError(f"X could not be read as an array ({exc}); "
                         "expected shape (n, d)") from None
    if A.dtype == object or not (np.issubdtype(A.dtype, np.number) or A.dtype == bool):
        raise ValueError(f"X must be numeric, got dtype {A.dtype}; "
                         "expected numbers with shape (n, d)")
    if np.issubdtype(A.dtype, np.complexfloating):
        raise ValueError("X must be real numbers, got complex values")
    if A.ndim != 2 and A.size == 0:   # X = [] reads as shape (0,)
        raise ValueError(f"X is empty (shape {A.shape}); expected at least 2 points, one per "
                         "class, with shape (n, d)")
    if A.ndim != 2:
        raise ValueError(f"X must be 2-D with shape (n, d), got {A.ndim}-D with shape {A.shape}")
    if A.shape[0] == 0:
        raise ValueError("X is empty (0 points); expected at least 2 points, one per class")
    if A.shape[1] == 0:
        raise ValueError("X has 0 features; expected shape (n, d) with d ≥ 1")
    A = np.array(A, dtype=float, order="C")          # a copy: the model keeps it
    if not np.isfinite(A).all():
        r, c = np.argwhere(~np.isfinite(A))[0]
        raise ValueError(f"X contains a non-finite value {float(A[r, c])!r} at row {r}, "
                         f"column {c}; expected finite numbers")
    return A


def check_y(y, n: int) -> tuple[np.ndarray, np.ndarray]:
    """Map two distinct labels to −1/+1 in sorted order. Returns (y_pm, classes)."""
    if y is None:
        raise ValueError("y is None; expected one label per point")
    Y = np.asarray(y)
    if Y.ndim != 1:
        Y = Y.reshape(-1) if Y.ndim == 2 and 1 in Y.shape else Y
    if Y.ndim != 1:
        raise ValueError(f"y must be 1-D, got shape {Y.shape}")
    if len(Y) != n:
        raise ValueError(f"len(y) = {len(Y)} but len(X) = {n}; expected one label per point")
    if Y.dtype == np.float64 and len(Y):        # the common case
        labels = _two_labels(Y)
        if labels is not None:
            return np.where(Y == labels[1], 1.0, -1.0), np.array(labels)
    if Y.dtype.kind == "f" and not np.isfinite(Y).all():
        raise ValueError("y contains NaN or inf; expected two distinct finite labels")
    if Y.dtype.kind in "fiub" and len(Y):
        lo, hi = Y.min(), Y.max()                # two numeric labels: no sort needed
        if lo != hi and ((Y == lo) | (Y == hi)).all():
            return np.where(Y == hi, 1.0, -1.0), np.array([lo, hi], dtype=Y.dtype)
    try:
        classes = np.unique(Y)
    except TypeError:
        raise ValueError("y mixes label types that cannot be sorted; expected two labels") from None
    if len(classes) < 2:
        raise ValueError(f"y has only one class {classes.tolist()}; expected exactly two classes")
    if len(classes) > 2:
        shown = classes.tolist()[:6]
        raise ValueError(f"y has {len(classes)} classes {shown}; expected exactly two (binary SVM)")
    y_pm = np.where(Y == classes[1], 1.0, -1.0)
    return y_pm, classes


def check_C(C) -> float:
    if type(C) is float and C > 0:        # the common case (numbers.Real's check: ~1 µs)
        return C
    if isinstance(C, bool) or not isinstance(C, numbers.Real):
        raise ValueError(f"C must be a positive number or math.inf, got {C!r}")
    C = float(C)
    if math.isnan(C) or C <= 0:
        raise ValueError(f"C must be > 0 (or math.inf for the hard margin), got {C!r}")
    return C


def check_choice(name: str, value, choices) -> str:
    if not isinstance(value, str) or value not in choices:
        raise ValueError(f"unknown {name} {value!r}; expected one of {tuple(choices)}")
    return value


def check_kernel(kernel):
    if isinstance(kernel, Polynomial) and kernel.coef0 < 0:
        # (xᵀz + c)^q with c < 0 is not a kernel (x = 0 and a short z give a negative
        # eigenvalue): the dual is not concave, a KKT point need not be the optimum, and the
        # certificate (KKT, primal = dual) could not tell — so fit refuses it (gram.py and
        # precomputed.py study such functions on purpose)
        raise ValueError(f"Polynomial with c = {kernel.coef0!r} < 0 is not a kernel (its Gram "
                         "matrix can have negative eigenvalues); use c ≥ 0")
    if isinstance(kernel, Linear | Polynomial | Gaussian):
        return kernel
    if isinstance(kernel, str):   # a name has no parameters here: which σ would 'rbf' be?
        raise ValueError(f"kernel={kernel!r} is a name; fit takes a kernel object: se.Linear(), "
                         "se.Polynomial(degree, coef0) or se.Gaussian(sigma) (γ = 1/(2σ²)), "
                         f"or se.make_kernel({kernel!r}, ...) with one of the names {KERNELS} "
                         "('poly', 'rbf' too); se.SVC(kernel=...) takes scikit-learn's names "
                         "and gamma")
    raise ValueError(f"kernel must be se.Linear(), se.Polynomial(...) or se.Gaussian(...), "
                     f"got {kernel!r}")


def check_warm_start(model, alpha0, solver: str) -> None:
    """warm_start: None or a model from `fit` (smo only; not together with alpha0)."""
    if model is None:
        return
    if not (hasattr(model, "alpha") and hasattr(model, "gradient") and hasattr(model, "X")):
        raise ValueError(f"warm_start must be a model returned by fit, got {type(model).__name__}")
    if alpha0 is not None:
        raise ValueError("give alpha0 or warm_start, not both")
    if solver != "smo":
        raise ValueError(f"warm_start works with solver 'smo', got solver {solver!r}")


def check_number(name: str, value, low: float | None = None, *, closed: bool = False) -> float:
    """``value`` as a float when it is a finite real number (> ``low``, or ≥ ``low`` when
    ``closed``); else ValueError: "C must be a finite number > 0, got inf"."""
    if (isinstance(value, bool) or not isinstance(value, numbers.Real)
            or not math.isfinite(value)
            or (low is not None and not (value > low or (closed and value == low)))):
        bound = "" if low is None else f" {'≥' if closed else '>'} {low:g}"
        raise ValueError(f"{name} must be a finite number{bound}, got {value!r}")
    return float(value)


def check_integer(name: str, value, lo: int, hi: int | None = None) -> int:
    """``value`` as an int when it is an integer ≥ ``lo`` (and ≤ ``hi``); else ValueError:
    "seed must be an integer ≥ 0, got -1"."""
    if (isinstance(value, bool) or not isinstance(value, numbers.Integral) or value < lo
            or (hi is not None and value > hi)):
        top = "" if hi is None else f" and ≤ {hi}"
        raise ValueError(f"{name} must be an integer ≥ {lo}{top}, got {value!r}")
    return int(value)


def check_tol(tol) -> float | None:
    return None if tol is None else check_number("tol", tol, 0)


def check_max_iter(max_iter) -> int | None:
    if max_iter is None:
        return None
    if isinstance(max_iter, bool) or not isinstance(max_iter, numbers.Integral) or max_iter < 1:
        raise ValueError(f"max_iter must be an integer ≥ 1 or None, got {max_iter!r}")
    return int(max_iter)


def check_time_budget(time_budget) -> float | None:
    if time_budget is None or (type(time_budget) is float and time_budget > 0):
        return time_budget                # (the common cases, without numbers.Real's check)
    if (isinstance(time_budget, bool) or not isinstance(time_budget, numbers.Real)
            or not time_budget > 0):
        raise ValueError(f"time_budget must be a number of seconds > 0 or None, "
                         f"got {time_budget!r}")
    return float(time_budget)


def check_combination(kernel, loss: str, bias: str, solver: str, C: float) -> None:
    """Raise ValueError naming what the solver supports when it cannot solve this problem."""
    check_choice("loss", loss, LOSSES)
    check_choice("bias", bias, BIASES)
    check_choice("solver", solver, SOLVERS)
    s = SUPPORT[solver]
    if math.isinf(C) and loss == "quadratic":
        raise ValueError("C = inf (hard margin) needs loss='hinge'; quadratic loss adds "
                         "1/(2C) to the kernel diagonal and needs a finite C")
    if loss not in s["loss"]:
        raise ValueError(f"solver {solver!r} supports loss {s['loss']}, got loss={loss!r}")
    if bias not in s["bias"]:
        raise ValueError(f"solver {solver!r} supports bias {s['bias']}, got bias={bias!r}")
    if "any" not in s["kernel"] and kernel.name not in s["kernel"]:
        raise ValueError(f"solver {solver!r} supports kernels {s['kernel']}, "
                         f"got kernel {kernel.name!r}")
    if math.isinf(C) and not s["hard"]:
        raise ValueError(f"solver {solver!r} needs a finite C; C = inf (hard margin) is "
                         "supported by 'smo', 'qp' and 'sga'")


def supported(solver: str) -> dict:
    check_choice("solver", solver, SOLVERS)
    return dict(SUPPORT[solver])


def check_kernel_range(kernel, X: np.ndarray, C: float, loss: str,
                       norm2: float | None = None) -> None:
    """Every number the solvers see must be finite (else SMO returns NaN silently).

    For all x, z in X: |xᵀz| ≤ m = max ‖xᵢ‖² (Cauchy–Schwarz), so |K(x, z)| ≤ m (linear) or
    (|c| + m)^q (polynomial); the Gaussian needs ‖x − z‖² ≤ 4m finite; quadratic loss adds
    1/(2C) to the diagonal. norm2: m when the caller has it (`check_data`)."""
    m = float(row_norms2(X).max()) if norm2 is None else norm2
    bound = m
    if isinstance(kernel, Polynomial):
        try:
            bound = (abs(kernel.coef0) + m) ** kernel.degree
        except OverflowError:      # Python floats raise where numpy gives inf
            bound = math.inf
    if not (math.isfinite(4.0 * m) and math.isfinite(bound)):
        big = float(np.max(np.abs(X)))
        raise ValueError(f"X is too large for this kernel ({kernel.label}): with max |xᵢₖ| = "
                         f"{big:g} the kernel values overflow to inf; rescale X "
                         "(e.g. standardise each feature)")
    if loss == "quadratic" and not math.isfinite(1.0 / (2.0 * C)):
        raise ValueError(f"C = {C!r} is too small for quadratic loss: 1/(2C) overflows; "
                         "expected C > 1e-300")
