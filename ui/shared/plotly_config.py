"""The config every Plotly chart of the app is drawn with, and the one way a config reaches
Plotly (``no_cloud``). Plain Python without plotly: the canvas and the fit endpoint import it."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

#: plotly config for the canvas and every chart (``ui.shared.chart``): images saved as
#: svm_lab.png at 2x (the browser's plot_export.js adds SVG, a title and the settings). The
#: canvas lets only ctrl/⌘ + wheel reach scrollZoom (a plain wheel scrolls the page, see
#: canvas.js onWheel); the pages' charts turn scrollZoom off. Nothing leaves the server: the
#: bundled plotly.js shows a "Share" (send to cloud) button unless told not to.
PLOTLY_CONFIG = {
    "displaylogo": False,
    "doubleClick": False,
    "scrollZoom": True,
    "showSendToCloud": False,
    "plotlyServerURL": "",
    "toImageButtonOptions": {"format": "png", "filename": "svm_lab", "scale": 2},
    "modeBarButtonsToRemove": ["select2d", "lasso2d", "autoScale2d", "sendChartToCloud"],
}
CLOUD_BUTTONS = ("sendChartToCloud", "sendDataToCloud")


def no_cloud(config: Mapping[str, Any] | None) -> dict:
    """A copy of a plotly ``config`` that can send nothing to Plotly's cloud: no "Share"
    button (``showSendToCloud`` off, its buttons removed and never added, no server to send
    to). Every config handed to Plotly passes here."""
    out = dict(config or {})
    remove = list(out.get("modeBarButtonsToRemove") or [])
    out["modeBarButtonsToRemove"] = remove + [b for b in CLOUD_BUTTONS if b not in remove]
    if "modeBarButtonsToAdd" in out:
        out["modeBarButtonsToAdd"] = [b for b in out["modeBarButtonsToAdd"]
                                      if b not in CLOUD_BUTTONS]
    out["showSendToCloud"] = False
    out["plotlyServerURL"] = ""  # and should one appear anyway, it has nowhere to send to
    return out
