"""The More classes page's modules (ui/multiclass/compute.py, figures.py): the answer matches
the engine's k-class model, the per-point rows and the figure say the same, files with k
classes are read, bad settings and too many points are refused with a message."""

import numpy as np
import pytest

import svm_engine as se
from ui.data import io as pio
from ui.multiclass import compute as M
from ui.multiclass import figures as F


@pytest.fixture(scope="module")
def iris_ovo():
    X, labels, names = M.iris(("petal_length", "petal_width"))
    s = {"strategy": "ovo", "kernel": "gaussian", "sigma": 1.0, "C": 1.0}
    return X, labels, names, M.run(X, labels, s)


def test_the_answer_is_the_engines_model(iris_ovo):
    X, labels, _, a = iris_ovo
    m = se.fit_multiclass(X, labels, "ovo", kernel=se.Gaussian(sigma=1.0), C=1.0)
    np.testing.assert_allclose(a.scores, m.scores(X), atol=1e-12)
    np.testing.assert_array_equal(a.predicted, m.predict_index(X))
    assert a.classes == ("Iris-setosa", "Iris-versicolor", "Iris-virginica")
    assert [r["machine"] for r in a.machines] == [mm.name for mm in m.machines]
    assert [r["points"] for r in a.machines] == [100, 100, 100] and a.converged
    assert a.region.shape == (M.GRID_STEPS, M.GRID_STEPS)
    assert a.machine_grid.shape == (3, M.GRID_STEPS, M.GRID_STEPS)
    assert M.accuracy(a, labels) == pytest.approx(np.mean(m.predict(X) == labels))


def test_point_rows_show_scores_votes_and_the_prediction(iris_ovo):
    X, labels, _, a = iris_ovo
    rows = M.point_rows(a, X, labels)
    assert len(rows) == 150
    r = rows[120]
    votes = [r[f"votes {c}"] for c in a.classes]
    assert sum(votes) == 3 and r["predicted"] == a.classes[int(np.argmax(votes))]
    assert r["h: Iris-versicolor vs Iris-virginica"] == a.scores[120, 2]
    assert r["right"] == (r["predicted"] == labels[120])


def test_the_figure_draws_every_class_the_regions_and_chosen_boundaries(iris_ovo):
    X, labels, names, a = iris_ovo
    fig = F.regions_figure(a, X, labels, names, boundaries=(0, 2))
    roles = [(t.get("meta") or {}).get("role") for t in fig["data"]]
    assert roles.count("points") == 3 and roles.count("boundary") == 2
    assert roles[:4] == ["region_cells"] + ["regions"] * 3      # cells under the fills
    assert roles[4:6] == ["boundary", "boundary"]
    regions = fig["data"][1:4]       # one smooth fill per class: contours, not heatmap cells
    assert {t["type"] for t in regions} == {"contour"}
    assert [t["meta"]["class"] for t in regions] == list(a.classes)
    inside = np.array([t["z"] for t in regions]) > 0
    assert (inside.sum(axis=0) == 1).all()          # every grid place in exactly one region
    np.testing.assert_array_equal(inside.argmax(axis=0), a.region)   # the page's regions

    pts = [t for t in fig["data"] if (t.get("meta") or {}).get("role") == "points"]
    assert sum(len(t["x"]) for t in pts) == 150
    assert {t["marker"]["symbol"] for t in pts} == set(F.SYMBOLS[:3])   # shapes, not colour only
    wrong = [t for t in fig["data"] if (t.get("meta") or {}).get("role") == "misclassified"]
    n_wrong = int((np.array(a.classes)[a.predicted] != labels).sum())
    assert (len(wrong[0]["x"]) if wrong else 0) == n_wrong
    assert fig["layout"]["xaxis"]["title"]["text"] == "petal_length"


def test_one_vs_rest_regions_are_continuous_fields_with_the_argmax_inside():
    X, labels, names = M.iris(("sepal_length", "sepal_width"))
    a = M.run(X, labels, {"strategy": "ovr"})
    z = F.region_fields(a)
    assert len(np.unique(z)) > 1000                 # not cells: a boundary between places
    np.testing.assert_array_equal((z > 0).argmax(axis=0)[(z > 0).any(axis=0)],
                                  a.region[(z > 0).any(axis=0)])


