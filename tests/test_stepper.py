"""The replay pages' one step rule (ui.shared.stepper): each button's step, within 0 … total."""

import pytest

from ui.shared.stepper import MOVES, step_to


@pytest.mark.parametrize(("k", "expected"), [(0, (0, 0, 1, 5)), (3, (0, 2, 4, 5)),
                                             (5, (0, 4, 5, 5))])
def test_each_button_moves_within_the_run(k, expected):
    assert tuple(step_to(k, m, 5) for m in MOVES) == expected


def test_an_empty_run_stays_at_its_start():
    assert {step_to(0, m, 0) for m in MOVES} == {0}
