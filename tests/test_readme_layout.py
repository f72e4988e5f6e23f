"""The "Layout" section of docs/architecture.md (the README points to it), ui/__init__.py and
ui/shared/__init__.py match the tree, so that a newcomer who reads them finds every module,
and a move cannot leave them stale:

- every .py file of svm_engine/ (solvers/ too), every package of ui/ and every module in it,
  ui's loose modules, the tests' helpers, benchmarks/, docs/ and deploy/ are named in the
  Layout section, each under its folder;
- every file and folder the section names exists;
- ui/__init__.py names every package of ui/, ui/shared/__init__.py every shared module.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

import ui
import ui.shared

ROOT = Path(__file__).resolve().parents[1]
#: named by the section but not in git: copied at start-up (ui/serving/startup.py)
NOT_IN_GIT = {"plotly.min.js", "static/"}


def layout() -> list[str]:
    text = (ROOT / "docs" / "architecture.md").read_text(encoding="utf-8")
    section = text.split("\n## Layout\n", 1)[1].split("\n## ", 1)[0]
    block = section.split("```\n", 2)[1]
    return block.splitlines()


LINES = layout()


def _indent(line: str) -> int:
    return len(line) - len(line.lstrip())


def entry(name: str, lines: list[str] = LINES, indent: int = 0) -> str:
    """The text of the entry that starts with ``name`` at ``indent``, down to the next entry
    at that indent or less."""
    starts = [i for i, line in enumerate(lines)
              if _indent(line) == indent and line.strip().split()[0:1] == [name]]
    assert starts, f"README's Layout section has no entry {name!r} (at indent {indent})"
    i = starts[0]
    j = next((k for k in range(i + 1, len(lines))
              if lines[k].strip() and _indent(lines[k]) <= indent), len(lines))
    return "\n".join(lines[i:j])


def sub_entry(parent: str, name: str) -> str:
    block = entry(parent).splitlines()
    return entry(name, block, 2)


def named(word: str, text: str) -> bool:
    return re.search(rf"(?<![\w.]){re.escape(word)}(?![\w])", text) is not None


def modules(folder: Path) -> list[str]:
    return sorted(p.name for p in folder.glob("*.py") if p.name != "__init__.py")


UI_PACKAGES = sorted(p.parent.name for p in (ROOT / "ui").glob("*/__init__.py"))


@pytest.mark.parametrize("name", modules(ROOT / "svm_engine"))
def test_every_engine_module_is_named(name):
    assert named(name, entry("svm_engine/")), f"README's Layout: svm_engine/{name} is missing"


@pytest.mark.parametrize("name", modules(ROOT / "svm_engine" / "solvers"))
def test_every_solver_is_named(name):
    assert named(name[:-3], sub_entry("svm_engine/", "solvers/")), (
        f"README's Layout: svm_engine/solvers/{name} is missing")


@pytest.mark.parametrize("package", UI_PACKAGES)
def test_every_ui_package_and_its_modules_are_named(package):
    text = sub_entry("ui/", f"{package}/")
    missing = [m for m in modules(ROOT / "ui" / package) if not named(m[:-3], text)]
    assert not missing, f"README's Layout, ui/{package}/: {missing} are not named"


def test_ui_folders_and_loose_modules_are_named():
    for folder in ("browser/", "assets/"):
        sub_entry("ui/", folder)
    for name in modules(ROOT / "ui"):
        sub_entry("ui/", name)


def test_the_tests_helpers_are_named():
    helpers = [p for p in modules(ROOT / "tests") if not p.startswith("test_")]
    assert helpers and all(named(h, entry("tests/")) for h in helpers), helpers
    browser = [p for p in modules(ROOT / "tests" / "browser") if not p.startswith("test_")]
    assert all(named(h, sub_entry("tests/", "browser/")) for h in browser), browser
    sub_entry("tests/", "js/")


@pytest.mark.parametrize("folder", ["benchmarks", "docs", "deploy"])
def test_every_file_of_benchmarks_docs_and_deploy_is_named(folder):
    files = sorted(p.name for p in (ROOT / folder).iterdir() if p.is_file())
    missing = [f for f in files if not named(f, entry(f"{folder}/"))]
    assert files and not missing, f"README's Layout, {folder}/: {missing} are not named"


def test_what_the_section_names_exists():
    tree = {p.name for p in ROOT.rglob("*")
            if not {".venv", "node_modules", ".git"} & set(p.relative_to(ROOT).parts)}
    text = "\n".join(LINES)
    files = set(re.findall(r"(?<![\w*<>/-])[\w.-]+\.(?:py|js|mjs|md|json|toml|cfg|yaml|csv|css)\b",
                           text))
    assert len(files) > 30  # the pattern finds the names
    stale = sorted(f.rsplit("/", 1)[-1] for f in files
                   if f.rsplit("/", 1)[-1] not in tree | NOT_IN_GIT)
    assert not stale, f"README's Layout names files that do not exist: {stale}"
    tops = [line.split()[0] for line in LINES if line.strip() and _indent(line) == 0]
    assert not [t for t in tops if not (ROOT / t).exists() and t not in NOT_IN_GIT]
    for top in (t for t in tops if t.endswith("/") and t not in NOT_IN_GIT):
        subs = [line.split()[0] for line in entry(top).splitlines()[1:]
                if _indent(line) == 2 and line.split()[0].endswith(("/", ".py"))]
        gone = [s for s in subs if not (ROOT / top / s).exists()]
        assert not gone, f"README's Layout, {top}: {gone} do not exist"


def test_ui_init_names_every_package():
    missing = [p for p in UI_PACKAGES if f"``ui.{p}``" not in ui.__doc__]
    assert not missing, f"ui/__init__.py does not name {missing}"
    for name in modules(ROOT / "ui"):
        assert f"``ui/{name}``" in ui.__doc__, f"ui/__init__.py does not name ui/{name}"


def test_shared_init_names_every_shared_module():
    missing = [m for m in modules(ROOT / "ui" / "shared") if f"``{m[:-3]}" not in ui.shared.__doc__]
    assert not missing, f"ui/shared/__init__.py does not name {missing}"
