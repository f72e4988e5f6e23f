"""The Kernel perceptron & k-NN page's state: one object under one session key
(``ui.shared.session``)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, ClassVar

from ui.shared.session import PageState


@dataclass
class KernelPerceptronKnn(PageState):
    """What the page remembers between runs; widget keys start with ``PREFIX``."""

    KEY: ClassVar[str] = "svmlab.kernel_perceptron_knn"
    PREFIX: ClassVar[str] = "kpk."

    added: list = field(default_factory=list)  # the perceptron's clicked points [(x1, x2, ±1)]
    knn_added: list = field(default_factory=list)  # k-NN's points added by clicks [(x1, x2, label)]
    query: Any = None  # k-NN's query point (None: the points' mean)
    run_key: Any = None  # the perceptron run the step slider belongs to
