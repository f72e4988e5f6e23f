"""ui.generalisation.text: what the Generalisation page says about a grid (pure)."""

from svm_engine import datasets
from svm_engine import model_selection as ms
from ui.generalisation import text as GT


def stopped_grid(kernel: str, values) -> ms.GridResult:
    """A clock that advances one second per reading, stopped after 10 fits (3 folds): the
    first three cells are done, the other three are not."""
    d = datasets.moons(n=60, noise=0.2, seed=0)
    ticks = iter(range(10_000))
    return ms.cross_validate(d.X, d.y, kernel, (1.0, 10.0, 100.0), values, k=3,
                             budget_s=10.5, clock=lambda: float(next(ticks)))


def test_a_stopped_grid_lists_the_cells_it_did_not_finish():
    grid = stopped_grid("gaussian", (0.3, 1.0))
    assert grid.stopped and int(grid.done.sum()) == 3
    words = GT.cv_sentence(grid)
    assert "3 of 6 cells done" in words
    assert words.endswith(" Not finished: C = 10 (σ = 1); C = 100 (every σ).")
    assert "C = 1 " not in words and "C = 1," not in words    # the finished row is not listed


def test_the_polynomial_grid_names_its_degrees_q():
    grid = stopped_grid("polynomial", (1, 2))
    assert GT.unfinished_text(grid) == "C = 10 (q = 2); C = 100 (every q)"


def test_a_finished_grid_lists_nothing():
    d = datasets.moons(n=40, noise=0.2, seed=0)
    grid = ms.cross_validate(d.X, d.y, "gaussian", (1.0,), (1.0,), k=2, budget_s=600)
    assert not grid.stopped and GT.unfinished_text(grid) == ""
    assert "Not finished" not in GT.cv_sentence(grid)
