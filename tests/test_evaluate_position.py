"""Monte Carlo evaluation with a known declaration, and from a Shengji deal in progress."""

from __future__ import annotations

import json
import math

import numpy as np
import pytest
import zhipai
from zhipai import _core
from zhipai.cli import main

Deal = zhipai.GameState

POINTS = {"5": 5, "10": 10, "K": 10}
RANKS = ["2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A"]
TWO_PACKS = [f"{r}{s}" for r in RANKS for s in "SHDC"] * 2 + ["SJ", "BJ"] * 2


def points(cards: str) -> int:
    return sum(POINTS.get(c.rank, 0) for c in zhipai.cards(cards))


def hand(d: Deal, seat: int) -> str:
    return d.observation(seat)["hand"]


def dealer(d: Deal) -> int:
    return d.observation(0)["dealer"]


def random_moves(d: Deal, n: int) -> None:
    for _ in range(n):
        d.apply_builtin("random")


def _deal_hand(seed: int) -> str:
    """Seat 1's 25 cards from a random 2-deck deal."""
    d = zhipai.Game("tractor").new_deal(level="2", dealer=0, seed=seed)
    while d.phase == "dealing":
        d.apply("pass")
    return hand(d, 1)


def burying(seed: int = 5, dealer: int = 0) -> Deal:
    """A 2-deck deal at level 5, dealer fixed, nobody declaring (no-trump), before the burial."""
    d = zhipai.Game("tractor").new_deal(level="5", dealer=dealer, seed=seed)
    while d.phase == "dealing":
        d.apply("pass")
    return d


def top_points_burial(d: Deal) -> str:
    """The dealer's 8 cards with the most points (a burial the test knows the points of)."""
    cards = sorted(zhipai.cards(hand(d, dealer(d))), key=lambda c: -POINTS.get(c.rank, 0))
    return " ".join(str(c) for c in cards[:8])


# ------------------------------------------------------------------ known level / trump / dealer


def test_evaluate_with_known_level_trump_and_dealer() -> None:
    ev = zhipai.evaluate("tractor", 0, _deal_hand(1), samples=60, seed=2, level="5", trump="H", dealer=0, threads=1)
    out = ev.outcomes(0)
    assert (out["trump"] == 1).all()  # H
    assert (out["level"] == 3).all()  # 5 = rank index 3
    assert (out["dealer"] == 0).all()
    assert (out["declarations"] == 0).all()
    nt = zhipai.evaluate("tractor", 0, _deal_hand(1), samples=20, seed=2, trump="nt", threads=1)
    assert (nt.outcomes(0)["trump"] == 4).all()


@pytest.mark.parametrize(
    "kwargs, needle",
    [({"level": "1"}, "'1'|1"), ({"level": "X"}, "X"), ({"trump": "Z"}, "Z"), ({"trump": "HH"}, "HH")],
)
def test_bad_level_or_trump_is_named(kwargs: dict[str, str], needle: str) -> None:
    with pytest.raises(zhipai.InvalidValueError) as e:
        zhipai.evaluate("tractor", 0, _deal_hand(1), samples=5, **kwargs)
    assert any(n in str(e.value) for n in needle.split("|"))
    with pytest.raises(zhipai.InvalidValueError, match="level"):
        zhipai.evaluate("tractor", 0, _deal_hand(1), samples=5, level=5)  # type: ignore[arg-type]


def test_games_without_a_declaration_refuse_level_and_trump() -> None:
    hand = "2S 3S 4S 5S 6S 7S 8S 9S 10S JS QS KS AS"  # a Gongzhu hand: 13 cards of one deck
    with pytest.raises(zhipai.InvalidOptionError, match="trump"):
        zhipai.evaluate("gongzhu", 0, hand, samples=5, trump="H")


# ------------------------------------------------------------------ positions


def test_the_dealer_knows_its_kitty_and_others_see_it_uniformly() -> None:
    d = burying()
    burial = top_points_burial(d)
    d.apply(f"bury {burial}")
    k = points(burial)
    # The dealer buried it: the kitty's points are the same in every sample and candidate.
    ev = zhipai.evaluate_position(d, 0, samples=30, seed=1, limit=3, threads=1)
    assert len(ev.candidates) == 3
    for c in range(3):
        assert (ev.outcomes(c)["kitty_points"] == k).all()
    # Seat 1 cannot see it: 83 cards are out of its sight (108 - its 25), the kitty takes 8 of
    # them uniformly, so E[kitty points] = 8/83 × (200 - its points) (hypergeometric mean).
    ev = zhipai.evaluate_position(d, 1, samples=4000, seed=1)
    assert ev.candidates == ["policy"]  # seat 1 is not to move
    kp = ev.outcomes(0)["kitty_points"]
    expected = 8 / 83 * (200 - points(hand(d, 1)))
    se = kp.std() / math.sqrt(len(kp))
    assert abs(kp.mean() - expected) < 4 * se, (kp.mean(), expected, se)
    assert kp.std() > 0


