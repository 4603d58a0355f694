"""Time of one default PIMC decision (``pimc``: 24 worlds, greedy rollouts, one thread) in 2-deck
Tractor deals in progress: 30 deals of seed 11, played by greedy to the 21st play, then 5
decisions each. Usage: ``python benches/scripts/pimc_decision.py`` (a release install)."""

import os
import time

import zhipai


def main() -> None:
    g = zhipai.Game("tractor")
    times = []
    for i in range(30):
        s = g.new_deal(seed=11, index=i)
        while s.phase != "play":
            s.apply_builtin("greedy")
        for _ in range(20):  # into the play
            s.apply_builtin("greedy")
        for _ in range(5):
            c = s.clone()
            t = time.perf_counter()
            c.builtin_move("pimc")
            times.append(time.perf_counter() - t)
            s.apply_builtin("greedy")
    times.sort()
    n = len(times)
    print(f"{n} decisions: median {1e3 * times[n // 2]:.2f} ms, mean {1e3 * sum(times) / n:.2f} ms, "
          f"p90 {1e3 * times[int(0.9 * n)]:.2f} ms; load {os.getloadavg()}")


if __name__ == "__main__":
    main()
