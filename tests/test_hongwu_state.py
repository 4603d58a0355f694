"""Hong Wu 红五 whole deals through the Python API (hongwu.md §B.1–§B.11)."""

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import zhipai
from zhipai import hongwu

TWO_DECKS = sorted(str(c) for c in zhipai.cards(
    " ".join(f"{r}{s}" for s in "SHDC" for r in "2 3 4 5 6 7 8 9 10 J Q K A".split()) + " SJ BJ"
) * 2)


def names(cards):
    return sorted(str(c) for c in cards)


@pytest.fixture
def game():
    return hongwu.Game()


def test_deal_is_two_decks_25_each_and_reproducible(game):
    s = game.new_deal(seed=7)
    hands = [s.hand(p) for p in range(4)]
    assert [len(h) for h in hands] == [25] * 4 and len(s.kitty) == 8
    assert sorted(names(sum(hands, [])) + names(s.kitty)) == TWO_DECKS
    t = game.new_deal(seed=7)
    assert [names(t.hand(p)) for p in range(4)] == [names(h) for h in hands]
    assert s.phase == "auction" and s.to_act in range(4)


def _fixed_deal_h12():
    """Seat 0 holds ♣K♣K♣J♣J♣8 and no other club; seat 3 holds ♣9 (hongwu.md §B.13 H12)."""
    deck = list(TWO_DECKS)
    for c in ["KC", "KC", "JC", "JC", "8C", "9C"]:
        deck.remove(c)
    clubs = [c for c in deck if c.endswith("C")]
    rest = [c for c in deck if not c.endswith("C")]
    pool = rest + clubs
    h0 = ["KC", "KC", "JC", "JC", "8C"] + pool[:20]
    h1, h2 = pool[20:45], pool[45:70]
    h3 = ["9C"] + pool[70:94]
    kitty = pool[94:]
    return [" ".join(h) for h in (h0, h1, h2, h3)], " ".join(kitty)


def test_fixed_deal_auction_trump_kitty_and_failed_throw(game):
    hands, kitty = _fixed_deal_h12()
    s = game.new_deal(hands=hands, kitty=kitty, first=0)
    with pytest.raises(zhipai.IllegalPlayError, match="illegal play KC by seat 0: not an action of the auction phase"):
        s.play("KC")
    s.bid(60)
    for _ in range(3):
        s.bid("pass")
    assert s.contract == (0, 60) and s.phase == "trump"
    with pytest.raises(zhipai.InvalidValueError, match="no no-trump"):
        s.choose_trump("NT")
    s.choose_trump("S")
    assert s.phase == "kitty" and len(s.hand(0)) == 33
    bury = [str(c) for c in s.hand(0) if not str(c).endswith("C")][:8]
    with pytest.raises(zhipai.IllegalPlayError, match="exactly 8"):
        s.bury(" ".join(bury[:7]))
    s.bury(" ".join(bury))
    assert s.phase == "play" and s.to_act == 0 and names(s.kitty) == sorted(bury)
    played, failed = s.play("KC KC JC JC 8C")
    assert names(played) == ["8C"] and failed
    assert s.current_trick == [[zhipai.Card("8C")]] and s.to_act == 1
    assert len(s.hand(0)) == 24


def test_trump_throw_is_refused(game):
    s = game.new_deal(seed=11)
    s.bid(60)
    for _ in range(3):
        s.bid("pass")
    s.choose_trump("H")
    dealer = s.contract[0]
    s.bury(" ".join(str(c) for c in s.hand(dealer)[:8]))
    order = zhipai.hongwu.HongWuOrder(game.rules, "H")
    trumps = sorted({str(c) for c in s.hand(dealer) if order.is_trump(str(c))}, key=order.strength)
    a, b = trumps[0], trumps[-1]
    assert not order.ties(a, b) and not order.adjacent(a, b)  # precondition of this deal
    with pytest.raises(zhipai.IllegalPlayError, match="cannot be thrown"):
        s.play(f"{a} {b}")
    assert s.current_trick == []


def test_policies_play_whole_deals(game):
    for policy in ("random", "greedy"):
        s = game.new_deal(seed=5)
        r = s.play_out(policy, seed=1)
        assert s.is_over() and s.phase == "over" and s.to_act is None
        assert r == s.settlement()
        assert r["dealer"] + 3 * r["each_other"] == 0
        assert sum(s.points_won) + sum(c.points for c in s.kitty) == 200
        assert all(len(s.hand(p)) == 0 for p in range(4))


def test_step_and_clone(game):
    s = game.new_deal(seed=2)
    t = s.clone()
    kind, value = s.step("random", seed=3)
    assert kind == "bid" and (value == "pass" or 60 <= value <= 80)
    assert t.legal_bids() == ["pass", 60, 65, 70, 75, 80]
    assert t.phase == "auction" and t.current_trick == []
    while s.phase == "auction":
        s.step("greedy")
    assert s.step("greedy")[0] == "trump"
    kind, cards = s.step("greedy")
    assert kind == "bury" and len(cards) == 8
    assert s.lead_candidates() and s.legal_follows() == [] and s.count_follows() == 0
    s.step("random", seed=4)
    assert s.count_follows() == len(s.legal_follows()) > 0


def test_errors(game):
    with pytest.raises(zhipai.InvalidValueError, match="seed, or hands"):
        game.new_deal()
    with pytest.raises(zhipai.InvalidValueError, match="3 hands"):
        game.new_deal(hands=["AS", "AS", "KS"], kitty="")
    with pytest.raises(zhipai.InvalidValueError, match="hand of seat 0"):
        game.new_deal(hands=["AS", "AS", "KS", "QS"], kitty="2C")
    with pytest.raises(zhipai.InvalidCardError, match="ZZ"):
        game.new_deal(hands=["ZZ", "AS", "KS", "QS"], kitty="2C")
    s = game.new_deal(seed=1)
    with pytest.raises(zhipai.InvalidValueError, match="seat 4"):
        s.hand(4)
    with pytest.raises(zhipai.InvalidValueError, match="policy"):
        s.step("clever")
    s.play_out("random", seed=0)
    with pytest.raises(zhipai.InvalidValueError, match="over"):
        s.step()
    with pytest.raises(zhipai.IllegalPlayError, match="over"):
        s.bid("pass")
    with pytest.raises(zhipai.InvalidValueError, match="hong_wu"):
        hongwu.Game(zhipai.rules("tractor"))


@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 2**63), policy=st.sampled_from(["random", "greedy"]))
def test_any_deal_settles(seed, policy):
    s = hongwu.Game().new_deal(seed=seed)
    r = s.play_out(policy, seed=seed)
    bid = s.contract[1]
    assert 60 <= bid <= 200 and s.trump in "SHDC"
    assert r["score"] == r["dealer_points"] - bid - r["red5_penalty"]
    assert r["dealer_points"] == 200 - r["attacker_points"]
    assert 1 <= s.tricks <= 25


def test_simulate_hong_wu_rows():
    rules = zhipai.rules("hong_wu")
    a = zhipai.simulate(rules, deals=40, policy="greedy", seed=3)
    b = zhipai.simulate(rules, deals=40, policy="greedy", seed=3)
    assert a.columns[:3] == ["dealer", "bid", "trump"]
    for col in a.columns:
        assert list(a[col]) == list(b[col]), col
    bid, score, x = a["bid"], a["score"], a["attacker_points"]
    assert all(60 <= v <= 200 for v in bid)
    assert all(s == 200 - xi - bi for s, xi, bi in zip(score, x, bid))
    assert all(d + 3 * e == 0 for d, e in zip(a["dealer_result"], a["each_other_result"]))
