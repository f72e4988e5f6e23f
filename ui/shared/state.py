"""The Playground's state: points, settings, and their URL encoding.

Everything per user lives in ``st.session_state`` (passed in here as any mutable mapping, so
these functions are tested without streamlit). Other pages use the shared contract:

- ``current_dataset(ss) -> (X (n, 2) float ndarray, y (n,) ±1 int ndarray, title)``
- ``current_settings(ss) -> dict`` with keys kernel, degree, coef0, sigma, loss, C,
  hard_margin, bias, solver, wss
- ``settings_to_kernel(settings) -> svm_engine kernel``
- ``load_into_playground(ss, X, y, settings, title)``

The URL holds the same state compactly (see ``encode_query`` / ``decode_query``); a broken or
tampered link raises ``LinkError`` with a message for the user.
"""

from __future__ import annotations

import base64
import binascii
import math
import re
import struct
import zlib
from collections.abc import Mapping, MutableMapping
from typing import Any

import numpy as np

import svm_engine as se
from svm_engine import datasets
from ui.shared.numbers import fmt_setting

MAX_POINTS = 2000

KERNELS = ("linear", "polynomial", "gaussian")
LOSSES = tuple(se.LOSSES)
BIASES = tuple(se.BIASES)
SOLVERS = tuple(se.SOLVERS)
WSS_RULES = tuple(se.WSS_RULES)

DEFAULT_DATASET = "d1"

# Bounds the UI accepts (also for links): wide enough for every book example.
C_MIN, C_MAX = 1e-4, 1e6
SIGMA_MIN, SIGMA_MAX = 1e-3, 1e3
DEGREE_MIN, DEGREE_MAX = 1, 10
COEF0_MAX = 1e3

SETTING_KEYS = (
    "kernel", "degree", "coef0", "sigma", "loss", "C", "hard_margin", "bias", "solver", "wss",
)  # fmt: skip

DEFAULT_SETTINGS: dict[str, Any] = {
    "kernel": "linear",
    "degree": 2,
    "coef0": 1.0,
    "sigma": 1.0,
    "loss": "hinge",
    "C": 1.0,
    "hard_margin": False,
    "bias": "free",
    "solver": "smo",
    "wss": "second_order",
}

# session_state keys (canonical state; widgets use their own keys, see WIDGET_PREFIX)
K_X = "svmlab.X"
K_Y = "svmlab.y"
K_TITLE = "svmlab.title"
K_SETTINGS = "svmlab.settings"
K_SOURCE = "svmlab.source"  # {"name": ..., "params": {...}} while the points are unedited
K_EPOCH = "svmlab.epoch"  # bumped whenever Python (not the canvas) replaces the points
K_VIEW_REV = "svmlab.view_rev"  # bumped when the plot should reset its zoom
K_RANGE = "svmlab.range"  # default axis ranges ((x0, x1), (y0, y1)) for the current data
K_VIEW = "svmlab.view"  # the ranges the user zoomed/panned to, or None
K_CANVAS_SEQ = "svmlab.canvas_seq"  # last canvas edit adopted (sequence number from JS)
K_FLASH = "svmlab.flash"  # messages from callbacks, shown once on the next run

#: Widget keys start with this; ``load_into_playground`` drops them so widgets re-seed.
WIDGET_PREFIX = "pg."


class LinkError(ValueError):
    """A shared link (query parameters) could not be read."""


def push_flash(ss: MutableMapping, level: str, text: str) -> None:
    """Queue a message ("error", "warning", "info", "success") for the next run."""
    ss[K_FLASH] = [*ss.get(K_FLASH, []), (level, str(text))]


def pop_flash(ss: MutableMapping) -> list[tuple[str, str]]:
    """The queued messages (and forget them)."""
    return list(ss.pop(K_FLASH, None) or [])


# ----------------------------------------------------------------------------- settings


def _choice(name: str, value: Any, choices: tuple[str, ...]) -> str:
    if not isinstance(value, str) or value not in choices:
        raise ValueError(f"{name} must be one of {', '.join(choices)}; got {value!r}")
    return value


def _number(name: str, value: Any, lo: float, hi: float) -> float:
    why = f"{name} must be a number between {fmt_setting(lo)} and {fmt_setting(hi)}; got {value!r}"
    if isinstance(value, bool):
        raise ValueError(why)
    try:
        v = float(value)
    except (TypeError, ValueError):
        raise ValueError(why) from None
    if not math.isfinite(v) or not (lo <= v <= hi):
        raise ValueError(why)
    return v


