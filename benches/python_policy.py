"""Deals/s of `zhipai.simulate` with Python policies (the slow path), next to the fast path.

    python benches/python_policy.py            # BENCHMARKS.md, "Python policies"

A trivial policy (the first legal move) for seat 0 or every seat, the others random; the fast
path on one thread for scale. Wall-clock, so run it twice and read the load (`uptime`).
"""

import time

import zhipai


def first_move(observation, legal_moves):
    return legal_moves[0]


def rate(preset, deals, **kw):
    t = time.perf_counter()
    zhipai.simulate(preset, deals, seed=1, progress=False, **kw)
    return deals / (time.perf_counter() - t)


for preset, n in [("tractor", 400), ("gongzhu", 3000)]:
    fast = rate(preset, 20 * n, policy="random", threads=1)
    loop = rate(preset, n, policy=["random"] * 4)
    one = rate(preset, n, policy={0: first_move, "others": "random"})
    every = rate(preset, n, policy=first_move)
    print(
        f"{preset}: fast path 1 thread {fast:,.0f}/s | Python loop, built-ins only {loop:,.0f}/s | "
        f"callable for seat 0 {one:,.0f}/s | callable for every seat {every:,.0f}/s"
    )
