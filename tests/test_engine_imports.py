"""The engine never imports the UI's libraries (the project's standard: svm_engine/ never
imports streamlit or plotly), and tries scikit-learn only for its facade (se.SVC), checked in
one fresh interpreter in which the three are refused and every attempt is recorded
(tests/fresh_python.py)."""

from tests import fresh_python

UI_LIBRARIES = ("streamlit", "plotly")
WATCHED = (*UI_LIBRARIES, "sklearn")

PROBE = """
import json
import svm_engine as se

d = se.datasets.d1()
se.fit(d.X, d.y)
engine = tried()
try:
    se.SVC
    svc = "loaded"
except ImportError as exc:
    svc = str(exc)
facade = tried()
for name in ("plotly.graph_objects", "streamlit"):
    try:
        __import__(name)
    except ImportError:
        pass
print(json.dumps([engine, facade, tried(), svc]))
"""


def test_import_svm_engine_tries_no_ui_library_and_scikit_learn_only_for_svc():
    engine, facade, ui, svc = fresh_python.run(PROBE, blocked=WATCHED)
    assert engine == []
    assert facade == ["sklearn"]        # tried by the first use of se.SVC, not before
    assert "needs scikit-learn" in svc  # and refused, so the facade says what to install
    assert ui == sorted(WATCHED)        # the probe sees an import when there is one (it can fail)