def check_numbers(values: Mapping[str, Any], bounds) -> None:
    """ValueError naming the first (name, lo, hi) of ``bounds`` whose value in ``values`` is
    not a real number in [lo, hi] (a page's settings sent to a worker: no strings, no bool)."""
    for name, lo, hi in bounds:
        v = values[name]
        if isinstance(v, bool) or not isinstance(v, int | float) or not (
                math.isfinite(v) and lo <= v <= hi):
            raise ValueError(f"{name} must be a number between {fmt_setting(lo)} and "
                             f"{fmt_setting(hi)}, got {v!r}")


def normalize_settings(raw: Mapping[str, Any]) -> dict:
    """Validated settings with every key of ``DEFAULT_SETTINGS``; missing keys get defaults.

    Accepts ``C = math.inf`` (as in ``svm_engine.datasets`` settings): that means the hard
    margin, and C is then kept at its default for when the switch is turned off.
    Raises ValueError naming the first bad value.
    """
    s = dict(DEFAULT_SETTINGS)
    unknown = set(raw) - set(SETTING_KEYS)
    if unknown:
        raise ValueError(f"unknown setting(s): {', '.join(sorted(map(str, unknown)))}")
    s.update(raw)
    out: dict[str, Any] = {}
    out["kernel"] = _choice("kernel", s["kernel"], KERNELS)
    degree = _number("degree", s["degree"], DEGREE_MIN, DEGREE_MAX)
    if degree != int(degree):
        raise ValueError(f"degree must be a whole number; got {s['degree']!r}")
    out["degree"] = int(degree)
    out["coef0"] = _number("coef0", s["coef0"], 0.0, COEF0_MAX)
    out["sigma"] = _number("sigma", s["sigma"], SIGMA_MIN, SIGMA_MAX)
    out["loss"] = _choice("loss", s["loss"], LOSSES)
    hard = s["hard_margin"]
    if not isinstance(hard, (bool, np.bool_)):
        raise ValueError(f"hard_margin must be True or False; got {hard!r}")
    C = s["C"]
    if isinstance(C, (int, float)) and not isinstance(C, bool) and math.isinf(C) and C > 0:
        hard, C = True, DEFAULT_SETTINGS["C"]
    out["C"] = _number("C", C, C_MIN, C_MAX)
    out["hard_margin"] = bool(hard)
    out["bias"] = _choice("bias", s["bias"], BIASES)
    out["solver"] = _choice("solver", s["solver"], SOLVERS)
    out["wss"] = _choice("wss", s["wss"], WSS_RULES)
    return out


def settings_from_dataset(ds_settings: Mapping[str, Any]) -> dict:
    """The Playground settings for a dataset's suggested ``settings`` (extra keys ignored)."""
    return normalize_settings({k: v for k, v in ds_settings.items() if k in SETTING_KEYS})


def effective_C(settings: Mapping[str, Any]) -> float:
    """The C handed to the engine: ``math.inf`` for the hard margin."""
    return math.inf if settings["hard_margin"] else float(settings["C"])


def settings_to_kernel(settings: Mapping[str, Any]):
    """The svm_engine kernel object for ``settings``."""
    return se.make_kernel(
        settings["kernel"],
        degree=int(settings["degree"]),
        coef0=float(settings["coef0"]),
        sigma=float(settings["sigma"]),
    )


def fit_settings(settings: Mapping[str, Any]) -> dict:
    """The settings a fit depends on: parameters that do not apply (σ for a linear kernel,
    the working-set rule for a solver other than SMO) are reset to their defaults, so moving
    them does not refit."""
    s = normalize_settings(settings)
    if s["kernel"] != "polynomial":
        s["degree"], s["coef0"] = DEFAULT_SETTINGS["degree"], DEFAULT_SETTINGS["coef0"]
    if s["kernel"] != "gaussian":
        s["sigma"] = DEFAULT_SETTINGS["sigma"]
    if s["solver"] != "smo":
        s["wss"] = DEFAULT_SETTINGS["wss"]
    if s["hard_margin"]:
        s["C"] = DEFAULT_SETTINGS["C"]
    return s


