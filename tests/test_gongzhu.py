"""Gongzhu: rule cases (shared + own), the Python API and its error paths."""

from __future__ import annotations

import os
import random

import pytest
import zhipai
import zhipai.gongzhu as gz
from zhipai.testing import check_cases

HERE = os.path.dirname(__file__)
SHARED = os.environ.get("ZHIPAI_SHARED_CASES_GONGZHU", "/work/shared/cases/gongzhu.jsonl")
EXTRA = os.path.join(HERE, "cases", "gongzhu_extra.jsonl")


def _assert_clean(path: str) -> None:
    report = check_cases(path)
    assert report.failed == 0, "\n".join(str(f) for f in report.failures)
    assert report.skipped == 0, report.skipped_ids
    assert report.passed > 0


def test_own_cases() -> None:
    _assert_clean(EXTRA)


@pytest.mark.skipif(not os.path.exists(SHARED), reason="shared cases not on this machine")
def test_shared_cases() -> None:
    _assert_clean(SHARED)


def test_seed_examples() -> None:
    # Seed 000 normalisation example (§A.11, §A.14 E11) with a deal producing its raw scores.
    s = gz.score(["QS 6H 5H", "10C AH KH QH JH", "4H 3H 2H", "JD 10H 9H 8H 7H"], "JD")
    assert s.raw == [-120, -280, 0, 160]
    assert s.final == [-960, -3516, 960, 3516]
    team = gz.score(
        ["QS AH KH", "10C", "5H 4H 3H 2H", "JD QH JH 10H 9H 8H 7H 6H"], partnership=True
    )
    assert team.final == [-1500, 1500, -1500, 1500]
    two = gz.score(
        ["QS QS 10C 10C", "JD JD AH AH", "KH KH QH QH JH JH", "2H 3H 4H 5H 6H 7H 8H 9H 10H " * 2],
        "QS QS 10C 10C",
        decks=2,
    )
    assert two.raw[0] == -12800


def test_legal_plays_and_reasons() -> None:
    assert sorted(gz.legal_plays("QS 3S 8H", "5S", exposed="QS")) == ["3S"]
    ok, reason = gz.is_legal("QS 3S 8H", "QS", "5S", exposed="QS")
    assert not ok and "§A.7" in reason
    ok, reason = gz.is_legal("QS 3S 4H", "4H", "5S")
    assert not ok and "follow suit" in reason
    ok, reason = gz.is_legal("2C 5H", "5H", first_trick_of_match=True)
    assert not ok and "2C" in reason
    assert gz.is_legal("KS KS 3S", "KS KS", "8S 8S", decks=2) == (True, None)
    ok, reason = gz.is_legal("KS KS 3S 4H", "KS 3S", "8S 8S", decks=2)
    assert not ok and "pair" in reason
    assert gz.trick_winner(["4H 4H", "KH KH", "QH 8H", "JH KD"], decks=2) == 2


def test_error_paths() -> None:
    with pytest.raises(zhipai.InvalidCardError, match="XX"):
        gz.score(["XX", "", "", ""])
    with pytest.raises(zhipai.InvalidValueError, match="QS"):
        gz.score(["QS", "QS", "", ""])
    with pytest.raises(zhipai.InvalidValueError, match="expected 4"):
        gz.score(["QS", "", ""])
    with pytest.raises(zhipai.InvalidValueError, match="2C"):
        gz.score(["QS", "", "", ""], "2C")
    with pytest.raises(zhipai.InvalidValueError, match="exposure_mode=none"):
        gz.score(["QS", "", "", ""], "QS", exposure_mode="none")
    with pytest.raises(zhipai.InvalidOptionError, match="banana"):
        gz.score(["QS", "", "", ""], normalize="banana")
    with pytest.raises(zhipai.InvalidOptionError, match="decks"):
        zhipai.Game(zhipai.rules("gongzhu", decks=3))
    with pytest.raises(zhipai.InvalidValueError, match="lead"):
        gz.legal_plays("5S 6S", "5S 6S", decks=2)
    with pytest.raises(zhipai.InvalidValueError, match="plays"):
        gz.trick_winner([])
    with pytest.raises(zhipai.InvalidValueError, match="rules"):
        gz.trick_winner(["5S"], rules=zhipai.rules("tractor"))
    game = zhipai.Game("gongzhu")
    with pytest.raises(zhipai.InvalidValueError, match="hand"):
        game.new_deal(hands=["2S", "3S", "4S", "5S"])
    with pytest.raises(zhipai.InvalidValueError, match="seat"):
        game.new_deal().observation(4)
    with pytest.raises(zhipai.InvalidValueError, match="action"):
        game.new_deal().apply_action(10**6)
    g = game.new_deal(seed=5)
    with pytest.raises(zhipai.IllegalPlayError):
        g.apply("QS QS")  # one deck: no pairs, and not during the exposure
    hands = [g.observation(p)["hand"] for p in range(4)]
    for field, value in (("kitty", "2S"), ("level", "5"), ("trump", "S")):
        with pytest.raises(zhipai.InvalidValueError, match=field):  # Gongzhu has none of them
            game.new_deal(hands=hands, **{field: value})
    with pytest.raises(zhipai.InvalidOptionError, match="decks"):
        gz.score(["", "", "", ""], rules=zhipai.rules("gongzhu"), decks=2)


