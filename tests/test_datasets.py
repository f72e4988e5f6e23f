"""Tests for svm_engine.datasets: book data exactly as printed, Iris, generators, registry."""

import math
import re

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from svm_engine import datasets as ds

# Slide 15 table, copied by hand: (xi1, xi2, yi) for x1..x14.
SLIDE_15 = [
    (3.5, 4.25, +1),
    (4, 3, +1),
    (4, 4, +1),
    (4.5, 1.75, +1),
    (4.9, 4.5, +1),
    (5, 4, +1),
    (5.5, 2.5, +1),
    (5.5, 3.5, +1),
    (0.5, 1.5, -1),
    (1, 2.5, -1),
    (1.25, 0.5, -1),
    (1.5, 1.5, -1),
    (2, 2, -1),
    (2.5, 0.75, -1),
]
# Slide 21: x15..x18 added to the slide 15 table.
SLIDE_21_EXTRA = [(4, 2, +1), (2, 3, +1), (3, 2, -1), (5, 3, -1)]

SETTING_KEYS = {"kernel", "degree", "coef0", "sigma", "loss", "C", "bias", "solver"}


def _xy(rows):
    a = np.array(rows, dtype=float)
    return a[:, :2], a[:, 2].astype(int)


# ------------------------------------------------------------------------------ book sets


def test_d1_matches_slide_15():
    d = ds.d1()
    X, y = _xy(SLIDE_15)
    assert d.name == "d1"
    assert d.X.shape == (14, 2) and d.X.dtype == np.float64
    assert d.y.dtype == np.int64
    np.testing.assert_array_equal(d.X, X)
    np.testing.assert_array_equal(d.y, y)
    assert list(d.y[:8]) == [1] * 8 and list(d.y[8:]) == [-1] * 6
    assert "15" in d.source
    assert d.settings["C"] == math.inf
    assert d.settings["kernel"] == "linear" and d.settings["loss"] == "hinge"
    assert d.settings["bias"] == "free" and d.settings["solver"] == "smo"


def test_d2_matches_slide_21_and_extends_d1():
    d1, d2 = ds.d1(), ds.d2()
    X, y = _xy(SLIDE_15 + SLIDE_21_EXTRA)
    assert d2.X.shape == (18, 2)
    np.testing.assert_array_equal(d2.X, X)
    np.testing.assert_array_equal(d2.y, y)
    np.testing.assert_array_equal(d2.X[:14], d1.X)
    np.testing.assert_array_equal(d2.y[:14], d1.y)
    np.testing.assert_array_equal(d2.X[14:], [[4, 2], [2, 3], [3, 2], [5, 3]])
    np.testing.assert_array_equal(d2.y[14:], [1, 1, -1, -1])
    assert d2.settings["C"] == 1.0 and d2.settings["kernel"] == "linear"


def test_two_point():
    d = ds.two_point()
    np.testing.assert_array_equal(d.X, [[2, 2], [1, 1]])
    np.testing.assert_array_equal(d.y, [1, -1])
    assert d.settings["C"] == math.inf and d.settings["solver"] == "qp"


def test_all_registered_sets_are_well_formed():
    for name in ds.BOOK + ds.GENERATORS:
        d = ds.load(name)
        assert isinstance(d, ds.Dataset)
        assert d.name == name
        assert d.X.ndim == 2 and d.X.shape[1] == 2 and d.X.dtype == np.float64
        assert d.y.shape == (d.X.shape[0],) and d.y.dtype == np.int64
        assert set(np.unique(d.y)) == {-1, 1}
        assert np.all(np.isfinite(d.X))
        assert len(d.feature_names) == 2
        assert d.title and d.source
        assert set(d.settings) == SETTING_KEYS
        assert d.settings["kernel"] in ("linear", "polynomial", "gaussian")
        assert d.settings["loss"] in ("hinge", "quadratic")
        assert d.settings["bias"] in ("free", "augmented")
        assert d.settings["solver"] in ("smo", "qp", "newton", "sga")
        assert d.settings["C"] > 0


def test_arrays_are_read_only_and_calls_independent():
    a = ds.d1()
    with pytest.raises(ValueError):
        a.X[0, 0] = 99.0
    a.settings["C"] = 5.0  # a caller's dict must not leak into the next call
    assert ds.d1().settings["C"] == math.inf
    assert ds.d1() == ds.d1() and hash(ds.d1()) == hash(ds.d1())
    assert ds.d1() != ds.d2()


# ----------------------------------------------------------------------------------- iris


def test_iris_raw_shape_and_species():
    X, species = ds.iris_raw()
    assert X.shape == (150, 4) and X.dtype == np.float64
    assert species.shape == (150,)
    names, counts = np.unique(species, return_counts=True)
    assert list(names) == ["Iris-setosa", "Iris-versicolor", "Iris-virginica"]
    assert list(counts) == [50, 50, 50]
    # the file lists the species in blocks of 50
    assert set(species[:50]) == {"Iris-setosa"}
    assert set(species[50:100]) == {"Iris-versicolor"}
    assert set(species[100:]) == {"Iris-virginica"}
    np.testing.assert_array_equal(X[0], [5.1, 3.5, 1.4, 0.2])
    np.testing.assert_array_equal(X[149], [5.9, 3.0, 5.1, 1.8])