def settings_key(settings: Mapping[str, Any]) -> tuple:
    """A hashable key of what a fit depends on (see ``fit_settings``)."""
    return tuple(sorted(fit_settings(settings).items()))


# ------------------------------------------------------------------------------- points


def validate_points(X: Any, y: Any, max_points: int = MAX_POINTS) -> tuple[np.ndarray, np.ndarray]:
    """(X float64 (n, 2), y int64 ±1) or ValueError. Zero points are allowed."""
    try:
        Xa = np.asarray(X, dtype=np.float64)
        ya = np.asarray(y)
    except (TypeError, ValueError):
        raise ValueError("points must be numbers: x1, x2 and a label ±1") from None
    if Xa.size == 0:
        Xa = Xa.reshape(0, 2)
    if Xa.ndim != 2 or Xa.shape[1] != 2:
        raise ValueError(f"points must have two coordinates (x1, x2); got shape {Xa.shape}")
    if ya.shape != (Xa.shape[0],):
        raise ValueError(f"need one label per point: {Xa.shape[0]} points, {ya.size} labels")
    if Xa.shape[0] > max_points:
        raise ValueError(f"too many points: {Xa.shape[0]} (at most {max_points})")
    if not np.isfinite(Xa).all():
        raise ValueError("coordinates must be finite numbers (no NaN or infinity)")
    try:
        yf = ya.astype(np.float64)
    except (TypeError, ValueError):
        raise ValueError("labels must be +1 or -1") from None
    if not np.all(np.isin(yf, (-1.0, 1.0))):
        raise ValueError("labels must be +1 or -1")
    return Xa.copy(), yf.astype(np.int64)


def default_range(X: np.ndarray, pad: float = 0.15, min_span: float = 1.0):
    """Axis ranges ((x0, x1), (y0, y1)) showing every point with some room around it."""
    X = np.asarray(X, dtype=float).reshape(-1, 2)
    if len(X) == 0:
        return (0.0, 10.0), (0.0, 7.0)
    lo, hi = X.min(axis=0), X.max(axis=0)
    span = np.maximum(hi - lo, min_span)
    mid = (lo + hi) / 2
    half = span * (0.5 + pad)
    # the plot is wider than tall: give x a bit more room so equal aspect fills it
    half[0] = max(half[0], half[1] * 1.3)
    return (
        (float(mid[0] - half[0]), float(mid[0] + half[0])),
        (float(mid[1] - half[1]), float(mid[1] + half[1])),
    )


# ------------------------------------------------------------------------ session state


def _default_load(ss: MutableMapping) -> None:
    load_dataset(ss, DEFAULT_DATASET)


def ensure_state(ss: MutableMapping) -> None:
    """Load the default (book D1 with its suggested settings) unless state exists."""
    if K_X not in ss or K_SETTINGS not in ss:
        _default_load(ss)


def current_dataset(ss: MutableMapping) -> tuple[np.ndarray, np.ndarray, str]:
    """(X (n, 2), y ±1, title) of the Playground's points (copies)."""
    ensure_state(ss)
    return np.array(ss[K_X], dtype=float), np.array(ss[K_Y], dtype=np.int64), str(ss[K_TITLE])


def current_settings(ss: MutableMapping) -> dict:
    """The Playground's settings (a copy): kernel, degree, coef0, sigma, loss, C,
    hard_margin, bias, solver, wss."""
    ensure_state(ss)
    return dict(ss[K_SETTINGS])


def set_settings(ss: MutableMapping, settings: Mapping[str, Any]) -> dict:
    """Validate and store settings (does not touch widget keys)."""
    s = normalize_settings(settings)
    ss[K_SETTINGS] = s
    return s


