"""The Playground's teacher side in Streamlit: the "Teacher link" panel, what a student sees
above the plot (the teacher's title and question as plain text, "Reset to the teacher's
picture"), and present mode. Every decision is in ``ui.playground.teacher`` (pure, tested).

The title and question are drawn with ``st.text`` only: never markdown or HTML.
"""

from __future__ import annotations

import secrets
from urllib.parse import urlsplit, urlunsplit

import streamlit as st

from ui.playground import teacher as T
from ui.playground import teacher_presets as presets
from ui.playground import teacher_spec as TS
from ui.playground import teacher_store as TL
from ui.shared import class_address as CA
from ui.shared import present, qr, state
from ui.shared.markdown import markdown_safe
from ui.shared.session import Shared
from ui.shared.state import Playground

TK = Playground.teacher_key  # the panel's widget keys (a dataset load keeps them)
FIELDS = ("preset", "title", "question", "locked", "hidden", "class_url")
# Playground.made: the links made last (see ``teacher.links``) and their spec;
# drawn_present: present mode as the last full run drew it; teacher_rerun: a preset changed
# the settings, the sidebar must redraw; nonce and reveal_key: a hiding link's, one per
# teacher session, so making the link again gives the same link (and the same key) — and
# another teacher's same picture another link

#: Plain-text title and question (containers with a key get the class st-key-<key>).
HEAD_CSS = """
.st-key-svmlab-teacher-title [data-testid="stText"] { font-size: 1.75rem; font-weight: 700;
  line-height: 1.25; }
.st-key-svmlab-teacher-question [data-testid="stText"] { font-size: 1.25rem; }
"""
#: Present mode: no sidebar (nor its expand button) and no header bar, larger text; the
#: figure is scaled in Python (``teacher.figure_options``).
PRESENT_CSS = present.BASE_CSS + """
.svmlab-canvas .svmlab-hint { display: none; }
.st-key-svmlab-teacher-title [data-testid="stText"] { font-size: 2.8rem; }
.st-key-svmlab-teacher-question [data-testid="stText"] { font-size: 2rem; }
.svmlab-canvas .svmlab-toolbar, .svmlab-canvas button,
.svmlab-canvas .svmlab-numbers, .svmlab-canvas .svmlab-tablebox { font-size: 1.35rem; }
"""


def base_url() -> str:
    """The page's address without its query ("" outside a browser session)."""
    try:
        url = (st.context.url or "").split("?", 1)[0].split("#", 1)[0]
    except Exception:  # st.context.url is unavailable outside a browser session
        return ""
    parts = urlsplit(url)
    return urlunsplit(parts._replace(path=parts.path or "/")) if parts.netloc else url


# ------------------------------------------------------------------ what students see


def _reset_cb() -> None:
    if T.reset(st.session_state):
        state.push_flash(st.session_state, "info", "Back to your teacher's picture.")


def _undo_reset_cb() -> None:
    T.undo_reset(st.session_state)


def header(ss) -> None:
    """Above the plot: present mode's style, the teacher's title and question (plain text),
    what is locked, and the reset button. Nothing for an ordinary Playground."""
    spec = T.spec_of(ss)
    pg = Playground.of(ss)
    if pg.drawn_present and not T.is_present(ss):  # just left present mode
        st.set_page_config(initial_sidebar_state="expanded")
    pg.drawn_present = ss[TK("present")] = T.is_present(ss)  # the panel's toggle follows
    if T.is_present(ss):
        st.set_page_config(initial_sidebar_state="collapsed")
        # the marker tells the canvas to fit the figure to the window (canvas_full.js)
        st.html(f"<style>{HEAD_CSS}{PRESENT_CSS}</style><div class='svmlab-present-mode'></div>")
    elif spec is not None:
        st.html(f"<style>{HEAD_CSS}</style>")
    if spec is None:
        if T.is_present(ss):
            present.exit_button()
        return
    left, right = st.columns([3, 1.1], vertical_alignment="top")
    with left:
        if spec.title:
            with st.container(key="svmlab-teacher-title"):
                st.text(spec.title)
        if spec.question:
            with st.container(key="svmlab-teacher-question"):
                st.text(spec.question)
        locked = [TS.LOCKS[n] for n in TS.LOCKS if n in spec.locked]
        if locked:
            st.caption("Locked by your teacher: " + ", ".join(locked) + ".")
    with right:
        st.button("Reset to the teacher's picture", key=Shared.widget_key("teacher.reset"),
                  on_click=_reset_cb, icon=":material/restart_alt:", width="stretch",
                  help="Your teacher's points and settings again (Undo the reset brings yours "
                  "back).")  # fmt: skip
        if pg.before_reset is not None:
            st.button("Undo the reset", key=Shared.widget_key("teacher.undo_reset"),
                      on_click=_undo_reset_cb, icon=":material/undo:", width="stretch")
        if T.is_present(ss):
            present.exit_button("stretch")


