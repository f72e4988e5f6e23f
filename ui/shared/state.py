"""The Playground's session state: its points, its settings and their messages.

Everything per user lives in ``st.session_state`` (passed in here as any mutable mapping, so
these functions are tested without streamlit). Other pages use the shared contract:

- ``current_dataset(ss) -> (X (n, 2) float ndarray, y (n,) ±1 int ndarray, title)``
- ``current_settings(ss) -> ui.shared.settings.Settings``
- ``load_into_playground(ss, X, y, settings, title)``

The settings type is ``ui.shared.settings``, the points' check ``ui.shared.points``, the
URL codec ``ui.shared.links``.
"""

from __future__ import annotations

from collections.abc import Mapping, MutableMapping
from typing import Any

import numpy as np

from svm_engine import datasets
from ui.shared.points import MAX_POINTS, default_range, validate_points
from ui.shared.settings import Settings

DEFAULT_DATASET = "d1"

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


def push_flash(ss: MutableMapping, level: str, text: str) -> None:
    """Queue a message ("error", "warning", "info", "success") for the next run."""
    ss[K_FLASH] = [*ss.get(K_FLASH, []), (level, str(text))]


def pop_flash(ss: MutableMapping) -> list[tuple[str, str]]:
    """The queued messages (and forget them)."""
    return list(ss.pop(K_FLASH, None) or [])


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


def current_settings(ss: MutableMapping) -> Settings:
    """The Playground's settings (frozen: change them with ``set_settings(ss, s.replace(...))``)."""
    ensure_state(ss)
    return ss[K_SETTINGS]


def set_settings(ss: MutableMapping, settings: Mapping[str, Any]) -> Settings:
    """Validate and store settings (does not touch widget keys)."""
    s = Settings.parse(settings)
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

    s = Settings.from_dataset(settings)
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
    load_into_playground(ss, ds.X, ds.y, Settings.from_dataset(ds.settings), ds.title)
    ss[K_SOURCE] = {"name": name, "params": dict(params)}


