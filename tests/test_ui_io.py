"""ui.io: CSV and LIBSVM import/export, validated."""

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from svm_engine import datasets
from ui import io as pio
from ui.io import PointsFileError


def test_csv_round_trip_is_exact():
    d = datasets.moons(40, 0.3, 1)
    X, y = pio.parse_csv(pio.to_csv(d.X, d.y))
    np.testing.assert_array_equal(X, d.X)
    np.testing.assert_array_equal(y, d.y)


def test_libsvm_round_trip_is_exact():
    d = datasets.d2()
    text = pio.to_libsvm(d.X, d.y)
    assert text.splitlines()[0] == "+1 1:3.5 2:4.25"
    X, y = pio.parse_libsvm(text)
    np.testing.assert_array_equal(X, d.X)
    np.testing.assert_array_equal(y, d.y)


@settings(max_examples=50, deadline=None)
@given(
    st.lists(
        st.tuples(
            st.floats(-1e9, 1e9, allow_nan=False),
            st.floats(-1e9, 1e9, allow_nan=False),
        ),
        min_size=2,
        max_size=30,
    )
)
def test_round_trips_property(coords):
    X = np.array(coords, dtype=float)
    y = np.array([1, -1] * (len(X) // 2) + [1] * (len(X) % 2))
    for dump, load in ((pio.to_csv, pio.parse_csv), (pio.to_libsvm, pio.parse_libsvm)):
        X2, y2 = load(dump(X, y))
        np.testing.assert_array_equal(X2, X)
        np.testing.assert_array_equal(y2, y)


def test_csv_accepts_headers_separators_and_label_styles():
    X, y = pio.parse_csv("a;b;class\n1;2;cat\n3;4;dog\n")
    np.testing.assert_array_equal(X, [[1, 2], [3, 4]])
    np.testing.assert_array_equal(y, [-1, 1])  # text labels: sorted, first -> -1
    _, y = pio.parse_csv("\ufeffx1\tx2\ty\n1\t2\t1\n3\t4\t0\n")
    np.testing.assert_array_equal(y, [1, -1])  # numeric: smaller -> -1
    _, y = pio.parse_csv(b"# comment\n1,2,2\n\n3,4,1\n")
    np.testing.assert_array_equal(y, [1, -1])


def test_libsvm_svm_toy_labels_and_sparse_zeros():
    X, y = pio.parse_libsvm("1 1:0.2 2:0.7\n2 2:0.5  # comment\n")
    np.testing.assert_array_equal(X, [[0.2, 0.7], [0.0, 0.5]])
    np.testing.assert_array_equal(y, [-1, 1])


@pytest.mark.parametrize(
    "text, word",
    [
        ("", "empty"),
        ("1 2 3\n", "three columns"),
        ("1,2\n3,4\n", "three columns"),
        ("1,2,1\n3,4\n", "line 2"),
        ("1,2,1\n3,x,-1\n", "line 2: x2 'x' is not a number"),
        ("1,nan,1\n3,4,-1\n", "not a number"),
        ("1,inf,1\n3,4,-1\n", "not a number"),
        ("1,1e999,1\n3,4,-1\n", "not a finite number"),
        ("1,2,1\n3,4,1\n", "two classes, found 1"),
        ("1,2,a\n3,4,b\n5,6,c\n", "two classes, found 3"),
        ("1,2,1\n3,4,1.0\n", "same number"),
        ("1,2,__import__('os')\n3,4,1\n", "should be a number or a short name"),
        ("x1,x2,y\n", "no points"),
    ],
)
def test_csv_errors_name_the_problem(text, word):
    with pytest.raises(PointsFileError, match=word):
        pio.parse_csv(text)


@pytest.mark.parametrize(
    "text, word",
    [
        ("", "no points"),
        ("a 1:2 2:3\n1 1:0 2:0\n", "label 'a'"),
        ("1 1:2 3:3\n-1 1:0\n", "index '3'"),
        ("1 1:2 1:3\n-1 1:0\n", "given twice"),
        ("1 1=2\n-1 1:0\n", "index:value"),
        ("1 1:x\n-1 1:0\n", "not a number"),
        ("1 1:1\n1 1:0\n", "two classes"),
    ],
)
def test_libsvm_errors_name_the_problem(text, word):
    with pytest.raises(PointsFileError, match=word):
        pio.parse_libsvm(text)


def test_caps_on_size_rows_and_bytes():
    with pytest.raises(PointsFileError, match="too large"):
        pio.parse_csv(b"1,2,1\n" * (pio.MAX_UPLOAD_BYTES // 6 + 10))
    rows = "".join(f"{i},{i},{i % 2}\n" for i in range(2001))
    with pytest.raises(PointsFileError, match="too many points"):
        pio.parse_csv(rows)
    with pytest.raises(PointsFileError, match="too many points"):
        pio.parse_libsvm("".join(f"{i % 2} 1:{i}\n" for i in range(2001)))
    with pytest.raises(PointsFileError, match="UTF-8"):
        pio.parse_csv(b"\xff\xfe1,2,1")
    with pytest.raises(PointsFileError, match="not text"):
        pio.parse_csv(b"1,2,1\x00\n")


def test_parse_points_picks_the_format():
    assert pio.parse_points("a.csv", "1,2,1\n3,4,-1\n")[0].shape == (2, 2)
    assert pio.parse_points("a.libsvm", "1 1:2\n-1 2:4\n")[0].shape == (2, 2)
    assert pio.parse_points("a.txt", "1 1:2\n-1 2:4\n")[0].shape == (2, 2)
    assert pio.parse_points("a.txt", "1,2,1\n3,4,-1\n")[0].shape == (2, 2)
