"""ui.data.io: import of real files (CSV by pandas, svmlight by scikit-learn) and export.

The files are made by the tools people use: `DataFrame.to_csv` with its options and
`sklearn.datasets.dump_svmlight_file`; the points read back must be exactly theirs.
"""

import csv
import io

import numpy as np
import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from sklearn.datasets import dump_svmlight_file

from svm_engine import datasets
from tests import fresh_python
from ui.data import io as pio
from ui.data.io import PointsFileError
from ui.shared.points import MAX_POINTS


def table_and_choice(name, data):
    t = pio.read_upload(name, data)
    return t, pio.default_choice(t)


def frame(n=12, seed=0, labels=("Iris setosa", "Iris versicolor")):
    rng = np.random.default_rng(seed)
    lab = np.array(labels)[np.arange(n) % len(labels)]
    return pd.DataFrame({"species": lab, "x1": rng.normal(size=n).round(6),
                         "x2": (rng.normal(size=n) * 1e3).round(3)})


def to_bytes(df, **kw) -> bytes:
    buf = io.BytesIO()
    df.to_csv(buf, **kw)
    return buf.getvalue()


# -- export, and what it writes reads back exactly -------------------------------------


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


# -- CSV written by pandas ---------------------------------------------------------------


@pytest.mark.parametrize("name, kw", [
    ("a.csv", {"index": False}),
    ("a.csv", {"index": False, "encoding": "utf-8-sig"}),               # BOM (Excel)
    ("a.csv", {"index": False, "encoding": "utf-16"}),                  # UTF-16 with BOM
    ("a.csv", {"index": False, "encoding": "utf-16-le"}),               # … and without
    ("a.csv", {"index": False, "sep": ";", "decimal": ","}),            # European Excel
    ("a.tsv", {"index": False, "sep": "\t", "decimal": ","}),
    ("a.txt", {"index": False, "sep": " "}),                            # quoted "Iris setosa"
    ("a.csv", {"index": False, "lineterminator": "\r\n"}),
    ("a.csv", {"index": False, "quoting": csv.QUOTE_ALL}),
    ("a.csv", {"index": False, "sep": "|"}),
    ("a.csv", {}),                                                      # pandas' row numbers
    ("a.csv", {"index_label": "id"}),
])
def test_label_first_csv_from_pandas_is_read_by_its_names(name, kw):
    df = frame()
    table, choice = table_and_choice(name, to_bytes(df, **kw))
    assert table.columns[choice.label] == "species"
    assert (table.columns[choice.x1], table.columns[choice.x2]) == ("x1", "x2")
    assert not pio.needs_choice(table, choice)         # x1, x2, label and row numbers only
    X, y = pio.points_from(table, choice)
    np.testing.assert_array_equal(X, df[["x1", "x2"]].to_numpy())
    np.testing.assert_array_equal(y, np.where(df.species == "Iris versicolor", 1, -1))


def test_the_issue_file_y_x1_x2_is_not_read_as_x1_x2_y():
    X, y = pio.parse_csv("y,x1,x2\n1,0.5,2.5\n-1,3.0,-1.0\n1,0.25,4.0\n")
    np.testing.assert_array_equal(X, [[0.5, 2.5], [3.0, -1.0], [0.25, 4.0]])
    np.testing.assert_array_equal(y, [1, -1, 1])


def test_headerless_files_keep_the_x1_x2_label_order_or_find_the_text_label():
    X, y = pio.parse_csv("1,2,2\n3,4,1\n")
    np.testing.assert_array_equal(X, [[1, 2], [3, 4]])
    np.testing.assert_array_equal(y, [1, -1])          # numeric labels: the smaller → −1
    X, y = pio.parse_csv("cat,1,2\ndog,3,4\n")
    np.testing.assert_array_equal(X, [[1, 2], [3, 4]])
    np.testing.assert_array_equal(y, [-1, 1])          # text labels: sorted, first → −1


def test_comments_blank_lines_and_a_trailing_delimiter():
    X, y = pio.parse_csv(b"# made by hand\n\nx1,x2,y,\n1,2,a,\n\n3,4,b,\n")
    np.testing.assert_array_equal(X, [[1, 2], [3, 4]])
    np.testing.assert_array_equal(y, [-1, 1])


def test_text_labels_are_text_never_evaluated():
    X, y = pio.parse_csv("a,b,label\n1,2,__import__('os')\n3,4,\"x, y\"\n")
    np.testing.assert_array_equal(y, [-1, 1])          # '_' sorts before 'x'


