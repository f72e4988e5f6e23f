"""The Kernel k-means & PCA page under streamlit's AppTest: it runs on the rings, the stepper
shows the recorded assignments (checked against the engine run here), the kernel choice
changes the eigenvalues shown, and a function that is not a kernel gives an error that keeps
the points (and the new ones) on the clickable plot."""

import numpy as np
from streamlit.testing.v1 import AppTest

import svm_engine as se
from svm_engine import datasets, gram
from svm_engine import kernel_kmeans as kk
from svm_engine import kernel_pca as kp
from tests.plotly_json import component_figure, page_ok
from ui.kmeans_pca.page_state import KernelKmeansPca
from ui.shared.numbers import fmt_num

PAGE = "../pages/14_kernel_kmeans_pca.py"
TIMEOUT = 180
RINGS = datasets.rings(n=100, noise=0.05, seed=0)


def start(new=()) -> AppTest:
    at = AppTest.from_file(PAGE, default_timeout=TIMEOUT)
    if new:
        KernelKmeansPca.of(at.session_state).new = [tuple(p) for p in new]
    return page_ok(at.run())


def text(at) -> str:
    return "\n".join(str(e.value) for kind in ("markdown", "caption", "success", "warning",
                                                "error") for e in getattr(at, kind))


def eigen_column(at) -> list[str]:
    (df,) = [d.value for d in at.dataframe if "λᵢ of K̃" in d.value.columns]
    return list(df["λᵢ of K̃"])


def sizes(t: dict) -> str:
    return ", ".join(f"C{c + 1}: {n}" for c, n in enumerate(t["sizes"]))


def test_runs_on_the_rings_and_the_gaussian_kernel_finds_them():
    at = start()
    assert at.title[0].value == "Kernel k-means & PCA"
    run = kk.kernel_kmeans(gram.gram_matrix(se.Gaussian(sigma=0.3), RINGS.X), 2, seed=0,
                           n_init=10, max_iter=100)
    (s,) = [s for s in at.slider if s.key == "kkp.step"]
    assert s.max == s.value == 2 * run.n_iter           # a new run shows where it ended
    words = text(at)
    assert "Kernel k-means converged" in words and "kernel k-means 1, plain k-means" in words
    assert f"W = {fmt_num(run.inertia)}" in words
    fig = component_figure(at, "kkp.plot")
    pts = [t for t in fig["data"] if (t.get("meta") or {}).get("role") == "points"]
    assert sum(len(t["x"]) for t in pts) == 100


def test_next_changes_the_assignment_counts():
    at = start()
    run = kk.kernel_kmeans(gram.gram_matrix(se.Gaussian(sigma=0.3), RINGS.X), 2, seed=0,
                           n_init=10, max_iter=100)
    at.button(key="kkp.first").click().run()
    page_ok(at)
    first = text(at)
    assert "Start (assignment 0)" in first and f"Cluster sizes {sizes(run.trace[0])}" in first
    at.button(key="kkp.next").click().run()
    moving = int(np.sum(np.array(run.trace[1]["labels"]) != np.array(run.trace[0]["labels"])))
    assert f"{moving} point(s) (ringed)" in text(at)
    at.button(key="kkp.next").click().run()
    second = text(at)
    assert (f"{run.trace[1]['changed']} point(s) changed cluster. Cluster sizes "
            f"{sizes(run.trace[1])}") in second
    assert second != first


def test_the_kernel_changes_the_eigenvalues_shown():
    at = start()
    gauss = kp.kernel_pca(gram.gram_matrix(se.Gaussian(sigma=0.3), RINGS.X))
    assert eigen_column(at)[:3] == [fmt_num(v) for v in gauss.eigenvalues[:3]]
    at.radio(key="kkp.kernel").set_value("linear").run()
    page_ok(at)
    lin = kp.kernel_pca(RINGS.X @ RINGS.X.T)
    shown = eigen_column(at)
    assert shown[:2] == [fmt_num(v) for v in lin.eigenvalues[:2]]
    assert shown[:2] != [fmt_num(v) for v in gauss.eigenvalues[:2]]


def test_new_points_are_projected_and_a_bad_kernel_keeps_the_points():
    new = [(0.05, 0.1), (0.9, -0.2)]
    at = start(new)
    fig = component_figure(at, "kkp.plot")
    (stars,) = [t for t in fig["data"] if (t.get("meta") or {}).get("role") == "new"]
    np.testing.assert_allclose(np.column_stack([stars["x"], stars["y"]]), new)
    assert "2 new point(s) (yours)" in text(at)
    at.radio(key="kkp.kernel").set_value("rules").run()
    at.selectbox(key="kkp.rule").set_value("difference").run()
    at.radio(key="kkp.k2").set_value("polynomial").run()
    page_ok(at)
    (err,) = at.error
    assert "not a kernel on these points" in err.value and "< 0" in err.value
    fig = component_figure(at, "kkp.plot")                    # the points are still drawn
    pts = [t for t in fig["data"] if (t.get("meta") or {}).get("role") == "points"]
    assert sum(len(t["x"]) for t in pts) == 100
    (stars,) = [t for t in fig["data"] if (t.get("meta") or {}).get("role") == "new"]
    assert len(stars["x"]) == 2
