"""Hong Wu's refusals from the shared trick mechanics cite the Hong Wu digest (hongwu.md
§B.6–§B.8), not shengji.md; the Shengji games keep their own citations."""

import zhipai
from zhipai.shengji.mechanics import Mechanics


def test_hong_wu_lead_refusals_cite_hongwu_md():
    m = Mechanics(zhipai.rules("hong_wu"), "2", "S")
    mixed = m.check_lead("AD AH")
    assert mixed is not None and "hongwu.md §B.6" in mixed and "shengji" not in mixed
    # SJ SJ 3C 3C is not a tractor (the 正参谋 ♠3 sits between): a trump throw, 主牌不能甩.
    throw = m.check_lead("SJ SJ 3C 3C")
    assert throw is not None and "hongwu.md §B.7" in throw and "shengji" not in throw
    assert m.check_lead("5H 5H BJ BJ") is None


def test_hong_wu_follow_refusals_cite_hongwu_md():
    m = Mechanics(zhipai.rules("hong_wu"), "2", "S")
    for play in ("9D 4C", "9D 3D"):
        reason = m.check_follow("QD QD", "9D 9D 3D 4C", play)
        assert reason is not None and "hongwu.md §B.8" in reason and "shengji" not in reason
    assert m.check_follow("QD QD", "9D 9D 3D 4C", "9D 9D") is None


def test_tractor_refusals_still_cite_shengji_md():
    m = Mechanics(zhipai.rules("tractor"), "2", "S")
    reason = m.check_lead("AD AH")
    assert reason is not None and "shengji.md" in reason
