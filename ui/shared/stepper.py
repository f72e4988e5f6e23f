"""First / ◀ Back / a slider / Next ▶ / Last over a recorded run's steps 0 … total: the
pages that replay a run stepped by the student (Losses & perceptron, Kernel perceptron & k-NN,
Kernel k-means & PCA). The step is the session's ``prefix + "step"`` (the slider's key); the
buttons move it in their callbacks, so the run is never computed again."""

from __future__ import annotations

from collections.abc import Mapping, MutableMapping

import streamlit as st

MOVES = ("first", "prev", "next", "last")


def step_to(k: int, move: str, total: int) -> int:
    """The step after a button: the start, one back, one on or the end (within 0 … total)."""
    return {"first": 0, "prev": max(0, k - 1), "next": min(total, k + 1), "last": total}[move]


def _on_step(ss: MutableMapping, key: str, move: str, total: int) -> None:
    ss[key] = step_to(int(ss.get(key, total)), move, total)


def step_buttons(ss: MutableMapping, prefix: str, k: int, total: int, *, label: str,
                 helps: Mapping[str, str] | None = None, empty: str | None = None) -> None:
    """The five controls for step ``k`` of ``total``; ``label``: the slider's; ``helps``: a
    tooltip per move; ``empty``: what to say in the slider's place when nothing was recorded."""
    helps = helps or {}
    key = prefix + "step"
    # plain labels: ⏮ and ⏭ have no glyph in the fonts of a bare Debian Chromium
    c = st.columns([1.3, 1.3, 5, 1.3, 1.3], vertical_alignment="bottom")
    for col, move, text, off in zip((0, 1, 3, 4), MOVES, ("First", "◀ Back", "Next ▶", "Last"),
                                    (k == 0, k == 0, k >= total, k >= total), strict=True):
        c[col].button(text, key=prefix + move, on_click=_on_step, args=(ss, key, move, total),
                      help=helps.get(move), width="stretch", disabled=off)
    if total:
        c[2].slider(label, 0, total, key=key)
    elif empty:
        c[2].caption(empty)
