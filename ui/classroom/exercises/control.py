"""Set a control: a C, σ or degree that reaches a target: exactly k support vectors, a test
accuracy ≥ p on a held-out split, or a margin ≥ m (slides 19, 24–29). The check refits with
the student's value and says what it achieved.

params: ``control`` ("C" | "sigma" | "degree"), ``target`` ("n_sv" | "test_acc" |
"margin"), ``value`` (k, p in [0, 1], or m), ``dataset`` (D1/D2/two_point/custom, or
"moons" | "circles" | "xor": 30 synthetic points, 20 to train and 10 held out; default D2,
or moons for test_acc), ``settings``, ``seeded`` (default false; true: other points per
student), ``question``. The target must be reachable: a scan over the control's range
checks it when the screen is validated.

Counting support vectors follows ``mark``: between the points with αᵢ > 0 and those with
αᵢ > 0 or on their margin (where α is not unique, both counts are right).
"""

from __future__ import annotations

import numpy as np

from svm_engine import datasets
from ui.classroom.model import Feedback, Task
from ui.shared.numbers import fmt_fixed, fmt_num, fmt_pct, fmt_setting
from ui.shared.settings import Settings

from . import fits
from .common import clean_text, flag, one_of, only_keys, right, rng_for, slide, wrong

KEYS = ("control", "target", "value", "dataset", "X", "y", "settings", "seeded", "question")
CONTROLS = ("C", "sigma", "degree")
TARGETS = ("n_sv", "test_acc", "margin")
SYNTHETIC = ("moons", "circles", "xor")
#: each control's range, and the values a validation scans
RANGE = {"C": (1e-3, 1e3), "sigma": (0.05, 10.0), "degree": (1.0, 6.0)}
SCAN = {"C": np.geomspace(1e-3, 1e3, 25), "sigma": np.geomspace(0.05, 10.0, 25),
        "degree": np.arange(1.0, 7.0)}
N_SYNTH, N_TRAIN = 30, 20
_NAME = {"C": "C", "sigma": "σ", "degree": "the degree q"}
_SYMBOL = {"C": "C", "sigma": "σ", "degree": "q"}
_SLIDE = {"C": slide(19), "sigma": slide(28), "degree": slide(29)}


def validate(params: dict) -> dict:
    only_keys(params, KEYS, "control")
    out = dict(params)
    out["control"] = one_of(params, "control", CONTROLS, "C")
    out["target"] = one_of(params, "target", TARGETS, "n_sv")
    out.setdefault("dataset", "moons" if out["target"] == "test_acc" else "D2")
    v = params.get("value")
    if isinstance(v, bool) or not isinstance(v, int | float) or not np.isfinite(v):
        raise ValueError(f"value must be a number (k, p or m); got {v!r}")
    if out["target"] == "n_sv" and (v != int(v) or v < 1):
        raise ValueError(f"value must be a whole number of support vectors ≥ 1; got {v!r}")
    if out["target"] == "test_acc" and not 0 < v <= 1:
        raise ValueError(f"value must be an accuracy from 0 to 1 (0.9 = 90 %); got {v!r}")
    if out["target"] == "test_acc" and out["dataset"] not in SYNTHETIC:
        raise ValueError(f"test accuracy needs a held-out split: dataset one of "
                         f"{', '.join(SYNTHETIC)}")
    if out["target"] == "margin" and v <= 0:
        raise ValueError(f"value must be a margin > 0; got {v!r}")
    flag(params, "seeded", False)
    if "question" in params:
        out["question"] = clean_text(params["question"], name="question")
    task = make(out, 0)
    if not any(reached(task, a)[0] for a in SCAN[out["control"]]):
        got = sorted({reached(task, a)[1] for a in SCAN[out["control"]]})
        raise ValueError(f"no {_NAME[out['control']]} from {fmt_setting(task.bounds[0])} to "
                         f"{fmt_setting(task.bounds[1])} reaches the target on this picture "
                         f"(it reaches {', '.join(got[:8])})")
    return out


def _picture(params: dict, seed: int):
    """(X, y, X_test, y_test, settings): held-out points for the synthetic datasets."""
    name = params["dataset"]
    if name in SYNTHETIC:
        d = datasets.load(name, n=N_SYNTH, seed=int(seed))
        s = Settings.parse(params.get("settings") or {}).as_dict()
        return (d.X[:N_TRAIN], d.y[:N_TRAIN], d.X[N_TRAIN:], d.y[N_TRAIN:], s)
    X, y, s = fits.picture(params)
    if params.get("seeded") and seed:
        X, y, _ = fits.variant_points(X, y, s, rng_for(params, seed), shift=True)
    return X, y, np.zeros((0, 2)), np.zeros(0, int), s


