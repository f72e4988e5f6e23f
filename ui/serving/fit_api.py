"""The fit endpoint: POST the Playground's points, get back everything the page shows of the fit.

Why: each click used to rerun the page's Streamlit script twice (the canvas and the panels),
~50–360 ms of server CPU for a fit of ~0.1 ms. Now the browser draws the whole Playground
picture, the numbers panel and the points table from this endpoint's answer (``answer``), and
the script reruns only for its own widgets and a cheap sync of the points.

``refit(body)`` is pure (no state kept between requests; per-user data stays in the browser
and in ``st.session_state``) and is the one place the request's fields are checked. The HTTP
route (``refit_endpoint``) reads only a POST of ``application/json`` from this server's own
pages (``refusal``: another site's page cannot start fits in a student's browser) and checks
the JSON itself (``parse_body``: size, integers a float holds, nesting) before anything else
reads it; GET and HEAD only name the server process. Request (JSON):

=========  ===================================================================================
points     [[x1, x2, y], ...], y = ±1, at most ``state.MAX_POINTS``
settings   the Playground's settings (``state.normalize_settings``; missing keys: defaults)
view       optional {"x": [x0, x1], "y": [y0, y1]}: the plot's axis ranges (h is sampled on
           ``browser_data.grid_ranges(view)``, as the figure does; default: around the points)
warm       optional {"points": [...], "alpha": [...]}: the previous answer's points and α.
           smo: if the server still holds the model of those points (``RECENT``), the refit
           starts from it, α and gradient (``svm_engine.warmstart``); else (and for sga)
           ``warmstart.map_alpha`` carries α over when at most one point changed
home       optional, like view: the axis ranges "reset axes" returns to (default: view)
style      optional {"scale": 1…2, "show_sv": bool, "hide": [...], "student": bool}: how the
           figure is drawn (a teacher link's present mode and hidden support vectors,
           ``ui.playground.teacher.figure_options``), what the answer leaves out
           (``HIDDEN_FIELDS``: "numbers", "table") and whether the numbers panel is the
           student view's (``tables.model_summary(student=True)``: no solver internals)
seq        optional integer, echoed (the browser drops answers to older edits)
=========  ===================================================================================

Answer: ``ok`` false with ``kind``/``message`` when no model (one class only, not separable,
...); else the grid {"x": [x0, x1, nx], "y": [y0, y1, ny], "h": base64 float32 row-major},
α and b, the SV indices (free: 0 < α < C, bound: α = C), ring sizes (``figures.ring_sizes``
by α/C), slack segments with their ξ labels (``figures.slack_segments``), the misclassified
indices, the line and colour styles of the figure, the fit's numbers (solver ms,
iterations, converged), the numbers panel's rows (``panel``), the table's columns (``h``,
``xi``, ``category``) and the full Plotly figure (``figure``). The draw data is read off
``figures.decision_figure_dict``'s traces, so the quick layer and the full figure cannot
disagree.

Symbols: α (dual variables), b (bias), h(x) = Σ αᵢyᵢK(xᵢ, x) + b, ξᵢ = max(0, 1 − yᵢh(xᵢ)),
C (box), SV = support vector (α > 0).
"""

from __future__ import annotations

import base64
import json
import logging
import math
import secrets
import time
from collections.abc import Mapping
from typing import Any
from urllib.parse import urlsplit

import numpy as np

from ui.serving.warmstart import map_alpha
from ui.shared import browser_data, fitting, state, tables
from ui.shared.figures import decision_figure_dict
from ui.shared.numbers import fmt_setting
from ui.shared.slack_drawing import MIN_SLACK
from ui.shared.sv_labels import point_labels
from ui.shared.theory import playground_sections

FIT_PATH = "api/refit"
MAX_BODY_BYTES = 1_000_000  # 2,000 points with a warm start take ~0.2 MB
MAX_SEQ = 2**53  # integers a browser's JSON numbers hold exactly
#: How deep a request may nest: body → warm → points → a point is 4 levels of arrays and
#: objects. A deeper one is refused before anything walks it (Python's json and repr recurse).
MAX_DEPTH = 6
#: The only body the endpoint reads: a non-CORS-safelisted type, so another site's page cannot
#: make a student's browser POST here without a preflight (which this server never approves).
JSON_TYPE = "application/json"
BODY_KEYS = ("points", "settings", "view", "home", "warm", "seq", "style")
SCALE_MAX = 2.0  # the figure's largest scale (fonts, markers and lines)

