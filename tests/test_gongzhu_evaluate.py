"""Monte Carlo hand evaluation of Gongzhu (`zhipai.evaluate("gongzhu", ...)` and the CLI).

Known answers used here (gongzhu.md §A.6, §A.7, §A.11):
* A hand with ♠Q and the high spades (♠A ♠K ♠J …) but no low spade cannot duck a spade trick: its
  ♠Q wins whenever it is played to a spade trick, so under random play it takes the pig most of
  the time. Exposing the pig doubles the pig for whoever takes it; for seat 0 the change of
  4·r0 − S (§A.11) is 100·(1 − 4p) per 100 points, negative as soon as p > 1/4: exposing costs.
* Leading ♠Q while holding ♠A and ♠K wins the trick: seat 0 takes the pig in every sample.
"""

from __future__ import annotations

import numpy as np
import pytest
import zhipai
from zhipai.cli import main

HIGH_SPADES = "AS KS QS JS 10S 9S 8S 3D 4D 5D 3C 4C 5C"


def test_exposing_the_pig_with_high_spades_costs() -> None:
    r = zhipai.evaluate("gongzhu", 0, HIGH_SPADES, candidates=["", "QS"], samples=1500, seed=7, progress=False)
    assert r.candidates == ["pass", "QS"] and len(r) == 1500
    # The forced decisions reached the game: ♠Q exposed exactly under the "QS" candidate.
    assert (r.outcomes("QS")["exposed_pig"] == 1).all()
    e = r.outcomes("")
    assert ((e["exposed_pig"] == 0) | (e["auto_exposed"] == 1)).all()  # only the 3-of-4 rule
    # Same sampled deals: seat 0 holds ♠Q, so the ♣2 holder (first leader) agrees per sample.
    assert np.array_equal(r.outcomes(0)["first_leader"], r.outcomes(1)["first_leader"])
    cmp = {row["candidate"]: row for row in r.compare("final_0")}
    assert cmp["QS"]["diff_ci95"][1] < 0, cmp["QS"]
    # Seat 0 takes the pig far more often than 1/4 (no low spade to duck with).
    assert (r.outcomes("")["pig_taker"] == 0).mean() > 0.4


def test_first_play_candidates() -> None:
    # No exposure phase: a candidate is the first play; seat 0 leads (dealer=0).
    rules = zhipai.rules("gongzhu", exposure_mode="none")
    r = zhipai.evaluate(rules, 0, HIGH_SPADES, candidates=["QS", "3D"], samples=300, dealer=0, seed=1, progress=False)
    assert (r.outcomes("QS")["pig_taker"] == 0).all()
    assert (r.outcomes("3D")["pig_taker"] != 0).any()
    assert (r.outcomes("QS")["first_leader"] == 0).all()
    # In the QQ exposure mode a non-exposable card is still a first play (exposure by policy).
    r = zhipai.evaluate("gongzhu", 0, HIGH_SPADES, candidates=["3D", "9S"], samples=200, dealer=0, seed=1, progress=False)
    assert len(r) == 200


def test_two_decks_and_partnership() -> None:
    deal = zhipai.Game(zhipai.rules("gongzhu", decks=2)).new_deal(seed=3)
    hand = deal.observation(0)["hand"]
    r = zhipai.evaluate(zhipai.rules("gongzhu", decks=2, partnership=True), 0, hand, samples=50,
                        candidates=[None, ""], seed=2, progress=False)
    assert "pig_taker_2" in r.columns
    f = r.outcomes(1)
    # Partnership (§A.13): partners are credited the same result.
    assert np.array_equal(f["final_0"], f["final_2"]) and np.array_equal(f["final_1"], f["final_3"])


def test_illegal_candidates_are_named() -> None:
    with pytest.raises(zhipai.IllegalPlayError, match="JD"):
        zhipai.evaluate("gongzhu", 0, HIGH_SPADES, candidates=["JD"], samples=5, progress=False)
    # ♣2 holder must lead it in the first deal of a match (§A.8): another lead is illegal in
    # every sample, so it is never played (counted, the policy leads ♣2), not an abort.
    hand = "2C AS KS QS JS 10S 9S 8S 3D 4D 5D 3C 4C"
    ev = zhipai.evaluate("gongzhu", 0, hand, candidates=["3D", "2C"], samples=5, progress=False)
    assert ev.played_shares() == {"3D": 0.0, "2C": 1.0}
    no_exposure = zhipai.rules("gongzhu", exposure_mode="none")
    with pytest.raises(zhipai.IllegalPlayError, match="exposure_mode=none"):
        zhipai.evaluate(no_exposure, 0, hand, candidates=[""], samples=5, progress=False)
    with pytest.raises(zhipai.InvalidValueError, match="13"):
        zhipai.evaluate("gongzhu", 0, "AS KS", samples=5, progress=False)


def test_cli_evaluate_gongzhu(capsys) -> None:
    rc = main(["evaluate", "gongzhu", "--hand", HIGH_SPADES, "--samples", "2000", "-q", "-c", "", "-c", "QS"])
    out = capsys.readouterr().out
    assert rc == 0
    assert "seat 0, 2000 samples" in out and "seat_return: seat 0's credited result" in out and "QS" in out
