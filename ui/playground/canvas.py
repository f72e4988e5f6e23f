"""The click-to-place-points canvas: a Streamlit Custom Components v2 component.

The browser side (``ui/browser/canvas*.js``, ES modules served by
``ui.serving.browser_modules``; ``canvas.html``, ``canvas.css``) draws the server's figure
with Plotly.js loaded once from ``/app/static/plotly.min.js`` (see ``app.py``), keeps the
point list, redraws a click at once and sends the whole list back, so no click is lost while
the server refits; it also posts each edit to the fit endpoint (``ui.serving.fit_api``) and paints
that answer first.

Python side: ``canvas_payload`` (what is sent) and ``parse_canvas_points`` /
``parse_canvas_view`` (what comes back, validated by ``ui.shared.browser_data``'s checks: the
browser is not trusted) are pure and tested; ``point_canvas`` mounts the component.
"""

from __future__ import annotations

import functools
import json
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any

import numpy as np

from ui.serving import browser_modules
from ui.shared.browser_data import (
    PLOTLY_URL,
    CanvasError,
    json_with_figure,
    parse_point_list,
    parse_ranges,
)
from ui.shared.labels import KERNEL_LABELS, SOLVER_NAMES
from ui.shared.plotly_config import no_cloud
from ui.shared.points import MAX_POINTS
from ui.shared.session import shared

_DIR = Path(__file__).resolve().parents[1] / "browser"  # the page's script and style
COMPONENT_NAME = "svmlab_canvas"
#: Why an edit of a points-locked teacher link's points was refused (the server checks: a client
#: other than the canvas may send one).
LOCKED_TEXT = "The points are locked by your teacher: the edit was not applied."
#: the numbers panel's accessible name (canvas.html): the table the plot's description names
NUMBERS_HEADING = "The fit's numbers"


@functools.cache  # the element is looked up on every rerun: read its files once
def _read(name: str) -> str:
    return (_DIR / name).read_text(encoding="utf-8")


def canvas_payload(
    X: np.ndarray,
    y: np.ndarray,
    *,
    epoch: int,
    seq: int,
    view_rev: int,
    max_points: int,
    busy_text: str = "refitting…",
    config: Mapping[str, Any] | None = None,
    url_query: str = "",
    settings: Mapping[str, Any] | None = None,
    fit_url: str = "",
    home: Any = None,
    view: Any = None,
    title: str = "",
    answer: Mapping[str, Any] | None = None,
    locked: bool = False,
    can_undo: bool = False,
    session: str = "",
    boot: str = "",
    hide: tuple = (),
    style: Mapping[str, Any] | None = None,
    a11y: Mapping[str, Any] | None = None,
) -> dict:
    """The JSON-ready data for the component.

    ``url_query`` is the encoded state; the browser mirrors it into the address bar with
    ``history.replaceState`` (cheaper than ``st.query_params`` on every click, which re-renders
    the whole app). ``fit_url`` is the fit endpoint (``ui.serving.fit_api``) the browser posts each
    edit
    to, with ``settings``; ``home`` the axis ranges ((x0, x1), (y0, y1)) of the data; ``view``
    the zoom the session remembers (None: ``home``), which a freshly mounted canvas (the student
    came back from another page) shows again, so that the answer's grid, sampled around it,
    covers the plot; ``answer`` the endpoint's answer for these points and settings
    (``fit_api.answer``) when the page has one the browser has not seen, else None (the browser
    then keeps its own, or asks the endpoint). A teacher link (``ui.playground.teacher``):
    ``locked`` no
    point can be added, moved or deleted; ``can_undo``: the session can undo its last
    replacement of the points (``ui.shared.history``), which the Undo button asks for once the
    canvas's
    own edits are all undone; ``session`` the session's id: a canvas that meets a new one (the
    server restarted) with points of its own hands them to it; ``boot`` the server process's id
    (``fit_api.BOOT``); ``hide`` "numbers" and/or "table" are not shown; ``style`` ({"scale",
    "show_sv"}, ``fit_schema.Style``) goes with each request to the endpoint; ``a11y``
    (``a11y_words``) names and describes the plot for a screen reader."""
    X = np.asarray(X, dtype=float).reshape(-1, 2)
    y = np.asarray(y).reshape(-1)
    labels = np.where(np.asarray(y, dtype=float) > 0, 1.0, -1.0)
    # one C-level conversion (a Python loop over the points was a tenth of a sync's CPU);
    # labels become ±1.0, which JSON and the browser read as ±1
    points = np.column_stack([X, labels]).tolist() if len(X) else []
    return {
        "points": points,
        "epoch": int(epoch),
        "seq": int(seq),
        "view_rev": int(view_rev),
        "max_points": int(max_points),
        "busy_text": str(busy_text),
        "plotly_url": PLOTLY_URL,
        "config": no_cloud(config),
        "url_query": str(url_query),
        "settings": dict(settings or {}),
        "solver_names": dict(SOLVER_NAMES),
        "fit_url": str(fit_url),
        "home": None if home is None else [[float(v) for v in r] for r in home],
        "view": None if view is None else [[float(v) for v in r] for r in view],
        "title": str(title),
        "answer": None if answer is None else dict(answer),
        "locked": bool(locked),
        "can_undo": bool(can_undo),
        "session": str(session),
        "boot": str(boot),
        "hide": [str(h) for h in hide],
        "style": dict(style or {}),
        "a11y": dict(a11y or {}),
    }