_log = logging.getLogger(__name__)
#: This server process's id, sent with every endpoint response (header ``BOOT_HEADER``) and
#: in the Playground's page data: a browser that sees another one knows its session is gone
#: (the server restarted) and reloads the page with its points kept (ui/browser/canvas_sync.js).
BOOT = secrets.token_hex(6)
BOOT_HEADER = "X-SVMLab-Boot"


class BadRequest(ValueError):
    """The request is not a valid refit request (the message names what is wrong)."""


# ------------------------------------------------------------------------------ request


def _is_int(v: Any) -> bool:
    return isinstance(v, int) and not isinstance(v, bool)


def _points(value: Any, name: str) -> tuple[np.ndarray, np.ndarray]:
    if value is None:
        raise BadRequest(f"{name} is missing: send [[x1, x2, label], ...]")
    try:
        return browser_data.parse_point_list(value, max_points=state.MAX_POINTS, source="")
    except browser_data.CanvasError as exc:
        raise BadRequest(f"{name}: {exc}") from None


def _settings(value: Any) -> dict:
    if not isinstance(value, Mapping):
        raise BadRequest('settings must be an object such as {"kernel": "linear", ...}')
    try:
        return state.normalize_settings(value)
    except ValueError as exc:
        raise BadRequest(f"settings: {exc}") from None


def _view(value: Any, X: np.ndarray, name: str = "view") -> tuple[tuple, tuple]:
    if value is None:
        return state.default_range(X)
    if not isinstance(value, Mapping):
        raise BadRequest(f'{name} must be {{"x": [x0, x1], "y": [y0, y1]}}')
    ranges = browser_data.parse_ranges(value.get("x"), value.get("y"))
    if ranges is None:
        raise BadRequest(
            f'{name} must be {{"x": [x0, x1], "y": [y0, y1]}}: finite numbers within ±1e9, '
            f"x0 ≠ x1, y0 ≠ y1; got {value!r:.200}"
        )
    return ranges


#: The models of recent answers, for warm starts (pure results keyed by points + settings).
RECENT = fitting.RecentModels()


def _warm(value: Any, X: np.ndarray, y: np.ndarray, settings: dict):
    """(α to start from, the model of the previous points); None, None: a cold start."""
    if value is None:
        return None, None
    if not isinstance(value, Mapping) or set(value) - {"points", "alpha"}:
        raise BadRequest('warm must be {"points": [...], "alpha": [...]}')
    wX, wy = _points(value.get("points"), "warm.points")
    a = value.get("alpha")
    if not isinstance(a, list) or len(a) != len(wX):
        raise BadRequest(f"warm.alpha must be a list of {len(wX)} numbers, one per warm point")
    for i, v in enumerate(a):
        if not (isinstance(v, (int, float)) and not isinstance(v, bool) and math.isfinite(v)):
            raise BadRequest(f"warm.alpha[{i}] is not a finite number: {v!r:.40}")
    if settings["solver"] not in fitting.WARM_START_SOLVERS:
        return None, None
    return (map_alpha(wX, wy, np.asarray(a, dtype=float), X, y),
            RECENT.get(fitting.fit_key(wX, wy, settings)))


#: What a teacher link's hidden parts take out of an answer (``style.hide``), so the browser
#: never receives them: the numbers panel, and α with the points table's other model columns
#: (α also sits in the SV rings' hover: ``draw_data`` leaves it out there).
HIDDEN_FIELDS = {
    "numbers": ("alpha", "b", "h", "xi", "category", "panel", "fit", "w_norm"),
    "table": ("alpha", "h", "xi", "category", "w_norm"),
}


