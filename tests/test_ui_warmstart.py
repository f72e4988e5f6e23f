"""ui.serving.warmstart.map_alpha: the previous α carried over to points edited by one."""

import numpy as np
import pytest

import svm_engine as se
from svm_engine import datasets
from ui.serving.warmstart import map_alpha

X = np.array([[0.0, 0.0], [1.0, 0.0], [2.0, 2.0], [3.0, 3.0]])
Y = np.array([-1, -1, 1, 1])
A = np.array([0.1, 0.2, 0.3, 0.4])


def test_added_point_gets_zero_and_others_keep_alpha():
    X2 = np.vstack([X, [[5.0, 5.0]]])
    a0 = map_alpha(X, Y, A, X2, np.append(Y, 1))
    np.testing.assert_array_equal(a0, [0.1, 0.2, 0.3, 0.4, 0.0])


def test_deleted_point_is_dropped_in_the_new_order():
    a0 = map_alpha(X, Y, A, X[[0, 2, 3]], Y[[0, 2, 3]])
    np.testing.assert_array_equal(a0, [0.1, 0.3, 0.4])


def test_moved_point_starts_at_zero():
    X2 = X.copy()
    X2[1] = [1.5, 0.2]
    np.testing.assert_array_equal(map_alpha(X, Y, A, X2, Y), [0.1, 0.0, 0.3, 0.4])


def test_reordered_points_follow_their_alpha():
    order = [3, 1, 0, 2]
    np.testing.assert_array_equal(map_alpha(X, Y, A, X[order], Y[order]), A[order])


def test_label_flip_counts_as_a_change():
    Y2 = Y.copy()
    Y2[0] = 1
    np.testing.assert_array_equal(map_alpha(X, Y, A, X, Y2), [0.0, 0.2, 0.3, 0.4])


def test_duplicates_are_matched_one_to_one():
    Xd = np.array([[1.0, 1.0], [1.0, 1.0], [2.0, 2.0]])
    Yd = np.array([1, 1, -1])
    a0 = map_alpha(Xd, Yd, np.array([0.5, 0.7, 1.2]), Xd[[0, 2]], Yd[[0, 2]])
    np.testing.assert_array_equal(a0, [0.5, 1.2])


@pytest.mark.parametrize(
    "X2, Y2",
    [
        (np.vstack([X, [[5, 5], [6, 6]]]), np.append(Y, [1, 1])),  # two added
        (X[:2], Y[:2]),  # two deleted
        (X + 10.0, Y),  # everything moved
        (np.zeros((0, 2)), np.zeros(0)),  # nothing left
        (np.zeros((4, 3)), Y),  # wrong shape
    ],
)
def test_too_many_changes_or_bad_shapes_give_none(X2, Y2):
    assert map_alpha(X, Y, A, X2, Y2) is None


def test_warm_start_reaches_the_same_optimum_as_a_cold_start():
    d = datasets.nonlinear()
    k = se.Gaussian(1.0)
    cap = 20_000  # never hang the suite if SMO stalls
    m = se.fit(d.X, d.y, k, C=4.0, max_iter=cap)
    X2 = np.vstack([d.X, [[3.3, 2.2]]])
    y2 = np.append(d.y, 1)
    a0 = map_alpha(d.X, d.y, m.alpha, X2, y2)
    warm = se.fit(X2, y2, k, C=4.0, alpha0=a0, max_iter=cap)
    cold = se.fit(X2, y2, k, C=4.0, max_iter=cap)
    assert warm.converged and cold.converged
    assert warm.dual_objective == pytest.approx(cold.dual_objective, rel=1e-3)
    assert warm.n_iter < cold.n_iter
