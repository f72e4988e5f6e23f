"""What each solver row solves, where it comes from, and what one iteration costs.

The problem and the reference are read from the solver module's docstring
(``svm_engine/solvers/<name>.py``), so the page says what the code says:

- summary: the docstring's first paragraph;
- problem: the first block indented by 4 spaces under a heading that ends with ":" — the
  heading starting with "Problem", or for cvxopt "Dual form" / "Primal form";
- reference: the "Sources:" paragraph, else the slide / seed / paper citations in the summary
  and the problem heading;
- cost per iteration: a docstring sentence with "cost", else the table ``COST`` below;
- limits: the "Limits:" paragraph (the settings where the solver does not reach the optimum
  within its budget, measured), or "".

The problem block the page prints for a setting (loss × bias × kernel) is not the docstring's
but ``note_problem``'s, from ``ui.shared.formulas``: the bound and the kernel the engine uses
for that setting (k = 2: K + δᵢⱼ/(2C) and αᵢ ≥ 0 only); PSVM, another problem, keeps its
docstring's.

Never imports streamlit.
"""

from __future__ import annotations

import importlib
import re
from collections.abc import Iterable
from dataclasses import dataclass

from ui.compare.comparison import RowSpec
from ui.shared import formulas as FM
from ui.shared.cite import readable

#: Cost of one iteration (n points, d features), where a docstring does not say it.
COST = {
    "smo": "O(n) per step: two kernel columns (cached) and the gradient update G ← G + "
           "Q[:, i]Δαᵢ + Q[:, j]Δαⱼ; choosing the pair is O(n) too. Steps: typically a few "
           "times n. After max(100, n) steps, a Newton step on the free αₜ now and then "
           "(conjugate gradients on Q_FF), costing about what the pair steps between two cost.",
    "qp:dual": "O(n³) per interior-point iteration (a dense n × n Newton system in cvxopt); "
               "10–30 iterations, almost independent of the data.",
    "qp:primal": "O((n + d)³) per interior-point iteration: the unknowns are (w, b, ξ) and "
                 "there are 2n inequality constraints.",
    "newton:linear": "O(n d² + d³) per iteration: S = Σ xᵢxᵢᵀ over the violators and one "
                     "(d+1) × (d+1) solve; a handful of iterations.",
    "newton:kernel": "O(|V|³/3 + n²) per iteration: H⁻¹∇ from the |V| × |V| system "
                     "(K_VV + I/(2C))β′_V = y_V over the violators V, by Cholesky (LAPACK); "
                     "H = K + 2C·S itself is never formed.",
    "psvm": "No iterations: one linear system — (d+1) × (d+1) for the linear kernel, "
            "(n+1) × (n+1) with a kernel.",
}
_HEADINGS = {"dual": ("Dual form",), "primal": ("Primal form",)}


@dataclass(frozen=True)
class SolverDoc:
    title: str
    summary: str
    problem: str
    reference: str
    cost: str
    module: str  # e.g. "svm_engine/solvers/smo.py"
    limits: str = ""  # where it does not reach the optimum within its budget ("" if unsaid)


def paragraphs(doc: str) -> list[str]:
    return [p for p in re.split(r"\n\s*\n", doc.strip()) if p.strip()]


def problem_blocks(doc: str) -> list[tuple[str, str]]:
    """(heading, block) pairs: a paragraph ending with ":" followed (after at most one blank
    line) by lines indented by 4 or more spaces; the heading is that whole paragraph."""
    lines = doc.splitlines()
    out = []
    k = 0
    while k < len(lines):
        line = lines[k]
        if line.rstrip().endswith(":") and line.strip() and not line.startswith("    "):
            start = k
            while start > 0 and lines[start - 1].strip() and not lines[start - 1].startswith(
                    "    "):
                start -= 1
            heading = " ".join(" ".join(lines[start:k + 1]).split()).rstrip(":")
            j = k + 1
            if j < len(lines) and not lines[j].strip():
                j += 1
            block = []
            while j < len(lines) and lines[j].startswith("    ") and lines[j].strip():
                block.append(lines[j].strip())
                j += 1
            if block:
                out.append((heading, "\n".join(block)))
                k = j
                continue
        k += 1
    return out


def top_level_parentheses(text: str) -> list[str]:
    """The contents of the outermost (...) groups: "a (b (c) d) e" → ["b (c) d"]."""
    out, depth, start = [], 0, 0
    for i, ch in enumerate(text):
        if ch == "(":
            if depth == 0:
                start = i + 1
            depth += 1
        elif ch == ")" and depth > 0:
            depth -= 1
            if depth == 0:
                out.append(text[start:i])
    return out


_SLIDES = re.compile(r"slides? \d+(?:\s*[–-]\s*\d+)?(?:(?:,\s*|\s+and\s+)\d+(?:\s*[–-]\s*\d+)?)*")
_SEED = re.compile(r"seed (?:document )?\d{3}")


def _citations(text: str) -> list[str]:
    """Slide, seed and dated (paper) citations inside the top-level parentheses of ``text``."""
    found: list[str] = []
    for inner in top_level_parentheses(text):
        for part in inner.split(";"):
            part = part.strip()
            cites = _SLIDES.findall(part) + _SEED.findall(part)
            if not cites and re.search(r"\b(19|20)\d{2}\b", part) and "=" not in part:
                cites = [part]
            found += [c for c in cites if c not in found]
    return found