def parse_style(value: Any) -> dict:
    """{"scale", "show_sv", "hide", "student"} with defaults 1.0, True, () and False;
    BadRequest for anything else."""
    if value is None:
        value = {}
    if not isinstance(value, Mapping) or set(value) - {"scale", "show_sv", "hide", "student"}:
        raise BadRequest('style must be {"scale": number, "show_sv": true or false, '
                         '"hide": [...], "student": true or false}')
    if not isinstance(value.get("student", False), bool):
        raise BadRequest(f"style.student must be true or false; got {value['student']!r:.40}")
    hide = value.get("hide", ())
    if not isinstance(hide, (list, tuple)) or any(h not in HIDDEN_FIELDS for h in hide):
        raise BadRequest(f"style.hide must be a list of {', '.join(HIDDEN_FIELDS)}; "
                         f"got {hide!r:.40}")
    scale, show_sv = value.get("scale", 1.0), value.get("show_sv", True)
    ok = isinstance(scale, (int, float)) and not isinstance(scale, bool) and math.isfinite(scale)
    if not ok or not 1.0 <= scale <= SCALE_MAX:
        raise BadRequest(f"style.scale must be a number from 1 to {fmt_setting(SCALE_MAX)}; "
                         f"got {scale!r:.40}")
    if not isinstance(show_sv, bool):
        raise BadRequest(f"style.show_sv must be true or false; got {show_sv!r:.40}")
    return {"scale": float(scale), "show_sv": show_sv, "hide": tuple(sorted(set(hide))),
            "student": value.get("student", False)}


def parse_request(body: Any) -> dict:
    """The checked request: {X, y, settings, view, alpha0, seq}. Raises BadRequest."""
    if not isinstance(body, Mapping):
        raise BadRequest("the request must be a JSON object with points and settings")
    unknown = sorted(str(k) for k in set(body) - set(BODY_KEYS))
    if unknown:
        expected = ", ".join(BODY_KEYS)
        raise BadRequest(f"unknown field(s): {', '.join(unknown)} (expected {expected})")
    seq = body.get("seq")
    if seq is not None and not (_is_int(seq) and 0 <= seq <= MAX_SEQ):
        raise BadRequest(f"seq must be a whole number ≥ 0; got {seq!r:.40}")
    X, y = _points(body.get("points"), "points")
    settings = _settings(body.get("settings", {}))
    view = _view(body.get("view"), X)
    home = view if body.get("home") is None else _view(body["home"], X, "home")
    alpha0, prev = _warm(body.get("warm"), X, y, settings)
    return {"X": X, "y": y, "settings": settings, "view": view, "home": home,
            "alpha0": alpha0, "warm_model": prev, "seq": seq,
            "style": parse_style(body.get("style"))}


# ------------------------------------------------------------------------------- answer


def _floats(a: Any, digits: int | None = None) -> list:
    out = [float(v) for v in np.asarray(a, dtype=float).ravel()]
    return out if digits is None else [round(v, digits) for v in out]


def _grid(xs: np.ndarray, ys: np.ndarray, H: np.ndarray) -> dict:
    h = np.ascontiguousarray(H, dtype="<f4")
    return {
        "x": [float(xs[0]), float(xs[-1]), len(xs)],
        "y": [float(ys[0]), float(ys[-1]), len(ys)],
        "h": base64.b64encode(h.tobytes()).decode("ascii"),
    }


def _by_role(traces: list[dict]) -> dict[str, list[dict]]:
    out: dict[str, list[dict]] = {}
    for t in traces:
        out.setdefault((t.get("meta") or {}).get("role", ""), []).append(t)
    return out


def _line(t: dict) -> dict:
    ln = t.get("line") or {}
    return {"color": ln.get("color"), "width": ln.get("width"), "dash": ln.get("dash", "solid")}


