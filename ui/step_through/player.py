"""The SMO step player: stepping runs in the browser, with no server round trip per step.

A Streamlit Custom Components v2 element (``step_player.js``/``.css``) receives ONE compact
payload per recorded SMO run and keeps it in the browser: the points X, y, the kernel's name
and parameters (the browser evaluates K(xᵢ, ·) itself, same formulas as
``svm_engine.kernels``), the shading grid's axes and every step's record. It keeps α, the
decision values on the training points and on the grid, and updates them per step:

    Δh(·) = Δαᵢyᵢ K(xᵢ, ·) + Δαⱼyⱼ K(xⱼ, ·) + Δb        (one SMO step, Platt 1998)

A jump (slider, first/last, next bound change) replays α from the records and recomputes h
from α. The controls (first/prev/next/last, play/pause with a speed, the slider, next bound
change) live in the element; it draws the scatter plot, the (αᵢ, αⱼ) box, the α bars and the
curve marker itself, then reports the step with a window event that the invisible listener
(``step_sync.js``, mounted in the panels' fragment) turns into the state ``{"run", "k"}``,
so the server's panels (why this pair, the formulas, the tables) follow a moment later. The
browser is the only source of the step: the server never sends it back (``start`` is read
only by an element that has no step of this run yet).

The payload is sent once per run and session: later reruns send the run id only; an element
that lacks the run (a reload of the element) asks for it again (state ``need``).

Pure parts (tested): ``player_payload`` (what is sent), ``decode``/``event_steps`` (the
browser's reading of it, in Python; the tests replay α from it as step_player.js does:
tests/step_payload.py), ``parse_step`` (what comes back, validated: the browser is not
trusted). Mounting: ``step_player`` and ``step_listener``.

Symbols as in ``ui.step_through.snapshot``: α, C, η, L, H, Eₜ = h(xₜ) − yₜ (before the step), b.
Indices 0-based here; the browser shows them 1-based.
"""

from __future__ import annotations

import base64
import functools
import math
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import numpy as np

from svm_engine.bounds import browser_rules
from ui.serving import browser_modules
from ui.shared.browser_data import PLOTLY_URL, canvas_figure_json
from ui.shared.chart import export_text, image_config
from ui.shared.figures import alpha_scale, region_scale
from ui.shared.fitting import grid_axes
from ui.step_through import cursor, record, snapshot
from ui.step_through import text as W
from ui.step_through.curves_figure import curves_figure
from ui.step_through.decision_figures import decision_frame_figure
from ui.step_through.step_schema import CurveArrays, StepArrays, encode

_DIR = Path(__file__).resolve().parents[1] / "browser"  # the page's script and style
COMPONENT_NAME = "svmlab_stepplayer"
SYNC_NAME = "svmlab_stepsync"
#: the element's skeleton; step_player.js fills it (controls, plots, captions)
ICONS = {  # Material Symbols paths (24 × 24), as Streamlit's buttons use
    "first": "M18.41 16.59 13.82 12l4.59-4.59L17 6l-6 6 6 6zM6 6h2v12H6z",
    "prev": "M15.41 7.41 14 6l-6 6 6 6 1.41-1.41L10.83 12z",
    "next": "M10 6 8.59 7.41 13.17 12l-4.58 4.59L10 18l6-6z",
    "last": "M5.59 7.41 10.18 12l-4.59 4.59L7 18l6-6-6-6zM16 6h2v12h-2z",
    "play": "M8 5v14l11-7z",
    "pause": "M6 19h4V5H6zm8-14v14h4V5z",
    "jump": "M18.4 10.6C16.55 9 14.15 8 11.5 8c-4.65 0-8.58 3.03-9.96 7.22L3.9 16a8 8 0 0 1 "
    "7.6-5.5c1.95 0 3.73.72 5.12 1.88L13 16h9V7z",
}


def icon(name: str) -> str:
    return f'<svg viewBox="0 0 24 24" aria-hidden="true"><path d="{ICONS[name]}"/></svg>'


def _button(act: str, label: str, title: str, extra: str = "") -> str:
    return (
        f'<button type="button" data-act="{act}" title="{title}"{extra}>'
        f"{icon(act)}<span>{label}</span></button>"
    )


