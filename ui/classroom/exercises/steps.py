"""The algorithms' numbers: η and the clipped new α of an SMO step (Platt 1998, as the SVM
blog note writes it, §6), one update of SVM-Dual's stochastic gradient ascent (slides 32–33)
and a kernel value K(x, z) (slides 26–29). Each is the engine's own: the SMO step is the
recorded step of ``se.fit(trace=True)`` (what the Step-through page plays), the SGA update is
``svm_engine.solvers.sga.coordinate_step`` on the engine's augmented kernel matrix, the kernel
value is the engine's kernel."""

from __future__ import annotations

import warnings

import numpy as np

import svm_engine as se
from svm_engine.problem import build_problem
from svm_engine.solvers.sga import coordinate_step
from svm_engine.solvers.smo import replay
from ui.shared.fitting import SMO_TOL, smo_max_iter
from ui.shared.numbers import fmt_fixed, fmt_num, fmt_setting
from ui.shared.settings import Settings, effective_C, settings_to_kernel

from . import fits
from .common import coords, label, name, note, point_text, slide

#: small steps x₊ − x₋ for another two-point example: integer, so the numbers stay by hand
DELTAS = ((1, 1), (2, 0), (0, 2), (1, 2), (2, 1), (2, 2), (1, 0), (0, 1), (3, 1), (1, 3),
          (2, -1), (1, -2), (3, 0), (2, 3))


def two_points(rng: np.random.Generator) -> np.ndarray:
    """Another two-point example: x₋ on the grid 0..3, x₊ = x₋ + a small integer step
    (x1 is +1 and x2 is −1, as in the note). Never the same point twice, so always
    separable with one answer."""
    lo = rng.integers(0, 4, size=2).astype(float)
    d = np.array(DELTAS[int(rng.integers(len(DELTAS)))], dtype=float)
    return np.array([lo + d, lo])


def _pair_text(X, y, i, j) -> str:
    return f"xᵢ = {point_text(X, y, i)} and xⱼ = {point_text(X, y, j)}"


def smo_step(params, X, y, s, rng, seeded) -> dict:
    """η or the new αⱼ of SMO's step ``step`` (1-based) on the task's points."""
    if s["loss"] != "hinge" or s["kernel"] != "linear":
        raise ValueError("an SMO-step screen uses the linear kernel and the hinge loss")
    if seeded:
        if params["dataset"] == "two_point":
            X = two_points(rng)
        else:
            X, y, _ = fits.variant_points(X, y, s, rng, shift=True)
    step = params.get("step", 1)
    kernel, C = settings_to_kernel(s), effective_C(s)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", se.ConvergenceWarning)
        m = se.fit(X, y, kernel=kernel, C=C, solver="smo", wss=s["wss"], trace=True,
                   tol=SMO_TOL, polish=False, max_iter=smo_max_iter(len(X)),
                   time_budget=fits.FIT_BUDGET)
    pairs = [t for t, r in enumerate(m.trace or []) if r.get("kind") != "newton"]
    if isinstance(step, bool) or not isinstance(step, int) or not 1 <= step <= len(pairs):
        raise ValueError(f"step must be an SMO step from 1 to {len(pairs)} on these points; "
                         f"got {step!r}")
    t = pairs[step - 1]
    r = m.trace[t]
    i, j = r["i"], r["j"]
    alpha = replay(m.trace[:t], len(X), m.alpha0)
    Kx = X @ X.T
    E = Kx @ (alpha * y) - y                       # Eₜ without b: it cancels in Eᵢ − Eⱼ
    eta = float(Kx[i, i] + Kx[j, j] - 2 * Kx[i, j])
    given = (f"SMO's step {step} on {len(X)} points ({fits.describe(s)}) optimises the pair "
             f"{_pair_text(X, y, i, j)}.")
    cite = note("§6 (SMO, Platt 1998)")
    if params["quantity"] == "eta":
        why = (f"η = K(xᵢ, xᵢ) + K(xⱼ, xⱼ) − 2K(xᵢ, xⱼ) = {fmt_num(Kx[i, i])} + "
               f"{fmt_num(Kx[j, j])} − 2·{fmt_num(Kx[i, j])} = {fmt_num(eta)} = ‖xᵢ − xⱼ‖², "
               "the curvature of the dual along the pair's line (Platt's sign, η ≥ 0).")
        mistakes = [(-eta, "that is the note's η = −K₁₁ − K₂₂ + 2K₁₂ ≤ 0; the question asks "
                     "for Platt's η = K₁₁ + K₂₂ − 2K₁₂ ≥ 0 (the same step either way)"),
                    (float(Kx[i, i] + Kx[j, j] + 2 * Kx[i, j]), "the cross term is −2K(xᵢ, xⱼ)"),
                    (float(Kx[i, i] + Kx[j, j]), "the cross term −2K(xᵢ, xⱼ) is missing")]
        return dict(exact=eta, ask="What is η for this pair (Platt's sign: η ≥ 0)?",
                    unit="η", given=given, why=why, mistakes=mistakes, floor=0.01,
                    how="η = K(xᵢ, xᵢ) + K(xⱼ, xⱼ) − 2K(xᵢ, xⱼ), here with K(x, z) = xᵀz.",
                    slide=cite, X=X, y=y, settings=s)
    C_text = "∞ (hard margin)" if C == np.inf else fmt_setting(C)
    given += (f" Before the step αᵢ = {fmt_fixed(alpha[i], 4)}, αⱼ = {fmt_fixed(alpha[j], 4)}, "
              f"C = {C_text}, and Eₜ = Σₛ αₛyₛK(xₛ, xₜ) − yₜ (b left out: it cancels in "
              f"Eᵢ − Eⱼ) is Eᵢ = {fmt_fixed(E[i], 4)}, Eⱼ = {fmt_fixed(E[j], 4)}.")
    unc = float(alpha[j] + y[j] * (E[i] - E[j]) / eta)
    new = float(r["aj_new"])
    why = (f"αⱼ + yⱼ(Eᵢ − Eⱼ)/η = {fmt_fixed(alpha[j], 4)} + ({label(y[j])})·"
           f"({fmt_fixed(E[i] - E[j], 4)})/{fmt_num(eta)} = {fmt_fixed(unc, 4)}, then clipped "
           f"to [L, H] = [{fmt_num(r['L'])}, {fmt_num(r['H'])}]: αⱼ = {fmt_fixed(new, 4)} "
           f"(and αᵢ = {fmt_fixed(r['ai_new'], 4)}, keeping Σ αₜyₜ = 0).")
    mistakes = [(float(alpha[j] + y[j] * (E[j] - E[i]) / eta),
                 "the sign is flipped: with Platt's η ≥ 0 it is Eᵢ − Eⱼ (the note's E₂ − E₁ "
                 "goes with its η ≤ 0)"),
                (float(alpha[j] + (E[i] - E[j]) / eta), "yⱼ is missing in yⱼ(Eᵢ − Eⱼ)/η")]
    if abs(unc - new) > 1e-9:
        mistakes.append((unc, f"that is the unclipped value: αⱼ must stay in [L, H] = "
                         f"[{fmt_num(r['L'])}, {fmt_num(r['H'])}]"))
    return dict(exact=new, ask=f"What is the new αⱼ (of {name(j)}) after clipping?",
                unit="αⱼ", given=given, why=why, mistakes=mistakes, floor=0.001,
                how="αⱼ + yⱼ(Eᵢ − Eⱼ)/η with η = K(xᵢ, xᵢ) + K(xⱼ, xⱼ) − 2K(xᵢ, xⱼ), then "
                    "clipped to [L, H]: the part of the line αᵢyᵢ + αⱼyⱼ = const inside the "
                    "box 0 ≤ α ≤ C.",
                slide=cite, X=X, y=y, settings=s)


