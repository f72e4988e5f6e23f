"""Reading an uploaded file into a `ui.data.io_table.Table`: CSV with pandas, svmlight with
scikit-learn (pure; nothing in a file is ever evaluated).

- Text: UTF-8 with or without BOM, UTF-16 (with a BOM, or ASCII text without one), else
  Windows-1252 (Excel's "CSV" on Windows); at most MAX_UPLOAD_BYTES.
- CSV / TSV / TXT: `pandas.read_csv` with the delimiter sniffed from the first lines (tab,
  semicolon, comma, else whitespace), a decimal comma when the numbers are written so (in a
  comma-separated file quoted, "1,5", as pandas' `to_csv(decimal=",")` writes them), a header
  row when its cells are not numbers where the column's are; lines starting with # are
  comments. pandas' refusals are reported with the file's line.
- svmlight / LIBSVM: `sklearn.datasets.load_svmlight_file` (zero- or one-based indices, as
  written; comments; qid ignored). Columns: "label", then "feature k" for every index used.
"""

from __future__ import annotations

import io
import re

import numpy as np
import scipy.sparse as sp

from ui.data.io_table import INDEX_NAMES, PointsFileError, Table
from ui.shared.points import MAX_POINTS

MAX_UPLOAD_BYTES = 1_000_000  # 1 MB: far more than 2,000 points need
MAX_COLUMNS = 100             # CSV columns kept as numbers (2,000 × 100 floats: 1.6 MB)
MAX_FEATURES = 1_000          # svmlight features offered as x1, x2
MAX_LINE_CHARS = 131_072      # Python's csv field limit: a longer line is no table of points

NUMBER_RE = re.compile(r"^[-+]?(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?$")
_COMMA_NUMBER_RE = re.compile(r"^[-+]?\d*,\d+(?:[eE][-+]?\d+)?$")
_DOT_DECIMAL_RE = re.compile(r"\d\.\d|^\.\d")
_SVMLIGHT_PAIR_RE = re.compile(r"^(?:\d+|qid):\S+$")
_SEPARATORS = (("\t", "tab"), (";", "semicolon"), (",", "comma"), ("|", "bar"))

SVMLIGHT_EXTENSIONS = (".svmlight", ".libsvm", ".svm")
CSV_EXTENSIONS = (".csv", ".tsv")


def decode(data: bytes | str) -> str:
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
    encoding = "utf-8-sig"
    if raw.startswith((b"\xff\xfe", b"\xfe\xff")):
        encoding = "utf-16"
    elif b"\x00" in raw:
        # UTF-16 without a BOM: ASCII text has a NUL in every other byte
        half = len(raw) // 2
        if raw[1::2].count(0) >= 0.9 * half:
            encoding = "utf-16-le"
        elif raw[0::2].count(0) >= 0.9 * half:
            encoding = "utf-16-be"
        else:
            raise PointsFileError("the file is not text (it contains NUL bytes)")
    try:
        text = raw.decode(encoding)
    except UnicodeDecodeError:
        if encoding != "utf-8-sig":
            raise PointsFileError(f"the file is not {encoding.upper()} text") from None
        try:
            text = raw.decode("cp1252")
        except UnicodeDecodeError:
            raise PointsFileError("the file is not text in UTF-8, UTF-16 or Windows-1252; "
                                  "save it as UTF-8 (CSV UTF-8 in Excel)") from None
    if "\x00" in text:
        raise PointsFileError("the file is not text (it contains NUL characters)")
    return text


def _data_lines(lines: list[str]) -> list[int]:
    """0-based indices of the lines that are neither blank nor # comments."""
    return [i for i, ln in enumerate(lines) if ln.strip() and not ln.lstrip().startswith("#")]


def looks_like_svmlight(text: str) -> bool:
    """The first data lines read 'label index:value …'."""
    lines = text.splitlines()
    rows = [lines[i].split("#", 1)[0].split() for i in _data_lines(lines)[:20]]
    rows = [r for r in rows if r]
    return bool(rows) and any(len(r) > 1 for r in rows) and all(
        NUMBER_RE.match(r[0]) and all(_SVMLIGHT_PAIR_RE.match(t) for t in r[1:]) for r in rows)