def test_view_keeps_hand_played_cards_and_voids() -> None:
    d = burying(seed=8)
    burial = top_points_burial(d)
    d.apply(f"bury {burial}")
    random_moves(d, 30)
    seat = (d.current_player() + 1) % 4
    view = zhipai.position_view(d, seat)
    assert view["fixed"][seat] == hand(d, seat)
    assert view["holding"] == [len(zhipai.cards(hand(d, p))) for p in range(4)]
    dealer_view = zhipai.position_view(d, dealer(d))
    assert sorted(str(c) for c in zhipai.cards(dealer_view["known_kitty"])) == sorted(burial.split())
    if seat != dealer(d):
        assert view["known_kitty"] == ""
    gone = zhipai.cards(view["gone"])
    assert len(gone) + sum(view["holding"]) + view["kitty"] == 108
    for hands, kitty in _core._position_samples(d, seat, 50, 3):
        assert hands[seat] == hand(d, seat)
        for p in range(4):
            got = zhipai.cards(hands[p])
            assert len(got) == view["holding"][p]
            void = {str(c) for c in zhipai.cards(view["voids"][p])} if view["voids"][p] else set()
            assert not void & {str(c) for c in got}
        # Played cards are never dealt again: hands + kitty + played = two packs.
        every = [str(c) for h in hands for c in zhipai.cards(h)] + [str(c) for c in zhipai.cards(kitty)]
        assert sorted(every + [str(c) for c in gone]) == sorted(TWO_PACKS)


def test_default_candidates_are_the_legal_plays_and_results_are_reproducible() -> None:
    d = burying(seed=2)
    d.apply(f"bury {top_points_burial(d)}")
    random_moves(d, 6)
    seat = d.current_player()
    ev1 = zhipai.evaluate_position(d, seat, samples=40, seed=9, threads=1, limit=5)
    ev2 = zhipai.evaluate_position(d, seat, samples=40, seed=9, threads=2, limit=5)
    assert ev1.candidates == ev2.candidates and 1 <= len(ev1.candidates) <= 5
    for c in range(len(ev1.candidates)):
        for col in ev1.columns:
            assert np.array_equal(ev1.outcomes(c)[col], ev2.outcomes(c)[col])
    for label in ev1.candidates:  # every default candidate is the move text of a legal play now
        assert label.startswith("play ")
        d.clone().apply(label)
    # seat_return: the seat's team's gain in levels, the sign of its side.
    out = ev1.outcomes(0)
    attacker = (seat - dealer(d)) % 2 == 1
    sign = np.where(out["side"] == 1, 1, -1) * (1 if attacker else -1)
    assert np.array_equal(out["seat_return"], sign * out["levels"])
    rows = ev1.compare("seat_return", against="best")
    assert max(r["mean"] for r in rows) == pytest.approx(next(r["mean"] for r in rows if r["diff"] == 0))
    assert "seat_return" in str(ev1)


def test_extra_knowledge_is_kept() -> None:
    d = burying(seed=4)
    burial = top_points_burial(d)
    d.apply(f"bury {burial}")
    # Seat 1 is told what the kitty holds (say the dealer showed it): its points no longer vary.
    ev = zhipai.evaluate_position(d, 1, samples=40, seed=2, known={"kitty": burial, "voids": {2: "C"}})
    assert (ev.outcomes(0)["kitty_points"] == points(burial)).all()
    without = zhipai.evaluate_position(d, 1, samples=40, seed=2)
    assert without.outcomes(0)["kitty_points"].std() > 0
    with pytest.raises(zhipai.ImpossibleDealError):
        # Three big jokers do not exist in two packs.
        zhipai.evaluate_position(d, 1, samples=5, known={"hands": {3: "BJ BJ", 2: "BJ"}})
    with pytest.raises(zhipai.InvalidValueError, match="nope"):
        zhipai.evaluate_position(d, 1, samples=5, known={"nope": 1})


def test_positions_of_a_simulated_deal() -> None:
    # Deal ``index`` of a simulate run (no level/dealer given) is a position as well.
    state = zhipai.Game("tractor").new_deal(seed=3)
    while not state.legal_moves()[0].startswith("play"):
        state.apply_builtin("random")  # declarations and the burial
    state.apply_builtin("random")  # the first lead
    seat = state.current_player()
    ev = zhipai.evaluate_position(state, seat, samples=10, seed=1, limit=2, threads=1)
    assert 1 <= len(ev.candidates) <= 2 and ev.completed == 10


