"""The Kernel perceptron & k-NN page under streamlit's AppTest: the dual perceptron stepped
mistake by mistake beside the SVM, k-NN's regions and Voronoi cells — checked against the
engine and scikit-learn run here on the same points."""

from __future__ import annotations

import re
from pathlib import Path

import numpy as np
import pytest
from sklearn.neighbors import KNeighborsClassifier
from streamlit.testing.v1 import AppTest

import svm_engine as se
from svm_engine import datasets, knn
from svm_engine.kernel_perceptron import kernel_perceptron
from tests.plotly_json import component_figure
from tests.plotly_json import page_ok as ok
from tests.test_chart_exports import check_charts
from ui.knn_perceptron import compute as C
from ui.knn_perceptron.page_state import KernelPerceptronKnn
from ui.serving import budget
from ui.shared import fitting, state

PAGE = str(Path(__file__).resolve().parents[1] / "pages" / "13_kernel_perceptron_knn.py")
TIMEOUT = 300


def start(page: dict | None = None, **state) -> AppTest:
    """The page run with these widget values (``state``) and page-state fields (``page``)."""
    at = AppTest.from_file(PAGE, default_timeout=TIMEOUT)
    for k, v in state.items():
        at.session_state[k] = v
    for k, v in (page or {}).items():
        setattr(KernelPerceptronKnn.of(at.session_state), k, v)
    return ok(at.run())


def text(at) -> str:
    return "\n".join(str(e.value) for kind in ("markdown", "caption", "success", "warning",
                                                "error", "info") for e in getattr(at, kind))


def press(at, key):
    at.button(key=key).click().run()
    return ok(at)


def mistakes_shown(at) -> tuple[int, int]:
    (m,) = re.findall(r"Training mistakes after update (\d+): (\d+)", text(at))
    return int(m[0]), int(m[1])


def traces(fig, role):
    return [t for t in fig["data"] if (t.get("meta") or {}).get("role") == role]


def test_d1_the_run_and_the_svm_as_the_engine_says():
    at = start()
    d = datasets.d1()
    run = kernel_perceptron(d.X, d.y, se.Linear(), max_epochs=100)
    svm = fitting.fit_points(d.X, d.y, state.current_settings({}))   # the Playground's D1
    assert svm.ok and svm.model.kernel.name == "linear"
    (good,) = at.success
    assert (f"stopped after {run.n_updates} updates ({run.epochs} epochs) with 0 training "
            "mistakes") in good.value
    assert f"The SVM has {svm.model.n_support} support vectors" in good.value
    assert at.slider(key="kpk.step").max == run.n_updates == at.slider(key="kpk.step").value
    assert mistakes_shown(at) == (run.n_updates, 0)
    # the table: every αᵢ > 0 of both, the perceptron's counts the run's
    (df,) = [t.value for t in at.dataframe if "perceptron αᵢ (mistakes)" in t.value.columns]
    want = {f"x{i + 1}": int(a) for i, a in enumerate(run.alpha)
            if a > 0 or svm.model.alpha[i] > 0}
    assert dict(zip(df["point"], df["perceptron αᵢ (mistakes)"], strict=True)) == want
    fig = component_figure(at, "kpk.plot")
    assert traces(fig, "overlay") and traces(fig, "boundary")       # both boundaries
    (alpha,) = traces(fig, "alpha")
    assert sorted(alpha["text"]) == sorted(f"α={a}" for a in run.alpha if a > 0)
    check_charts(at, 2, ["n = 14"])


def test_next_changes_the_count_of_mistakes_shown():
    at = start()
    d = datasets.d1()
    run = kernel_perceptron(d.X, d.y, se.Linear(), max_epochs=100)
    press(at, "kpk.first")
    assert mistakes_shown(at) == (0, 14)                 # h = 0: every point a mistake
    assert "Start:" in text(at)
    seen = []
    for step in range(1, 4):
        press(at, "kpk.next")
        shown = mistakes_shown(at)
        want = int((run.y * run.decision_after(d.X, step) <= 0).sum())
        assert shown == (step, want)
        seen.append(want)
        rec = run.record(step)
        assert f"**Update {step}** (epoch {rec.epoch})" in text(at)
    assert len({14, *seen}) > 1                          # Next changed the count
    press(at, "kpk.last")
    assert mistakes_shown(at) == (run.n_updates, 0)


def test_gaussian_kernel_on_moons_stops_with_no_mistake():
    at = start(**{"kpk.source": "moons"})
    at.radio(key="kpk.kernel").set_value("gaussian").run()
    ok(at)
    sigma = at.select_slider(key="kpk.sigma").value
    d = datasets.moons(n=60, noise=0.1, seed=0)
    run = kernel_perceptron(d.X, d.y, se.Gaussian(sigma=sigma), max_epochs=100)
    assert run.converged
    (good,) = at.success
    assert f"stopped after {run.n_updates} updates" in good.value
    assert "with 0 training mistakes" in good.value


