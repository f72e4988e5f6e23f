"""SVM Lab: entry point (`streamlit run app.py`).

Page config, Plotly.js copied into ./static for the click canvas (served at
/app/static/plotly.min.js with server.enableStaticServing), and navigation over the pages
that exist (Playground first and default).

`streamlit run` finds the ``app = st.App(...)`` assignment below and serves this file as an
ASGI app (uvicorn), which adds the Playground's fit endpoint (``ui/serving/fit_api.py``) to
Streamlit's own routes and starts the fit workers with the server (``ui/serving/budget.py``: they
load
or compile the solvers at once, so a plain ``streamlit run app.py`` is as quick for its first
visitor as ``make run``); each browser session still runs this file as ``__main__``
(``main()``), whose page waits for those workers behind a spinner (``ui/serving/warmup.py``).
"""

from __future__ import annotations

from pathlib import Path

import streamlit as st

# the Playground's modules import the heavy ones: load them before freezing the start-up objects
import ui.playground.panels  # noqa: F401
import ui.playground.sidebar  # noqa: F401
from ui.serving import warmup
from ui.serving.startup import ensure_plotly_js, freeze_gc_once
from ui.shared import page_style
from ui.shared.drawer import close_after_navigation
from ui.shared.nav import existing_pages, note_page, page_title

ROOT = Path(__file__).resolve().parent


def main() -> None:
    # a file, not ":material/…:": Streamlit fetches those favicons from a font host
    st.set_page_config(page_icon=str(ROOT / "ui" / "assets" / "icon.png"), layout="wide")
    try:
        ensure_plotly_js(ROOT / "static")
    except OSError as exc:  # read-only checkout etc.: the canvas shows its own message
        st.warning(f"Could not copy plotly.min.js into static/: {exc}")
    freeze_gc_once()

    pages = [
        st.Page(p.path, title=p.title, icon=p.icon, default=p.default)
        for p in existing_pages(ROOT)
    ]
    page = st.navigation(pages)
    # each page its own title in the tab (WCAG 2.4.2); set here, not above, so that a later
    # call cannot leave every page "SVM Lab"
    st.set_page_config(page_title=page_title(page.title))
    page_style.apply()  # captions' contrast, the sidebar's focus ring (ui/shared/page_style.py)
    note_page(st.session_state, page.url_path)
    close_after_navigation()  # a phone's drawer does not stay open over the new page
    warmup.wait()  # every page fits at once: on a fresh server, behind a spinner
    page.run()


if __name__ != "__main__":  # imported by `streamlit run` (uvicorn) to serve the ASGI app
    from starlette.requests import ClientDisconnect

    from ui.serving import slow_clients
    from ui.serving.budget import lifespan  # the fit workers start and stop with the server
    from ui.serving.fit_api import routes

    slow_clients.install()  # uvicorn reads a request with no time limit: bound it
    app = st.App(__file__, routes=routes(st.get_option("server.baseUrlPath")),
                 lifespan=slow_clients.lifespan(lifespan),
                 exception_handlers={ClientDisconnect: slow_clients.client_left})
else:  # a session's run of the script
    main()