def test_position_errors() -> None:
    d = burying(seed=4)
    # Seat 2 is not to move: its candidates are its next decision, played where legal, counted.
    ev = zhipai.evaluate_position(d, 2, candidates=["play AS", None], samples=20, threads=1)
    played = ev.outcomes("play AS")["candidate_played"]
    assert set(np.unique(played)) <= {0, 1} and ev.played_shares()["policy"] == 1.0
    with pytest.raises(zhipai.InvalidValueError, match="invalid move 'AS'"):
        zhipai.evaluate_position(d, 2, candidates=["AS"], samples=5)  # the text is still read now
    with pytest.raises(zhipai.IllegalPlayError, match="burial"):
        zhipai.evaluate_position(d, 0, candidates=["bury AS"], samples=5)  # a burial is 8 cards
    with pytest.raises(zhipai.InvalidValueError, match="invalid move 'AS'"):
        zhipai.evaluate_position(d, 0, candidates=["AS"], samples=5)  # candidates are move text
    d.apply(f"bury {top_points_burial(d)}")
    held = set(str(c) for c in zhipai.cards(hand(d, 0)))
    missing = next(f"{r}{s}" for r in ["A", "K", "Q", "J"] for s in "SHDC" if f"{r}{s}" not in held)
    with pytest.raises(zhipai.IllegalPlayError, match=missing):
        zhipai.evaluate_position(d, 0, candidates=[f"play {missing}"], samples=5)
    with pytest.raises(zhipai.InvalidValueError, match="seat"):
        zhipai.evaluate_position(d, 4, samples=5)
    with pytest.raises(zhipai.InvalidValueError, match="limit"):
        zhipai.evaluate_position(d, 0, samples=5, limit=0)
    with pytest.raises(zhipai.InvalidValueError, match="deal"):
        zhipai.evaluate_position("not a deal", 0, samples=5)
    # Every game's positions evaluate now (the generic evaluator over the trait).
    g = zhipai.Game("gongzhu").new_deal(seed=1)
    ev = zhipai.evaluate_position(g, g.current_player(), samples=5, threads=1)
    assert set(ev.candidates) == set(g.legal_moves()) and "seat_return" in ev.columns
    fresh = zhipai.Game("tractor").new_deal(level="2", seed=1)
    # A declaration during the deal is a decision too: its candidates are pass and the declarations.
    ev = zhipai.evaluate_position(fresh, fresh.current_player(), samples=5, threads=1)
    assert ev.candidates == fresh.legal_moves() and "pass" in ev.candidates


def test_cli_known_declaration_and_position(tmp_path, capsys) -> None:  # type: ignore[no-untyped-def]
    code = main(["evaluate", "tractor", "--hand", _deal_hand(1), "--level", "5", "--trump", "H",
                 "--dealer", "0", "-n", "20", "-q", "-t", "1"])
    assert code == 0
    assert "attacker_points" in capsys.readouterr().out
    assert main(["evaluate", "tractor", "--hand", _deal_hand(1), "--trump", "Q", "-n", "5", "-q"]) == 2
    assert "Q" in capsys.readouterr().err
    d = burying(seed=6)
    d.apply(f"bury {top_points_burial(d)}")
    path = tmp_path / "deal.json"
    path.write_text(d.to_json())
    assert json.loads(path.read_text())["preset"] == "tractor"
    code = main(["evaluate", "tractor", "--position", str(path), "--seat", "0", "-n", "10", "-q", "-t", "1"])
    assert code == 0
    out = capsys.readouterr().out
    assert "seat_return" in out and "seat 0" in out


def _position_file(tmp_path) -> str:  # type: ignore[no-untyped-def]
    d = burying(seed=6)
    d.apply(f"bury {top_points_burial(d)}")
    path = tmp_path / "deal.json"
    path.write_text(d.to_json())
    return str(path)


@pytest.mark.parametrize(
    "extra",
    [["--hand", "AS"], ["--trump", "H"], ["--level", "5"], ["--dealer", "1"], ["--decks", "2"],
     ["--option", "chaodi=true"], ["--trump", "H", "--dealer", "1"]],
)
def test_cli_position_refuses_flags_the_record_fixes(tmp_path, capsys, extra) -> None:  # type: ignore[no-untyped-def]
    code = main(["evaluate", "tractor", "--position", _position_file(tmp_path), "-n", "5", "-q", *extra])
    err = capsys.readouterr().err
    assert code == 2
    for flag in extra[::2]:
        assert flag in err


def test_cli_position_refuses_another_preset(tmp_path, capsys) -> None:  # type: ignore[no-untyped-def]
    assert main(["evaluate", "gongzhu", "--position", _position_file(tmp_path), "-n", "5", "-q"]) == 2
    err = capsys.readouterr().err
    assert "'gongzhu'" in err and "'tractor'" in err


