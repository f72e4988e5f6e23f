"""The Playground's settings as one validated value: ``Settings``.

A ``Settings`` is frozen and hashable (a ``st.cache_data`` key as it is), checked once when it
is made (``Settings.parse`` from any mapping: a link, a request, a dataset's suggestions), so
its readers never check it again. It reads like the mapping it replaced (``s["kernel"]``,
``dict(s)``, ``{**s, "C": 2.0}``), and ``s.replace(C=2.0)`` gives a new, validated one.

The choices come from the engine (``svm_engine.LOSSES`` ...); the bounds are the UI's (wide
enough for every book example). The range checks stay here: the engine's validators have no
upper bound, and these messages ("C must be a number between 0.0001 and 1e+06; got 0") are
the ones a link's reader sees.
"""

from __future__ import annotations

import dataclasses
import math
from collections.abc import Iterator, Mapping
from typing import Any

import numpy as np

import svm_engine as se
from ui.shared.numbers import fmt_setting

KERNELS = ("linear", "polynomial", "gaussian")
LOSSES = tuple(se.LOSSES)
BIASES = tuple(se.BIASES)
SOLVERS = tuple(se.SOLVERS)
WSS_RULES = tuple(se.WSS_RULES)

C_MIN, C_MAX = 1e-4, 1e6
SIGMA_MIN, SIGMA_MAX = 1e-3, 1e3
DEGREE_MIN, DEGREE_MAX = 1, 10
COEF0_MAX = 1e3


def _choice(name: str, value: Any, choices: tuple[str, ...]) -> str:
    if not isinstance(value, str) or value not in choices:
        raise ValueError(f"{name} must be one of {', '.join(choices)}; got {value!r}")
    return value


def _number(name: str, value: Any, lo: float, hi: float) -> float:
    why = f"{name} must be a number between {fmt_setting(lo)} and {fmt_setting(hi)}; got {value!r}"
    if isinstance(value, bool):
        raise ValueError(why)
    try:
        v = float(value)
    except (TypeError, ValueError):
        raise ValueError(why) from None
    if not math.isfinite(v) or not (lo <= v <= hi):
        raise ValueError(why)
    return v


def check_numbers(values: Mapping[str, Any], bounds) -> None:
    """ValueError naming the first (name, lo, hi) of ``bounds`` whose value in ``values`` is
    not a real number in [lo, hi] (a page's settings sent to a worker: no strings, no bool)."""
    for name, lo, hi in bounds:
        v = values[name]
        if isinstance(v, bool) or not isinstance(v, int | float) or not (
                math.isfinite(v) and lo <= v <= hi):
            raise ValueError(f"{name} must be a number between {fmt_setting(lo)} and "
                             f"{fmt_setting(hi)}, got {v!r}")