def test_pandas_default_column_names_are_a_header():
    df = pd.DataFrame([[0.5, 1.5, 0], [2.5, 3.5, 1], [1.0, 0.0, 1]])
    X, y = pio.parse_csv(to_bytes(df))                 # ",0,1,2" then row numbers
    np.testing.assert_array_equal(X, df[[0, 1]].to_numpy())
    np.testing.assert_array_equal(y, [-1, 1, 1])
    wide = pd.DataFrame(np.arange(12.0).reshape(4, 3) / 4)
    wide["label"] = ["a", "b", "a", "b"]
    table, choice = table_and_choice("w.csv", to_bytes(wide, index=False))   # 0,1,2,label
    assert table.header and table.columns == ("0", "1", "2", "label") and table.n_rows == 4
    assert (choice.x1, choice.x2, choice.label) == (0, 1, 3)
    # a first row of data that merely starts 0, 1 stays data
    X, _ = pio.parse_csv("0,1,cat\n1,0,dog\n")
    np.testing.assert_array_equal(X, [[0, 1], [1, 0]])


def iris_like() -> pd.DataFrame:
    rng = np.random.default_rng(4)
    n = 30
    return pd.DataFrame({
        "sepal_length": rng.uniform(4, 8, n).round(1), "sepal_width": rng.uniform(2, 4, n).round(1),
        "petal_length": rng.uniform(1, 7, n).round(1), "petal_width": rng.uniform(0, 3, n).round(1),
        "species": np.array(["setosa", "versicolor", "virginica"])[np.arange(n) % 3]})


def test_a_five_column_three_class_file_waits_for_a_choice():
    df = iris_like()
    table, choice = table_and_choice("iris.csv", to_bytes(df, index=False))
    assert pio.needs_choice(table, choice)
    assert table.columns == tuple(df.columns)
    assert (choice.x1, choice.x2, choice.label) == (0, 1, 4)   # first two numeric, by name
    assert pio.label_classes(table, 4) == ["setosa", "versicolor", "virginica"]
    assert (choice.negative, choice.positive) == ("setosa", "versicolor")
    picked = pio.Choice(x1=2, x2=3, label=4, negative="virginica", positive="versicolor")
    X, y = pio.points_from(table, picked)
    keep = df.species.isin(["versicolor", "virginica"]).to_numpy()
    np.testing.assert_array_equal(X, df[["petal_length", "petal_width"]].to_numpy()[keep])
    np.testing.assert_array_equal(y, np.where(df.species[keep] == "versicolor", 1, -1))
    assert "10 rows of other classes left out" in pio.describe(table, picked, len(y))
    with pytest.raises(PointsFileError, match=r"need exactly two classes, found 3 in column "
                                              r"'species'"):
        pio.parse_csv(to_bytes(df, index=False))   # without a choice: refused, not guessed


@pytest.mark.parametrize("kw", [{"index": False}, {}, {"index_label": "id"},
                                {"quoting": csv.QUOTE_ALL}])
def test_a_decimal_comma_from_pandas_is_read_in_comma_separated_files_too(kw):
    """`to_csv(decimal=",")` keeps the comma as separator and quotes every number that has a
    decimal comma ("1,5"): those are the numbers, exactly (they were refused as text)."""
    rng = np.random.default_rng(2)
    df = pd.DataFrame({"x1": rng.normal(size=9).round(4), "x2": rng.normal(size=9) * 1e-5,
                       "label": np.array(["a b", "c"])[np.arange(9) % 2]})
    df.loc[0, "x1"] = 3.0                               # written as "3,0"
    data = to_bytes(df, decimal=",", **kw)
    assert b'"3,0"' in data                            # comma-separated, the numbers quoted
    table, choice = table_and_choice("eu.csv", data)
    assert "decimal comma" in table.notes
    X, y = pio.points_from(table, choice)
    np.testing.assert_array_equal(X, df[["x1", "x2"]].to_numpy())
    np.testing.assert_array_equal(y, np.where(df.label == "c", 1, -1))