def sga_step(params, X, y, s, rng, seeded) -> dict:
    """αₖ after the k-th update of SVM-Dual's first sweep from α = 0 (slide 33)."""
    if seeded:
        X, y = fits.moved(X, y, rng, shift=True)
    k = params.get("k", 2)
    if isinstance(k, bool) or not isinstance(k, int) or not 1 <= k <= len(X):
        raise ValueError(f"k must be an update from 1 to {len(X)}; got {k!r}")
    C = params.get("C", 10.0)
    if isinstance(C, bool) or not isinstance(C, int | float) or not 0 < C <= 1e6:
        raise ValueError(f"C must be a number from 0 to 10⁶; got {C!r}")
    yf = y.astype(float)
    K = build_problem(X, yf, se.Linear(), float(C), "hinge", "augmented").K
    rec, before = _sweep(K, yf, float(C), k)
    exact = rec["a_new"]
    s = {**s, "bias": "augmented", "solver": "sga", "hard_margin": False, "C": float(C)}
    pts = "; ".join(point_text(X, y, t) for t in range(k))
    given = (f"SVM-Dual (slide 33) on {pts}, hinge loss, C = {fmt_setting(C)}, with the bias "
             f"folded into w (x′ = (x, 1), slide 30; K(x, z) = xᵀz): start from α = 0 and "
             f"update α₁, α₂, … in order, each with its step ηₖ = 1/K(x′ₖ, x′ₖ).")
    why = (f"αₖ ← αₖ + ηₖ(1 − yₖ Σᵢ αᵢyᵢK(x′ᵢ, x′ₖ)) with the αᵢ already updated (slide 32): "
           f"η{k} = 1/{fmt_num(K[k - 1, k - 1])}, Σᵢ αᵢyᵢK(x′ᵢ, x′{k}) = {fmt_fixed(before, 4)}, "
           f"so α{k} = {fmt_fixed(rec['a_unclipped'], 4)}"
           + (f", clipped to [0, C]: {fmt_fixed(exact, 4)}." if rec["clipped"] else "."))
    mistakes = [(float(1.0 / K[k - 1, k - 1]), "that is ηₖ·1: the earlier updates already "
                 "changed Σᵢ αᵢyᵢK(x′ᵢ, x′ₖ) (each update uses the new values)")]
    if k > 1:
        mistakes.append((float(_sweep(K, yf, float(C), k - 1)[0]["a_new"]),
                         f"that is α{k - 1}, the update before"))
    plain = X @ X.T
    if (np.diag(plain)[:k] > 0).all():
        mistakes.append((float(_sweep(plain, yf, float(C), k)[0]["a_new"]),
                         "the +1 of the folded bias is missing: K(x′, z′) = xᵀz + 1"))
    if rec["clipped"]:
        mistakes.append((float(rec["a_unclipped"]), "αₖ must then be clipped to [0, C] "
                         "(slide 33, lines 13–14)"))
    return dict(exact=float(exact), ask=f"What is α{k} after its update?", unit=f"α{k}",
                given=given, why=why, mistakes=mistakes, floor=0.001, slide=slide(33),
                how="αₖ ← αₖ + ηₖ(1 − yₖ Σᵢ αᵢyᵢK(x′ᵢ, x′ₖ)) with ηₖ = 1/K(x′ₖ, x′ₖ) and "
                    "K(x′, z′) = xᵀz + 1, each update using the α already updated, then "
                    "clipped to [0, C] (slides 32–33).",
                X=X, y=y, settings=s)


