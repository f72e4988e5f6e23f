"""The engine never imports the UI's libraries (the project's standard: svm_engine/ never
imports streamlit or plotly), checked in a fresh interpreter, where nothing else loaded them."""

import json
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
UI_LIBRARIES = ("streamlit", "plotly")


def loaded_after(code: str) -> list[str]:
    probe = (f"{code}\nimport json, sys\n"
             f"print(json.dumps(sorted({{m.split('.')[0] for m in sys.modules}} & "
             f"{set(UI_LIBRARIES)!r})))")
    done = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True,
                          cwd=ROOT, timeout=120)
    assert done.returncode == 0, done.stderr[-2000:]
    return json.loads(done.stdout.strip().splitlines()[-1])


def test_import_svm_engine_loads_neither_streamlit_nor_plotly():
    assert loaded_after("import svm_engine as se\nse.fit(se.datasets.d1().X, "
                        "se.datasets.d1().y)") == []


def test_the_probe_sees_them_when_they_are_loaded():
    """The check itself: a module that does import them is seen (else it proves nothing)."""
    assert loaded_after("import plotly.graph_objects, streamlit") == sorted(UI_LIBRARIES)
