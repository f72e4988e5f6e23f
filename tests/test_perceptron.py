"""svm_engine.perceptron: Rosenblatt's rule (seed 003), its trace, and Novikoff's bound with
the γ of our own hard-margin SVM."""

import math

import numpy as np
import pytest

import svm_engine as se
from svm_engine import datasets as ds
from svm_engine import perceptron as P


def replay(X, y, orders, eta=1.0, free=True):
    """An independent run of the seed's pseudo-code over the recorded visiting orders (numpy
    dot products): the updates it makes, as (epoch, i) pairs, and the final (w, b)."""
    w, b = np.zeros(X.shape[1]), 0.0
    updates = []
    for epoch, order in enumerate(orders, start=1):
        for i in order:
            if y[i] * (X[i] @ w + b) <= 0:
                w = w + eta * y[i] * X[i]
                b = b + eta * y[i] if free else 0.0
                updates.append((epoch, int(i)))
    return updates, w, b


def augmented_hard_margin(X, y):
    """The hard-margin SVM of the augmented problem x′ = (x, 1): the separator of the
    largest γ in the space where the perceptron with a bias runs (Novikoff's tightest)."""
    return se.fit(X, y, C=math.inf, bias="augmented", solver="qp", tol=1e-10)


def separable(seed, n=60, gap=0.3):
    rng = np.random.default_rng(seed)
    u = rng.normal(size=2)
    u /= np.linalg.norm(u)
    c = rng.uniform(-1, 1)
    X = rng.uniform(-3, 3, size=(4 * n, 2))
    s = X @ u + c
    keep = np.abs(s) > gap
    X, s = X[keep][:n], s[keep][:n]
    return X, np.where(s > 0, 1, -1)


@pytest.mark.parametrize("shuffle,seed", [(False, 0), (True, 0), (True, 1), (True, 7)])
def test_d1_separated_within_novikoff(shuffle, seed):
    d = ds.d1()
    r = P.perceptron(d.X, d.y, shuffle=shuffle, seed=seed)
    assert r.converged and "converged" in r.status
    assert (d.y * r.decision_function(d.X) > 0).all()
    assert (r.predict(d.X) == d.y).all()
    assert r.mistakes_per_epoch[-1] == 0 and r.epochs == len(r.mistakes_per_epoch)
    m = augmented_hard_margin(d.X, d.y)
    assert m.converged
    R, gamma, bound = P.novikoff_bound(d.X, d.y, m.w, m.b)
    # the augmented SVM's support vectors have y(wᵀx + b) = 1: γ = 1/‖(w, b)‖
    assert gamma == pytest.approx(1 / math.hypot(*m.w, m.b), rel=1e-6)
    assert 0 < r.n_updates <= bound
    # the free-bias SVM also separates: its (weaker) bound holds too
    free = se.fit(d.X, d.y, C=math.inf)
    assert r.n_updates <= P.novikoff_bound(d.X, d.y, free.w, free.b)[2]


@pytest.mark.parametrize("seed", range(6))
def test_random_separable_within_novikoff(seed):
    X, y = separable(seed)
    r = P.perceptron(X, y, seed=seed, max_epochs=10_000)
    m = augmented_hard_margin(X, y)
    R, gamma, bound = P.novikoff_bound(X, y, m.w, m.b)
    assert r.converged and r.n_updates <= bound
    assert R == pytest.approx(np.sqrt((X**2).sum(1) + 1).max())


def test_bound_is_inf_for_a_line_that_does_not_separate():
    d = ds.d1()
    assert P.novikoff_bound(d.X, d.y, [1.0, 0.0], 0.0)[2] == math.inf
    with pytest.raises(ValueError, match="bias"):
        P.novikoff_bound(d.X, d.y, [1.0, 0.0], bias="augmented")


@pytest.mark.parametrize("name", ["d1", "d2"])
def test_trace_is_consistent_with_an_independent_replay(name):
    d = ds.load(name)
    r = P.perceptron(d.X, d.y, eta=0.5, seed=3, max_epochs=40)
    assert not r.trace_truncated and len(r.trace) == r.n_updates == sum(r.mistakes_per_epoch)
    assert len(r.orders) == r.epochs
    assert all(sorted(o.tolist()) == list(range(len(d.y))) for o in r.orders)
    updates, w, b = replay(d.X, d.y, r.orders, eta=0.5)
    assert [(t["epoch"], t["i"]) for t in r.trace] == updates
    np.testing.assert_allclose(r.w, w, rtol=0, atol=1e-12)
    assert r.b == pytest.approx(b, abs=1e-12)
    w_prev, b_prev, per_epoch = [0.0, 0.0], 0.0, {}
    for k, t in enumerate(r.trace, start=1):
        x, yi = np.array(t["x"]), t["y"]
        assert t["update"] == k and x.tolist() == d.X[t["i"]].tolist() and yi == d.y[t["i"]]
        assert t["w_before"] == w_prev and t["b_before"] == b_prev
        assert t["f"] == pytest.approx(x @ np.array(w_prev) + b_prev, abs=1e-12)
        assert yi * t["f"] <= 0                                   # it was a mistake
        np.testing.assert_allclose(t["w_after"], np.array(w_prev) + 0.5 * yi * x, atol=1e-12)
        assert t["b_after"] == pytest.approx(b_prev + 0.5 * yi, abs=1e-12)
        per_epoch[t["epoch"]] = per_epoch.get(t["epoch"], 0) + 1
        assert t["mistakes"] == per_epoch[t["epoch"]]
        assert r.orders[t["epoch"] - 1][(t["visit"] - 1) % len(d.y)] == t["i"]
        w_prev, b_prev = t["w_after"], t["b_after"]
    np.testing.assert_array_equal(P.weights_after(r, len(r.trace))[0], r.w)
    assert P.weights_after(r, 0)[1] == 0.0
    with pytest.raises(ValueError, match="between 0 and"):
        P.weights_after(r, len(r.trace) + 1)


