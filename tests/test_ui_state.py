"""ui.shared.state (the session), ui.shared.points and ui.shared.links (the URL codec)."""

import base64
import math
import struct
import zlib

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import svm_engine as se
from svm_engine import datasets
from ui.shared import links
from ui.shared import state as S
from ui.shared.points import MAX_POINTS, default_range, validate_points
from ui.shared.session import shared
from ui.shared.settings import SETTING_KEYS, Settings, effective_C, settings_key, settings_to_kernel

# ------------------------------------------------------------------------------ settings


def test_normalize_fills_defaults_and_keeps_given_values():
    s = Settings.parse({"kernel": "gaussian", "sigma": 0.5, "C": 10})
    assert s["kernel"] == "gaussian" and s["sigma"] == 0.5 and s["C"] == 10.0
    assert s["loss"] == "hinge" and s["solver"] == "smo" and s["hard_margin"] is False
    assert set(s) == set(SETTING_KEYS)


def test_normalize_maps_infinite_C_to_hard_margin():
    s = Settings.parse({"C": math.inf})
    assert s["hard_margin"] is True and math.isfinite(s["C"])
    assert effective_C(s) == math.inf
    assert effective_C({**s, "hard_margin": False}) == s["C"]


@pytest.mark.parametrize(
    "bad, word",
    [
        ({"kernel": "sigmoid"}, "kernel"),
        ({"degree": 2.5}, "degree"),
        ({"degree": 0}, "degree"),
        ({"sigma": 0}, "sigma"),
        ({"sigma": float("nan")}, "sigma"),
        ({"C": -1}, "C"),
        ({"C": "ten"}, "C"),
        ({"loss": "log"}, "loss"),
        ({"bias": "none"}, "bias"),
        ({"solver": "libsvm"}, "solver"),
        ({"hard_margin": "yes"}, "hard_margin"),
        ({"wss": "random"}, "wss"),
        ({"gamma": 1}, "unknown"),
    ],
)
def test_normalize_rejects_bad_values_naming_them(bad, word):
    with pytest.raises(ValueError, match=word):
        Settings.parse(bad)


def test_settings_from_dataset_uses_book_suggestions():
    s = Settings.from_dataset(datasets.d1().settings)
    assert s["kernel"] == "linear" and s["hard_margin"] is True and s["solver"] == "smo"
    s = Settings.from_dataset(datasets.iris_setosa().settings)
    assert s["bias"] == "augmented" and s["solver"] == "sga" and s["C"] == 10.0


def test_settings_key_ignores_parameters_that_do_not_apply():
    base = Settings.parse({"kernel": "linear"})
    assert settings_key(base) == settings_key({**base, "sigma": 3.0, "degree": 5})
    assert settings_key(base) != settings_key({**base, "C": 2.0})
    rbf = Settings.parse({"kernel": "gaussian"})
    assert settings_key(rbf) != settings_key({**rbf, "sigma": 3.0})
    hard = Settings.parse({"hard_margin": True})
    assert settings_key(hard) == settings_key({**hard, "C": 50.0})
    qp = Settings.parse({"solver": "qp"})
    assert settings_key(qp) == settings_key({**qp, "wss": "max_violating_pair"})


def test_settings_to_kernel():
    poly = {"kernel": "polynomial", "degree": 3, "coef0": 0}
    k = settings_to_kernel(Settings.parse(poly))
    assert isinstance(k, se.Polynomial) and k.degree == 3 and k.coef0 == 0.0
    k = settings_to_kernel(Settings.parse({"kernel": "gaussian", "sigma": 2}))
    assert isinstance(k, se.Gaussian) and k.sigma == 2.0


# -------------------------------------------------------------------------------- points


def test_validate_points_accepts_empty_and_rejects_bad_input():
    X, y = validate_points([], [])
    assert X.shape == (0, 2) and y.shape == (0,)
    with pytest.raises(ValueError, match="two coordinates"):
        validate_points([[1, 2, 3]], [1])
    with pytest.raises(ValueError, match="one label per point"):
        validate_points([[1, 2]], [1, -1])
    with pytest.raises(ValueError, match="finite"):
        validate_points([[1, np.nan]], [1])
    with pytest.raises(ValueError, match=r"\+1 or -1"):
        validate_points([[1, 2]], [2])
    with pytest.raises(ValueError, match="at most 2000"):
        validate_points(np.zeros((2001, 2)), np.ones(2001))