def _sweep(K, y, C, k):
    """The k-th update of the first sweep from α = 0: (its record, Σᵢ αᵢyᵢK(xᵢ, xₖ) before)."""
    eta = 1.0 / np.diag(K)
    alpha, g = np.zeros(len(y)), np.zeros(len(y))
    for t in range(k):
        before = float(g[t])
        rec = coordinate_step(K, y, alpha, g, eta, C, t)
    return rec, before


def kernel_value(params, X, y, s, rng, seeded) -> dict:
    """K(x, z) for the polynomial (default: slide 29's (1 + xᵀz)²) or Gaussian kernel."""
    kind = params.get("kernel", "polynomial")
    if kind not in ("polynomial", "gaussian"):
        raise ValueError(f"kernel must be polynomial or gaussian; got {kind!r}")
    ks = Settings.parse({"kernel": kind, **{k: params[k] for k in ("degree", "coef0", "sigma")
                                            if k in params}})
    x, z = X[0], X[1]
    if "x" in params or "z" in params:
        try:
            x = np.asarray(params.get("x", x), float).reshape(2)
            z = np.asarray(params.get("z", z), float).reshape(2)
        except (TypeError, ValueError):
            raise ValueError("x and z must be points [x1, x2]") from None
    if seeded:
        x = rng.integers(1, 5, 2).astype(float)
        z = x + rng.integers(-2, 3, 2) if kind == "gaussian" else rng.integers(1, 5, 2)
        z = np.asarray(z, float)
    if not (np.isfinite(x).all() and np.isfinite(z).all()) or max(
            np.abs(x).max(), np.abs(z).max()) > 100:
        raise ValueError("x and z must be finite coordinates within ±100")
    k = settings_to_kernel(ks)
    exact = float(k(x[None], z[None])[0, 0])
    xz, d2 = float(x @ z), float(((x - z) ** 2).sum())
    if kind == "polynomial":
        q, c = ks["degree"], ks["coef0"]
        formula = f"({fmt_setting(c)} + xᵀz)^{q}"
        why = (f"K(x, z) = {formula} = ({fmt_setting(c)} + {fmt_num(xz)})^{q} = "
               f"{fmt_num(exact, 6)} (slide 29).")
        mistakes = [(c + xz, f"the power {q} is missing"), (xz ** q, "the constant c is missing"),
                    ((c + xz) * q, f"that multiplies by {q}: the kernel raises to the power")]
        cite = slide(29)
    else:
        sg = ks["sigma"]
        formula = f"exp(−‖x − z‖²/(2σ²)) with σ = {fmt_setting(sg)}"
        why = (f"K(x, z) = exp(−‖x − z‖²/(2σ²)) = exp(−{fmt_num(d2)}/(2·{fmt_setting(sg)}²)) "
               f"= {fmt_num(exact, 6)}; γ = 1/(2σ²) = {fmt_num(1 / (2 * sg * sg))} in the "
               "kernel lecture's exp(−γ‖x − z‖²).")
        mistakes = [(float(np.exp(-d2 / sg**2)), "the 2 of 2σ² is missing"),
                    (float(np.exp(-np.sqrt(d2) / (2 * sg**2))), "‖x − z‖ must be squared"),
                    (float(np.exp(-sg * d2)), "that uses σ as γ: γ = 1/(2σ²)")]
        cite = slide(26) + "; the Gaussian kernel of the kernel-methods lecture"
    return dict(exact=exact, ask=f"What is K(x, z) for x = {coords(x)}, z = {coords(z)}?",
                unit="K(x, z)", given=f"The kernel K(x, z) = {formula}.", why=why,
                how=f"Put x and z into K(x, z) = {formula}.",
                mistakes=[(float(v), w) for v, w in mistakes], floor=1e-4, slide=cite,
                X=np.array([x, z]), y=np.array([1, -1]), settings=ks)
