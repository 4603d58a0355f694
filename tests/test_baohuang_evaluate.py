"""Monte Carlo hand evaluation on Baohuang: accession candidates, first plays, the CLI."""

from __future__ import annotations

import subprocess
import sys

import numpy as np
import pytest
import zhipai

# A monster 44-card hand for seat 0 (the first-dealt seat): all four BJ (so it holds the
# scepter) and SJ, every 2, and 3 copies of ♣9 to ascend with.
MONSTER = (
    "BJ BJ BJ BJ SJ SJ SJ SJ 2S 2S 2S 2H 2H 2H 2D 2D 2D 2C 2C 2C AS AS AS AH AH AH AD AD AD "
    "AC AC AC 9C 9C 9C KS KS KS KH KH KH KD KD QS"
)
ASCEND, YIELD, GRAB = "9C 9C 9C", "", "BJ"


def test_monster_hand_ascending_beats_yielding_and_grab_always_wins() -> None:
    ev = zhipai.evaluate(
        "baohuang", seat=0, hand=MONSTER, samples=600, candidates=[ASCEND, YIELD, GRAB], policy="basic", seed=5
    )
    # "basic" (the first-generation greedy) never grabs later; "greedy" grabs with this hand
    # after yielding in some deals (worth ±40), which makes yielding look better than ascending.
    assert ev.completed == 600
    rows = {r["candidate"]: r for r in ev.compare("score_0")}
    # Yield vs ascend, paired on the same deals: the whole 95% CI of the difference is below 0.
    # (Ascending with this hand: the emperor is nearly always 大客, the group score G ≥ 0 and he
    # gets 2G/3; yielding makes him a rebel, who gains only when the emperor's group loses.)
    assert rows["abdicate"]["diff_ci95"][1] < 0  # the holder's empty candidate is 让位
    # 抢独 pays the emperor exactly ±40 (§C.10) and he is the emperor, alone, every time.
    out = ev.outcomes(GRAB)
    assert set(np.unique(out["score_0"])) <= {-40, 40}
    assert (out["emperor"] == 0).all() and (out["mode"] == 2).all() and (out["guard"] == -1).all()
    assert rows[GRAB]["mean"] > rows[ASCEND]["mean"]
    # Ascending with ♣9 (3 copies): the 登基 card is ♣9 and the guard is the holder of the 4th.
    asc = ev.outcomes(ASCEND)
    assert (asc["dengji_card"] == zhipai.Card("9C").index).all()
    assert (asc["emperor"] == 0).all() and ((asc["guard"] >= 1) & (asc["guard"] <= 4)).all()
    # Zero-sum every deal, every candidate.
    for c in ev.candidates:
        o = ev.outcomes(c)
        assert (sum(o[f"score_{s}"].astype(np.int64) for s in range(5)) == 0).all()


def test_evaluation_is_reproducible_and_thread_independent() -> None:
    kw = dict(seat=0, hand=MONSTER, samples=64, candidates=[ASCEND, YIELD], seed=3)
    a = zhipai.evaluate("baohuang", threads=1, **kw)
    b = zhipai.evaluate("baohuang", threads=2, chunk_size=5, **kw)
    for c in (0, 1):
        for col in a.columns:
            assert np.array_equal(a.outcomes(c)[col], b.outcomes(c)[col])


def test_a_43_card_hand_without_bj_forces_its_first_play() -> None:
    # Seat 2 (43 cards): pairs only and no BJ, so greedy play never makes it emperor (it cannot
    # ascend, and greedy never grabs); its first decision in play is a response: "" = pass.
    ranks = ["2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A"]
    hand = " ".join([f"{r}S {r}S" for r in ranks] + [f"{r}H {r}H" for r in ranks[:8]] + ["JH"])
    assert len(hand.split()) == 43
    ev = zhipai.evaluate("baohuang", seat=2, hand=hand, samples=50, candidates=[None, ""], policy="greedy", seed=1)
    # Its first response is forced to a pass; the policy's own first decision sometimes beats,
    # so the two candidates differ on some deal, and both settle every deal (zero-sum).
    assert ev.completed == 50
    a, b = ev.outcomes(0), ev.outcomes(1)
    assert any(not np.array_equal(a[c], b[c]) for c in ev.columns)
    for o in (a, b):
        assert (sum(o[f"score_{s}"].astype(np.int64) for s in range(5)) == 0).all()


