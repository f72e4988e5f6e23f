"""The worked examples: the registry (one `Example` per tab, in the page's order), the overview
table, and `compute`, which runs an example now from the engine (no streamlit here).

Only the "book value" column is typed in (``book_values``: the numbers as printed, each citing
its slide of Zaki & Meira ch. 21 or another source, docs/sources.md). Every "app value" comes
from `svm_engine.fit` when the page runs (one module per example, ``ex_*.py``), and every
"match" from ``match.matches_printed``, the one rule. Claims the slides make only in a figure
("no line separates these points") become rows whose match is a computed test of the claim,
stated in the row.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass

from ui.shared.book_setups import SETUPS, Setup
from ui.shared.cite import cite
from ui.worked_examples import (
    ex_d1,
    ex_d2,
    ex_dual_primal,
    ex_iris,
    ex_kernels,
    ex_nonlinear,
    ex_psvm,
    ex_two_point,
)
from ui.worked_examples.match import CROSS, mark
from ui.worked_examples.result import Result


@dataclass(frozen=True)
class Example:
    key: str
    number: int
    title: str
    source: str
    dataset: str
    settings_text: str
    compute: Callable[[], Result]
    setups: tuple[Setup, ...]
    strict: bool = True  # the book prints numbers: every match must be a tick

    @property
    def tab(self) -> str:
        return f"{self.number} · {TAB_LABELS[self.key]}"


EXAMPLES: tuple[Example, ...] = (
    Example("d1", 1, "D1: the separable case", "Zaki & Meira ch. 21, slides 15–16", "d1",
            "linear kernel, hard margin (C = ∞), free bias; smo (tol 1e-9) and qp (cvxopt, "
            "tol 1e-10)", ex_d1.compute, SETUPS["d1"]),
    Example("d2", 2, "D2: soft margin, hinge loss, C = 1", "Zaki & Meira ch. 21, slides 21–23",
            "d2", "linear kernel, hinge loss (k = 1), C = 1, free bias; smo (tol 1e-9) and qp",
            ex_d2.compute, SETUPS["d2"]),
    Example("iris", 3, "Iris setosa: h10 and h1000 with SVM-Dual", "Zaki & Meira ch. 21, "
            "slide 34", "iris_setosa", "linear kernel, hinge loss, bias folded into w "
            "(x′ = (x, 1)); SGA with the book's stopping rule ε = 1e-4; C = 10 and C = 1000",
            ex_iris.compute, SETUPS["iris"]),
    Example("kernels", 4, "Iris versicolor: linear against quadratic kernel",
            "Zaki & Meira ch. 21, slides 35 and 42", "iris_versicolor_pca",
            "first two principal components u1, u2; hinge loss, C = 10, bias folded into w, "
            "SGA; hl: linear, hq: K = (1 + xᵀz)²", ex_kernels.compute,
            SETUPS["kernels"], strict=False),
    Example("nonlinear", 5, "Nonlinear data: the inhomogeneous quadratic kernel",
            "Zaki & Meira ch. 21, slides 25 and 29", "nonlinear",
            "K = (1 + xᵀz)², hinge loss, C = 4, free bias; smo", ex_nonlinear.compute,
            SETUPS["nonlinear"], strict=False),
    Example("dual_primal", 6, "Dual against primal: SVM-Dual and SVM-Primal",
            "Zaki & Meira ch. 21, slides 40 and 42", "iris_setosa",
            "C = 10, bias folded into w; hd: SGA, hinge loss; hp: Newton, quadratic loss; "
            "linear kernel on the sepal features (slide 40), K = (1 + xᵀz)² on the principal "
            "components (slide 42)", ex_dual_primal.compute,
            SETUPS["dual_primal"], strict=False),
    Example("two_point", 7, "Two points: KKT by hand and the cvxopt primal QP",
            cite("kkt"), "two_point",
            "linear kernel, hard margin, free bias; qp on the primal (qp_form = \"primal\")",
            ex_two_point.compute, SETUPS["two_point"]),
    Example("psvm", 8, "Proximal SVM (Fung & Mangasarian) on D2",
            "Fung & Mangasarian, Proximal SVM, KDD 2001", "d2",
            "D2; PSVM with ν = 2C = 2 (solver psvm: quadratic loss, b folded into w) beside "
            "the SVM of slide 22 (smo, hinge, C = 1)", ex_psvm.compute,
            SETUPS["psvm"], strict=False),
)
BY_KEY = {e.key: e for e in EXAMPLES}
TAB_LABELS = {"d1": "D1 separable", "d2": "D2 soft margin", "iris": "Iris h10, h1000",
              "kernels": "Linear vs quadratic", "nonlinear": "Nonlinear data",
              "dual_primal": "Dual vs primal", "two_point": "Two points, cvxopt",
              "psvm": "Proximal SVM"}


def overview_table(results: Mapping[str, Result]) -> list[dict]:
    """One row per example: where it comes from and how many of its rows match (an example
    missing from ``results`` could not be computed)."""
    rows = []
    for e in EXAMPLES:
        r = results.get(e.key)
        if r is None:
            match = f"not computed {CROSS}"
        else:
            ok = sum(row.match for row in r.rows)
            match = f"{ok} of {len(r.rows)} {mark(ok == len(r.rows))}"
        rows.append({"example": f"{e.number} · {e.title}", "from": e.source,
                     "book values": "printed numbers" if e.strict else "figure / claims",
                     "match": match})
    return rows


def compute(key: str) -> Result:
    """The example's numbers, computed now from the engine."""
    return BY_KEY[key].compute()
