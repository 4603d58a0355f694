"""Every error path of the public API so far: the exception class, and a message naming the
bad value."""

import pytest
import zhipai

D = zhipai.deal


def test_every_error_is_a_zhipai_error():
    for exc in (zhipai.InvalidCardError, zhipai.InvalidValueError, zhipai.InvalidOptionError,
                zhipai.IllegalPlayError, zhipai.ImpossibleDealError):
        assert issubclass(exc, zhipai.ZhipaiError) and issubclass(exc, Exception)


@pytest.mark.parametrize("call, bad", [
    (lambda: D(seed=1, fixed={0: "AS 1X"}), "1X"),
    (lambda: D(seed=1, fixed=[["AS", "ZZ"]]), "ZZ"),
    (lambda: D(seed=1, kitty_cards="10HH"), "10HH"),
    (lambda: D(seed=1, voids={0: "S Q"}), "Q"),
    (lambda: zhipai.cards("AS 11S"), "11S"),
    (lambda: zhipai.Card("SJJ"), "SJJ"),
])
def test_bad_card(call, bad):
    with pytest.raises(zhipai.InvalidCardError, match=bad):
        call()


@pytest.mark.parametrize("call, bad", [
    (lambda: D(fixed={0: [99]}), "99"),
    (lambda: zhipai.Card(54), "54"),
    (lambda: zhipai.Card(-1), "-1"),
])
def test_bad_card_index(call, bad):
    with pytest.raises(zhipai.InvalidValueError, match=bad):
        call()


@pytest.mark.parametrize("kw, bad", [
    (dict(decks=7), "decks=7"),
    (dict(decks="two"), "decks=two"),
    (dict(no_such_option=1), "no_such_option"),
])
def test_bad_option(kw, bad):
    with pytest.raises(zhipai.InvalidOptionError, match=bad):
        zhipai.rules("tractor", **kw)
    with pytest.raises(zhipai.InvalidOptionError, match="mahjong"):
        zhipai.rules("mahjong")


@pytest.mark.parametrize("kw, parts", [
    (dict(decks=2, hands=4, hand_size=25, kitty=6), ["106", "108"]),
    (dict(decks=1, hands=4, hand_size=13, kitty=4), ["4 hands of 13 + kitty 4 = 56", "54"]),
    (dict(decks=4, hand_size=[43, 43, 43, 43, 43], kitty=0), ["215", "216"]),
    (dict(decks=1, jokers=False, hand_size=13, kitty=2), ["54", "52", "without jokers"]),
    (dict(decks=1, hands=5, kitty=6), ["hand_size", "5 hands"]),
    (dict(decks=2, hands=3, hand_size=[30, 30], kitty=8), ["hands 3", "2 sizes"]),
])
def test_bad_deal_sizes(kw, parts):
    with pytest.raises(zhipai.InvalidValueError) as e:
        D(seed=1, **kw)
    for p in parts:
        assert p in str(e.value)


@pytest.mark.parametrize("kw, bad", [
    (dict(decks=0), "decks 0"),
    (dict(decks=-1), "decks -1"),
    (dict(decks=5), "decks 5"),
    (dict(decks=5, hand_size=27, kitty=0), "decks 5"),
    (dict(hands=0), "hands 0"),
    (dict(hands=-2), "hands -2"),
    (dict(hands=17, decks=4, hand_size=12, kitty=12), "hands 17"),
    (dict(hand_size=0, kitty=108), "hand size 0"),
    (dict(hand_size=-1, kitty=112), "hand size -1"),
    (dict(hand_size=[27, 27, 27, -1], kitty=28), "hand size -1"),
    (dict(kitty=-4, hand_size=28), "kitty -4"),
    (dict(index=-1), "deal index -1"),
])
def test_negative_and_zero_counts(kw, bad):
    with pytest.raises(zhipai.InvalidValueError, match=bad):
        D(**{"seed": 1, **kw})


