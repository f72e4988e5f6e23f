"""What the node tests of the step player take from Python, so that they hold no copy of it:
the rules of when α counts as 0 or C (svm_engine.bounds.browser_rules, sent in the player's
payload) and the JSON Schema of the step record (ui/step_through/step_schema.py). Writes
tests/js/step_cases.json; tests/test_step_schema.py fails when that file is stale.

    .venv/bin/python tests/js/step_cases.py     # after a change to bounds.py or step_schema.py
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from svm_engine.bounds import browser_rules  # noqa: E402
from ui.step_through.step_schema import json_schema  # noqa: E402

OUT = Path(__file__).with_name("step_cases.json")


def render() -> str:
    return json.dumps({"rules": browser_rules(), "schema": json_schema()}, indent=1,
                      ensure_ascii=False) + "\n"


if __name__ == "__main__":
    OUT.write_text(render(), encoding="utf-8")
    print(f"{OUT.relative_to(ROOT)} written")