def test_cli_position_prints_key_columns_unless_all(tmp_path, capsys) -> None:  # type: ignore[no-untyped-def]
    path = _position_file(tmp_path)
    assert main(["evaluate", "tractor", "--position", path, "-n", "10", "-q", "-t", "1"]) == 0
    out = capsys.readouterr().out
    assert "seat_return:" in out and "attacker_points:" in out and "kitty_points:" not in out
    assert main(["evaluate", "tractor", "--position", path, "-n", "10", "-q", "-t", "1", "--columns", "all"]) == 0
    assert "kitty_points:" in capsys.readouterr().out


def test_known_cards_of_the_evaluated_seat_must_be_in_its_hand() -> None:
    hand = _deal_hand(1)
    missing = next(c for c in TWO_PACKS if hand.split().count(c) < 2)
    with pytest.raises(zhipai.InvalidValueError, match=missing):
        zhipai.evaluate("tractor", 1, hand, known={"hands": {1: f"{missing} {missing}"}}, samples=5, progress=False)
    held = hand.split()[0]
    assert len(zhipai.evaluate("tractor", 1, hand, known={"hands": {1: held}}, samples=5, progress=False)) == 5


README_HAND = "BJ SJ 2S 2S AS AS KS QS JS 10S 2H AH KH KH QH 9D 9D 8D 5D 3C 4C 6C 7C 8C QC"


def test_declaration_shaped_candidates_are_declarations() -> None:
    # A single level card was played as the seat's first follow (an illegal play in some deals).
    r = zhipai.evaluate("tractor", 0, README_HAND, candidates=["2S", "2S 2S", "2H"], samples=200,
                        progress=False, threads=1)
    assert r.candidates == ["2S", "2S 2S", "2H"] and len(r) == 200
    with pytest.raises(zhipai.IllegalPlayError, match="2D"):
        zhipai.evaluate("tractor", 0, README_HAND, candidates=["2D"], samples=5, progress=False)


def test_dealer_short_candidate_with_known_trump_is_its_first_lead() -> None:
    # Documented: the policy buries from the other cards, then the candidate leads trick 1.
    r = zhipai.evaluate("tractor", 0, README_HAND, trump="S", dealer=0, candidates=["3C", "QC"], samples=50,
                        progress=False, threads=1)
    assert len(r) == 50
    with pytest.raises(zhipai.IllegalPlayError, match="3S"):
        zhipai.evaluate("tractor", 0, README_HAND, trump="S", dealer=0, candidates=["3S"], samples=5, progress=False)


def test_the_joker_only_level_nt_needs_after_a_no_trump_level() -> None:
    nt = zhipai.rules("tractor", after_A="no_trump_level")
    r = zhipai.evaluate(nt, 1, _deal_hand(1), level="NT", samples=20, progress=False, threads=1)
    assert set(r.outcomes()["level"]) == {13}  # 13 = the joker-only level
    with pytest.raises(zhipai.InvalidValueError, match="after_A=no_trump_level"):
        zhipai.evaluate("tractor", 1, _deal_hand(1), level="NT", samples=5, progress=False)
    with pytest.raises(zhipai.InvalidValueError, match="NT"):
        zhipai.evaluate(nt, 1, _deal_hand(1), level="Z", samples=5, progress=False)


def test_positions_of_a_match_hand_and_of_its_replayed_record() -> None:
    m = zhipai.shengji.Match(zhipai.rules("tractor"), seed=3)
    d = m.next_deal()
    while d.phase != "play":
        d.apply_builtin("random")
    seat = d.current_player()
    ev = zhipai.evaluate_position(d, seat, samples=10, seed=1, limit=2, threads=1)
    again = zhipai.evaluate_position(zhipai.Game.from_json(d.to_json()), seat, samples=10, seed=1, limit=2, threads=1)
    assert ev.candidates == again.candidates and 1 <= len(ev.candidates) <= 2
    for c in range(len(ev.candidates)):
        for col in ev.columns:
            assert np.array_equal(ev.outcomes(c)[col], again.outcomes(c)[col])


def test_positions_refuse_a_half_built_move_and_a_finished_deal() -> None:
    d = burying(seed=5)
    d.apply_action(d.legal_actions()[0])  # one card of the burial, built card by card
    with pytest.raises(zhipai.InvalidValueError, match="half-built"):
        zhipai.evaluate_position(d, 0, samples=5)
    while not d.is_terminal():
        if d.pending_cards:
            d.apply_action(d.legal_actions()[0])
        else:
            d.apply_builtin("random")
    with pytest.raises(zhipai.InvalidValueError, match="over"):
        zhipai.evaluate_position(d, 0, samples=5)
