"""The URL codec: the one way a picture travels in a link, and the Playground's query parameters.

``pack_bytes`` / ``unpack_bytes`` are the frame every link uses (zlib, then unpadded base64url;
read back with a bounded inflate, so a small link cannot expand into a large allocation): the
Playground's points (``pack_points``, binary) and a teacher's picture
(``ui.playground.teacher_spec.encode_blob``, canonical JSON holding packed points) both go
through it. The formats are those of every link handed out so far
(tests/test_links_compat.py holds real ones), so old links open unchanged.

``encode_query`` / ``decode_query`` turn the Playground's state into query parameters and
back; a broken or tampered link raises ``LinkError`` with a message for the user.
"""

from __future__ import annotations

import base64
import binascii
import math
import re
import struct
import zlib
from collections.abc import Mapping, MutableMapping
from dataclasses import dataclass
from typing import Any

import numpy as np

from svm_engine import datasets
from ui.shared import state
from ui.shared.numbers import fmt_setting
from ui.shared.points import MAX_POINTS, validate_points
from ui.shared.session import shared
from ui.shared.settings import DEFAULTS, Settings


class LinkError(ValueError):
    """A shared link (query parameters) could not be read."""


# ------------------------------------------------------------------------------ the frame


@dataclass(frozen=True)
class Frame:
    """The limits of one kind of packed text and the words of its errors, by what went wrong:
    ``long`` (missing or over ``max_chars``), ``chars`` (not base64url), ``encoding`` (bad
    base64), ``inflate`` (not zlib), ``large`` (inflates past ``max_bytes``), ``cut``."""

    max_chars: int
    max_bytes: int
    words: Mapping[str, str]
    error: type[ValueError] = LinkError


def pack_bytes(raw: bytes) -> str:
    """zlib (level 9), then base64url without padding."""
    return base64.urlsafe_b64encode(zlib.compress(raw, 9)).decode("ascii").rstrip("=")


def unpack_bytes(text: Any, frame: Frame) -> bytes:
    """Inverse of ``pack_bytes`` within ``frame``'s limits; ``frame.error`` otherwise."""
    def fail(kind: str):
        return frame.error(frame.words[kind])

    if not isinstance(text, str) or not text or len(text) > frame.max_chars:
        raise fail("long")
    if not _B64_RE.match(text):
        raise fail("chars")
    try:
        comp = base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))
    except (binascii.Error, ValueError):
        raise fail("encoding") from None
    try:
        d = zlib.decompressobj()
        raw = d.decompress(comp, frame.max_bytes + 1)
    except zlib.error:
        raise fail("inflate") from None
    if d.unconsumed_tail or len(raw) > frame.max_bytes:
        raise fail("large")
    if not d.eof:
        raise fail("cut")
    return raw


# ----------------------------------------------------------------------------- the points

_B64_RE = re.compile(r"^[A-Za-z0-9_-]+$")
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
    return pack_bytes(kind + struct.pack("<H", n) + coords + bits)


POINTS_FRAME = Frame(
    max_chars=MAX_LINK_CHARS,
    max_bytes=3 + 16 * MAX_POINTS + MAX_POINTS // 8 + 1,  # a header, float64s, label bits
    words={
        "long": "the points in the link are not valid (bad characters or too long)",
        "chars": "the points in the link are not valid (bad characters or too long)",
        "encoding": "the points in the link are not valid (bad encoding)",
        "inflate": "the points in the link are damaged (cannot decompress)",
        "large": f"the link holds too many points (at most {MAX_POINTS})",
        "cut": "the points in the link are cut off",
    },
)


def unpack_points(text: str) -> tuple[np.ndarray, np.ndarray]:
    """Inverse of ``pack_points``; LinkError for anything malformed."""
    raw = unpack_bytes(text, POINTS_FRAME)
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
    s = Settings.parse(settings)
    q: dict[str, str] = {"v": "1"}
    if source and source.get("name") in datasets.BOOK and not source.get("params"):
        q["d"] = source["name"]
    elif source and source.get("name") in _GEN_PARAMS:
        q["d"] = source["name"]
        for k, v in source.get("params", {}).items():
            q[k] = _fmt(v) if k != "seed" and k != "n" else str(int(v))
    else:
        q["p"] = pack_points(X, y)
    q["k"] = s.kernel
    if s.kernel == "polynomial":
        q["q"] = str(s.degree)
        q["c"] = _fmt(s.coef0)
    if s.kernel == "gaussian":
        q["s"] = _fmt(s.sigma)
    q["l"] = s.loss
    q["C"] = "inf" if s.hard_margin else _fmt(s.C)
    q["b"] = s.bias
    q["sv"] = s.solver
    if s.wss != DEFAULTS.wss:
        q["w"] = s.wss
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
    raw["kernel"] = k if k is not None else DEFAULTS.kernel
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
        settings = Settings.parse(raw)
    except ValueError as exc:
        raise LinkError(f"the link's settings are not valid: {exc}") from None
    return {"X": X, "y": y, "title": title, "settings": settings, "source": source}


def state_query(ss: MutableMapping) -> dict[str, str]:
    """The query parameters for the Playground's current state."""
    X, y, _ = state.current_dataset(ss)
    return encode_query(X, y, state.current_settings(ss), shared(ss).source)


def restore_from_query(ss: MutableMapping, q: Mapping[str, Any]) -> str | None:
    """Load the state a link describes. Returns None on success, else a message for the
    user (plain text, holding what the link holds: not markdown; the state is then the
    default)."""
    try:
        st = decode_query(q)
        state.load_into_playground(ss, st["X"], st["y"], st["settings"], st["title"])
    except ValueError as exc:  # LinkError, or whatever else a link can make the loading refuse
        state.ensure_state(ss)
        return f"This link could not be opened: {exc}. Showing the default example instead."
    shared(ss).source = st["source"]
    return None