def draw_data(model, grid: tuple, x_range: tuple, y_range: tuple,
              style: Mapping[str, Any] | None = None) -> tuple[dict, str]:  # fmt: skip
    """What the canvas paints of a fitted model, read off the Playground figure's own traces,
    and that figure as JSON text (its shading and contours refer to the answer's grid).
    ``style`` (``parse_style``) scales the figure and may leave out the SV rings and slack."""
    style = parse_style(style)
    fig = decision_figure_dict(
        model, grid=grid, x_range=x_range, y_range=y_range,
        max_slack_labels=browser_data.MAX_SLACK_LABELS, scale=style["scale"],
        show_sv=style["show_sv"], show_slack=style["show_sv"],
    )  # fmt: skip
    if "numbers" in style["hide"]:  # the rings' hover names each SV's α
        for t in fig["data"]:
            if t.get("meta", {}).get("role") == "sv":
                t["customdata"] = [[row[0]] for row in np.asarray(t["customdata"]).tolist()]
                t["hovertemplate"] = t["hovertemplate"].split(":", 1)[0] + \
                    "<extra>" + t["name"] + "</extra>"
    roles = _by_role(fig["data"])
    regions = roles["regions"][0]
    rings = [
        {
            "x": _floats(t["x"]),
            "y": _floats(t["y"]),
            "size": _floats(t["marker"]["size"], 2),
            "color": t["marker"]["color"],
            "width": t["marker"]["line"]["width"],
        }
        for t in roles.get("sv", [])
    ]
    slack: dict[str, Any] = {"lines": [], "labels": [], "style": None, "font": None}
    for t in roles.get("slack", []):
        xs, ys = t["x"], t["y"]
        slack["lines"] = [
            [xs[k], ys[k], xs[k + 1], ys[k + 1]] for k in range(0, len(xs), 3)
        ]  # segments are separated by None (one per point with ξ > 0 whose foot was found)
        slack["style"] = _line(t)
    for t in roles.get("slack_labels", []):
        slack["labels"] = [[x, y, s] for x, y, s in zip(t["x"], t["y"], t["text"], strict=True)]
        slack["font"] = t["textfont"]
    miss = roles.get("misclassified", [])
    draw = {
        "grid": _grid(*grid),
        "regions": {
            "colorscale": regions["colorscale"],
            "zmin": regions["zmin"],
            "zmax": regions["zmax"],
        },
        "boundary": _line(roles["boundary"][0]),
        "margins": _line(roles["margins"][0]),
        "rings": rings,
        "slack": slack,
        "misclassified_mark": (
            {
                "size": miss[0]["marker"]["size"],
                "color": miss[0]["marker"]["color"],
                "width": miss[0]["marker"]["line"]["width"],
            }
            if miss
            else None
        ),  # fmt: skip
    }
    return draw, browser_data.canvas_figure_json(fig, grid_from="grid")


def answer(X: np.ndarray, y: np.ndarray, settings: dict, view: tuple, *, home=None,
           alpha0=None, warm_model=None, seq: int | None = None,
           style: Mapping[str, Any] | None = None, theory: bool = False) -> dict:
    """Everything the Playground shows of the fit of (X, y) with ``settings`` in ``view``:
    the canvas's draw data, the numbers panel's rows (``panel``), the points table's columns
    (α, ``h``, ``xi``, ``category``) and the full Plotly figure (``figure``, JSON text whose
    heatmap and contours take their x, y, z from ``grid``). The endpoint sends it per click;
    the page puts it in the canvas's payload after a change of data or settings. h is
    sampled around ``view`` (the plot's zoom); the figure's axes span ``home`` (default:
    ``view``), the ranges "reset axes" returns to. ``theory``: add the "Why?" panel's texts
    written from this model (``ui.shared.theory``), [key, title, markdown] rows.
    """
    t0 = time.perf_counter()
    out = fitting.fit_points(X, y, settings, alpha0, warm_start=warm_model)
    if out.ok:
        RECENT.put(fitting.fit_key(X, y, settings), out.model)
    ans: dict[str, Any] = {"seq": seq, "n": len(X), "ok": out.ok}
    if not out.ok:  # the points alone, and why there is no model
        ans.update(kind=out.kind, message=out.error or "", figure=points_figure(X, y, home or view))
        ans["server_ms"] = round(1000 * (time.perf_counter() - t0), 2)
        return ans
    m = out.model
    grid = fitting.decision_grid(m, *browser_data.grid_ranges(view), browser_data.GRID_RESOLUTION)
    xi = np.asarray(m.xi, dtype=float)
    draw, figure = draw_data(m, grid, *(home or view), style)
    ans.update(
        kind="ok",
        message=out.warning or "",
        alpha=_floats(m.alpha),
        b=float(m.b),
        free=[int(i) for i in m.free_support],
        bound=[int(i) for i in m.bound_support],
        slack_idx=[int(i) for i in np.flatnonzero(xi > MIN_SLACK)],
        misclassified=[int(i) for i in np.flatnonzero(np.asarray(m.category) == "misclassified")],
        h=_floats(m.h_train),
        xi=_floats(xi),
        w_norm=float(m.w_norm),  # the table's δ = y·h(x)/‖w‖
        category=point_labels(m),  # the tables' one rule (ui/shared/sv_labels.py)
        panel=[list(r) for r in tables.model_summary(m, student=parse_style(style)["student"])],
        fit={
            "solver_ms": round(1000 * float(m.time_s), 3),
            "n_iter": int(m.n_iter),
            "converged": bool(m.converged),
            "warm": m.alpha0 is not None,          # the start actually used
            "warm_gradient": m.alpha0 is not None and warm_model is not None,
        },
        **draw,
        figure=figure,
    )
    if theory:
        ans["theory"] = [[t.key, t.title, t.text] for t in playground_sections(m)]
    for part in parse_style(style)["hide"]:
        for k in HIDDEN_FIELDS[part]:
            ans.pop(k, None)
    ans["server_ms"] = round(1000 * (time.perf_counter() - t0), 2)
    return ans