def set_points(
    ss: MutableMapping,
    X: Any,
    y: Any,
    *,
    title: str | None = None,
    reset_view: bool = False,
    from_canvas: bool = False,
) -> None:
    """Replace the points (validated; ValueError leaves the state untouched).

    Points changed from Python (dataset, import, table editor, link) bump the epoch so the
    browser adopts them; points that came from the canvas do not.
    """
    Xa, ya = validate_points(X, y)
    if K_X in ss and not from_canvas and not reset_view:
        same = np.array_equal(np.asarray(ss[K_X]), Xa) and np.array_equal(np.asarray(ss[K_Y]), ya)
        if same and title is None:
            return
    ss[K_X] = Xa
    ss[K_Y] = ya
    ss[K_SOURCE] = None
    if title is not None:
        ss[K_TITLE] = title
    elif K_TITLE not in ss:
        ss[K_TITLE] = "My points"
    elif not str(ss[K_TITLE]).endswith("(edited)"):
        ss[K_TITLE] = f"{ss[K_TITLE]} (edited)"
    if not from_canvas:
        ss[K_EPOCH] = int(ss.get(K_EPOCH, 0)) + 1
    if reset_view or K_RANGE not in ss:
        ss[K_RANGE] = default_range(Xa)
        ss[K_VIEW] = None
        ss[K_VIEW_REV] = int(ss.get(K_VIEW_REV, 0)) + 1


def clear_widget_keys(ss: MutableMapping) -> None:
    """Drop the Playground's widget values so its widgets re-seed from the settings."""
    for k in [k for k in list(ss.keys()) if isinstance(k, str) and k.startswith(WIDGET_PREFIX)]:
        del ss[k]


def load_into_playground(
    ss: MutableMapping, X: Any, y: Any, settings: Mapping[str, Any], title: str
) -> None:
    """Put points and settings into the Playground (used by "Open in Playground" buttons).

    ``settings`` may be partial (defaults fill the rest) and may use ``C = math.inf`` for
    the hard margin. Raises ValueError (state untouched) if points or settings are bad.
    Call it from a callback or before the Playground's widgets are drawn in this run, then
    ``st.switch_page("pages/1_playground.py")``.
    """
    from ui.shared import history  # (it imports this module

    s = normalize_settings({k: v for k, v in dict(settings).items() if k in SETTING_KEYS})
    Xa, ya = validate_points(X, y)
    history.remember(ss)
    set_points(ss, Xa, ya, title=str(title), reset_view=True)
    ss[K_SETTINGS] = s
    ss[K_CANVAS_SEQ] = 0
    clear_widget_keys(ss)


def load_dataset(ss: MutableMapping, name: str, **params: Any) -> None:
    """Load a named dataset (svm_engine.datasets) with its suggested settings."""
    ds = datasets.load(name, **params)
    if ds.n > MAX_POINTS:
        raise ValueError(f"too many points: {ds.n} (at most {MAX_POINTS})")
    load_into_playground(ss, ds.X, ds.y, settings_from_dataset(ds.settings), ds.title)
    ss[K_SOURCE] = {"name": name, "params": dict(params)}


# -------------------------------------------------------------------------- URL codec

_B64_RE = re.compile(r"^[A-Za-z0-9_-]*$")
MAX_LINK_CHARS = 100_000
_GEN_PARAMS = {
    "blobs": ("n", "noise", "seed"),
    "moons": ("n", "noise", "seed"),
    "circles": ("n", "noise", "seed", "factor"),
    "xor": ("n", "noise", "seed"),
}
#: a generator's n, noise and seed in a link: the ranges of the Playground's sliders
#: (``ui.shared.controls.BINARY``), which a link's values are put into
GEN_N_MIN = 10
GEN_NOISE_MAX = 2.0
GEN_SEED_MAX = 1_000_000
_GEN_BOUNDS = {"n": (GEN_N_MIN, MAX_POINTS), "noise": (0.0, GEN_NOISE_MAX),
               "seed": (0, GEN_SEED_MAX)}
_QUERY_KEYS = {"v", "d", "p", "n", "noise", "seed", "factor", "k", "q", "c", "s", "l", "C",
               "b", "sv", "w"}  # fmt: skip


def _fmt(v: float) -> str:
    """Shortest text that reads back as the same float."""
    return repr(float(v)) if float(v) != int(v) or abs(v) >= 1e15 else str(int(v))


def pack_points(X: np.ndarray, y: np.ndarray) -> str:
    """Points → compact URL-safe text: zlib(header, float32 or float64 coords, label bits).

    float32 is used when it reproduces every coordinate exactly (clicked points are rounded,
    book data are short decimals), float64 otherwise, so a link always restores exactly.
    """
    X, y = validate_points(X, y)
    n = len(X)
    x32 = X.astype("<f4")
    if np.array_equal(x32.astype(np.float64), X):
        kind, coords = b"f", x32.tobytes()
    else:
        kind, coords = b"d", X.astype("<f8").tobytes()
    bits = np.packbits(y > 0).tobytes()
    raw = kind + struct.pack("<H", n) + coords + bits
    return base64.urlsafe_b64encode(zlib.compress(raw, 9)).decode("ascii").rstrip("=")