# ------------------------------------------------------------------------------------ CSV


def _long_line(lines: list[str], keep: list[int]) -> None:
    """PointsFileError naming the first data line longer than MAX_LINE_CHARS (no table of
    points has one; Python's csv refuses a value that long with its own error)."""
    for i in keep:
        if len(lines[i]) > MAX_LINE_CHARS:
            raise PointsFileError(f"line {i + 1}: {len(lines[i]):,} characters, more than the "
                                  f"{MAX_LINE_CHARS:,} characters a line may have: not a "
                                  "table of points")


def _sniff(sample: list[str], where: list[int]) -> tuple[str, str]:
    """(separator for pandas, its name): the first of tab, semicolon, comma, bar that splits
    every sampled line into the same number (≥ 2) of fields, quotes respected; else the one
    that splits most lines; else whitespace. ``where``: each sampled line's index in the
    file (for a message)."""
    import csv

    best, best_score = None, 0
    for sep, name in _SEPARATORS:
        reader = csv.reader(sample, delimiter=sep, skipinitialspace=True)
        try:
            counts = [len(r) for r in reader]
        except csv.Error:  # a quoted value over csv's field limit, spanning lines
            line = where[min(reader.line_num, len(where)) - 1] + 1
            raise PointsFileError(f"line {line}: a value longer than {MAX_LINE_CHARS:,} "
                                  "characters: not a table of points") from None
        if counts and min(counts) >= 2 and len(set(counts)) == 1:
            return sep, name
        score = sum(c >= 2 for c in counts)
        if score > best_score:
            best, best_score = (sep, name), score
    if best is not None and best_score * 2 >= len(sample):
        return best
    return r"\s+", "whitespace"


def _record_line(body: list[str], sep: str, keep: list[int], record: int) -> int:
    """The file's line (1-based) where pandas' record `record` (0-based) starts: records are
    lines, except that a quoted value may span lines (csv reads the quotes as pandas does;
    a whitespace-separated file has no quoted values)."""
    import csv

    start = record
    if len(sep) == 1:
        reader = csv.reader(body, delimiter=sep, quotechar='"', skipinitialspace=True)
        start = 0
        try:
            for _ in range(record):
                next(reader)
                start = reader.line_num
        except (StopIteration, csv.Error):
            pass
    return keep[start] + 1 if 0 <= start < len(keep) else start + 1


def _read_cells(body: str, sep: str, keep: list[int]) -> np.ndarray:
    import pandas as pd

    try:
        frame = pd.read_csv(io.StringIO(body), sep=sep, header=None, dtype=str,
                            keep_default_na=False, na_filter=False, skipinitialspace=True,
                            quotechar='"', skip_blank_lines=False, engine="c")
    except pd.errors.ParserError as exc:
        msg = str(exc)
        lines = body.split("\n")
        m = re.search(r"Expected (\d+) fields in line (\d+), saw (\d+)", msg)
        if m:   # pandas' "line" counts records from 1
            want, at, saw = (int(g) for g in m.groups())
            line = _record_line(lines, sep, keep, at - 1)
            raise PointsFileError(f"line {line}: {saw} values, but the first line has {want}"
                                  ) from None
        m = re.search(r"EOF inside string starting at row (\d+)", msg)
        if m:   # pandas' "row" counts records from 0
            line = _record_line(lines, sep, keep, int(m.group(1)))
            raise PointsFileError(f'line {line}: a quote (") opens a value that is never '
                                  "closed; close it, or remove the quote") from None
        raise PointsFileError(f"the file could not be read as CSV: {msg.strip()[:200]}") from None
    except (pd.errors.EmptyDataError, ValueError) as exc:
        raise PointsFileError(f"the file could not be read as CSV: {str(exc)[:200]}") from None
    return frame.to_numpy(dtype=object)


def _is_number(cells: np.ndarray) -> np.ndarray:
    return np.vectorize(lambda c: bool(NUMBER_RE.match(c)), otypes=[bool])(cells)


