"""The Playground's keys, listed in its "Keyboard" help (issue 28): the plot's
(``ui/browser/canvas_keys.js`` reads them), the points table's and the "Edit coordinates"
table's (Streamlit's data editor). Keys act only where the focus is, never page-wide."""

from __future__ import annotations

from ui.shared.markdown import markdown_safe

#: (keys, what they do) in the plot; the hint above the plot names the main ones
PLOT_KEYS = (
    ("Tab", "to the plot (after the toolbar's buttons); a cursor appears in it"),
    ("← → ↑ ↓", "move the cursor one step (a 50th of the axis)"),
    ("Shift + arrow", "a bigger step (a 10th of the axis)"),
    ("Enter or Space", "add a point of the current class at the cursor"),
    ("c", "switch the class that Enter adds (+1: circles, −1: squares)"),
    ("Tab, Shift + Tab", "walk the points one by one (a dashed ring shows which); Tab after "
                         "the last point, or Shift + Tab from the cursor, leaves the plot"),
    ("] and [", "walk the points round and round without leaving the plot"),
    ("← → ↑ ↓ on a point", "move the point (Shift: bigger steps)"),
    ("Enter on a point", "say where it lies (its row of the table, in words)"),
    ("Delete or Backspace", "remove the point (the cursor takes its place)"),
    ("Esc", "back from the point to the cursor"),
    ("Ctrl + Z (⌘ + Z)", "undo the last change"),
)

#: the points table under the plot
TABLE_KEYS = (
    ("Tab", "to the table, then to its current row"),
    ("↑ ↓, Home, End", "another row"),
    ("Enter or Space", "ring the row's point in the plot (again: unring it)"),
)

#: the "Edit coordinates" table (glide-data-grid in Streamlit's data editor)
EDITOR_KEYS = (
    ("← → ↑ ↓", "move between cells"),
    ("type, then Enter", "change a cell: Enter saves it, Esc cancels"),
    ("Shift + Space, then Delete", "select the row, then delete it"),
)

#: what is said aloud (a screen reader's live region) after each change on the plot
SAID = ("After each change a screen reader hears one short sentence, e.g. “Added x15 (3, 2), "
        "class −1: inside the margin, ξ = 0.830; 4 support vectors.”")


def keys_markdown(rows: tuple[tuple[str, str], ...]) -> str:
    """A two-column markdown table of (keys, what they do), each cell shown as written (no
    key, such as ``[``, read as markdown)."""
    lines = ["| Keys | Does |", "|---|---|"]
    lines += [f"| {markdown_safe(keys)} | {markdown_safe(does)} |" for keys, does in rows]
    return "\n".join(lines)
