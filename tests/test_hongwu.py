"""Hong Wu 红五: auction, settlement, tables, card order (shared/rules/hongwu.md, seed 002)."""

import os
from pathlib import Path

import pytest
import zhipai
from hypothesis import given, settings
from hypothesis import strategies as st
from zhipai import hongwu
from zhipai.checks import hongwu as hongwu_checks
from zhipai.testing import check_cases, read_cases

HERE = Path(__file__).parent
EXTRA = HERE / "cases" / "hongwu_extra.jsonl"
SHARED = Path(os.environ.get("ZHIPAI_SHARED", "/work/shared")) / "cases" / "hongwu.jsonl"


@pytest.fixture(scope="module")
def rules():
    return zhipai.rules("hong_wu")


# --- rule cases ---------------------------------------------------------------------------


def test_extra_cases_all_pass():
    report = check_cases(EXTRA)
    assert report.failed == 0, [str(f) for f in report.failures]
    assert report.skipped == 0, report.skipped_ids
    assert report.passed == sum(1 for _ in read_cases(EXTRA))


@pytest.mark.skipif(not SHARED.exists(), reason="shared cases not present")
def test_shared_hong_wu_cases_all_pass():
    # hongwu_bid / hongwu_settle go through zhipai.checks.hongwu, the trick checks through the
    # Shengji handlers with the Hong Wu trick rules (HongWuRules::trick_rules).
    report = check_cases(SHARED)
    assert (report.failed, report.skipped) == (0, 0), ([str(x) for x in report.failures],
                                                      report.skipped_ids)
    assert report.passed >= 94


def test_every_hong_wu_check_is_handled():
    checks = {c["check"] for c in read_cases(EXTRA)}
    assert {"hongwu_bid", "hongwu_settle", "format", "lead", "throw", "follow", "winner",
            "kitty_multiplier"} <= checks
    assert set(hongwu_checks.CHECKS) == {"hongwu_bid", "hongwu_settle"}


# --- auction (hongwu.md §B.2) -----------------------------------------------------------------


def test_example_h1(rules):
    bids = [(0, 60), (1, 75), (2, 95), (3, "pass"), (0, 100), (1, "pass"), (2, "pass")]
    assert hongwu.run_auction(rules, 0, bids).result == (0, 100)


def test_illegal_raise_names_the_rule_and_index(rules):
    with pytest.raises(zhipai.IllegalPlayError, match=r"action 2: .*bid 100 by seat 2.*80…95"):
        hongwu.run_auction(rules, 0, [(0, 60), (1, 75), (2, 100)])


def test_legal_bids_follow_the_ranges(rules):
    a = hongwu.HongWuAuction(rules, 1)
    assert a.to_act == 1 and a.high is None and not a.is_over()
    assert a.legal_bids() == ["pass", 60, 65, 70, 75, 80]
    a.bid(1, 70)
    assert a.to_act == 2 and a.high == (1, 70)
    assert a.legal_bids() == ["pass", 75, 80, 85, 90]
    b = a.clone()
    b.bid(2, "pass")
    assert not a.has_passed(2) and b.has_passed(2)


def test_first_bid_range_options():
    for value, top in [("60-80", 80), ("60-75", 75), ("60–200", 200)]:
        a = hongwu.HongWuAuction(zhipai.rules("hong_wu", first_bid_range=value), 0)
        assert a.legal_bids()[-1] == top


def test_pass_is_final(rules):
    a = hongwu.run_auction(rules, 0, [(0, 60), (1, "pass"), (2, 65), (3, "pass"), (0, 70)])
    with pytest.raises(zhipai.IllegalPlayError, match="a pass is final"):
        a.bid(1, 75)


def test_over_auction_refuses_bids(rules):
    a = hongwu.run_auction(rules, 0, [(0, 80), (1, 100), (2, 120), (3, 140), (0, 160), (1, 180), (2, 200)])
    assert a.result == (2, 200) and a.to_act is None and a.legal_bids() == []
    with pytest.raises(zhipai.IllegalPlayError, match="auction is over"):
        a.check(3, "pass")


@pytest.mark.parametrize("bad", ["double", 1.5, None, -5])
def test_bad_bid_values(rules, bad):
    a = hongwu.HongWuAuction(rules, 0)
    with pytest.raises(zhipai.InvalidValueError, match="bid"):
        a.bid(0, bad)


def test_bad_seats(rules):
    with pytest.raises(zhipai.InvalidValueError, match="first bidder 4"):
        hongwu.HongWuAuction(rules, 4)
    with pytest.raises(zhipai.InvalidValueError, match="seat 7"):
        hongwu.HongWuAuction(rules, 0).bid(7, 60)


def test_other_games_rules_are_refused():
    with pytest.raises(zhipai.InvalidValueError, match="hong_wu"):
        hongwu.HongWuAuction(zhipai.rules("tractor"), 0)
    with pytest.raises(zhipai.InvalidValueError, match="hong_wu"):
        hongwu.settle(zhipai.rules("gongzhu"), 100, 60)