def test_default_state_is_book_d1_with_its_settings():
    ss = {}
    X, y, title = S.current_dataset(ss)
    d1 = datasets.d1()
    np.testing.assert_array_equal(X, d1.X)
    np.testing.assert_array_equal(y, d1.y)
    assert "D1" in title
    assert S.current_settings(ss) == Settings.from_dataset(d1.settings)
    # callers get copies: changing them does not change the state
    X[0, 0] = 99.0
    assert S.current_dataset(ss)[0][0, 0] == d1.X[0, 0]


def test_load_into_playground_sets_everything_and_resets_widgets():
    ss = {"pg.kernel": "linear", "pg.C": 3.0, "other": 1}
    S.ensure_state(ss)
    epoch, rev = shared(ss).epoch, shared(ss).view_rev
    X = np.array([[0.0, 0.0], [1.0, 1.0], [2.0, 0.5]])
    y = np.array([-1, 1, 1])
    S.load_into_playground(ss, X, y, {"kernel": "gaussian", "sigma": 0.7, "C": math.inf}, "Mine")
    X2, y2, title = S.current_dataset(ss)
    np.testing.assert_array_equal(X2, X)
    np.testing.assert_array_equal(y2, y)
    assert title == "Mine"
    s = S.current_settings(ss)
    assert s["kernel"] == "gaussian" and s["sigma"] == 0.7 and s["hard_margin"] is True
    assert shared(ss).epoch == epoch + 1 and shared(ss).view_rev == rev + 1
    assert "pg.kernel" not in ss and "pg.C" not in ss and ss["other"] == 1


def test_load_into_playground_rejects_bad_input_and_keeps_state():
    ss = {}
    S.ensure_state(ss)
    before = (shared(ss).X.copy(), dict(shared(ss).settings), shared(ss).epoch)
    with pytest.raises(ValueError):
        S.load_into_playground(ss, [[0, 0]], [3], {}, "bad labels")
    with pytest.raises(ValueError):
        S.load_into_playground(ss, [[0, 0]], [1], {"kernel": "nope"}, "bad kernel")
    np.testing.assert_array_equal(shared(ss).X, before[0])
    assert shared(ss).settings == before[1] and shared(ss).epoch == before[2]


def test_canvas_edits_do_not_bump_the_epoch_but_python_edits_do():
    ss = {}
    S.ensure_state(ss)
    e = shared(ss).epoch
    X, y, _ = S.current_dataset(ss)
    S.set_points(ss, np.vstack([X, [[9, 9]]]), np.append(y, 1), from_canvas=True)
    assert shared(ss).epoch == e and shared(ss).title.endswith("(edited)")
    assert shared(ss).source is None
    S.set_points(ss, X, y)
    assert shared(ss).epoch == e + 1
    S.set_points(ss, X, y)  # no change: nothing to tell the browser
    assert shared(ss).epoch == e + 1


def test_flash_messages_are_shown_once():
    ss = {}
    S.push_flash(ss, "error", "one")
    S.push_flash(ss, "info", "two")
    assert S.pop_flash(ss) == [("error", "one"), ("info", "two")]
    assert S.pop_flash(ss) == []


# ----------------------------------------------------------------------------- URL codec


def test_pack_unpack_round_trip_exact_for_short_decimals_and_random_floats():
    d1 = datasets.d1()
    X, y = links.unpack_points(links.pack_points(d1.X, d1.y))
    np.testing.assert_array_equal(X, d1.X)
    np.testing.assert_array_equal(y, d1.y)
    rng = np.random.default_rng(0)
    R = rng.normal(size=(50, 2))
    labels = np.where(rng.random(50) > 0.5, 1, -1)
    X, y = links.unpack_points(links.pack_points(R, labels))
    np.testing.assert_array_equal(X, R)  # float64 path: exact
    np.testing.assert_array_equal(y, labels)


@settings(max_examples=60, deadline=None)
@given(
    st.lists(
        st.tuples(
            st.floats(-1e6, 1e6, allow_nan=False),
            st.floats(-1e6, 1e6, allow_nan=False),
            st.sampled_from([-1, 1]),
        ),
        max_size=40,
    )
)
def test_pack_unpack_property(rows):
    X = np.array([r[:2] for r in rows], dtype=float).reshape(-1, 2)
    y = np.array([r[2] for r in rows], dtype=np.int64)
    X2, y2 = links.unpack_points(links.pack_points(X, y))
    np.testing.assert_array_equal(X2, X)
    np.testing.assert_array_equal(y2, y)


def _raw_link(raw: bytes) -> str:
    return base64.urlsafe_b64encode(zlib.compress(raw)).decode().rstrip("=")


