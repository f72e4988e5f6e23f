"""ui.knn_perceptron.compute and figures: the page's numbers and words, without a server."""

import math

import numpy as np
import pytest

import svm_engine as se
from svm_engine import datasets, knn
from svm_engine.kernel_perceptron import kernel_perceptron
from ui.knn_perceptron import compute as C
from ui.knn_perceptron import figures as F
from ui.shared import palette as P
from ui.shared.settings import DEFAULTS

LINEAR = {"kernel": "linear", "degree": 2, "coef0": 1.0, "sigma": 1.0}


def test_epoch_cap_keeps_the_run_within_its_work():
    assert C.epoch_cap(14, 100) == 100
    assert C.epoch_cap(220, 1000) == C.MAX_VISITS // 220          # visits bind
    assert C.epoch_cap(400, 1000) == C.MAX_WORK // 400**2         # updates bind
    assert C.epoch_cap(2000, 1000) == C.MAX_WORK // 2000**2 >= 1
    for n in (10, 200, 2000):
        e = C.epoch_cap(n, 1000)
        assert n * e <= C.MAX_VISITS and n * n * e <= max(C.MAX_WORK, n * n)


def test_run_words_say_the_real_numbers():
    d = datasets.d1()
    run = C.run_perceptron(d.X, d.y, LINEAR, 100, "free")
    svm = se.fit(d.X, d.y, C=math.inf)
    words = C.run_words(run, svm, 100)
    assert words.startswith(f"The kernel perceptron stopped after {run.n_updates} updates "
                            f"({run.epochs} epochs) with 0 training mistakes")
    assert f"{int((run.alpha > 0).sum())} of the 14 points have αᵢ > 0" in words
    assert f"The SVM has {svm.n_support} support vectors" in words
    d2 = datasets.d2()
    run = C.run_perceptron(d2.X, d2.y, LINEAR, 10, "free")
    words = C.run_words(run, None, 10)
    assert "did not converge" in words and f"{run.training_mistakes} training mistakes" in words
    assert "SVM" not in words
    big = datasets.blobs(n=1000, noise=2.0, seed=1)
    run = C.run_perceptron(big.X, big.y, LINEAR, 1000, "free")
    assert run.max_epochs == C.epoch_cap(1000, 1000) < 1000
    assert f"The cap is {run.max_epochs} epochs here, not 1000" in C.run_words(run, None, 1000)


def test_update_words_and_mistakes_after():
    d = datasets.d1()
    run = C.run_perceptron(d.X, d.y, LINEAR, 100, "free")
    assert "Start:" in C.update_words(run, 0) and C.mistakes_after(run, 0) == 14
    rec = run.record(1)
    w = C.update_words(run, 1)
    assert w.startswith(f"**Update 1** (epoch {rec.epoch})") and "b ← b + y" in w
    assert C.mistakes_after(run, run.n_updates) == 0
    none = C.run_perceptron(d.X, d.y, LINEAR, 100, "none")
    assert "b stays 0" in C.update_words(none, 1)


def test_alpha_rows_beside_the_svm():
    d = datasets.d1()
    run = C.run_perceptron(d.X, d.y, {**LINEAR, "kernel": "gaussian"}, 100, "free")
    svm = se.fit(d.X, d.y, kernel=se.Gaussian(sigma=1.0), C=math.inf)
    rows = C.alpha_rows(run, run.n_updates, svm)
    want = {i for i in range(14) if run.alpha[i] > 0 or svm.alpha[i] > 0}
    assert {int(r["point"][1:]) - 1 for r in rows} == want
    for r in rows:
        i = int(r["point"][1:]) - 1
        assert r["perceptron αᵢ (mistakes)"] == run.alpha[i]
    assert C.alpha_rows(run, 0, None) == []               # at the start nothing is counted