#: the element's skeleton; step_player.js fills it (controls, plots, captions)
HTML = (
    # tabindex -1: a click on a picture puts focus in the player, where its keys act
    '<div class="svmlab-player" tabindex="-1" role="region" aria-label="SMO step player">'
    '<div class="sp-controls" role="group" aria-label="step controls">'
    + _button("first", "First", "First step (Home)")
    + _button("prev", "Prev", "Previous step (←)")
    + _button("next", "Next", "Next step (→)", ' class="sp-primary"')
    + _button("last", "Last", "Last step (End)")
    + _button("play", "Play", "Play / pause (P)")
    + '<label class="sp-speed">Speed <select data-role="speed"></select></label>'
    + _button("jump", "Next bound change", "Jump to the next step where an α hits 0 or C (J)")
    + "</div>"
    '<div class="sp-slider-row"><span class="sp-counter-label">Step</span>'
    '<span class="sp-counter" data-role="counter">0 / 0</span>'
    '<input type="range" data-role="slider" min="0" max="0" value="0" step="1" '
    'aria-label="step k"></div>'
    '<div class="sp-summary" data-role="summary"></div>'
    '<details class="sp-keys"><summary>Keyboard</summary>'
    "<p>With focus in the player (Tab to its buttons, or click a picture):</p>"
    '<table data-role="keys"><thead><tr><th scope="col">Key</th><th scope="col">Action'
    "</th></tr></thead><tbody></tbody></table>"
    "<p>Elsewhere on the page these keys do nothing here. The step slider takes ← → "
    "itself; Tab leaves the player.</p></details>"
    '<div class="sp-grid">'
    '<div class="sp-panel" data-panel="decision"><div class="sp-stack">'
    '<canvas class="sp-under"></canvas><div class="sp-plot"></div>'
    '<canvas class="sp-over"></canvas></div>'
    '<div class="sp-caption" data-role="decision-caption"></div></div>'
    '<div class="sp-panel" data-panel="box"><div class="sp-box"></div>'
    '<div class="sp-caption" data-role="box-caption"></div></div>'
    "</div>"
    '<div class="sp-panel" data-panel="alpha"><canvas class="sp-bars"></canvas>'
    '<div class="sp-tip" hidden></div></div>'
    '<div class="sp-panel" data-panel="curves"><div class="sp-stack">'
    '<div class="sp-plot"></div><canvas class="sp-over"></canvas></div></div>'
    '<div class="sp-status" data-role="status" aria-live="polite"></div>'
    # one sentence per step taken (step_access.js); the pictures' descriptions
    '<div class="sp-sr" data-role="announce" role="status" aria-live="polite" '
    'aria-atomic="true"></div>'
    '<div class="sp-sr" data-role="descriptions"></div>'
    "</div>"
)
PROTOCOL = 1
#: play speeds offered by the element (steps per second) and the default
SPEEDS = (1, 2, 4, 10, 20, 50, 100)
DEFAULT_SPEED = 2
#: ms the step must stay put before it is reported to the server (coalesces quick clicks)
REPORT_MS = 250
#: typed-array dtypes (little-endian) the browser decodes
_DTYPES = {"f8": "<f8", "f4": "<f4", "i4": "<i4", "u2": "<u2", "i1": "i1", "u1": "u1"}
FLAG_CLIPPED = 1  # αⱼ was clipped to [L, H]
FLAG_EVENT = 2  # αᵢ or αⱼ hit 0 or C (the "next bound change" stops here)


# ----------------------------------------------------------------------- typed arrays


def typed(a, dtype: str) -> dict:
    """A numpy array as {"dtype", "bdata": base64 of its little-endian bytes} (flat)."""
    arr = np.ascontiguousarray(np.asarray(a).reshape(-1), dtype=_DTYPES[dtype])
    return {"dtype": dtype, "bdata": base64.b64encode(arr.tobytes()).decode("ascii")}


def decode(spec: Mapping[str, Any]) -> np.ndarray:
    """The inverse of ``typed`` (what step_player.js does with ``atob``)."""
    return np.frombuffer(base64.b64decode(spec["bdata"]), dtype=_DTYPES[spec["dtype"]])


def _index_dtype(n: int) -> str:
    return "u2" if n <= 65535 else "i4"


def _nan_none(v: float) -> float | None:
    return float(v) if math.isfinite(v) else None


# --------------------------------------------------------------------------- payload


