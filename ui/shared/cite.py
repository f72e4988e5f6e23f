"""Readable citations of the course's sources (pure): one place for their titles and authors,
so a page never says "seed 004" or a bare slide number a student cannot look up."""

from __future__ import annotations

import re
from dataclasses import dataclass


@dataclass(frozen=True)
class Source:
    key: str
    short: str      # what a page writes before the slide number
    title: str      # the full reference (Sources page, docs/sources.md)
    what: str       # what the app takes from it, in our words


SOURCES = (
    Source("chapter", "Zaki & Meira, ch. 21",
           "Mohammed J. Zaki and Wagner Meira Jr., Data Mining and Machine Learning: "
           "Fundamental Concepts and Algorithms, 2nd ed., chapter 21 (Support Vector "
           "Machines), lecture slides",
           "The notation, both losses, the duals, the kernels, the algorithms SVM-Dual and "
           "SVM-Primal, and the worked examples D1, D2 and Iris that the app reproduces."),
    Source("psvm", "Fung & Mangasarian, Proximal SVM",
           "Glenn Fung and Olvi L. Mangasarian, Proximal Support Vector Machine Classifiers, "
           "KDD 2001 (San Francisco), slides",
           "The proximal SVM: a classifier from one linear system, the extra solver PSVM."),
    Source("kernels", "Odobez, kernel methods lecture",
           "Jean-Marc Odobez, Machine Learning for Engineers: Kernel methods - Support "
           "Vector Machines, lecture slides",
           "Kernels and Mercer's condition, the Gaussian kernel written with γ, SVM "
           "regression with the ε-insensitive loss, SMO's maximal violating pair."),
    Source("perceptron", "Ribeiro, CS573 perceptron/SVM lecture",
           "Bruno Ribeiro, Data Mining CS57300 (Purdue University): Classification Tasks, "
           "Margin-based Classifiers (perceptron and SVMs), lecture of 25 January 2018",
           "The perceptron, the maximum-margin derivation and the hinge loss."),
    Source("kkt", "\"Note 4: Support Vector Machine SVM\" (KKT/SMO note)",
           "Note 4: Support Vector Machine SVM, a blog note of 2 June 2018",
           "The two-point example solved by hand with the KKT conditions, and Platt's SMO "
           "update (η, the box L, H)."),
)
BY_KEY = {s.key: s for s in SOURCES}


def cite(source: str, slide: int | str | None = None) -> str:
    """cite("chapter", 16) → "Zaki & Meira, ch. 21, slide 16"; slide may be "22–23"."""
    short = BY_KEY[source].short
    if slide is None:
        return short
    many = isinstance(slide, str) and any(c in slide for c in "–-,")
    return f"{short}, slide{'s' if many else ''} {slide}"


#: the syllabus's file numbers, as the engine's docstrings name the sources ("seed 004")
_BY_NUMBER = {"000": "chapter", "001": "psvm", "002": "kernels", "003": "perceptron",
              "004": "kkt"}
_SEED = re.compile(r"\bseed (?:document )?(00[0-4])\b")


def readable(text: str) -> str:
    """``text`` (an engine docstring shown on a page) with every "seed 004" or "seed document
    001" replaced by the source's citation."""
    return _SEED.sub(lambda m: cite(_BY_NUMBER[m.group(1)]), text)
