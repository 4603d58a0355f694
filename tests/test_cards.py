"""Cards, notation and the error hierarchy from the public API."""

import numpy as np
import pytest
import zhipai


def test_cards_parse_and_print():
    cs = zhipai.cards("10H SJ BJ JS")
    assert [str(c) for c in cs] == ["10H", "SJ", "BJ", "JS"]
    assert cs[3].rank == "J" and cs[3].suit == "S"
    assert cs[1].suit is None


@pytest.mark.parametrize("text", ["TH", "10♥", "th", "T♡"])
def test_alternative_notation_is_canonicalised(text):
    assert str(zhipai.Card(text)) == "10H"


@pytest.mark.parametrize("bad", ["1X", "11S", "H", "SJJ", "10HH"])
def test_bad_card_names_the_token(bad):
    with pytest.raises(zhipai.InvalidCardError, match=bad):
        zhipai.cards(f"AS {bad} 2C")


def test_errors_form_one_hierarchy():
    for exc in (zhipai.InvalidCardError, zhipai.InvalidOptionError, zhipai.IllegalPlayError,
                zhipai.InvalidValueError, zhipai.ImpossibleDealError):
        assert issubclass(exc, zhipai.ZhipaiError)


def test_numpy_round_trip():
    cs = zhipai.cards("2S AS SJ BJ 2C")
    arr = zhipai.cards_to_array(cs)
    assert arr.dtype == np.uint8 and list(arr) == [0, 12, 52, 53, 39]
    assert zhipai.cards_from_array(arr.astype(np.int64)) == cs
    with pytest.raises(zhipai.InvalidValueError, match="54"):
        zhipai.cards_from_array(np.array([54]))


def test_card_points():
    assert sum(zhipai.Card(i).points for i in range(54)) == 100


def test_unknown_preset_and_option_are_named():
    with pytest.raises(zhipai.InvalidOptionError, match="mahjong"):
        zhipai.rules("mahjong")
    with pytest.raises(zhipai.InvalidOptionError, match="no_such_option"):
        zhipai.rules("tractor", no_such_option=1)