def points_figure(X: np.ndarray, y: np.ndarray, ranges: tuple) -> str:
    """The figure of the points alone (no model), as JSON text for the canvas."""
    fig = decision_figure_dict(None, X=X, y=y, x_range=ranges[0], y_range=ranges[1])
    return browser_data.canvas_figure_json(fig)


def refit(body: Any) -> dict:
    """Fit the posted points and return the canvas's draw data (see the module docstring and
    ``answer``).

    Raises BadRequest (a ValueError naming the bad field) for an invalid request; a fit that
    gives no model (one class, not separable, unsupported combination) is a valid answer with
    ``ok`` false.
    """
    try:
        req = parse_request(body)
    except (OverflowError, RecursionError) as exc:  # a dict not from ``parse_body``
        raise BadRequest(f"a number or nesting too large to read ({exc})") from None
    return answer(req["X"], req["y"], req["settings"], req["view"], home=req["home"],
                  alpha0=req["alpha0"], warm_model=req["warm_model"], seq=req["seq"],
                  style=req["style"])  # fmt: skip


def to_json(ans: dict) -> str:
    """The answer as JSON text; the figure (already JSON text) is spliced in, not quoted."""
    return browser_data.json_with_figure(ans)


def respond(raw: bytes) -> tuple[int, str]:
    """(HTTP status, JSON text) for a raw request body: 200 with the answer, 400 with
    {"error": message} for a bad request, 500 with {"error": ...} (never a traceback)."""
    try:
        body = parse_body(raw)
    except BadRequest as exc:
        return 400, _error(str(exc))
    try:
        return 200, to_json(refit(body))
    except BadRequest as exc:
        return 400, _error(str(exc))
    except Exception as exc:  # a bug must not become a traceback in the browser
        _log.exception("refit failed")
        return 500, _error(f"the refit failed ({type(exc).__name__})")


def parse_body(raw: bytes) -> Any:
    """The JSON of a request body, or BadRequest: larger than MAX_BODY_BYTES, not JSON, NaN
    or Infinity, an integer no float holds (it would overflow every check after this one),
    or nested deeper than MAX_DEPTH. Run at the door (``check_body``) and in the worker."""
    if len(raw) > MAX_BODY_BYTES:
        raise BadRequest(_too_large_message())
    try:
        body = json.loads(raw.decode("utf-8"), parse_constant=_no_constant,
                          parse_int=_float_sized_int)
    except RecursionError:
        raise BadRequest(_too_deep_message()) from None
    except BadRequest:
        raise
    except (UnicodeDecodeError, ValueError) as exc:
        raise BadRequest(f"the request body is not valid JSON ({exc})") from None
    if _depth(body) > MAX_DEPTH:
        raise BadRequest(_too_deep_message())
    return body


def check_body(raw: bytes) -> str | None:
    """The 400's JSON text for a body that ``parse_body`` refuses, else None: checked in the
    server's process before the body goes anywhere else (the lane's cost estimate reads it)."""
    try:
        parse_body(raw)
    except BadRequest as exc:
        return _error(str(exc))
    return None


def _float_sized_int(text: str) -> int:
    n = int(text)
    try:
        float(n)
    except OverflowError:
        raise BadRequest(f"the number {text[:20]}… ({len(text)} digits) is too large") from None
    return n


def _depth(value: Any) -> int:
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


def _error(message: str) -> str:
    return json.dumps({"error": message}, ensure_ascii=False)


def _too_large_message() -> str:
    return f"the request is too large: more than {MAX_BODY_BYTES:,} bytes"


