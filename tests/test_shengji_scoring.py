"""Shengji declaring and scoring from Python: rule cases and API error paths (shengji.md §2, §8)."""

from __future__ import annotations

import json
import pathlib

import pytest
import zhipai
from zhipai import shengji
from zhipai.testing import check_case, check_cases, read_cases

HERE = pathlib.Path(__file__).parent
EXTRA = HERE / "cases" / "shengji_scoring_extra.jsonl"
SHARED = HERE.parent.parent.parent / "shared" / "cases" / "shengji.jsonl"
SHARED = SHARED if SHARED.exists() else pathlib.Path("/work/shared/cases/shengji.jsonl")
OURS = {"declare", "level_change", "level_advance"}


def test_extra_cases_all_pass():
    report = check_cases(EXTRA)
    assert report.failed == 0 and report.skipped == 0, [str(f) for f in report.failures]
    assert report.passed >= 40


@pytest.mark.skipif(not SHARED.exists(), reason="shared cases not present")
def test_shared_cases_of_our_checks_all_pass():
    results = [(c["id"], *check_case(c)) for c in read_cases(SHARED) if c.get("check") in OURS]
    bad = [(cid, status, got) for cid, status, got in results if status != "passed"]
    assert not bad
    assert len(results) >= 100


def test_a_wrong_expectation_fails():
    case = {"game": "tractor", "check": "level_change", "attacker_points": 80,
            "expect": {"side": "dealer", "levels": 1}}
    assert check_case(case)[0] == "failed"


def test_declare_reports_the_reason():
    r = zhipai.rules("tractor")
    out = shengji.declare(r, "2", [(0, "2H"), (2, "2S 2S"), (1, "2D 2D")])
    assert out["illegal_at"] == 2
    assert "2D 2D" in out["reason"] and "2S 2S" in out["reason"]
    assert out["final"] == [2, "2S 2S"] and out["trump"] == "S" and out["first"] == 0


def test_declare_nobody_and_deal_time_trump():
    assert shengji.declare(zhipai.rules("tractor"), "2", [])["trump"] == "NT"
    out = shengji.declare(zhipai.rules("tractor", no_declaration="random_suit"), "2", [])
    assert out["final"] is None and out["trump"] is None


@pytest.mark.parametrize("bids, exc, text", [
    ([(4, "2H")], zhipai.InvalidValueError, "player 4"),
    ([(-1, "2H")], zhipai.InvalidValueError, "player -1"),
    ([(0, "2X")], zhipai.InvalidCardError, "2X"),
])
def test_declare_bad_input(bids, exc, text):
    with pytest.raises(exc, match=text):
        shengji.declare(zhipai.rules("tractor"), "2", bids)


def test_declare_bad_level():
    with pytest.raises(zhipai.InvalidValueError, match="level 1"):
        shengji.declare(zhipai.rules("tractor"), "1", [])


def test_other_games_rules_are_refused():
    with pytest.raises(zhipai.ZhipaiError):
        shengji.level_change(zhipai.rules("gongzhu"), 80)


def test_level_change_and_jj():
    assert shengji.level_change(zhipai.rules("tractor"), 165) == {
        "side": "attackers", "levels": 2, "take_over": True}
    jj = zhipai.rules("tractor_jj", base=3)
    assert shengji.level_change(jj, 115)["jj_score"] == 27
    assert shengji.jj_score(jj, 120) == {"score": 40, "points": 120}
    with pytest.raises(zhipai.InvalidValueError, match="attacker_points"):
        shengji.level_change(jj, 10**9)


def test_level_advance_bad_levels():
    r = zhipai.rules("tractor")
    with pytest.raises(zhipai.InvalidValueError, match="NT"):
        shengji.level_advance(r, "NT", "2", 0)
    with pytest.raises(zhipai.InvalidValueError, match="attacker_level"):
        shengji.level_advance(r, "5", "Z", 0)


@pytest.mark.parametrize("options, text", [
    ({"mandatory_levels": ["5", "X"]}, "X"),
    ({"level_cap": 0}, "level_cap"),
    ({"base": 0}, "base"),
    ({"after_A": "forever"}, "forever"),
    ({"no_declaration": "pass"}, "pass"),
    ({"chaodi": "maybe"}, "chaodi"),
    ({"decks": 3, "jj_scoring": True}, "jj_scoring"),
])
def test_bad_options(options, text):
    with pytest.raises(zhipai.InvalidOptionError, match=text):
        zhipai.rules("tractor", **options)


def test_options_are_listed():
    opts = dict(zhipai.rules("tractor", mandatory_levels=["5", "10", "K"]).options())
    assert opts["mandatory_levels"] == "{5,10,K,A}"
    assert opts["two_deck_table"] == "standard_step40"
    assert dict(zhipai.rules("eighty_points").options())["two_deck_table"] == "lianzhong"
    assert dict(zhipai.rules("tractor_jj").options())["jj_scoring"] == "true"


def test_extra_file_is_valid_json_lines():
    for line in EXTRA.read_text(encoding="utf-8").splitlines():
        if line.strip() and not line.startswith("#"):
            assert "expect" in json.loads(line)


def play_out(d):
    while not d.is_terminal():
        d.apply_builtin("random")
    return d.result()


def test_deal_random_play_out_conserves_points():
    for decks in (1, 2, 3):
        r = zhipai.rules("tractor", decks=decks)
        for seed in range(5):
            d = zhipai.Game(r).new_deal(level="2", seed=seed)
            res = play_out(d)
            o = d.observation(0)
            dealer, won = o["dealer"], o["points_won"]
            assert res["dealer"] == dealer
            dealer_team_points = won[dealer] + won[(dealer + 2) % 4]
            assert res["trick_points"] == won[(dealer + 1) % 4] + won[(dealer + 3) % 4]
            assert res["trick_points"] + dealer_team_points + res["kitty_points"] == 100 * decks
            assert res["attacker_points"] == (res["trick_points"] + res["penalty"]
                                              + res["kitty_points"] * res["kitty_multiplier"])


def test_deal_card_by_card_and_clone():
    d = zhipai.Game("tractor").new_deal(level="2", seed=3)
    steps = 0
    while not d.is_terminal():
        acts = d.legal_actions()
        assert acts, d.phase
        d.apply_action(acts[-1] if d.phase != "play" else acts[0])
        steps += 1
        if steps == 50:
            copy = d.clone()
            while not copy.is_terminal():  # the copy may be half-way through a move
                copy.apply_action(copy.legal_actions()[-1])
            assert copy.is_terminal() and not d.is_terminal()
    assert sum(d.returns()) == 0
    with pytest.raises(zhipai.IllegalPlayError, match="action 0"):
        d.apply_action(0)


def test_deal_structured_errors():
    d = zhipai.Game("tractor").new_deal(dealer=0, seed=1)
    while d.phase == "dealing":
        d.apply("pass")
    o = d.observation(0)
    assert o["trump"] == "NT" and o["dealer"] == 0  # nobody declared: no-trump (§2)
    with pytest.raises(zhipai.IllegalPlayError, match="exactly 8"):
        d.apply("bury 2H")
    with pytest.raises(zhipai.InvalidValueError, match="invalid move 'jump'"):
        d.apply("jump")
    with pytest.raises(zhipai.InvalidValueError, match="dealer"):
        zhipai.Game("tractor").new_deal(dealer=7)
    with pytest.raises(zhipai.InvalidValueError, match="dealer"):
        zhipai.Game("tractor").new_deal(dealer=4)
