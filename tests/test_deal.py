"""zhipai.deal / zhipai.deal_batch: shapes, conservation, reproducibility, constraints, CLI."""

import numpy as np
import pytest
import zhipai
from hypothesis import given, settings
from hypothesis import strategies as st
from zhipai.cli import main

SPADES = list(range(0, 13))
HEARTS = list(range(13, 26))


def kinds(cards):
    return sorted(c.index for c in cards)


def test_default_deal_is_two_decks_four_hands_and_kitty():
    d = zhipai.deal(seed=1)
    assert [len(h) for h in d.hands] == [25, 25, 25, 25] and len(d.kitty) == 8
    assert d.counts.shape == (5, 54) and d.counts.dtype == np.uint8
    # Every card of two decks exactly once: two copies of each of the 54 kinds.
    assert (d.counts.sum(axis=0) == 2).all()
    for h, cards in enumerate(d.hands):
        assert np.bincount(kinds(cards), minlength=54).tolist() == d.counts[h].tolist()
    assert np.bincount(kinds(d.kitty), minlength=54).tolist() == d.counts[4].tolist()
    assert (d.seed, d.index) == (1, 0)


def test_deal_is_reproducible_from_seed_and_index():
    a = zhipai.deal(seed=42, index=3)
    assert (a.counts == zhipai.deal(seed=42, index=3).counts).all()
    assert not (a.counts == zhipai.deal(seed=42, index=4).counts).all()
    assert not (a.counts == zhipai.deal(seed=43, index=3).counts).all()


def test_random_seed_is_recorded():
    d = zhipai.deal(decks=1, kitty=6)
    assert 0 <= d.seed < 2**64
    assert (zhipai.deal(decks=1, kitty=6, seed=d.seed).counts == d.counts).all()


def test_batch_rows_are_the_single_deals():
    b = zhipai.deal_batch(5, seed=9, start=10)
    assert b.shape == (5, 5, 54) and b.dtype == np.uint8
    for i in range(5):
        assert (b[i] == zhipai.deal(seed=9, index=10 + i).counts).all()
    assert (b.sum(axis=1) == 2).all()
    assert zhipai.deal_batch(0, seed=1).shape == (0, 5, 54)


@pytest.mark.parametrize(
    "kw, sizes, kitty",
    [
        (dict(decks=1, kitty=6), [12] * 4, 6),
        (dict(decks=1, jokers=False, kitty=0), [13] * 4, 0),
        (dict(decks=3, hand_size=39, kitty=6), [39] * 4, 6),
        (dict(decks=4, hand_size=[43, 43, 43, 43, 44], kitty=0), [43, 43, 43, 43, 44], 0),
        (dict(decks=2, hands=5, hand_size=20, kitty=8), [20] * 5, 8),
    ],
)
def test_shapes(kw, sizes, kitty):
    d = zhipai.deal(seed=5, **kw)
    assert [len(h) for h in d.hands] == sizes and len(d.kitty) == kitty
    decks = kw["decks"]
    total = d.counts.sum(axis=0)
    if kw.get("jokers", True):
        assert (total == decks).all()
    else:
        assert (total[:52] == decks).all() and (total[52:] == 0).all()


def test_fixed_cards_and_kitty_cards_are_placed():
    b = zhipai.deal_batch(200, seed=3, fixed={0: "BJ BJ AS", 2: [zhipai.Card("5H")]},
                          kitty_cards="2C 2C")
    assert (b[:, 0, 53] == 2).all() and (b[:, 0, 12] >= 1).all()
    assert (b[:, 2, 16] >= 1).all()  # 5H = hearts (13) + rank index 3
    assert (b[:, 4, 39] == 2).all()
    d = zhipai.deal(seed=3, fixed=[None, "SJ SJ"])
    assert [str(c) for c in d.hands[1]].count("SJ") == 2


@pytest.mark.parametrize("spec", ["S", "♠", [zhipai.Card(i) for i in SPADES],
                                  sum(1 << i for i in SPADES), " ".join(f"{r}S" for r in
                                  ["2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A"])])
def test_void_specs(spec):
    b = zhipai.deal_batch(100, decks=1, kitty=6, seed=4, voids={1: spec})
    assert b[:, 1, SPADES].sum() == 0
    assert b[:, [0, 2, 3, 4], :][:, :, SPADES].sum() == 100 * 13


