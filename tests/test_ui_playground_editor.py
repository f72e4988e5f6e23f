"""ui.playground.editor (the "Edit coordinates" table keeps its key while its own edits change
the points, so the keyboard's focus stays in it) and ui.playground.keyboard (the keys the
"Keyboard" help lists)."""

from __future__ import annotations

import numpy as np
import pytest

from tests.markdown_check import assert_no_markup, shown
from ui.playground import editor, keyboard
from ui.shared import state

X = np.array([[1.0, 2.0], [3.0, 4.0], [5.0, 6.0]])
Y = np.array([1, -1, 1])


def test_the_key_stays_while_the_tables_own_edits_make_the_points():
    ss: dict = {}
    key, Xb, yb = editor.editor_base(ss, X, Y)
    assert np.array_equal(Xb, X) and np.array_equal(yb, Y)
    # an edit, a deletion and an addition, as Streamlit keeps them (relative to the base)
    ss[key] = {"edited_rows": {"0": {"x1": 1.5}}, "deleted_rows": [1],
               "added_rows": [{"x1": 7, "x2": 8, "y": -1}]}  # fmt: skip
    X2, y2 = editor.edited_points(ss, key)
    assert X2.tolist() == [[1.5, 2.0], [5.0, 6.0], [7.0, 8.0]] and y2.tolist() == [1, 1, -1]
    key2, Xb2, _ = editor.editor_base(ss, X2, y2)  # the session now has the edited points
    assert key2 == key and np.array_equal(Xb2, X)  # same table, same base: focus kept
    ss[key]["edited_rows"]["2"] = {"x2": 9}  # a second edit still counts from the base
    assert editor.edited_points(ss, key)[0].tolist() == [[1.5, 2.0], [5.0, 9.0], [7.0, 8.0]]


def test_a_change_made_elsewhere_or_a_refused_edit_gives_a_new_table():
    ss: dict = {}
    key, _, _ = editor.editor_base(ss, X, Y)
    moved = X.copy()
    moved[2] = [5.5, 6.0]  # the plot moved a point
    key2, Xb, _ = editor.editor_base(ss, moved, Y)
    assert key2 != key and np.array_equal(Xb, moved)
    assert editor.editor_base(ss, moved, Y)[0] == key2  # and keeps that one
    ss[key2] = {"edited_rows": {"0": {"y": 3}}}  # not a label
    with pytest.raises(ValueError, match="row 1"):
        editor.edited_points(ss, key2)
    key3, _, _ = editor.editor_base(ss, moved, Y)  # the refused edit is not shown again
    assert key3 not in (key, key2) and key3.startswith(state.Playground.PREFIX)
    with pytest.raises(ValueError, match="replaced"):
        editor.edited_points(ss, key2)  # an old table's late edit


def test_the_keyboard_help_lists_every_key_as_plain_text():
    text = "\n".join(keyboard.keys_markdown(rows) for rows in
                     (keyboard.PLOT_KEYS, keyboard.TABLE_KEYS, keyboard.EDITOR_KEYS))
    assert_no_markup(text)
    for k in ("Enter", "Shift + arrow", "Delete", "Esc", "Ctrl + Z", "] and [",
              "Shift + Space, then Delete", "Home"):
        assert k in shown(text), k
    rows = [line for line in text.splitlines() if line.startswith("| ")]
    n = len(keyboard.PLOT_KEYS + keyboard.TABLE_KEYS + keyboard.EDITOR_KEYS)
    assert len(rows) == n + 3  # a row per key, and each table's header


def test_the_playground_page_has_the_keyboard_help():
    from pathlib import Path

    from streamlit.testing.v1 import AppTest

    page = str(Path(__file__).resolve().parents[1] / "pages" / "1_playground.py")
    at = AppTest.from_file(page, default_timeout=120).run()
    assert not at.exception
    (help_,) = [e for e in at.expander if e.label == "Keyboard"]
    text = "\n".join(m.value for m in help_.markdown)
    assert text == "\n".join(  # the three tables, and the sentence said after each change
        f"**{t}**\n\n{keyboard.keys_markdown(rows)}" for t, rows in
        (("The plot", keyboard.PLOT_KEYS), ("The points table", keyboard.TABLE_KEYS),
         ("Edit coordinates", keyboard.EDITOR_KEYS))) + "\n" + keyboard.SAID
    assert "| Shift + Space, then Delete |" in text
