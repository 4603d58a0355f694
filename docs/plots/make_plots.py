"""Draw the figures of docs/plots/ (the README links them): every preset's key columns from a
rows run and from an aggregate run of the same deals (the two are identical), evaluations, and
rule-variant comparisons. Run from the repository root after ``pip install ".[plot]"``:

    python docs/plots/make_plots.py [OUT_DIR [simulate,evaluate,compare]]

PNGs are written at 80 dpi with a reduced palette to keep them small.
"""

from __future__ import annotations

import io
import sys
from pathlib import Path

import zhipai

OUT = Path(sys.argv[1]) if len(sys.argv) > 1 else Path(__file__).resolve().parent
ONLY = set(sys.argv[2].split(",")) if len(sys.argv) > 2 else {"simulate", "evaluate", "compare"}

#: (file stem, preset, options, deals): the aggregate run plays ``deals``, the rows run a tenth.
PRESETS = [
    ("tractor", "tractor", {}, 1_000_000),
    ("tractor_3_decks", "tractor", {"decks": 3}, 300_000),
    ("tractor_jj", "tractor_jj", {}, 300_000),
    ("eighty_points", "eighty_points", {}, 300_000),
    ("hong_wu", "hong_wu", {}, 300_000),
    ("gongzhu", "gongzhu", {}, 2_000_000),
    ("gongzhu_2_decks", "gongzhu", {"decks": 2}, 300_000),
    ("baohuang", "baohuang", {}, 300_000),
]

TRACTOR_HAND = "BJ SJ 2S 2S AS AS KS QS JS 10S 2H AH KH KH QH 9D 9D 8D 5D 3C 4C 6C 7C 8C QC"
HIGH_SPADES = "AS KS QS JS 10S 9S 8S 3D 4D 5D 3C 4C 5C"
MONSTER = ("BJ BJ BJ BJ SJ SJ SJ SJ 2S 2S 2S 2H 2H 2H 2D 2D 2D 2C 2C 2C AS AS AS AH AH AH AD AD AD AC AC AC "
           "9C 9C 9C KS KS KS KH KH KH KD KD QS")


def save(fig, name: str) -> None:
    """The figure as a small palette PNG."""
    from PIL import Image

    buf = io.BytesIO()
    fig.savefig(buf, format="png", dpi=80)
    img = Image.open(buf).convert("RGB").quantize(colors=64, method=Image.Quantize.MEDIANCUT)
    path = OUT / f"{name}.png"
    img.save(path, optimize=True)
    print(f"{path} ({path.stat().st_size // 1024} KiB)")


def main() -> None:
    OUT.mkdir(parents=True, exist_ok=True)
    for stem, preset, options, deals in PRESETS if "simulate" in ONLY else []:
        rules = zhipai.rules(preset, **options)
        agg = zhipai.simulate(rules, deals, seed=1, aggregate_only=True, progress=False)
        save(agg.plot(), f"simulate_{stem}_aggregate")
        rows = zhipai.simulate(rules, deals // 10, seed=1, progress=False)
        save(rows.plot(), f"simulate_{stem}_rows")
    if "evaluate" in ONLY:
        evaluations()
    if "compare" in ONLY:
        comparisons()


def evaluations() -> None:
    dealer = zhipai.evaluate("tractor", 0, TRACTOR_HAND, level="5", trump="S", dealer=0, samples=20_000, seed=1,
                             candidates=["3C", "AS", "KH KH"], progress=False)
    save(dealer.plot(), "evaluate_tractor_dealer_lead")
    attacker = zhipai.evaluate("tractor", 1, TRACTOR_HAND, level="5", trump="S", dealer=0, samples=20_000, seed=1,
                               progress=False)
    save(attacker.plot(), "evaluate_tractor_attacker")
    pig = zhipai.evaluate("gongzhu", 0, HIGH_SPADES, candidates=["", "QS"], samples=20_000, seed=1, progress=False)
    save(pig.plot(), "evaluate_gongzhu_expose_pig")
    bh = zhipai.evaluate("baohuang", 0, MONSTER, candidates=["ascend 9C", "grab", "abdicate"], samples=5_000, seed=1,
                         policy="greedy", progress=False)
    save(bh.plot(), "evaluate_baohuang_accession")


def comparisons() -> None:
    kitty = zhipai.compare("tractor", [{"kitty_multiplier": "twice_largest_unit"},
                                       {"kitty_multiplier": "twice_lead_cards"}], deals=200_000, seed=1, progress=False)
    save(kitty.plot(), "compare_tractor_kitty_multiplier")
    chaodi = zhipai.compare("tractor", [{"chaodi": False}, {"chaodi": True}], deals=200_000, seed=1, progress=False)
    save(chaodi.plot(), "compare_tractor_chaodi")


if __name__ == "__main__":
    main()
