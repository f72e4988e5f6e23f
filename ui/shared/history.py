"""Undo across the changes made in Python: a dataset load, an import, a table edit, "open in
the Playground". Each one replaces the points and may replace the settings; the session keeps
what was there before (points, settings, title, source, axis ranges), so that the canvas's
Undo, once its own edits are undone, brings all of it back (its own undo stack starts anew
with every replacement: ui/browser/canvas.js).

Plain session state, capped: at most ``DEPTH`` snapshots of at most ``state.MAX_POINTS``
points each.
"""

from __future__ import annotations

from collections.abc import Mapping, MutableMapping
from typing import Any

import numpy as np

from ui.shared import state
from ui.shared.numbers import fmt_setting

K_HISTORY = "svmlab.history"
DEPTH = 20

#: How the settings are named in the message that says what a load changed.
_NAMES = {"kernel": "kernel", "degree": "degree q", "coef0": "c", "sigma": "σ", "loss": "loss",
          "C": "C", "hard_margin": "hard margin", "bias": "bias", "solver": "solver"}


def remember(ss: MutableMapping) -> None:
    """Keep the current points and settings before Python replaces them (a session with
    points but no settings yet has nothing whole to keep: remembering would load the default
    dataset, which remembers, and so on)."""
    if state.K_X not in ss or state.K_SETTINGS not in ss:
        return
    snap = {
        "X": np.array(ss[state.K_X]), "y": np.array(ss[state.K_Y]),
        "settings": state.current_settings(ss), "title": ss.get(state.K_TITLE, ""),
        "source": ss.get(state.K_SOURCE), "range": ss.get(state.K_RANGE),
    }  # fmt: skip
    ss[K_HISTORY] = [*ss.get(K_HISTORY, [])[-(DEPTH - 1):], snap]


def can_undo(ss: Mapping) -> bool:
    return bool(ss.get(K_HISTORY))


def undo(ss: MutableMapping) -> str | None:
    """Bring back the points and settings from before the last replacement; the message
    that says so (None when there is nothing to undo)."""
    hist = list(ss.get(K_HISTORY, []))
    if not hist:
        return None
    snap = hist.pop()
    ss[K_HISTORY] = hist
    changed = changes(state.current_settings(ss), snap["settings"])
    state.set_points(ss, snap["X"], snap["y"], title=snap["title"], reset_view=True)
    state.set_settings(ss, snap["settings"])
    ss[state.K_SOURCE] = snap["source"]
    if snap["range"] is not None:
        ss[state.K_RANGE] = snap["range"]
    ss[state.K_CANVAS_SEQ] = 0
    state.clear_widget_keys(ss)
    return (f"Undone: {snap['title'] or 'the points'} ({len(snap['y'])} points) are back"
            + (f", with {changed}." if changed else "."))


def changes(before: Mapping[str, Any], after: Mapping[str, Any]) -> str:
    """'kernel polynomial → linear, C 10 → ∞' for the settings that differ ('' if none)."""
    parts = []
    for k, name in _NAMES.items():
        a, b = before.get(k), after.get(k)
        if a != b and not (k in ("degree", "coef0") and after.get("kernel") != "polynomial") \
                and not (k == "sigma" and after.get("kernel") != "gaussian"):
            parts.append(f"{name} {_show(a)} → {_show(b)}")
    return ", ".join(parts)


def loaded_message(title: str, n_before: int, n_after: int, before: Mapping[str, Any],
                   after: Mapping[str, Any]) -> str:
    """What a load changed, and how to take it back."""
    changed = changes(before, after)
    return (f"Loaded {title}: its {n_after} points replace your {n_before}"
            + (f"; its suggested settings changed {changed}" if changed else "")
            + ". ↶ Undo in the plot brings back your points and settings.")


def _show(v: Any) -> str:
    if isinstance(v, bool):
        return "on" if v else "off"
    if isinstance(v, float):
        return fmt_setting(v)
    return str(v)