def test_iris_uses_uci_rows_35_and_38():
    X, _ = ds.iris_raw()
    np.testing.assert_array_equal(X[35 - 1], [4.9, 3.1, 1.5, 0.1])  # Fisher: 0.2 petal width
    np.testing.assert_array_equal(X[38 - 1], [4.9, 3.1, 1.5, 0.1])  # Fisher: 4.9,3.6,1.4,0.1


def test_iris_raw_returns_copies():
    X, s = ds.iris_raw()
    X[0, 0] = -1.0
    assert ds.iris_raw()[0][0, 0] == 5.1


def test_iris_setosa_view():
    d = ds.iris_setosa()
    X, species = ds.iris_raw()
    assert d.X.shape == (150, 2)
    np.testing.assert_array_equal(d.X, X[:, :2])
    assert int((d.y == -1).sum()) == 50 and int((d.y == 1).sum()) == 100
    np.testing.assert_array_equal(d.y == -1, species == "Iris-setosa")
    assert d.settings["bias"] == "augmented" and d.settings["solver"] == "sga"
    assert d.settings["C"] == 10.0 and d.settings["kernel"] == "linear"


def test_iris_versicolor_pca_view():
    d = ds.iris_versicolor_pca()
    _, species = ds.iris_raw()
    assert d.X.shape == (150, 2)
    assert d.feature_names == ("u1", "u2")
    np.testing.assert_allclose(d.X.mean(axis=0), 0.0, atol=1e-12)
    v = d.X.var(axis=0)
    assert v[0] >= v[1]
    # components are uncorrelated and their variances are the top two eigenvalues
    assert abs(np.cov(d.X.T)[0, 1]) < 1e-10
    X, _ = ds.iris_raw()
    eig = np.sort(np.linalg.eigvalsh(np.cov(X.T)))[::-1]
    np.testing.assert_allclose(np.cov(d.X.T).diagonal(), eig[:2], rtol=1e-10)
    np.testing.assert_array_equal(d.y == 1, species == "Iris-versicolor")
    assert int((d.y == 1).sum()) == 50
    # deterministic, signs included
    np.testing.assert_array_equal(d.X, ds.iris_versicolor_pca().X)
    s = d.settings
    assert (s["kernel"], s["degree"], s["coef0"], s["C"]) == ("polynomial", 2, 1.0, 10.0)


# ------------------------------------------------------------------------------ nonlinear


def test_nonlinear_is_quadratic_but_not_linearly_separable():
    svm = pytest.importorskip("sklearn.svm")
    d = ds.nonlinear()
    assert 25 <= len(d.y) <= 35
    assert d.X[:, 0].min() >= 0 and d.X[:, 0].max() <= 7
    assert d.X[:, 1].min() >= 0 and d.X[:, 1].max() <= 5
    quad = svm.SVC(kernel="poly", degree=2, coef0=1, gamma=1, C=4).fit(d.X, d.y)
    assert quad.score(d.X, d.y) == 1.0
    for C in (4.0, 1e4):
        lin = svm.SVC(kernel="linear", C=C).fit(d.X, d.y)
        assert lin.score(d.X, d.y) < 1.0
    s = d.settings
    assert (s["kernel"], s["degree"], s["coef0"], s["C"]) == ("polynomial", 2, 1.0, 4.0)
    np.testing.assert_array_equal(d.X, ds.nonlinear().X)


# ----------------------------------------------------------------------------- generators


@pytest.mark.parametrize("name", ds.GENERATORS)
def test_generator_reproducible_and_seeded(name):
    a = ds.load(name, n=60, seed=3)
    b = ds.load(name, n=60, seed=3)
    c = ds.load(name, n=60, seed=4)
    np.testing.assert_array_equal(a.X, b.X)
    np.testing.assert_array_equal(a.y, b.y)
    assert not np.array_equal(a.X, c.X)
    assert a.X.shape == (60, 2) and a.y.shape == (60,)
    assert int((a.y == 1).sum()) == 30 and int((a.y == -1).sum()) == 30


@pytest.mark.parametrize("name", ds.GENERATORS)
@pytest.mark.parametrize("n", [2, 3, 7, 20000])
def test_generator_sizes_and_both_classes(name, n):
    d = getattr(ds, name)(n=n, seed=1)
    assert d.X.shape == (n, 2)
    assert set(np.unique(d.y)) == {-1, 1}
    assert abs(int((d.y == 1).sum()) - int((d.y == -1).sum())) <= 1
    assert np.all(np.isfinite(d.X))


