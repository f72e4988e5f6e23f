"""The fit endpoint's door: the raw body's checks (size, JSON, integers a float holds,
nesting) before anything reads it, then the request's fields (``fit_schema.FitRequest``)
and what they mean for the fit (default ranges, the warm start).

A request another site's page could send is refused earlier (``fit_api.refusal``).
"""

from __future__ import annotations

import json
from typing import Any

import numpy as np

from ui.serving import fit_answer, fit_schema
from ui.serving.fit_schema import BadRequest
from ui.serving.warmstart import map_alpha
from ui.shared import fitting
from ui.shared.points import default_range

MAX_BODY_BYTES = 1_000_000  # 2,000 points with a warm start take ~0.2 MB
#: How deep a request may nest: body → warm → points → a point is 4 levels of arrays and
#: objects. A deeper one is refused before anything walks it (Python's json and repr recurse).
MAX_DEPTH = 6
#: The largest double is ~1.8e308: an integer of fewer digits than this always fits one.
FLOAT_DIGITS = 309
#: every digit as "0", for a fast search of a run of FLOAT_DIGITS digits (a regex ~1 ms)
_DIGITS_AS_ZERO = bytes.maketrans(b"123456789", b"000000000")


def parse_request(body: Any) -> dict:
    """The checked request: {X, y, settings, view, home, alpha0, warm_model, seq, style}.
    Raises BadRequest."""
    try:
        req = fit_schema.parse(body)
    except (OverflowError, RecursionError) as exc:  # a dict not from ``parse_body``
        raise BadRequest(f"a number or nesting too large to read ({exc})") from None
    X, y = req.points
    view = req.view or default_range(X)
    alpha0, prev = _warm(req.warm, X, y, req.settings)
    return {"X": X, "y": y, "settings": req.settings, "view": view, "home": req.home or view,
            "alpha0": alpha0, "warm_model": prev, "seq": req.seq, "style": req.style}


def _warm(warm: fit_schema.Warm | None, X: np.ndarray, y: np.ndarray, settings: dict):
    """(α to start from, the model of the previous points); None, None: a cold start.
    smo: if the server still holds the model of the warm points (``fit_answer.RECENT``), the
    refit starts from it, α and gradient (``svm_engine.warmstart``); else (and for sga)
    ``map_alpha`` carries α over when at most one point changed."""
    if warm is None or settings["solver"] not in fitting.WARM_START_SOLVERS:
        return None, None
    wX, wy = warm.points
    return (map_alpha(wX, wy, np.asarray(warm.alpha, dtype=float), X, y),
            fit_answer.RECENT.get(fitting.fit_key(wX, wy, settings)))


# ---------------------------------------------------------------------------- the body


def parse_body(raw: bytes) -> Any:
    """The JSON of a request body, or BadRequest: larger than MAX_BODY_BYTES, not JSON, NaN
    or Infinity, an integer no float holds (it would overflow every check after this one),
    or nested deeper than MAX_DEPTH. Run at the door (``fit_api.refit_endpoint``) and in the
    worker."""
    if len(raw) > MAX_BODY_BYTES:
        raise BadRequest(too_large_message())
    try:
        # only a run of FLOAT_DIGITS digits can be an integer no float holds: without one,
        # json's own integers (a hook per integer cost ~1 ms at 200 points, at the door and
        # in the worker)
        big = b"0" * FLOAT_DIGITS in raw.translate(_DIGITS_AS_ZERO)
        body = json.loads(raw.decode("utf-8"), parse_constant=_no_constant,
                          parse_int=_float_sized_int if big else None)
    except RecursionError:
        raise BadRequest(_too_deep_message()) from None
    except BadRequest:
        raise
    except (UnicodeDecodeError, ValueError) as exc:
        raise BadRequest(f"the request body is not valid JSON ({exc})") from None
    if depth(body) > MAX_DEPTH:
        raise BadRequest(_too_deep_message())
    return body


def _float_sized_int(text: str) -> int:
    n = int(text)
    try:
        float(n)
    except OverflowError:
        raise BadRequest(f"the number {text[:20]}… ({len(text)} digits) is too large") from None
    return n


def depth(value: Any) -> int:
    """How deep lists and objects nest in ``value`` (JSON's: plain list and dict; 0 for a
    number or string), level by level without recursion; stops counting past MAX_DEPTH.
    ~1 ms for the largest request (a recursive walk took 9)."""
    depth, level = 0, [value] if type(value) in (list, dict) else []
    while level and depth <= MAX_DEPTH:
        depth += 1
        level = [x for v in level for x in (v.values() if type(v) is dict else v)
                 if type(x) is list or type(x) is dict]
    return depth


def _too_deep_message() -> str:
    return f"the request nests lists and objects more than {MAX_DEPTH} levels deep"


def _no_constant(name: str) -> Any:
    raise ValueError(f"{name} is not a number JSON allows")


def error(message: str) -> str:
    """The JSON text of an error answer (4xx, 5xx)."""
    return json.dumps({"error": message}, ensure_ascii=False)


def too_large_message() -> str:
    return f"the request is too large: more than {MAX_BODY_BYTES:,} bytes"
