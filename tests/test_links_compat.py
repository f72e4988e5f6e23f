"""Links handed out before the codec moved to ui/shared/links.py (made with the code of main
fd63d20) still open, to the same points and settings."""

from __future__ import annotations

import math

import numpy as np

from ui.playground import teacher_spec as TS
from ui.shared import links

# ui.shared.state.encode_query of fd63d20: float32 points, float64 points, a generator by name
OLD_Q32 = {"v": "1", "p": "eNpLY2ZgYDhgDyQcGBgCgLhhPwMYTHBYAAA-tQTo", "k": "gaussian",
           "s": "0.5", "l": "hinge", "C": "10", "b": "free", "sv": "qp"}
OLD_Q64 = {"v": "1", "p": "eNpLYWKYNRMEdtpD6JP2oWBw1Z4BAhwcACNTDSc", "k": "polynomial",
           "q": "3", "c": "0.5", "l": "hinge", "C": "inf", "b": "free", "sv": "smo",
           "w": "max_violating_pair"}
OLD_QGEN = {"v": "1", "d": "moons", "n": "50", "noise": "0.2", "seed": "3", "k": "linear",
            "l": "hinge", "C": "1", "b": "free", "sv": "smo"}
# ui.playground.teacher.encode_blob of fd63d20 (a long link's ts=), its spec's short-link id
OLD_TS = (
    "eNpFkEtqwzAQhq8SZm2C7ZQuvClJXAp9mNIUQvogyNLYFrElR5JtQgjkIC29RS-Qm-QkHRVKt__j45_ZQyUFQvIKqmtyN"
    "BYCsD28B1BrvvH6Bo3CmuRWS-Wst5RWnDoQRvGE5Vz8mwlg1t6vlner7OnhWrg2vbx9jPVyNkQvF7NpNfDpPHtOF5wq2w"
    "6tk1pRaVntrt7Ugu1G0o39AnROqpJ4e5hDMhmHAeSSeX5hECnBNRYhJJF3BJZeTOIAKmbEumGmlIQtWG0x-DsggZJ11kq"
    "mwB9nPWzbMWGYk36OlWXDCOKJVtc9GgrYRpM1_IYtcq3EWhtB1iEAJ13tv3BjTt-nLxydjx9pdD5-UqGnZYcf_-txWw")
OLD_ID = "6wgsw3kctx"


def test_old_playground_links_open_to_the_same_points_and_settings():
    d = links.decode_query(OLD_Q32)
    assert np.array_equal(d["X"], [[1.5, 2.0], [3.25, -1.0], [0.0, 4.5]])
    assert d["y"].tolist() == [1, -1, 1]
    s = d["settings"]
    assert (s["kernel"], s["sigma"], s["C"], s["solver"]) == ("gaussian", 0.5, 10.0, "qp")

    d = links.decode_query(OLD_Q64)  # float64 coordinates come back bit for bit
    assert np.array_equal(d["X"], [[0.1, 0.2], [1 / 3, 2.0]])
    assert d["y"].tolist() == [-1, 1]
    s = d["settings"]
    assert (s["kernel"], s["degree"], s["coef0"], s["hard_margin"], s["wss"]) == (
        "polynomial", 3, 0.5, True, "max_violating_pair")

    d = links.decode_query(OLD_QGEN)
    assert d["source"] == {"name": "moons", "params": {"n": 50, "noise": 0.2, "seed": 3}}
    assert len(d["X"]) == 50


def test_an_old_teacher_long_link_opens_to_its_spec_and_keeps_its_short_id():
    spec = TS.decode_blob(OLD_TS)
    assert np.array_equal(spec.X, [[0.1, 0.2], [1 / 3, 2.0]])
    assert spec.y.tolist() == [-1, 1]
    s = spec.settings
    assert (s["kernel"], s["sigma"], s["loss"], s["C"]) == ("gaussian", 2.0, "quadratic", 3.0)
    assert spec.title == "Größe “D1”" and spec.question == "Why?\nSay it."
    assert spec.locked == {"points", "kernel"} and spec.hidden == {"sv", "numbers"}
    assert spec.nonce == "0123abcd"
    # the short link names the same content: a stored id from before still matches
    assert spec.id == OLD_ID
    assert not math.isinf(s["C"])


def test_both_link_kinds_go_through_the_one_frame():
    spec = TS.decode_blob(OLD_TS)
    text = links.unpack_bytes(OLD_TS, TS.BLOB_FRAME).decode("utf-8")
    assert text == spec.canonical()
    raw = links.unpack_bytes(OLD_Q64["p"], links.POINTS_FRAME)
    assert raw[:1] == b"d" and links.pack_bytes(raw) == OLD_Q64["p"]