@pytest.mark.parametrize("kw, bad", [(dict(n=-1), "n -1"),
                                     (dict(n=2, start=-3), "start -3"),
                                     (dict(n=2**62), "n 4611686018427387904")])
def test_negative_batch_counts(kw, bad):
    with pytest.raises(zhipai.InvalidValueError, match=bad):
        zhipai.deal_batch(**kw)


@pytest.mark.parametrize("seed", [-1, 2**64, 10**30, True, 1.5, "7"])
def test_seed_out_of_range(seed):
    with pytest.raises(zhipai.InvalidValueError, match="seed"):
        D(seed=seed)
    with pytest.raises(zhipai.InvalidValueError, match="seed"):
        zhipai.deal_batch(1, seed=seed)


def test_seed_limits_are_accepted():
    assert D(seed=0).seed == 0 and D(seed=2**64 - 1).seed == 2**64 - 1


def test_numpy_integers_are_accepted():
    import numpy as np

    d = D(decks=np.int64(1), kitty=np.int32(6), seed=np.uint64(5), index=np.int64(2))
    assert (d.counts == D(decks=1, kitty=6, seed=5, index=2).counts).all()
    assert D(hand_size=[np.int64(25)] * 4, seed=1).seed == 1


@pytest.mark.parametrize("kw, bad", [
    (dict(fixed={4: "AS"}), "fixed hand 4"),
    (dict(fixed={-1: "AS"}), "fixed hand -1"),
    (dict(voids={9: "S"}), "voids hand 9"),
    (dict(voids={0: 1 << 60}), "void mask of hand 0"),
    (dict(voids={0: -5}), "void mask of hand 0"),
    (dict(voids={0: True}), "void of hand 0 True"),
    (dict(fixed="AS"), "fixed 'AS'"),
])
def test_bad_constraint_shapes(kw, bad):
    with pytest.raises(zhipai.InvalidValueError, match=bad):
        D(seed=1, **kw)


@pytest.mark.parametrize("kw, parts", [
    (dict(fixed={0: "AS AS AS"}), ["AS is fixed 3 times", "2 copies"]),
    (dict(fixed={0: "AS AS", 1: "AS"}), ["AS is fixed 3 times", "hand 0 ×2, hand 1 ×1"]),
    (dict(fixed={1: "5H"}, kitty_cards="5H 5H"), ["5H is fixed 3 times", "kitty ×2"]),
    (dict(jokers=False, hand_size=26, kitty=0, fixed={0: "SJ"}), ["no SJ"]),
    (dict(decks=1, kitty=6, fixed={2: " ".join(f"{r}{s}" for s in "SH" for r in
                                                  ["2", "3", "4", "5", "6", "7", "8"])}),
     ["hand 2 has 14 fixed cards but holds only 12"]),
    (dict(kitty_cards="2S 3S 4S 5S 6S 7S 8S 9S 10S"), ["9 cards", "kitty", "only 8"]),
    (dict(fixed={3: "7D"}, voids={3: "D"}), ["hand 3 is void in 7D"]),
    (dict(voids={0: "S H D", 1: "S H D", 2: "S H D", 3: "S H D"}), ["open places"]),
    (dict(decks=1, kitty=6, voids={0: "S H D C"}), ["hand 0 with 12 open places",
                                                    "only 2 free cards"]),
])
def test_impossible_constraints_name_the_constraint(kw, parts):
    with pytest.raises(zhipai.ImpossibleDealError) as e:
        D(**{"seed": 1, **kw})
    for p in parts:
        assert p in str(e.value), str(e.value)
    with pytest.raises(zhipai.ImpossibleDealError):
        zhipai.deal_batch(3, **{"seed": 1, **kw})


def test_too_many_void_patterns_is_a_clear_error():
    voids = {0: "S", 1: "H", 2: "D", 3: "C"}  # 4 different voids over 108 unknown cards
    with pytest.raises(zhipai.InvalidValueError, match="table entries"):
        D(seed=1, voids=voids)