def test_bad_evaluation_requests_name_the_value() -> None:
    with pytest.raises(zhipai.InvalidValueError, match="43"):
        zhipai.evaluate("baohuang", seat=1, hand=MONSTER, samples=10)
    with pytest.raises(zhipai.IllegalPlayError, match="SJ BJ"):
        zhipai.evaluate("baohuang", seat=0, hand=MONSTER, samples=10, candidates=["BJ SJ"])
    with pytest.raises(zhipai.IllegalPlayError, match="ascend KD"):
        zhipai.evaluate("baohuang", seat=0, hand=MONSTER, samples=10, candidates=["KD KD"])
    with pytest.raises(zhipai.InvalidValueError, match="dealer 3"):
        zhipai.evaluate("baohuang", seat=0, hand=MONSTER, samples=10, dealer=3)
    with pytest.raises(zhipai.InvalidOptionError, match="deck.*168"):
        zhipai.evaluate(zhipai.rules("baohuang", deck=168), seat=0, hand=MONSTER, samples=10)
    last = zhipai.rules("baohuang", extra_card_to="scepter_last")
    with pytest.raises(zhipai.InvalidOptionError, match="scepter_last"):
        zhipai.evaluate(last, seat=0, hand=MONSTER, samples=10)


def test_a_non_holder_candidate_is_played_where_it_is_legal() -> None:
    # Seat 2 holds three ♣9 and no BJ. "9C 9C 9C" rarely beats the first play it meets and ""
    # cannot be played when the seat must lead (逼位 can make it emperor): each is made at the
    # seat's first decision where it is legal, and no sample aborts.
    ranks = ["2", "3", "4", "5", "6", "7", "8", "10", "J", "Q", "K", "A"]
    hand = " ".join(["9C 9C 9C"] + [f"{r}S {r}H {r}D" for r in ranks] + ["4C", "5C", "6C", "7C"])
    assert len(hand.split()) == 43
    for policy in ("random", "greedy"):
        ev = zhipai.evaluate("baohuang", seat=2, hand=hand, samples=300, policy=policy, seed=4,
                             candidates=[None, "", "9C 9C 9C", "AS"])
        assert ev.completed == 300
        # Forcing the triple changes some deals against the policy's own choices.
        assert any(not np.array_equal(ev.outcomes(0)[c], ev.outcomes(2)[c]) for c in ev.columns)
    with pytest.raises(zhipai.IllegalPlayError, match="does not hold"):
        zhipai.evaluate("baohuang", seat=2, hand=hand, samples=10, candidates=["9S"])
    with pytest.raises(zhipai.IllegalPlayError, match="two ranks"):
        zhipai.evaluate("baohuang", seat=2, hand=hand, samples=10, candidates=["9C AS"])


def test_cli_evaluate_baohuang() -> None:
    out = subprocess.run(
        [sys.executable, "-m", "zhipai.cli", "evaluate", "baohuang", "-q", "--hand", MONSTER, "--samples", "1000",
         "-c", ASCEND, "-c", GRAB, "-p", "greedy"],
        capture_output=True, text=True, timeout=120,
    )
    assert out.returncode == 0, out.stderr
    assert "baohuang: seat 0, 1000 samples, policy greedy" in out.stdout
    # The deciding numbers first: the seat's return (its score) and the key events.
    assert "seat_return: seat 0's score" in out.stdout and ASCEND in out.stdout
    assert "seat 0 finishes first" in out.stdout


