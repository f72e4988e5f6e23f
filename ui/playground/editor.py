"""The "Edit coordinates" table (``st.data_editor``) keeps its key while its own edits change
the points, so that the keyboard's focus stays in it after a committed add, edit or delete
(issue 28, WCAG 2.4.3: a key made of the points' digest rebuilt the table after each edit,
and the focus fell to the page's <body>).

The table is shown its *base* points, those it started from, and Streamlit keeps its edits
on top of them; the session's points are the base with those edits applied. Only a change
made elsewhere (the plot, a load, an import, Undo) or an edit that was refused gives the
table a new key, with the current points as its base. Pure: session state in, key out.
"""

from __future__ import annotations

from collections.abc import MutableMapping

import numpy as np

from ui.shared import tables
from ui.shared.points import MAX_POINTS, validate_points
from ui.shared.state import Playground

# the table's base is ``Playground.editor``: {"gen": n, "X": the base's x1, x2, "y": its labels}


def _key(gen: int) -> str:
    return Playground.widget_key(f"editor.{gen}")


def _applied(rec, changes) -> tuple[np.ndarray, np.ndarray]:
    return validate_points(
        *tables.apply_editor_changes(rec["X"], rec["y"], changes, MAX_POINTS))


def editor_base(ss: MutableMapping, X, y) -> tuple[str, np.ndarray, np.ndarray]:
    """(key, base X, base y) for the table that shows the points (X, y): the same key as
    before when its base with its edits is these points, else a new key on them."""
    rec = Playground.of(ss).editor
    if rec is not None:
        try:
            Xe, ye = _applied(rec, ss.get(_key(rec["gen"])))
            X0, y0 = np.asarray(X, dtype=float).reshape(-1, 2), np.asarray(y).reshape(-1)
            if Xe.shape == X0.shape and np.array_equal(Xe, X0) and np.array_equal(ye, y0):
                return _key(rec["gen"]), rec["X"], rec["y"]
        except ValueError:
            pass  # an edit that was refused: the table starts again from the points
    gen = rec["gen"] + 1 if rec is not None else 0
    rec = {"gen": gen, "X": np.array(X, dtype=float).reshape(-1, 2),
           "y": np.array(y).reshape(-1)}  # fmt: skip
    Playground.of(ss).editor = rec
    return _key(gen), rec["X"], rec["y"]


def edited_points(ss: MutableMapping, key: str) -> tuple[np.ndarray, np.ndarray]:
    """The points the table's edits (``ss[key]``) make of its base; ValueError (from
    ``tables.apply_editor_changes`` or ``validate_points``) names a refused edit."""
    rec = Playground.of(ss).editor
    if rec is None or _key(rec["gen"]) != key:
        raise ValueError("the table was replaced meanwhile; edit it again")
    return _applied(rec, ss.get(key))
