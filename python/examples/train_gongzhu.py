"""Train a Gongzhu agent with zhipai.VectorEnv by Deep Monte Carlo, numpy only, and measure it
with zhipai.arena against "random" and "greedy".

    python python/examples/train_gongzhu.py                 # README "Environments", the figures
    python python/examples/train_gongzhu.py --deals 4000 --eval-deals 100   # a quick run

The agent is a small MLP Q(s, m) over a state summary s (the seat's hand, the cards of the trick in
progress, every card taken so far, every card exposed: 4 x 54 counts) and a move m (its 54 card
counts: "move" action style, `info["move_features"]`). Deep Monte Carlo (as DouZero): self-play
with every seat controlled, epsilon-greedy over the listed moves; when a deal ends, each decision
of a seat is regressed on that seat's return (scaled by 1/1000) — no bootstrapping.

For the arena the agent is a plain Python policy f(observation, legal_moves): the same summary is
rebuilt from the observation dict and the move text (checked against the tensors at start-up).
"""

from __future__ import annotations

import argparse
import time

import numpy as np
import zhipai

K = 54
SCALE = 1000.0  # Gongzhu returns are points in the hundreds / thousands


def counts(cards: str) -> np.ndarray:
    out = np.zeros(K, np.float32)
    if cards.strip():
        np.add.at(out, zhipai.cards_to_array(cards), 1.0)
    return out


# ----------------------------------------------------------------- features


def fields(preset: str) -> dict[str, tuple[int, int]]:
    return {name: (off, n) for name, off, n, _ in zhipai.envs.observation_layout(preset)}


