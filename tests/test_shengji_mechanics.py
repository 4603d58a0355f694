"""Python API of the Shengji trick mechanics (zhipai.shengji.Mechanics) and its rule cases."""

from __future__ import annotations

import pathlib
from collections import Counter

import pytest
import zhipai
from zhipai.shengji import Mechanics
from zhipai.testing import check_cases

ROOT = pathlib.Path(__file__).resolve().parent
# The shared cases live next to the repository (../shared/cases, FORMAT.md); a helper worktree
# sits one level deeper (/work/wt/NAME).
SHARED = next(
    (p / "shared" / "cases" for p in (ROOT.parent.parent, ROOT.parent.parent.parent)
     if (p / "shared" / "cases" / "shengji.jsonl").exists()),
    ROOT.parent.parent / "shared" / "cases",
)
MY_CHECKS = {"format", "lead", "throw", "follow", "winner", "kitty_multiplier"}


def ms(cards: str) -> Counter[str]:
    return Counter(str(c) for c in zhipai.cards(cards))


@pytest.fixture
def m() -> Mechanics:
    return Mechanics(zhipai.rules("tractor"), level="2", trump="S")


def test_extra_cases_all_pass() -> None:
    report = check_cases(ROOT / "cases" / "shengji_mech_extra.jsonl")
    assert report.failed == 0, [str(f) for f in report.failures]
    assert report.skipped == 0, report.skipped_ids
    assert report.passed >= 30


@pytest.mark.skipif(not (SHARED / "shengji.jsonl").exists(), reason="shared cases not present")
def test_shared_shengji_cases_for_my_checks() -> None:
    import json
    import tempfile

    lines = [
        line
        for line in (SHARED / "shengji.jsonl").read_text(encoding="utf-8").splitlines()
        if line.strip() and not line.startswith("#") and json.loads(line)["check"] in MY_CHECKS
    ]
    with tempfile.NamedTemporaryFile("w", suffix=".jsonl", delete=False, encoding="utf-8") as f:
        f.write("\n".join(lines))
    report = check_cases(f.name)
    assert report.failed == 0, [str(x) for x in report.failures]
    assert report.skipped == 0, report.skipped_ids
    assert report.passed == len(lines)


def test_classify(m: Mechanics) -> None:
    f = m.classify("AS AS 2H 2H 2D 2D 2S 2S")
    assert f.kind == "throw"
    assert sorted(len(zhipai.cards(u)) for u in f.units) == [2, 6]
    assert m.classify("9S 9S 8H 8H").kind == "invalid"
    assert m.classify("").kind == "invalid"
    assert m.classify("BJ BJ").kind == "pair"


def test_lead_and_throw(m: Mechanics) -> None:
    assert m.is_legal_lead("KD KD JD JD 8D", "KD KD JD JD 8D 3C")
    assert "does not hold" in m.check_lead("AH AH", "AH KH")
    assert "one effective suit" in m.check_lead("9S 9S 8H 8H")
    r = m.check_throw("QH QH JH", ["3H 4H 5C", "KH 6H 7D", "8H 9H 3S"])
    assert not r.valid and ms(r.played) == ms("JH") and r.beaten_cards == 1
    assert m.check_throw("AH KH KH", ["AH QH QH", "JH JH", "9H"]).valid
    with pytest.raises(zhipai.IllegalPlayError):
        m.check_throw("9S 8H", ["3C", "4C", "5C"])


def test_follow_enumerate_count_sample_agree(m: Mechanics) -> None:
    lead, hand = "8H 8H 9H 9H 10H 10H", "3H 3H 4H 4H 6H 6H QH QH 7C 8C"
    plays = m.follows(lead, hand)
    assert sorted(map(lambda p: tuple(sorted(ms(p).items())), plays)) == sorted(
        tuple(sorted(ms(p).items())) for p in ["3H 3H 4H 4H 6H 6H", "3H 3H 4H 4H QH QH"]
    )
    assert m.count_follows(lead, hand) == 2
    for seed in range(10):
        assert m.sample_follow(lead, hand, seed) in plays
    assert m.sample_follow(lead, hand, 3) == m.sample_follow(lead, hand, 3)
    # Void: discards are counted, not listed.
    assert m.count_follows("AD AD", "3S 3S 4C 5H") == len(m.follows("AD AD", "3S 3S 4C 5H")) == 4
    assert m.follows("AD AD", "3S 3S 4C 5H", limit=2) == m.follows("AD AD", "3S 3S 4C 5H")[:2]
    assert "led suit" in m.check_follow("10H 10H", "3H 4D 9D", "4D 9D")
    assert "matched" in m.check_follow("10H 10H", "9H 9H 3H 4D 5S", "3H 9H")
    assert m.check_follow("10H 10H", "9H 9H 3H 4D 5S", "9H 9H") is None


def test_winner_and_kitty(m: Mechanics) -> None:
    assert m.winner(["AH", "3S", "KH", "2D"]) == 3
    assert m.kitty_multiplier("KH KH AH AH") == 8
    jj = Mechanics(zhipai.rules("tractor_jj"), "2", "S")
    assert jj.kitty_multiplier("KH KH AH AH") == 6
    e = Mechanics(zhipai.rules("eighty_points"), "2", "S")
    assert e.kitty_multiplier("KD KD JD JD 8D", "9S 9S 10S 10S 4S") == 8


def test_error_paths(m: Mechanics) -> None:
    with pytest.raises(zhipai.InvalidValueError, match="trump"):
        Mechanics(zhipai.rules("tractor"), "2", "X")
    with pytest.raises(zhipai.InvalidValueError, match="rank"):
        Mechanics(zhipai.rules("tractor"), "1", "S")
    with pytest.raises(zhipai.InvalidOptionError):
        Mechanics(zhipai.rules("gongzhu"), "2", "S")
    with pytest.raises(zhipai.InvalidCardError, match="1X"):
        m.classify("1X")
    with pytest.raises(zhipai.InvalidValueError, match="more than 2 times"):
        m.classify("AH AH AH")
    with pytest.raises(zhipai.InvalidValueError, match="cards"):
        m.winner(["AH", "KH KH", "3H", "4H"])
    with pytest.raises(zhipai.InvalidValueError, match="fewer"):
        m.follows("AH AH", "3C")
    with pytest.raises(zhipai.InvalidValueError, match="one effective suit"):
        m.follows("AH 3C", "4C 5C 6C")
    assert "does not hold" in m.check_follow("AH", "3C 4C", "5C")
    assert "2 cards" in m.check_follow("AH AH", "3C 4C", "3C")
    three = Mechanics(zhipai.rules("eighty_points", decks=3), "2", "S")
    assert three.classify("AH AH AH").kind == "triple"


def test_hong_wu_trick_rules() -> None:
    # The HongWu arm of trick_rules (helper hongwu): ♥5 BJ pairs chain; no no-trump.
    assert Mechanics(zhipai.rules("hong_wu"), "2", "S").classify("5H 5H BJ BJ").kind == "tractor"
    with pytest.raises(zhipai.InvalidValueError, match="no-trump"):
        Mechanics(zhipai.rules("hong_wu"), "2", "NT")
