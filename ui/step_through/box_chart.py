"""SMO's step in the (αᵢ, αⱼ) box outside the step player (the Worked examples page shows the
two-point example's one step): the step player's own drawing (``ui/browser/step_box.js``, the
one renderer of the box) in a small Custom Components v2 element (``ui/browser/box_chart.js``),
fed the step's numbers. The browser names and describes it with the player's words
(``step_words.js`` boxWords) and offers the PNG and SVG buttons of every chart.

``box_data`` (what is sent) is pure and tested; ``show_box`` mounts the element.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from typing import Any

from ui.serving import browser_modules
from ui.shared.chart import export_text, image_config

COMPONENT_NAME = "svmlab_box"
#: the numbers step_box.js draws (ui.step_through.snapshot.step_record's names)
KEYS = ("it", "i", "j", "yi", "yj", "C", "ai_old", "aj_old", "ai_new", "aj_new", "ai_unclipped",
        "aj_unclipped", "L", "H", "clipped")
_INTS = ("it", "i", "j")
HEIGHT = 420
# the buttons keep Plotly's toolbar's ways: shown on hover, out of the Tab order (the page's
# other charts' buttons are not Tab stops either); at the bottom right, where the picture has
# room (its title runs along the top)
_BUTTON = ('<button type="button" tabindex="-1" data-format="{f}" title="Download the plot as '
           '{F} (with its title and settings)">{F}</button>')
HTML = ('<div class="svmlab-box"><div class="sb-tools">' + _BUTTON.format(f="png", F="PNG")
        + _BUTTON.format(f="svg", F="SVG") + '</div><div class="sb-pic"></div></div>')
CSS = """
.svmlab-box { position: relative; }
.svmlab-box .sb-pic { width: 100%; }
.svmlab-box .sb-tools { position: absolute; bottom: 2px; right: 2px; display: flex; gap: 4px;
  opacity: 0; transition: opacity 0.2s; }
.svmlab-box:hover .sb-tools, .svmlab-box .sb-tools:focus-within { opacity: 1; }
.svmlab-box .sb-tools button { font: 12px "Source Sans Pro", Arial, sans-serif;
  color: #262730; background: #FFFFFF; border: 1px solid #777777; border-radius: 4px;
  padding: 1px 6px; cursor: pointer; }
"""


def _value(key: str, v: Any) -> Any:
    if key == "clipped":
        return bool(v)
    if key in _INTS:
        return int(v)
    v = float(v)
    return v if math.isfinite(v) else None  # C or H = ∞: JSON has no ∞ (boxRecord reads null)


def box_data(rec: Mapping[str, Any], *, key: str, title: str | None,
             settings: str | Sequence[str], height: int = HEIGHT) -> dict:
    """The element's data for step record ``rec`` (``ui.step_through.snapshot.step_record`` of an
    SMO run, k ≥ 1): its numbers, the picture's height, the words of its saved image
    (``export_text``) and the file name (``image_config``)."""
    return {"rec": {k: _value(k, rec[k]) for k in KEYS}, "height": int(height),
            "export": export_text(None, title, settings),
            "config": {"toImageButtonOptions": image_config(None, key)["toImageButtonOptions"]}}


def show_box(rec: Mapping[str, Any], *, key: str, title: str | None,
             settings: str | Sequence[str], height: int = HEIGHT) -> Any:
    """Draw step ``rec`` in its (αᵢ, αⱼ) box as the element ``key``."""
    element = browser_modules.element(COMPONENT_NAME, "box_chart.js", HTML, CSS)
    return element(key=key, data=box_data(rec, key=key, title=title, settings=settings,
                                          height=height))
