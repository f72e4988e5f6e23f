"""Files in: the upload step every page with a file source shares (``read_file``: capped, read
by the page's parser) and its two places:

- the Playground's "Import points" uploader and, for a wider file, its column picker
  (``uploader``, ``column_picker``). A file of three columns and two classes is imported at
  once, its columns found by their names; a wider file, or one with more than two classes,
  waits in the session (``Playground.import_pending``, at most ~2 MB) until the user has
  picked the x1, x2 and label columns and two classes. A teacher link's lock comes in as
  ``lock``/``locked``.
- a page's file source in the sidebar (``sidebar_upload``, drawn by
  ``ui.shared.controls.data_source``): the uploader, the table kept in the session, the
  column pickers (``Upload``: the page's parser and columns).

Thin: reading and choosing are in `ui.data.io` (tested). A refusal is an ``st.error`` naming
the file and what is wrong (the line or the column); the points stay.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from dataclasses import dataclass

import streamlit as st

from ui.data import io as pio
from ui.shared import history, state
from ui.shared.points import MAX_POINTS, validate_points
from ui.shared.session import shared
from ui.shared.state import Playground

UPLOAD_TYPES = ["csv", "tsv", "txt", "svmlight", "libsvm", "svm", "dat"]


def read_file(f, read: Callable[[str, bytes], pio.Table] = pio.read_upload) -> pio.Table:
    """The table of an uploaded file (Streamlit's ``UploadedFile``), read by the page's parser
    ``read(name, bytes)``; a file over ``pio.MAX_UPLOAD_BYTES`` is refused before it is read.
    Raises ValueError naming what is wrong."""
    if getattr(f, "size", 0) > pio.MAX_UPLOAD_BYTES:
        raise pio.PointsFileError(
            f"the file is too large ({f.size:,} bytes; at most {pio.MAX_UPLOAD_BYTES:,})"
        )
    return read(f.name, f.getvalue())


def _unlocked(*, help: str | None = None) -> dict:
    """``uploader``'s default ``lock``: not locked."""
    return {"disabled": False, **({"help": help} if help is not None else {})}


# ------------------------------------------------------------- the Playground's import


def _error(ss, name: str, exc: Exception) -> None:
    state.push_flash(ss, "error", pio.markdown_safe(
        f"Could not import {name}: {exc}. Your points are kept."))


def _import(ss, name: str, table: pio.Table, choice: pio.Choice) -> None:
    X, y = validate_points(*pio.points_from(table, choice))
    history.remember(ss)  # the plot's Undo brings back what the import replaced
    state.set_points(ss, X, y, title=f"Imported: {name}", reset_view=True)
    Playground.of(ss).import_pending = None
    state.push_flash(ss, "success", pio.markdown_safe(
        f"Imported {len(y)} points from {name}: {pio.describe(table, choice, len(y))}."))


def _on_upload(key: str) -> None:
    ss = st.session_state
    f = ss.get(key)
    if f is None:
        return
    pg = Playground.of(ss)
    pg.import_pending = None
    try:
        table = read_file(f)
        choice = pio.default_choice(table)
        if pio.needs_choice(table, choice):
            pg.import_serial += 1
            pg.import_pending = (f.name, table, choice, pg.import_serial)
            return
        _import(ss, f.name, table, choice)
    except ValueError as exc:
        _error(ss, f.name, exc)


def _picker_key(serial: int, name: str) -> str:
    """The key of a pending file's picker ``name`` (a new file: new pickers)."""
    return Playground.widget_key(f"import.{serial}.{name}")


def _picked(ss) -> tuple[pio.Choice, list]:
    name, table, default, serial = Playground.of(ss).import_pending
    k = functools.partial(_picker_key, serial)
    label = ss.get(k("label"), default.label)
    classes = pio.label_classes(table, label)
    neg = ss.get(k(f"neg.{label}"), 0)
    pos = ss.get(k(f"pos.{label}"), 1)
    return pio.Choice(x1=ss.get(k("x1"), default.x1), x2=ss.get(k("x2"), default.x2),
                      label=label, negative=classes[neg], positive=classes[pos]), classes


def _on_import_pending() -> None:
    ss = st.session_state
    pending = Playground.of(ss).import_pending
    if pending is None:
        return
    name, table = pending[:2]
    try:
        choice, _ = _picked(ss)
        _import(ss, name, table, choice)
    except ValueError as exc:
        _error(ss, name, exc)


def column_picker(ss, locked: bool = False) -> None:
    """For a file waiting in the session: the x1, x2, label and class pickers (none while the
    points are ``locked``, e.g. by a teacher link)."""
    pending = Playground.of(ss).import_pending
    if pending is None or locked:
        return
    name, table, default, serial = pending
    k = functools.partial(_picker_key, serial)
    cols = list(range(len(table.columns)))
    shown = table.columns.__getitem__
    st.caption(pio.markdown_safe(
        f"{name}: {table.n_rows} rows, {len(cols)} columns ({', '.join(table.notes)}). "
        "Choose the two coordinates, the label and two of its classes:"))
    a, b, c = st.columns(3)
    a.selectbox("x1", cols, index=default.x1, format_func=shown, key=k("x1"))
    b.selectbox("x2", cols, index=default.x2, format_func=shown, key=k("x2"))
    label = c.selectbox("label", cols, index=default.label, format_func=shown, key=k("label"))
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
                    key=k(f"neg.{label}"))
        b.selectbox("class +1", options, index=1, format_func=text.__getitem__,
                    key=k(f"pos.{label}"))
        if len(classes) > 2:
            others = "class" if len(classes) == 3 else f"{len(classes) - 2} classes"
            st.caption(f"{len(classes)} classes: the rows of the other {others} are left out "
                       "(the SVM here is binary).")
    a, b = st.columns(2)
    a.button("Import these columns", key=k("go"), type="primary", disabled=not classes,
             on_click=_on_import_pending, width="stretch")
    b.button("Cancel", key=k("cancel"), on_click=_cancel_pending, width="stretch")


