"""Bad input → ValueError whose message names the bad value and what was expected
(issue 2, "Must show": bad input), non-convergence → a warning, and labels of any two values.
"""

import math
import re
import warnings

import numpy as np
import pytest
from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp

import svm_engine as se
from svm_engine import datasets as ds
from svm_engine import validation as v
from svm_engine.certify import FailureKind

EPS = float(np.finfo(float).eps)

X3 = [[0.0, 0.0], [1.0, 1.0], [2.0, 0.0]]
Y3 = [0, 1, 1]


def fails(match, **kw):
    """se.fit(**kw) raises ValueError with `match` (a regex) in its message; returns it."""
    kw.setdefault("X", X3)
    kw.setdefault("y", Y3)
    with pytest.raises(ValueError, match=match) as info:
        se.fit(**kw)
    return str(info.value)


# -- X -------------------------------------------------------------------------------------

@pytest.mark.parametrize("X", [np.empty((0, 2)), [], np.empty((0,))], ids=["(0,2)", "[]", "(0,)"])
def test_empty_X(X):
    fails(r"X is empty", X=X, y=[])


@pytest.mark.parametrize("X, shape", [([1.0, 2.0, 3.0], r"1-D with shape \(3,\)"),
                                      (np.zeros((3, 2, 1)), r"3-D with shape \(3, 2, 1\)")])
def test_X_not_2d(X, shape):
    fails(rf"X must be 2-D with shape \(n, d\), got {shape}", X=X)


def test_X_with_no_features():
    fails(r"X has 0 features", X=np.empty((3, 0)))


@pytest.mark.parametrize("X, what", [
    ([["a", "b"], ["c", "d"], ["e", "f"]], r"X must be numeric, got dtype <U1"),
    (np.array([[1, None], [1, 2], [3, 4]], dtype=object), r"X must be numeric, got dtype object"),
    (np.ones((3, 2)) * 1j, r"X must be real numbers, got complex"),
    ([[1.0, 2.0], [3.0], [4.0, 5.0]], r"X could not be read as an array"),
])
def test_X_not_numeric(X, what):
    fails(what, X=X)


@pytest.mark.parametrize("bad", [math.nan, math.inf, -math.inf])
def test_X_not_finite_names_the_value_and_where(bad):
    X = np.array(X3)
    X[2, 1] = bad
    msg = fails(r"X contains a non-finite value", X=X)
    assert repr(float(bad)) in msg and "row 2, column 1" in msg


def test_X_too_large_for_the_kernel():
    """Finite X whose kernel values overflow: an error, not silent NaN from the solver."""
    X = [[1e200, 0.0], [0.0, 1e200], [1.0, 1.0]]
    fails(r"X is too large for this kernel .* max \|xᵢₖ\| = 1e\+200", X=X)
    fails(r"X is too large", X=[[1e80, 0.0], [0.0, 1.0], [1.0, 1.0]],
          kernel=se.Polynomial(degree=3, coef0=1.0))
    fails(r"X is too large", X=X, kernel=se.Gaussian(sigma=1.0))   # ‖x − z‖² = inf
    # large but representable: accepted. With C = 1e-150 the objectives (2e-200) are below
    # what C times the rounding of a slack on the margin could change (~1e-164), so the
    # certificate cannot back "converged" in double precision and says so (issue 33 item 9)
    with pytest.warns(se.ConvergenceWarning, match="objective_rounding"):
        m = se.fit([[1e100, 0.0], [0.0, 1e100], [1.0, 1.0]], Y3, C=1e-150)
    assert not m.converged and np.isfinite(m.alpha).all()
    assert m.diagnostics.certificate.failure.kind is FailureKind.OBJECTIVE_ROUNDING


# -- y -------------------------------------------------------------------------------------

def test_len_X_differs_from_len_y():
    fails(r"len\(y\) = 2 but len\(X\) = 3", y=[0, 1])


@pytest.mark.parametrize("y, what", [([1, 1, 1], r"only one class \[1\]"),
                                     (["a", "a", "a"], r"only one class \['a'\]")])
def test_one_class(y, what):
    fails(what, y=y)


def test_more_than_two_classes():
    fails(r"y has 3 classes \[0, 1, 2\]; expected exactly two", y=[0, 1, 2])


@pytest.mark.parametrize("y, what", [(None, r"y is None"),
                                     ([0.0, math.nan, 1.0], r"y contains NaN"),
                                     ([[0, 1], [1, 1], [1, 0]], r"y must be 1-D, got shape")])
