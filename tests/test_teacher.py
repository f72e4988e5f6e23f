"""Teacher links (ui/playground/teacher.py): the spec, its link forms and their validation, the
short link's store (ui/classroom/store), the presets, the session helpers; the present-mode
figure; QR codes (ui/playground/qr.py)."""

from __future__ import annotations

import base64
import io
import json
import math
import zlib

import numpy as np
import pytest
from sqlalchemy import select, update
from sqlalchemy.exc import OperationalError

import svm_engine as se
from svm_engine import datasets
from ui.classroom.store import NotTeacher, Store, get_store
from ui.classroom.store.schema import links
from ui.playground import teacher as T
from ui.playground import teacher_presets as TP
from ui.playground import teacher_spec as TS
from ui.playground import teacher_store as TL
from ui.serving import fit_api
from ui.shared import links as url_links
from ui.shared import qr, state
from ui.shared.book_setups import playground_target
from ui.shared.figures import POINT_SIZE, decision_figure_dict
from ui.shared.settings import Settings
from ui.worked_examples import examples

EVIL = "**x** <script>alert(1)</script> [a](javascript:x)"


def d2_spec(**kw) -> TS.TeacherSpec:
    d = datasets.d2()
    args = {"title": "D2 with C = 1", "question": "Which points need slack?\nWhy?",
            "locked": ["points", "kernel", "C"], "hidden": ["table"]} | kw  # fmt: skip
    return TS.make_spec(d.X, d.y, {"C": 1.0, "solver": "smo"}, **args)


def blob_of(obj) -> str:
    raw = zlib.compress(json.dumps(obj).encode("utf-8"))
    return base64.urlsafe_b64encode(raw).decode("ascii").rstrip("=")


# ------------------------------------------------------------------------------ the spec


def test_the_long_link_round_trips_every_part():
    spec = d2_spec(title=EVIL)
    back = TS.decode_blob(TS.encode_blob(spec))
    assert back == spec
    np.testing.assert_array_equal(back.X, datasets.d2().X)
    np.testing.assert_array_equal(back.y, datasets.d2().y)
    assert back.settings == Settings.parse({"C": 1.0, "solver": "smo"})
    assert back.title == EVIL  # plain text, kept verbatim: the page draws it with st.text
    assert back.question == "Which points need slack?\nWhy?"
    assert back.locked == {"points", "kernel", "C"} and back.hidden == {"table"}


def test_float64_points_round_trip_exactly():
    X = np.array([[0.1, 1 / 3], [2.0, math.pi]])
    spec = TS.make_spec(X, [1, -1], {})
    np.testing.assert_array_equal(TS.decode_blob(TS.encode_blob(spec)).X, X)


def test_the_id_names_the_content():
    a = d2_spec()
    assert a.id == d2_spec().id and len(a.id) == TS.ID_LEN
    assert set(a.id) <= set("abcdefghijklmnopqrstuvwxyz234567")
    assert d2_spec(locked=["C", "kernel", "points"]).id == a.id  # order does not matter
    others = {d2_spec(title="D2").id, d2_spec(question="").id, d2_spec(locked=[]).id,
              d2_spec(hidden=["numbers"]).id}  # fmt: skip
    assert a.id not in others and len(others) == 4
    moved = TS.make_spec(a.X + 0.5, a.y, a.settings)
    assert moved.id != TS.make_spec(a.X, a.y, a.settings).id
    assert TS.spec_id(a.canonical()) == a.id


