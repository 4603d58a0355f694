"""zhipai.shengji.Match.record takes only the deal the match last handed out, once."""

import pytest
import zhipai
from zhipai import shengji


def finished(deal):
    while not deal.is_terminal():
        deal.apply_builtin("random")
    return deal


def test_a_deal_is_recorded_once():
    m = shengji.Match(zhipai.rules("tractor"), seed=1)
    d = finished(m.next_deal())
    m.record(d)
    levels, dealer = m.levels, m.dealer
    with pytest.raises(zhipai.IllegalPlayError, match="deal already recorded"):
        m.record(d)
    assert (m.hands, m.levels, m.dealer) == (1, levels, dealer)


def test_a_deal_from_elsewhere_is_refused():
    rules = zhipai.rules("tractor")
    m = shengji.Match(rules, seed=1)
    outside = finished(zhipai.Game(rules).new_deal(level="K", dealer=1, seed=9))
    with pytest.raises(zhipai.IllegalPlayError, match="not the match's current deal"):
        m.record(outside)
    other_match = finished(shengji.Match(rules, seed=1).next_deal())
    with pytest.raises(zhipai.IllegalPlayError, match="not the match's current deal"):
        m.record(other_match)
    # The same cards replayed from the hand's record are not the hand the match handed out.
    mine = finished(m.next_deal())
    with pytest.raises(zhipai.IllegalPlayError, match="not the match's current deal"):
        m.record(zhipai.Game.from_json(mine.to_json()))
    with pytest.raises(zhipai.IllegalPlayError, match="not over"):
        m.record(m.next_deal())
    assert (m.hands, m.levels, m.dealer) == (0, ["2"] * 4, None)


def test_a_match_hand_is_a_game_state_that_replays_on_its_own():
    m = shengji.Match(zhipai.rules("tractor"), seed=3)
    m.play_hand()
    dealer = m.dealer
    d = m.next_deal()
    # Hand 2: the trump is declared while dealing, the dealer is known (shengji.md §2.3).
    assert isinstance(d, zhipai.GameState) and d.phase == "dealing"
    assert d.observation(0)["dealer"] == m.seating.index(dealer)
    finished(d)
    again = zhipai.Game.from_json(d.to_json())
    assert again.result() == d.result() and again.observation(1) == d.observation(1)
    m.record(d)
    assert m.hands == 2
    r = m.play_hand("greedy")
    assert isinstance(r, dict) and set(r) == set(zhipai.Game("tractor").columns)


def test_only_the_last_deal_handed_out_is_recorded():
    m = shengji.Match(zhipai.rules("tractor"), seed=1)
    old = finished(m.next_deal())
    new = finished(m.next_deal())
    with pytest.raises(zhipai.IllegalPlayError, match="not the match's current deal"):
        m.record(old)
    m.record(new)
    assert m.hands == 1