def test_bad_y(y, what):
    fails(what, y=y)


# -- C, kernel parameters ------------------------------------------------------------------

@pytest.mark.parametrize("C", [0, 0.0, -1.0, -math.inf, math.nan])
def test_C_not_positive(C):
    msg = fails(r"C must be > 0", C=C)
    assert repr(float(C)) in msg


@pytest.mark.parametrize("C", ["1", None, True, [1.0]])
def test_C_not_a_number(C):
    msg = fails(r"C must be a positive number or math.inf", C=C)
    assert repr(C) in msg


@pytest.mark.parametrize("sigma", [0, 0.0, -1.0, math.nan, math.inf, "1", None])
def test_sigma_not_positive(sigma):
    with pytest.raises(ValueError, match=r"sigma must be a finite number > 0, got") as info:
        se.Gaussian(sigma=sigma)
    assert repr(sigma) in str(info.value)


@pytest.mark.parametrize("sigma", [1e-300, 1e300])
def test_sigma_whose_gamma_overflows(sigma):
    with pytest.raises(ValueError, match=r"out of range: γ = 1/\(2σ²\)"):
        se.Gaussian(sigma=sigma)


@pytest.mark.parametrize("degree", [0, -1, 2.5, "2", True, None, math.nan])
def test_degree_not_an_integer_at_least_1(degree):
    with pytest.raises(ValueError, match=r"degree must be an integer ≥ 1, got") as info:
        se.Polynomial(degree=degree)
    assert repr(degree) in str(info.value)


def test_integral_degrees_are_accepted():
    assert se.Polynomial(degree=2.0).degree == 2 and se.Polynomial(degree=np.int64(3)).degree == 3


@pytest.mark.parametrize("coef0", [math.nan, math.inf, "1"])
def test_coef0_not_finite(coef0):
    with pytest.raises(ValueError, match=r"coef0 must be a finite number"):
        se.Polynomial(degree=2, coef0=coef0)


def test_kernel_given_by_name_to_fit():
    # a name has no parameters: the message names the objects, make_kernel and se.SVC
    fails(r"kernel='rbf' is a name; fit takes a kernel object: se.Linear\(\), .*"
          r"se.make_kernel\('rbf', ...\).*se.SVC\(kernel=...\)", kernel="rbf")
    fails(r"kernel must be se.Linear\(\), .* got 3", kernel=3)


# -- loss, bias, solver and their combinations ---------------------------------------------

def test_quadratic_loss_with_infinite_C():
    fails(r"C = inf \(hard margin\) needs loss='hinge'", C=math.inf, loss="quadratic")


@pytest.mark.parametrize("name, value", [("solver", "libsvm"), ("loss", "log"),
                                         ("bias", "none"), ("wss", "random")])
def test_unknown_choice_names_the_value_and_the_choices(name, value):
    msg = fails(rf"unknown {name} '{value}'; expected one of", **{name: value})
    choices = {"solver": se.SOLVERS, "loss": se.LOSSES, "bias": se.BIASES, "wss": se.WSS_RULES}
    assert all(repr(c) in msg for c in choices[name])


@pytest.mark.parametrize("kw, supported", [
    ({"solver": "smo", "bias": "augmented"}, r"solver 'smo' supports bias \('free',\)"),
    ({"solver": "sga", "bias": "free"}, r"solver 'sga' supports bias \('augmented',\)"),
    ({"solver": "newton", "bias": "augmented", "loss": "hinge"},
     r"solver 'newton' supports loss \('quadratic',\)"),
    ({"solver": "newton", "bias": "free", "loss": "quadratic"},
     r"solver 'newton' supports bias \('augmented',\)"),
    ({"solver": "qp", "qp_form": "primal", "kernel": se.Gaussian(sigma=1.0)},
     r"qp_form='primal' needs the linear kernel, got kernel 'gaussian'"),
])
def test_unsupported_combination_names_the_supported_ones(kw, supported):
    fails(supported, **kw)


def test_check_combination_agrees_with_fit():
    for solver in se.SOLVERS:
        for loss in se.LOSSES:
            for bias in se.BIASES:
                try:
                    se.check_combination(se.Linear(), loss, bias, solver, 1.0)
                    ok = True
                except ValueError:
                    ok = False
                s = se.supported(solver)
                assert ok == (loss in s["loss"] and bias in s["bias"]), (solver, loss, bias)


