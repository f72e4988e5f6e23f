"""Issue 33 item 4: a shared link's numbers cannot put a traceback on the Playground. moons at
noise=1e308 made infinite coordinates (a ValueError outside restore_from_query's LinkError),
noise=3 and n=5 values the sidebar's sliders refuse with an exception. Each now gives the
link's message and the default example."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from streamlit.testing.v1 import AppTest

from svm_engine import datasets
from ui.shared.session import shared

PAGE = str(Path(__file__).resolve().parents[1] / "pages" / "1_playground.py")


@pytest.mark.parametrize("query, why", [
    ({"d": "moons", "noise": "1e308"}, "noise=1·10³⁰⁸ is not between 0 and 2"),
    ({"d": "moons", "noise": "3"}, "noise=3 is not between 0 and 2"),
    ({"d": "moons", "n": "5"}, "n=5 is not between 10 and 2000"),
    ({"d": "circles", "factor": "inf"}, "factor='inf' should be a finite number"),
    ({"d": "d1", "k": "gaussian", "s": "1e308"}, "sigma must be a number between"),
])
def test_a_link_with_numbers_out_of_range_shows_a_message_and_the_default(query, why):
    at = AppTest.from_file(PAGE, default_timeout=120)
    at.query_params.update({"v": "1", **query})
    at.run()
    assert not at.exception, [e.value for e in at.exception]
    (warning,) = [w.value for w in at.warning if "could not be opened" in w.value]
    assert why in warning and "Showing the default example instead" in warning
    assert "Traceback" not in warning
    np.testing.assert_array_equal(np.asarray(shared(at.session_state).X), datasets.d1().X)
