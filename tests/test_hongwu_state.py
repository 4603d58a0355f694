"""Hong Wu 红五 whole deals through the Python API (hongwu.md §B.1–§B.11)."""

import pytest
import zhipai
from hypothesis import given, settings
from hypothesis import strategies as st
from zhipai import hongwu

TWO_DECKS = sorted(str(c) for c in zhipai.cards(
    " ".join(f"{r}{s}" for s in "SHDC" for r in ["2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A"]) + " SJ BJ"
) * 2)


POINTS = {"5": 5, "10": 10, "K": 10}  # hongwu.md §B.5


def names(cards):
    return sorted(str(c) for c in cards)


def hand(s, seat):
    return s.observation(seat)["hand"].split()


def points(cards):
    return sum(POINTS.get(c.rank, 0) for c in zhipai.cards(" ".join(cards) if not isinstance(cards, str) else cards))


def kitty_of(s):
    """The 8 cards not in the four hands of a fresh deal (two decks minus 4 × 25)."""
    rest = list(TWO_DECKS)
    for p in range(4):
        for c in hand(s, p):
            rest.remove(c)
    return sorted(rest)


def play_out(s, policy):
    while not s.is_terminal():
        s.apply_builtin(policy)
    return s.result()


@pytest.fixture
def game():
    return zhipai.Game("hong_wu")


def test_deal_is_two_decks_25_each_and_reproducible(game):
    s = game.new_deal(seed=7)
    hands = [hand(s, p) for p in range(4)]
    assert [len(h) for h in hands] == [25] * 4
    kitty = kitty_of(s)  # raises if the hands are not part of two decks
    assert len(kitty) == 8
    assert sorted(sum(hands, []) + kitty) == TWO_DECKS
    t = game.new_deal(seed=7)
    assert [names(hand(t, p)) for p in range(4)] == [names(h) for h in hands]
    assert s.phase == "auction" and s.current_player() in range(4)
    # The dealer takes exactly those 8 cards (hongwu.md §B.3).
    while s.phase == "auction":
        s.apply_builtin("random")
    dealer = s.observation(0)["contract"][0]
    s.apply("trump S")
    assert names(hand(s, dealer)) == sorted(hands[dealer] + kitty)


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
    s = game.new_deal(hands=hands, kitty=kitty, dealer=0)
    with pytest.raises(zhipai.IllegalPlayError, match="illegal play KC by seat 0: not an action of the auction phase"):
        s.apply("play KC")
    s.apply("bid 60")
    for _ in range(3):
        s.apply("pass")
    assert s.observation(2)["contract"] == (0, 60) and s.phase == "trump"
    with pytest.raises(zhipai.InvalidValueError, match="NT"):  # no no-trump (§B.3)
        s.apply("trump NT")
    assert not s.is_legal("trump NT") and "trump NT" not in s.legal_moves()
    assert s.legal_moves() == ["trump S", "trump H", "trump D", "trump C"]
    s.apply("trump S")
    assert s.phase == "kitty" and len(hand(s, 0)) == 33
    bury = [c for c in hand(s, 0) if not c.endswith("C")][:8]
    with pytest.raises(zhipai.IllegalPlayError, match="exactly 8"):
        s.apply("bury " + " ".join(bury[:7]))
    s.apply("bury " + " ".join(bury))
    assert s.phase == "play" and s.current_player() == 0
    assert names(s.observation(0)["kitty"].split()) == sorted(bury)
    assert s.observation(1)["kitty"] is None  # the dealer's alone
    s.apply("play KC KC JC JC 8C")  # seat 3's 9C beats 8C: the throw fails (§B.13 H12)
    assert s.history(2)[-1] == (0, "play 8C (failed throw 8C JC JC KC KC)")
    assert s.observation(1)["current_trick"] == [(0, "8C")] and s.current_player() == 1
    assert len(hand(s, 0)) == 24