# --------------------------------------------------------------- the teacher's panel


def _present_cb() -> None:
    present.set_present(st.session_state, bool(st.session_state.get(TK("present"))))


def _load_preset_cb() -> None:
    ss = st.session_state
    key = ss.get(TK("preset"))
    if key not in presets.PRESETS_BY_KEY:
        return
    p = presets.PRESETS_BY_KEY[key]
    try:
        spec = presets.preset_spec(key)
    except ValueError as exc:
        state.push_flash(ss, "error", f"Could not load the preset: {exc}")
        return
    panel = ss.get(Playground.widget_key("panel"))
    state.load_into_playground(ss, spec.X, spec.y, spec.settings, p.label)
    ss[Playground.widget_key("panel")] = panel  # stay on this panel
    ss[TK("title")], ss[TK("question")] = p.title, p.question
    ss[TK("locked")], ss[TK("hidden")] = list(p.locked), list(p.hidden)
    pg = Playground.of(ss)
    pg.made, pg.teacher_rerun = None, True


def _once(ss, name: str, make) -> str:
    """The session's ``Playground.<name>``, made on first use."""
    pg = Playground.of(ss)
    if getattr(pg, name) is None:
        setattr(pg, name, make())
    return getattr(pg, name)


def _current_spec(ss) -> TS.TeacherSpec:
    return T.make_current_spec(
        ss, title=ss.get(TK("title")) or "", question=ss.get(TK("question")) or "",
        locked=ss.get(TK("locked")) or [], hidden=ss.get(TK("hidden")) or [],
        nonce=_once(ss, "nonce", lambda: secrets.token_hex(8)),
    )  # fmt: skip


def _make_cb() -> None:
    ss = st.session_state
    try:
        spec = _current_spec(ss)
    except ValueError as exc:
        state.push_flash(ss, "error", f"The teacher link was not made: {exc}.")
        Playground.of(ss).made = None
        return
    where = CA.class_base(base_url(), ss.get(TK("class_url")) or "",
                          st.get_option("server.address"), CA.network_addresses())
    key = _once(ss, "reveal_key", lambda: secrets.token_urlsafe(24)) if spec.hidden else None
    Playground.of(ss).made = {"spec": spec, "where": where, **TL.links(spec, where.url, key=key)}


def _reveal_cb() -> None:
    ss = st.session_state
    pg = Playground.of(ss)
    made = pg.made or {}
    try:
        TL.reveal_link(made.get("id"), pg.reveal_key or "")
    except TS.TeacherLinkError as exc:
        state.push_flash(ss, "error", f"Not revealed: {exc}.")
    except T.StoreUnavailable:
        state.push_flash(ss, "error", "Not revealed: the link store cannot be written on this "
                         "server (its database is unavailable). Try again in a moment.")
    else:
        made["revealed"] = True
        state.push_flash(ss, "success", "Revealed: your students' pages show the hidden parts "
                         "within a few seconds.")


