"""ui.serving.fit_schema: the fit endpoint's one definition of its request and answer, its
JSON Schema checked in, real answers that fit it, and the browser code that agrees with it
(tests/js/fit_schema.test.mjs runs the browser's readers on real answers)."""

import importlib.util
import json
import re
from pathlib import Path

import pytest

from ui.serving import budget, fit_api, fit_schema
from ui.serving.fit_schema import FitAnswer, FitRequest, Warm

ROOT = Path(__file__).resolve().parents[1]
BROWSER = ROOT / "ui" / "browser"
#: answer fields no browser code reads, and why they stay
NOT_READ_BY_THE_BROWSER = {"seq": "echoed for clients that pipeline requests "
                                  "(benchmarks/canvas_client.py, tests)"}


def _js() -> dict[str, str]:
    return {p.name: p.read_text(encoding="utf-8") for p in sorted(BROWSER.glob("*.js"))}


def _cases_module():
    spec = importlib.util.spec_from_file_location(
        "fit_answer_cases", ROOT / "tests" / "js" / "fit_answer_cases.py")
    gen = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(gen)
    return gen


def test_the_checked_in_schema_is_the_models():
    assert fit_schema.SCHEMA_FILE.read_text(encoding="utf-8") == fit_schema.schema_text(), (
        "ui/serving/fit_schema.json is stale: run .venv/bin/python -m ui.serving.fit_schema")


def test_the_browsers_cases_are_real_answers_that_fit_the_schema():
    gen = _cases_module()
    assert gen.OUT.read_text(encoding="utf-8") == gen.text(), (
        "tests/js/fit_answer_cases.json is stale: run .venv/bin/python "
        "tests/js/fit_answer_cases.py")
    cases = json.loads(gen.OUT.read_text(encoding="utf-8"))["cases"]
    for c in cases:
        FitAnswer.model_validate(c["answer"])
    by = {c["name"]: c["answer"] for c in cases}
    assert by["d2 soft margin"]["ok"] and by["d2 soft margin"]["slack"]["lines"]
    assert "panel" not in by["numbers hidden"] and "alpha" not in by["table hidden"]
    assert by["one class"]["kind"] == "need_two_classes"


@pytest.mark.parametrize("extra", [{"b": 1.0}, {"n": 3}, {"slack": {"lines": [], "labels": [],
                                                                   "style": None, "font": None,
                                                                   "colour": 1}}])
def test_an_answer_with_a_field_the_schema_does_not_name_does_not_fit(extra):
    ans = json.loads(budget._no_model((3, None, 1), "busy", "busy", 0.0))
    FitAnswer.model_validate(ans)
    with pytest.raises(ValueError):
        FitAnswer.model_validate({**ans, **extra})


def test_the_browser_reads_every_answer_field_and_no_other():
    # the canvas reads an answer as `ans.<field>` (R.ans, the answer on the layer, too)
    read: dict[str, set[str]] = {}
    for name, text in _js().items():
        for field in re.findall(r"\bans\.([A-Za-z_]\w*)", text):
            read.setdefault(field, set()).add(name)
    named = set(FitAnswer.model_fields)
    assert len(read) >= 20, read  # the pattern finds the readers
    unknown = {f: sorted(files) for f, files in read.items() if f not in named}
    assert not unknown, f"the browser reads answer fields the schema does not name: {unknown}"
    unread = named - set(read) - set(NOT_READ_BY_THE_BROWSER)
    assert not unread, f"answer fields no browser code reads (drop them): {sorted(unread)}"


def test_the_browsers_request_is_the_schemas():
    text = _js()["canvas_endpoint.js"]
    literal = re.search(r"const body = \{([^}]*)\}", text).group(1)
    keys = set(re.findall(r"(\w+):", literal)) | set(re.findall(r"\bbody\.(\w+) =", text))
    assert {"points", "settings", "seq", "style", "view", "home", "warm"} == keys
    assert keys <= set(FitRequest.model_fields)
    warm = re.search(r"body\.warm = \{([^}]*)\}", text).group(1)
    assert set(re.findall(r"(\w+):", warm)) == set(Warm.model_fields)


def test_the_answers_of_the_page_fit_the_schema_too():
    # the page's payload (ui/playground/panels.py) sends the same answer (without "theory")
    from svm_engine import datasets

    d = datasets.d2()
    ans = fit_api.answer(d.X, d.y, fit_schema.parse({"points": [[0, 0, 1]]}).settings,
                         ((-1.0, 9.0), (0.0, 6.0)), theory=True)
    ans.pop("theory")
    FitAnswer.model_validate(json.loads(fit_api.to_json(ans)))