# ------------------------------------------------------------------------------- route


def fit_url(base_url_path: str = "") -> str:
    """The endpoint's absolute path under Streamlit's ``server.baseUrlPath``."""
    base = "/".join(p for p in str(base_url_path or "").split("/") if p)
    return f"/{base}/{FIT_PATH}" if base else f"/{FIT_PATH}"


async def _read_capped(request) -> bytes | None:
    """The body, or None when it is longer than MAX_BODY_BYTES (stops reading there)."""
    chunks, size = [], 0
    async for chunk in request.stream():
        size += len(chunk)
        if size > MAX_BODY_BYTES:
            return None
        chunks.append(chunk)
    return b"".join(chunks)


def refusal(headers: Mapping[str, str]) -> tuple[int, str] | None:
    """(status, JSON text) for a POST another site's page could have sent, else None.

    A page elsewhere can make a student's browser POST a form or text/plain (no preflight)
    and start fits in the student's name: only ``JSON_TYPE`` is read (415 otherwise), and a
    request whose Origin is not this server's own (its Host, or the proxy's
    X-Forwarded-Host) is refused (403). No Origin (curl, a script): not a browser's
    cross-site request, allowed."""
    media = headers.get("content-type", "").split(";")[0].strip().lower()
    if media != JSON_TYPE:
        return 415, _error(f"send the request as {JSON_TYPE}; got {media or 'no type'!r:.60}")
    origin = headers.get("origin")
    if origin is None:
        return None
    hosts = {_host_port(h, origin) for h in (headers.get("host"), headers.get("x-forwarded-host"))}
    mine = _origin_host_port(origin)
    if mine is None or mine not in hosts:
        return 403, _error(f"requests from another site's page are refused (Origin {origin!r:.80})")
    return None


_DEFAULT_PORTS = {"http": 80, "https": 443}


def _origin_host_port(origin: str) -> tuple[str, int] | None:
    try:
        o = urlsplit(origin)
        if o.scheme not in _DEFAULT_PORTS or not o.hostname:
            return None
        return o.hostname, o.port or _DEFAULT_PORTS[o.scheme]
    except ValueError:  # a port that is not a number
        return None


def _host_port(host: str | None, origin: str) -> tuple[str, int] | None:
    """(host, port) of a Host header, the port defaulting to the origin's scheme's."""
    if not host:
        return None
    try:
        h = urlsplit("//" + host.split(",")[0].strip())
        scheme = urlsplit(origin).scheme
        return (h.hostname or ""), h.port or _DEFAULT_PORTS.get(scheme, 80)
    except ValueError:
        return None


async def refit_endpoint(request):
    """Starlette handler: the fit runs in a worker process within the time budget
    (``budget.respond``), killed when the browser drops the request, so a slow fit never
    blocks the event loop that serves every session's websocket, nor outlives its client.
    Nothing reaches ``budget`` that ``refusal`` or ``check_body`` refuses."""
    from starlette.requests import ClientDisconnect
    from starlette.responses import Response

    from ui.serving import budget, slow_clients

    headers = {"Cache-Control": "no-store", BOOT_HEADER: BOOT}
    if request.method in ("GET", "HEAD"):  # which server answers (a restart?); never a fit
        return Response("{}", media_type=JSON_TYPE, headers=headers)
    refused = refusal(request.headers)
    if refused is not None:
        status, text = refused
    else:
        try:
            raw = await _read_capped(request)
        except ClientDisconnect as exc:  # the browser left, or ``slow_clients`` closed it
            return await slow_clients.client_left(request, exc)
        bad = None if raw is None else check_body(raw)
        if raw is None:
            status, text = 400, _error(_too_large_message())
        elif bad is not None:
            status, text = 400, bad
        else:
            status, text = await budget.respond(raw, request.is_disconnected)
    return Response(text, status_code=status, media_type=JSON_TYPE, headers=headers)


def routes(base_url_path: str = "") -> list:
    """The starlette routes to pass to ``st.App(..., routes=...)`` (see app.py): the fit
    endpoint and the browser's modules (``browser_modules.route``)."""
    from starlette.routing import Route

    from ui.serving import browser_modules

    return [Route(fit_url(base_url_path), refit_endpoint, methods=["POST", "GET", "HEAD"]),
            browser_modules.route(base_url_path)]