def test_an_unclosed_quote_in_a_pandas_file_names_its_line():
    """pandas quotes a label with a comma or a line break (a value over two lines); one quote
    removed, the refusal names the file's line of the opening quote, not pandas' row."""
    df = frame(n=8, labels=("two\nlines", "a, b"))
    text = to_bytes(df, index=False).decode()
    lines = text.split("\n")
    bad = max(i for i, ln in enumerate(lines) if ln.startswith('"a, b"'))  # the last such row
    lines[bad] = lines[bad].replace('"a, b"', '"a, b', 1)
    with pytest.raises(PointsFileError) as err:
        pio.parse_csv("\n".join(lines))
    assert str(err.value).startswith(f'line {bad + 1}: a quote (") opens a value that is never')
    assert pio.parse_csv(text)[0].shape == (8, 2)       # undamaged, it reads


def test_numeric_labels_and_a_label_column_by_its_name():
    df = pd.DataFrame({"a": [1.0, 2.0, 3.0, 4.0], "target": [2, 0, 1, 0], "b": [5, 6, 7, 8],
                       "c": [0.1, 0.2, 0.3, 0.4]})
    table, choice = table_and_choice("t.csv", to_bytes(df, index=False))
    assert table.columns[choice.label] == "target"
    assert pio.label_classes(table, choice.label) == [0.0, 1.0, 2.0]
    assert (choice.x1, choice.x2) == (0, 2)
    X, y = pio.points_from(table, choice)             # classes 0 (−1) and 1 (+1)
    np.testing.assert_array_equal(X, [[2.0, 6.0], [3.0, 7.0], [4.0, 8.0]])
    np.testing.assert_array_equal(y, [-1, 1, -1])


# -- svmlight written by scikit-learn ----------------------------------------------------


def svm_data(d=2, n=10, classes=(0, 1), seed=1):
    rng = np.random.default_rng(seed)
    X = rng.normal(size=(n, d)).round(6)
    X[rng.random(size=X.shape) < 0.2] = 0.0           # sparse: zeros are not written
    return X, np.array(classes)[np.arange(n) % len(classes)]


