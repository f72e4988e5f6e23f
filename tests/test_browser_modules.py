"""ui.serving.browser_modules: the browser's ES modules served under their version, and the
loaders the Custom Components v2 elements run (the modules themselves: tests/js, node)."""

import json
import re

import pytest
from starlette.applications import Starlette

from tests.test_fit_api import _call
from ui.serving import browser_modules as BM
from ui.serving import fit_api

#: the modules the elements mount (ui/playground/canvas.py, ui/step_through/player.py, plot.py,
#: ui/shared/click_plot.py, chart.py)
ENTRIES = ("canvas.js", "step_player.js", "step_plot.js", "step_sync.js", "click_plot.js",
           "chart.js", "drawer.js")


def _text(body) -> str:
    return body.decode() if isinstance(body, bytes) else body


def test_every_entry_is_a_module_with_one_default_export():
    files = BM.sources()
    for name in ENTRIES:
        assert len(re.findall(r"^export default function", files[name], re.M)) == 1, name


def test_a_loader_is_small_and_imports_its_module_under_the_current_version():
    # Streamlit sends an element's inline script with every rerun of every session: only the
    # loader travels there, the module once per page (and then from the browser's cache)
    for name in ENTRIES:
        loader = BM.loader_js(name)
        assert len(loader) < 1_000
        assert f'"svmlab/{BM.version()}/"' in loader and f'"{name}"' in loader
        assert "document.baseURI" in loader and "export default function" in loader
    with pytest.raises(ValueError, match="nope.js"):
        BM.loader_js("nope.js")


def test_a_loader_preloads_every_module_its_module_imports():
    files = BM.sources()
    deps = BM.imported_by("step_player.js", files)
    # directly (the drawing) and through another module (the box's colours)
    assert {"step_player_draw.js", "step_box.js", "step_style.js", "contours.js"} <= set(deps)
    assert "canvas.js" not in deps and "step_player.js" not in deps
    assert BM.imported_by("step_sync.js", files) == []
    canvas = BM.imported_by("canvas.js", files)
    assert {"canvas_layer.js", "contours.js", "plotly_loader.js"} <= set(canvas)
    assert json.dumps(canvas, separators=(",", ":")) in BM.loader_js("canvas.js")
    assert "modulepreload" in BM.loader_js("canvas.js")


def test_the_version_changes_with_any_module():
    files = BM.sources()
    v = BM.version(files)
    assert re.fullmatch(r"[0-9a-f]{12}", v) and v == BM.version()
    for name in ("contours.js", "step_sync.js"):
        assert BM.version({**files, name: files[name] + "\n"}) != v, name


def test_every_module_is_served_under_its_version_and_nothing_else():
    app = Starlette(routes=fit_api.routes("lab"))
    files = BM.sources()
    v = BM.version(files)
    assert {"canvas.js", "contours.js", "step_player_state.js"} <= set(files)
    for name, text in files.items():
        status, headers, body = _call(app, "GET", f"/lab/svmlab/{v}/{name}")
        assert status == 200 and headers["content-type"].startswith("text/javascript"), name
        assert "immutable" in headers["cache-control"]
        assert _text(body) == text
    # another version (an old page after an upgrade): the current text, not cached for good
    status, headers, body = _call(app, "GET", "/lab/svmlab/0123456789ab/canvas.js")
    assert status == 200 and "no-cache" in headers["cache-control"]
    assert _text(body) == files["canvas.js"]
    # only the modules of ui/browser: no style sheets, no other files, no way out
    for path in (f"/lab/svmlab/{v}/canvas.css", f"/lab/svmlab/{v}/nope.js",
                 f"/lab/svmlab/{v}/..%2F..%2Fapp.py", f"/lab/svmlab/{v}/../../app.py",
                 f"/svmlab/{v}/canvas.js"):  # fmt: skip
        assert _call(app, "GET", path)[0] == 404, path
