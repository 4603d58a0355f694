"""pytest-benchmark of the Python dealing entry points. With ``--benchmark-disable`` (the
default in pyproject's addopts) each runs once as a smoke test; measure with
``pytest tests/test_bench_deal.py --benchmark-enable``."""

import numpy as np
import zhipai


def test_bench_deal_two_decks(benchmark):
    d = benchmark(zhipai.deal, decks=2, hands=4, hand_size=25, kitty=8, seed=1)
    assert [len(h) for h in d.hands] == [25] * 4


def test_bench_deal_with_voids(benchmark):
    d = benchmark(zhipai.deal, seed=1, fixed={0: "BJ BJ SJ"}, voids={1: "S", 2: "H"})
    assert not any(c.suit == "S" for c in d.hands[1])


def test_bench_deal_batch_10k(benchmark):
    b = benchmark(zhipai.deal_batch, 10_000, seed=1)
    assert b.shape == (10_000, 5, 54) and b.dtype == np.uint8
    assert (b.sum(axis=1) == 2).all()


def test_bench_deal_batch_constrained_10k(benchmark):
    b = benchmark(zhipai.deal_batch, 10_000, seed=1, voids={1: "S", 2: "H SJ BJ"})
    assert b[:, 1, :13].sum() == 0 and b[:, 2, 13:26].sum() == 0
