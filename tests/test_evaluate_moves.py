"""Hand evaluation with move-text candidates (Hong Wu bids, Gongzhu exposures): the seat's next
decision in deals that give it the hand; a candidate not legal at its turn is counted, not an
abort (issue 16 item 3)."""

from __future__ import annotations

import numpy as np
import pytest
import zhipai
from zhipai.cli import main

HAND = "2S 5S 6S 6S JS KS 6H 8H 9H QH 5D 6D 8D 8D 9D 10D JD 2C 5C 6C 7C 8C 9C SJ BJ"


def test_hong_wu_bids_from_the_opening_seat() -> None:
    ev = zhipai.evaluate("hong_wu", 1, HAND, candidates=["bid 60", "pass", "bid 80"], samples=300,
                         dealer=1, seed=4, threads=2, progress=False)
    assert ev.candidates == ["bid 60", "pass", "bid 80"]
    assert ev.played_shares() is None  # seat 1 opens: every candidate is legal, played every time
    bid60, passed, bid80 = (ev.outcomes(c) for c in ev.candidates)
    # A pass is final (hongwu.md §B.2): seat 1 never becomes the dealer; a bid is at least its value.
    assert (passed["dealer"] != 1).all()
    assert (bid60["bid"] >= 60).all() and (bid80["bid"] >= 80).all()
    # seat_return is the seat's own result: the dealer's when it is the dealer.
    won = bid80["dealer"] == 1
    assert np.array_equal(bid80["seat_return"][won], bid80["dealer_result"][won])


def test_a_bid_not_legal_at_the_seats_turn_is_counted_not_an_abort() -> None:
    ev = zhipai.evaluate("hong_wu", 1, HAND, candidates=["bid 60", "pass"], samples=300, dealer=0,
                         seed=4, threads=2, progress=False)
    shares = ev.played_shares()
    assert shares is not None and shares["pass"] == 1.0
    # Seat 0 opens; a bid of 60 at seat 1's turn is legal only while nobody has bid yet.
    assert 0 < shares["bid 60"] < 1
    played = ev.outcomes("bid 60")["candidate_played"]
    assert set(np.unique(played)) == {0, 1}
    assert "candidate played at the seat's turn" in ev.report()


def test_cli_bid_candidates_and_a_search_rollout() -> None:
    code = main(["evaluate", "hong_wu", "--seat", "1", "--dealer", "1", "--hand", HAND, "-c", "bid 60",
                 "-c", "pass", "-n", "60", "-q", "-t", "1"])
    assert code == 0


