"""The Playground's "Import points" uploader and, for a wider file, its column picker.

Thin: reading and choosing are in `ui.data.io` (tested). A file of three columns and two classes
is imported at once, its columns found by their names; a wider file, or one with more than
two classes, waits in the session (``K_PENDING``, at most ~2 MB) until the user has picked
the x1, x2 and label columns and two classes. A refusal is an ``st.error`` naming the line
or the column; the points stay.
"""

from __future__ import annotations

import streamlit as st

from ui.data import io as pio
from ui.playground import teacher
from ui.shared import history, state

P = state.WIDGET_PREFIX
K_PENDING = P + "import.pending"   # (file name, Table, default Choice, serial)
UPLOAD_TYPES = ["csv", "tsv", "txt", "svmlight", "libsvm", "svm", "dat"]


def _error(ss, name: str, exc: Exception) -> None:
    state.push_flash(ss, "error", pio.markdown_safe(
        f"Could not import {name}: {exc}. Your points are kept."))


def _import(ss, name: str, table: pio.Table, choice: pio.Choice) -> None:
    X, y = state.validate_points(*pio.points_from(table, choice))
    history.remember(ss)  # the plot's Undo brings back what the import replaced
    state.set_points(ss, X, y, title=f"Imported: {name}", reset_view=True)
    ss.pop(K_PENDING, None)
    state.push_flash(ss, "success", pio.markdown_safe(
        f"Imported {len(y)} points from {name}: {pio.describe(table, choice, len(y))}."))


def _on_upload(key: str) -> None:
    ss = st.session_state
    f = ss.get(key)
    if f is None:
        return
    ss.pop(K_PENDING, None)
    try:
        if getattr(f, "size", 0) > pio.MAX_UPLOAD_BYTES:
            raise pio.PointsFileError(
                f"the file is too large ({f.size:,} bytes; at most {pio.MAX_UPLOAD_BYTES:,})"
            )
        table = pio.read_upload(f.name, f.getvalue())
        choice = pio.default_choice(table)
        if pio.needs_choice(table, choice):
            serial = int(ss.get(P + "import.serial", 0)) + 1
            ss[P + "import.serial"] = serial
            ss[K_PENDING] = (f.name, table, choice, serial)
            return
        _import(ss, f.name, table, choice)
    except ValueError as exc:
        _error(ss, f.name, exc)


def _picked(ss) -> tuple[pio.Choice, list]:
    name, table, default, serial = ss[K_PENDING]
    k = f"{P}import.{serial}."
    label = ss.get(k + "label", default.label)
    classes = pio.label_classes(table, label)
    neg = ss.get(f"{k}neg.{label}", 0)
    pos = ss.get(f"{k}pos.{label}", 1)
    return pio.Choice(x1=ss.get(k + "x1", default.x1), x2=ss.get(k + "x2", default.x2),
                      label=label, negative=classes[neg], positive=classes[pos]), classes


def _on_import_pending() -> None:
    ss = st.session_state
    if K_PENDING not in ss:
        return
    name, table = ss[K_PENDING][:2]
    try:
        choice, _ = _picked(ss)
        _import(ss, name, table, choice)
    except ValueError as exc:
        _error(ss, name, exc)


def column_picker(ss) -> None:
    """For a file waiting in the session: the x1, x2, label and class pickers."""
    if K_PENDING not in ss or teacher.is_locked(ss, "points"):
        return
    name, table, default, serial = ss[K_PENDING]
    k = f"{P}import.{serial}."
    cols = list(range(len(table.columns)))
    shown = table.columns.__getitem__
    st.caption(pio.markdown_safe(
        f"{name}: {table.n_rows} rows, {len(cols)} columns ({', '.join(table.notes)}). "
        "Choose the two coordinates, the label and two of its classes:"))
    a, b, c = st.columns(3)
    a.selectbox("x1", cols, index=default.x1, format_func=shown, key=k + "x1")
    b.selectbox("x2", cols, index=default.x2, format_func=shown, key=k + "x2")
    label = c.selectbox("label", cols, index=default.label, format_func=shown, key=k + "label")
    try:
        classes = pio.label_classes(table, label)
    except ValueError as exc:
        st.error(pio.markdown_safe(f"This label column does not work: {exc}."))
        classes = None
    if classes:
        options = list(range(len(classes)))
        text = [pio.show_class(v) for v in classes]
        a, b = st.columns(2)
        a.selectbox("class −1", options, index=0, format_func=text.__getitem__,
                    key=f"{k}neg.{label}")
        b.selectbox("class +1", options, index=1, format_func=text.__getitem__,
                    key=f"{k}pos.{label}")
        if len(classes) > 2:
            others = "class" if len(classes) == 3 else f"{len(classes) - 2} classes"
            st.caption(f"{len(classes)} classes: the rows of the other {others} are left out "
                       "(the SVM here is binary).")
    a, b = st.columns(2)
    a.button("Import these columns", key=k + "go", type="primary", disabled=not classes,
             on_click=_on_import_pending, width="stretch")
    b.button("Cancel", key=k + "cancel", on_click=ss.pop, args=(K_PENDING, None),
             width="stretch")


def uploader(ss) -> None:
    """The uploader (its file replaces the current points, or waits for `column_picker`)."""
    key = P + "upload." + str(ss.get(state.K_EPOCH, 0))
    st.file_uploader(
        "CSV / TSV / TXT with a header, or svmlight / LIBSVM",
        type=UPLOAD_TYPES,
        key=key,
        on_change=_on_upload,
        args=(key,),
        **teacher.lock_kwargs(ss, "points", help=(
            f"Columns found by their names (x1, x2, y / label / class); wider files let you "
            f"pick them. At most {state.MAX_POINTS} points, "
            f"{pio.MAX_UPLOAD_BYTES // 1000} kB.")),
    )
