"""The engine never imports the UI's libraries (the project's standard: svm_engine/ never
imports streamlit or plotly), checked in a fresh interpreter, where nothing else loaded them."""

import json
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
UI_LIBRARIES = ("streamlit", "plotly")

PROBE = f"""
import json, sys

def seen():
    print(json.dumps(sorted({{m.split(".")[0] for m in sys.modules}} & {set(UI_LIBRARIES)!r})))

import svm_engine as se
d = se.datasets.d1()
se.fit(d.X, d.y)
seen()
import plotly.graph_objects, streamlit
seen()
"""


def test_import_svm_engine_loads_neither_streamlit_nor_plotly():
    done = subprocess.run([sys.executable, "-c", PROBE], capture_output=True, text=True,
                          cwd=ROOT, timeout=120)
    assert done.returncode == 0, done.stderr[-2000:]
    engine, ui = (json.loads(line) for line in done.stdout.strip().splitlines()[-2:])
    assert engine == []
    assert ui == sorted(UI_LIBRARIES)   # the probe sees them once they are loaded (it can fail)
