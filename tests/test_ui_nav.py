"""ui.shared.nav (which pages exist) and ui.serving.startup (Plotly.js copy, gc freeze)."""

import gc
import importlib
from pathlib import Path

from ui.serving import startup
from ui.shared import nav


def _touch(root: Path, rel: str) -> None:
    p = root / rel
    p.parent.mkdir(parents=True, exist_ok=True)
    p.write_text("")


def test_only_existing_pages_in_menu_order_playground_default(tmp_path):
    _touch(tmp_path, "pages/4_compare_solvers.py")
    _touch(tmp_path, "pages/1_playground.py")
    pages = nav.existing_pages(tmp_path)
    assert [p.path for p in pages] == ["pages/1_playground.py", "pages/4_compare_solvers.py"]
    assert pages[0].default and not pages[1].default


def test_first_existing_page_is_default_when_playground_is_missing(tmp_path):
    _touch(tmp_path, "pages/3_step_through.py")
    (page,) = nav.existing_pages(tmp_path)
    assert page.default and page.title == "Step-through"
    assert nav.existing_pages(tmp_path / "nowhere") == []


def test_repository_has_the_playground_page():
    root = Path(__file__).resolve().parents[1]
    assert nav.existing_pages(root)[0].path == "pages/1_playground.py"


def test_plotly_js_is_copied_once(tmp_path):
    dst = startup.ensure_plotly_js(tmp_path / "static")
    src = startup.plotly_js_source()
    assert dst.read_bytes() == src.read_bytes()
    mtime = dst.stat().st_mtime_ns
    assert startup.ensure_plotly_js(tmp_path / "static") == dst
    assert dst.stat().st_mtime_ns == mtime  # not copied again
    dst.write_text("truncated")
    startup.ensure_plotly_js(tmp_path / "static")
    assert dst.stat().st_size == src.stat().st_size  # a broken copy is replaced


def test_gc_freeze_happens_once_per_process(monkeypatch):
    was_frozen = gc.get_freeze_count() > 0  # tests/conftest.py froze this process's objects
    gc.unfreeze()
    monkeypatch.setattr(startup, "_frozen", False)  # as in a fresh process
    # what is counted is the freeze; the collection before it would walk this test process's
    # ~1.6 M objects (0.6 s)
    monkeypatch.setattr(gc, "collect", lambda *args: 0)
    counts = []
    count = gc.get_freeze_count
    monkeypatch.setattr(gc, "get_freeze_count", lambda: counts.append(1) or count())
    try:
        assert startup.freeze_gc_once() is True
        assert count() > 0
        assert startup.freeze_gc_once() is False
        assert len(counts) == 1  # a click does not walk the frozen list again
        importlib.reload(startup)  # what Streamlit does when the file changed
        assert startup.freeze_gc_once() is False  # still once for the process
        assert len(counts) == 2
    finally:
        gc.unfreeze()
        if was_frozen:  # as it was, for the tests after this one
            gc.freeze()


def test_a_page_run_in_pages_folder_mode_reruns_through_the_app(monkeypatch):
    from streamlit.runtime.pages_manager import PagesManager

    reruns = []
    monkeypatch.setattr("streamlit.rerun", lambda: reruns.append(1))
    monkeypatch.setattr(PagesManager, "uses_pages_directory", True)
    nav.run_through_app()
    assert reruns == [1] and PagesManager.uses_pages_directory is False
    nav.run_through_app()  # navigation mode: nothing to do
    assert reruns == [1]