def test_text_is_cleaned_and_capped():
    spec = d2_spec(title="  a\u202eb\x00c\nd  ", question="line 1\r\nline\u200b 2\t!")
    assert spec.title == "abc d"  # no control, invisible or direction characters; one line
    assert spec.question == "line 1\nline 2 !"
    TS.make_spec([[0, 0]], [1], {}, title="t" * TS.TITLE_MAX)
    too_long = rf"title is too long: {TS.TITLE_MAX + 1} .*at most {TS.TITLE_MAX}"
    with pytest.raises(TS.TeacherLinkError, match=too_long):
        TS.make_spec([[0, 0]], [1], {}, title="t" * (TS.TITLE_MAX + 1))
    with pytest.raises(TS.TeacherLinkError, match="question is too long"):
        TS.make_spec([[0, 0]], [1], {}, question="q" * (TS.QUESTION_MAX + 1))
    with pytest.raises(TS.TeacherLinkError, match="title must be text"):
        TS.make_spec([[0, 0]], [1], {}, title=3)


def test_make_spec_names_bad_values():
    with pytest.raises(TS.TeacherLinkError, match="unknown locked control 'colour'"):
        TS.make_spec([[0, 0]], [1], {}, locked=["colour"])
    with pytest.raises(TS.TeacherLinkError, match="unknown hidden control"):
        TS.make_spec([[0, 0]], [1], {}, hidden=["plot"])
    with pytest.raises(TS.TeacherLinkError, match="kernel must be one of"):
        TS.make_spec([[0, 0]], [1], {"kernel": "sigmoid"})
    with pytest.raises(TS.TeacherLinkError, match="labels must be"):
        TS.make_spec([[0, 0]], [2], {})


GOOD = d2_spec().to_obj()


@pytest.mark.parametrize(
    ("text", "words"),
    [
        ("", "missing or too long"),
        ("a" * (TS.MAX_BLOB_CHARS + 1), "missing or too long"),
        ("abc$%", "characters a link never has"),
        ("bm90IHpsaWI", "damaged"),  # base64 of "not zlib"
        (base64.urlsafe_b64encode(zlib.compress(b"{oops")).decode().rstrip("="), "not valid JSON"),
        (base64.urlsafe_b64encode(zlib.compress(b"\xff\xfe")).decode().rstrip("="), "JSON"),
        (base64.urlsafe_b64encode(zlib.compress(b" " * 200_000)).decode().rstrip("="),
         "too large"),
        (base64.urlsafe_b64encode(zlib.compress(b"[1, 2]")).decode().rstrip("="),
         "does not hold a picture"),
        (blob_of({**GOOD, "colour": "red"}), "unknown part(s): colour"),
        (blob_of({**GOOD, "v": 2}), "another version"),
        (blob_of({**GOOD, "points": 5}), "holds no points"),
        (blob_of({**GOOD, "points": "!!"}), "points in the link are not valid"),
        (blob_of({**GOOD, "settings": {"kernel": "sigmoid"}}), "settings are not valid"),
        (blob_of({**GOOD, "settings": {"C": -1}}), "C must be a number"),
        (blob_of({**GOOD, "settings": {"gamma": 1}}), "unknown setting"),
        (blob_of({**GOOD, "settings": []}), "settings are not valid"),
        (blob_of({**GOOD, "title": "t" * 500}), "title is too long"),
        (blob_of({**GOOD, "question": ["a"]}), "question must be text"),
        (blob_of({**GOOD, "lock": "points"}), "must be a list"),
        (blob_of({**GOOD, "lock": ["points", "rm -rf"]}), "unknown locked control"),
        (blob_of({**GOOD, "hide": ["x"] * 50}), "too many hidden"),
    ],
)
def test_a_bad_long_link_gets_a_clear_message(text, words):
    with pytest.raises(TS.TeacherLinkError) as info:
        TS.decode_blob(text)
    assert words in str(info.value)