def unpack_points(text: str) -> tuple[np.ndarray, np.ndarray]:
    """Inverse of ``pack_points``; LinkError for anything malformed."""
    if not isinstance(text, str) or len(text) > MAX_LINK_CHARS or not _B64_RE.match(text):
        raise LinkError("the points in the link are not valid (bad characters or too long)")
    try:
        comp = base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))
    except (binascii.Error, ValueError):
        raise LinkError("the points in the link are not valid (bad encoding)") from None
    limit = 3 + 16 * MAX_POINTS + MAX_POINTS // 8 + 1
    try:
        d = zlib.decompressobj()
        raw = d.decompress(comp, limit + 1)
        if d.unconsumed_tail or len(raw) > limit:
            raise LinkError(f"the link holds too many points (at most {MAX_POINTS})")
        if not d.eof:
            raise LinkError("the points in the link are cut off")
    except zlib.error:
        raise LinkError("the points in the link are damaged (cannot decompress)") from None
    if len(raw) < 3 or raw[:1] not in (b"f", b"d"):
        raise LinkError("the points in the link are damaged (unknown format)")
    (n,) = struct.unpack("<H", raw[1:3])
    if n > MAX_POINTS:
        raise LinkError(f"the link holds too many points: {n} (at most {MAX_POINTS})")
    size = 4 if raw[:1] == b"f" else 8
    need = 3 + 2 * size * n + (n + 7) // 8
    if len(raw) != need:
        raise LinkError("the points in the link are damaged (wrong length)")
    dtype = "<f4" if size == 4 else "<f8"
    X = np.frombuffer(raw, dtype=dtype, count=2 * n, offset=3).astype(np.float64).reshape(n, 2)
    bits = np.frombuffer(raw, dtype=np.uint8, offset=3 + 2 * size * n)
    y = np.where(np.unpackbits(bits)[:n] == 1, 1, -1).astype(np.int64)
    if not np.isfinite(X).all():
        raise LinkError("the points in the link contain a value that is not a finite number")
    return X, y


def encode_query(
    X: np.ndarray, y: np.ndarray, settings: Mapping[str, Any], source: Mapping | None = None
) -> dict[str, str]:
    """The query parameters for this state. Unedited datasets are stored by name (and
    generator parameters); anything else as packed points."""
    s = normalize_settings(settings)
    q: dict[str, str] = {"v": "1"}
    if source and source.get("name") in datasets.BOOK and not source.get("params"):
        q["d"] = source["name"]
    elif source and source.get("name") in _GEN_PARAMS:
        q["d"] = source["name"]
        for k, v in source.get("params", {}).items():
            q[k] = _fmt(v) if k != "seed" and k != "n" else str(int(v))
    else:
        q["p"] = pack_points(X, y)
    q["k"] = s["kernel"]
    if s["kernel"] == "polynomial":
        q["q"] = str(s["degree"])
        q["c"] = _fmt(s["coef0"])
    if s["kernel"] == "gaussian":
        q["s"] = _fmt(s["sigma"])
    q["l"] = s["loss"]
    q["C"] = "inf" if s["hard_margin"] else _fmt(s["C"])
    q["b"] = s["bias"]
    q["sv"] = s["solver"]
    if s["wss"] != DEFAULT_SETTINGS["wss"]:
        q["w"] = s["wss"]
    return q


def _param(q: Mapping[str, Any], key: str) -> str | None:
    v = q.get(key)
    if isinstance(v, (list, tuple)):
        v = v[-1] if v else None
    if v is None:
        return None
    if not isinstance(v, str) or len(v) > (MAX_LINK_CHARS if key == "p" else 64):
        raise LinkError(f"the link parameter {key!r} is not valid")
    return v


def _int_param(q, key: str) -> int:
    v = _param(q, key)
    if v is None or not re.fullmatch(r"[0-9]{1,7}", v):
        raise LinkError(f"the link parameter {key}={v!r} should be a whole number")
    return int(v)


_FLOAT_RE = re.compile(r"[-+]?(?:[0-9]+\.?[0-9]*|\.[0-9]+)(?:[eE][-+]?[0-9]{1,3})?")


