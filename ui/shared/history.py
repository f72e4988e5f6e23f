"""Undo across the changes made in Python: a dataset load, an import, a table edit, "open in
the Playground". Each one replaces the points and may replace the settings; the session keeps
what was there before (points, settings, title, source, axis ranges), so that the canvas's
Undo, once its own edits are undone, brings all of it back (its own undo stack starts anew
with every replacement: ui/browser/canvas.js).

The session's ``Shared.history``, capped: at most ``DEPTH`` snapshots of at most
``points.MAX_POINTS`` points each.
"""

from __future__ import annotations

from collections.abc import Mapping, MutableMapping
from typing import Any

import numpy as np

from ui.shared import state
from ui.shared.labels import BIAS_LABELS, KERNEL_LABELS, LOSS_LABELS, SOLVER_LABELS
from ui.shared.numbers import fmt_setting
from ui.shared.session import shared

DEPTH = 20

#: How the settings are named in the message that says what a load changed.
_NAMES = {"kernel": "the kernel", "degree": "the degree q", "coef0": "c", "sigma": "σ",
          "loss": "the loss", "C": "C", "hard_margin": "the hard margin", "bias": "the bias",
          "solver": "the solver"}
#: How their values are named (the sidebar's words, not the address bar's).
_VALUES = {"kernel": KERNEL_LABELS, "loss": LOSS_LABELS, "bias": BIAS_LABELS,
           "solver": SOLVER_LABELS}


def remember(ss: MutableMapping) -> None:
    """Keep the current points and settings before Python replaces them (a session with
    points but no settings yet has nothing whole to keep: remembering would load the default
    dataset, which remembers, and so on)."""
    if not state.has_state(ss):
        return
    sh = shared(ss)
    snap = {
        "X": np.array(sh.X), "y": np.array(sh.y), "settings": sh.settings,
        "title": sh.title or "", "source": sh.source, "range": sh.range,
    }  # fmt: skip
    sh.history = [*sh.history[-(DEPTH - 1):], snap]


def can_undo(ss: MutableMapping) -> bool:
    return bool(shared(ss).history)


def undo(ss: MutableMapping) -> str | None:
    """Bring back the points and settings from before the last replacement; the message
    that says so (None when there is nothing to undo)."""
    sh = shared(ss)
    if not sh.history:
        return None
    snap = sh.history.pop()
    changed = changes(state.current_settings(ss), snap["settings"])
    state.set_points(ss, snap["X"], snap["y"], title=snap["title"], reset_view=True)
    state.set_settings(ss, snap["settings"])
    sh.source = snap["source"]
    if snap["range"] is not None:
        sh.range = snap["range"]
    sh.canvas_seq = 0
    state.clear_widget_keys(ss)
    return (f"Undone: {snap['title'] or 'the points'} ({len(snap['y'])} points) are back"
            + (f"; {changed}." if changed else "."))


def changes(before: Mapping[str, Any], after: Mapping[str, Any]) -> str:
    """'the kernel changed from polynomial to linear and C from 10 to ∞' for the settings
    that differ ('' if none), in the sidebar's words."""
    parts = []
    for k, name in _NAMES.items():
        a, b = before.get(k), after.get(k)
        if a != b and not (k in ("degree", "coef0") and after.get("kernel") != "polynomial") \
                and not (k == "sigma" and after.get("kernel") != "gaussian"):
            verb = "" if parts else " changed"
            parts.append(f"{name}{verb} from {_show(k, a)} to {_show(k, b)}")
    return ", ".join(parts[:-1]) + (" and " if len(parts) > 1 else "") + "".join(parts[-1:])


def loaded_message(title: str, n_before: int, n_after: int, before: Mapping[str, Any],
                   after: Mapping[str, Any]) -> str:
    """What a load changed and why, and how to take it back."""
    changed = changes(before, after)
    return (f"Loaded {title}: its {n_after} points replace your {n_before}"
            + (f". The settings suggested for it came along: {changed} (see the sidebar)"
               if changed else "")
            + ". ↶ Undo in the plot brings back your points and settings.")


def _show(key: str, v: Any) -> str:
    if isinstance(v, bool):
        return "on" if v else "off"
    if key in _VALUES:
        return _VALUES[key].get(v, str(v))
    if isinstance(v, float):
        return fmt_setting(v)
    return str(v)
