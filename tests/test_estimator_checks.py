"""scikit-learn's own estimator suite on se.SVC (issue 18) and se.SVR (issue 30).

The suite runs every check that applies to a binary, dense-input classifier; the multi-class
ones are skipped by scikit-learn itself, from the tags SVC declares. A check that fails here
is a broken promise to whoever drops se.SVC or se.SVR into a scikit-learn pipeline.
"""

import pytest
from sklearn.utils.estimator_checks import parametrize_with_checks

import svm_engine as se

pytestmark = pytest.mark.filterwarnings("ignore::sklearn.exceptions.SkipTestWarning")


@parametrize_with_checks([se.SVC(), se.SVC(kernel="linear"), se.SVR(), se.SVR(kernel="linear")])
def test_sklearn_estimator_checks(estimator, check):
    check(estimator)
