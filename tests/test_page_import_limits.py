"""Issue 33 item 5 on the Playground: a CSV with a value longer than Python csv's field limit
(131,072 characters) crashed the import with csv's own error (a traceback, the plot gone).
Now it is an error naming the line, and the points are kept."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from streamlit.testing.v1 import AppTest

from ui.shared.session import shared

PAGE = str(Path(__file__).resolve().parents[1] / "pages" / "1_playground.py")


@pytest.mark.parametrize("content, line", [
    ("x1,x2,y\n1,2,a\n3,4,b\n5,6," + "a" * 131_073 + "\n", 4),
    ('x1,x2,y\n1,2,a\n3,4,"' + "a" * 100_000 + "\n" + "b" * 100_000 + '"\n5,6,b\n', 4),
])
def test_a_field_over_csvs_limit_is_an_error_naming_the_line_and_the_points_are_kept(content,
                                                                                     line):
    at = AppTest.from_file(PAGE, default_timeout=120).run()
    at.segmented_control(key="pg.panel").set_value("Import / export")
    at.run()
    before = np.asarray(shared(at.session_state).X).copy()
    (up,) = [u for u in at.file_uploader if str(u.key).startswith("pg.upload.")]
    up.set_value(("long.csv", content.encode(), "text/csv"))
    at.run()
    assert not at.exception, [e.value for e in at.exception]
    (err,) = [e.value for e in at.error if "Could not import" in e.value]
    assert f"line {line}" in err and "131,072 characters" in err and "points are kept" in err
    np.testing.assert_array_equal(np.asarray(shared(at.session_state).X), before)
    assert at.get("bidi_component")  # the plot is still drawn