def _cancel_pending() -> None:
    Playground.of(st.session_state).import_pending = None


def uploader(ss, lock: Callable[..., dict] = _unlocked) -> None:
    """The uploader (its file replaces the current points, or waits for `column_picker`);
    ``lock(help=)`` gives its ``disabled`` and ``help`` (a teacher link's lock on the
    points)."""
    key = Playground.widget_key(f"upload.{shared(ss).epoch}")
    st.file_uploader(
        "CSV / TSV / TXT with a header, or svmlight / LIBSVM",
        type=UPLOAD_TYPES,
        key=key,
        on_change=_on_upload,
        args=(key,),
        **lock(help=(
            f"Columns found by their names (x1, x2, y / label / class); wider files let you "
            f"pick them. At most {MAX_POINTS} points, "
            f"{pio.MAX_UPLOAD_BYTES // 1000} kB.")),
    )


# -------------------------------------------------------- a page's file source (sidebar)


@dataclass(frozen=True)
class Upload:
    """A page's file source in the sidebar (``sidebar_upload``): the parser ``read(name,
    bytes)`` → Table (a ValueError names what is wrong), the uploader's label and help, and
    the columns the student picks (``pio.Choice`` fields; their defaults from
    ``pio.default_choice``)."""

    read: Callable[[str, bytes], pio.Table] = pio.read_upload
    label: str = "CSV / TSV / TXT with a header, or svmlight / LIBSVM"
    help: str | None = None
    columns: tuple[str, ...] = ("x1", "x2", "label")


def _on_sidebar_upload(prefix: str, read: Callable, on_change: Callable | None) -> None:
    ss = st.session_state
    f = ss.get(prefix + "upload")
    ss.pop(prefix + "file", None)
    if on_change is not None:
        on_change()
    if f is None:
        return
    try:
        table = read_file(f, read)
        pio.default_choice(table)  # the pickers' defaults: a file without them is refused here
        ss[prefix + "file"] = (f.name, table)
    except ValueError as exc:
        ss[prefix + "file_error"] = f"Could not read {f.name}: {exc}. Your points are kept."


def sidebar_upload(ss, prefix: str, upload: Upload,
                   on_change: Callable[[], None] | None = None) -> tuple | None:
    """The uploader (key ``prefix`` + "upload") and, once a file was read, its column pickers
    (``prefix`` + "col." + column) in the sidebar → (file name, Table, the picked column
    indices), or None before a file. The table is kept in the session (``prefix`` + "file");
    a file that cannot be read is an st.error naming it (the points are kept). ``on_change``
    runs when another file is chosen."""
    sb = st.sidebar
    sb.file_uploader(upload.label, key=prefix + "upload", type=UPLOAD_TYPES,
                     on_change=_on_sidebar_upload, args=(prefix, upload.read, on_change),
                     help=upload.help)
    if prefix + "file_error" in ss:
        sb.error(pio.markdown_safe(ss.pop(prefix + "file_error")))
    if prefix + "file" not in ss:
        return None
    name, table = ss[prefix + "file"]
    d = pio.default_choice(table)
    cols, shown = list(range(len(table.columns))), table.columns.__getitem__
    picked = tuple(sb.selectbox(c, cols, index=getattr(d, c), format_func=shown,
                                key=prefix + "col." + c) for c in upload.columns)
    return name, table, picked
