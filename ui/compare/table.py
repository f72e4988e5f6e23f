"""Compare solvers' table and its words: one row per solver as the page prints it (numbers by
ui/shared/numbers.py), the tolerance beside the iterations, and how far the two bias forms'
exact answers are apart (pure: Comparison → rows, frames, sentences)."""

from __future__ import annotations

import math
from typing import Any

import pandas as pd

from ui.compare.comparison import DECISION_ATOL, Comparison, RowResult, decision_max_error
from ui.shared import fit_words
from ui.shared.fitting import SMO_TOL
from ui.shared.numbers import fmt_fixed, fmt_num, fmt_setting


def bias_forms_note(comp: Comparison) -> str | None:
    """How far apart the two forms' exact answers are here (None unless both references)."""
    free, aug = comp.references.get("free"), comp.references.get("augmented")
    if free is None or aug is None or free.model is None or aug.model is None:
        return None
    dh = decision_max_error(free.model, aug.model)
    if dh <= DECISION_ATOL:
        return (f"Here they coincide: max |h_free(xᵢ) − h_augmented(xᵢ)| = {fmt_num(dh, 2)} on the "
                "data (the margin constraints pin both to the same hyperplane).")
    return f"Here their h(xᵢ) differ by up to {fmt_num(dh, 3)} on the data."



#: The page's headline first (does each solver agree with cvxopt, did it converge, in how many
#: iterations and how long): at 1400 px the last columns sat behind a horizontal scroll
TABLE_COLUMNS = [
    "solver", "formulation", "agrees with cvxopt", "converged", "iterations", "tolerance",
    "time (ms)", "#SV", "b", "w", "primal", "dual", "duality gap", "max KKT violation",
]  # fmt: skip
#: The columns of real numbers, and how the page prints each (numbers.py: a true minus)
SHOWN = {"b": lambda v: fmt_fixed(v, 4), "primal": lambda v: fmt_num(v, 6),
         "dual": lambda v: fmt_num(v, 6), "duality gap": lambda v: fmt_num(v, 2),
         "max KKT violation": lambda v: fmt_num(v, 2), "time (ms)": lambda v: fmt_fixed(v, 2)}


def _w_text(model, digits: int = 4) -> str:
    w = model.w
    if w is None:
        return "— (kernel)"
    return "(" + ", ".join(fmt_fixed(v, digits) for v in w) + ")"


def table_rows(comp: Comparison) -> list[dict]:
    """One dict per row with ``TABLE_COLUMNS`` (numbers as floats, NaN where missing)."""
    out = []
    for r in comp.rows:
        m = r.run.model
        row: dict[str, Any] = {"solver": r.spec.label, "formulation": r.spec.formulation}
        row["tolerance"] = tolerance_text(r)
        if m is None:
            row.update({c: math.nan for c in SHOWN})
            row.update({"w": "", "#SV": None, "iterations": None, "converged": None})
        else:
            row.update({
                "w": _w_text(m),
                "b": float(m.b),
                "#SV": int(m.n_support),
                "primal": float(m.primal_objective),
                "dual": float(m.dual_objective),
                "duality gap": fit_words.displayed_gap(m)[0],    # rounding shown as 0, never < 0
                "max KKT violation": float(m.kkt_violation),
                "iterations": int(m.n_iter),
                "time (ms)": 1e3 * float(m.time_s),
                "converged": bool(m.converged),
            })  # fmt: skip
        row["agrees with cvxopt"] = r.agreement.text
        out.append({c: row[c] for c in TABLE_COLUMNS})
    return out


def table_frame(comp: Comparison):
    """``table_rows`` as a DataFrame; counts stay integers where a row has none (skipped)."""
    df = pd.DataFrame(table_rows(comp), columns=TABLE_COLUMNS)
    return df.astype({"#SV": "Int64", "iterations": "Int64", "converged": "boolean"})


def shown_frame(comp: Comparison):
    """``table_frame`` as the page prints it: the real numbers as text by ui/shared/numbers.py
    (−3.3333 with a true minus, a zero gap as 0, 1.5·10⁻⁷ rather than 1.5e-07)."""
    df = table_frame(comp)
    for c, fmt in SHOWN.items():
        df[c] = [fmt(v) for v in df[c]]
    return df


def tolerance_note(tol_mode: str) -> str:
    """Why the iterations here may differ from the Playground's and Step-through's, said next
    to the table (D2, C = 1, SMO: 49 steps there, 79 here at the tight tolerance)."""
    if tol_mode == "default":
        return (f"Tolerances as on the Playground and Step-through (SMO stops when m(α) − M(α) "
                f"≤ {fmt_setting(SMO_TOL)}): the same points and settings take the same "
                "iterations there.")
    return (f"Iterations at the tight tolerances of the column “tolerance”: more than the "
            f"Playground and Step-through take, which stop SMO at {fmt_setting(SMO_TOL)} "
            "(choose “as the Playground and Step-through run them” under Tolerance in the "
            "sidebar to see their numbers).")


def tolerance_text(r: RowResult) -> str:
    """The stopping tolerance a row ran at, as the table shows it beside its iterations."""
    if r.spec.solver == "psvm":
        return "— (no iterations)"
    return fmt_setting(r.tol) if r.tol is not None else "the solver's own"
