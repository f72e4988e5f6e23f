"""The documents SVM Lab teaches from, cited by their titles and authors (issue 27 item 10):
every page that names a source says it through ``cite``, never "seed 004". The Sources page
(pages/12_sources.py) and docs/sources.md list them with what the app takes from each; the
descriptions are ours, not the sources' text."""

from __future__ import annotations

import re
from dataclasses import dataclass


@dataclass(frozen=True)
class Source:
    key: str           # the project's own name for it (the file's number in the syllabus)
    short: str         # what a page writes inline
    reference: str     # the full reference (authors, title, where, when)
    used_for: str      # what the app takes from it, in our words


SOURCES = (
    Source("zaki", "Zaki & Meira, Data Mining and Machine Learning, ch. 21 slides",
           "Mohammed J. Zaki and Wagner Meira Jr., Data Mining and Machine Learning: "
           "Fundamental Concepts and Algorithms, 2nd ed., Cambridge University Press: the "
           "slides of chapter 21, Support Vector Machines (dataminingbook.info)",
           "the notation (h(x) = wᵀx + b, δ, the margin 1/‖w‖, α, ξ, C, k), the hard- and "
           "soft-margin duals for both losses, kernels, SVM-Dual (stochastic gradient ascent), "
           "SVM-Primal (Newton) and the worked examples on D1, D2 and Iris"),
    Source("psvm", "Fung & Mangasarian, Proximal SVM Classifiers (KDD 2001)",
           "Glenn Fung and Olvi L. Mangasarian, Proximal Support Vector Machine Classifiers, "
           "KDD 2001, San Francisco (slides; Data Mining Institute, University of "
           "Wisconsin–Madison)",
           "the proximal SVM: one linear system instead of a QP (Worked example 8, the psvm "
           "solver), and the bounding planes 2/‖w‖ apart"),
    Source("kernels", "Odobez, Kernel methods – Support Vector Machines (lecture)",
           "Jean-Marc Odobez, Machine Learning for Engineers: Kernel methods – Support Vector "
           "Machines (lecture slides)",
           "kernels and Mercer's condition, the Gaussian written with γ, kernelised k-NN, "
           "k-means and PCA, ε-insensitive regression (the Regression page) and SMO's pair choice"),
    Source("perceptron", "Ribeiro, Purdue CS57300 lecture on margin-based classifiers",
           "Bruno Ribeiro, CS57300 Data Mining, Purdue University: Classification tasks, "
           "margin-based classifiers (perceptron and SVMs), lecture of 25 January 2018",
           "the perceptron, the maximum-margin derivation and the losses of m = y·h(x) (the "
           "Losses & perceptron page)"),
    Source("kkt_note", "Note 4: Support Vector Machine SVM (blog note, 2018)",
           "Note 4: Support Vector Machine SVM, a blog note of 2 June 2018 (author not named)",
           "the two-point KKT example solved by hand and with cvxopt's primal QP (Worked "
           "example 7), Mercer's condition as a matrix test, and Platt's SMO update (L, H, η, "
           "Eᵢ) shown in the Step-through"),
)
SOURCES_BY_KEY = {s.key: s for s in SOURCES}


def cite(key: str, where: str = "") -> str:
    """'Zaki & Meira, …, ch. 21 slides, slide 16': the source's short citation, then where in
    it (a slide, a section) when given. KeyError for a source the app does not list."""
    short = SOURCES_BY_KEY[key].short
    return f"{short}, {where}" if where else short


#: the syllabus's file numbers (the engine's docstrings say "seed 004"): the source each names
_BY_NUMBER = {"000": "zaki", "001": "psvm", "002": "kernels", "003": "perceptron",
              "004": "kkt_note"}
_SEED = re.compile(r"\bseed (00[0-4])\b")


def readable(text: str) -> str:
    """``text`` with every "seed 004" (the engine's docstrings) replaced by its citation."""
    return _SEED.sub(lambda m: cite(_BY_NUMBER[m.group(1)]), text)