def kernel_spec(kernel) -> dict:
    """The kernel for the browser: its name and parameters (svm_engine.kernels)."""
    spec: dict[str, Any] = {"name": kernel.name}
    spec.update({k: (int(v) if k == "degree" else float(v)) for k, v in kernel.params.items()})
    return spec


def player_payload(
    run: record.StepRun,
    run_id: str,
    *,
    x_range,
    y_range,
    resolution: int = 50,
    decision_height: int = 560,
    curves_height: int = 440,
) -> dict:
    """Everything the browser needs to draw any step of an SMO run (sent once per run).

    Per step t = 1..T and per state k = 0..T: the records ``step_schema.StepArrays`` and
    ``CurveArrays`` (each field's dtype and meaning there); ``a_new`` is float64, so the
    browser's replay gives the solver's α bit for bit. α before a step is not sent: the
    browser replays it. ``rules``: when α counts as 0 or C (svm_engine.bounds). The curves
    and the scatter plot's axes and points come as
    static Plotly figures (JSON text), drawn once per run.
    """
    if run.solver != "smo":
        raise ValueError(f"the step player replays SMO runs; got {run.solver!r}")
    T, n = run.n_steps, run.n
    det = run.detail
    idx = _index_dtype(n)
    a_new = np.empty(2 * T)
    a_new[0::2], a_new[1::2] = det["ai_new"][1:], det["aj_new"][1:]
    # Platt's Eₜ uses the b before the step; the engine recorded it with the b after it
    shift = run.b[:-1] - run.b[1:]
    flags = np.where(det["clipped"][1:], FLAG_CLIPPED, 0) | np.where(run.events[1:], FLAG_EVENT, 0)
    xs, ys = grid_axes(x_range, y_range, resolution)
    C_box = run.C_box
    curves = curves_figure(
        run.dual,
        run.primal,
        run.kkt,
        0,
        step_name=run.step_name,
        kkt_name="m(α) − M(α)",
        tol=run.model.tol,
        height=curves_height,
        marker=False,
    )
    for tr in curves["data"]:  # the long curves as float32 typed arrays, not JSON numbers
        if tr["meta"]["role"] in ("dual", "primal", "kkt", "extra"):
            tr["x"] = np.asarray(tr["x"], dtype=np.int32)
            tr["y"] = np.array([np.nan if v is None else v for v in tr["y"]], dtype=np.float32)
    frame = decision_frame_figure(run.X, run.y, x_range, y_range, height=decision_height)
    return {
        "v": PROTOCOL,
        "run": str(run_id),
        "solver": "smo",
        "n": int(n),
        "T": int(T),
        "step_name": run.step_name,
        "C_box": _nan_none(C_box),
        # ring size of a support vector grows with α/scale (ui.shared.figures.alpha_scale; None:
        # the largest α of the step shown)
        "ring_scale": (
            alpha_scale(run.model) if run.loss == "hinge" and math.isfinite(run.C) else None
        ),
        "quad_C": float(run.C) if run.loss == "quadratic" else None,
        "kkt_tol": snapshot.KKT_TOL,
        "rules": browser_rules(),  # when α counts as 0 or C: the browser has no copy of its own
        "kernel": kernel_spec(run.kernel),
        "X": typed(run.X, "f8"),
        "y": typed(np.where(run.y > 0, 1, -1), "i1"),
        "alpha0": typed(run.tape.alpha0, "f8"),
        "grid": {"xs": typed(xs, "f8"), "ys": typed(ys, "f8"), "regions": region_scale()},
        "steps": encode(StepArrays(
            i=det["i"][1:], j=det["j"][1:], a_new=a_new, aj_unc=det["aj_unclipped"][1:],
            L=det["L"][1:], H=det["H"][1:], eta=det["eta"][1:], Ei=det["Ei"][1:] + shift,
            Ej=det["Ej"][1:] + shift, flags=flags), typed, idx),
        "curve": encode(CurveArrays(b=run.b, dual=run.dual, primal=run.primal, kkt=run.kkt),
                        typed, idx),
        "frame": canvas_figure_json(frame),
        "curves": canvas_figure_json(curves),
        "text": {
            "decision_key": W.decision_key("smo", open_box=not math.isfinite(run.C_box)),
            "box_caption": (
                "Dashed: the line yᵢαᵢ + yⱼαⱼ = const (Σαₜyₜ = 0 keeps the pair on it); "
                "green: the feasible segment αⱼ ∈ [L, H] inside the box; ● old point, "
                "◇ unclipped optimum, ★ new (clipped) point."
            ),
            "box_empty": (
                "The (αᵢ, αⱼ) picture of each step appears here: the box "
                + ("[0, C]²" if math.isfinite(run.C_box) else "[0, ∞)² (no upper bound on α)")
                + ", the "
                "line yᵢαᵢ + yⱼαⱼ = const, the segment [L, H], the old point, the "
                "unclipped optimum and the clipped new point. Press Next (or →)."
            ),
        },
    }


