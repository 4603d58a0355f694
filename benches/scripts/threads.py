"""Whole runs through zhipai.simulate on 1 and 2 threads (the "≥ 1.8× on two threads" target).

Usage: python benches/scripts/threads.py  (after `pip install .`; prints deals/s per run)
"""

import time

import zhipai

RUNS = [("tractor", 400_000), ("gongzhu", 2_000_000), ("hong_wu", 300_000), ("baohuang", 200_000)]

for preset, deals in RUNS:
    rules = zhipai.rules(preset)
    for threads in (1, 2, 1, 2):
        t0 = time.perf_counter()
        zhipai.simulate(rules, deals, seed=1, threads=threads, aggregate_only=True, progress=False)
        dt = time.perf_counter() - t0
        print(f"{preset} threads={threads} {deals / dt:,.0f} deals/s ({dt:.2f} s)", flush=True)