def a11y_words(settings: Mapping[str, Any], title: str) -> dict:
    """What the browser needs to name and describe the plot (``ui/browser/describe.js`` writes
    the description from each answer, as ``ui.shared.describe.describe_model`` does): the
    plot's name, the kernel in words, the numbers panel's heading and where it is."""
    kernel = str(settings.get("kernel", "linear"))
    name = f"Playground plot: {title}" if title else "Playground plot"
    return {"name": name, "kernel": KERNEL_LABELS.get(kernel, kernel),
            "table": NUMBERS_HEADING, "where": "beside"}


def payload_text(payload: Mapping[str, Any]) -> str:
    """The payload as the JSON text the component receives (``point_canvas``): encoded once
    here, with the answer's figure (already JSON text) spliced in, not quoted. Streamlit
    encodes a dict payload three times per rerun (the element, its identity, a scan for
    dataframes) and quotes the figure text again each time: measured with py-spy on the
    session's sync rerun, that was a third of its server CPU (benchmarks/bench_click_cpu.py)."""
    answer = payload.get("answer")
    rest = {k: v for k, v in payload.items() if k != "answer"}
    text = json.dumps(rest, allow_nan=False, separators=(",", ":"), ensure_ascii=False)
    if answer is None:
        return f'{text[:-1]},"answer":null}}'
    return f'{text[:-1]},"answer":{json_with_figure(answer)}}}'


def _is_int(v: Any) -> bool:
    return isinstance(v, int) and not isinstance(v, bool)


def parse_canvas_points(
    value: Any, *, epoch: int, last_seq: int, max_points: int
) -> tuple[np.ndarray, np.ndarray, int] | None:
    """(X, y, seq) when the browser sent a newer edit of the current epoch, else None.

    Raises CanvasError for anything malformed (wrong types, non-finite numbers, labels other
    than ±1, more than ``max_points`` points).
    """
    if value is None:
        return None
    if not isinstance(value, Mapping):
        raise CanvasError("the plot sent points in an unknown format")
    ep, seq, pts = value.get("epoch"), value.get("seq"), value.get("points")
    if not _is_int(ep) or not _is_int(seq) or not isinstance(pts, list):
        raise CanvasError("the plot sent points in an unknown format")
    if ep != epoch or seq <= last_seq:
        return None  # an edit of points that Python has since replaced, or already adopted
    X, y = parse_point_list(pts, max_points=max_points)
    return X, y, seq


def parse_canvas_view(value: Any, *, view_rev: int) -> tuple[tuple, tuple] | None:
    """((x0, x1), (y0, y1)) the user zoomed/panned to, for the current view revision."""
    if not isinstance(value, Mapping) or value.get("rev") != view_rev:
        return None
    return parse_ranges(value.get("x"), value.get("y"))


def apply_canvas_points(ss, value: Any) -> bool:
    """Adopt the canvas's point list into the Playground state (``ss`` = session state).

    Returns True if the points changed. A malformed list leaves the points alone and queues
    an error message.
    """
    from ui.playground import teacher
    from ui.shared import state

    sh = shared(ss)
    try:
        parsed = parse_canvas_points(
            value,
            epoch=sh.epoch,
            last_seq=sh.canvas_seq,
            max_points=MAX_POINTS,
        )
    except CanvasError as exc:
        state.push_flash(ss, "error", f"The last edit in the plot was not applied: {exc}.")
        return False
    if parsed is None:
        return False
    X, y, seq = parsed
    if teacher.is_locked(ss, "points"):  # the canvas refuses edits; a client may not
        sh.epoch += 1  # it gets the link's points back
        state.push_flash(ss, "error", LOCKED_TEXT)
        return False
    state.set_points(ss, X, y, from_canvas=True)
    sh.canvas_seq = seq
    return True


def apply_canvas_view(ss, value: Any) -> bool:
    """Remember the zoom/pan the canvas reported (for the shading grid)."""
    sh = shared(ss)
    view = parse_canvas_view(value, view_rev=sh.view_rev)
    if view is None:
        return False
    sh.view = view
    return True


def point_canvas(
    payload: dict,
    *,
    key: str,
    on_points: Callable[[], None],
    on_view: Callable[[], None],
) -> Any:
    """Mount the canvas. The callbacks read ``st.session_state[key]["points"|"view"]``."""
    element = browser_modules.element(COMPONENT_NAME, "canvas.js", _read("canvas.html"),
                                      _read("canvas.css"))
    return element(
        key=key,
        data=payload_text(payload),
        default={"points": None, "view": None},
        on_points_change=on_points,
        on_view_change=on_view,
    )