# ------------------------------------------------------- the browser's reading, in Python


def event_steps(payload: Mapping[str, Any]) -> np.ndarray:
    """The steps the browser's "next bound change" stops at (1-based step numbers)."""
    flags = decode(payload["steps"]["flags"])
    return np.flatnonzero(flags & FLAG_EVENT) + 1


def parse_step(value: Any, run_id: str, n_steps: int) -> int | None:
    """The step the browser reports ({"run", "k"}) if it is for this run, else None."""
    if not isinstance(value, Mapping) or value.get("run") != run_id:
        return None
    k = value.get("k")
    if isinstance(k, bool) or not isinstance(k, int):
        return None
    return cursor.clamp(k, n_steps)


def must_send(sent_run: Any, run_id: str, need: Any, need_seen: int) -> tuple[bool, int]:
    """(send the payload on this rerun?, the request counter seen): yes when this session has
    not sent this run's payload, or when the element asked for it again (state ``need`` =
    {"run", "n"} with a counter n not seen before)."""
    seen = int(need_seen)
    asked = (
        isinstance(need, Mapping)
        and need.get("run") == run_id
        and isinstance(need.get("n"), int)
        and not isinstance(need.get("n"), bool)
        and need["n"] > seen
    )
    if asked:
        seen = int(need["n"])
    return bool(asked or sent_run != run_id), seen


#: the player's two Plotly charts, as their saved images are titled
EXPORT_TITLES = {"decision": "SMO, step by step: the decision function h(x)",
                 "curves": "SMO, step by step: the dual, the primal and the KKT gap"}
PLAYER_CONFIG = {
    "displaylogo": False,
    "doubleClick": False,
    "scrollZoom": False,
    "modeBarButtonsToRemove": ["select2d", "lasso2d", "autoScale2d"],
}


def player_data(
    run_id: str,
    payload: Mapping[str, Any] | None,
    *,
    start: int,
    show_slack: bool,
    need_seen: int,
    settings: str = "",
) -> dict:
    """The element's data on one rerun: the run id, the payload only when the browser does
    not have it yet, the options, ``start`` (used only by an element without a step) and the
    words of the charts' saved images (``settings``: the points and the model; the browser
    adds the step)."""
    return {
        "run": str(run_id),
        "payload": payload,
        "start": int(start),
        "options": {"show_slack": bool(show_slack)},
        "speeds": list(SPEEDS),
        "default_speed": DEFAULT_SPEED,
        "report_ms": REPORT_MS,
        "need_seen": int(need_seen),
        "icons": {"play": icon("play"), "pause": icon("pause")},
        "plotly_url": PLOTLY_URL,
        "config": image_config(PLAYER_CONFIG, "smo_step"),
        "export": {name: export_text(None, title, settings)
                   for name, title in EXPORT_TITLES.items()},
    }


# --------------------------------------------------------------------------- mounting


@functools.cache  # the element is looked up on every rerun: read its files once
def _read(name: str) -> str:
    return (_DIR / name).read_text(encoding="utf-8")


def step_player(data: dict, *, key: str) -> Any:
    """Mount the player. ``st.session_state[key]["need"]`` is {"run", "n"} when the element
    lacks the run's payload (the rerun that follows sends it: ``must_send``)."""
    player = browser_modules.element(COMPONENT_NAME, "step_player.js", HTML,
                                     _read("step_player.css"))
    return player(key=key, data=data, default={"need": None}, on_need_change=lambda: None)


def step_listener(*, key: str, run_id: str, k: int) -> Any:
    """Invisible: turns the player's step reports into the state ``{"run", "k"}`` of ``key``
    (and so reruns the fragment it is mounted in). ``k`` is the step the server shows."""
    return browser_modules.element(SYNC_NAME, "step_sync.js")(
        key=key,
        data={"run": str(run_id), "k": int(k)},
        default={"step": None},
        on_step_change=lambda: None,
    )