def test_voids_give_the_exact_conditional_marginals():
    """1 deck without jokers, 4 hands of 13, hand 1 void in spades. By symmetry AS is in hands 0, 2, 3 with
    probability 1/3 each, and the 39 non-spades fill hand 1's 13 places uniformly: P(2H in hand 1)
    = 13/39. A sampler that ignored the void's effect on the other hands would get 2H wrong."""
    n = 6000
    b = zhipai.deal_batch(n, decks=1, jokers=False, kitty=0, seed=11, voids={1: "S"})
    assert b[:, 1, SPADES].sum() == 0
    for h in (0, 2, 3):
        p = b[:, h, 12].mean()
        assert abs(p - 1 / 3) < 4 * np.sqrt(2 / 9 / n), (h, p)
    p_2h = b[:, 1, 13].mean()
    assert abs(p_2h - 1 / 3) < 4 * np.sqrt(2 / 9 / n), p_2h
    # The other hands share the remaining 2/3 of 2H equally.
    for h in (0, 2, 3):
        assert abs(b[:, h, 13].mean() - 2 / 9) < 4 * np.sqrt(2 / 9 * 7 / 9 / n)


def test_str_is_readable():
    text = str(zhipai.deal(decks=1, kitty=6, seed=2))
    lines = text.splitlines()
    assert lines[0] == "deal 0 of seed 2" and len(lines) == 6
    assert lines[1].startswith("hand 0 (12): ") and lines[5].startswith("kitty  ( 6): ")


def test_cli_deal_prints_the_deal(capsys):
    assert main(["deal", "--seed", "1"]) == 0
    out = capsys.readouterr().out
    assert out.strip() == str(zhipai.deal(seed=1))
    assert main(["deal", "--decks", "4", "--hand-size", "43,43,43,43,44", "--kitty", "0",
                 "--seed", "2", "--void", "1=S", "--fixed", "0=BJ BJ"]) == 0
    out = capsys.readouterr().out
    assert "hand 4 (44)" in out


def test_cli_errors_exit_2_with_one_line(capsys):
    assert main(["deal", "--decks", "5"]) == 2
    err = capsys.readouterr().err
    assert err.startswith("zhipai: error:") and "decks 5" in err and err.count("\n") == 1
    assert main(["deal", "--seed", "1", "--fixed", "0=AS AS AS"]) == 2
    assert "AS is fixed 3 times" in capsys.readouterr().err
    assert main(["deal", "--void", "x=S"]) == 2
    assert "x=S" in capsys.readouterr().err


def test_cli_help_and_version(capsys):
    with pytest.raises(SystemExit) as e:
        main(["--version"])
    assert e.value.code == 0 and zhipai.__version__ in capsys.readouterr().out
    with pytest.raises(SystemExit) as e:
        main(["--help"])
    assert e.value.code == 0 and "deal" in capsys.readouterr().out


# Random constraints: every accepted set is respected by every draw; a rejected set is rejected
# with ImpossibleDealError (or the documented table-size InvalidValueError), never anything else.
SUIT_COLS = {s: list(range(13 * i, 13 * i + 13)) for i, s in enumerate("SHDC")}


@settings(max_examples=40, deadline=None)
@given(
    seed=st.integers(0, 2**64 - 1),
    fixed=st.dictionaries(st.integers(0, 3), st.lists(st.integers(0, 53), max_size=12), max_size=3),
    kitty_cards=st.lists(st.integers(0, 53), max_size=5),
    voids=st.dictionaries(st.integers(0, 3), st.sampled_from(["S", "H", "D", "C", "SJ BJ"]),
                          max_size=2),
)
def test_random_constraints_hold_in_every_draw(seed, fixed, kitty_cards, voids):
    try:
        b = zhipai.deal_batch(20, seed=seed, fixed=fixed, kitty_cards=kitty_cards, voids=voids)
    except zhipai.ImpossibleDealError:
        return
    assert (b.sum(axis=1) == 2).all()
    for h, cards in fixed.items():
        need = np.bincount(cards, minlength=54)
        assert (b[:, h, :] >= need).all()
    assert (b[:, 4, :] >= np.bincount(kitty_cards, minlength=54)).all()
    for h, spec in voids.items():
        cols = SUIT_COLS.get(spec, [52, 53])
        assert b[:, h, cols].sum() == 0