def _header(first: np.ndarray, num: np.ndarray) -> bool:
    """The first row names the columns: none of its cells is a number (an empty one, as the
    row-number column of a pandas export, included), or it starts 0, 1, 2, … (at least three;
    pandas' names for unnamed columns) and has no other number. Any other row with a number
    is data, so a typo in the first row is reported, not taken for a header."""
    if not num[0].any():
        return True
    cells = first.tolist()[1:] if first[0] == "" else first.tolist()
    k = 0
    while k < len(cells) and cells[k] == str(k):
        k += 1
    return k >= 3 and not any(NUMBER_RE.match(c) for c in cells[k:])


def _names(first_row: np.ndarray | None, m: int) -> tuple[str, ...]:
    out: list[str] = []
    for j in range(m):
        name = str(first_row[j]) if first_row is not None else ""
        base = name[:60] if name else f"column {j + 1}"
        name, k = base, 2
        while name in out:
            name, k = f"{base} ({k})", k + 1
        out.append(name)
    return tuple(out)


def _row_numbers(values: np.ndarray, j: int) -> bool:
    v = values[:, j]
    n = len(v)
    return n >= 3 and any(np.array_equal(v, np.arange(s, s + n)) for s in (0, 1))


def read_csv_table(text: str) -> Table:
    lines = text.splitlines()
    keep = _data_lines(lines)
    if not keep:
        raise PointsFileError("the file is empty")
    _long_line(lines, keep)
    sep, sep_name = _sniff([lines[i] for i in keep[:50]], keep[:50])
    cells = _read_cells("\n".join(lines[i] for i in keep), sep, keep)
    if cells.ndim != 2 or cells.shape[0] == 0:
        raise PointsFileError("the file is empty")
    if cells.shape[1] > MAX_COLUMNS:
        raise PointsFileError(f"line {keep[0] + 1}: {cells.shape[1]} columns (at most "
                              f"{MAX_COLUMNS}); keep the x1, x2 and label columns")
    if cells.shape[0] > MAX_POINTS + 1:   # + a header line; refused before the cells' checks
        raise PointsFileError(f"too many points: more than {MAX_POINTS} rows")
    cells = np.vectorize(lambda c: str(c).strip(), otypes=[object])(cells)
    notes = [f"{sep_name}-separated"]
    flat = cells.ravel().tolist()
    # a decimal comma: 1,5 in a file whose numbers have no decimal point (in a comma-separated
    # file such a number is quoted, "1,5", as pandas' to_csv(decimal=",") writes it)
    if (any(_COMMA_NUMBER_RE.match(c) for c in flat)
            and not any(NUMBER_RE.match(c) and _DOT_DECIMAL_RE.search(c) for c in flat)):
        cells = np.vectorize(lambda c: c.replace(",", ".") if _COMMA_NUMBER_RE.match(c) else c,
                             otypes=[object])(cells)
        notes.append("decimal comma")
    num = _is_number(cells)
    header = _header(cells[0], num)
    names = _names(cells[0] if header else None, cells.shape[1])
    body_cells, body_num = (cells[1:], num[1:]) if header else (cells, num)
    lines_of = np.array([i + 1 for i in keep[1 if header else 0:]], dtype=np.int64)
    # a delimiter at the end of every line makes an empty last column: not a column
    m = cells.shape[1]
    while m > 1 and (body_cells[:, m - 1] == "").all() and (not header or names[m - 1] ==
                                                             f"column {m}"):
        m -= 1
    body_cells, body_num, names = body_cells[:, :m], body_num[:, :m], names[:m]
    n = len(body_cells)
    if n == 0:
        raise PointsFileError("the file has no points (only a header line)")
    if n > MAX_POINTS:
        raise PointsFileError(f"too many points: more than {MAX_POINTS} rows")
    values = np.full(body_cells.shape, np.nan)
    values[body_num] = body_cells[body_num].astype(float)
    text_cols = {j: body_cells[:, j].astype(str) for j in range(m) if not body_num[:, j].all()}
    lower = [c.lower() for c in names] if header else None
    index = None
    if m > 3:   # a row-number column: by its name, or in a file without names by its values
        if lower is not None and lower[0] in (*INDEX_NAMES, "column 1"):
            index = 0
        elif lower is None and 0 not in text_cols and _row_numbers(values, 0):
            index = 0
    if header:
        notes.append("header line")
    return Table(kind="CSV", columns=names, values=values, text=text_cols, lines=lines_of,
                 header=header, index=index, notes=tuple(notes))


