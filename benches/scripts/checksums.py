"""Checksums of simulate rows per preset/options/policy: proof that random streams are unchanged.

Usage: ``python benches/scripts/checksums.py OUT.json [POLICY:DEALS ...]`` (default
``random:3000 greedy:500``); compare the OUT.json files of two commits. A checksum is the sha256
of every column of the rows (seed 5, 2 threads).
"""

import hashlib
import json
import sys
from pathlib import Path

import numpy as np
import zhipai

CONFIGS = [
    ("tractor", {"decks": 1}), ("tractor", {"decks": 2}), ("tractor", {"decks": 3}),
    ("tractor", {"chaodi": True, "throw_fail_penalty": "structured"}),
    ("tractor_jj", {}), ("eighty_points", {"decks": 1}), ("eighty_points", {"decks": 2}),
    ("eighty_points", {"decks": 3}), ("hong_wu", {}), ("gongzhu", {"decks": 1}),
    ("gongzhu", {"decks": 2}), ("gongzhu", {"partnership": True}), ("baohuang", {}),
    ("baohuang", {"tribute_between_deals": "on", "bombs": "on"}),
]


def digest(res: zhipai.SimResult) -> str:
    h = hashlib.sha256()
    for c in res.columns:
        h.update(c.encode())
        h.update(np.ascontiguousarray(res[c]).astype("<i8").tobytes())
    return h.hexdigest()[:16]


def main() -> None:
    runs = [(p, int(n)) for p, n in (a.split(":") for a in sys.argv[2:])] or [("random", 3000), ("greedy", 500)]
    out = {}
    for preset, opts in CONFIGS:
        r = zhipai.rules(preset, **opts)
        for policy, n in runs:
            res = zhipai.simulate(r, n, policy=policy, seed=5, threads=2, progress=False)
            key = f"{preset} {json.dumps(opts, sort_keys=True)} {policy} {n}"
            out[key] = digest(res)
            print(key, out[key], flush=True)
    Path(sys.argv[1]).write_text(json.dumps(out, indent=1))


if __name__ == "__main__":
    main()
