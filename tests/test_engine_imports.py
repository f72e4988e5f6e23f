"""The engine never imports the UI's libraries (the project's standard: svm_engine/ never
imports streamlit or plotly), and loads scikit-learn only for its facade (se.SVC), checked in
one fresh interpreter, where nothing else loaded them."""

import json
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
UI_LIBRARIES = ("streamlit", "plotly")
WATCHED = (*UI_LIBRARIES, "sklearn")

PROBE = f"""
import json, sys

def seen():
    print(json.dumps(sorted({{m.split(".")[0] for m in sys.modules}} & {set(WATCHED)!r})))

import svm_engine as se
d = se.datasets.d1()
se.fit(d.X, d.y)
seen()
se.SVC
seen()
import plotly.graph_objects, streamlit
seen()
"""


def test_import_svm_engine_loads_no_ui_library_and_scikit_learn_only_for_svc():
    done = subprocess.run([sys.executable, "-c", PROBE], capture_output=True, text=True,
                          cwd=ROOT, timeout=120)
    assert done.returncode == 0, done.stderr[-2000:]
    engine, facade, ui = (json.loads(line) for line in done.stdout.strip().splitlines()[-3:])
    assert engine == []
    assert facade == ["sklearn"]        # loaded by the first use of se.SVC, not before
    assert ui == sorted(WATCHED)        # the probe sees them once they are loaded (it can fail)
