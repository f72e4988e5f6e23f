"""The Playground page's parts below its sidebar (thin: every decision is in a tested pure
module — ``ui.shared.state``, ``ui.shared.fitting``, ``ui.shared.tables``, ``ui.data.io``,
``ui.playground.canvas``, ``ui.serving.fit_api``):

- the start of a run: the session from a link (``init_session``), the page's heading
  (``heading``), the address bar (``sync_url``), the queued messages (``show_flash``);
- the picture: the canvas with the answer of the fit endpoint (``draw_canvas``);
- the panels under it (``lower_panels``): edit coordinates, import / export, share link,
  teacher link.
"""

from __future__ import annotations

import functools
import math
import secrets
from urllib.parse import urlencode

import numpy as np
import streamlit as st

from ui.data import io as pio
from ui.data.import_panel import column_picker, uploader
from ui.playground import canvas, editor, keyboard, takeaway_panel, teacher, teacher_panel
from ui.serving import budget, fit_api
from ui.shared import history, links, page_style, reveal, state
from ui.shared.figures import PLOTLY_CONFIG
from ui.shared.points import MAX_POINTS
from ui.shared.session import shared
from ui.shared.settings import settings_key
from ui.shared.state import Playground
from ui.shared.sv_labels import LABEL_LEGEND

CANVAS_KEY = Playground.CANVAS_KEY


# ------------------------------------------------------------------------------ start


def init_session(ss) -> str | None:
    """First run of a session: restore the state from the URL if it holds a link, else the
    default. Returns a message for the user when the link was broken, as markdown that shows
    it literally (it quotes what the link holds: never a link, image or formula)."""
    if state.has_state(ss):
        return None
    q = st.query_params.to_dict()
    message = None
    if teacher.has_link_params(q):  # a teacher link (t=, ts=) or present mode
        message = teacher.open_link(ss, q)
    elif links.is_link(q):
        message = links.restore_from_query(ss, q)
    state.ensure_state(ss)
    return pio.markdown_safe(message) if message else None


def heading(ss) -> None:
    """The page's heading, as every page has (the dataset's name is the plot's, beside it);
    in present mode, where the room is the plot's, for screen readers only."""
    if not teacher.is_present(ss):
        st.title("Playground")
    else:
        st.html(page_style.hidden_heading("Playground"))


def sync_url(ss) -> dict[str, str]:
    """Write the state into st.query_params (only when it changed). Returns the parameters.

    Called on full reruns; inside the points fragment the canvas mirrors the same text into
    the address bar instead (see ``canvas.canvas_payload(url_query=...)``)."""
    q = teacher.page_query(ss)
    if st.query_params.to_dict() != q:
        st.query_params.from_dict(q)
    return q


def _take_rerun(ss) -> bool:
    """Whether the canvas asked for a rerun of the whole page (and forget the request)."""
    pg = Playground.of(ss)
    rerun, pg.rerun_app = pg.rerun_app, False
    return rerun


def show_flash(ss) -> None:
    if _take_rerun(ss):  # before the messages are popped: the whole page shows them
        st.rerun(scope="app")
    for level, text in state.pop_flash(ss):
        getattr(st, level if level in ("error", "warning", "info", "success") else "info")(text)


# ------------------------------------------------------------------------ the picture
# The browser draws the whole picture, the numbers panel and the points table from one
# answer of ``fit_api.answer``: after a click it POSTs to the fit endpoint; after a change of
# data or settings the page puts the answer in the canvas's payload. A click's sync of the
# points (``_on_canvas_change``) reruns this fragment without fitting or drawing anything.

RESTORED_TEXT = ("A new session started (the page was reloaded or the server restarted): your {n} "
                 "points came back from this browser, with the settings in the address bar. "
                 "Not kept: the zoom and what Undo could bring back from before a dataset load "
                 "or an import.")


@st.cache_data(max_entries=64, show_spinner=False)
def cached_answer(xb: bytes, yb: bytes, skey: tuple, view: tuple, home: tuple,
                  style: tuple = ()) -> dict:  # fmt: skip
    """``fit_api.answer`` for the points (bytes) and settings, in a worker within the time
    budget: a pure result (``budget.Stopped`` is raised, so never cached); ``style`` the
    figure's (``teacher.figure_options``: present mode, hidden SVs) as sorted items."""
    X = np.frombuffer(xb, dtype=np.float64).reshape(-1, 2)
    y = np.frombuffer(yb, dtype=np.int64)
    settings = dict(skey)
    return budget.run("fit", fit_api.answer, (X, y, settings, view),
                      {"home": home, "style": dict(style), "theory": True}, settings=settings,
                      n=len(X),
                      refuse=False)  # fmt: skip


