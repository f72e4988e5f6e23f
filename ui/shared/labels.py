"""The words for the settings' values (pure): the same in every page's widgets and text."""

from svm_engine.solvers import registry as _solvers
from ui.shared.numbers import MINUS, fmt_setting

DATASET_LABELS = {
    "d1": "Book D1: separable (slide 15)",
    "d2": "Book D2: not separable (slide 21)",
    "iris_setosa": "Iris: setosa vs others (slide 34)",
    "iris_versicolor_pca": "Iris: versicolor vs others, PCA (slide 35)",
    "nonlinear": "Nonlinear bump (slide 25)",
    "two_point": "Two points: KKT by hand",
    "blobs": "Generator: two blobs",
    "moons": "Generator: moons",
    "circles": "Generator: circles",
    "xor": "Generator: XOR",
}
KERNEL_LABELS = {"linear": "linear", "polynomial": "polynomial", "gaussian": "Gaussian (RBF)"}
COEF0_LABELS = {0.0: "homogeneous c = 0", 1.0: "inhomogeneous c = 1"}
LOSS_LABELS = {"hinge": "hinge (k = 1)", "quadratic": "quadratic (k = 2)"}
BIAS_LABELS = {"free": "free b", "augmented": "augmented (b in w, as in the book)"}
WSS_LABELS = {"second_order": "second order (LIBSVM)", "max_violating_pair": "max violating pair"}
#: The solvers as a student reads them in the numbers and the messages (the engine's names,
#: "smo", "qp", are the API's and the address bar's), from the engine's one table of solvers.
SOLVER_LABELS = {s.key: s.label for s in _solvers.SOLVERS}
#: Their short names (sentences, table cells, limits, chart titles): one table for every page.
SOLVER_NAMES = {s.key: s.name for s in _solvers.SOLVERS}
#: What one step of each iterative solver is called (SGA's per-coordinate mode aside).
SOLVER_STEPS = {s.key: s.step for s in _solvers.SOLVERS}
#: SMO's rule for the pair of α it changes in each step.
WSS_WORDS = {"second_order": "second-order pair choice",
             "max_violating_pair": "maximal violating pair"}


def solver_text(solver: str, wss: str | None = None) -> str:
    """'SMO (Platt, second-order pair choice)': the solver and, for SMO, how it picks its pair."""
    label = SOLVER_LABELS.get(solver, str(solver))
    rule = WSS_WORDS.get(wss) if wss else None
    return f"{label[:-1]}, {rule})" if rule and label.endswith(")") else label


def kernel_formula(kernel) -> str:
    """A kernel (or gram.Sigmoid) with its formula, its numbers printed by ui.shared.numbers:
    "polynomial (inhomogeneous)  K(x,z) = (−1 + xᵀz)^2" (the engine's ``label`` says the same
    with Python's "-1" and "1e-05": that one is for its own messages)."""
    p = kernel.params
    if kernel.name == "linear":
        return "linear  K(x,z) = xᵀz"
    if kernel.name == "polynomial":
        kind = "homogeneous" if p["coef0"] == 0 else "inhomogeneous"
        return f"polynomial ({kind})  K(x,z) = ({fmt_setting(p['coef0'])} + xᵀz)^{p['degree']}"
    if kernel.name == "gaussian":
        sigma = fmt_setting(p["sigma"])
        sigma = f"({sigma})" if "·" in sigma else sigma     # (1·10⁻⁵)², not 1·10⁻⁵²
        return f"Gaussian  K(x,z) = exp(−‖x−z‖² / (2·{sigma}²))"
    if kernel.name == "sigmoid":
        sign = MINUS if p["coef0"] < 0 else "+"
        return (f"sigmoid  K(x,z) = tanh({fmt_setting(p['kappa'])}·xᵀz {sign} "
                f"{fmt_setting(abs(p['coef0']))})")
    return str(kernel.label)


def sigma_gamma(sigma: float) -> str:
    """Under the σ slider: the same width as the kernel lecture's γ (issue 27 item 9)."""
    return (f"σ = {fmt_setting(sigma)} is γ = 1/(2σ²) = {fmt_setting(1 / (2 * sigma * sigma))} "
            "in exp(−γ‖x − z‖²), the kernel lecture's and scikit-learn's form")
