"""Import and export of points. Export: CSV (x1,x2,y) and LIBSVM / svm-toy ("label 1:x1 2:x2").

Import reads real files (`ui.data.io_read`: CSV by pandas, svmlight by scikit-learn) into a table
whose x1, x2 and label columns are chosen by their names (`ui.data.io_table.default_choice`) or by
the user, two classes mapped to ±1. Every problem raises ``PointsFileError`` (a ValueError)
whose message names the line or the column; nothing is ever evaluated.
"""

from __future__ import annotations

import numpy as np

from ui.data.io_read import MAX_UPLOAD_BYTES, read_upload
from ui.data.io_table import (
    Choice,
    PointsFileError,
    Table,
    default_choice,
    describe,
    label_classes,
    needs_choice,
    points_from,
    show_class,
)
from ui.shared.markdown import markdown_safe  # a file's names in messages: not Markdown

__all__ = [
    "MAX_UPLOAD_BYTES", "Choice", "PointsFileError", "Table", "default_choice", "describe",
    "label_classes", "markdown_safe", "needs_choice", "parse_csv", "parse_libsvm",
    "parse_points", "points_from", "read_upload", "show_class", "to_csv", "to_libsvm",
]


def _shown(values, k: int = 5) -> str:
    return ", ".join(repr(v)[:22] for v in values[:k]) + (" …" if len(values) > k else "")


def _default_points(table: Table) -> tuple[np.ndarray, np.ndarray]:
    """The points of the default choice, only when it leaves nothing to choose (what the
    Import panel would ask, `needs_choice`, is refused here, never guessed)."""
    choice = default_choice(table)
    classes = label_classes(table, choice.label)
    if len(classes) > 2:
        raise PointsFileError(f"need exactly two classes, found {len(classes)} in column "
                              f"{table.columns[choice.label]!r}: "
                              + _shown([show_class(c) for c in classes]))
    if needs_choice(table, choice):
        others = [c for j, c in enumerate(table.columns) if j not in (choice.label, table.index)]
        raise PointsFileError(f"need exactly two coordinates besides the label "
                              f"{table.columns[choice.label]!r}, found {len(others)}: "
                              f"{_shown(others)}; choose x1 and x2 (the Import panel asks)")
    return points_from(table, choice)


def parse_points(name: str, data: bytes | str) -> tuple[np.ndarray, np.ndarray]:
    """(X, y) of a file with exactly x1, x2 and a label of two classes (a row-number column
    aside), found by `default_choice`; a wider file, or more classes, is refused."""
    return _default_points(read_upload(name, data))


def parse_csv(data: bytes | str) -> tuple[np.ndarray, np.ndarray]:
    return parse_points("points.csv", data)


def parse_libsvm(data: bytes | str) -> tuple[np.ndarray, np.ndarray]:
    return parse_points("points.libsvm", data)


def _num(v: float) -> str:
    return repr(float(v))


def to_csv(X: np.ndarray, y: np.ndarray) -> str:
    """``x1,x2,y`` with a header; coordinates written so they read back exactly."""
    X = np.asarray(X, dtype=float).reshape(-1, 2)
    out = ["x1,x2,y"]
    for (a, b), lab in zip(X, np.asarray(y).reshape(-1), strict=True):
        out.append(f"{_num(a)},{_num(b)},{1 if lab > 0 else -1}")
    return "\n".join(out) + "\n"


def to_libsvm(X: np.ndarray, y: np.ndarray) -> str:
    """``+1 1:x1 2:x2`` per line (LIBSVM / svm-toy format)."""
    X = np.asarray(X, dtype=float).reshape(-1, 2)
    out = []
    for (a, b), lab in zip(X, np.asarray(y).reshape(-1), strict=True):
        out.append(f"{'+1' if lab > 0 else '-1'} 1:{_num(a)} 2:{_num(b)}")
    return "\n".join(out) + ("\n" if out else "")