@pytest.mark.parametrize("kw, what", [({"tol": -1}, r"tol must be a finite number > 0, got -1"),
                                      ({"tol": math.nan}, r"tol must be .* got nan"),
                                      ({"max_iter": 0}, r"max_iter must be an integer ≥ 1"),
                                      ({"max_iter": 2.5}, r"max_iter must be an integer ≥ 1"),
                                      ({"alpha0": [1.0, 2.0]}, r"alpha0 must be 3 finite"),
                                      ({"alpha0": [1.0, math.nan, 0.0]}, r"alpha0 must be 3")])
def test_bad_solver_settings(kw, what):
    fails(what, **kw)


# -- hard margin on non-separable data -------------------------------------------------------

@pytest.mark.parametrize("solver, bias", [("smo", "free"), ("qp", "free"), ("qp", "augmented"),
                                          ("sga", "augmented")])
def test_hard_margin_on_d2_is_not_separable(solver, bias):
    d = ds.d2()
    msg = fails(se.NOT_SEPARABLE, X=d.X, y=d.y, C=math.inf, solver=solver, bias=bias)
    assert "linear" in msg and "finite C" in msg   # names the kernel and the way out


def test_hard_margin_error_depends_on_the_feature_space():
    """D2 is not linearly separable, but it is in the Gaussian kernel's feature space."""
    d = ds.d2()
    m = se.fit(d.X, d.y, C=math.inf, kernel=se.Gaussian(sigma=1.0), solver="smo", tol=1e-6)
    assert m.converged and (m.y * m.h_train >= 1 - 1e-6).all()


# -- non-convergence is a warning ----------------------------------------------------------

@pytest.mark.parametrize("kw", [{"solver": "smo"}, {"solver": "smo", "trace": True},
                                {"solver": "qp"},
                                {"solver": "sga", "bias": "augmented"},
                                {"solver": "newton", "bias": "augmented", "loss": "quadratic",
                                 "kernel": se.Gaussian(sigma=0.5)}])
def test_max_iter_reached_warns_and_flags_the_model(kw):
    d = ds.moons(n=60, noise=0.3, seed=0)
    with pytest.warns(se.ConvergenceWarning, match=r"max_iter|cvxopt status") as rec:
        m = se.fit(d.X, d.y, C=10.0, tol=1e-12, max_iter=1, **kw)
    assert len(rec) == 1
    assert m.converged is False and m.n_iter == 1
    assert m.status in str(rec[0].message)
    assert m.alpha.shape == (60,) and np.isfinite(m.dual_objective)


def test_converged_fit_does_not_warn():
    d = ds.moons(n=60, noise=0.3, seed=0)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        m = se.fit(d.X, d.y, C=10.0, kernel=se.Gaussian(sigma=0.5))
    assert m.converged


# -- labels --------------------------------------------------------------------------------

@pytest.mark.parametrize("labels", [("no", "yes"), (3, 7), (-1, 1), (0, 1), (False, True),
                                    (2.5, -0.5), ("setosa", "other")])
def test_any_two_labels_map_to_minus_plus_in_sorted_order(labels):
    d = ds.d1()
    lo, hi = sorted(labels)
    y = np.array([hi if t > 0 else lo for t in d.y], dtype=object if isinstance(lo, str)
                 else None)
    m = se.fit(d.X, y, C=10.0, solver="smo", tol=1e-8)
    assert list(m.classes) == [lo, hi]
    np.testing.assert_array_equal(m.y, np.where(d.y > 0, 1.0, -1.0))
    pred = m.predict(d.X)
    assert [p == lo or p == hi for p in pred] == [True] * len(pred)
    np.testing.assert_array_equal(pred, y)     # D1 is separable: every point back right
    # the same hyperplane as with ±1 labels
    ref = se.fit(d.X, d.y, C=10.0, solver="smo", tol=1e-8)
    np.testing.assert_allclose(m.w, ref.w, atol=1e-6)


def test_labels_in_reverse_order_flip_the_sign():
    d = ds.d1()
    flipped = se.fit(d.X, np.where(d.y > 0, "a", "b"), C=10.0, tol=1e-8)   # "a" < "b": a ↦ −1
    ref = se.fit(d.X, d.y, C=10.0, tol=1e-8)
    np.testing.assert_allclose(flipped.w, -ref.w, atol=1e-6)
    assert flipped.b == pytest.approx(-ref.b, abs=1e-6)


