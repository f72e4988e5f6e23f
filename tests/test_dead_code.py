"""No dead code in the app: vulture (pinned in requirements-test.txt) finds no unused function,
class, method, attribute, variable or import in svm_engine/, ui/, pages/ and app.py, but for
the names tests/dead_code_whitelist.py lists, each with its reason. Code only a test uses is
dead for the app: it belongs in tests/ (as tests/step_payload.py and plotly_json.read_payload).
"""

from __future__ import annotations

import ast
import re
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
APP = ["svm_engine", "ui", "pages", "app.py"]
WHITELIST = ROOT / "tests" / "dead_code_whitelist.py"


def vulture(*paths) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "vulture", *map(str, paths)], cwd=ROOT,
                          capture_output=True, text=True, timeout=120)


def test_the_app_has_no_dead_code():
    done = vulture(*APP, WHITELIST)
    assert "No module named vulture" not in done.stderr, (
        "vulture is missing: .venv/bin/pip install -r requirements-test.txt")
    assert done.returncode == 0 and not done.stdout, (
        "dead code (remove it; move what only a test needs into tests/; or, if something "
        "outside Python's view uses it, add its name with the reason to "
        f"tests/dead_code_whitelist.py):\n{done.stdout}{done.stderr}")


def test_vulture_reports_an_unused_function(tmp_path):
    """The check above can fail: an unused function is reported, a used one is not."""
    src = tmp_path / "mod.py"
    src.write_text("def used():\n    return 1\n\n\ndef forgotten():\n    return 2\n\n\n"
                   "print(used())\n")
    out = vulture(src).stdout
    assert "unused function 'forgotten'" in out and "'used'" not in out


def test_every_whitelisted_name_still_names_something_in_the_app():
    """A name whose code is gone leaves the whitelist too."""
    names = {node.attr for node in ast.walk(ast.parse(WHITELIST.read_text(encoding="utf-8")))
             if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name)
             and node.value.id == "_"}
    assert len(names) > 10
    text = "\n".join(p.read_text(encoding="utf-8") for top in APP
                     for p in ([ROOT / top] if top.endswith(".py")
                               else sorted((ROOT / top).rglob("*.py"))))
    gone = sorted(n for n in names if not re.search(rf"\b{re.escape(n)}\b", text))
    assert not gone, f"tests/dead_code_whitelist.py names what the app no longer has: {gone}"