def teacher_tab(ss) -> None:
    """The "Teacher link" panel: preset, title, question, locks, hides → short link, QR
    code, long link; present mode for this tab."""
    pg = Playground.of(ss)
    pg.teacher.restore(ss)
    st.caption("Set up the picture (plot and sidebar, or start from a worked example), write "
               "a title and a question, choose what students may not change, and make a link "
               "to share or project. Students see your picture with those controls locked and "
               "can always reset to it.")  # fmt: skip
    form, out = st.columns([1, 1], gap="medium")
    with form:
        c1, c2 = st.columns([3, 2], vertical_alignment="bottom")
        c1.selectbox("Start from a worked example", [""] + [p.key for p in presets.PRESETS],
                     key=TK("preset"),
                     format_func=lambda k: presets.PRESETS_BY_KEY[k].label if k else "—")
        c2.button("Load it", key=TK("load"), on_click=_load_preset_cb, width="stretch",
                  disabled=not ss.get(TK("preset")),
                  help="Loads the example's points and settings, and a suggested title, "
                  "question, locks and hidden parts.")  # fmt: skip
        st.text_input("Title", key=TK("title"), max_chars=TS.TITLE_MAX,
                      placeholder="e.g. D1: the widest street")
        st.text_area("Question for the students", key=TK("question"), height=90,
                     max_chars=TS.QUESTION_MAX,
                     placeholder="e.g. Which points are support vectors? Predict first.")
        st.pills("Locked for students", list(TS.LOCKS), key=TK("locked"),
                 selection_mode="multi", format_func=TS.LOCKS.get)
        st.pills("Hidden from students", list(TS.HIDES), key=TK("hidden"),
                 selection_mode="multi", format_func=TS.HIDES.get)
        st.text_input("Class address (optional)", key=TK("class_url"),
                      max_chars=CA.CLASS_URL_MAX, placeholder="e.g. http://192.168.1.20:8501",
                      help="The address students open (this computer's network address, or "
                      "the class server's name behind HAProxy). Left empty, the link uses "
                      "the address you opened the app at, or this computer's network address "
                      "when that is localhost.")  # fmt: skip
        st.button("Make the teacher link", key=TK("make"), on_click=_make_cb, type="primary",
                  icon=":material/qr_code_2:", width="stretch")
        st.toggle("Present mode (projector)", key=TK("present"), on_change=_present_cb,
                  help="This tab without the sidebar, with larger text, markers and lines. "
                  "The link's own present mode: add &present=1.")
    with out:
        _links_view(ss)
    pg.teacher.keep(ss, FIELDS)
    rerun, pg.teacher_rerun = pg.teacher_rerun, False
    if rerun or T.is_present(ss) != pg.drawn_present:
        st.rerun()  # the whole page (this panel may run in a fragment): sidebar, styles


@st.cache_data(max_entries=32, show_spinner=False)
def qr_images(link: str) -> tuple[bytes, bytes]:
    """(PNG, SVG) of a link's QR code (pure; ~20 ms to draw)."""
    return qr.png(link), qr.svg(link)


def _links_view(ss) -> None:
    made = Playground.of(ss).made
    if not made:
        st.info("The short link, its QR code and the long link appear here.")
        return
    try:
        stale = _current_spec(ss) != made["spec"]
    except ValueError:
        stale = True
    if stale:
        st.warning("The picture or the text changed since this link was made: make it again "
                   "to include the changes.")  # fmt: skip
    where = made["where"]
    if where.note:
        (st.info if where.reachable else st.warning)(markdown_safe(where.note))
    link = made["short"] or made["long"]
    if made["error"]:
        st.warning(f"No short link: {made['error']}. The long link below holds the whole "
                   "picture and works on any server.")  # fmt: skip
    else:
        st.markdown("**Short link** (this server keeps the picture)")
        st.code(made["short"], language=None, wrap_lines=True)
    try:
        png, svg = qr_images(link)
    except qr.QRError as exc:
        st.warning(f"No QR code: {exc}.")
    else:
        st.image(png, caption="Scan to open", width=400, alt="QR code of this link")
        c1, c2 = st.columns(2)
        c1.download_button("QR code (PNG)", png, file_name="svm_lab_link.png", mime="image/png",
                           on_click="ignore", width="stretch", key=TK("png"))
        c2.download_button("QR code (SVG)", svg, file_name="svm_lab_link.svg",
                           mime="image/svg+xml", on_click="ignore", width="stretch",
                           key=TK("svg"))  # fmt: skip
    if made["spec"].hidden and made["id"]:
        st.button("Revealed to the students" if made.get("revealed") else
                  "Reveal to the students", key=TK("reveal"), on_click=_reveal_cb,
                  icon=":material/visibility:", width="stretch", type="primary",
                  disabled=bool(made.get("revealed")),
                  help="Ends \"predict first\": every student who opened this link sees what "
                  "it hides, on every page, within a few seconds.")  # fmt: skip
    elif made["spec"].hidden:
        st.caption("Revealing needs the short link (this server's link store).")
    st.link_button("Open it as a student (new tab)", link, width="stretch",
                   icon=":material/open_in_new:")
    st.link_button("Present it (new tab)", made["present"], width="stretch",
                   icon=":material/present_to_all:")
    with st.expander(f"Long link ({len(made['long']):,} characters, works on any server)"):
        st.code(made["long"], language=None, wrap_lines=True)
