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


# ---- new-user report (hongwu2): messages, seats, argument types ----------------------------


def _dealt_to_play(game, seed=1):
    s = game.new_deal(seed=seed, first=0)
    s.bid(60)
    for _ in range(3):
        s.bid("pass")
    s.choose_trump("S")
    s.bury(s.hand(0)[:8])  # a list of Cards is accepted as well as notation
    return s


def test_illegal_play_messages_use_card_notation_and_hong_wu_sections(game):
    s = game.new_deal(seed=1, first=0)
    with pytest.raises(zhipai.IllegalPlayError, match=r"^illegal play trump S by seat 0: .*auction"):
        s.choose_trump("S")
    s.bid(60)
    for _ in range(3):
        s.bid("pass")
    s.choose_trump("S")
    with pytest.raises(zhipai.IllegalPlayError) as e:
        s.bury(s.hand(0)[:7])
    assert "Multiset" not in str(e.value) and "bury exactly 8" in str(e.value)
    s.bury(s.hand(0)[:8])
    trumps = [c for c in s.hand(0) if str(c) in {"SJ", "BJ"} or str(c).endswith("S")]
    plains = [c for c in s.hand(0) if c not in trumps]
    with pytest.raises(zhipai.IllegalPlayError) as e:
        s.play([trumps[0], plains[0]])
    msg = str(e.value)
    assert msg.startswith(f"illegal play ") and "hongwu.md §B.6" in msg
    assert "Multiset" not in msg and "shengji" not in msg


def test_trump_throw_cites_b7(game):
    rules = zhipai.rules("hong_wu")
    order = hongwu.HongWuOrder(rules, "S")
    for seed in range(40):
        s = _dealt_to_play(game, seed)
        t = sorted({str(c) for c in s.hand(0) if order.is_trump(str(c))},
                   key=lambda c: order.strength(c))
        # Two trump singles of different strength that are not one unit: a trump throw.
        pair = [a for a in t if not order.ties(a, t[-1])][:1] + t[-1:]
        if len(pair) == 2:
            with pytest.raises(zhipai.IllegalPlayError) as e:
                s.play(" ".join(pair))
            assert "hongwu.md §B.7" in str(e.value) and "shengji" not in str(e.value)
            assert " ".join(pair) in str(e.value) or pair[0] in str(e.value)
            return
    pytest.fail("no deal with two trumps")


@pytest.mark.parametrize("first", [0, 1, 2, 3])
def test_new_deal_honours_first(game, first):
    s = game.new_deal(seed=5, first=first)
    assert s.to_act == first
    # The cards do not depend on the opener.
    assert names(s.hand(2)) == names(game.new_deal(seed=5).hand(2))


@pytest.mark.parametrize("first", [4, 99, -1, True, 1.0, "0"])
def test_new_deal_refuses_bad_first(game, first):
    with pytest.raises(zhipai.InvalidValueError, match="first bidder"):
        game.new_deal(seed=5, first=first)


def test_two_deck_copy_limit_and_deal_difference_messages(game):
    s = _dealt_to_play(game)
    with pytest.raises(zhipai.InvalidValueError, match="BJ appears 8 times: more copies than 2 decks hold"):
        s.play("BJ " * 8)
    hands, kitty = _fixed_deal_h12()
    bad = hands[0].split()
    bad[-1] = "KC"  # a third ♣K replaces a card
    with pytest.raises(zhipai.InvalidValueError, match="KC appears 3 times"):
        game.new_deal(hands=[" ".join(bad)] + hands[1:], kitty=kitty)
    gone = hands[0].split()[-1]
    swapped = hands[0].split()[:-1] + ["BJ"]
    bj_extra = [h for h in hands[1:] if "BJ" in h.split()]
    with pytest.raises(zhipai.InvalidValueError) as e:
        game.new_deal(hands=[" ".join(swapped)] + hands[1:], kitty=kitty)
    msg = str(e.value)
    assert len(msg) < 250, msg
    if gone != "BJ":
        assert "extra cards: BJ" in msg and f"missing cards: {gone}" in msg


def test_seat_messages_say_0_to_3(game):
    s = game.new_deal(seed=1)
    with pytest.raises(zhipai.InvalidValueError, match="expected a seat 0 to 3"):
        s.hand(4)
    with pytest.raises(zhipai.InvalidValueError, match="expected a seat 0 to 3"):
        hongwu.HongWuAuction(zhipai.rules("hong_wu"), 7)
    assert "0..4" not in hongwu.__doc__


@pytest.mark.parametrize("call", [
    lambda R: hongwu.run_auction(R, -1, []),
    lambda R: hongwu.run_auction(R, None, []),
    lambda R: hongwu.run_auction(R, 10**30, []),
    lambda R: hongwu.run_auction(R, 0, [(0, 60.0)]),
    lambda R: hongwu.run_auction(R, 0, [(True, 60)]),
    lambda R: hongwu.run_auction(R, 0, [(0, -60)]),
    lambda R: hongwu.run_auction(R, 0, [60]),
    lambda R: hongwu.run_auction(R, 0, 5),
    lambda R: hongwu.result_units(10**30),
    lambda R: hongwu.result_units(None),
    lambda R: hongwu.result_units(2.5),
    lambda R: hongwu.result_units(True),
    lambda R: hongwu.settle(R, -100, 60),
    lambda R: hongwu.settle(R, 100, None),
    lambda R: hongwu.settle(R, 100, 10**40),
    lambda R: hongwu.settle(5, 100, 60),
    lambda R: hongwu.levels("hong_wu"),
    lambda R: hongwu.HongWuOrder(R, None),
    lambda R: hongwu.HongWuOrder(R, "S").is_trump(3),
    lambda R: hongwu.Game(R).new_deal(seed=-1),
    lambda R: hongwu.Game(R).new_deal(seed=1.5),
    lambda R: hongwu.Game(R).new_deal(hands="AS", kitty=""),
    lambda R: hongwu.Game(R).new_deal(seed=1).hand(None),
    lambda R: hongwu.Game(R).new_deal(seed=1).bid(None),
    lambda R: hongwu.Game(R).new_deal(seed=1).step(seed=-3),
    lambda R: hongwu.Game(R).new_deal(seed=1).play_out(policy=3),
    lambda R: hongwu.Game(R).new_deal(seed=1).legal_follows(-1),
    lambda R: hongwu.Game(R).new_deal(seed=1).play(5),
])
def test_bad_arguments_raise_zhipai_errors(call):
    with pytest.raises(zhipai.InvalidValueError):
        call(zhipai.rules("hong_wu"))


def test_numpy_ints_are_ints(game):
    np = pytest.importorskip("numpy")
    R = zhipai.rules("hong_wu")
    a = hongwu.run_auction(R, np.int64(1), [(np.int32(1), np.int64(60))])
    assert a.high == (1, 60)
    assert hongwu.result_units(np.int64(-30)) == (-6, 2)
    assert game.new_deal(seed=np.uint64(3), first=np.int8(2)).to_act == 2
    assert hongwu.settle(R, np.int64(100), np.int64(60))["dealer"] == 6
