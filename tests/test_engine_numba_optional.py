"""numba is optional (issue 18): the engine runs, and gives the book's answers, without it.

`svm_engine/jit.py` falls back to plain Python when `import numba` fails or when
NUMBA_DISABLE_JIT=1 (then every compiled function runs as the Python it is written in).
Here a fresh interpreter has `import numba` blocked (a meta-path finder that refuses it) and
runs what a student does: the book's fits, a Gaussian fit and a click (a warm refit after
an added point: the path that failed without numba). `make test` also runs a subset of the
engine tests with NUMBA_DISABLE_JIT=1 (the Makefile's `test-nojit`).

And one exact kernel evaluation (issue 18): training, predicting and drawing take their
kernel values from the same code (`kernel_values.kernel_column`), which forms ‖x − z‖² from
the differences, so a Gaussian fit far from the origin is the fit near it.
"""

import math

import numpy as np
import pytest

import svm_engine as se
from svm_engine import datasets as ds
from tests import fresh_python

SCRIPT = """
import json, math, sys, warnings
import numpy as np
import svm_engine as se
from svm_engine import datasets as ds
from svm_engine.jit import JIT

out = {"jit": JIT, "numba_loaded": "numba" in sys.modules}
d1 = ds.d1()
m = se.fit(d1.X, d1.y, C=math.inf)
out["d1"] = [*m.w.tolist(), m.b, m.converged]
d2 = ds.d2()
m = se.fit(d2.X, d2.y, C=1.0)
out["d2"] = [*m.w.tolist(), m.b, m.converged, float(m.xi.sum())]
d = ds.moons(n=60, noise=0.25, seed=1)
k = se.Gaussian(sigma=0.7)
cold = se.fit(d.X, d.y, kernel=k, C=1.0, tol=1e-5)
X2, y2 = np.vstack([d.X, [[0.0, 0.5]]]), np.append(d.y, d.y[0])
warm = se.fit(X2, y2, kernel=k, C=1.0, tol=1e-5, warm_start=cold)
again = se.fit(X2, y2, kernel=k, C=1.0, tol=1e-5)
out["click"] = [warm.converged, again.converged, warm.dual_objective, again.dual_objective]
out["predict"] = warm.predict(X2).tolist() == again.predict(X2).tolist()
far = se.fit(d.X + 1e7, d.y, kernel=k, C=1.0, tol=1e-5)
out["far"] = [far.converged, far.dual_objective, cold.dual_objective]
print(json.dumps(out))
"""


def test_the_engine_runs_without_numba():
    out = fresh_python.run(SCRIPT, blocked=("numba",))
    assert out["jit"] is False and out["numba_loaded"] is False
    w1, w2, b, converged = out["d1"]
    assert converged                                   # slide 16: w = (5/6, 1/3), b = −10/3
    np.testing.assert_allclose([w1, w2, b], [5 / 6, 1 / 3, -10 / 3], atol=1e-6)
    w1, w2, b, converged, xi = out["d2"]
    assert converged                                   # slides 22–23
    np.testing.assert_allclose([w1, w2, b, xi], [0.834, 0.333, -3.334, 5.667], atol=2e-3)
    warm_ok, cold_ok, warm_dual, cold_dual = out["click"]
    assert warm_ok and cold_ok and warm_dual == pytest.approx(cold_dual, rel=1e-6)
    assert out["predict"]
    far_ok, far_dual, near_dual = out["far"]
    assert far_ok and far_dual == pytest.approx(near_dual, rel=1e-6)


def test_blocking_works():
    """The blocker itself: with it, `import numba` fails (else the test above proves
    nothing)."""
    done = fresh_python.python("import numba", blocked=("numba",), timeout=60)
    assert done.returncode != 0 and "numba is blocked" in done.stderr


@pytest.mark.parametrize("offset", [1e4, 1e7])
def test_a_gaussian_fit_far_from_the_origin_is_the_fit_near_it(offset):
    """D1 and moons shifted far away: the same α, b and objectives as at the origin (the
    kernel depends on x − z only), and h from `decision_function` (predicting, drawing)
    equals h of the training points to rounding: the same kernel values (bit for bit:
    tests/test_kernels.py), summed in another order. ‖x‖² + ‖z‖² − 2xᵀz would lose every
    digit at 1e7."""
    for d, sigma in ((ds.d1(), 1.0), (ds.moons(n=80, noise=0.25, seed=2), 0.5)):
        k = se.Gaussian(sigma=sigma)
        near = se.fit(d.X, d.y, kernel=k, C=10.0, tol=1e-5)
        far = se.fit(d.X + offset, d.y, kernel=k, C=10.0, tol=1e-5)
        assert near.converged and far.converged
        # the points themselves are rounded when shifted: x + offset carries ~offset·ε
        assert far.dual_objective == pytest.approx(near.dual_objective, rel=1e-6)
        assert far.b == pytest.approx(near.b, rel=1e-5, abs=1e-5)
        np.testing.assert_array_equal(far.predict(d.X + offset), near.predict(d.X))
        h = far.decision_function(far.X)
        np.testing.assert_allclose(h, far.h_train, rtol=0,
                                   atol=1e-12 * max(1.0, float(np.abs(far.alpha).sum())))
        assert math.isfinite(far.margin)
