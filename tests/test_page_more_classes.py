"""The More classes page under streamlit's AppTest: what its figure, its tables and its
messages show, against scikit-learn and the engine recomputed here."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from sklearn.multiclass import OneVsRestClassifier
from sklearn.svm import SVC
from streamlit.testing.v1 import AppTest

from svm_engine.datasets_multiclass import blobs_k, iris_species
from tests.plotly_json import component_figure
from tests.plotly_json import page_ok as ok
from ui.multiclass import compute as M

PAGE = str(Path(__file__).resolve().parents[1] / "pages" / "7_more_classes.py")
TIMEOUT = 300



def start() -> AppTest:
    return ok(AppTest.from_file(PAGE, default_timeout=TIMEOUT).run())


def frames(at: AppTest) -> tuple[pd.DataFrame, pd.DataFrame]:
    """(the machines table, the points table)."""
    m = [d.value for d in at.dataframe if "machine" in d.value.columns]
    p = [d.value for d in at.dataframe if "predicted" in d.value.columns]
    assert len(m) == 1 and len(p) == 1
    return m[0], p[0]


def figure(at: AppTest) -> dict:
    """The figure the page sends to its click plot (typed arrays decoded)."""
    return component_figure(at, "mc.plot")


def traces(fig: dict, role: str) -> list[dict]:
    return [t for t in fig["data"] if (t.get("meta") or {}).get("role") == role]


def test_iris_one_vs_rest_as_scikit_learn():
    at = start()
    d = iris_species()
    machines, points = frames(at)
    assert machines["machine"].tolist() == [f"{c} vs rest" for c in d.classes]
    assert machines["converged"].all() and (machines["points"] == 150).all()
    ref = OneVsRestClassifier(SVC(kernel="linear", C=1.0, tol=1e-10)).fit(d.X, d.y)
    H = points[[f"h: {c} vs rest" for c in d.classes]].to_numpy()
    np.testing.assert_allclose(H, ref.decision_function(d.X), atol=1e-4)
    assert (points["predicted"] == ref.predict(d.X)).mean() > 0.98   # ties within 1e-4 aside
    acc = float(np.mean(points["predicted"] == d.y))
    (msg,) = [s.value for s in at.success]
    assert "3 binary machines" in msg and f"Training accuracy {100 * acc:.1f} %" in msg
    fig = figure(at)
    assert sum(len(t["x"]) for t in traces(fig, "points")) == 150
    assert len(traces(fig, "regions")) == 3            # one smooth fill per class
    assert len(traces(fig, "misclassified")[0]["x"]) == int((points["right"] == False).sum())  # noqa: E712


def test_one_vs_one_votes_and_boundaries_on_request():
    at = start()
    at.radio(key="mc.strategy").set_value("ovo").run()
    at.radio(key="mc.kernel").set_value("gaussian").run()
    ok(at)
    d = iris_species()
    machines, points = frames(at)
    assert machines["machine"].tolist() == ["Iris-setosa vs Iris-versicolor",
                                            "Iris-setosa vs Iris-virginica",
                                            "Iris-versicolor vs Iris-virginica"]
    assert machines["points"].tolist() == [100, 100, 100]
    ref = SVC(kernel="rbf", gamma=0.5, C=1.0, tol=1e-10, decision_function_shape="ovo")
    ref.fit(d.X, d.y)
    H = points[[c for c in points.columns if c.startswith("h: ")]].to_numpy()
    np.testing.assert_allclose(H, ref.decision_function(d.X), atol=1e-4)
    V = points[[f"votes {c}" for c in d.classes]].to_numpy()
    assert (V.sum(axis=1) == 3).all()
    np.testing.assert_array_equal(points["predicted"], ref.predict(d.X))
    assert traces(figure(at), "boundary") == []
    at.multiselect[0].set_value([0, 2]).run()
    b = traces(figure(ok(at)), "boundary")
    assert [t["name"] for t in b] == ["h = 0 of Iris-setosa vs Iris-versicolor",
                                      "h = 0 of Iris-versicolor vs Iris-virginica"]
    at.radio(key="mc.source").set_value("blobs").run()     # other machines: none chosen
    assert at.multiselect[0].value == [] and traces(figure(ok(at)), "boundary") == []
    assert "LIBSVM" in " ".join(c.value for c in at.caption)     # the tie rule is stated


def test_k_blobs_give_k_or_k_choose_2_machines():
    at = start()
    at.radio(key="mc.source").set_value("blobs").run()
    at.slider(key="mc.k").set_value(5).run()
    machines, points = frames(ok(at))
    assert len(machines) == 5 and len(points) == 80
    d = blobs_k(k=5, n=80, noise=0.8, seed=0)
    assert sorted(set(points["class"])) == [f"class {c}" for c in range(1, 6)]
    np.testing.assert_allclose(points[["x1", "x2"]].to_numpy(), d.X)
    at.radio(key="mc.strategy").set_value("ovo").run()
    machines, _ = frames(ok(at))
    assert len(machines) == 10


def test_added_points_join_their_class_or_make_a_new_one():
    at = start()
    at.number_input(key="mc.add.x1").set_value(7.5).run()
    at.number_input(key="mc.add.x2").set_value(2.2).run()
    at.selectbox(key="mc.click_class").set_value("Iris-setosa").run()
    at.button(key="mc.add.go").click().run()
    _, points = frames(ok(at))
    assert len(points) == 151
    last = points.iloc[-1]
    assert (last["x1"], last["x2"], last["class"]) == (7.5, 2.2, "Iris-setosa")
    assert "151 points, 3 classes (1 added by you)" in at.markdown[0].value
    at.selectbox(key="mc.click_class").set_value("+ a new class").run()
    at.button(key="mc.add.go").click().run()
    machines, points = frames(ok(at))
    assert points.iloc[-1]["class"] == "class 4" and len(machines) == 4
    # the chooser now names the class just made: the next point joins it (no class 5)
    assert at.selectbox(key="mc.click_class").value == "class 4"
    at.button(key="mc.add.go").click().run()
    machines, points = frames(ok(at))
    assert points.iloc[-1]["class"] == "class 4" and len(machines) == 4
    at.button(key="mc.undo").click().run()
    at.button(key="mc.undo").click().run()
    machines, points = frames(ok(at))
    assert len(points) == 151 and len(machines) == 3
    assert at.selectbox(key="mc.click_class").value == "Iris-setosa"   # class 4 is gone
    at.button(key="mc.clear").click().run()
    assert len(frames(ok(at))[1]) == 150


def test_a_file_with_k_classes():
    at = start()
    text = "a,b,kind\n" + "".join(f"{i % 5},{(i * 7) % 4},{'pqrs'[i % 4]}\n" for i in range(40))
    at.session_state["mc.file"] = ("four.csv", M.read_table("four.csv", text.encode()))
    at.radio(key="mc.source").set_value("file").run()
    machines, points = frames(ok(at))
    assert len(points) == 40 and len(machines) == 4
    assert "Imported: four.csv" in at.markdown[0].value
    assert list(points["class"][:4]) == ["p", "q", "r", "s"]


def test_a_label_column_that_does_not_work_is_an_error():
    at = start()
    text = "a,b,kind,many,one\n" + "".join(f"{i},{i % 3},{'pqr'[i % 3]},{i},7\n"
                                            for i in range(10))
    at.session_state["mc.file"] = ("t.csv", M.read_table("t.csv", text.encode()))
    at.radio(key="mc.source").set_value("file").run()
    assert len(frames(ok(at))[0]) == 3                     # 'kind': 3 classes
    for col, msg in ((3, "10 classes; this page draws at most 8"), (4, "need two classes"),
                     (0, "three different columns")):
        at.selectbox(key="mc.col.label").set_value(col).run()
        ok(at)
        assert any(msg in e.value for e in at.error), [e.value for e in at.error]
        assert not [d for d in at.dataframe if "machine" in d.value.columns]


@pytest.mark.parametrize("exc_text", ["This did not finish within its 2 s budget"])
def test_a_stopped_fit_says_what_to_change(monkeypatch, exc_text):
    from ui.serving import budget

    def stopped(*a, **k):
        raise budget.Stopped(exc_text + " and was stopped.")

    monkeypatch.setattr(budget, "run", stopped)
    at = AppTest.from_file(PAGE, default_timeout=TIMEOUT)
    at.session_state["mc.seed"] = 4321          # data no earlier test cached
    at.session_state["mc.source"] = "blobs"
    at.run()
    ok(at)
    (err,) = [e.value for e in at.error]
    assert exc_text in err and "fewer points" in err and "smaller C" in err
    assert "n = 80 points" in at.markdown[0].value      # the points are kept and counted
    assert sum(len(t["x"]) for t in figure(at)["data"]) == 80   # and still drawn


def test_an_uploaded_file_is_read_or_refused_by_its_name():
    """The file source's uploader (ui.shared.controls.data_source → ui.data.import_panel):
    a readable file becomes the points, one that is not is an error naming it."""
    at = start()
    at.radio(key="mc.source").set_value("file").run()
    assert "No file yet" in at.markdown[0].value
    text = "a,b,kind\n" + "".join(f"{i % 5},{(i * 7) % 4},{'pqrs'[i % 4]}\n" for i in range(40))
    (up,) = [u for u in at.file_uploader if u.key == "mc.upload"]
    up.set_value(("four.csv", text.encode(), "text/csv")).run()
    machines, points = frames(ok(at))
    assert len(points) == 40 and len(machines) == 4
    assert "Imported: four.csv" in at.markdown[0].value
    for content, why in ((b"a,b\nfoo,bar,baz\n", "line 2: 3 values, but the first line has 2"),
                         (b"a,b,kind\n1,2,p\n3,4\n", "line 3: the label (column 'kind') is empty")):
        (up,) = [u for u in at.file_uploader if u.key == "mc.upload"]
        up.set_value(("bad.csv", content, "text/csv")).run()
        ok(at)
        (err,) = [e.value for e in at.error if "Could not read" in e.value]
        assert "bad.csv" in err and why in err and "Your points are kept" in err
        assert not [d for d in at.dataframe if "machine" in d.value.columns]