def summary_from_tensor(obs: np.ndarray, f: dict[str, tuple[int, int]]) -> np.ndarray:
    """(..., 4*54) from observation tensors (..., L): hand, trick, taken, exposed."""

    def plane(name: str) -> np.ndarray:
        off, n = f[name]
        x = obs[..., off:off + n]
        return x.reshape(*x.shape[:-1], n // K, K).sum(axis=-2)

    return np.concatenate([plane("hand"), plane("current_trick"), plane("taken"), plane("exposed")], axis=-1)


def summary_from_dict(o: dict) -> np.ndarray:
    trick = sum((counts(c) for _, c in o["current_trick"]), np.zeros(K, np.float32))
    taken = sum((counts(c) for c in o["taken"]), np.zeros(K, np.float32))
    exposed = sum((counts(c) for c in o["exposed"]), np.zeros(K, np.float32))
    return np.concatenate([counts(o["hand"]), trick, taken, exposed])


def move_counts(text: str) -> np.ndarray:
    t = text.strip()
    if t == "end exposure":
        return np.zeros(K, np.float32)
    for prefix in ("expose closed ", "expose "):
        if t.startswith(prefix):
            t = t[len(prefix):]
    return counts(t)


# ----------------------------------------------------------------- the model


class MLP:
    """Q(x) = w2 . relu(W1 x + b1) + b2, trained with Adam on squared error."""

    def __init__(self, n_in: int, hidden: int, rng: np.random.Generator) -> None:
        self.p = {
            "W1": (rng.standard_normal((n_in, hidden)) * np.sqrt(2.0 / n_in)).astype(np.float32),
            "b1": np.zeros(hidden, np.float32),
            "w2": (rng.standard_normal(hidden) * np.sqrt(1.0 / hidden)).astype(np.float32),
            "b2": np.zeros(1, np.float32),
        }
        self.m = {k: np.zeros_like(v) for k, v in self.p.items()}
        self.v = {k: np.zeros_like(v) for k, v in self.p.items()}
        self.t = 0

    def __call__(self, x: np.ndarray) -> np.ndarray:
        h = np.maximum(x @ self.p["W1"] + self.p["b1"], 0.0)
        return h @ self.p["w2"] + self.p["b2"][0]

    def train(self, x: np.ndarray, y: np.ndarray, lr: float = 1e-3) -> float:
        h_pre = x @ self.p["W1"] + self.p["b1"]
        h = np.maximum(h_pre, 0.0)
        q = h @ self.p["w2"] + self.p["b2"][0]
        err = q - y
        g_q = 2.0 * err / len(y)
        grads = {"w2": h.T @ g_q, "b2": np.array([g_q.sum()], np.float32)}
        g_h = np.outer(g_q, self.p["w2"]) * (h_pre > 0)
        grads["W1"] = x.T @ g_h
        grads["b1"] = g_h.sum(axis=0)
        self.t += 1
        for k, g in grads.items():
            self.m[k] = 0.9 * self.m[k] + 0.1 * g
            self.v[k] = 0.999 * self.v[k] + 0.001 * g * g
            mh = self.m[k] / (1 - 0.9**self.t)
            vh = self.v[k] / (1 - 0.999**self.t)
            self.p[k] -= (lr * mh / (np.sqrt(vh) + 1e-8)).astype(np.float32)
        return float((err**2).mean())


# ----------------------------------------------------------------- training


def train(deals: int, envs: int, seed: int, threads: int, epsilon: float) -> MLP:
    preset = "gongzhu"
    f = fields(preset)
    rng = np.random.default_rng(seed)
    model = MLP(5 * K, 128, rng)
    env = zhipai.VectorEnv(preset, envs, seed, controlled_seats=[0, 1, 2, 3], opponents="random", threads=threads,
                           action_style="moves", max_moves=16)
    obs, mask, info = env.reset()
    # Per env and seat: the inputs of its decisions in the current deal.
    pending: list[list[list[np.ndarray]]] = [[[] for _ in range(4)] for _ in range(envs)]
    xs: list[np.ndarray] = []
    ys: list[float] = []
    done = 0
    t0 = time.perf_counter()
    while done < deals:
        s = summary_from_tensor(obs, f)  # (envs, 216)
        mf = info["move_features"].astype(np.float32)  # (envs, 16, 54)
        x = np.concatenate([np.broadcast_to(s[:, None, :], (*mf.shape[:2], s.shape[1])), mf], axis=-1)
        q = model(x)
        q[~mask] = -np.inf
        actions = q.argmax(axis=1)
        explore = rng.random(envs) < epsilon
        n = np.maximum(info["num_moves"], 1)
        actions[explore] = (rng.random(int(explore.sum())) * n[explore]).astype(np.int64)
        seats = info["seat"].copy()
        # Rows with listed moves are decisions (a deal's last row lists none).
        for i in np.flatnonzero(info["num_moves"] > 0):
            pending[i][seats[i]].append(x[i, actions[i]])
        obs, rewards, terminated, truncated, mask, info = env.step(actions)
        for i in np.flatnonzero(terminated):
            for seat in range(4):
                for row in pending[i][seat]:
                    xs.append(row)
                    ys.append(rewards[i, seat] / SCALE)
                pending[i][seat] = []
            done += 1
        if len(ys) >= 8192:
            X, Y = np.stack(xs), np.asarray(ys, np.float32)
            order = rng.permutation(len(Y))
            for b in range(0, len(Y), 256):
                model.train(X[order[b:b + 256]], Y[order[b:b + 256]])
            xs, ys = [], []
    print(f"trained on {done} self-play deals in {time.perf_counter() - t0:.1f} s")
    return model


def policy(model: MLP):
    def play(observation: dict, legal_moves: list[str]) -> str:
        s = summary_from_dict(observation)
        x = np.stack([np.concatenate([s, move_counts(m)]) for m in legal_moves])
        return legal_moves[int(np.argmax(model(x)))]

    play.__name__ = "dmc_agent"
    return play


def check_features() -> None:
    """The dict-built summary equals the tensor-built one, and move text gives move_features."""
    f = fields("gongzhu")
    s = zhipai.Game("gongzhu").new_deal(seed=3, index=0)
    rng = np.random.default_rng(0)
    while not s.is_terminal():
        seat = s.current_player()
        a = summary_from_tensor(s.observation_tensor(seat), f)
        b = summary_from_dict(s.observation(seat))
        assert np.array_equal(a, b), "summary mismatch"
        moves = s.legal_moves(limit=16)
        mf = s.legal_move_features(limit=16)
        assert np.array_equal(mf, np.stack([move_counts(m) for m in moves])), "move features mismatch"
        s.apply_move_index(int(rng.integers(len(moves))), limit=16)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--deals", type=int, default=30_000, help="self-play deals to train on")
    ap.add_argument("--envs", type=int, default=256)
    ap.add_argument("--threads", type=int, default=2)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--epsilon", type=float, default=0.1)
    ap.add_argument("--eval-deals", type=int, default=300)
    args = ap.parse_args()
    t0 = time.perf_counter()
    check_features()
    model = train(args.deals, args.envs, args.seed, args.threads, args.epsilon)
    agent = policy(model)
    # Evaluation deals (seed 12345) are not training deals (seed args.seed).
    for other in ["random", "greedy"]:
        res = zhipai.arena("gongzhu", [agent, other], deals=args.eval_deals, seed=12345, progress=False)
        pair = res.pairs[0]
        print(f"agent - {other}: mean return difference {pair.mean_diff:+.1f} points per deal, "
              f"95% CI [{pair.ci95[0]:+.1f}, {pair.ci95[1]:+.1f}] over {args.eval_deals} duplicate deals")
    print(f"wall time {time.perf_counter() - t0:.0f} s")


if __name__ == "__main__":
    main()