def make(params: dict, seed: int) -> Task:
    """The task; a seeded variant whose target no value reaches gives way to the next seed's
    points (and, after a few, to the book's), so every student can reach it."""
    if not (flag(params, "seeded", False) and seed):
        return _make(params, 0)
    for k in range(4):
        task = _make(params, seed + k * 1_000_003)
        if any(reached(task, a)[0] for a in SCAN[params["control"]]):
            return task
    return _make(params, 0)


def _make(params: dict, seed: int) -> Task:
    ctrl, target, v = params["control"], params["target"], params["value"]
    X, y, Xt, yt, s = _picture(params, seed)
    s = {**s, "hard_margin": False}
    if ctrl == "sigma":
        s["kernel"] = "gaussian"
    elif ctrl == "degree":
        s.update(kernel="polynomial", coef0=s["coef0"] or 1.0)
    goal = {"n_sv": f"exactly {int(v)} support vectors",
            "test_acc": f"a test accuracy of at least {fmt_pct(v, 0)} on the {len(yt)} "
                        "held-out points",
            "margin": f"a margin 1/‖w‖ of at least {fmt_num(v)}"}[target]
    lo, hi = RANGE[ctrl]
    ask = f"Set {_NAME[ctrl]} (from {fmt_setting(lo)} to {fmt_setting(hi)}) to reach {goal}."
    prompt = " ".join(p for p in (params.get("question", ""), ask, f"({_setting_text(s, ctrl)})")
                      if p)
    data = {"target": target, "value": float(v), "X_test": Xt.tolist(),
            "y_test": [int(t) for t in yt], "draw_fit": False}
    return Task("control", "control", prompt, _SLIDE[ctrl], tuple(map(tuple, X.tolist())),
                tuple(int(t) for t in y), Settings.parse(s).as_dict(), control=ctrl,
                bounds=(lo, hi), data=data)


def _setting_text(s: dict, ctrl: str) -> str:
    """The picture's settings without the value the student sets."""
    kernel = {"sigma": "Gaussian kernel",
              "degree": f"polynomial kernel (c + xᵀz)^q with c = {fmt_setting(s['coef0'])}"}.get(
        ctrl, "linear kernel" if s["kernel"] == "linear" else fits.describe(s).split(",")[0])
    C = "" if ctrl == "C" else f", C = {fmt_setting(s['C'])}"
    return f"{kernel}, {s['loss']} loss{C}"


def _with(task: Task, a: float) -> dict:
    key = {"C": "C", "sigma": "sigma", "degree": "degree"}[task.control]
    return {**task.settings, key: int(a) if key == "degree" else float(a)}


def reached(task: Task, a: float) -> tuple[bool, str]:
    """(target met?, what the value achieved, in words) for the control at ``a``."""
    m = fits.fitted(np.array(task.X), np.array(task.y), _with(task, a))
    if m is None:
        return False, "no converged fit"
    d = task.data
    if d["target"] == "n_sv":
        lo = int((m.alpha > 0).sum())
        hi = int(((m.alpha > 0) | (np.abs(m.y * m.h_train - 1) <= fits.ON_MARGIN)).sum())
        words = f"{lo} support vectors" + (f" ({hi} counting the points on the margin)"
                                           if hi > lo else "")
        return lo <= d["value"] <= hi, words
    if d["target"] == "test_acc":
        Xt, yt = np.array(d["X_test"]), np.array(d["y_test"])
        acc = float((np.where(m.decision_function(Xt) > 0, 1, -1) == yt).mean())
        return acc >= d["value"] - 1e-12, f"a test accuracy of {fmt_pct(acc, 0)}"
    return m.margin >= d["value"], f"a margin 1/‖w‖ = {fmt_fixed(m.margin, 3)}"


def check(task: Task, answer: dict) -> Feedback:
    a = float(answer["value"])
    ok, words = reached(task, a)
    shown = fmt_setting(a)
    summary = f"{_SYMBOL[task.control]} = {shown}"
    if ok:
        return right(f"Right: with {_NAME[task.control]} = {shown} the fit has {words}.",
                     summary)
    good = [b for b in SCAN[task.control] if reached(task, b)[0]]
    hint = ""
    if good:
        up = min(good, key=lambda b: abs(np.log(b / a)))
        hint = " Try a larger value." if up > a else " Try a smaller value."
    why = {"C": " A larger C penalises slack more (slide 19): a narrower margin and, "
                "usually, fewer support vectors.",
           "sigma": " A smaller σ makes the Gaussian kernel more local: a wigglier boundary "
                    "that fits the training points closer.",
           "degree": " A higher degree bends the boundary more (slide 29)."}[task.control]
    return wrong(f"With {_NAME[task.control]} = {shown} the fit has {words}, not the "
                 f"target.{hint}{why}", summary)
