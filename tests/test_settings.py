"""ui.shared.settings.Settings: frozen, hashable, checked once when made."""

import dataclasses
import math
import pickle

import pytest

from ui.shared.settings import DEFAULTS, SETTING_KEYS, Settings, settings_key


def test_a_settings_is_frozen_and_a_change_is_a_new_validated_one():
    s = Settings.parse({"kernel": "gaussian", "sigma": 0.5})
    with pytest.raises(dataclasses.FrozenInstanceError):
        s.C = 5.0
    t = s.replace(C=5.0)
    assert (s.C, t.C, t.sigma) == (1.0, 5.0, 0.5)
    with pytest.raises(ValueError, match="C must be a number between"):
        s.replace(C=0)
    with pytest.raises(ValueError, match="kernel must be one of"):
        Settings(kernel="sigmoid")  # made directly: checked all the same


def test_parse_reads_a_settings_without_checking_it_again():
    s = Settings.parse({"C": 2})
    assert Settings.parse(s) is s and Settings.from_dataset(s) is s
    assert isinstance(s.C, float) and s.C == 2.0  # canonical types


def test_equal_settings_are_one_cache_key():
    a = Settings.parse({"kernel": "gaussian", "sigma": 2})
    b = Settings.parse({"sigma": 2.0, "kernel": "gaussian"})
    assert a == b and hash(a) == hash(b) and len({a, b}) == 1
    assert a != a.replace(sigma=3.0)
    assert pickle.loads(pickle.dumps(a)) == a
    # what a fit depends on: σ of a linear kernel does not move the key
    lin = Settings.parse({})
    assert lin.for_fit() == lin.replace(sigma=3.0).for_fit()
    assert settings_key(lin) == settings_key(lin.replace(sigma=3.0))


def test_it_reads_like_the_dict_it_replaced():
    s = Settings.parse({"C": math.inf})
    assert s["hard_margin"] is True and s.effective_C == math.inf
    assert list(s) == list(SETTING_KEYS) and dict(s) == s.as_dict()
    assert {**s, "C": 3.0}["C"] == 3.0 and s == dict(s)
    with pytest.raises(KeyError):
        s["gamma"]
    assert DEFAULTS == Settings.parse({})