@pytest.mark.parametrize(
    "text, word",
    [
        ("not base64!", "bad characters"),
        ("AAAA", "damaged"),
        (_raw_link(b"x" + struct.pack("<H", 1) + b"\0" * 9), "unknown format"),
        (_raw_link(b"f" + struct.pack("<H", 2) + b"\0" * 5), "wrong length"),
        (_raw_link(b"f" + struct.pack("<H", 2001)), "too many"),
        (_raw_link(b"d" + struct.pack("<H", 1) + np.array([np.inf, 0.0]).tobytes() + b"\1"),
         "finite"),
        (_raw_link(b"f" + b"\0" * 100_000), "too many"),  # a zip bomb is cut off
        (_raw_link(b"f" + struct.pack("<H", 1) + b"\0" * 9)[:-6], "damaged|cut off"),
    ],
)  # fmt: skip
def test_unpack_rejects_tampered_points(text, word):
    with pytest.raises(links.LinkError, match=word):
        links.unpack_points(text)


def test_query_round_trip_for_book_generator_and_edited_points():
    ss = {}
    S.load_dataset(ss, "d2")
    q = links.state_query(ss)
    assert q["d"] == "d2" and "p" not in q
    back = links.decode_query(q)
    np.testing.assert_array_equal(back["X"], datasets.d2().X)
    assert back["settings"] == S.current_settings(ss)

    S.load_dataset(ss, "moons", n=60, noise=0.3, seed=4)
    q = links.state_query(ss)
    assert (q["d"], q["n"], q["noise"], q["seed"]) == ("moons", "60", "0.3", "4")
    back = links.decode_query(q)
    np.testing.assert_array_equal(back["X"], datasets.moons(60, 0.3, 4).X)

    X, y, _ = S.current_dataset(ss)
    S.set_points(ss, X[:-1], y[:-1], from_canvas=True)  # edited: the points travel
    settings_ = {**S.current_settings(ss), "kernel": "polynomial", "degree": 3, "coef0": 0.0,
                 "C": 0.25, "solver": "qp"}  # fmt: skip
    S.set_settings(ss, settings_)
    q = links.state_query(ss)
    assert "p" in q and "d" not in q and q["q"] == "3" and q["C"] == "0.25"
    back = links.decode_query(q)
    np.testing.assert_array_equal(back["X"], X[:-1])
    assert back["settings"] == S.current_settings(ss)


@pytest.mark.parametrize(
    "q, word",
    [
        ({"v": "1", "d": "d9"}, "unknown dataset"),
        ({"v": "1", "d": "d1", "p": "AA"}, "either"),
        ({"v": "1"}, "either"),
        ({"v": "2", "d": "d1"}, "version"),
        ({"v": "1", "d": "d1", "k": "sigmoid"}, "kernel"),
        ({"v": "1", "d": "d1", "C": "1e999"}, "C"),
        ({"v": "1", "d": "d1", "C": "__import__('os')"}, "number"),
        ({"v": "1", "d": "d1", "q": "2.5"}, "whole number"),
        ({"v": "1", "d": "moons", "n": "5000"}, "at most 2000"),
        ({"v": "1", "d": "moons", "noise": "-1"}, "noise"),
        ({"v": "1", "d": "d1", "evil": "1"}, "unknown parameter"),
        ({"v": "1", "d": "d1", "l": "x" * 500}, "not valid"),
    ],
)
def test_decode_rejects_tampered_links(q, word):
    with pytest.raises(links.LinkError, match=word):
        links.decode_query(q)


def test_restore_from_broken_link_gives_message_and_default_state():
    ss = {}
    msg = links.restore_from_query(ss, {"v": "1", "d": "d1", "C": "abc"})
    assert msg and "could not be opened" in msg
    X, _, _ = S.current_dataset(ss)
    np.testing.assert_array_equal(X, datasets.d1().X)


# every number a link holds, with the base link it goes into (issue 33 item 4: moons at
# noise=1e308 made infinite coordinates, and the page a traceback)
NUMERIC_LINK_PARAMS = [
    ("n", {"d": "moons"}), ("noise", {"d": "moons"}), ("seed", {"d": "moons"}),
    ("factor", {"d": "circles"}), ("q", {"d": "d1", "k": "polynomial"}),
    ("c", {"d": "d1", "k": "polynomial"}), ("s", {"d": "d1", "k": "gaussian"}),
    ("C", {"d": "d1"}),
]
EXTREME = ["inf", "-inf", "nan", "NaN", "1e308", "-1e308", "1e309", "1e300", "-1e300",
           "9" * 60, "-" + "9" * 30, "18446744073709551617", "1e999"]


