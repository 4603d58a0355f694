"""Wall time of zhipai.simulate on a local Ray cluster vs the local backend (BENCHMARKS.md,
"Ray backend vs local"). Usage: python benches/scripts/ray_overhead.py [DEALS] [REPEATS]

Starts Ray with 2 CPUs (start-up reported, not counted), warms the workers with one small run,
then alternates local (threads=2) and Ray (default chunk_deals) runs of DEALS random Tractor
deals, seed 1, in aggregate mode, then one pair in rows mode, checking the results are equal.
"""

import sys
import time

import numpy as np
import ray

import zhipai

deals = int(sys.argv[1]) if len(sys.argv) > 1 else 1_000_000
repeats = int(sys.argv[2]) if len(sys.argv) > 2 else 2
t = time.perf_counter()
ray.init(num_cpus=2, include_dashboard=False, logging_level="ERROR", log_to_driver=False)
print(f"ray.init(num_cpus=2): {time.perf_counter() - t:.1f} s", flush=True)
zhipai.simulate("tractor", 1000, seed=1, backend="ray", chunk_deals=500, progress=False)


def timed(**kw):
    t = time.perf_counter()
    r = zhipai.simulate("tractor", deals, seed=1, progress=False, **kw)
    return r, time.perf_counter() - t


for agg, n in ((True, repeats), (False, 1)):
    for _ in range(n):
        a, tl = timed(threads=2, aggregate_only=agg)
        b, tr = timed(backend="ray", aggregate_only=agg)
        same = all(a.stats(c) == b.stats(c) if agg else np.array_equal(a[c], b[c]) for c in a.columns)
        print(f"aggregate_only={agg}: local {tl:.2f} s, ray {tr:.2f} s, "
              f"overhead {100 * (tr / tl - 1):+.1f} %, identical={same}", flush=True)