def reused_time(ans: dict) -> dict:
    """The page's answers are shared by every session (a pure result): its "time" is the
    first computation's, and says so (issue 16 item 12: a time that was another visitor's)."""
    panel = ans.get("panel")
    if panel:
        ans = dict(ans, panel=[[k, f"already computed ({v} the first time)" if k == "time"
                                else v] for k, v in panel])  # fmt: skip
    return ans


def _answer_args(ss) -> tuple:
    """``cached_answer``'s arguments for the session's points, settings and view."""
    X, y, _ = state.current_dataset(ss)
    skey = settings_key(state.current_settings(ss))
    style = tuple(sorted(teacher.figure_options(ss).items()))
    sh = shared(ss)
    home = tuple(tuple(r) for r in sh.range)
    view = tuple(tuple(r) for r in (sh.view or home))
    xb, yb = X.astype(np.float64).tobytes(), y.astype(np.int64).tobytes()
    return xb, yb, skey, view, home, style


def shown_answer(ss) -> dict:
    """The answer of the fit the page shows (the "Why?" panel's texts are in it): the
    page's own cached one, or, after the canvas's edits, the same call for their points.
    Raises ``budget.Stopped`` as ``cached_answer`` does."""
    return cached_answer(*_answer_args(ss))


def page_answer(ss) -> dict | None:
    """The answer for the canvas's payload, or None when the browser has it already: it has
    fitted every edit of its own through the endpoint since the last change made here."""
    X, y, _ = state.current_dataset(ss)
    xb, yb, skey, view, home, style = _answer_args(ss)
    sh, pg = shared(ss), Playground.of(ss)
    shown = (sh.epoch, skey, sh.view_rev, style)
    if pg.answered == shown:
        return None
    pg.answered = shown
    try:
        ans = reused_time(cached_answer(xb, yb, skey, view, home, style))
        return {k: v for k, v in ans.items() if k != "theory"}  # the page's panel shows it
    except budget.Stopped as exc:  # the points stay; the canvas shows why there is no model
        return {"seq": None, "ok": False, "kind": "over_budget",
                "message": str(exc), "figure": fit_api.points_figure(X, y, home)}


# ---------------------------------------------------------------------------- canvas


def adopt_canvas_state(ss) -> None:
    """Take the canvas's latest points and zoom into the session (a newer edit only, so
    running it twice changes nothing)."""
    value = ss.get(CANVAS_KEY) or {}
    points = value.get("points")
    if isinstance(points, dict) and points.get("undo") is True:
        # the canvas's Undo with its own edits all undone: the last replacement made here
        if points.get("epoch") == shared(ss).epoch:  # once: the undo bumps the epoch
            msg = history.undo(ss)
            if msg:
                state.push_flash(ss, "info", msg)
                Playground.of(ss).rerun_app = True  # the sidebar shows the settings back
        return
    title = shared(ss).title
    if canvas.apply_canvas_points(ss, points):
        if shared(ss).title != title:  # the first edit's "(edited)": the sidebar's
            Playground.of(ss).rerun_app = True  # "Shown:" is outside this fragment (once)
        if points.get("restored") is True:  # a new session met a browser with its points
            state.push_flash(ss, "info", RESTORED_TEXT.format(n=len(points["points"])))
    canvas.apply_canvas_view(ss, value.get("view"))


def _on_canvas_change() -> None:
    adopt_canvas_state(st.session_state)


def draw_canvas(ss) -> None:
    """The canvas: the points, the settings and (after a change made here) the answer."""
    teacher.hold_locks(ss)  # a client changed what a teacher link locks: put it back
    adopt_canvas_state(ss)
    if _take_rerun(ss):
        st.rerun(scope="app")
    X, y, title = state.current_dataset(ss)
    sh, pg = shared(ss), Playground.of(ss)
    if pg.canvas_session is None:
        pg.canvas_session = secrets.token_hex(8)
    payload = canvas.canvas_payload(
        X,
        y,
        epoch=sh.epoch,
        seq=sh.canvas_seq,
        view_rev=sh.view_rev,
        max_points=MAX_POINTS,
        config=PLOTLY_CONFIG,
        url_query=urlencode(teacher.page_query(ss)),
        settings=state.current_settings(ss),
        fit_url=fit_api.fit_url(st.get_option("server.baseUrlPath")),
        home=sh.range,
        view=sh.view,
        title=title,
        answer=page_answer(ss),
        locked=teacher.is_locked(ss, "points"),
        can_undo=history.can_undo(ss),
        session=pg.canvas_session,
        boot=fit_api.BOOT,
        hide=tuple(h for h in ("numbers", "table") if not teacher.shows(ss, h)),
        style=teacher.figure_options(ss),
        a11y=canvas.a11y_words(state.current_settings(ss), title),
    )
    canvas.point_canvas(
        payload, key=CANVAS_KEY, on_points=_on_canvas_change, on_view=_on_canvas_change
    )
    with reveal.slot(ss):                  # the reveal moves nothing after it
        if teacher.shows(ss, "table"):
            st.caption(LABEL_LEGEND)      # what the table's category column means
    if not teacher.is_present(ss):
        keyboard_help()


