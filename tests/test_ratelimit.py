"""Joins and answers per session (ui/classroom/ratelimit.py): a token bucket each."""

import pytest

from ui.classroom import ratelimit as rl


@pytest.mark.parametrize("action", sorted(rl.RATES))
def test_a_burst_then_the_refill_rate(action):
    burst, refill = rl.RATES[action]
    ss = {}
    t = 1000.0
    assert [rl.allow(ss, action, t) for _ in range(int(burst) + 2)] == (
        [True] * int(burst) + [False, False])
    assert rl.wait_s(ss, action, t) == pytest.approx(1 / refill)
    assert not rl.allow(ss, action, t + 0.9 / refill)
    assert rl.allow(ss, action, t + 1.01 / refill)
    assert not rl.allow(ss, action, t + 1.02 / refill)
    later = t + 10 * burst / refill  # a long pause refills to the burst, not beyond
    assert sum(rl.allow(ss, action, later) for _ in range(int(burst) + 5)) == int(burst)


def test_the_limits_are_what_the_issue_asks():
    assert rl.RATES["answer"] == (10.0, 1.0)  # burst 10, one a second
    assert rl.RATES["join"][0] <= 5 and rl.RATES["join"][1] * 60 <= 5  # a few a minute


def test_actions_and_sessions_are_separate():
    a, b = {}, {}
    for _ in range(3):
        assert rl.allow(a, "join", 0.0)
    assert not rl.allow(a, "join", 0.0)
    assert rl.allow(a, "answer", 0.0) and rl.allow(b, "join", 0.0)


def test_a_clock_that_goes_back_refills_nothing():
    ss = {}
    for _ in range(10):
        rl.allow(ss, "answer", 100.0)
    assert not rl.allow(ss, "answer", 50.0)
    assert rl.wait_s(ss, "answer", 50.0) > 0


def test_an_unknown_action_is_a_programming_error():
    with pytest.raises(KeyError):
        rl.allow({}, "shout", 0.0)