def test_a_cut_off_long_link_is_reported():
    blob = TS.encode_blob(d2_spec())
    with pytest.raises(TS.TeacherLinkError, match="cut off|damaged"):
        TS.decode_blob(blob[: len(blob) // 2])


# ---------------------------------------------------------------------------- the store


@pytest.fixture
def link_store(tmp_path):
    """A store of its own (an SQLite file), so a test sees only its own links."""
    s = Store(f"sqlite:///{tmp_path / 'links.db'}")
    yield s
    s.engine.dispose()


def _set_spec(store, link_id, text):
    with store.engine.begin() as c:
        c.execute(update(links).where(links.c.id == link_id).values(spec=text))


def test_the_store_keeps_a_spec_under_its_id(link_store):
    spec = d2_spec(title=EVIL)
    link_id = TL.put_link(spec, link_store)
    assert link_id == spec.id
    assert link_store.get_link(link_id) == spec.canonical()
    assert TL.get_link(link_id, link_store) == spec
    assert TL.put_link(spec, link_store) == link_id  # the same content: the same id, nothing new
    with link_store.engine.connect() as c:
        assert c.execute(select(links.c.id)).scalars().all() == [link_id]
    assert TL.get_link("aaaaaaaaaa", link_store) is None


def test_the_default_store_is_the_environments_database(monkeypatch, tmp_path):
    url = f"sqlite:///{tmp_path / 'env.db'}"
    monkeypatch.setenv("SVMLAB_DATABASE_URL", url)
    link_id = TL.put_link(d2_spec())
    assert get_store(url).get_link(link_id) == d2_spec().canonical()
    assert TL.get_link(link_id) == d2_spec()


@pytest.mark.parametrize("bad", ["../../etc/pa", "ABCDEFGHIJ", "abc", "abcdefghij1", "", None])
def test_the_store_refuses_ids_that_are_not_ids(link_store, bad):
    with pytest.raises(TS.TeacherLinkError, match="id is not valid"):
        TL.get_link(bad, link_store)


def test_a_changed_or_oversized_row_is_reported(link_store):
    link_id = TL.put_link(d2_spec(), link_store)
    _set_spec(link_store, link_id, d2_spec().canonical().replace("D2 with C = 1", "D2 with C = 9"))
    with pytest.raises(TS.TeacherLinkError, match="does not match its id"):
        TL.get_link(link_id, link_store)
    _set_spec(link_store, link_id, " " * (TS.MAX_SPEC_BYTES + 1))
    with pytest.raises(TS.TeacherLinkError, match="too large"):
        TL.get_link(link_id, link_store)
    _set_spec(link_store, link_id, "not json")
    with pytest.raises(TS.TeacherLinkError, match="not valid JSON"):
        TL.get_link(link_id, link_store)
    with pytest.raises(TS.TeacherLinkError, match="another picture is stored under"):
        TL.put_link(d2_spec(), link_store)  # the row under its id is not its picture


def test_a_full_store_says_so_and_the_long_link_still_works(link_store, monkeypatch):
    monkeypatch.setattr(TL, "MAX_LINKS", 1)
    TL.put_link(d2_spec(), link_store)
    with pytest.raises(TS.TeacherLinkError, match="store is full"):
        TL.put_link(d2_spec(title="another"), link_store)
    out = TL.links(d2_spec(title="another"), "http://host/", link_store)
    assert out["short"] is None and "store is full" in out["error"]
    assert out["long"].startswith("http://host/?ts=")
    assert out["present"] == out["long"] + "&present=1"
    assert TS.decode_blob(out["long"].split("ts=", 1)[1]) == d2_spec(title="another")
    assert TL.put_link(d2_spec(), link_store) == d2_spec().id  # one already there: still fine


def test_links_gives_the_short_and_the_long_link(link_store):
    spec = d2_spec()
    out = TL.links(spec, "http://host/", link_store)
    assert out["short"] == f"http://host/?t={spec.id}" and out["error"] is None
    assert out["present"] == f"http://host/?t={spec.id}&present=1"


def test_an_unavailable_store_gives_a_message(link_store, monkeypatch):
    def broken(*a, **k):
        raise OperationalError("INSERT", {}, Exception("disk I/O error"))

    monkeypatch.setattr(link_store, "put_link", broken)
    monkeypatch.setattr(link_store, "get_link", broken)
    out = TL.links(d2_spec(), "", link_store)
    assert out["short"] is None and "cannot be written" in out["error"]
    ss: dict = {}
    msg = T.open_link(ss, {"t": d2_spec().id}, link_store)
    assert "cannot be read on this server" in msg and "long link" in msg
    assert T.spec_of(ss) is None


def test_a_link_is_revealed_only_with_its_key(link_store):
    link_id = TL.put_link(d2_spec(), link_store, key="teacher-secret")
    assert not link_store.link_revealed(link_id)
    with pytest.raises(NotTeacher):
        link_store.reveal_link(link_id, "guess")
    link_store.reveal_link(link_id, "teacher-secret")
    assert link_store.link_revealed(link_id)
    plain = TL.put_link(d2_spec(title="no key"), link_store)
    with pytest.raises(NotTeacher):
        link_store.reveal_link(plain, "")
    assert not link_store.link_revealed("aaaaaaaaaa")


# -------------------------------------------------------------------------- the presets


@pytest.mark.parametrize("preset", TP.PRESETS, ids=lambda p: p.key)
def test_each_preset_is_its_worked_example(preset):
    spec = TP.preset_spec(preset.key)
    setup = examples.BY_KEY[preset.example].setups[preset.setup]
    X, y, settings, _ = playground_target(setup)
    np.testing.assert_array_equal(spec.X, X)
    np.testing.assert_array_equal(spec.y, y)
    assert spec.settings == Settings.parse(settings)
    assert spec.title and spec.question and spec.locked
    assert TS.decode_blob(TS.encode_blob(spec)) == spec


def test_the_presets_cover_the_books_examples():
    specs = {p.key: TP.preset_spec(p.key) for p in TP.PRESETS}
    assert specs["d1"].settings["hard_margin"] and specs["d1"].settings["kernel"] == "linear"
    assert specs["d2"].settings["C"] == 1.0 and not specs["d2"].settings["hard_margin"]
    assert specs["iris"].settings["C"] == 10.0 and len(specs["iris"].y) == 150
    nl = specs["nonlinear"].settings
    assert (nl["kernel"], nl["degree"], nl["coef0"], nl["C"]) == ("polynomial", 2, 1.0, 4.0)
    assert len(specs["two_point"].y) == 2


# ------------------------------------------------------------------- the session side


def test_open_link_loads_the_teachers_picture():
    ss: dict = {}
    spec = d2_spec()
    assert T.open_link(ss, {"ts": TS.encode_blob(spec)}) is None
    X, y, title = state.current_dataset(ss)
    np.testing.assert_array_equal(X, spec.X)
    assert state.current_settings(ss) == spec.settings and title == T.POINTS_TITLE
    assert T.spec_of(ss) == spec and T.at_spec(ss) and not T.is_present(ss)
    assert T.page_query(ss) == {"ts": TS.encode_blob(spec)}
    assert T.is_locked(ss, "kernel") and not T.is_locked(ss, "loss")
    assert not T.shows(ss, "table") and T.shows(ss, "numbers")


def test_a_students_changes_stay_in_the_link_but_locks_win():
    ss: dict = {}
    spec = d2_spec()
    blob = TS.encode_blob(spec)
    # the student's own link (after a reload): loss changed (unlocked), kernel and points
    # changed by hand in the address bar (locked)
    mine = url_links.encode_query(np.array([[0.0, 0.0], [1.0, 1.0]]), np.array([1, -1]),
                              {"kernel": "gaussian", "loss": "quadratic", "C": 5.0})
    assert T.open_link(ss, {"ts": blob, **mine}) is None
    s = state.current_settings(ss)
    assert s["loss"] == "quadratic"  # kept
    assert s["kernel"] == "linear" and s["C"] == 1.0  # locked: the teacher's
    np.testing.assert_array_equal(state.current_dataset(ss)[0], spec.X)  # points locked
    q = T.page_query(ss)
    assert q["ts"] == blob and q["l"] == "quadratic"


def test_unknown_short_link_says_so_and_shows_the_default(link_store):
    ss: dict = {}
    msg = T.open_link(ss, {"t": "aaaaaaaaaa"}, link_store)
    assert "not stored on this server" in msg and "long link" in msg
    assert "default example" in msg
    assert T.spec_of(ss) is None
    np.testing.assert_array_equal(state.current_dataset(ss)[0], datasets.d1().X)


@pytest.mark.parametrize(
    ("q", "words"),
    [
        ({"t": "../../x"}, "id is not valid"),
        ({"ts": "%%%"}, "characters a link never has"),
        ({"ts": TS.encode_blob(d2_spec()), "present": "yes"}, "present=… should be 1 or 0"),
    ],
)
def test_bad_teacher_parameters_give_a_message(link_store, q, words):
    ss: dict = {}
    msg = T.open_link(ss, q, link_store)
    assert words in msg
    assert state.current_dataset(ss)[0].shape[1] == 2 and not T.is_present(ss)


def test_bad_student_changes_fall_back_to_the_teachers_picture():
    ss: dict = {}
    spec = d2_spec()
    msg = T.open_link(ss, {"ts": TS.encode_blob(spec), "v": "1", "p": "!!"})
    assert "could not be read" in msg and T.at_spec(ss)


def test_short_link_and_present_mode(link_store):
    store = link_store
    spec = d2_spec()
    link_id = TL.put_link(spec, store)
    ss: dict = {}
    assert T.open_link(ss, {"t": link_id, "present": "1"}, store) is None
    assert T.spec_of(ss) == spec and T.is_present(ss)
    assert T.page_query(ss) == {"t": link_id, "present": "1"}
    assert T.figure_options(ss) == {"scale": T.PRESENT_SCALE, "show_sv": True,
                                   "hide": ("table",),  # the server leaves it out
                                   "student": True}  # a teacher link opens in the student view


def test_present_mode_without_a_teacher_link():
    ss: dict = {}
    assert T.open_link(ss, {"present": "1", "v": "1", "d": "d2"}) is None
    assert T.is_present(ss) and T.spec_of(ss) is None
    assert T.page_query(ss) == {**url_links.state_query(ss), "present": "1"}
    assert state.current_dataset(ss)[2] == datasets.d2().title


def test_reset_and_undo_the_reset():
    ss: dict = {}
    spec = d2_spec(locked=["kernel"])
    T.open_link(ss, {"ts": TS.encode_blob(spec)})
    state.set_points(ss, [[0.0, 0.0], [1.0, 1.0]], [1, -1])
    state.set_settings(ss, {**state.current_settings(ss), "loss": "quadratic"})
    assert not T.at_spec(ss)
    assert T.reset(ss) and T.at_spec(ss)
    assert T.undo_reset(ss)
    assert state.current_settings(ss)["loss"] == "quadratic"
    assert len(state.current_dataset(ss)[1]) == 2
    assert not T.undo_reset(ss)  # once
    assert not T.reset({})  # no teacher link: nothing to reset to


def test_lock_kwargs_merge_with_the_widgets_own():
    ss: dict = {}
    T.open_link(ss, {"ts": TS.encode_blob(d2_spec())})
    assert T.lock_kwargs(ss, "C", disabled=False, help="own") == {
        "disabled": True, "help": T.LOCKED_HELP}  # fmt: skip
    assert T.lock_kwargs(ss, "loss", disabled=True, help="own") == {
        "disabled": True, "help": "own"}  # fmt: skip
    assert T.lock_kwargs({}, "C") == {"disabled": False}


def test_the_hidden_sv_and_present_mode_reach_the_figure():
    ss: dict = {}
    T.open_link(ss, {"ts": TS.encode_blob(d2_spec(hidden=["sv"])), "present": "1"})
    opts = T.figure_options(ss)
    assert opts == {"scale": T.PRESENT_SCALE, "show_sv": False, "student": True}
    d = datasets.d2()
    m = se.fit(d.X, d.y, C=1.0)
    big = decision_figure_dict(m, scale=opts["scale"], show_sv=opts["show_sv"],
                               show_slack=opts["show_sv"], resolution=20)  # fmt: skip
    small = decision_figure_dict(m, resolution=20)
    roles = lambda f: {t["meta"]["role"] for t in f["data"]}  # noqa: E731
    assert {"sv", "slack"} <= roles(small) and not {"sv", "slack"} & roles(big)
    pts = next(t for t in big["data"] if t["meta"]["role"] == "points")
    assert pts["marker"]["size"] == pytest.approx(POINT_SIZE * T.PRESENT_SCALE)
    assert big["layout"]["font"]["size"] > small["layout"]["font"]["size"]
    assert big["layout"]["height"] > small["layout"]["height"] == 620


def test_the_endpoint_draws_in_the_requested_style():
    d = datasets.d2()
    body = {"points": [[*map(float, p), int(c)] for p, c in zip(d.X, d.y, strict=True)],
            "settings": {"C": 1.0}}  # fmt: skip
    plain = fit_api.refit(body)
    big = fit_api.refit({**body, "style": {"scale": 1.5, "show_sv": False}})
    assert plain["rings"] and plain["slack"]["lines"]
    assert big["rings"] == [] and big["slack"]["lines"] == [] and big["slack"]["labels"] == []
    assert big["misclassified_mark"]["size"] == pytest.approx(
        1.5 * plain["misclassified_mark"]["size"])
    assert big["boundary"]["width"] == pytest.approx(1.5 * plain["boundary"]["width"])
    untimed = lambda panel: [row for row in panel if row[0] != "time"]  # noqa: E731
    assert big["alpha"] == plain["alpha"]  # the same fit, the same numbers (but its time)
    assert untimed(big["panel"]) == untimed(plain["panel"]) and len(plain["panel"]) > 5


@pytest.mark.parametrize(
    ("style", "words"),
    [
        ({"scale": 5}, "style.scale: Input should be less than or equal to 2; got 5"),
        ({"scale": "big"}, "style.scale: Input should be a valid number"),
        ({"scale": float("nan")}, "style.scale: Input should be a finite number"),
        ({"show_sv": "no"}, "style.show_sv: Input should be a valid boolean"),
        ({"colour": 1}, r"unknown field: style.colour \(expected scale, show_sv, hide, student\)"),
        ([1], "style: Input should be a valid dictionary"),
    ],
)
def test_the_endpoint_refuses_a_bad_style(style, words):
    with pytest.raises(fit_api.BadRequest, match=words):
        fit_api.refit({"points": [[0, 0, 1], [1, 1, -1]], "settings": {}, "style": style})


# ----------------------------------------------------------------------------- QR codes


def test_the_qr_png_draws_segnos_code_for_the_link():
    from PIL import Image

    link = "http://host:8501/?t=abcdefghij"
    img = Image.open(io.BytesIO(qr.png(link))).convert("L")
    mat = qr.matrix(link)
    n = len(mat)
    assert img.size == ((n + 8) * qr.PNG_SCALE,) * 2  # a 4-module quiet zone each side
    px = np.asarray(img)
    centres = px[(4 * qr.PNG_SCALE + qr.PNG_SCALE // 2)::qr.PNG_SCALE][:n,
                 (4 * qr.PNG_SCALE + qr.PNG_SCALE // 2)::qr.PNG_SCALE][:, :n]  # fmt: skip
    np.testing.assert_array_equal(centres < 128, np.array(mat))
    assert qr.matrix(link) != qr.matrix(link.replace("abc", "abd"))
    assert qr.svg(link).startswith(b"<?xml") and b"<svg" in qr.svg(link)


def test_a_link_too_long_for_a_qr_code_says_so():
    with pytest.raises(qr.QRError, match="too long for a QR code"):
        qr.png("x" * 5000)