_MAGNITUDES = st.sampled_from([1e-3, 1.0, 1e150, 1e160])     # 1e160² overflows
_LABELS = st.sampled_from([(0.0, 1.0), (0.0, 1.0), (-2.0, 1.0), (0.0,), (0.0, 1.0, -2.0),
                           (0.0, math.nan), (math.inf, 1.0),
                           # int64 (the pages'), beyond 2⁵³ too: compared as integers
                           (0, 1), (-1, 1), (3,), (0, 1, -2), (2**62, 2**62 + 1),
                           (-2**63, 2**63 - 1)])


@settings(max_examples=300, deadline=None)
@given(X=hnp.arrays(np.float64, hnp.array_shapes(min_dims=2, max_dims=2, min_side=1,
                                                 max_side=11), elements=st.floats(-3, 3)),
       scale=_MAGNITUDES, bad=st.sampled_from([None, None, math.nan, math.inf, -math.inf]),
       labels=_LABELS, seed=st.integers(0, 2**16))
def test_check_data_is_check_X_and_check_y(X, scale, bad, labels, seed):
    """`check_data`'s fast path (the common case) says what the two checks say: the same
    arrays and max ‖xᵢ‖² (to rounding), or it leaves the case to them (and their messages)."""
    from svm_engine import validation as v

    rng = np.random.default_rng(seed)
    X = X * scale
    if bad is not None:
        X.flat[rng.integers(X.size)] = bad
    y = rng.choice(np.array(labels), size=len(X))

    def outcome(f):
        try:
            return f()
        except ValueError as exc:
            return str(exc)

    got = outcome(lambda: v.check_data(X, y))
    ref = outcome(lambda: (v.check_X(X), *v.check_y(y, len(X))))
    if isinstance(ref, str):
        assert got == ref
        return
    Xc, y_pm, classes, norm2 = got
    for a, b in zip((Xc, y_pm, classes), ref, strict=True):
        np.testing.assert_array_equal(a, b)
        assert a.dtype == b.dtype      # classes: y's own dtype (float64, int64)
    # and both as numpy says (the two share the label pass)
    u = np.unique(y)
    assert len(u) == 2 and np.isfinite(u).all() and np.isfinite(X).all()
    np.testing.assert_array_equal(classes, u)
    np.testing.assert_array_equal(y_pm, np.where(y == u[1], 1.0, -1.0))
    with np.errstate(over="ignore"):
        m = float(np.cumsum(Xc * Xc, axis=1)[:, -1].max())   # summed in feature order
    event("fast path" if norm2 is not None else "slow path")
    # a sum of d terms: within d roundings of the sum in feature order (inf: it overflowed)
    assert norm2 is None or norm2 == m or abs(norm2 - m) <= 2 * X.shape[1] * EPS * m
    if not math.isfinite(m):
        assert norm2 is None      # overflow: left to check_kernel_range's message


# -- fuzz: anything malformed is a ValueError, never another exception -----------------------

finite = st.floats(-1e3, 1e3, allow_nan=False)
weird_number = st.one_of(st.floats(), st.integers(-5, 5), st.just(None), st.text(max_size=2),
                         st.booleans(), st.lists(finite, max_size=2))
weird_X = st.one_of(
    hnp.arrays(np.float64, hnp.array_shapes(min_dims=0, max_dims=3, max_side=5),
               elements=st.floats(width=64)),
    st.lists(st.lists(st.one_of(finite, st.text(max_size=1), st.none()), max_size=3),
             max_size=5),
    hnp.arrays(np.float64, st.tuples(st.integers(0, 6), st.integers(0, 3)), elements=finite),
)
weird_y = st.one_of(st.lists(st.one_of(st.integers(0, 2), st.sampled_from(["a", "b"]),
                                       st.floats(allow_nan=True)), max_size=6),
                    st.none(), hnp.arrays(np.int64, st.integers(0, 6), elements=st.integers(0, 3)))


