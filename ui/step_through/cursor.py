"""The playback cursor of the Step-through page: k in [0, T] and how the buttons and the
player's ticks move it (pure)."""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

if TYPE_CHECKING:
    from ui.step_through.record import StepRun

ACTIONS = ("first", "prev", "next", "last")


def clamp(k, n_steps: int) -> int:
    """k as an int in [0, n_steps] (anything unreadable becomes 0)."""
    try:
        k = int(k)
    except (TypeError, ValueError, OverflowError):
        return 0
    return max(0, min(k, int(n_steps)))



def move(k, action: str, n_steps: int, *, stride: int = 1) -> int:
    """The cursor after a button: first / prev / next / last (clamped to [0, n_steps])."""
    k = clamp(k, n_steps)
    stride = max(1, int(stride))
    if action == "first":
        return 0
    if action == "last":
        return int(n_steps)
    if action == "prev":
        return clamp(k - stride, n_steps)
    if action == "next":
        return clamp(k + stride, n_steps)
    raise ValueError(f"unknown cursor action {action!r}; expected one of {ACTIONS}")


def event_steps(run: StepRun, coordinate: bool = False) -> np.ndarray:
    """Sorted steps where an α hits 0 or C (Newton: the violator set changes)."""
    if coordinate:
        return run.coord_hits if run.coord_hits is not None else np.zeros(0, dtype=np.int64)
    return np.flatnonzero(run.events)


def next_event(events: np.ndarray, k: int) -> int | None:
    """The first event step after k, or None."""
    events = np.asarray(events)
    pos = int(np.searchsorted(events, int(k), side="right"))
    return int(events[pos]) if pos < len(events) else None


def play_tick(k, n_steps: int, stride: int = 1) -> tuple[int, bool]:
    """One tick of playback: (new cursor, keep playing). Stops at the end."""
    k = clamp(k, n_steps)
    if k >= n_steps:
        return int(n_steps), False
    new = clamp(k + max(1, int(stride)), n_steps)
    return new, new < n_steps