# ------------------------------------------------------------------------------ svmlight


def _svmlight_problem(lines: list[str]) -> str | None:
    """The first line that scikit-learn's reader refused, and why (it does not say where)."""
    for number, raw in enumerate(lines, start=1):
        tokens = raw.split("#", 1)[0].split()
        if not tokens:
            continue
        label = tokens[0]
        if "," in label:
            return f"line {number}: the label {label[:30]!r} is several labels (multi-label)"
        if not NUMBER_RE.match(label):
            return f"line {number}: the label {label[:30]!r} is not a number"
        previous = -1
        for tok in tokens[1:]:
            index, colon, value = tok.partition(":")
            if not colon:
                return f"line {number}: {tok[:30]!r} is not index:value"
            if index == "qid":
                if not value.isdigit():
                    return f"line {number}: qid {value[:20]!r} is not a whole number"
                continue
            if not index.isdigit():
                return f"line {number}: the feature index {index[:20]!r} is not a whole number ≥ 0"
            try:
                float(value)
            except ValueError:
                return f"line {number}: feature {index}: {value[:30]!r} is not a number"
            if int(index) == previous:
                return f"line {number}: feature {index} is given twice"
            if int(index) < previous:
                return (f"line {number}: feature {index} comes after feature {previous}; the "
                        "indices of a line must increase")
            previous = int(index)
    return None


def read_svmlight_table(text: str) -> Table:
    lines = text.splitlines()
    rows = [i + 1 for i, ln in enumerate(lines) if ln.split("#", 1)[0].strip()]
    if len(rows) > MAX_POINTS:
        raise PointsFileError(f"too many points: more than {MAX_POINTS} rows")
    from sklearn.datasets import load_svmlight_file  # ~1 s, once per process: not at start-up

    try:
        X, y = load_svmlight_file(io.BytesIO(text.encode("utf-8")), zero_based=True,
                                  dtype=np.float64)
    except (ValueError, TypeError, OverflowError) as exc:
        problem = _svmlight_problem(lines)
        raise PointsFileError(problem or f"the svmlight file could not be read ({exc})") from None
    n = X.shape[0]
    if n == 0:
        raise PointsFileError("the file has no points")
    if n > MAX_POINTS:
        raise PointsFileError(f"too many points: more than {MAX_POINTS} rows")
    lines_of = np.array(rows if len(rows) == n else range(1, n + 1), dtype=np.int64)
    X = X.tocsr()
    present = np.unique(X.indices).tolist()
    base = 0 if 0 in present else 1     # one-based files (LIBSVM's) never use index 0
    k = base
    while len(present) < 2:             # a feature that is 0 everywhere is not written
        if k not in present:
            present = sorted([*present, k])
        k += 1
    if len(present) > MAX_FEATURES:
        raise PointsFileError(f"the file uses {len(present)} features (at most {MAX_FEATURES})")
    if X.shape[1] <= present[-1]:
        X = sp.csr_matrix((X.data, X.indices, X.indptr), shape=(n, present[-1] + 1))
    values = sp.hstack([sp.csr_matrix(y.reshape(-1, 1)), X[:, present]], format="csr")
    return Table(kind="svmlight", columns=("label", *(f"feature {k}" for k in present)),
                 values=values, text={}, lines=lines_of, header=True, notes=("svmlight",))


def read_upload(name: str, data: bytes | str) -> Table:
    """The table of an uploaded file: svmlight by its name (.svmlight .libsvm .svm) or by its
    lines ('label index:value'), else CSV."""
    text = decode(data)
    lower = (name or "").lower()
    if lower.endswith(SVMLIGHT_EXTENSIONS):
        return read_svmlight_table(text)
    if not lower.endswith(CSV_EXTENSIONS) and looks_like_svmlight(text):
        return read_svmlight_table(text)
    return read_csv_table(text)