def test_k_changes_the_regions_and_k1_draws_the_voronoi_cells():
    at = start()
    d = datasets.d1()
    fig1 = component_figure(at, "kpk.knn_plot")
    (reg1,) = traces(fig1, "regions")
    xs, ys = np.array(reg1["x"]), np.array(reg1["y"])
    labels = np.where(d.y > 0, "+1", "−1")
    np.testing.assert_array_equal(np.array(reg1["z"]), knn.grid_classes(d.X, labels, xs, ys, 1))
    (edges,) = traces(fig1, "voronoi")
    (bound,) = traces(fig1, "boundary")
    segs, pairs = knn.voronoi_edges(d.X, (xs[0], xs[-1]), (ys[0], ys[-1]))
    assert edges["meta"]["edges"] + bound["meta"]["edges"] == len(segs)
    assert "Voronoi cell" in text(at)
    at.slider(key="kpk.k").set_value(5).run()
    ok(at)
    fig5 = component_figure(at, "kpk.knn_plot")
    (reg5,) = traces(fig5, "regions")
    z5 = np.array(reg5["z"])
    np.testing.assert_array_equal(z5, knn.grid_classes(d.X, labels, xs, ys, 5))
    assert (z5 != np.array(reg1["z"])).any()                   # k changed the regions
    assert not traces(fig5, "voronoi") and "Voronoi cell" not in text(at)
    (nb,) = traces(fig5, "neighbours")
    q = d.X.mean(axis=0)
    ref = KNeighborsClassifier(n_neighbors=5).fit(d.X, labels)
    assert sorted(nb["meta"]["index"]) == sorted(ref.kneighbors([q])[1][0].tolist())
    assert "keeps all 14 training points" in text(at)


def test_iris_kernel_distance_and_a_query_point():
    at = start({"query": (6.0, 3.0)}, **{"kpk.knn_data": "iris", "kpk.k": 3})
    at.radio(key="kpk.kernel").set_value("polynomial").run()
    at.radio(key="kpk.distance").set_value("kernel").run()
    ok(at)
    from svm_engine.datasets_multiclass import iris_species
    d = iris_species()
    q = int(at.slider(key="kpk.degree").value)
    c = float(at.radio(key="kpk.coef0").value)
    r = knn.kneighbours(d.X, d.y, [[6.0, 3.0]], 3, kernel=se.Polynomial(q, c))
    (nb,) = traces(component_figure(at, "kpk.knn_plot"), "neighbours")
    assert nb["meta"]["index"] == r.neighbours[0].tolist()
    assert f"→ {r.predicted[0]}." in text(at)
    assert "keeps all 150 training points" in text(at)


def test_added_points_join_the_run():
    added = [(2.0, 6.0, 1), (6.5, 1.0, -1)]
    at = start({"added": added})
    d = datasets.d1()
    X = np.vstack([d.X, [[p[0], p[1]] for p in added]])
    y = np.concatenate([d.y, [p[2] for p in added]])
    run = kernel_perceptron(X, y, se.Linear(), max_epochs=100)
    assert "n = 16 points (2 added by you)" in text(at)
    assert f"stopped after {run.n_updates} updates" in at.success[0].value


def test_a_stopped_knn_is_an_error_and_the_points_stay(monkeypatch):
    real = budget.run

    def knn_stopped(task, *a, **k):
        if task == "k-NN":
            raise budget.Stopped("This did not finish within its 2 s budget and was stopped.")
        return real(task, *a, **k)

    monkeypatch.setattr(budget, "run", knn_stopped)
    at = start(**{"kpk.k": 2})                     # no earlier test cached this k-NN
    (err,) = [e.value for e in at.error]
    assert "k-NN could not run" in err and "2 s budget" in err and "fewer points" in err
    assert "n = 14 points" in at.markdown[0].value
    fig = component_figure(at, "kpk.plot")          # the perceptron's plot keeps every point
    assert sum(len(t["x"]) for t in traces(fig, "points")) == 14


@pytest.mark.parametrize("n", [1200])
def test_too_many_points_for_knn_is_an_error_naming_the_limit(n):
    at = start(**{"kpk.source": "blobs", "kpk.gen.n": n, "kpk.epochs": 10})
    (err,) = [e.value for e in at.error]
    assert f"{n} points are more than k-NN draws here" in err
    assert f"at most {C.MAX_KNN_POINTS}" in err
    assert f"n = {n} points" in at.markdown[0].value