def kernel_from(name, value):
    if name == "linear":
        return se.Linear()
    if name == "polynomial":
        return se.Polynomial(degree=value)
    return se.Gaussian(sigma=value)


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(X=weird_X, y=weird_y, C=weird_number,
       kernel=st.tuples(st.sampled_from(["linear", "polynomial", "gaussian"]), weird_number),
       loss=st.sampled_from(["hinge", "quadratic", "squared", 1]),
       bias=st.sampled_from(["free", "augmented", None]),
       solver=st.sampled_from(["smo", "qp", "sga", "newton", "svm"]),
       tol=st.one_of(st.none(), weird_number),
       max_iter=st.one_of(st.none(), st.integers(-2, 50)))
def test_fuzz_bad_inputs_raise_value_error_only(X, y, C, kernel, loss, bias, solver, tol,
                                                max_iter):
    try:
        k = kernel_from(*kernel)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", se.ConvergenceWarning)
            m = se.fit(X, y, kernel=k, C=C, loss=loss, bias=bias, solver=solver, tol=tol,
                       max_iter=max_iter)
    except ValueError as exc:
        assert str(exc) and not re.match(r"^\s*$", str(exc))
        event("rejected")
        return
    event("accepted")
    # accepted: then it was a valid problem, and the answer is made of finite numbers
    assert np.isfinite(m.alpha).all() and math.isfinite(m.b)
    assert np.isfinite(m.decision_function(m.X)).all()
    assert set(np.unique(m.predict(m.X))) <= set(m.classes.tolist())


@pytest.mark.parametrize("solver, kw", [("newton", {"loss": "quadratic", "bias": "augmented"}),
                                        ("psvm", {"loss": "quadratic", "bias": "augmented"})])
def test_a_C_so_large_that_the_numbers_overflow_is_a_value_error(solver, kw):
    d = se.datasets.d2()
    with np.errstate(all="ignore"), pytest.raises(ValueError, match=r"C = 1e\+300 is too large"):
        se.fit(d.X, d.y, C=1e300, solver=solver, **kw)
    assert se.fit(d.X, d.y, C=10.0, solver=solver, **kw).converged   # a sane C still fits


def test_a_polynomial_with_negative_c_is_refused_by_fit():
    # not a kernel: SMO and cvxopt stop at a KKT point the certificate would call optimal
    import svm_engine as se
    from svm_engine import datasets

    d = datasets.circles(n=20, noise=0.1, seed=0)
    with pytest.raises(ValueError, match=r"c = -1.0 < 0 is not a kernel"):
        se.fit(d.X, d.y, kernel=se.Polynomial(2, -1.0))
    se.fit(d.X, d.y, kernel=se.Polynomial(2, 0.0), C=1.0)  # c = 0 (homogeneous) is one


@pytest.mark.parametrize("case", ["ok", "nan_x", "inf_x", "huge_x", "nan_y", "inf_y", "one_label",
                                  "three_labels"])
def test_check_data_compiled_pass_agrees_with_the_two_checks(case):
    """check_data's compiled pass (`validation._scan`, issue 31) accepts exactly what
    check_X and check_y accept, with the same labels, and leaves every bad input to them
    (their messages): each case breaks one thing in a float64 X and y."""
    rng = np.random.default_rng(3)
    X, y = rng.normal(size=(50, 3)), np.where(rng.random(50) > 0.5, 4.0, -2.5)
    y[:2] = (4.0, -2.5)
    if case == "nan_x":
        X[7, 1] = np.nan
    elif case == "inf_x":
        X[9, 2] = -np.inf
    elif case == "huge_x":
        X[3, 0] = 1e200            # finite, ‖x‖² overflows: the slow path accepts it
    elif case == "nan_y":
        y[5] = np.nan
    elif case == "inf_y":
        y[5] = np.inf
    elif case == "one_label":
        y[:] = 4.0
    elif case == "three_labels":
        y[5] = 1.0
    try:
        X_ref = v.check_X(X)
        y_ref, classes_ref = v.check_y(y, len(X_ref))
    except ValueError as exc:
        with pytest.raises(ValueError) as got:
            v.check_data(X, y)
        assert str(got.value) == str(exc)
        assert case not in ("ok", "huge_x")
        return
    X2, y_pm, classes, norm2 = v.check_data(X, y)
    np.testing.assert_array_equal(X2, X_ref)
    np.testing.assert_array_equal(y_pm, y_ref)
    np.testing.assert_array_equal(classes, classes_ref)
    assert case in ("ok", "huge_x")
    assert (norm2 is None) == (case == "huge_x")
    if norm2 is not None:
        assert norm2 == pytest.approx(float(np.einsum("ij,ij->i", X, X).max()), rel=1e-14)
