"""The step record's one schema (ui/step_through/step_schema.py): the player's payload holds
exactly its fields with their dtypes, and tests/js/step_cases.json (what the node tests read:
the schema and bounds' rules) is what Python writes now."""

import importlib.util
from pathlib import Path

import pytest

from svm_engine import datasets
from svm_engine.bounds import browser_rules
from ui.shared.settings import Settings
from ui.step_through import player as SP
from ui.step_through import record
from ui.step_through.step_schema import json_schema

JS = Path(__file__).resolve().parent / "js"


def test_the_checked_in_cases_are_what_python_writes_now():
    spec = importlib.util.spec_from_file_location("step_cases", JS / "step_cases.py")
    gen = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(gen)
    assert gen.OUT.read_text(encoding="utf-8") == gen.render(), (
        "tests/js/step_cases.json is stale: run .venv/bin/python tests/js/step_cases.py")


@pytest.mark.parametrize("name", ["d1", "d2"])
def test_a_payload_holds_the_schemas_fields_and_dtypes_and_the_rules(name):
    ds = datasets.load(name)
    run = record.build_run(ds.X, ds.y, Settings.from_dataset(ds.settings), "smo")
    p = SP.player_payload(run, "r", x_range=(-1, 1), y_range=(-1, 1))
    schema = json_schema()
    for key, rec in schema["properties"].items():
        assert sorted(p[key]) == sorted(rec["required"]) == sorted(rec["properties"]), key
        for f, spec in p[key].items():
            assert spec["dtype"] in rec["properties"][f]["properties"]["dtype"]["enum"], (key, f)
            want = run.n_steps + (key == "curve")
            got = len(SP.decode(spec))
            assert got == (2 * want if f == "a_new" else want), (key, f, got)
    assert p["rules"] == browser_rules()
