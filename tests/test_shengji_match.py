"""zhipai.shengji.Match.record takes only the deal the match last handed out, once."""

import pytest

import zhipai
from zhipai import shengji


def finished(deal):
    deal.play_out()
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
    outside = finished(shengji.Deal(rules, level="K", dealer=1, seed=9))
    with pytest.raises(zhipai.IllegalPlayError, match="not the match's current deal"):
        m.record(outside)
    other_match = finished(shengji.Match(rules, seed=1).next_deal())
    with pytest.raises(zhipai.IllegalPlayError, match="not the match's current deal"):
        m.record(other_match)
    assert (m.hands, m.levels, m.dealer) == (0, ["2"] * 4, None)


def test_only_the_last_deal_handed_out_is_recorded():
    m = shengji.Match(zhipai.rules("tractor"), seed=1)
    old = finished(m.next_deal())
    new = finished(m.next_deal())
    with pytest.raises(zhipai.IllegalPlayError, match="not the match's current deal"):
        m.record(old)
    m.record(new)
    assert m.hands == 1