def test_trump_throw_is_refused(game):
    s = game.new_deal(seed=11)
    s.apply("bid 60")
    for _ in range(3):
        s.apply("pass")
    s.apply("trump H")
    dealer = s.observation(0)["contract"][0]
    s.apply("bury " + " ".join(hand(s, dealer)[:8]))
    order = zhipai.hongwu.HongWuOrder(game.rules, "H")
    trumps = sorted({c for c in hand(s, dealer) if order.is_trump(c)}, key=order.strength)
    a, b = trumps[0], trumps[-1]
    assert not order.ties(a, b) and not order.adjacent(a, b)  # precondition of this deal
    with pytest.raises(zhipai.IllegalPlayError, match="cannot be thrown"):
        s.apply(f"play {a} {b}")
    assert s.observation(dealer)["current_trick"] == []


def test_policies_play_whole_deals(game):
    for policy in ("random", "greedy"):
        s = game.new_deal(seed=5)
        r = play_out(s, policy)
        assert s.is_terminal() and s.phase == "done" and s.current_player() is None
        assert r == dict(zip(game.columns, s.result_row()))
        assert r["dealer_result"] + 3 * r["each_other_result"] == 0  # §B.11: dealer pays 3x
        dealer = r["dealer"]
        assert list(s.returns()) == [r["dealer_result"] if p == dealer else r["each_other_result"] for p in range(4)]
        o = s.observation(dealer)
        assert sum(o["points_won"]) + points(o["kitty"]) == 200  # §B.5
        assert all(len(hand(s, p)) == 0 for p in range(4))


def test_step_and_clone(game):
    s = game.new_deal(seed=2)
    t = s.clone()
    move = s.apply_builtin("random")
    assert move == "pass" or 60 <= int(move.split()[1]) <= 80  # first bid 60…80 (§B.2)
    assert t.legal_moves() == ["pass", "bid 60", "bid 65", "bid 70", "bid 75", "bid 80"]
    assert t.phase == "auction" and t.observation(0)["current_trick"] == [] and t.history() == []
    while s.phase == "auction":
        s.apply_builtin("greedy")
    assert s.apply_builtin("greedy").startswith("trump ")
    kind, *cards = s.apply_builtin("greedy").split()
    assert kind == "bury" and len(cards) == 8
    # The dealer leads: the moves are leads (no follows), counted at least as many as listed.
    leads = s.legal_moves()
    assert leads and all(m.startswith("play ") for m in leads)
    assert s.count_legal_moves() >= len(leads)
    s.apply_builtin("random")
    assert s.count_legal_moves() == len(s.legal_moves()) > 0  # follows, all listed
    assert t.phase == "auction"  # the clone did not move


def test_errors(game):
    with pytest.raises(zhipai.InvalidValueError, match="3 hands"):
        game.new_deal(hands=["AS", "AS", "KS"], kitty="")
    with pytest.raises(zhipai.InvalidValueError, match="hand of seat 0"):
        game.new_deal(hands=["AS", "AS", "KS", "QS"], kitty="2C")
    with pytest.raises(zhipai.ZhipaiError, match="ZZ"):
        game.new_deal(hands=["ZZ", "AS", "KS", "QS"], kitty="2C")
    hands, kitty = _fixed_deal_h12()
    with pytest.raises(zhipai.InvalidValueError, match="kitty"):
        game.new_deal(hands=hands)  # the 8-card kitty is part of the deal
    with pytest.raises(zhipai.InvalidValueError, match="level"):
        game.new_deal(hands=hands, kitty=kitty, level="5")  # Hong Wu has no level
    with pytest.raises(zhipai.InvalidValueError, match="trump"):
        game.new_deal(hands=hands, kitty=kitty, trump="S")  # named after the auction
    s = game.new_deal(seed=1)
    with pytest.raises(zhipai.InvalidValueError, match="seat 4"):
        s.observation(4)
    with pytest.raises(zhipai.InvalidValueError, match="policy"):
        s.apply_builtin("clever")
    play_out(s, "random")
    with pytest.raises(zhipai.IllegalPlayError, match="over"):
        s.apply_builtin("random")
    with pytest.raises(zhipai.IllegalPlayError, match="over"):
        s.apply("pass")


