"""Random 2-deck Tractor deals against OpenSpiel hearts full games, side by side in one run.

The target (issue 13): random 2-deck Tractor deals per second ≥ 3.3 × OpenSpiel hearts
(`pass_cards=false`) full games per second through the C++ `evaluate_bots` loop, measured in the
same run. Rounds alternate the two engines so both see the same machine load; each round prints
its figures and the ratio, and the last line gives the median ratio over the rounds.

zhipai is timed two ways, one thread each: the Python entry point `zhipai.simulate(...,
aggregate_only=True)` and the command line `zhipai simulate tractor -n N -t 1 -q` (the whole
process: interpreter start and import included). The peer is the shared driver
`../shared/bench/peers/openspiel_bench.py --full-only` (its `cpp_evaluate_bots_full_per_s`
median of 5 one-second windows), run as a subprocess with this interpreter (needs open_spiel).

Usage: python benches/scripts/vs_hearts.py [--rounds 3] [--deals 200000]
"""

import argparse
import re
import statistics
import subprocess
import sys
import time
from pathlib import Path

import zhipai

PEER = Path(__file__).resolve().parents[2].parent / "shared" / "bench" / "peers" / "openspiel_bench.py"


def hearts_games_per_s() -> float:
    out = subprocess.run(
        [sys.executable, str(PEER), "--game", "hearts(pass_cards=false)", "--label", "hearts", "--full-only"],
        check=True,
        capture_output=True,
        text=True,
    ).stdout
    m = re.search(r"cpp_evaluate_bots_full_per_s=([0-9.]+)", out)
    if m is None:
        raise SystemExit(f"no evaluate_bots figure in the peer's output:\n{out}")
    return float(m.group(1))


def api_deals_per_s(deals: int, seed: int) -> float:
    t0 = time.perf_counter()
    zhipai.simulate("tractor", deals, seed=seed, threads=1, aggregate_only=True, progress=False)
    return deals / (time.perf_counter() - t0)


def cli_deals_per_s(deals: int, seed: int) -> float:
    # The console script installed next to this interpreter (`pip install .`).
    cli = [str(Path(sys.executable).parent / "zhipai"), "simulate", "tractor", "-n", str(deals)]
    t0 = time.perf_counter()
    subprocess.run([*cli, "--seed", str(seed), "-t", "1", "-q"], check=True, capture_output=True)
    return deals / (time.perf_counter() - t0)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--deals", type=int, default=200_000)
    args = ap.parse_args()
    api_deals_per_s(2_000, 0)  # warm-up
    ratios_api, ratios_cli = [], []
    for r in range(args.rounds):
        api = api_deals_per_s(args.deals, r + 1)
        hearts = hearts_games_per_s()
        cli = cli_deals_per_s(args.deals, r + 1)
        ratios_api.append(api / hearts)
        ratios_cli.append(cli / hearts)
        print(
            f"round {r + 1}: zhipai.simulate {api:,.0f} deals/s, CLI {cli:,.0f} deals/s, "
            f"hearts {hearts:,.0f} games/s: {api / hearts:.2f}x (API), {cli / hearts:.2f}x (CLI)",
            flush=True,
        )
    print(
        f"median ratio: {statistics.median(ratios_api):.2f}x (zhipai.simulate), "
        f"{statistics.median(ratios_cli):.2f}x (CLI) over {args.rounds} rounds"
    )


if __name__ == "__main__":
    main()