def _float_param(q, key: str) -> float:
    v = _param(q, key)
    if v is None or not _FLOAT_RE.fullmatch(v) or not math.isfinite(float(v)):
        raise LinkError(f"the link parameter {key}={v!r} should be a finite number")
    return float(v)


def is_link(q: Mapping[str, Any]) -> bool:
    """Whether the query parameters look like a Playground link at all."""
    return any(k in q for k in ("v", "d", "p"))


def decode_query(q: Mapping[str, Any]) -> dict:
    """Query parameters → {"X", "y", "title", "settings", "source"}; LinkError if broken."""
    unknown = set(q) - _QUERY_KEYS
    if unknown:
        raise LinkError(f"the link has unknown parameter(s): {', '.join(sorted(unknown))[:80]}")
    if _param(q, "v") not in (None, "1"):
        raise LinkError("the link was made by another version of SVM Lab")
    d, p = _param(q, "d"), _param(q, "p")
    if (d is None) == (p is None):
        raise LinkError("the link must hold either a dataset name (d) or points (p)")
    source = None
    if d is not None:
        if d in datasets.BOOK:
            params: dict[str, Any] = {}
        elif d in _GEN_PARAMS:
            params = {}
            for k in _GEN_PARAMS[d]:
                if k in q:
                    params[k] = _int_param(q, k) if k in ("n", "seed") else _float_param(q, k)
            if params.get("n", 2) > MAX_POINTS:
                raise LinkError(f"the link asks for {params['n']} points (at most {MAX_POINTS})")
            for k, (lo, hi) in _GEN_BOUNDS.items():
                if k in params and not lo <= params[k] <= hi:
                    raise LinkError(f"the link's {k}={fmt_setting(params[k])} is not between "
                                    f"{fmt_setting(lo)} and {fmt_setting(hi)}")
        else:
            raise LinkError(f"the link names an unknown dataset {d[:40]!r}")
        try:
            ds = datasets.load(d, **params)
        except ValueError as exc:
            raise LinkError(f"the link's dataset cannot be made: {exc}") from None
        X, y, title = ds.X, ds.y, ds.title
        source = {"name": d, "params": params}
    else:
        X, y = unpack_points(p)
        title = "Shared points"
    try:  # e.g. moons at noise=1e308: every parameter in range, the points not finite
        X, y = validate_points(X, y)
    except ValueError as exc:
        raise LinkError(f"the link's points cannot be used: {exc}") from None
    raw: dict[str, Any] = {}
    k = _param(q, "k")
    raw["kernel"] = k if k is not None else DEFAULT_SETTINGS["kernel"]
    if "q" in q:
        raw["degree"] = _int_param(q, "q")
    if "c" in q:
        raw["coef0"] = _float_param(q, "c")
    if "s" in q:
        raw["sigma"] = _float_param(q, "s")
    for key, name in (("l", "loss"), ("b", "bias"), ("sv", "solver"), ("w", "wss")):
        v = _param(q, key)
        if v is not None:
            raw[name] = v
    C = _param(q, "C")
    if C is not None:
        if C == "inf":
            raw["hard_margin"] = True
        else:
            raw["C"] = _float_param(q, "C")
    try:
        settings = normalize_settings(raw)
    except ValueError as exc:
        raise LinkError(f"the link's settings are not valid: {exc}") from None
    return {"X": X, "y": y, "title": title, "settings": settings, "source": source}


def state_query(ss: MutableMapping) -> dict[str, str]:
    """The query parameters for the Playground's current state."""
    ensure_state(ss)
    return encode_query(ss[K_X], ss[K_Y], ss[K_SETTINGS], ss.get(K_SOURCE))


def restore_from_query(ss: MutableMapping, q: Mapping[str, Any]) -> str | None:
    """Load the state a link describes. Returns None on success, else a message for the
    user (plain text, holding what the link holds: not markdown; the state is then the
    default)."""
    try:
        st = decode_query(q)
        load_into_playground(ss, st["X"], st["y"], st["settings"], st["title"])
    except ValueError as exc:  # LinkError, or whatever else a link can make the loading refuse
        ensure_state(ss)
        return f"This link could not be opened: {exc}. Showing the default example instead."
    ss[K_SOURCE] = st["source"]
    return None