def _assert_default(ss) -> None:
    X, _, _ = S.current_dataset(ss)
    np.testing.assert_array_equal(X, datasets.d1().X)


@pytest.mark.parametrize("value", EXTREME)
@pytest.mark.parametrize("key, base", NUMERIC_LINK_PARAMS)
def test_an_extreme_number_in_a_link_gives_a_message_and_the_default(key, base, value):
    if (key, value) == ("C", "inf"):
        pytest.skip("C=inf is the hard margin")
    ss = {}
    msg = links.restore_from_query(ss, {"v": "1", **base, key: value})
    assert msg and msg.startswith("This link could not be opened: ") and "Traceback" not in msg
    _assert_default(ss)


def test_noise_1e308_is_named_in_the_message():
    msg = links.restore_from_query({}, {"v": "1", "d": "moons", "noise": "1e308"})
    assert "the link's noise=1·10³⁰⁸ is not between 0 and 2" in msg


@pytest.mark.parametrize("key, value", [("n", "5"), ("noise", "3"), ("seed", "2000000")])
def test_generator_numbers_outside_the_sliders_ranges_are_refused(key, value):
    # the Playground's sliders (n from 10, noise up to 2) refuse such a value with an exception
    with pytest.raises(links.LinkError, match=f"the link's {key}="):
        links.decode_query({"v": "1", "d": "moons", key: value})


@settings(max_examples=200, deadline=None)
@given(param=st.sampled_from(NUMERIC_LINK_PARAMS),
       value=st.one_of(st.floats(allow_nan=True, allow_infinity=True).map(repr),
                       st.integers(-(10**40), 10**40).map(str),
                       st.from_regex(r"[-+]?[0-9]{0,3}\.?[0-9]{0,3}e[-+]?[0-9]{1,3}",
                                     fullmatch=True)))
def test_any_number_in_a_link_loads_within_the_widgets_or_gives_a_message(param, value):
    key, base = param
    ss = {}
    msg = links.restore_from_query(ss, {"v": "1", **base, key: value})  # never raises
    if msg is not None:
        _assert_default(ss)
        return
    X, y = validate_points(*S.current_dataset(ss)[:2])  # finite, as the page needs
    params = (shared(ss).source or {}).get("params", {})
    assert links.GEN_N_MIN <= params.get("n", links.GEN_N_MIN) <= MAX_POINTS
    assert 0 <= params.get("noise", 0) <= links.GEN_NOISE_MAX
    assert 0 <= params.get("seed", 0) <= links.GEN_SEED_MAX
    Settings.parse(S.current_settings(ss))  # the settings are in range


def test_restore_from_good_link_loads_it():
    ss = {}
    q = links.encode_query(
        np.array([[0.0, 0.0], [1.0, 2.0]]), np.array([1, -1]), {"kernel": "gaussian", "sigma": 0.5}
    )
    assert links.restore_from_query(ss, q) is None
    X, y, title = S.current_dataset(ss)
    np.testing.assert_array_equal(X, [[0, 0], [1, 2]])
    np.testing.assert_array_equal(y, [1, -1])
    assert S.current_settings(ss)["sigma"] == 0.5 and title == "Shared points"
    assert links.is_link(q) and not links.is_link({"page": "x"})


def test_default_range_contains_every_point():
    rng = np.random.default_rng(1)
    X = rng.normal(size=(30, 2)) * [5, 1]
    (x0, x1), (y0, y1) = default_range(X)
    assert x0 < X[:, 0].min() and x1 > X[:, 0].max()
    assert y0 < X[:, 1].min() and y1 > X[:, 1].max()
    assert default_range(np.zeros((0, 2)))[0][1] > 0


def test_the_point_source_helpers_read_the_page_widgets_with_its_defaults():
    import inspect

    from ui.shared import controls as ctl

    ss = {}
    assert ctl.generator_params(ss, "stp.", "d1", n=200, noise=0.2) == {}
    assert ctl.generator_params(ss, "stp.", "moons", n=200, noise=0.2) == {
        "n": 200, "noise": 0.2, "seed": 0}
    ss = {"cmp.gen.n": 50, "cmp.gen.noise": 0.3, "cmp.gen.seed": 7}
    assert ctl.generator_params(ss, "cmp.", "blobs", n=100, noise=0.1) == {
        "n": 50, "noise": 0.3, "seed": 7}
    want = Settings.from_dataset(datasets.load("d2").settings)
    assert ctl.source_settings(ss, "cmp.", "d2", n=100, noise=0.1) == want
    moons_noise = inspect.signature(datasets.moons).parameters["noise"].default
    assert ctl.generator_default("moons", "noise") == moons_noise