def keyboard_help() -> None:
    """The "Keyboard" help under the plot: every key of the Playground
    (``ui.playground.keyboard``)."""
    with st.expander("Keyboard"):
        for title, rows in (("The plot", keyboard.PLOT_KEYS),
                            ("The points table", keyboard.TABLE_KEYS),
                            ("Edit coordinates", keyboard.EDITOR_KEYS)):  # fmt: skip
            st.markdown(f"**{title}**\n\n{keyboard.keys_markdown(rows)}")
        st.markdown(keyboard.SAID)


# ----------------------------------------------------------------------------- panels


def _on_editor_change(key: str) -> None:
    ss = st.session_state
    try:
        X2, y2 = editor.edited_points(ss, key)  # the table's base with all its edits
        history.remember(ss)
        state.set_points(ss, X2, y2)
    except ValueError as exc:
        state.push_flash(ss, "error", f"The table edit was not applied: {exc}")


def editor_tab(ss) -> None:
    X, y, _ = state.current_dataset(ss)
    import pandas as pd

    # the same table (and key) while its own edits change the points: the focus stays in it
    key, Xb, yb = editor.editor_base(ss, X, y)
    df = pd.DataFrame({"x1": Xb[:, 0], "x2": Xb[:, 1], "y": yb.astype(int)})
    st.caption("Type exact coordinates; add or delete rows. Labels are +1 or −1. Keys: arrows "
               "move between cells, type and Enter saves; Shift+Space then Delete deletes a "
               "row.")
    st.data_editor(
        df,
        key=key,
        num_rows="dynamic",
        hide_index=True,
        width="stretch",
        on_change=_on_editor_change,
        args=(key,),
        disabled=teacher.is_locked(ss, "points"),
        column_config={
            "x1": st.column_config.NumberColumn("x1", required=True, format="%.6g"),
            "x2": st.column_config.NumberColumn("x2", required=True, format="%.6g"),
            "y": st.column_config.SelectboxColumn("y", options=[1, -1], required=True),
        },
    )


def io_tab(ss) -> None:
    X, y, _ = state.current_dataset(ss)
    c1, c2 = st.columns(2)
    with c1:
        st.markdown("**Export the points**")
        st.download_button(
            "Download CSV", pio.to_csv(X, y), file_name="svm_lab_points.csv",
            mime="text/csv", on_click="ignore", width="stretch",
        )  # fmt: skip
        st.download_button(
            "Download LIBSVM (svm-toy)", pio.to_libsvm(X, y), file_name="svm_lab_points.libsvm",
            mime="text/plain", on_click="ignore", width="stretch",
        )  # fmt: skip
        st.caption("The figure: the camera buttons in the plot's toolbar save it as PNG or "
                   "SVG, with the title and the settings.")
    with c2:
        st.markdown("**Import points** (replaces the current ones)")
        uploader(ss, lock=functools.partial(teacher.lock_kwargs, ss, "points"))
    column_picker(ss, teacher.is_locked(ss, "points"))  # a wider file's columns, full width
    takeaway_panel.model_export(ss)


def share_tab(ss, query: dict[str, str]) -> None:
    qs = urlencode(query)
    base = ""
    try:
        base = (st.context.url or "").split("?", 1)[0]
    except Exception:  # st.context.url is unavailable outside a browser session
        base = ""
    st.caption(
        "The address bar always holds the current points and settings; copy it, or this link:"
    )
    st.code(f"{base}?{qs}" if base else f"?{qs}", language=None, wrap_lines=True)
    if math.isfinite(len(qs)) and len(qs) > 8000:
        st.caption(f"The link is long ({len(qs):,} characters) because it holds every point.")


PANELS = ("Edit coordinates", "Import / export", "Share link", "Teacher link")


def lower_panels(ss) -> None:
    """The panel under the plot (none open by default); only the chosen one is built."""
    choice = st.segmented_control("More", PANELS, key=Playground.widget_key("panel"),
                                  label_visibility="collapsed")
    if choice == PANELS[0]:
        editor_tab(ss)
    elif choice == PANELS[1]:
        io_tab(ss)
    elif choice == PANELS[2]:
        share_tab(ss, teacher.page_query(ss))
    elif choice == PANELS[3]:
        teacher_panel.teacher_tab(ss)