def docstring_parts(doc: str, prefer: tuple[str, ...] = ("Problem",)) -> dict[str, str]:
    """{"summary", "problem", "reference", "cost", "limits"} read from a solver module's
    docstring ("" where the docstring does not say)."""
    doc = doc or ""
    paras = paragraphs(doc)
    summary = " ".join(paras[0].split()) if paras else ""
    blocks = problem_blocks(doc)
    chosen = next((b for b in blocks if b[0].startswith(prefer)), blocks[0] if blocks else None)
    problem = f"{chosen[0]}:\n{chosen[1]}" if chosen else ""
    sources = next((" ".join(p.split()) for p in paras if p.startswith("Sources:")), "")
    if sources:
        reference = sources.removeprefix("Sources:").strip()
    else:
        cites = _citations(summary) + _citations(chosen[0] if chosen else "")
        reference = "; ".join(dict.fromkeys(cites))
    cost = ""
    sentences = (s for p in paras for s in re.split(r"(?<=[.;])\s+", " ".join(p.split())))
    for sentence in sentences:
        if re.search(r"\bcosts?\b", sentence) and "O(" in sentence:
            cost = sentence.strip()
            break
    limits = next((" ".join(p.split()).removeprefix("Limits:").strip() for p in paras
                   if p.startswith("Limits:")), "")
    return {"summary": summary, "problem": problem, "reference": reference, "cost": cost,
            "limits": limits}


#: What a docstring says for its developers, in words a student reads on the page (the file
#: names of a benchmark, a test or the engine mean nothing there)
_FOR_STUDENTS = (
    (re.compile(r"`?benchmarks/[\w/]+\.py`?"), "a benchmark of this project"),
    (re.compile(r"`?tests/[\w/]+\.py`?"), "a test of this project"),
    (re.compile(r"(?:built by |from )?`(?:svm_engine/)?[\w/]+\.py`"), "as the engine builds it"),
    (re.compile(r"`cvxopt\.solvers\.qp`"), "cvxopt's QP solver"),
    (re.compile(r"\bsolver qp\b"), "the cvxopt QP"),
    (re.compile(r"\((smo), (qp); (newton) "), "(SMO, the cvxopt QP; Newton "),
)


def for_students(text: str) -> str:
    """``text`` without file names of the code ("benchmarks/bench_smo_newton.py" → "a
    benchmark of this project") and with solvers named as the page names them."""
    for pattern, words in _FOR_STUDENTS:
        text = pattern.sub(words, text)
    return readable(text)  # the engine names the syllabus files by number: the titles here


def _cost_key(spec: RowSpec, linear: bool) -> str:
    if spec.solver == "qp":
        return f"qp:{spec.qp_form}"
    if spec.solver == "newton":
        return "newton:linear" if linear else "newton:kernel"
    return spec.solver


def note_title(spec: RowSpec) -> str:
    """The note a row belongs to: SMO's working-set rules share one."""
    return "SMO" if spec.solver == "smo" else spec.label


def note_problem(title: str, specs: Iterable[RowSpec], kernel, C: float) -> str | None:
    """The problem of one note for this setting, one block per bias form among its rows
    (``ui.shared.formulas``); None where the solver answers another problem (PSVM)."""
    blocks = [FM.problem_block(s.solver, kernel, C, s.loss, s.bias, s.qp_form)
              for s in specs if note_title(s) == title]
    if not blocks or None in blocks:
        return None
    return "\n\n".join(dict.fromkeys(blocks))


def solver_doc(spec: RowSpec, linear: bool = True, problem: str | None = None) -> SolverDoc:
    """The documentation of one row's solver (its module's docstring, plus ``COST``);
    ``problem``: the setting's problem block (``note_problem``), else the docstring's."""
    name = f"svm_engine.solvers.{spec.solver}"
    try:
        doc = importlib.import_module(name).__doc__ or ""
    except ImportError:
        doc = ""
    if spec.solver == "qp":
        prefer = _HEADINGS[spec.qp_form]
    elif spec.solver == "psvm":
        prefer = ("Linear PSVM",) if linear else ("Nonlinear PSVM",)
    else:
        prefer = ("Problem",)
    parts = {k: for_students(v) for k, v in docstring_parts(doc, prefer).items()}
    cost = parts["cost"] or COST.get(_cost_key(spec, linear), "not documented")
    return SolverDoc(
        title=spec.label,
        summary=parts["summary"] or spec.label,
        problem=problem or parts["problem"] or "not documented in the module",
        reference=parts["reference"] or "not documented in the module",
        cost=cost,
        module=name.replace(".", "/") + ".py",
        limits=parts["limits"],
    )


def doc_sections(specs: Iterable[RowSpec]) -> dict[str, RowSpec]:
    """One note per solver module and form, in row order: {title: the first row spec}. SMO's
    working-set rules share one note (same module, same problem)."""
    out: dict[str, RowSpec] = {}
    for spec in specs:
        out.setdefault(note_title(spec), spec)
    return out


def anchor(title: str) -> str:
    """The page anchor of a note: "cvxopt QP (dual)" → "about-cvxopt-qp-dual"."""
    return "about-" + re.sub(r"[^a-z0-9]+", "-", title.lower()).strip("-")