def test_simulate_output_shows_the_mode_mix_of_random_play() -> None:
    # The random policy is uniform over accession moves too, so most random deals are 抢独
    # (mode 2): the `mode` column's distribution makes that visible in `zhipai simulate`.
    out = subprocess.run(
        [sys.executable, "-m", "zhipai.cli", "simulate", "baohuang", "-n", "400", "-q", "-s", "2"],
        capture_output=True, text=True, timeout=120,
    )
    assert out.returncode == 0, out.stderr
    lines = out.stdout.splitlines()
    i = lines.index("mode distribution (share of deals):")  # a key column of Baohuang
    shares = {}
    for line in lines[i + 1 :]:  # "  2 grab 抢独         64.26%  ██████…"
        if not line.strip():
            break
        tokens = line.split()
        shares[int(tokens[0])] = float(next(t for t in tokens if t.endswith("%")).rstrip("%")) / 100
    assert shares[2] > 0.5, shares  # 抢独 dominates (about 64%)
    assert 0.99 < sum(shares.values()) < 1.01


def test_requests_no_sample_can_satisfy_fail_before_sampling() -> None:
    # Seat 1 holds no BJ; seat 2 as dealer (scepter holder) must be shown a BJ.
    ranks = ["2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q"]
    hand = " ".join([f"{r}S {r}H {r}D {r}C" for r in ranks[:10]] + ["QS", "QH", "QD"])
    assert len(hand.split()) == 43 and "BJ" not in hand
    for samples in (1, 8, 200):
        with pytest.raises(zhipai.InvalidValueError, match="dealer 2.*BJ"):
            zhipai.evaluate("baohuang", seat=1, hand=hand, dealer=2, samples=samples, seed=0)
    ev = zhipai.evaluate("baohuang", seat=1, hand=hand, dealer=2, samples=20, known={"hands": {2: "BJ"}})
    assert ev.completed == 20
    # Copies short are named; the holder's one-card candidate must be the BJ (抢独).
    with pytest.raises(zhipai.IllegalPlayError, match=r"2S ×2 \(holds 1\)"):
        zhipai.evaluate("baohuang", seat=1, hand=hand, samples=5, candidates=["2S 2S"])
    with pytest.raises(zhipai.IllegalPlayError, match="BJ"):
        zhipai.evaluate("baohuang", seat=0, hand=MONSTER, samples=5, candidates=["QS"])
    ev = zhipai.evaluate("baohuang", seat=0, hand=MONSTER, samples=5, candidates=["", "BJ"])
    assert ev.candidates == ["abdicate", "BJ"]


def test_candidates_by_word_label_or_cards_in_any_order() -> None:
    ev = zhipai.evaluate("baohuang", seat=0, hand=MONSTER, samples=20, seed=2,
                         candidates=["abdicate", "grab", "ascend 9C"])
    assert ev.candidates == ["abdicate", "BJ", "9C 9C 9C"]
    assert ev.summary("")["score_0"].mean == ev.summary("abdicate")["score_0"].mean
    assert np.array_equal(ev.outcomes("bj")["score_0"], ev.outcomes(1)["score_0"])
    assert ev.compare("score_0", against="")[0]["candidate"] == "abdicate"
    same = zhipai.evaluate("baohuang", seat=0, hand=MONSTER, samples=20, seed=2, candidates=["", "BJ", "9C 9C 9C"])
    for c in range(3):
        assert np.array_equal(ev.outcomes(c)["score_0"], same.outcomes(c)["score_0"])
    with pytest.raises(zhipai.InvalidValueError, match="twice"):
        zhipai.evaluate("baohuang", seat=0, hand=MONSTER, samples=5, candidates=["", "abdicate"])
    with pytest.raises(zhipai.InvalidValueError, match="twice"):
        zhipai.evaluate("baohuang", seat=0, hand=MONSTER, samples=5, candidates=["BJ", "bj"])
    # 登基 takes every copy held: two of the three ♣9 is not a choice.
    with pytest.raises(zhipai.IllegalPlayError, match=r"9C ×3"):
        zhipai.evaluate("baohuang", seat=0, hand=MONSTER, samples=5, candidates=["9C 9C"])
    out = subprocess.run(
        [sys.executable, "-m", "zhipai.cli", "evaluate", "baohuang", "-q", "--hand", MONSTER, "--samples", "50",
         "-c", "abdicate", "-c", "grab"],
        capture_output=True, text=True, timeout=120,
    )
    assert out.returncode == 0, out.stderr
    assert "abdicate" in out.stdout and "BJ" in out.stdout
