"""Platt's analytic two-variable step (lines 4–7 of `smo.py`), shared by both SMO solvers.

Plain float arithmetic, no imports: `smo.py` calls it as Python and `smo_fast.py` compiles the
same function with numba, so the readable and the fast solver clip identically.

| symbol | meaning                                                                  |
|--------|--------------------------------------------------------------------------|
| αᵢ, αⱼ | the pair before the step (`a_i`, `a_j`)                                  |
| yᵢ, yⱼ | their labels (±1)                                                        |
| αⱼ_unc | the unconstrained optimum along the line yᵢαᵢ + yⱼαⱼ = const (Platt 16)  |
| L, H   | ends of the feasible segment of αⱼ: the box [0, C]² ∩ the line (13–14)   |
"""

TAU = 1e-12  # LIBSVM's replacement for a non-positive η


def clip_pair(a_i, a_j, aj_unc, y_i, y_j, C):
    """Lines 5–7: L, H, then αⱼ ← clip(αⱼ_unc, L, H) and αᵢ ← αᵢ + yᵢyⱼ(αⱼ − αⱼ_new).

    Returns (L, H, αᵢ_new, αⱼ_new). When αⱼ stops at an end of the segment that comes from
    αᵢ's own bound, αᵢ is set to that bound exactly (as LIBSVM does): computed as
    αᵢ + yᵢyⱼ(αⱼ − αⱼ_new) it can miss 0 by a rounding residue like 3e-18, and a residue
    keeps αᵢ in the working set with a step of zero length, so SMO would pick the same
    pair for ever.
    """
    # which end of [L, H] is set by αᵢ reaching 0 (i0) or C (iC)
    if y_i != y_j:                      # αᵢ − αⱼ = const
        L, L_i = a_j - a_i, 0.0         # at αⱼ = αⱼ − αᵢ: αᵢ = 0
        H, H_i = C + a_j - a_i, C       # at αⱼ = C + αⱼ − αᵢ: αᵢ = C
    else:                               # αᵢ + αⱼ = const
        L, L_i = a_i + a_j - C, C       # at αⱼ = αᵢ + αⱼ − C: αᵢ = C
        H, H_i = a_i + a_j, 0.0         # at αⱼ = αᵢ + αⱼ: αᵢ = 0
    L_from_i = L > 0.0
    H_from_i = H < C
    if not L_from_i:
        L = 0.0
    if not H_from_i:
        H = C
    aj_new = L if L > aj_unc else aj_unc                 # line 6: clip to [L, H]
    aj_new = H if H < aj_new else aj_new
    if aj_new == L and L_from_i:
        ai_new = L_i                                     # αᵢ lands exactly on its bound
    elif aj_new == H and H_from_i:
        ai_new = H_i
    else:
        ai_new = a_i + y_i * y_j * (a_j - aj_new)        # line 7 (Platt eq. 18)
        ai_new = 0.0 if 0.0 > ai_new else ai_new         # guard the box against rounding
        ai_new = C if C < ai_new else ai_new
    return L, H, ai_new, aj_new