@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 2**63), policy=st.sampled_from(["random", "greedy"]))
def test_any_deal_settles(seed, policy):
    s = zhipai.Game("hong_wu").new_deal(seed=seed)
    r = play_out(s, policy)
    dealer, bid = s.observation(0)["contract"]
    assert r["dealer"] == dealer and r["bid"] == bid
    assert 60 <= bid <= 200 and s.observation(0)["trump"] in "SHDC"
    assert r["score"] == r["dealer_points"] - bid - r["red5_penalty"]
    assert r["dealer_points"] == 200 - r["attacker_points"]
    assert 1 <= r["tricks"] == s.observation(0)["tricks"] <= 25


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


# ---- new-user report (hongwu2): messages, seats, argument types ----------------------------


def with_opener(game, seed, first):
    """The cards of deal ``seed`` with seat ``first`` opening the auction (given hands: a
    shuffled deal takes its opener from the generator)."""
    s = game.new_deal(seed=seed)
    return game.new_deal(hands=[" ".join(hand(s, p)) for p in range(4)], kitty=" ".join(kitty_of(s)),
                         dealer=first, seed=seed)


def _dealt_to_play(game, seed=1):
    s = with_opener(game, seed, 0)
    s.apply("bid 60")
    for _ in range(3):
        s.apply("pass")
    s.apply("trump S")
    s.apply("bury " + " ".join(hand(s, 0)[:8]))
    return s


def test_illegal_play_messages_use_card_notation_and_hong_wu_sections(game):
    s = with_opener(game, 1, 0)
    with pytest.raises(zhipai.IllegalPlayError, match=r"^illegal play trump S by seat 0: .*auction"):
        s.apply("trump S")
    assert "auction" in s.why_illegal("trump S")
    s.apply("bid 60")
    for _ in range(3):
        s.apply("pass")
    s.apply("trump S")
    with pytest.raises(zhipai.IllegalPlayError) as e:
        s.apply("bury " + " ".join(hand(s, 0)[:7]))
    assert "Multiset" not in str(e.value) and "bury exactly 8" in str(e.value)
    s.apply("bury " + " ".join(hand(s, 0)[:8]))
    order = hongwu.HongWuOrder(game.rules, "S")
    trumps = [c for c in hand(s, 0) if order.is_trump(c)]
    plains = [c for c in hand(s, 0) if not order.is_trump(c)]
    with pytest.raises(zhipai.IllegalPlayError) as e:
        s.apply(f"play {trumps[0]} {plains[0]}")
    msg = str(e.value)
    assert msg.startswith("illegal play ") and "hongwu.md §B.6" in msg
    assert "Multiset" not in msg and "shengji" not in msg


def test_trump_throw_cites_b7(game):
    rules = zhipai.rules("hong_wu")
    order = hongwu.HongWuOrder(rules, "S")
    for seed in range(40):
        s = _dealt_to_play(game, seed)
        t = sorted({c for c in hand(s, 0) if order.is_trump(c)}, key=lambda c: order.strength(c))
        # Two trump singles of different strength that are not one unit: a trump throw.
        pair = [a for a in t if not order.ties(a, t[-1])][:1] + t[-1:]
        if len(pair) == 2:
            with pytest.raises(zhipai.IllegalPlayError) as e:
                s.apply("play " + " ".join(pair))
            assert "hongwu.md §B.7" in str(e.value) and "shengji" not in str(e.value)
            assert " ".join(pair) in str(e.value) or pair[0] in str(e.value)
            return
    pytest.fail("no deal with two trumps")


