"""App start-up chores (called from ``app.py`` on every run; each does its work once).

- ``ensure_plotly_js``: the click canvas loads Plotly.js from the app's static folder
  (``server.enableStaticServing``), so copy ``plotly.min.js`` from the plotly package there.
- ``freeze_gc_once``: Streamlit runs a full garbage collection after every script run, also
  after each fragment rerun triggered by a click. With numpy/pandas/plotly/scipy/numba loaded
  that scans ~1.6 million objects (~80 ms, holding the GIL, so finished output waits). Freezing
  the objects that exist after start-up (``gc.freeze()``, once per process) leaves the
  collection only the objects made since: ~1 ms. "Once" is the process's own record
  (``gc.get_freeze_count()``), not only a flag of this module: Streamlit re-imports a module
  whose file changed, and sessions run app.py in parallel threads. But that count walks the
  whole frozen list (the ~1.6 million objects: ~20 ms holding the GIL, on every click), so
  it is asked once per import of this module; after that the module's flag answers.
"""

from __future__ import annotations

import gc
import shutil
import threading
from pathlib import Path

import plotly

_freeze_lock = threading.Lock()
_frozen = False  # this import of the module saw the process frozen (a re-import starts over)


def plotly_js_source() -> Path:
    return Path(plotly.__file__).resolve().parent / "package_data" / "plotly.min.js"


def ensure_plotly_js(static_dir: str | Path) -> Path:
    """Copy plotly.min.js into ``static_dir`` unless an identical-size copy is there.
    Returns the destination. Raises OSError if it cannot be written."""
    src = plotly_js_source()
    dst = Path(static_dir) / "plotly.min.js"
    if dst.is_file() and dst.stat().st_size == src.stat().st_size:
        return dst
    dst.parent.mkdir(parents=True, exist_ok=True)
    tmp = dst.with_name(dst.name + ".tmp")
    shutil.copyfile(src, tmp)
    tmp.replace(dst)  # atomic: a concurrent session never sees half a file
    return dst


def freeze_gc_once() -> bool:
    """``gc.freeze()`` the start-up objects, once per process. Returns True the first time."""
    global _frozen
    if _frozen:
        return False
    with _freeze_lock:
        if _frozen:
            return False
        _frozen = True
        if gc.get_freeze_count():  # frozen already in this process (before a re-import)
            return False
        gc.collect()
        gc.freeze()
    return True