def test_d2_does_not_converge_and_says_why():
    d = ds.d2()
    r = P.perceptron(d.X, d.y, max_epochs=50)
    assert not r.converged and r.epochs == 50 and r.mistakes_per_epoch[-1] > 0
    assert "epoch cap" in r.status and "not linearly separable" in r.status
    with pytest.raises(ValueError, match=se.NOT_SEPARABLE):     # our own separability check
        se.fit(d.X, d.y, C=math.inf)


def test_learning_rate_only_scales_from_zero():
    d = ds.d1()
    a = P.perceptron(d.X, d.y, eta=1.0, seed=2)
    b = P.perceptron(d.X, d.y, eta=0.25, seed=2)               # a power of 2: exact scaling
    assert [(t["epoch"], t["i"]) for t in a.trace] == [(t["epoch"], t["i"]) for t in b.trace]
    np.testing.assert_array_equal(a.w * 0.25, b.w)
    assert a.b * 0.25 == b.b


def test_seeded_order_is_reproducible_and_differs_between_seeds():
    d = ds.d1()
    a, b, c = (P.perceptron(d.X, d.y, seed=s) for s in (5, 5, 6))
    assert a.trace == b.trace and [o.tolist() for o in a.orders] == [o.tolist() for o in b.orders]
    assert [o.tolist() for o in a.orders] != [o.tolist() for o in c.orders]
    fixed = P.perceptron(d.X, d.y, shuffle=False)
    assert all(o.tolist() == list(range(14)) for o in fixed.orders)


def test_no_bias_keeps_the_line_through_the_origin():
    X = np.array([[1.0, 2.0], [2.0, 0.5], [-1.0, -1.5], [-2.0, 0.2], [0.5, 1.0]])
    y = np.array([1, 1, -1, -1, 1])
    r = P.perceptron(X, y, bias="none", shuffle=False)
    assert r.converged and r.b == 0.0 and all(t["b_after"] == 0.0 for t in r.trace)
    assert (y * (X @ r.w) > 0).all()


def test_labels_other_than_pm1_map_as_the_svm_does():
    d = ds.d1()
    r = P.perceptron(d.X, np.where(d.y > 0, "yes", "no"))
    assert r.classes.tolist() == ["no", "yes"] and r.converged
    assert (r.predict(d.X) == np.where(d.y > 0, "yes", "no")).all()


def test_trace_cap():
    d = ds.d2()
    r = P.perceptron(d.X, d.y, max_epochs=3000)
    assert r.n_updates > P.TRACE_CAP
    assert r.trace_truncated and len(r.trace) == P.TRACE_CAP


@pytest.mark.parametrize("kw,match", [
    ({"eta": 0.0}, "eta"), ({"eta": math.nan}, "eta"), ({"max_epochs": 0}, "max_epochs"),
    ({"max_epochs": 2.5}, "max_epochs"), ({"bias": "augmented"}, "bias"), ({"seed": -1}, "seed"),
])
def test_bad_arguments_are_named(kw, match):
    d = ds.d1()
    with pytest.raises(ValueError, match=match):
        P.perceptron(d.X, d.y, **kw)


def test_bad_data_is_named():
    with pytest.raises(ValueError, match="two classes"):
        P.perceptron([[0.0, 1.0], [1.0, 0.0]], [1, 1])
    with pytest.raises(ValueError, match="non-finite value nan"):
        P.perceptron([[0.0, math.nan], [1.0, 0.0]], [1, -1])
    with pytest.raises(ValueError, match="one label per point"):
        P.perceptron([[0.0, 1.0], [1.0, 0.0]], [1, -1, 1])


def test_the_status_counts_in_words():
    """One epoch is "1 epoch", one mistake "1 mistake" (the Losses page shows the status)."""
    X = np.array([[0.0, 0.0], [1.0, 1.0], [1.0, 0.0], [0.0, 1.0]])
    y = np.array([1, 1, -1, -1])                       # XOR: never separable
    r = P.perceptron(X, y, max_epochs=1)
    k = r.mistakes_per_epoch[-1]
    assert f"(1 epoch, {r.n_updates} update" in r.status and "1 epochs" not in r.status
    assert (f"; {k} mistake in" if k == 1 else f"; {k} mistakes in") in r.status
    one = P.perceptron(np.array([[1.0, 0.0], [-1.0, 0.0]]), np.array([1, -1]))
    assert one.converged and one.status.endswith(
        f"after {one.n_updates} update" + ("" if one.n_updates == 1 else "s"))