def _play_random(g: zhipai.GameState, rng: random.Random) -> int:
    steps = 0
    while not g.is_terminal():
        actions = g.legal_actions()
        assert actions, "a live state always has a legal action"
        g.apply_action(rng.choice(actions))
        steps += 1
    return steps


@pytest.mark.parametrize("decks", [1, 2])
def test_game_plays_to_the_end(decks: int) -> None:
    rng = random.Random(decks)
    game = zhipai.Game(zhipai.rules("gongzhu", decks=decks, normalize="exact"))
    for seed in range(5):
        g = game.new_deal(seed=seed)
        leader = g.current_player()
        assert "2C" in g.observation(leader)["hand"].split()  # §A.8: the ♣2 holder leads
        assert g.observation(0)["first_leader"] == leader
        copy = g.clone()
        _play_random(g, rng)
        assert copy.phase == "exposure"  # the clone is independent
        assert g.current_player() is None
        assert sum(g.returns()) == 0  # normalize=exact is zero-sum
        taken = g.observation(0)["taken"]
        assert len(" ".join(taken).split()) == 52 * decks
        nxt = g.result()["next_leader"]
        assert nxt in range(4)
        assert "QS" in taken[nxt].split()  # §A.8: the pig-taker leads the next deal
        takers = [s for s in range(4) for c in taken[s].split() if c == "QS"]
        # The takers columns list the seats that took a ♠Q, lowest seat first (row.rs takers()).
        assert [g.result()[c] for c in ["pig_taker", "pig_taker_2"][:decks]] == takers


def test_game_from_hands_and_direction() -> None:
    deck = [f"{r}{s}" for s in "SHDC" for r in ["2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A"]]
    hands = [" ".join(deck[13 * i : 13 * i + 13]) for i in range(4)]
    clockwise = zhipai.Game(zhipai.rules("gongzhu", direction="clockwise", exposure_mode="none"))
    g = clockwise.new_deal(hands=hands, dealer=3)  # seat 3 leads (a later deal of a match)
    assert g.phase == "play" and g.current_player() == 3
    g.apply("2C")
    assert g.current_player() == 2  # clockwise: seat 3 then seat 2
    assert g.legal_moves() == ["2D", "3D", "4D", "5D", "6D", "7D", "8D", "9D", "10D", "JD", "QD", "KD", "AD"]
    anticlockwise = zhipai.Game(zhipai.rules("gongzhu", exposure_mode="none"))
    g2 = anticlockwise.new_deal(hands=hands, dealer=3)
    g2.apply("2C")
    assert g2.current_player() == 0
    # Without a dealer it is the first deal of a match: the ♣2 holder (seat 3) must lead it.
    g3 = anticlockwise.new_deal(hands=hands)
    assert g3.current_player() == 3 and g3.legal_moves() == ["2C"]
    assert g.legal_moves() != ["2C"]


def test_action_codes() -> None:
    g = zhipai.Game("gongzhu").new_deal(seed=1)
    assert g.num_distinct_actions == 52 + 52 * 53 // 2 + 9
    assert g.action_to_string(0) == "2S"
    assert g.string_to_action("2S 2S") == 52
    assert g.string_to_action("expose QS") == 52 + 1378
    assert g.action_to_string(g.string_to_action("end exposure")) == "end exposure"
    # Two cards a <= b: 52 + 52a - a(a-1)/2 + (b - a) (QS = 10, 10C = 39 + 8 = 47).
    assert g.string_to_action("QS 10C") == 52 + 52 * 10 - 10 * 9 // 2 + 37
    assert g.legal_actions() == sorted(g.string_to_action(m) for m in g.legal_moves())


def test_exposure_phase_moves() -> None:
    g = zhipai.Game("gongzhu").new_deal(seed=3)
    seat = g.current_player()
    moves = g.legal_moves()
    assert moves[-1] == "end exposure"
    held = [m for m in moves if m.startswith("expose")]
    for m in held:
        assert m.split()[1] in g.observation(seat)["hand"].split()
    for m in held:
        g.apply(m)
    assert g.observation(seat)["exposed"][seat].split() == sorted(
        (m.split()[1] for m in held), key=lambda c: zhipai.Card(c).index
    )
    assert g.observation((seat + 1) % 4)["exposed"][seat] == g.observation(seat)["exposed"][seat]


def test_match_accumulates_and_ends() -> None:
    n, totals = gz.play_match(6, seed=1)
    assert n == 6 and len(totals) == 4
    n, totals = gz.play_match(1000, seed=1, match_end="−1000")
    assert n < 1000 and min(totals) <= -1000
    n, _ = gz.play_match(3, policy="greedy", seed=2)
    assert n == 3