@dataclasses.dataclass(frozen=True, eq=False)
class Settings(Mapping):
    """kernel, degree, coef0, sigma, loss, C, hard_margin, bias, solver, wss: validated (and
    put in canonical types) when made; ValueError naming the first bad value."""

    kernel: str = "linear"
    degree: int = 2
    coef0: float = 1.0
    sigma: float = 1.0
    loss: str = "hinge"
    C: float = 1.0
    hard_margin: bool = False
    bias: str = "free"
    solver: str = "smo"
    wss: str = "second_order"

    def __post_init__(self) -> None:
        put = object.__setattr__  # (frozen: the checked, canonical values go in once here)
        put(self, "kernel", _choice("kernel", self.kernel, KERNELS))
        degree = _number("degree", self.degree, DEGREE_MIN, DEGREE_MAX)
        if degree != int(degree):
            raise ValueError(f"degree must be a whole number; got {self.degree!r}")
        put(self, "degree", int(degree))
        put(self, "coef0", _number("coef0", self.coef0, 0.0, COEF0_MAX))
        put(self, "sigma", _number("sigma", self.sigma, SIGMA_MIN, SIGMA_MAX))
        put(self, "loss", _choice("loss", self.loss, LOSSES))
        if not isinstance(self.hard_margin, (bool, np.bool_)):
            raise ValueError(f"hard_margin must be True or False; got {self.hard_margin!r}")
        put(self, "hard_margin", bool(self.hard_margin))
        put(self, "C", _number("C", self.C, C_MIN, C_MAX))
        put(self, "bias", _choice("bias", self.bias, BIASES))
        put(self, "solver", _choice("solver", self.solver, SOLVERS))
        put(self, "wss", _choice("wss", self.wss, WSS_RULES))

    @classmethod
    def parse(cls, raw: Mapping[str, Any]) -> Settings:
        """Settings from a mapping; missing keys get defaults, unknown keys are refused.

        ``C = math.inf`` (as in ``svm_engine.datasets`` settings) means the hard margin; C is
        then kept at its default for when the switch is turned off."""
        if isinstance(raw, Settings):
            return raw
        if not isinstance(raw, Mapping):
            raise ValueError(f"settings must be a mapping of names to values; got {raw!r:.60}")
        unknown = set(raw) - set(SETTING_KEYS)
        if unknown:
            raise ValueError(f"unknown setting(s): {', '.join(sorted(map(str, unknown)))}")
        values = dict(raw)
        C = values.get("C")
        if isinstance(C, (int, float)) and not isinstance(C, bool) and math.isinf(C) and C > 0:
            values["hard_margin"], values["C"] = True, DEFAULTS.C
        return cls(**values)

    @classmethod
    def from_dataset(cls, ds_settings: Mapping[str, Any]) -> Settings:
        """The Playground settings for a dataset's suggested ``settings`` (extra keys ignored)."""
        if isinstance(ds_settings, Settings):
            return ds_settings
        return cls.parse({k: v for k, v in ds_settings.items() if k in SETTING_KEYS})

    def replace(self, **changes: Any) -> Settings:
        """A new Settings with ``changes`` (validated; ``C = math.inf`` as in ``parse``)."""
        return Settings.parse({**self.as_dict(), **changes})

    def as_dict(self) -> dict[str, Any]:
        return {k: getattr(self, k) for k in SETTING_KEYS}

    @property
    def effective_C(self) -> float:
        return effective_C(self)

    def make_kernel(self):
        return settings_to_kernel(self)

    def for_fit(self) -> Settings:
        """What a fit depends on: parameters that do not apply (σ for a linear kernel, the
        working-set rule for a solver other than SMO, C under the hard margin) put back to
        their defaults, so moving them does not refit (equal keys, one cache entry)."""
        d = DEFAULTS
        return dataclasses.replace(
            self,
            degree=self.degree if self.kernel == "polynomial" else d.degree,
            coef0=self.coef0 if self.kernel == "polynomial" else d.coef0,
            sigma=self.sigma if self.kernel == "gaussian" else d.sigma,
            wss=self.wss if self.solver == "smo" else d.wss,
            C=d.C if self.hard_margin else self.C,
        )

    # -- read like the dict it replaced
    def __getitem__(self, key: str) -> Any:
        if key not in SETTING_KEYS:
            raise KeyError(key)
        return getattr(self, key)

    def __iter__(self) -> Iterator[str]:
        return iter(SETTING_KEYS)

    def __len__(self) -> int:
        return len(SETTING_KEYS)

    def __eq__(self, other: object) -> bool:
        # equal to a Settings or a plain mapping with the same values (as the dict was)
        if isinstance(other, Mapping):
            return self.as_dict() == dict(other)
        return NotImplemented

    def __hash__(self) -> int:
        return hash(tuple(getattr(self, k) for k in SETTING_KEYS))


SETTING_KEYS = tuple(f.name for f in dataclasses.fields(Settings))
DEFAULTS = Settings()

# -- for readers that hold the settings as a mapping ({**s, "C": 2.0}, a worker's dict)


def effective_C(settings: Mapping[str, Any]) -> float:
    """The C handed to the engine: ``math.inf`` for the hard margin."""
    return math.inf if settings["hard_margin"] else float(settings["C"])


def settings_to_kernel(settings: Mapping[str, Any]):
    """The svm_engine kernel object for ``settings``."""
    return se.make_kernel(settings["kernel"], degree=int(settings["degree"]),
                          coef0=float(settings["coef0"]), sigma=float(settings["sigma"]))


def fit_settings(settings: Mapping[str, Any]) -> Settings:
    """``Settings.parse(settings).for_fit()``: what a fit depends on."""
    return Settings.parse(settings).for_fit()


def settings_key(settings: Mapping[str, Any]) -> tuple:
    """A hashable key of what a fit depends on (sorted (name, value) pairs, as the cached
    fits of the pages read it back with ``dict(key)``)."""
    return tuple(sorted(fit_settings(settings).items()))
