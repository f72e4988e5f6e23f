"""Our kernels in scikit-learn's words, for the tests that compare with SVC / SVR (the same
words se.SVC and se.SVR take: test_estimator_sklearn_parity.py)."""


def sk_params(kernel) -> dict:
    """scikit-learn's names for our kernel (its poly kernel is (γxᵀz + c)^q: γ = 1)."""
    if kernel.name == "linear":
        return {"kernel": "linear"}
    if kernel.name == "polynomial":
        return {"kernel": "poly", "degree": kernel.degree, "coef0": kernel.coef0, "gamma": 1.0}
    return {"kernel": "rbf", "gamma": kernel.gamma}