@settings(max_examples=200, deadline=None)
@given(first=st.integers(0, 3), picks=st.lists(st.integers(0, 99), min_size=40, max_size=40))
def test_random_legal_auctions_end_with_a_valid_contract(first, picks):
    a = hongwu.HongWuAuction(zhipai.rules("hong_wu"), first)
    steps = 0
    for p in picks:
        if a.is_over():
            break
        legal = a.legal_bids()
        a.bid(a.to_act, legal[p % len(legal)])
        steps += 1
    dealer, bid = a.result
    assert 0 <= dealer < 4 and 60 <= bid <= 200 and bid % 5 == 0
    assert steps <= 29 + 4  # at most 29 rising bids and 4 passes
    if bid < 200:
        assert sum(a.has_passed(s) for s in range(4)) >= 3


# --- settlement (hongwu.md §B.10–§B.12) -----------------------------------------------------


@pytest.mark.parametrize(
    "score, units",
    [(-75, (-9, 3)), (-70, (-9, 3)), (-65, (-6, 2)), (-30, (-6, 2)), (-25, (-3, 1)), (-5, (-3, 1)),
     (0, (3, -1)), (25, (3, -1)), (30, (6, -2)), (65, (6, -2)), (70, (9, -3)), (200, (9, -3))],
)
def test_band_edges(score, units):
    assert hongwu.result_units(score) == units


def test_settle_example_h3(rules):
    r = hongwu.settle(rules, bid=100, attacker_points=60)
    assert r == {"attacker_points": 60, "dealer_points": 140, "red5_penalty": 0, "score": 40,
                 "dealer": 6, "each_other": -2}


def test_settle_deal_example_h10():
    parts = dict(xianjia_tricks=25, dealer_tricks=150, kitty=25, last_multiplier=4)
    rules = zhipai.rules("hong_wu")
    r = hongwu.settle_deal(rules, 100, xianjia_won_last=True, **parts)
    assert (r["attacker_points"], r["score"], r["dealer"]) == (125, -25, -3)
    r = hongwu.settle_deal(rules, 100, xianjia_won_last=False, **parts)
    assert (r["attacker_points"], r["score"], r["dealer"]) == (25, 75, 9)
    own = zhipai.rules("hong_wu", dealer_points="own_tricks")
    assert hongwu.settle_deal(own, 100, xianjia_won_last=True, **parts)["score"] == 50


def test_red5_penalty_option():
    rules = zhipai.rules("hong_wu", red5_penalty_per_card=20)
    r = hongwu.settle_deal(rules, 100, xianjia_tricks=75, dealer_tricks=125, kitty=0,
                           xianjia_won_last=False, last_multiplier=2, red5_captured=1)
    assert (r["red5_penalty"], r["score"], r["dealer"]) == (20, 5, 3)


@pytest.mark.parametrize(
    "args, match",
    [((55, 60), "bid 55"), ((103, 60), "bid 103"), ((100, -5), "attacker_points -5"),
     ((100, 62), "attacker_points 62"), ((100, 60, -20), "red5_penalty -20")],
)
def test_settle_errors(rules, args, match):
    with pytest.raises(zhipai.InvalidValueError, match=match):
        hongwu.settle(rules, *args)


def test_settle_needs_200_minus_x():
    with pytest.raises(zhipai.InvalidOptionError, match="dealer_points"):
        hongwu.settle(zhipai.rules("hong_wu", dealer_points="own_tricks"), 100, 60)


def test_settle_deal_errors(rules):
    with pytest.raises(zhipai.InvalidValueError, match="add up to 200"):
        hongwu.settle_deal(rules, 100, xianjia_tricks=100, dealer_tricks=50, kitty=0,
                           xianjia_won_last=False, last_multiplier=2)
    with pytest.raises(zhipai.InvalidValueError, match="multiplier"):
        hongwu.settle_deal(rules, 100, xianjia_tricks=100, dealer_tricks=100, kitty=0,
                           xianjia_won_last=False, last_multiplier=3)


@given(bid=st.integers(12, 40).map(lambda n: 5 * n), x=st.integers(0, 150).map(lambda n: 5 * n))
def test_settlement_is_zero_sum(bid, x):
    r = hongwu.settle(zhipai.rules("hong_wu"), bid, x)
    assert r["score"] == 200 - x - bid
    assert r["dealer"] + 3 * r["each_other"] == 0
    assert (r["dealer"] > 0) == (r["score"] >= 0)


def test_level_table_of_the_seed():
    rows = hongwu.levels()
    assert len(rows) == 20
    assert rows[0] == {"level": 1, "name": "钟灵", "threshold": 15}
    assert rows[18] == {"level": 19, "name": "扫地僧", "threshold": 7864305}
    assert rows[19] == {"level": 20, "name": "王语嫣", "threshold": 15728640}
    assert [r["threshold"] for r in rows[:19]] == [15 * (2**n - 1) for n in range(1, 20)]
    alt = hongwu.levels(zhipai.rules("hong_wu", level20_threshold=15728625))
    assert alt[19]["threshold"] == 15728625


# --- options and card order (hongwu.md §B.4, §B.6) --------------------------------------------