@pytest.mark.parametrize("first", [0, 1, 2, 3])
def test_new_deal_honours_first(game, first):
    s = with_opener(game, 5, first)  # dealer= is the seat that opens the auction (§B.2)
    assert s.current_player() == first and s.phase == "auction"
    assert names(hand(s, 2)) == names(hand(game.new_deal(seed=5), 2))
    with pytest.raises(zhipai.InvalidValueError, match="dealer 4"):
        game.new_deal(seed=5, dealer=4)


@pytest.mark.parametrize("first", [0, 2])
def test_shuffled_deal_with_a_chosen_opener(game, first):
    s = game.new_deal(seed=5, dealer=first)
    assert s.current_player() == first
    # The cards do not depend on the opener.
    assert names(hand(s, 2)) == names(hand(game.new_deal(seed=5), 2))


@pytest.mark.parametrize("first", [4, 99, -1, True, 1.0, "0"])
def test_new_deal_refuses_bad_first(game, first):
    hands, kitty = _fixed_deal_h12()
    with pytest.raises(zhipai.InvalidValueError, match="dealer"):
        game.new_deal(hands=hands, kitty=kitty, dealer=first)


def test_two_deck_copy_limit_and_deal_difference_messages(game):
    s = _dealt_to_play(game)
    with pytest.raises(zhipai.InvalidValueError, match="BJ"):
        s.apply("play " + "BJ " * 8)  # more copies than 2 decks hold
    with pytest.raises(zhipai.IllegalPlayError, match="BJ"):
        s.apply("play BJ BJ BJ")  # 3 BJ: two decks hold 2
    hands, kitty = _fixed_deal_h12()
    bad = hands[0].split()
    bad[-1] = "KC"  # a third ♣K replaces a card
    with pytest.raises(zhipai.InvalidValueError, match="extra cards: KC"):
        game.new_deal(hands=[" ".join(bad)] + hands[1:], kitty=kitty)
    gone = hands[0].split()[-1]
    swapped = hands[0].split()[:-1] + ["BJ"]
    with pytest.raises(zhipai.InvalidValueError) as e:
        game.new_deal(hands=[" ".join(swapped)] + hands[1:], kitty=kitty)
    msg = str(e.value)
    assert len(msg) < 250, msg
    if gone != "BJ":
        assert "extra cards: BJ" in msg and f"missing cards: {gone}" in msg


def test_seat_messages_say_0_to_3(game):
    s = game.new_deal(seed=1)
    with pytest.raises(zhipai.InvalidValueError, match="0 to 3"):
        s.observation(4)
    hands, kitty = _fixed_deal_h12()
    with pytest.raises(zhipai.InvalidValueError, match="0 to 3"):
        game.new_deal(hands=hands, kitty=kitty, dealer=4)
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
    lambda R: zhipai.Game(R).new_deal(seed=-1),
    lambda R: zhipai.Game(R).new_deal(seed=1.5),
    lambda R: zhipai.Game(R).new_deal(hands="AS", kitty=""),
    lambda R: zhipai.Game(R).new_deal(seed=1).observation(None),
    lambda R: zhipai.Game(R).new_deal(seed=1).apply(None),
    lambda R: zhipai.Game(R).new_deal(seed=1).apply("bid sixty"),
    lambda R: zhipai.Game(R).new_deal(seed=1).apply_action(-3),
    lambda R: zhipai.Game(R).new_deal(seed=1).apply_builtin(3),
    lambda R: zhipai.Game(R).new_deal(seed=1).legal_moves(-1),
    lambda R: zhipai.Game(R).new_deal(seed=1).apply(5),
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
    s = game.new_deal(seed=np.uint64(3))
    assert s.observation(np.int8(2))["seat"] == 2
    hands, kitty = _fixed_deal_h12()
    assert game.new_deal(hands=hands, kitty=kitty, dealer=np.int8(2), seed=np.uint64(3)).current_player() == 2
    assert hongwu.settle(R, np.int64(100), np.int64(60))["dealer"] == 6
