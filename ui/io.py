"""Import and export of points: CSV (x1,x2,y) and LIBSVM / svm-toy ("label 1:x1 2:x2").

Import is defensive: a size cap, at most ``MAX_POINTS`` rows, exactly two coordinates and a
label per row, exactly two classes, finite numbers. Labels are mapped to ±1: two numeric
labels in numeric order (smaller → −1, e.g. 0/1, 1/2, −1/+1), otherwise text labels in
sorted order. Every problem raises ``PointsFileError`` (a ValueError) whose message names the
line; nothing is ever evaluated.
"""

from __future__ import annotations

import csv
import io
import math
import re

import numpy as np

from .state import MAX_POINTS

MAX_UPLOAD_BYTES = 1_000_000  # 1 MB: far more than 2,000 points need

_NUMBER_RE = re.compile(r"^[-+]?(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?$")
_LABEL_RE = re.compile(r"^[A-Za-z0-9_.+\-]{1,40}$")  # a number or a simple name


class PointsFileError(ValueError):
    """A file could not be imported; the message is meant for the user."""


def _decode(data: bytes | str) -> str:
    if isinstance(data, str):
        raw = data.encode("utf-8")
    elif isinstance(data, (bytes, bytearray, memoryview)):
        raw = bytes(data)
    else:
        raise PointsFileError("the upload is not a file")
    if len(raw) > MAX_UPLOAD_BYTES:
        raise PointsFileError(
            f"the file is too large ({len(raw):,} bytes; at most {MAX_UPLOAD_BYTES:,})"
        )
    if b"\x00" in raw:
        raise PointsFileError("the file is not text (it contains NUL bytes)")
    try:
        return raw.decode("utf-8-sig")
    except UnicodeDecodeError:
        raise PointsFileError("the file is not UTF-8 text") from None


def _number(text: str, line: int, what: str) -> float:
    t = text.strip()
    if not _NUMBER_RE.match(t):
        raise PointsFileError(f"line {line}: {what} {t[:30]!r} is not a number")
    v = float(t)
    if not math.isfinite(v):
        raise PointsFileError(f"line {line}: {what} {t[:30]!r} is not a finite number")
    return v


def _labels_to_pm(labels: list[str]) -> np.ndarray:
    if not labels:
        raise PointsFileError("the file has no points")
    distinct = sorted(set(labels))
    if len(distinct) != 2:
        shown = ", ".join(repr(v[:20]) for v in distinct[:5])
        raise PointsFileError(
            f"need exactly two classes, found {len(distinct)}: {shown}"
            + (" …" if len(distinct) > 5 else "")
        )
    if all(_NUMBER_RE.match(v) for v in distinct):
        vals = [float(v) for v in distinct]
        if not all(math.isfinite(v) for v in vals):
            raise PointsFileError("class labels must be finite numbers or text")
        if vals[0] == vals[1]:
            raise PointsFileError(
                f"the labels {distinct[0]!r} and {distinct[1]!r} are the same number"
            )
        neg = distinct[0] if vals[0] < vals[1] else distinct[1]
    else:
        neg = distinct[0]
    return np.array([-1 if v == neg else 1 for v in labels], dtype=np.int64)


def _check_count(n: int) -> None:
    if n > MAX_POINTS:
        raise PointsFileError(f"too many points: more than {MAX_POINTS} rows")


def parse_csv(data: bytes | str) -> tuple[np.ndarray, np.ndarray]:
    """Rows ``x1,x2,label`` (comma, semicolon or tab separated; optional header row)."""
    text = _decode(data)
    lines = text.splitlines()
    first = next((ln for ln in lines if ln.strip() and not ln.lstrip().startswith("#")), None)
    if first is None:
        raise PointsFileError("the file is empty")
    delim = max((",", ";", "\t"), key=first.count)
    if first.count(delim) == 0:
        raise PointsFileError("line 1: expected three columns x1, x2, label separated by commas")
    X: list[tuple[float, float]] = []
    labels: list[str] = []
    reader = csv.reader(io.StringIO(text), delimiter=delim)
    header_done = False
    try:
        for row in reader:
            line = reader.line_num
            if not row or all(not c.strip() for c in row) or row[0].lstrip().startswith("#"):
                continue
            cells = [c.strip() for c in row]
            if not header_done:
                header_done = True
                # a header has no number in the coordinate columns
                header = not any(_NUMBER_RE.match(c) for c in cells[:2])
                if header:
                    if len(cells) != 3:
                        raise PointsFileError(
                            f"line {line}: expected three columns x1, x2, label; got {len(cells)}"
                        )
                    continue  # a header row
            if len(cells) != 3:
                raise PointsFileError(
                    f"line {line}: expected three columns x1, x2, label; got {len(cells)}"
                )
            _check_count(len(X) + 1)
            X.append((_number(cells[0], line, "x1"), _number(cells[1], line, "x2")))
            if not _LABEL_RE.match(cells[2]):
                raise PointsFileError(
                    f"line {line}: the label {cells[2][:30]!r} should be a number or a short "
                    "name (letters, digits, _ - + .)"
                )
            labels.append(cells[2])
    except csv.Error as exc:
        raise PointsFileError(f"the CSV could not be read: {exc}") from None
    y = _labels_to_pm(labels)
    return np.array(X, dtype=float).reshape(-1, 2), y


def parse_libsvm(data: bytes | str) -> tuple[np.ndarray, np.ndarray]:
    """Lines ``label 1:x1 2:x2`` (LIBSVM sparse format as svm-toy saves; a missing index
    means 0, indices must be 1 or 2, ``#`` starts a comment)."""
    text = _decode(data)
    X: list[tuple[float, float]] = []
    labels: list[str] = []
    for line, raw in enumerate(text.splitlines(), start=1):
        content = raw.split("#", 1)[0].strip()
        if not content:
            continue
        parts = content.split()
        label = parts[0]
        if not _NUMBER_RE.match(label):
            raise PointsFileError(f"line {line}: the label {label[:30]!r} is not a number")
        coords = [0.0, 0.0]
        seen: set[int] = set()
        for tok in parts[1:]:
            if ":" not in tok:
                raise PointsFileError(f"line {line}: {tok[:30]!r} is not index:value")
            idx_s, val_s = tok.split(":", 1)
            if idx_s not in ("1", "2"):
                raise PointsFileError(
                    f"line {line}: feature index {idx_s[:10]!r}; only 1 and 2 (two columns)"
                )
            idx = int(idx_s)
            if idx in seen:
                raise PointsFileError(f"line {line}: feature {idx} given twice")
            seen.add(idx)
            coords[idx - 1] = _number(val_s, line, f"feature {idx}")
        _check_count(len(X) + 1)
        X.append((coords[0], coords[1]))
        labels.append(label)
    if not X:
        raise PointsFileError("the file has no points")
    y = _labels_to_pm(labels)
    return np.array(X, dtype=float).reshape(-1, 2), y


def parse_points(name: str, data: bytes | str) -> tuple[np.ndarray, np.ndarray]:
    """Import by file name: ``.csv``/``.txt`` with commas → CSV, else LIBSVM."""
    lower = (name or "").lower()
    if lower.endswith(".csv"):
        return parse_csv(data)
    if lower.endswith((".libsvm", ".svm", ".svmlight", ".dat")):
        return parse_libsvm(data)
    text = _decode(data)
    first = next((ln for ln in text.splitlines() if ln.strip()), "")
    return parse_libsvm(text) if ":" in first else parse_csv(text)


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
