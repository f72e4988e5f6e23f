"""An imported file as a table, and the choice of its x1, x2 and label columns (pure).

`ui.data.io_read` turns a CSV or svmlight file into a `Table`: named columns of numbers (NaN
where a cell is not one), the raw text of the columns that are not all numbers, and the file's
line of every row, so that each refusal can name the line and the column. `default_choice`
guesses the columns by their names; `points_from` makes the Playground's points from a
choice, two classes mapped to −1 and +1, rows of other classes left out.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import scipy.sparse as sp

from ui.shared.points import MAX_POINTS

MAX_CLASSES = 50  # a label column has a few classes; more is a coordinate picked by mistake

#: Header names read as the label column, best first (compared in lower case).
LABEL_NAMES = ("label", "labels", "class", "classes", "target", "y", "species", "category",
               "outcome", "variety", "group")
#: Header names of a row-number column (pandas writes an empty one), never a coordinate.
INDEX_NAMES = ("", "unnamed: 0", "index", "id", "#", "row")


class PointsFileError(ValueError):
    """A file could not be imported; the message is meant for the user."""


@dataclass(frozen=True, eq=False)
class Table:
    kind: str                        # "CSV" or "svmlight"
    columns: tuple[str, ...]         # names shown to the user
    values: np.ndarray | sp.csr_matrix  # rows × columns; NaN where a cell is not a number
    text: dict[int, np.ndarray]      # raw (stripped) cells of the columns with a non-number
    lines: np.ndarray                # the file's line (1-based) of every row
    header: bool = False             # the first line named the columns
    index: int | None = None         # a row-number column, never a default coordinate
    notes: tuple[str, ...] = ()      # how the file was read, for the success message

    @property
    def n_rows(self) -> int:
        return int(self.values.shape[0])

    def column(self, j: int) -> np.ndarray:
        if sp.issparse(self.values):
            return self.values[:, [j]].toarray().ravel()
        return self.values[:, j]

    def is_numeric(self, j: int) -> bool:
        return j not in self.text


@dataclass(frozen=True)
class Choice:
    x1: int
    x2: int
    label: int
    negative: object    # the class that becomes −1 (a float or a str, as `label_classes`)
    positive: object    # … +1


def _quote(s: str, limit: int = 40) -> str:
    s = str(s)
    return repr(s if len(s) <= limit else s[: limit - 1] + "…")


def show_class(c) -> str:
    """A class as the user reads it: 1 for 1.0, text as it is."""
    if isinstance(c, float):
        return f"{c:.15g}"
    return str(c)


def label_classes(table: Table, j: int) -> list:
    """The classes of label column j, sorted (numbers in numeric order): floats when every
    cell is a number, else the cells' text. PointsFileError for an empty or non-finite label,
    or a column with more than MAX_CLASSES classes."""
    name = _quote(table.columns[j])
    if table.is_numeric(j):
        v = table.column(j)
        bad = np.flatnonzero(~np.isfinite(v))
        if len(bad):
            r = bad[0]
            raise PointsFileError(f"line {table.lines[r]}: the label {show_class(v[r])} "
                                  f"(column {name}) is not a finite number")
        classes = [float(c) for c in np.unique(v)]
    else:
        cells = table.text[j]
        empty = np.flatnonzero(cells == "")
        if len(empty):
            raise PointsFileError(f"line {table.lines[empty[0]]}: the label (column {name}) "
                                  "is empty")
        classes = sorted(set(cells.tolist()))
    if len(classes) > MAX_CLASSES:
        raise PointsFileError(f"column {name} has {len(classes)} different values; a label "
                              f"column has a few classes (at most {MAX_CLASSES})")
    if len(classes) < 2:
        shown = ", ".join(_quote(show_class(c)) for c in classes)
        raise PointsFileError(f"need two classes, found {len(classes)} in column {name}: {shown}")
    return classes


def _find(names_lower: list[str], wanted: tuple[str, ...], skip: set[int]) -> int | None:
    for w in wanted:
        for j, n in enumerate(names_lower):
            if n == w and j not in skip:
                return j
    return None


def default_choice(table: Table) -> Choice:
    """The label column by its name (LABEL_NAMES), else the one text column, else the last
    column; x1 and x2 named so, else the first two numeric other columns (the row-number
    column last); its first two classes in sorted order (the smaller one → −1)."""
    m = len(table.columns)
    if m < 3:
        raise PointsFileError(f"need three columns (x1, x2 and a label), found {m}: "
                              + ", ".join(_quote(c) for c in table.columns))
    lower = [c.strip().lower() for c in table.columns] if table.header else [""] * m
    skip = set() if table.index is None else {table.index}
    label = _find(lower, LABEL_NAMES, skip)
    if label is None:
        text_cols = [j for j in range(m) if j not in skip and not table.is_numeric(j)
                     and np.isnan(table.column(j)).all()]  # no number at all: not a typo
        label = text_cols[0] if len(text_cols) == 1 else m - 1
    rest = [j for j in range(m) if j != label]
    x1, x2 = _find(lower, ("x1",), {label}), _find(lower, ("x2",), {label})
    if x1 is None or x2 is None or x1 == x2:
        # numeric columns first, the row-number column last, else file order
        order = sorted(rest, key=lambda j: (j == table.index, not table.is_numeric(j), j))
        x1, x2 = order[0], order[1]
    classes = label_classes(table, label)
    return Choice(x1=x1, x2=x2, label=label, negative=classes[0], positive=classes[1])


def needs_choice(table: Table, choice: Choice) -> bool:
    """More than three columns besides a row-number one (the user picks which), or more
    than two classes."""
    if len(table.columns) - (table.index is not None) > 3:
        return True
    return len(label_classes(table, choice.label)) > 2


def _coordinate(table: Table, j: int, rows: np.ndarray, what: str) -> np.ndarray:
    v = table.column(j)[rows]
    bad = np.flatnonzero(~np.isfinite(v))
    if len(bad):
        r = rows[bad[0]]
        where = f"line {table.lines[r]}: {what} (column {_quote(table.columns[j])})"
        cell = table.text[j][r] if j in table.text else show_class(v[bad[0]])
        if cell == "":
            raise PointsFileError(f"{where} is empty")
        if np.isnan(v[bad[0]]) and j in table.text:
            raise PointsFileError(f"{where}: {_quote(cell, 30)} is not a number")
        raise PointsFileError(f"{where}: {_quote(cell, 30)} is not a finite number")
    return v


def points_from(table: Table, choice: Choice) -> tuple[np.ndarray, np.ndarray]:
    """The rows of the two chosen classes as points (X of shape (n, 2), y = ±1): `negative`
    → −1, `positive` → +1. PointsFileError names the line and the column of a bad cell."""
    m = len(table.columns)
    for j in (choice.x1, choice.x2, choice.label):
        if not 0 <= j < m:
            raise PointsFileError(f"there is no column {j + 1} (the file has {m})")
    if choice.x1 == choice.x2:
        raise PointsFileError(f"x1 and x2 are the same column {_quote(table.columns[choice.x1])}")
    if choice.label in (choice.x1, choice.x2):
        raise PointsFileError(f"the label column {_quote(table.columns[choice.label])} is also "
                              "a coordinate")
    classes = label_classes(table, choice.label)
    neg, pos = choice.negative, choice.positive
    for c in (neg, pos):
        if c not in classes:
            raise PointsFileError(f"column {_quote(table.columns[choice.label])} has no class "
                                  f"{_quote(show_class(c))}")
    if neg == pos:
        raise PointsFileError(f"the two classes are the same ({_quote(show_class(neg))})")
    labels = (table.column(choice.label) if table.is_numeric(choice.label)
              else table.text[choice.label])
    is_neg, is_pos = labels == neg, labels == pos
    rows = np.flatnonzero(is_neg | is_pos)
    if len(rows) > MAX_POINTS:
        raise PointsFileError(f"too many points: {len(rows)} rows of these two classes "
                              f"(at most {MAX_POINTS})")
    X = np.column_stack([_coordinate(table, choice.x1, rows, "x1"),
                         _coordinate(table, choice.x2, rows, "x2")])
    y = np.where(is_pos[rows], 1, -1).astype(np.int64)
    return np.ascontiguousarray(X, dtype=float), y


def describe(table: Table, choice: Choice, n: int) -> str:
    """'x1 = 'a', x2 = 'b', label = 'y' ('cat' → −1, 'dog' → +1)' plus how the file was read."""
    c = table.columns
    text = (f"x1 = {_quote(c[choice.x1])}, x2 = {_quote(c[choice.x2])}, label = "
            f"{_quote(c[choice.label])} ({_quote(show_class(choice.negative))} → −1, "
            f"{_quote(show_class(choice.positive))} → +1)")
    left_out = table.n_rows - n
    if left_out:
        text += f"; {left_out} rows of other classes left out"
    if table.notes:
        text += "; " + ", ".join(table.notes)
    return text