def test_one_vs_rest_rows_have_no_votes_and_blobs_get_k_machines():
    X, labels, _ = M.blobs(5, 60, 0.6, 2)
    a = M.run(X, labels, {"strategy": "ovr"})
    assert len(a.machines) == 5 and len(a.classes) == 5
    assert not any(k.startswith("votes") for k in M.point_rows(a, X, labels)[0])
    a = M.run(X, labels, {"strategy": "ovo", "solver": "qp", "loss": "quadratic"})
    assert len(a.machines) == 10 and a.converged


def test_a_file_with_k_classes_becomes_points():
    text = "x1,x2,species\n" + "".join(f"{i},{i % 3 + 0.5},{'abc'[i % 3]}\n" for i in range(12))
    t = M.read_table("f.csv", text.encode())
    X, labels, names = M.table_points(t, 0, 1, 2)
    assert X.shape == (12, 2) and sorted(set(labels)) == ["a", "b", "c"]
    assert names == ("x1", "x2")
    t = M.read_table("f.csv", b"u,v,y\n1,2,1\n3,4,2\n5,6,3\n7,8,2\n")
    X, labels, _ = M.table_points(t, 0, 1, 2)
    assert labels.tolist() == ["1", "2", "3", "2"]


@pytest.mark.parametrize("text, cols, msg", [
    ("a,b,y\n1,2,p\n3,x,q\n", (0, 1, 2), "line 3: x2"),
    ("a,b,y\n1,2,p\n3,4,p\n", (0, 1, 2), "need two classes"),
    ("a,b,y\n1,2,p\n3,4,q\n", (0, 0, 2), "three different columns"),
    ("a,b,y\n" + "".join(f"{i},{i},c{i}\n" for i in range(M.MAX_CLASSES + 1)), (0, 1, 2),
     f"at most {M.MAX_CLASSES}"),
    ("a,b,y\n" + "".join(f"{i},{i},c{i % 2}\n" for i in range(M.MAX_POINTS + 1)), (0, 1, 2),
     "too many points"),
])
def test_a_bad_file_is_refused_naming_the_problem(text, cols, msg):
    with pytest.raises(pio.PointsFileError, match=msg):
        M.table_points(M.read_table("f.csv", text.encode()), *cols)


def test_oversized_uploads_are_refused_before_reading():
    with pytest.raises(pio.PointsFileError, match="too large"):
        M.read_table("f.csv", b"x" * (pio.MAX_UPLOAD_BYTES + 1))


def test_refusals_and_bad_settings_name_what_to_change():
    X = np.zeros((3, 2))
    assert "No points yet" in M.refusal(np.zeros((0, 2)), np.zeros(0, dtype=str))
    assert "two classes" in M.refusal(X, np.array(["a", "a", "a"]))
    big = np.zeros((M.MAX_POINTS + 1, 2))
    assert "at most 400" in M.refusal(big, np.arange(M.MAX_POINTS + 1) % 2)
    assert M.refusal(X, np.array(["a", "b", "c"])) is None
    # the QP, which cannot be stopped, is refused where it would outrun the budget
    X8, l8, _ = M.blobs(8, 400, 1.0, 0)
    qp = M.check_settings({"solver": "qp"})
    assert M.qp_work(l8, "ovr") == 8 * 400**2 and M.qp_work(l8, "ovo") == 28 * 100**2
    assert "choose SMO, one-vs-one" in M.refusal(X8, l8, qp)
    X8, l8, _ = M.blobs(8, 160, 1.0, 0)       # one-vs-one: 28 machines of 40 points
    assert M.refusal(X8, l8, {**qp, "strategy": "ovo"}) is None
    assert "choose SMO" in M.refusal(X8, l8, qp)      # one-vs-rest: 8 machines of 160
    assert M.refusal(X8, l8, {**qp, "solver": "smo"}) is None
    with pytest.raises(ValueError, match="choose SMO"):
        M.run(X8, l8, qp)
    with pytest.raises(ValueError, match="strategy"):
        M.check_settings({"strategy": "all"})
    with pytest.raises(ValueError, match="C must be"):
        M.check_settings({"C": -1.0})
    with pytest.raises(ValueError, match="two classes"):
        M.run(X, np.array(["a", "a", "a"]), {})
