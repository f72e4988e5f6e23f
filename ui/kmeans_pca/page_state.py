"""The Kernel k-means & PCA page's state: one object under one session key
(``ui.shared.session``)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, ClassVar

from ui.shared.session import PageState


@dataclass
class KernelKmeansPca(PageState):
    """What the page remembers between runs; widget keys start with ``PREFIX``."""

    KEY: ClassVar[str] = "svmlab.kernel_kmeans_pca"
    PREFIX: ClassVar[str] = "kkp."

    new: list = field(default_factory=list)  # the points added by clicks [(x1, x2)]
    run_key: Any = None  # the k-means run the step slider belongs to