def test_knn_answer_regions_edges_and_query():
    d = datasets.moons(n=60, noise=0.2, seed=1)
    labels = np.where(d.y > 0, "+1", "−1")
    a = C.knn_answer(d.X, labels, 1, None, (0.5, 0.25))
    np.testing.assert_array_equal(a.region, knn.grid_classes(d.X, labels, a.xs, a.ys, 1))
    assert len(a.edges) and len(a.edges) == len(a.edge_pairs)
    assert C.training_accuracy(a, labels) == 1.0                # 1-NN: each point its own
    r = knn.kneighbours(d.X, labels, [[0.5, 0.25]], 1)
    assert a.neighbours.tolist() == r.neighbours[0].tolist()
    assert f"→ {r.predicted[0]}." in C.query_words(a, labels)
    five = C.knn_answer(d.X, labels, 5, {**LINEAR, "kernel": "polynomial"}, (0.5, 0.25))
    assert len(five.edges) == 0 and len(five.neighbours) == 5
    r = knn.kneighbours(d.X, labels, [[0.5, 0.25]], 5, kernel=se.Polynomial(2, 1.0))
    assert five.neighbours.tolist() == r.neighbours[0].tolist()
    with pytest.raises(ValueError, match=f"at most {C.MAX_KNN_POINTS}"):
        C.knn_answer(np.zeros((C.MAX_KNN_POINTS + 1, 2)), ["a"] * (C.MAX_KNN_POINTS + 1), 1,
                     None, (0.0, 0.0))


def test_memory_words():
    assert "keeps all 60 training points" in C.memory_words(60, 1, 7)
    assert "takes the class of the nearest" in C.memory_words(60, 1, 7)
    assert "votes among the 3 nearest" in C.memory_words(60, 3, 7)
    assert "its 7 support vectors" in C.memory_words(60, 3, 7)
    assert "only its support vectors" in C.memory_words(150, 3, None)


def test_figures_name_their_layers():
    d = datasets.d1()
    run = kernel_perceptron(d.X, d.y, se.Linear())
    k = run.n_updates
    fig = F.perceptron_figure(d.X, d.y, None, C.StepModel(run, k), k, run.record(k).i,
                              run.alpha_after(k), C.plot_ranges(d.X))
    roles = [(t.get("meta") or {}).get("role") for t in fig["data"]]
    assert "overlay" in roles and "alpha" in roles and "highlight" in roles
    start = F.perceptron_figure(d.X, d.y, None, C.StepModel(run, 0), 0, None,
                                run.alpha_after(0), C.plot_ranges(d.X))
    assert not [t for t in start["data"] if (t.get("meta") or {}).get("role") in
                ("overlay", "alpha")]
    labels = np.where(d.y > 0, "+1", "−1")
    a = C.knn_answer(d.X, labels, 1, None, (4.0, 3.0))
    kf = F.knn_figure(a, d.X, labels)
    by = {(t.get("meta") or {}).get("role"): t for t in kf["data"]}
    assert {"regions", "voronoi", "boundary", "points", "query", "neighbours"} <= set(by)
    assert by["boundary"]["meta"]["edges"] + by["voronoi"]["meta"]["edges"] == len(a.edges)
    assert F.pale(P.BLUE) == P.REGION_POS  # the Playground's shading of class +1's side


def test_the_plots_words_come_from_the_runs_numbers():
    d = datasets.d1()
    s = {**DEFAULTS, "kernel": "linear"}
    run = C.run_perceptron(d.X, d.y, s, 100, "free")
    k = run.n_updates
    words = C.perceptron_plot_words(d.X, d.y, None, run, k)
    assert words.startswith("14 points: 8 of class +1")
    assert f"after update {k} of {k}: 0 training mistakes" in words
    labels = np.where(d.y > 0, "+1", "−1")
    a = C.knn_answer(d.X, labels, 3, None, (4.0, 3.0))
    kw = C.knn_plot_words(a, labels)
    assert kw.startswith("14 points: 8 of +1, 6 of −1.")
    assert C.query_words(a, labels) in kw
