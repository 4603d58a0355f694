"""Shengji §10 flow options from Python: 炒底, throw penalties, the joker-only level, presets."""

from __future__ import annotations

import pathlib

import pytest
import zhipai
from zhipai import shengji
from zhipai.testing import check_cases

EXTRA = pathlib.Path(__file__).parent / "cases" / "shengji_extra.jsonl"


def test_extra_cases_all_pass():
    report = check_cases(EXTRA)
    assert report.failed == 0 and report.skipped == 0, [str(f) for f in report.failures]
    assert report.passed >= 30


def test_options_visible_in_presets():
    opts = {name: value for name, value in zhipai.rules("tractor", chaodi=True).options()}
    assert opts["chaodi"] == "true"
    tractor = next(p for p in zhipai.presets() if p["name"] == "tractor")
    chaodi = next(o for o in tractor["options"] if o["name"] == "chaodi")
    assert chaodi["choices"] == ["false", "true"] and "not implemented" not in chaodi["doc"]
    assert dict(zhipai.rules("tractor", throw_fail_penalty="structured").options())[
        "throw_fail_penalty"] == "structured"
    assert dict(zhipai.rules("tractor_jj").options())["random_partners_each_hand"] == "true"


STOP = 54  # the action that ends a bid (a pass when empty) or a lead


def play_out(d):
    while not d.is_terminal():
        d.apply_builtin("random")
    return d.result()


def test_chaodi_phase_in_the_deal():
    r = zhipai.rules("tractor", chaodi=True)
    game = zhipai.Game(r)
    seen = 0
    for seed in range(20):
        d = game.new_deal(level="2", seed=seed)
        while not d.is_terminal():
            moves = d.legal_moves()
            if d.phase == "chaodi":
                seen += 1
                bids = [m for m in moves if m.startswith("declare ")]
                assert bids, "a seat is offered only with a legal overcall"
                assert moves == ["pass"] + bids
                assert STOP in d.legal_actions()  # pass
                # The kitty lies buried by the dealer or an earlier overcaller (its own view).
                assert sum(d.observation(q)["kitty"] is not None for q in range(4)) == 1
            if d.phase == "dealing":
                # Declare only singles while dealing, so that pairs are left to overcall.
                singles = [m for m in moves if m.startswith("declare ") and len(m.split()) == 2]
                d.apply(singles[0] if singles else "pass")
            else:
                d.apply_builtin("random")
        res = d.result()
        assert res["chaodi"] <= res["declarations"]
        o = d.observation(0)
        dealer = o["dealer"]
        # Card points: the attackers' tricks, the dealer team's tricks and the kitty make 200.
        assert res["trick_points"] == o["points_won"][(dealer + 1) % 4] + o["points_won"][(dealer + 3) % 4]
        dealer_team_points = o["points_won"][dealer] + o["points_won"][(dealer + 2) % 4]
        assert res["trick_points"] + dealer_team_points + res["kitty_points"] == 200
    assert seen > 0
    # The record replays through the new phase.
    again = zhipai.Game.from_json(d.to_json())
    assert again.result() == d.result()


def test_chaodi_check_function():
    out = shengji.chaodi(zhipai.rules("tractor", chaodi=True), "2", (0, "2H"), 0,
                         [(1, "2S 2S"), (2, "pass"), (3, "pass"), (0, "pass")])
    assert out["final"] == [1, "2S 2S"] and out["trump"] == "S" and out["kitty"] == 1 and out["done"]
    bad = shengji.chaodi(zhipai.rules("tractor", chaodi=True), "2", (0, "2H"), 0, [(2, "2S 2S")])
    assert bad["illegal_at"] == 0 and "seat 1" in bad["reason"]
    with pytest.raises(zhipai.InvalidValueError, match="player"):
        shengji.chaodi(zhipai.rules("tractor"), "2", (0, "2H"), 0, [(5, "pass")])
    with pytest.raises(zhipai.IllegalPlayError):
        shengji.chaodi(zhipai.rules("tractor"), "2", (0, "3H"), 0, [])


def test_throw_penalty_method():
    m = shengji.Mechanics(zhipai.rules("tractor", throw_fail_penalty="structured"), "2", "S")
    assert m.throw_penalty("AH 3H 3H 4H 4H", ["5H 5H 6H 6H", "", ""]) == 160
    assert m.throw_penalty("AH KH KH", ["QH QH", "", ""]) == 0
    with pytest.raises(zhipai.IllegalPlayError):
        m.throw_penalty("AH 3S", ["", "", ""])