def test_generator_noise_zero_is_the_clean_shape():
    r = np.hypot(*ds.circles(n=40, noise=0.0, factor=0.3).X.T)
    np.testing.assert_allclose(np.sort(np.unique(np.round(r, 12))), [0.3, 1.0])
    d = ds.xor(n=40, noise=0.0)
    np.testing.assert_array_equal(np.abs(d.X), 1.0)
    np.testing.assert_array_equal(np.sign(d.X[:, 0] * d.X[:, 1]), d.y)
    m = ds.moons(n=40, noise=0.0)
    outer = m.X[m.y == -1]
    np.testing.assert_allclose(np.hypot(*outer.T), 1.0)
    b = ds.blobs(n=10, noise=0.0)
    np.testing.assert_array_equal(b.X[b.y == 1], 1.5)
    np.testing.assert_array_equal(b.X[b.y == -1], -1.5)


def test_generator_settings():
    assert ds.blobs().settings["kernel"] == "linear"
    for name in ("moons", "circles", "xor"):
        s = ds.load(name).settings
        assert s["kernel"] == "gaussian" and s["sigma"] == 1.0 and s["C"] == 1.0


# -------------------------------------------------------------------------------- load()


def test_load_unknown_name_lists_valid_names():
    with pytest.raises(ValueError, match="no_such_set") as err:
        ds.load("no_such_set")
    for valid in ds.BOOK + ds.GENERATORS:
        assert valid in str(err.value)


@pytest.mark.parametrize(
    ("params", "bad"),
    [
        ({"n": 1}, "got 1"),
        ({"n": 0}, "got 0"),
        ({"n": -5}, "got -5"),
        ({"n": ds.MAX_N + 1}, f"got {ds.MAX_N + 1}"),
        ({"n": 10.5}, "got 10.5"),
        ({"n": "100"}, "got '100'"),
        ({"n": True}, "got True"),
        ({"noise": -0.1}, "got -0.1"),
        ({"noise": math.nan}, "got nan"),
        ({"noise": math.inf}, "got inf"),
        ({"noise": "x"}, "got 'x'"),
        ({"seed": 1.5}, "got 1.5"),
        ({"seed": -1}, "got -1"),
        ({"seed": None}, "got None"),
        ({"bogus": 3}, "'bogus'; it accepts n, noise, seed"),
    ],
)
@pytest.mark.parametrize("name", ds.GENERATORS)
def test_load_bad_generator_params(name, params, bad):
    # a bad value is quoted at the end of the message ("... got <value>")
    pattern = re.escape(bad) + ("$" if bad.startswith("got ") else "")
    with pytest.raises(ValueError, match=pattern):
        ds.load(name, **params)


def test_load_params_on_book_set_rejected():
    with pytest.raises(ValueError, match="'d1' got unexpected parameter.*'n'"):
        ds.load("d1", n=10)


def test_circles_bad_factor():
    for f in (0, 1, 1.5, -0.2, math.nan):
        with pytest.raises(ValueError, match="factor"):
            ds.load("circles", factor=f)


def test_load_accepts_numpy_scalars():
    d = ds.load("moons", n=np.int64(12), noise=np.float64(0.1), seed=np.int32(2))
    assert d.X.shape == (12, 2)


# ----------------------------------------------------------------------------- hypothesis


@settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    name=st.sampled_from(ds.GENERATORS),
    n=st.integers(min_value=2, max_value=3000),
    noise=st.floats(min_value=0.0, max_value=10.0, allow_nan=False),
    seed=st.integers(min_value=0, max_value=2**32),
)
def test_fuzz_valid_generator_params(name, n, noise, seed):
    d = ds.load(name, n=n, noise=noise, seed=seed)
    assert d.X.shape == (n, 2) and d.y.shape == (n,)
    assert np.all(np.isfinite(d.X))
    assert set(np.unique(d.y)) == {-1, 1}


_bad_n = st.one_of(
    st.integers(max_value=1),
    st.integers(min_value=ds.MAX_N + 1),
    st.floats(allow_nan=True),
    st.text(max_size=3),
    st.none(),
    st.booleans(),
)
_bad_noise = st.one_of(
    st.floats(max_value=-1e-9),
    st.just(math.nan),
    st.just(math.inf),
    st.text(max_size=3),
    st.none(),
)
_bad_seed = st.one_of(st.integers(max_value=-1), st.floats(), st.text(max_size=3), st.none())


@settings(max_examples=120, deadline=None)
@given(
    name=st.sampled_from(ds.GENERATORS),
    which=st.sampled_from(["n", "noise", "seed"]),
    data=st.data(),
)
def test_fuzz_invalid_generator_params(name, which, data):
    strategy = {"n": _bad_n, "noise": _bad_noise, "seed": _bad_seed}[which]
    value = data.draw(strategy)
    with pytest.raises(ValueError) as err:
        ds.load(name, **{which: value})
    assert which in str(err.value)
