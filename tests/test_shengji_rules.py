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


def test_chaodi_phase_in_the_deal():
    r = zhipai.rules("tractor", chaodi=True)
    seen = 0
    for seed in range(20):
        d = shengji.Deal(r, seed=seed)
        while not d.is_terminal():
            if d.phase == "chaodi":
                seen += 1
                bids = d.legal_bids()
                assert bids, "a seat is offered only with a legal overcall"
                acts = d.legal_actions()
                assert shengji.STOP in acts  # pass
                assert d.kitty_owner is not None
            if d.phase == "dealing":
                # Declare only singles while dealing, so that pairs are left to overcall.
                singles = [b for b in d.legal_bids() if len(b.split()) == 1]
                kind, cards = ("declare", singles[0]) if singles else ("pass", "")
            else:
                kind, cards = d.random_move()
            d.apply(kind, cards)
        res = d.result()
        assert res["chaodi"] <= res["declarations"]
        assert res["trick_points"] + res["dealer_team_points"] + res["kitty_points"] == 200
    assert seen > 0
    # The record replays through the new phase.
    again = shengji.Deal.from_json(d.to_json())
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
        res = shengji.Deal(r, seed=seed).play_out()
        assert res["attacker_points"] == (res["trick_points"] + res["penalty"]
                                          + res["kitty_points"] * res["kitty_multiplier"])


def test_joker_only_level_deal():
    r = zhipai.rules("tractor", after_A="no_trump_level")
    d = shengji.Deal(r, level="NT", dealer=2, seed=4)
    assert d.phase == "burying" and d.trump == "NT" and d.level == "NT" and d.dealer == 2
    res = d.play_out()
    assert res["declarations"] == 0
    with pytest.raises(zhipai.InvalidValueError, match="no_trump_level"):
        shengji.Deal(zhipai.rules("tractor"), level="NT")


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
            assert d.dealer == m.seating.index(dealer)  # the dealer player sits somewhere new
            assert d.level == before[dealer]  # the hand is played at the dealer's own level
        d.play_out()
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
