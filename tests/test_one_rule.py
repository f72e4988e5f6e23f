"""One definition of each shared rule (issue 30): a literal of a rule written outside its home
fails here, with the file, the line and the home to use instead.

The rules and their homes:
* when αᵢ counts as 0, as C, as free or as outside the box: svm_engine/bounds.py;
* an interior point's residue band (cvxopt's α): svm_engine/solvers/qp.py;
* SMO's iteration cap on the pages: svm_engine/solvers/smo.py (``interactive_max_iter``);
  the Step-through's cap of its recorded (readable, slower) run: ui/step_through/record.py;
* a solver's labels and tolerances: svm_engine/solvers/registry.py;
* the (αᵢ, αⱼ) box's picture (its view, where each mark and label goes): ui/browser/step_box.js,
  its one renderer (a Python copy, box_figure.box_geometry, drew it by Plotly).

Each pattern matches the shapes the copies had before (``C * (1 - 1e-8)``, ``C_box - eps``,
``1e-8 * Math.max(1, amax)``, ``alpha <= 1e-6 * C``, ``100_000 + 100 * n``,
``"qp": "QP (cvxopt)"``, ``"smo": 1e-3``): `test_patterns_find_the_old_copies` holds one of
each, so a pattern that stops matching fails too.
"""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SCANNED = ("svm_engine", "ui", "pages", "benchmarks", "tests")
SUFFIXES = (".py", ".js", ".mjs")
#: this file writes the patterns and a sample of each copy
SELF = "tests/test_one_rule.py"

_NUM = r"1e-\d+"
_ONE = r"1(?:\.0)?"
_SOLVER = r"""["']?\b(?:smo|qp|newton|sga|psvm)\b["']?"""
_WORD = r"(?:SMO|QP|SGA|Newton|PSVM|SVM-Dual|SVM-Primal|cvxopt)"
#: (what the rule is, where it lives, the files allowed to write it, the pattern)
RULES = (
    ("αᵢ at C", "svm_engine.bounds (is_at_C, at_C_mask)", ("svm_engine/bounds.py",),
     re.compile(rf"\bC\w*\s*\*\s*\(\s*{_ONE}\s*-\s*{_NUM}\s*\)")),
    ("αᵢ at C (C − eps)", "svm_engine.bounds (is_at_C, at_C_mask)",
     ("svm_engine/bounds.py", "svm_engine/solvers/qp.py"),
     re.compile(r"\bC\w*\s*-\s*eps\b")),
    ("αᵢ above C", "svm_engine.bounds (is_above_C, outside_masks)", ("svm_engine/bounds.py",),
     re.compile(rf"\bC\w*\s*\*\s*\(\s*{_ONE}\s*\+\s*{_NUM}\s*\)|<\s*-\s*{_NUM}\s*\*\s*C\b")),
    ("αᵢ counts as 0", "svm_engine.bounds (support_threshold, support_mask)",
     ("svm_engine/bounds.py",),
     re.compile(rf"\b(?:alpha|a)\s*(?:<=|<|>=|>)\s*{_NUM}"
                rf"|{_NUM}\s*\*\s*(?:float\()?(?:Math\.)?max\(\s*(?:{_ONE}\s*,\s*)?"
                r"(?:float\()?(?:(?:alpha|a)\.max\b|amax\b)"
                rf"|{_NUM}\s*\*\s*float\(np\.(?:max|abs)\((?:alpha|a)\b")),
    ("SMO's page cap", "svm_engine.solvers.smo.interactive_max_iter",
     ("svm_engine/solvers/smo.py",),
     re.compile(r"\b100_?000\s*\+\s*100\s*\*")),
    ("the Step-through's recorded-run cap", "ui.step_through.record.trace_max_iter",
     ("ui/step_through/record.py",),
     re.compile(r"\b5_?000\s*\+\s*20\s*\*")),
    ("a solver's label", "svm_engine.solvers.registry (ui.shared.labels)",
     ("svm_engine/solvers/registry.py",),
     # a solver's key mapped to a whole string naming it (prose continued on the next line,
     # as Compare's notes, is not a label)
     re.compile(rf"""{_SOLVER}\s*:\s*(["'])(?:the )?{_WORD}\b(?:(?!\1).){{0,80}}\1\s*[,}}]""")),
    ("a solver's tolerance", "svm_engine.solvers.registry (api.DEFAULT_TOL, TIGHT_TOL)",
     ("svm_engine/solvers/registry.py",),
     re.compile(rf"{_SOLVER}\s*:\s*{_NUM}\s*[,}}]")),
    ("the (αᵢ, αⱼ) box's view", "ui/browser/step_box.js (boxView, boxGeometry)",
     ("ui/browser/step_box.js",),
     re.compile(r"(?:-\s*0|\b1)\.12\s*\*\s*R\b")),
)