def test_cli_output_leads_with_the_answer(capsys) -> None:  # type: ignore[no-untyped-def]
    assert main(["evaluate", "hong_wu", "--seat", "1", "--dealer", "1", "--hand", HAND, "-c", "bid 60",
                 "-c", "pass", "-n", "60", "-q", "-t", "1"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[1].startswith("best for seat 1: ")


def test_gongzhu_exposure_candidates_with_the_pig() -> None:
    hand = "QS AS KS 2S 3S 4H 4D 9C 2H KC 9H 8S 4C"
    ev = zhipai.evaluate("gongzhu", 0, hand, candidates=["expose QS", "end exposure"], samples=200, dealer=0,
                         seed=2, threads=2, progress=False, policy="greedy")
    assert ev.candidates == ["expose QS", "end exposure"] and "seat_return" in ev.columns
    assert ev.played_shares() is None


def test_move_text_is_refused_where_hand_evaluation_reads_cards() -> None:
    # The Shengji family's candidates are cards (their meaning is documented per phase).
    with pytest.raises(zhipai.InvalidValueError, match="move text is the seat's next decision"):
        zhipai.evaluate("tractor", 0, "AS " * 25, candidates=["play AS"], samples=5, progress=False)
    with pytest.raises(zhipai.InvalidValueError, match="hand"):
        zhipai.evaluate("hong_wu", 1, "AS KS", candidates=["bid 60"], samples=5, progress=False)
    with pytest.raises(zhipai.IllegalPlayError, match="bid 61"):
        zhipai.evaluate("hong_wu", 1, HAND, candidates=["bid 61"], samples=5, dealer=1, progress=False)


def test_a_candidate_given_twice_is_refused() -> None:
    s = zhipai.Game("hong_wu").new_deal(seed=5, index=2)
    with pytest.raises(zhipai.InvalidValueError, match="pass is given twice"):
        zhipai.evaluate_position(s, 1, candidates=["pass", " PASS ", None], samples=5)


def test_a_candidate_never_played_is_no_answer() -> None:
    # Seat 1's next decision is its exposure (it holds AH): a play of 2S is never legal there;
    # the headline leaves it out.
    hand = "2S 7S JS KS 10H AH 3D 4D QD KD AD QC KC"
    ev = zhipai.evaluate("gongzhu", 1, hand, candidates=["2S", "end exposure", "expose AH"], samples=40,
                         dealer=0, seed=2, threads=1, progress=False)
    shares = ev.played_shares()
    assert shares is not None and shares["2S"] == 0.0 and shares["end exposure"] == 1.0
    head = ev.headline()
    assert head is not None and "2S" not in head


def test_tractor_attacker_follow_candidates_are_counted_not_an_abort() -> None:
    # With the declaration known (trump and dealer), an attacker's first play is usually a follow:
    # a card candidate there is legal only in some samples (counted, not an abort).
    hand = "2S 5S 7S 8S AS 3H 5H 8H 9H 9H 2D 3D 3D 4D 9D KD 2C 3C 4C 4C 6C 9C JC KC AC"
    ev = zhipai.evaluate("tractor", 1, hand, candidates=["play AC", "play 2S"], trump="H", dealer=0, samples=200,
                         seed=1, threads=2, progress=False)
    shares = ev.played_shares()
    assert shares is not None and all(0 < v < 1 for v in shares.values())
    side = ev.outcomes("play AC")["side"]
    sign = np.where(side == 1, 1, -1)  # seat 1 attacks: its return has the attackers' sign
    assert np.array_equal(ev.outcomes("play AC")["seat_return"], sign * ev.outcomes("play AC")["levels"])
    # The dealer's own hand evaluation keeps card candidates (its kitty is drawn per sample).
    with pytest.raises(zhipai.InvalidValueError, match="move text is the seat's next decision"):
        zhipai.evaluate("tractor", 0, hand, candidates=["play AC"], trump="H", dealer=0, samples=5, progress=False)


def test_tractor_card_candidates_not_legal_in_a_sample_are_counted_not_an_abort() -> None:
    # Whole-hand evaluation with card candidates, the declaration drawn in every sample: the
    # seat's first play is a follow in most samples, where a card of another suit may be illegal.
    # This aborted with "illegal play follow AD: in deal 0 (seed 0)" before (issue 16 item 3).
    hand = "JS JS QS QS KS QH KH AH 2D JD KD AD 5C 5C 8C 9C 10C JC QC QC KC KC AC SJ BJ"
    ev = zhipai.evaluate("tractor", 0, hand, candidates=["AD", "5C"], samples=300, seed=0, threads=2, progress=False)
    shares = ev.played_shares()
    assert shares is not None and all(0 < v < 1 for v in shares.values()), shares
    for c in ("AD", "5C"):
        assert set(np.unique(ev.outcomes(c)["candidate_played"])) == {0, 1}
    assert "candidate played at the seat's turn" in ev.report()
    # The policy's own move (no candidate) has no such column.
    assert zhipai.evaluate("tractor", 0, hand, samples=20, seed=0, progress=False).played_shares() is None


def test_move_text_naming_cards_not_held_is_refused_up_front() -> None:
    # It could never be played: an IllegalPlayError naming it, not a candidate at 0.0 %.
    hand = "JS JS QS QS KS QH KH AH 2D JD KD AD 5C 5C 8C 9C 10C JC QC QC KC KC AC SJ BJ"
    with pytest.raises(zhipai.IllegalPlayError, match=r"'play 3D'.*3D ×1 \(holds 0\)"):
        zhipai.evaluate("tractor", 0, hand, candidates=["play 3D"], trump="H", dealer=1, samples=5, progress=False)
    with pytest.raises(zhipai.IllegalPlayError, match=r"AD ×2 \(holds 1\)"):
        zhipai.evaluate("tractor", 0, hand, candidates=["play AD AD"], trump="H", dealer=1, samples=5, progress=False)
    with pytest.raises(zhipai.IllegalPlayError, match="expose JD"):
        zhipai.evaluate("gongzhu", 0, "QS AS KS 2S 3S 4H 4D 9C 2H KC 9H 8S 4C", candidates=["expose JD"], samples=5,
                        progress=False)
    # Words that are not cards are the game's to read (a bid).
    assert zhipai.evaluate("hong_wu", 1, HAND, candidates=["bid 60", "pass"], samples=5, dealer=1,
                           progress=False).completed == 5


def test_move_text_only_where_it_is_taken() -> None:
    tractor = "2S 7S 8S 9S 5H 6H 9H 9H 10H JH 2D 2D 3D 4D 4D 6D 7D AD AD 3C 4C JC QC SJ SJ"
    with pytest.raises(zhipai.InvalidValueError, match="move text is the seat's next decision"):
        zhipai.evaluate("tractor", 0, tractor, candidates=["play 3C"], samples=3, dealer=0, level="2", trump="D")
