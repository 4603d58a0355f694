"""Steps/s of ``zhipai.VectorEnv`` with random legal actions, next to OpenSpiel's Python loop.

    python benches/vector_env.py                 # README "Environments for reinforcement learning"
    python benches/vector_env.py --seconds 3 --envs 1024 --threads 2

Every seat is controlled (self-play), so one step = one decision; the observation tensor and the
mask of every env are returned on every step. Actions are drawn uniformly among the legal ones,
either in numpy (``actions`` style: from the mask; ``moves`` style: an index below
``num_moves``) or in Rust by ``env.sample_actions()``; the time of that draw is included.
The peer is ``../shared/bench/peers/openspiel_step_loop.py``
(dou_dizhu: observation tensor + legal actions + a random action per step, in Python), run in
the same invocation when ``pyspiel`` imports. Wall-clock on a shared machine: the load average
is printed with the figures.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import time
from pathlib import Path

import numpy as np
import zhipai


def random_legal(mask: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """A uniformly random legal action per row of ``mask`` (0 where none is legal)."""
    n, a = mask.shape
    counts = mask.sum(axis=1)
    flat = np.flatnonzero(mask)
    starts = np.cumsum(counts) - counts
    pick = (rng.random(n) * counts).astype(np.int64)
    out = np.zeros(n, dtype=np.int64)
    live = counts > 0
    out[live] = flat[starts[live] + pick[live]] - np.flatnonzero(live) * a
    return out


def measure(preset: str, style: str, rust_sampling: bool, envs: int, threads: int, seconds: float, **rules: object) -> tuple[float, int]:
    r = zhipai.rules(preset, **rules)
    seats = zhipai.Game(r).num_players
    env = zhipai.VectorEnv(r, envs, 1, controlled_seats=list(range(seats)), threads=threads, action_style=style, max_moves=32)
    rng = np.random.default_rng(0)
    obs, mask, info = env.reset()
    steps, deals = 0, 0
    t0 = time.perf_counter()
    while time.perf_counter() - t0 < seconds:
        for _ in range(20):
            if rust_sampling:
                a = env.sample_actions()
            elif style == "moves":
                a = (rng.random(envs) * info["num_moves"]).astype(np.int64)
            else:
                a = random_legal(mask, rng)
            obs, rew, term, trunc, mask, info = env.step(a)
            # Steps that only start the next deal are not decisions.
            steps += envs - int(info["reset"].sum())
            deals += int(term.sum())
    return steps / (time.perf_counter() - t0), deals


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--seconds", type=float, default=5.0)
    ap.add_argument("--envs", type=int, default=1024)
    ap.add_argument("--threads", type=int, default=2)
    args = ap.parse_args()
    print(f"load average before: {os.getloadavg()}")
    for preset, opts in [("gongzhu", {}), ("tractor", {"decks": 2})]:
        for style in ["actions", "moves"]:
            for rust_sampling in [False, True]:
                rate, deals = measure(preset, style, rust_sampling, args.envs, args.threads, args.seconds, **opts)
                how = "env.sample_actions()" if rust_sampling else "numpy draw"
                print(f"vector_env {preset} {style}, {how}: {rate:,.0f} steps/s ({args.envs} envs, {args.threads} threads, {deals} deals)")
    peer = Path(__file__).resolve().parents[1].parent / "shared" / "bench" / "peers" / "openspiel_step_loop.py"
    try:
        import pyspiel  # noqa: F401
    except ImportError:
        print("openspiel peer: skipped (pyspiel does not import; pip install open_spiel)")
    else:
        if peer.exists():
            out = subprocess.run([sys.executable, str(peer), "dou_dizhu"], capture_output=True, text=True, check=True)
            print(f"openspiel peer: {out.stdout.strip()}")
        else:
            print(f"openspiel peer: skipped ({peer} not found)")
    print(f"load average after: {os.getloadavg()}")


if __name__ == "__main__":
    main()