def offences(root: Path = ROOT) -> list[str]:
    """Every line under `root` (SCANNED, but SELF) that writes a rule outside its
    home: "path:line: rule (use home): text"."""
    out = []
    for top in SCANNED:
        for path in sorted((root / top).rglob("*")):
            rel = path.relative_to(root).as_posix()
            if (path.suffix not in SUFFIXES or rel == SELF
                    or "node_modules" in rel or "__pycache__" in rel):
                continue
            for no, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
                for what, home, allowed, pattern in RULES:
                    if rel not in allowed and pattern.search(line):
                        out.append(f"{rel}:{no}: {what} (use {home}): {line.strip()}")
    return out


def test_each_rule_has_one_home():
    found = offences()
    assert not found, "a shared rule written outside its home:\n" + "\n".join(found)


def test_patterns_find_the_old_copies():
    """One line of each copy this test replaced (issue 30's list): each pattern still finds
    its copy, and no line here is found by a pattern it was not written for."""
    old = {
        "αᵢ at C": ["free = on & (m.alpha > 0) & (m.alpha < m.C_box * (1 - 1e-8))",
                    "at_C = math.isfinite(C_box) and a >= C_box * (1 - 1e-12)",
                    "alpha[alpha >= C * (1 - 1e-6)] = C",
                    "const atC = C < Infinity && a >= C * (1 - 1e-8);"],
        "αᵢ at C (C − eps)": ["top = C_box - eps * max(1.0, C_box if C_box < math.inf else 1.0)",
                              "can_up = a < C_box - eps"],
        "αᵢ above C": ["above = above or (finite_C and a > C_box * (1 + 1e-12))",
                       "low, high = a < -1e-12 * C, a > C * (1 + 1e-12)"],
        "αᵢ counts as 0": ["const eps = 1e-8 * Math.max(1, amax);",
                           "thr = 1e-9 * max(1.0, float(alpha.max(initial=0.0)))",
                           "eps = 1e-8 * float(np.max(a, initial=0.0))",
                           "eps = 1e-12 * float(np.abs(a).max(initial=0.0))",
                           "alpha[alpha <= 1e-12 * C] = 0.0",
                           "set(map(tuple, np.flatnonzero(m.alpha > 1e-8)))"],
        "SMO's page cap": ["return 100_000 + 100 * int(n)", "cap = 100000 + 100 * n;"],
        "the Step-through's recorded-run cap": ["cap = 5000 + 20 * len(y)"],
        "a solver's label": ['SOLVERS = {"smo": "SMO (LIBSVM\'s pair steps)", "qp": "QP"}',
                             '"qp": "the QP solver (cvxopt)", "sga": "SVM-Dual (SGA)",',
                             'const EXPORT_SOLVERS = { smo: "SMO", qp: "QP (cvxopt)" };',
                             '"sga": "SVM-Dual: stochastic gradient ascent (slide 33; b folded '
                             'into w)",'],
        "a solver's tolerance": ['DEFAULT_TOL = {"smo": 1e-3, "qp": None, "newton": 1e-8}',
                                 'TIGHT_TOL = {"smo": 1e-8, "qp": 1e-10}'],
        "the (αᵢ, αⱼ) box's view": ["lo, hi = -0.12 * R, 1.12 * R", "lo = -0.12 * R;"],
    }
    assert set(old) == {what for what, *_ in RULES}
    for what, *_, pattern in RULES:
        for name, lines in old.items():
            for line in lines:
                assert bool(pattern.search(line)) == (name == what), (what, line)
    innocent = ["assert (m.y * m.h_train >= 1 - 1e-6).all()",      # a margin, not a bound
                "m.primal_objective = m.dual_objective * (1 - 1e-12)",
                "if f * 10.0**e >= t * (1 - 1e-12):",
                "assert abs(alpha0 @ y2) <= 1e-12 * max(1.0, alpha0.max())",
                'assert abs(float(a @ y)) <= 1e-7 * max(1.0, float(a.sum())), "Σαᵢyᵢ = 0"',
                "assert all(b <= a + 1e-9 * max(1.0, a) for a, b in zip(Ws, Ws[1:]))",
                '"psvm": "PSVM fits yᵢh(xᵢ) = 1 − ξᵢ as equalities (ξ of either sign, Fung & "',
                'TAB_LABELS = {"psvm": "Proximal SVM"}']
    for line in innocent:
        assert not any(p.search(line) for *_, p in RULES), line
