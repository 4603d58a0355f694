"""The worked example python/examples/train_gongzhu.py: its features agree between the
observation tensor and the observation dict (what lets the trained agent play in zhipai.arena as
a plain Python policy), and a tiny training run yields a policy that plays legal moves."""

from __future__ import annotations

import importlib.util
from pathlib import Path

import numpy as np
import zhipai

PATH = Path(__file__).resolve().parents[1] / "python" / "examples" / "train_gongzhu.py"


def load():
    spec = importlib.util.spec_from_file_location("train_gongzhu", PATH)
    assert spec is not None and spec.loader is not None
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def test_features_from_the_tensor_and_from_the_dict_agree() -> None:
    mod = load()
    mod.check_features()  # asserts inside, over a whole random deal
    s = zhipai.Game("gongzhu").new_deal(seed=5, index=2)
    x = mod.summary_from_dict(s.observation(s.current_player()))
    assert x.shape == (4 * 54,) and x[:54].sum() == 13  # the 13-card hand


def test_a_tiny_training_run_gives_a_legal_policy() -> None:
    mod = load()
    model = mod.train(deals=40, envs=8, seed=2, threads=1, epsilon=0.2)
    agent = mod.policy(model)
    res = zhipai.arena("gongzhu", [agent, "random"], deals=3, seed=1, progress=False)
    assert np.isfinite(res.pairs[0].mean_diff)