def test_every_digest_option_is_listed():
    names = [n for n, _ in zhipai.rules("hong_wu").options()]
    assert names == ["direction", "first_bid_range", "other_threes", "tractor_above_A",
                     "throw_check", "failed_throw_play", "throw_compare", "follow_shape_obligation",
                     "kitty", "dealer_points", "red5_penalty_per_card", "red5_penalty_scope",
                     "base_score_k", "level20_threshold"]


@pytest.mark.parametrize(
    "name, value",
    [("kitty", "sometimes"), ("level20_threshold", 15), ("red5_penalty_per_card", -5),
     ("decks", 3), ("tractor_above_a", "full_chain")],
)
def test_bad_options(name, value):
    with pytest.raises(zhipai.InvalidOptionError, match=name):
        zhipai.rules("hong_wu", **{name: value})


def test_order_spades(rules):
    o = hongwu.HongWuOrder(rules, "S")
    chain = ["5H", "BJ", "SJ", "3S", "3C", "2S", "2D", "AS", "KS", "4S"]
    for hi, lo in zip(chain, chain[1:]):
        assert o.is_trump(hi) and o.strength(hi) > o.strength(lo), (hi, lo)
    assert o.ties("2H", "2C") and not o.adjacent("2H", "2C")
    assert o.effective_suit("3H") == "H" and o.effective_suit("3C") == "trump"
    assert o.adjacent("6H", "4H") and o.adjacent("4H", "3H") and not o.adjacent("AS", "QS")
    assert [str(c) for c in o.tiers("H")[:3]] == ["[Card('3H')]", "[Card('4H')]", "[Card('6H')]"]
    assert [str(c) for t in o.tiers("trump")[-3:] for c in t] == ["SJ", "BJ", "5H"]


def test_order_options():
    o = hongwu.HongWuOrder(zhipai.rules("hong_wu", other_threes="trump_below_fu_canmou"), "S")
    assert o.is_trump("3D") and o.ties("3D", "3H") and o.adjacent("3C", "3H")
    o = hongwu.HongWuOrder(zhipai.rules("hong_wu", tractor_above_A="jokers_only"), "S")
    assert o.adjacent("BJ", "SJ") and not o.adjacent("5H", "BJ") and not o.adjacent("2D", "AS")


def test_order_errors(rules):
    with pytest.raises(zhipai.InvalidValueError, match="no no-trump"):
        hongwu.HongWuOrder(rules, "NT")
    with pytest.raises(zhipai.InvalidValueError, match="suit X"):
        hongwu.HongWuOrder(rules, "X")
    with pytest.raises(zhipai.InvalidCardError, match="5X"):
        hongwu.HongWuOrder(rules, "S").strength("5X")


# ---- new-user report (hongwu2): value domains ----------------------------------------------


@pytest.mark.parametrize("value", [3, 7, -5, 205])
def test_red5_penalty_option_must_be_a_multiple_of_5(value):
    with pytest.raises(zhipai.InvalidOptionError, match=f"red5_penalty_per_card={value}.*multiple of 5"):
        zhipai.rules("hong_wu", red5_penalty_per_card=value)


def test_red5_penalty_keeps_simulated_scores_multiples_of_5():
    rules = zhipai.rules("hong_wu", red5_penalty_per_card=15, red5_penalty_scope="any_red5_won_by_xianjia")
    game = zhipai.Game(rules)
    for seed in range(15):
        s = game.new_deal(seed=seed)
        while not s.is_terminal():
            s.apply_builtin("random")
        r = s.result()
        assert r["score"] % 5 == 0 and r["red5_penalty"] in (0, 15, 30)


@pytest.mark.parametrize("parts, what", [
    (dict(xianjia_tricks=0, dealer_tricks=0, kitty=200), "kitty 200"),
    (dict(xianjia_tricks=3, dealer_tricks=172, kitty=25), "xianjia_tricks 3"),
    (dict(xianjia_tricks=25, dealer_tricks=150, kitty=25, last_multiplier=1), "last_multiplier 1"),
    (dict(xianjia_tricks=25, dealer_tricks=150, kitty=25, last_multiplier=16), "last_multiplier 16"),
    (dict(xianjia_tricks=25, dealer_tricks=150, kitty=25, xianjia_won_last=1), "xianjia_won_last 1"),
])
def test_settle_deal_refuses_points_no_deal_gives(parts, what):
    args = dict(xianjia_won_last=True, last_multiplier=8) | parts
    with pytest.raises(zhipai.InvalidValueError, match=what):
        hongwu.settle_deal(zhipai.rules("hong_wu"), 60, **args)


def test_settle_deal_largest_x_is_760():
    r = hongwu.settle_deal(zhipai.rules("hong_wu"), 60, xianjia_tricks=120, dealer_tricks=0,
                           kitty=80, xianjia_won_last=True, last_multiplier=8)
    assert r["attacker_points"] == 760


@pytest.mark.parametrize("score", [3, -1, 71])
def test_result_units_refuses_scores_that_are_not_multiples_of_5(score):
    with pytest.raises(zhipai.InvalidValueError, match=f"score {score}"):
        hongwu.result_units(score)
