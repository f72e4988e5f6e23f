"""Which pages the app shows: the navigation list over the page files that exist."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from ui.shared.session import shared


@dataclass(frozen=True)
class PageSpec:
    path: str  # relative to the app root, e.g. "pages/1_playground.py"
    title: str
    icon: str
    default: bool = False


#: Every page of SVM Lab in menu order; the Playground is first and the default.
PAGES = (
    PageSpec("pages/1_playground.py", "Playground", ":material/scatter_plot:", default=True),
    PageSpec("pages/2_worked_examples.py", "Worked examples", ":material/menu_book:"),
    PageSpec("pages/3_step_through.py", "Step-through", ":material/footprint:"),
    PageSpec("pages/4_compare_solvers.py", "Compare solvers", ":material/compare_arrows:"),
    PageSpec("pages/5_kernels.py", "Kernels", ":material/3d_rotation:"),
    PageSpec("pages/6_generalisation.py", "Generalisation", ":material/grid_on:"),
    PageSpec("pages/7_more_classes.py", "More classes", ":material/category:"),
    PageSpec("pages/8_regression.py", "Regression", ":material/trending_up:"),
    PageSpec("pages/9_losses_perceptron.py", "Losses & perceptron", ":material/show_chart:"),
    PageSpec("pages/13_kernel_perceptron_knn.py", "Kernel perceptron & k-NN", ":material/hub:"),
    PageSpec("pages/14_kernel_kmeans_pca.py", "Kernel k-means & PCA", ":material/bubble_chart:"),
    PageSpec("pages/10_join_class.py", "Join a class", ":material/login:"),
    PageSpec("pages/11_teach_class.py", "Teach a class", ":material/co_present:"),
    PageSpec("pages/12_sources.py", "Sources", ":material/library_books:"),
)


def page_title(title: str) -> str:
    """The browser tab's title of a page: its own name first, then the app's."""
    return f"{title} · SVM Lab"


def existing_pages(root: str | Path, pages: tuple[PageSpec, ...] = PAGES) -> list[PageSpec]:
    """The pages whose file exists under ``root``, in menu order. If the default page is
    missing, the first existing page becomes the default."""
    root = Path(root)
    found = [p for p in pages if (root / p.path).is_file()]
    if found and not any(p.default for p in found):
        first = found[0]
        found[0] = PageSpec(first.path, first.title, first.icon, default=True)
    return found


def run_through_app() -> None:
    """Make a page opened by its own URL on a fresh server run through ``app.py``.

    Streamlit starts every server in its old pages/-folder mode and leaves that mode for good
    only when a script calls ``st.navigation``. So when the very first request to a new
    server is a deep link (``/step_through``, a shared link), Streamlit runs that page file
    alone: no page config, the folder's menu ("app, playground, ..."), no Plotly.js copied
    for the canvas. Every page calls this first: it leaves the old mode and reruns, and the
    rerun goes through ``app.py``, whose ``st.navigation`` opens the same page.

    Then the session's student-view switch in the sidebar (``student``): every page has it.
    """
    import streamlit as st

    from ui.shared.st_private import leave_pages_folder_mode
    from ui.shared.student import sidebar_switch

    if leave_pages_folder_mode():
        st.rerun()
    sidebar_switch(st.session_state)


def note_page(ss, page: str) -> None:
    """Record the page this full run draws (app.py, every run; a fragment's rerun does not
    come through here): ``Shared.page``, ``previous`` and the full-run counter ``run``."""
    sh = shared(ss)
    sh.previous, sh.page, sh.run = sh.page, page, sh.run + 1


def arrived(ss) -> bool:
    """This run follows a run of another page (or is the session's first): ``Shared.arrived``."""
    return shared(ss).arrived()