def test_structured_penalty_deal_plays_out():
    r = zhipai.rules("tractor", throw_fail_penalty="structured")
    for seed in range(10):
        res = play_out(zhipai.Game(r).new_deal(level="2", seed=seed))
        assert res["attacker_points"] == (res["trick_points"] + res["penalty"]
                                          + res["kitty_points"] * res["kitty_multiplier"])


def test_joker_only_level_deal():
    r = zhipai.rules("tractor", after_A="no_trump_level")
    d = zhipai.Game(r).new_deal(level="NT", dealer=2, seed=4)
    o = d.observation(1)
    assert d.phase == "burying" and o["trump"] == "NT" and o["level"] == "NT" and o["dealer"] == 2
    res = play_out(d)
    assert res["declarations"] == 0 and res["trump"] == 4 and res["level"] == 13  # 13 = joker-only
    with pytest.raises(zhipai.InvalidValueError, match="no_trump_level"):
        zhipai.Game("tractor").new_deal(level="NT")


@pytest.mark.parametrize("policy", ["random", "greedy"])
def test_simulate_with_flow_options(policy):
    r = zhipai.rules("tractor", chaodi=True, throw_fail_penalty="structured", kitty_bury_restrictions="no_points")
    res = zhipai.simulate(r, deals=300, policy=policy, seed=2, threads=1)
    again = zhipai.simulate(r, deals=300, policy=policy, seed=2, threads=1)
    assert list(res["attacker_points"]) == list(again["attacker_points"])
    # Points in tricks and kitty never exceed the pack; failed throws happen and may be charged.
    assert all(0 <= t <= 200 for t in res["trick_points"])
    assert all(0 <= k <= 200 for k in res["kitty_points"])
    assert all(d >= 0 for d in res["declarations"])


def test_match_with_random_partners():
    r = zhipai.rules("tractor_jj")
    m = shengji.Match(r, seed=5)
    seatings, levels = set(), []
    for _ in range(15):
        dealer = m.dealer
        before = m.levels
        d = m.next_deal()
        seatings.add(tuple(m.seating))
        if dealer is not None:
            o = d.observation(0)
            assert o["dealer"] == m.seating.index(dealer)  # the dealer player sits somewhere new
            assert o["level"] == before[dealer]  # the hand is played at the dealer's own level
        play_out(d)
        m.record(d)
        levels.append(m.levels)
    assert len(seatings) > 3
    assert sum(m.jj_totals) == 0 and any(m.jj_totals)
    again = shengji.Match(r, seed=5)
    for want in levels:
        again.play_hand()
        assert again.levels == want, "reproducible from the seed"


def test_match_reaches_the_joker_only_level():
    r = zhipai.rules("tractor", decks=1, after_A="no_trump_level", mandatory_levels=["A"])
    m = shengji.Match(r, seed=1)
    seen_nt = False
    while m.winners is None and m.hands < 3000:
        m.play_hand("greedy" if m.hands % 2 else "random")
        seen_nt |= "NT" in m.levels
    assert m.winners is not None and seen_nt
    assert all(m.levels[p] == "NT" for p in m.winners)
    with pytest.raises(zhipai.IllegalPlayError, match="won the match"):
        m.next_deal()
    with pytest.raises(zhipai.InvalidValueError, match="policy"):
        shengji.Match(r).play_hand("clever")


def test_step_wise_state_offers_chaodi_moves():
    import random

    game = zhipai.Game(zhipai.rules("tractor", chaodi=True))
    pick = random.Random(1)
    seen = 0
    for index in range(40):
        state = game.new_deal(seed=3, index=index)
        while not state.is_terminal():
            seat = state.current_player()
            obs = state.observation(seat)
            if obs["phase"] == "chaodi":
                seen += 1
                moves = state.legal_moves()
                assert moves[0] == "pass" and all(m.startswith("declare ") for m in moves[1:])
                state.apply(pick.choice(moves))
            else:
                state.apply_builtin("random")
        assert len(state.result_row()) == len(game.columns)
    assert seen > 0
    # A callable policy plays through the phase too.
    res = zhipai.simulate(zhipai.rules("tractor", chaodi=True), 10, policy=lambda obs, moves: moves[0], seed=1)
    assert len(res["chaodi"]) == 10
