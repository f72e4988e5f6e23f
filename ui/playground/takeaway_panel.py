"""The Playground's "Take the model away" block (in the Import / export panel): the model as
JSON (a download) and as scikit-learn code (``st.code``, with its copy button). Built only
when the panel is open; the fit runs in a budget worker and its files are cached as a pure
result of the points and settings."""

from __future__ import annotations

import numpy as np
import streamlit as st

from ui.playground import takeaway, teacher
from ui.serving import budget
from ui.shared import state
from ui.shared.settings import settings_key

ESTIMATOR_WORDS = {
    "SVC": "scikit-learn's `SVC` solves the same problem",
    "LinearSVC": "scikit-learn's `LinearSVC` solves the same problem",
    "RidgeClassifier": "scikit-learn's `RidgeClassifier` solves the same problem",
    "none": "scikit-learn has no estimator for this model: the code rebuilds h from the "
            "fitted coefficients instead of refitting",
}

HIDDEN_TEXT = ("Hidden by your teacher: the model's file and code hold its numbers "
               "(α for every point, b). Predict first.")


@st.cache_data(max_entries=32, show_spinner="Fitting the model to export …")
def cached_takeaway(xb: bytes, yb: bytes, skey: tuple, title: str) -> takeaway.Takeaway:
    """``takeaway.build`` in a worker within the fit budget (``budget.Stopped`` is raised,
    never cached)."""
    X = np.frombuffer(xb, dtype=np.float64).reshape(-1, 2)
    y = np.frombuffer(yb, dtype=np.int64)
    settings = dict(skey)
    return budget.run("fit", takeaway.build, (X, y, settings, title), settings=settings,
                      n=len(X), refuse=False)


def model_export(ss) -> None:
    st.markdown("**Take the model away**")
    if not (teacher.shows(ss, "numbers") and teacher.shows(ss, "table")):
        # the file and the code hold α for every point and b: the answers the teacher hid
        st.info(HIDDEN_TEXT)
        return
    X, y, title = state.current_dataset(ss)
    skey = settings_key(state.current_settings(ss))
    try:
        t = cached_takeaway(np.ascontiguousarray(X, dtype=np.float64).tobytes(),
                            np.ascontiguousarray(y, dtype=np.int64).tobytes(), skey, str(title))
    except budget.Stopped as exc:
        st.error(str(exc))
        return
    if t.error:
        st.info(f"No model to export: {t.error}")
        return
    stem = takeaway.file_stem(title)
    st.download_button("Download the model (JSON)", t.json_text, file_name=f"{stem}.json",
                       mime="application/json", on_click="ignore",
                       icon=":material/download:", key=state.Playground.widget_key("model_json"))
    st.caption("Settings (kernel and its parameters, loss, C, bias, solver), α for every point, "
               "b, w (linear kernel), the support vectors with their labels, the points and "
               "whether the fit converged. `svm_engine.export.from_json` reads it back."
               + ("" if t.converged else " This fit did **not** converge: the file says so."))
    st.markdown(f"**As scikit-learn code** — {ESTIMATOR_WORDS[t.estimator]}. Copy it with the "
                "button at the code's top right; run it, and it prints how far its h(x) is "
                "from this model's on the points.")
    st.code(t.code, language="python", height=320)