@pytest.mark.parametrize("zero_based", [True, False])
@pytest.mark.parametrize("name", ["a.svmlight", "a.libsvm", "a.txt", "a.dat"])
def test_svmlight_from_scikit_learn_with_comment_and_qid(zero_based, name):
    X, y = svm_data()
    buf = io.BytesIO()
    dump_svmlight_file(X, y, buf, zero_based=zero_based, comment="two moons\nby a test",
                       query_id=np.arange(len(y)) // 3)
    assert buf.getvalue().startswith(b"# ")          # a .txt starting with a comment too
    table, choice = table_and_choice(name, buf.getvalue())
    base = 0 if zero_based else 1
    assert table.columns == ("label", f"feature {base}", f"feature {base + 1}")
    assert not pio.needs_choice(table, choice)
    X2, y2 = pio.points_from(table, choice)
    np.testing.assert_array_equal(X2, X)
    np.testing.assert_array_equal(y2, np.where(y == 1, 1, -1))


def test_svmlight_with_more_features_and_classes_lets_the_user_choose():
    X, y = svm_data(d=5, n=12, classes=(3, 1, 2))
    buf = io.BytesIO()
    dump_svmlight_file(X, y, buf, zero_based=False)
    table, choice = table_and_choice("w.libsvm", buf.getvalue())
    assert pio.needs_choice(table, choice)
    assert table.columns == ("label", *(f"feature {k}" for k in range(1, 6)))
    assert (choice.x1, choice.x2, choice.label) == (1, 2, 0)
    assert pio.label_classes(table, 0) == [1.0, 2.0, 3.0]
    X2, y2 = pio.points_from(table, pio.Choice(x1=5, x2=3, label=0, negative=3.0, positive=2.0))
    keep = y != 1
    np.testing.assert_array_equal(X2, X[keep][:, [4, 2]])
    np.testing.assert_array_equal(y2, np.where(y[keep] == 2, 1, -1))


def test_parse_points_refuses_a_wider_file_instead_of_taking_its_first_features():
    """Without a choice, more features than x1 and x2 are refused by name (the Import panel
    asks for them); the first two were taken silently."""
    X, y = svm_data(d=5, n=12, classes=(1, 2))
    buf = io.BytesIO()
    dump_svmlight_file(X, y, buf)
    with pytest.raises(PointsFileError, match=r"need exactly two coordinates besides the label "
                                              r"'label', found 5: 'feature 0', 'feature 1'"):
        pio.parse_points("w.svmlight", buf.getvalue())
    df = frame()
    df["x3"] = 1.0
    with pytest.raises(PointsFileError, match=r"found 3: 'x1', 'x2', 'x3'; choose x1 and x2"):
        pio.parse_csv(to_bytes(df))                    # pandas' row numbers aside


def test_svm_toy_files_and_unwritten_features():
    X, y = pio.parse_libsvm("1 1:0.2 2:0.7\n2 2:0.5  # comment\n")
    np.testing.assert_array_equal(X, [[0.2, 0.7], [0.0, 0.5]])
    np.testing.assert_array_equal(y, [-1, 1])
    X, y = pio.parse_libsvm("+1 1:2\n-1 1:0.5\n")     # feature 2 is 0 everywhere
    np.testing.assert_array_equal(X, [[2, 0], [0.5, 0]])


# -- refusals name the line (or the column) and the problem ------------------------------


@pytest.mark.parametrize("text, message", [
    ("", "the file is empty"),
    ("# only a comment\n\n", "the file is empty"),
    ("x1,x2,y\n", "no points (only a header line)"),
    ("1,2\n3,4\n", "need three columns (x1, x2 and a label), found 2"),
    ("x1,x2,y\n1,2,a\n3,4,b,5\n", "line 3: 4 values, but the first line has 3"),
    ("x1,x2,y\n1,2,a\n3,x,b\n", "line 3: x2 (column 'x2'): 'x' is not a number"),
    ("x1,x2,y\n1,2,a\n\n# c\n3,,b\n", "line 5: x2 (column 'x2') is empty"),
    ("1,nan,1\n3,4,-1\n", "line 1: x2 (column 'column 2'): 'nan' is not a number"),
    ("1,2,1\n3,1e999,-1\n", "line 2: x2 (column 'column 2'): 'inf' is not a finite number"),
    ("x1,x2,y\n1,2,a\n3,4\n", "line 3: the label (column 'y') is empty"),
    ("x1,x2,y\n1,2,1\n3,4,1.0\n", "need two classes, found 1 in column 'y': '1'"),
    ("x1,x2,y\n1,2,1\n3,4,1e999\n", "line 3: the label inf (column 'y') is not a finite number"),
    ("a,b,c\n" + "".join(f"{i},{i},{i}\n" for i in range(60)),
     "column 'c' has 60 different values; a label column has a few classes"),
    ('x1,x2,y\n1,2,"open\n', 'line 2: a quote (") opens a value that is never closed'),
    ('# c\nx1;x2;y\n\n1;2;a\n3;"4;b\n', 'line 5: a quote (") opens a value that is never closed'),
])
def test_csv_refusals_name_the_line_and_the_problem(text, message):
    with pytest.raises(PointsFileError) as err:
        pio.parse_points("f.csv", text)
    assert message in str(err.value)


@pytest.mark.parametrize("text, message", [
    ("", "the file has no points"),
    ("1 1:2\na 1:2 2:3\n", "line 2: the label 'a' is not a number"),
    ("1 1:2\n1,2 1:2\n", "line 2: the label '1,2' is several labels (multi-label)"),
    ("# c\n1 1=2\n-1 1:0\n", "line 2: '1=2' is not index:value"),
    ("1 1:x\n-1 1:0\n", "line 1: feature 1: 'x' is not a number"),
    ("1 2:1 1:3\n-1 1:0\n", "line 1: feature 1 comes after feature 2"),
    ("1 1:2 1:3\n-1 1:0\n", "line 1: feature 1 is given twice"),
    ("1 1.5:2\n-1 1:0\n", "line 1: the feature index '1.5' is not a whole number"),
    ("1 1:1 2:1\n-1 1:nan 2:0\n", "line 2: x1 (column 'feature 1'): 'nan' is not a finite number"),
    ("1 1:1\n1 1:0\n", "need two classes, found 1 in column 'label'"),
    ("1 1:1\n2 1:0\n3 1:5\n", "need exactly two classes, found 3 in column 'label'"),
])
def test_svmlight_refusals_name_the_line_and_the_problem(text, message):
    with pytest.raises(PointsFileError) as err:
        pio.parse_points("f.svmlight", text)
    assert message in str(err.value)


def test_a_bad_choice_is_refused_by_name():
    df = iris_like()
    table, _ = table_and_choice("iris.csv", to_bytes(df, index=False))
    w0, w1 = pio.label_classes(table, 3)[:2]           # petal widths as classes, why not
    line = int(np.flatnonzero(df.petal_width.isin([w0, w1]))[0]) + 2   # after the header
    for choice, message in (
        (pio.Choice(0, 0, 4, "setosa", "virginica"),
         "x1 and x2 are the same column 'sepal_length'"),
        (pio.Choice(0, 1, 1, 2.5, 3.0), "the label column 'sepal_width' is also a coordinate"),
        (pio.Choice(0, 1, 4, "setosa", "rose"), "column 'species' has no class 'rose'"),
        (pio.Choice(0, 1, 4, "setosa", "setosa"), "the two classes are the same ('setosa')"),
        (pio.Choice(0, 4, 3, w0, w1),
         f"line {line}: x2 (column 'species'): 'setosa' is not a number"),
    ):
        with pytest.raises(PointsFileError) as err:
            pio.points_from(table, choice)
        assert message in str(err.value)


def test_caps_on_bytes_rows_and_encodings():
    with pytest.raises(PointsFileError, match="too large"):
        pio.parse_csv(b"1,2,1\n" * (pio.MAX_UPLOAD_BYTES // 6 + 10))
    rows = "".join(f"{i},{i},{i % 2}\n" for i in range(MAX_POINTS + 1))
    with pytest.raises(PointsFileError, match=f"too many points: more than {MAX_POINTS} rows"):
        pio.parse_csv(rows)
    with pytest.raises(PointsFileError, match="too many points"):
        pio.parse_libsvm("".join(f"{i % 2} 1:{i}\n" for i in range(MAX_POINTS + 1)))
    with pytest.raises(PointsFileError, match="not UTF-16 text"):
        pio.parse_csv(b"\xff\xfe1,2,1")                # a UTF-16 BOM, then an odd byte count
    with pytest.raises(PointsFileError, match="not text"):
        pio.parse_csv(b"1,2,1\x00\n\x89PNG\x00\x00\x01")
    with pytest.raises(PointsFileError, match="at most 100"):
        pio.parse_csv(",".join(["1"] * 101) + "\n")
    # Windows-1252 (Excel's "CSV" on Windows): a text label with an umlaut
    X, y = pio.parse_csv("x1;x2;Klasse\n1,5;2;Größe\n3;4;klein\n".encode("cp1252"))
    np.testing.assert_array_equal(X, [[1.5, 2], [3, 4]])
    np.testing.assert_array_equal(y, [-1, 1])


def test_messages_are_made_literal_for_markdown():
    text = pio.markdown_safe("Could not import ![x](http://host/p.png): `a_b` <b>$x$</b>\n*")
    assert "![" not in text and "](" not in text.replace("\\]", "")
    # the bare address gets an invisible word joiner: markdown would link it
    assert text == ("Could not import !\\[x\\](http:\u2060//host/p.png): \\`a\\_b\\` "
                    "\\<b\\>\\$x\\$\\</b\\> \\*")


@pytest.mark.parametrize("text, line", [
    # one value longer than Python csv's field limit (131,072): a ValueError naming the line,
    # not csv's own error
    ("x1,x2,y\n1,2,a\n3,4,b\n5,6," + "a" * 131_073 + "\n", 4),
    ("x1;x2;y\n1;2;a\n" + "b" * 200_000 + "\n3;4;b\n", 3),
    # a quoted value that grows past the limit over two lines of 100,000 characters
    ('x1,x2,y\n1,2,a\n3,4,"' + "a" * 100_000 + "\n" + "b" * 100_000 + '"\n5,6,b\n', 4),
])
def test_a_value_longer_than_csvs_field_limit_is_refused_naming_its_line(text, line):
    with pytest.raises(PointsFileError, match=f"^line {line}.* 131,072 characters"):
        pio.read_upload("long.csv", text.encode())


def test_the_reading_is_pure_and_tries_scikit_learn_only_for_svmlight():
    # a fresh interpreter refuses (and records) streamlit and scikit-learn: loading the
    # latter would take ~2 s (tests/fresh_python.py)
    probe = """
        import json
        import ui.data.io as p
        first = tried()
        p.parse_csv("x1,x2,y\\n1,2,a\\n3,4,b\\n")
        csv = tried()
        try:
            p.parse_libsvm("1 1:2\\n-1 1:3\\n")
        except ImportError:
            pass
        print(json.dumps([first, csv, tried()]))
    """
    first, csv, svmlight = fresh_python.run(probe, blocked=("streamlit", "sklearn"))
    assert first == [] and csv == []
    assert svmlight == ["sklearn"]  # the probe sees the import when there is one
