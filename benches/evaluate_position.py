"""Wall time of zhipai.evaluate_position, 10,000 samples, on a mid-deal Tractor position.

Run in a virtualenv with a release build (``maturin develop --release``):

    python benches/evaluate_position.py

The position: 2 decks, level 5, dealer 0, nobody declares (no-trump), after the burial and 40
random plays. Numbers are recorded in BENCHMARKS.md.
"""
import time

import zhipai
from zhipai.shengji import Deal

d = Deal(zhipai.rules("tractor"), "5", 0, 1)
while d.phase == "dealing":
    d.apply("pass")
for _ in range(41):
    k, c = d.random_move(); d.apply(k, c)
seat = d.current_player()
for threads in (1, 2):
    t = time.perf_counter()
    ev = zhipai.evaluate_position(d, seat, candidates=[None], samples=10_000, seed=1, threads=threads, progress=False)
    print(threads, "thread(s), policy only:", round(time.perf_counter() - t, 3), "s")
t = time.perf_counter()
ev = zhipai.evaluate_position(d, seat, samples=10_000, seed=1, threads=2, progress=False)
print("2 threads, all", len(ev.candidates), "legal plays:", round(time.perf_counter() - t, 3), "s")
