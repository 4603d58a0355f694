"""Issue 15: hypothesis over every public entry point of ``zhipai``.

Each entry point (the table ``ENTRIES`` below: ``zhipai.__all__``, the game modules' ``__all__``,
the methods of ``Game``, ``GameState``, ``Rules``, ``Card``, ``SimResult``, ``Evaluation``,
``shengji.Mechanics`` / ``Match``, ``hongwu.HongWuAuction`` / ``HongWuOrder``, and the CLI
``main([...])``) is called with arguments drawn from strategies that mix good values with bad
ones: wrong types, ``None``, huge and negative ints, floats (nan, inf), numpy ints and bools,
long strings, nested containers, bad card text. The contract checked for every call:

* it **returns**, or
* it raises a :class:`zhipai.ZhipaiError` whose message **names** a value. Concretely, one of
  these appears in the message (``mentions()``): the ``str`` or ``repr`` of an argument, cut to
  its first 30 characters (messages cut long values at 80); for a string also each of its
  whitespace-separated tokens and its Rust-escaped form (``\\u{1f}``), and for an empty or blank
  string only a quoted form (``''``, ``""``) — an unquoted empty value names nothing; for a
  number its decimal form; for a list, tuple, set, dict (keys and values), bytes, range, numpy
  array or iterator the same for each item (three levels deep) and the ``repr`` of the items as
  a list; for JSON text what it holds, and the field names of a deal record (a missing field is
  named by its name); for another object its type name; for a ``Rules`` its preset, for a ``GameState`` its
  phase and preset; a keyword's name. A method refused because of its object's state rather
  than its arguments may name the method or that state instead (a deal's phase or game, ``over``
  for a finished deal, ``aggregate_only``). An error caused by a callable we passed (a policy or
  progress callback raising) names it through its ``__cause__`` chain;
* never a plain Python exception (``TypeError``, ``KeyError``, ``OverflowError``, ...), never a
  Rust panic (``pyo3_runtime.PanicException``), never a hang (a watchdog ends the run with a
  traceback after ``ZHIPAI_FUZZ_CALL_TIMEOUT`` seconds, default 120, for one call).

The CLI is held to its own contract: ``main(argv)`` returns a status, or argparse exits
(``SystemExit``) with status 0 (``--help``) or 2; on status 2 the last line of stderr is an
``error:`` line naming one of the argv tokens (argparse's own "required", "invalid choice" and
"expected one argument" lines name the option instead).

Not called: the exception classes and the result dataclasses (``Format``, ``ThrowCheck``,
``DealScore``, ``Deal``), which only hold values; the constructors of ``SimResult`` and
``Evaluation``, which wrap the engine's raw output for ``simulate``, ``evaluate`` and
``SimResult.load`` (their methods are called); unknown keyword names and wrong numbers of
positional arguments (Python's own ``TypeError``, before zhipai runs) except where a function
takes ``**options``; ``backend="ray"`` and ``--backend ray`` (they start a cluster). Sizes stay small (a few deals or
samples) so each call is fast.

Budget: ``ZHIPAI_FUZZ_PROFILE`` = ``ci`` (default: about 40 s on two shared cores), ``dev`` or
``long`` (a local run of more than 50,000 calls); ``ZHIPAI_FUZZ_EXAMPLES`` overrides the examples
per entry point. The number of calls is printed at the end (``-s``) and written to
``ZHIPAI_FUZZ_COUNT_FILE`` when set.
"""

from __future__ import annotations

import contextlib
import faulthandler
import io
import json
import os
import sys
import tempfile
import unicodedata
from collections import Counter
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np
import pytest
import zhipai
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from zhipai import baohuang, gongzhu, hongwu, shengji
from zhipai.cli import main

PROFILES = {"ci": 12, "dev": 60, "long": 500}
PROFILE = os.environ.get("ZHIPAI_FUZZ_PROFILE", "ci")
EXAMPLES = int(os.environ.get("ZHIPAI_FUZZ_EXAMPLES", PROFILES.get(PROFILE, 12)))
CALL_TIMEOUT = float(os.environ.get("ZHIPAI_FUZZ_CALL_TIMEOUT", "120"))
CALLS: Counter[str] = Counter()

TMP = Path(tempfile.mkdtemp(prefix="zhipai-fuzz-"))

# ------------------------------------------------------------------ values

RANKS = ["2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A"]
SUITS = ["S", "H", "D", "C"]
TOKENS = [r + s for s in SUITS for r in RANKS] + ["SJ", "BJ"]
PRESETS = ["tractor", "tractor_jj", "eighty_points", "hong_wu", "gongzhu", "baohuang"]
SHENGJI_PRESETS = ["tractor", "tractor_jj", "eighty_points"]


class Boom(Exception):
    """What our own callbacks raise: a ZhipaiError chained to it names it."""


BAD_MOVE = "zz-not-a-move"


def _raise(*_: Any) -> Any:
    raise Boom("callback failed")


class OneShot:
    """An iterator over known items (a generator's one pass, with items a message may name)."""

    def __init__(self, items: list[Any]) -> None:
        self.items = list(items)
        self._it = iter(self.items)

    def __iter__(self) -> OneShot:
        return self

    def __next__(self) -> Any:
        return next(self._it)


BAD_CARD_TEXT = st.sampled_from([
    "XX", "10Z", "1H", "11H", "0S", "AS,KS", "A S", "S", "JJ", "ASKS", "\x00", "🂡", "♠", "AS " * 3000,
    "BJ BJ BJ BJ BJ", "2S 2S 2S 2S 2S", "play", "bid 60", "pass", "Ａ♠", "-1", "None", "nan",
])
LONG_STRINGS = st.sampled_from(["x" * 10_000, "é" * 500, "AS " * 2000, "\n" * 100, " " * 1000])
NUMPY = st.sampled_from([
    np.int64(3), np.int8(-1), np.uint8(200), np.uint64(2**64 - 1), np.int32(-5), np.bool_(True),
    np.bool_(False), np.float64(2.0), np.float32(float("nan")), np.array([1, 2]), np.array(3),
    np.int64(-(2**63)), np.str_("AS"),
])
HUGE = st.sampled_from([-1, -(2**63) - 1, 2**63, 2**64, 2**64 + 1, 2**100, -(2**100), 10**30])
NESTED = st.recursive(
    st.none() | st.integers(-3, 3) | st.text(max_size=3) | st.sampled_from(TOKENS),
    lambda c: st.lists(c, max_size=3) | st.tuples(c, c) | st.dictionaries(st.text(max_size=2) | st.integers(-1, 5), c, max_size=2),
    max_leaves=6,
)
ODD = st.sampled_from([object(), Ellipsis, int, print, b"AS", bytearray(b"2S"), complex(1, 2), frozenset({1}), {1, 2}, range(3)])
#: Bad values for any parameter.
BAD = st.one_of(
    st.none(), st.booleans(), st.integers(-10, 10), HUGE, st.floats(), NUMPY, st.text(max_size=12),
    LONG_STRINGS, BAD_CARD_TEXT, st.binary(max_size=6), NESTED, ODD,
    st.lists(st.one_of(st.integers(-2, 60), st.sampled_from(TOKENS), st.none()), max_size=3).map(OneShot),
)


def mix(good: st.SearchStrategy[Any], bad: st.SearchStrategy[Any] = BAD) -> st.SearchStrategy[Any]:
    """Mostly good values (3 in 4), else bad ones."""
    return st.one_of(good, good, good, bad)


def cards(max_size: int = 8) -> st.SearchStrategy[str]:
    return st.lists(st.sampled_from(TOKENS), max_size=max_size).map(" ".join)


def card_list(max_size: int = 6) -> st.SearchStrategy[Any]:
    """Cards as text, a list of card strings or a list of ``Card``."""
    toks = st.lists(st.sampled_from(TOKENS), max_size=max_size)
    return st.one_of(toks.map(" ".join), toks, toks.map(lambda t: [zhipai.Card(x) for x in t]))


def ints(lo: int, hi: int) -> st.SearchStrategy[Any]:
    # numpy ints of the range: int64 where it fits, else uint64 (2**63 and up).
    return st.one_of(st.integers(lo, hi), st.integers(lo, hi).map(lambda v: np.int64(v) if v < 2**63 else np.uint64(v)))


#: Counts (deals, samples): good are small; bad never valid-and-large (that would just run long).
COUNT_BAD = st.one_of(
    st.sampled_from([0, -1, -(2**63), 2**63, 2**64, 2**100, 1.5, float("nan"), "3", None, True, np.bool_(True), np.float64(3.0)]),
    st.text(max_size=4), NESTED,
)
COUNT = mix(ints(1, 6), COUNT_BAD)
SEAT = mix(ints(0, 4))
SEED = mix(st.one_of(st.integers(0, 2**64 - 1), st.none()))
LEVEL = mix(st.sampled_from([*RANKS, "NT", "T", "a", " 5 "]))
TRUMP = mix(st.sampled_from([*SUITS, "NT", "h"]))
POLICY_NAME = mix(st.sampled_from(["random", "greedy"]))
PLAYER_NAME = mix(st.sampled_from(["random", " Greedy ", "basic", "pimc", "pimc(worlds=8, rollout=random)",
                                   "ismcts(iterations=50)", "pimc(worlds=0)", "pimc(x=1)", "ismcts(iterations=-1)",
                                   "pimc(", "mcts"]))
FLAG = mix(st.one_of(st.booleans(), st.sampled_from([np.bool_(True), np.bool_(False)])))
THREADS = mix(st.one_of(st.none(), st.integers(1, 2)))
PROGRESS = mix(st.sampled_from([None, False, True, lambda done, total: None]),
               st.one_of(BAD, st.just(_raise)))


@dataclass(frozen=True)
class _Fixtures:
    rules: list[zhipai.Rules]
    states: dict[str, list[zhipai.GameState]]
    hands: dict[str, list[str]]


def _build_fixtures() -> _Fixtures:
    rules = [zhipai.rules(p) for p in PRESETS] + [
        zhipai.rules("tractor", decks=3), zhipai.rules("tractor", chaodi=True),
        zhipai.rules("eighty_points", decks=1), zhipai.rules("gongzhu", decks=2),
        zhipai.rules("hong_wu", base_score_k=1000), zhipai.rules("baohuang", bombs="on"),
    ]
    states: dict[str, list[zhipai.GameState]] = {}
    hands: dict[str, list[str]] = {}
    for p in PRESETS:
        g = zhipai.Game(p)
        out = []
        for seed, steps in [(1, 0), (2, 5), (3, 120), (4, 10**6)]:
            s = g.new_deal(seed=seed)
            k = 0
            while not s.is_terminal() and k < steps:
                s.apply_builtin("random")
                k += 1
            out.append(s)
        # In the play, during a lead being built card by card.
        s = g.new_deal(seed=5)
        while not s.is_terminal() and s.phase != "play":
            s.apply_builtin("random")
        out.append(s)
        states[p] = out
        if p in SHENGJI_PRESETS:  # (dealt card by card: the full hands of zhipai.deal)
            hands[p] = [" ".join(map(str, h)) for seed in (1, 2) for h in zhipai.deal(2, seed=seed).hands]
        else:
            hands[p] = [str(s.observation(i)["hand"]) for s in out[:1] for i in range(s.num_players)]
    return _Fixtures(rules, states, hands)


FIX = _build_fixtures()
RULES_GOOD = st.one_of(st.sampled_from(FIX.rules), st.sampled_from(PRESETS))
RULES = mix(RULES_GOOD)
RULES_OR_NONE = mix(st.one_of(st.none(), st.sampled_from(FIX.rules)))
ALL_STATES = [s for ss in FIX.states.values() for s in ss]
STATE = st.sampled_from(ALL_STATES).map(lambda s: s.clone())
SHENGJI_STATE = st.sampled_from([s for p in SHENGJI_PRESETS for s in FIX.states[p]]).map(lambda s: s.clone())
HAND = {p: mix(st.sampled_from(h) | cards(12)) for p, h in FIX.hands.items()}


def _sim(preset: str) -> zhipai.SimResult:
    return zhipai.simulate(preset, 6, seed=1, progress=False)


SIMS = {p: _sim(p) for p in ["tractor", "hong_wu", "gongzhu", "baohuang"]}
SIMS["tractor_agg"] = zhipai.simulate("tractor", 6, seed=2, progress=False, aggregate_only=True)
EVALS = [
    zhipai.evaluate("tractor", 0, FIX.hands["tractor"][0], samples=4, seed=1, progress=False,
                    candidates=["", None]),
    zhipai.evaluate("gongzhu", 1, FIX.hands["gongzhu"][1], samples=4, seed=1, progress=False),
]
COLUMNS = sorted({c for r in SIMS.values() for c in r} | {"seat_return", "levels"})
COLUMN = mix(st.sampled_from(COLUMNS))


def _policy_fn(kind: str) -> Callable[[dict, list], str]:
    if kind == "first":
        return lambda obs, moves: moves[0]
    if kind == "bad":
        return lambda obs, moves: BAD_MOVE
    return _raise


POLICIES = mix(st.one_of(
    st.sampled_from(["random", "greedy"]),
    st.sampled_from(["first", "bad", "raise"]).map(_policy_fn),
    st.lists(st.sampled_from(["random", "greedy"]), min_size=4, max_size=5),
    st.just({0: "greedy", "others": "random"}),
))

# ------------------------------------------------------------------ the contract


def rust_debug(text: str, only_controls: bool = False) -> str:
    """``text`` as Rust's ``{:?}`` / ``escape_debug`` writes it (without the quotes); with
    ``only_controls``, escaping only control characters (Rust's Unicode tables may be newer than
    Python's: a character Python calls unassigned may print in Rust)."""
    out = []
    for ch in text:
        if ch in "\\\"":
            out.append("\\" + ch)
        elif ch in "\t\r\n":
            out.append({"\t": "\\t", "\r": "\\r", "\n": "\\n"}[ch])
        elif ch == "\0":
            out.append("\\0")
        elif unicodedata.category(ch) == "Cc" or not only_controls and (
                unicodedata.category(ch) in ("Cf", "Cs", "Co", "Cn", "Zl", "Zp")
                or unicodedata.category(ch) == "Zs" and ch != " "):
            out.append(f"\\u{{{ord(ch):x}}}")
        else:
            out.append(ch)
    return "".join(out)


CUT = 30
RECORD_FIELDS = {"format", "version", "preset", "options", "origin", "moves", "pending", "search_word_pos", "phase",
                 "result"}
PRIMITIVE = (str, bytes, int, float, bool, type(None), np.integer, np.floating, np.bool_)


def mentions(value: Any, depth: int = 0) -> set[str]:
    """What naming ``value`` may look like in a message (see the module docs)."""
    out: set[str] = set()
    for f in (str, repr):
        try:
            t = f(value)
        except Exception:
            continue
        if t:
            out.add(t[:CUT])
    if isinstance(value, str):
        if not value.strip():  # an empty or blank value is named only when quoted (blank card
            # text reads as no cards, which a message may quote as "")
            return {repr(value)[:CUT], json.dumps(value)[:CUT], f"'{rust_debug(value)}'"[:CUT], '""'}
        out.update(tok[:CUT] for tok in value.split())
        if len(value) > 1000:  # an oversize value is named by its size
            out.add(f"{len(value.encode())} bytes")
        if depth == 0 and value[:1] in "{[" and len(value) < 1_000_000:
            with contextlib.suppress(ValueError, RecursionError):  # JSON text: what it holds
                out |= mentions(json.loads(value), depth + 1)
            out |= RECORD_FIELDS  # (a field a deal record lacks is named by its name)
        out.update(rust_debug(tok, c)[:CUT] for tok in [value, *value.split()] for c in (False, True))
    elif isinstance(value, (bool, np.bool_)):
        out.update({str(bool(value)), str(bool(value)).lower()})
    elif isinstance(value, (int, np.integer)):
        out.add(str(int(value))[:CUT])
    elif isinstance(value, (float, np.floating)):
        out.add(str(float(value)))
    elif not isinstance(value, PRIMITIVE):
        out.add(type(value).__name__)
    if isinstance(value, zhipai.Rules):
        out.add(value.preset)
    if isinstance(value, zhipai.GameState):  # a deal refused for its state: its phase or game
        out.update({value.phase, value.rules.preset})
    if isinstance(value, (Mapping, list, tuple)) and not value:  # an empty container, as text
        out.update({"[]", "{}", "()"})
    if depth < 5:  # (a deal record's option values sit 3 levels down: record, rules, options)
        items: list[Any] = []
        if isinstance(value, Mapping):
            items = [x for kv in list(value.items())[:50] for x in kv]
        elif isinstance(value, (list, tuple, set, frozenset, bytes, bytearray, range, np.ndarray)):
            items = list(value)[:20] if not isinstance(value, np.ndarray) or value.ndim else []
            out.add(repr(list(value) if not isinstance(value, np.ndarray) else value.tolist())[:CUT])
        elif isinstance(value, OneShot):
            items = value.items[:20]
            out.add(repr(value.items)[:CUT])
        for v in items:
            out |= mentions(v, depth + 1)
    out.discard("")
    return out


def state_mentions(target: Any, method: str) -> set[str]:
    """A call refused for the object's state (not its arguments) may name the method or the
    state: a deal's phase and preset, ``over`` for a finished deal, ``aggregate_only``."""
    out = {method} if method else set()
    if isinstance(target, zhipai.GameState):
        out |= {target.phase, target.rules.preset}
        if target.is_terminal():
            out.add("over")
    if isinstance(target, zhipai.SimResult):
        out.add("aggregate_only")
    return out


def _causes(e: BaseException) -> list[BaseException]:
    out = []
    while e is not None and len(out) < 10:
        out.append(e)
        e = e.__cause__ or e.__context__
    return out


def names_a_value(e: BaseException, args: tuple, kwargs: dict, also: set[str] = frozenset()) -> bool:
    if any(isinstance(c, Boom) for c in _causes(e)):
        return True
    msg = str(e)
    values = [*args, *kwargs.values(), BAD_MOVE]
    if any(m in msg for v in values for m in mentions(v)):
        return True
    low = msg.lower()  # names of the call or the state may be capitalised ("the Exposure phase")
    return any(m.lower() in low for m in also | set(kwargs))


def _short(args: tuple, kwargs: dict) -> str:
    parts = [repr(a)[:60] for a in args] + [f"{k}={v!r}"[:60] for k, v in kwargs.items()]
    return ", ".join(parts)


def check_call(name: str, fn: Callable[..., Any], args: tuple = (), kwargs: dict | None = None,
               target: Any = None) -> Any:
    """Call ``fn`` and hold it to the contract (module docs)."""
    kwargs = kwargs or {}
    CALLS[name] += 1
    faulthandler.dump_traceback_later(CALL_TIMEOUT, exit=True)
    try:
        return fn(*args, **kwargs)
    except zhipai.ZhipaiError as e:
        if isinstance(e, KeyboardInterrupt):  # SimulationInterrupted is only Ctrl-C
            raise
        also = state_mentions(target, name.rsplit(".", 1)[-1]) if target is not None else set()
        assert names_a_value(e, args, kwargs, also), (
            f"{name}({_short(args, kwargs)}) raised {type(e).__name__} naming no value: {e}")
        return e
    except (KeyboardInterrupt, SystemExit):
        raise
    except BaseException as e:  # a plain exception, or a Rust panic (PanicException)
        raise AssertionError(
            f"{name}({_short(args, kwargs)}) raised a plain {type(e).__module__}.{type(e).__name__}: {e}"
        ) from e
    finally:
        faulthandler.cancel_dump_traceback_later()


# ------------------------------------------------------------------ the entry points


@dataclass
class Entry:
    """One entry point: ``call(target, *args, **kwargs)`` where ``target`` is drawn from
    ``target`` (an object for methods), ``args`` from ``args(target)`` and each keyword from
    ``kwargs`` (each present or not)."""

    name: str
    call: Callable[..., Any]
    args: Callable[[Any], st.SearchStrategy[tuple]] = lambda _t: st.just(())
    kwargs: Mapping[str, st.SearchStrategy[Any]] = field(default_factory=dict)
    target: st.SearchStrategy[Any] = st.none()
    weight: float = 1.0
    required: Mapping[str, st.SearchStrategy[Any]] = field(default_factory=dict)


def fn(name: str, f: Callable[..., Any], *pos: st.SearchStrategy[Any], weight: float = 1.0,
       **kw: st.SearchStrategy[Any]) -> Entry:
    """A function: positional strategies (a trailing run of them may be left out when they
    have defaults — draw it as given) and optional keywords."""
    return Entry(name, lambda _t, *a, **k: f(*a, **k), lambda _t: st.tuples(*pos), kw, weight=weight)


def method(name: str, target: st.SearchStrategy[Any], attr: str,
           args: Callable[[Any], st.SearchStrategy[tuple]] | None = None, weight: float = 1.0,
           **kw: st.SearchStrategy[Any]) -> Entry:
    return Entry(name, lambda t, *a, **k: getattr(t, attr)(*a, **k), args or (lambda _t: st.just(())), kw,
                 target=target, weight=weight)


def legal_or_bad_move(s: zhipai.GameState) -> st.SearchStrategy[tuple]:
    good = st.sampled_from(s.legal_moves(limit=30) or ["pass"])
    spelled = good.map(lambda m: "  " + m.upper() + " ")
    return st.tuples(mix(st.one_of(good, spelled, cards(3), cards(3).map(lambda c: "play " + c))))


def action(s: zhipai.GameState) -> st.SearchStrategy[tuple]:
    legal = s.legal_actions() or [0]
    return st.tuples(mix(st.one_of(st.sampled_from(legal), st.integers(0, s.num_distinct_actions + 2))))


def action_name(s: zhipai.GameState) -> st.SearchStrategy[tuple]:
    names = [s.action_to_string(a) for a in range(min(s.num_distinct_actions, 200))]
    return st.tuples(mix(st.sampled_from(names)))


def rule_options() -> st.SearchStrategy[dict]:
    listing = {o["name"]: o for p in zhipai.presets() for o in p["options"]}
    good_value = st.sampled_from(sorted(listing)).flatmap(lambda n: st.tuples(st.just(n), st.one_of(
        st.sampled_from(listing[n]["choices"] or [listing[n]["value"]]),
        st.booleans(), st.integers(0, 300), st.sampled_from(RANKS).map(lambda r: [r]))))
    pair = st.one_of(good_value, good_value, st.tuples(st.sampled_from(["nope", "Decks", ""]), BAD),
                     st.tuples(st.sampled_from(sorted(listing)), BAD))
    return st.lists(pair, max_size=3).map(dict)


def _tmp(name: str) -> str:
    return str(TMP / name)


PATHS = mix(st.sampled_from([_tmp("r.csv"), _tmp("r.npz"), _tmp("r.parquet")]), st.one_of(
    st.sampled_from([_tmp("r.txt"), _tmp("nodir/r.csv"), str(TMP), "/proc/r.csv", "/dev/null", _tmp("r.csv/x.csv"),
                     "", _tmp("x" * 300 + ".csv")]), BAD))
LOAD_PATHS = mix(st.sampled_from([_tmp("saved.csv"), _tmp("saved.npz")]), st.one_of(
    st.sampled_from([_tmp("nothing.csv"), "/dev/zero", str(TMP), _tmp("junk.csv"), _tmp("junk.npz"), "/etc/passwd"]),
    BAD))
(TMP / "junk.csv").write_text("a,b\n1,2\n")
(TMP / "junk.npz").write_bytes(b"PK\x03\x04 not a zip")
SIMS["tractor"].save(_tmp("saved.csv"))
SIMS["gongzhu"].save(_tmp("saved.npz"))

SIM = st.sampled_from(list(SIMS.values()))
EVAL = st.sampled_from(EVALS)
OTHERS = mix(st.lists(cards(6), min_size=3, max_size=3))


MECHANICS = st.sampled_from([shengji.Mechanics(zhipai.rules(p), lvl, t) for p in ["tractor", "eighty_points"]
                             for lvl in ["2", "5", "A"] for t in ["S", "NT"]]
                            + [shengji.Mechanics(zhipai.rules("tractor", decks=3), "10", "H")])
MATCH = st.sampled_from(SHENGJI_PRESETS).map(lambda p: shengji.Match(zhipai.rules(p), seed=3))
AUCTION = st.integers(0, 3).map(lambda first: hongwu.HongWuAuction(zhipai.rules("hong_wu"), first))
ORDER = st.sampled_from(["S", "H", "D"]).map(lambda t: hongwu.HongWuOrder(zhipai.rules("hong_wu"), t))
GAME = st.sampled_from(PRESETS).map(zhipai.Game)
BID = mix(st.one_of(st.sampled_from(["pass"]), st.integers(12, 40).map(lambda k: 5 * k)))
POINTS = mix(st.integers(0, 40).map(lambda k: 5 * k))
CARDS = mix(cards(8), st.one_of(BAD, BAD_CARD_TEXT))
BH_HAND = mix(st.sampled_from(FIX.hands["baohuang"]) | cards(10))
BH_PLAY = mix(st.one_of(cards(3), st.sampled_from(["9 9", "BJ 9 9", "SJ", "3 3 3", ""])))
GZ_HAND = mix(st.sampled_from(FIX.hands["gongzhu"]) | cards(8))
ARRAY = mix(st.lists(st.integers(0, 2), min_size=54, max_size=54).map(lambda v: np.array(v, dtype=np.uint8)),
            st.one_of(BAD, st.sampled_from([np.zeros(53, np.uint8), np.full(54, 9, np.uint8), np.zeros((2, 54)),
                                            np.full(54, -1, np.int64), np.zeros(54, np.float64), [1] * 54])))
KNOWN = mix(st.one_of(st.none(), st.fixed_dictionaries({}, optional={
    "hands": st.dictionaries(ints(0, 4), cards(3), max_size=2),
    "kitty": cards(2),
    "voids": st.dictionaries(ints(0, 4), st.sampled_from(["S", "H D", "SHDC", "AS"]), max_size=2)})))
#: Candidate texts: pass/policy, and move text (hand evaluation of Hong Wu and Gongzhu).
MOVE_WORDS = ["", "pass", "policy", "bid 60", "expose QS", "end exposure", "play 2S", "bid"]
CANDIDATES = mix(st.one_of(st.none(), st.lists(st.one_of(st.none(), cards(2), st.sampled_from(MOVE_WORDS)),
                                                max_size=3)))
SEAT_CARDS = mix(st.one_of(st.none(), st.dictionaries(ints(0, 4), cards(3), max_size=2),
                           st.lists(st.one_of(st.none(), cards(3)), max_size=5)))
VOIDS = mix(st.one_of(st.none(), st.dictionaries(ints(0, 4), st.sampled_from(["S", "HD", "AS KS", "SHDC"]), max_size=2)))


ENTRIES: list[Entry] = [
    # zhipai
    fn("Card", zhipai.Card, CARDS),
    fn("cards", zhipai.cards, CARDS),
    fn("cards_to_array", zhipai.cards_to_array, mix(card_list(8))),
    fn("cards_from_array", zhipai.cards_from_array, ARRAY),
    fn("presets", zhipai.presets),
    Entry("rules", lambda _t, preset, opts: zhipai.rules(preset, **opts),
          lambda _t: st.tuples(mix(st.sampled_from(PRESETS), st.one_of(BAD, st.sampled_from(["Tractor", "", "gong zhu"]))),
                               rule_options())),
    fn("deal", zhipai.deal, mix(ints(1, 4)), mix(st.one_of(st.none(), ints(1, 6))),
       mix(st.one_of(st.none(), ints(1, 30), st.lists(ints(1, 30), min_size=1, max_size=5))),
       mix(st.one_of(st.none(), ints(0, 10))), SEED,
       jokers=FLAG, fixed=SEAT_CARDS, kitty_cards=mix(st.one_of(st.none(), cards(3))), voids=VOIDS,
       index=mix(ints(0, 2**64 - 1))),
    fn("deal_batch", zhipai.deal_batch, COUNT, mix(ints(1, 4)), mix(st.one_of(st.none(), ints(1, 6))),
       mix(st.none()), mix(st.none()), mix(ints(0, 2**64 - 1)),
       jokers=FLAG, fixed=SEAT_CARDS, voids=VOIDS, start=mix(ints(0, 2**64 - 1))),
    fn("simulate", zhipai.simulate, RULES, COUNT, POLICIES, SEED, THREADS, PROGRESS,
       chunk_size=mix(st.one_of(st.none(), ints(1, 4)), COUNT_BAD), aggregate_only=FLAG,
       first_deal=mix(ints(0, 2**64 - 1)), backend=mix(st.just("local"), st.sampled_from(["Local", "", "dask", None, 1])),
       ray_address=mix(st.none()), chunk_deals=mix(st.none()), weight=2),
    fn("evaluate", zhipai.evaluate, RULES, SEAT, mix(st.sampled_from(sum(FIX.hands.values(), [])) | cards(10)),
       KNOWN, CANDIDATES, COUNT, POLICY_NAME, SEED, THREADS, PROGRESS,
       dealer=mix(st.one_of(st.none(), ints(0, 4))), chunk_size=mix(st.one_of(st.none(), ints(1, 4)), COUNT_BAD),
       level=mix(st.one_of(st.none(), st.sampled_from(RANKS))), trump=mix(st.one_of(st.none(), st.sampled_from(SUITS))),
       weight=2),
    fn("evaluate_position", zhipai.evaluate_position, mix(SHENGJI_STATE | STATE), SEAT, CANDIDATES, COUNT,
       POLICY_NAME, SEED, THREADS, PROGRESS, limit=mix(ints(1, 8)), known=KNOWN, weight=2),
    fn("position_view", zhipai.position_view, mix(SHENGJI_STATE | STATE), SEAT),
    # Game
    fn("Game", zhipai.Game, RULES),
    method("Game.new_deal", GAME, "new_deal", lambda g: st.tuples(SEED, mix(ints(0, 2**64 - 1))),
           hands=mix(st.one_of(st.none(), st.sampled_from([FIX.hands[g][:4] for g in PRESETS]),
                               st.lists(cards(4), max_size=5))),
           kitty=mix(st.one_of(st.none(), cards(8))), level=LEVEL, trump=TRUMP,
           dealer=mix(st.one_of(st.none(), ints(0, 4))),
           previous_places=mix(st.one_of(st.none(), st.permutations([1, 2, 3, 4, 5])))),
    fn("Game.from_json", zhipai.Game.from_json, mix(st.sampled_from([s.to_json() for s in ALL_STATES]).flatmap(
        lambda t: st.one_of(st.just(t), st.integers(0, len(t)).map(lambda k: t[:k]),
                            st.integers(0, max(len(t) - 1, 0)).flatmap(lambda k: st.sampled_from(["0", "}", "[", "\"", "-"]).map(
                                lambda ch: t[:k] + ch + t[k + 1:])))),
        st.one_of(BAD, st.sampled_from(["{}", "[" * 100000 + "]" * 100000, '{"game":"shengji"}', "null", "1e999", "x" * 5_000_000]))),
       weight=2),
    # GameState
    method("GameState.apply", STATE, "apply", legal_or_bad_move, weight=2),
    method("GameState.is_legal", STATE, "is_legal", legal_or_bad_move),
    method("GameState.why_illegal", STATE, "why_illegal", legal_or_bad_move),
    method("GameState.apply_action", STATE, "apply_action", action, weight=2),
    method("GameState.observation_tensor", STATE, "observation_tensor", lambda _s: st.tuples(SEAT),
           perfect=FLAG, out=mix(st.none(), st.sampled_from([np.zeros(3, np.float32), np.zeros(4000, np.float64), [0.0]]))),
    method("GameState.observation_layout", STATE, "observation_layout"),
    method("GameState.legal_move_features", STATE, "legal_move_features",
           lambda _s: st.tuples(mix(st.one_of(st.none(), ints(1, 40))))),
    method("GameState.apply_move_index", STATE, "apply_move_index",
           lambda _s: st.tuples(mix(ints(0, 40)), mix(st.one_of(st.none(), ints(1, 40))))),
    method("GameState.resample", STATE, "resample", lambda _s: st.tuples(SEAT, mix(ints(0, 2**64 - 1)))),
    method("GameState.action_to_string", STATE, "action_to_string", action),
    method("GameState.string_to_action", STATE, "string_to_action", action_name),
    method("GameState.apply_builtin", STATE, "apply_builtin", lambda _s: st.tuples(POLICY_NAME)),
    method("GameState.builtin_move", STATE, "builtin_move", lambda _s: st.tuples(POLICY_NAME)),
    method("GameState.legal_moves", STATE, "legal_moves", lambda _s: st.tuples(mix(st.one_of(st.none(), ints(0, 50))))),
    method("GameState.observation", STATE, "observation", lambda _s: st.tuples(SEAT)),
    method("GameState.history", STATE, "history", lambda _s: st.tuples(mix(st.one_of(st.none(), ints(0, 4))))),
    *[method(f"GameState.{m}", STATE, m) for m in [
        "legal_actions", "legal_action_mask", "count_legal_moves", "current_player", "is_terminal", "returns",
        "result", "result_row", "to_json", "clone"]],
    # Rules, Card
    method("Rules.options", st.sampled_from(FIX.rules), "options"),
    # SimResult
    method("SimResult.stats", SIM, "stats", lambda _r: st.tuples(COLUMN)),
    method("SimResult.__getitem__", SIM, "__getitem__", lambda _r: st.tuples(COLUMN)),
    method("SimResult.get", SIM, "get", lambda _r: st.tuples(COLUMN)),
    method("SimResult.summary", SIM, "summary"),
    method("SimResult.rules", SIM, "rules"),
    method("SimResult.to_pandas", SIM, "to_pandas"),
    method("SimResult.to_arrow", SIM, "to_arrow"),
    method("SimResult.save", SIM, "save", lambda _r: st.tuples(PATHS)),
    fn("SimResult.load", zhipai.SimResult.load, LOAD_PATHS),
    method("SimResult.plot", SIM, "plot", lambda _r: st.tuples(
        mix(st.sampled_from([_tmp("p.png"), None]), st.one_of(BAD, st.sampled_from([_tmp("p.txt"), _tmp("nodir/p.png")]))),
        mix(st.one_of(st.none(), st.lists(st.sampled_from(COLUMNS), min_size=1, max_size=2)))), weight=0.2),
    fn("SimResult.concat", zhipai.SimResult.concat, mix(st.lists(SIM, min_size=1, max_size=3),
                                                        st.one_of(BAD, st.lists(st.one_of(SIM, BAD), max_size=3)))),
    # Evaluation
    method("Evaluation.outcomes", EVAL, "outcomes", lambda _e: st.tuples(mix(st.sampled_from([0, 1, "", "pass", "policy"])))),
    method("Evaluation.summary", EVAL, "summary", lambda _e: st.tuples(mix(st.sampled_from([0, 1, "", "pass"])))),
    method("Evaluation.compare", EVAL, "compare", lambda _e: st.tuples(COLUMN, mix(st.sampled_from([0, 1, "best", "pass"])))),
    method("Evaluation.best", EVAL, "best", lambda _e: st.tuples(COLUMN)),
    method("Evaluation.events", EVAL, "events", lambda _e: st.tuples(mix(st.sampled_from([0, 1, "pass", "policy"])))),
    method("Evaluation.headline", EVAL, "headline"),
    method("Evaluation.key_columns", EVAL, "key_columns"),
    method("Evaluation.played_shares", EVAL, "played_shares"),
    method("Evaluation.report", EVAL, "report",
           lambda _e: st.tuples(mix(st.one_of(st.none(), st.lists(st.sampled_from(COLUMNS), max_size=3))))),
    # policy
    fn("policy.seat_policies", zhipai.policy.seat_policies, POLICIES, mix(ints(4, 5))),
    fn("policy.player_name", zhipai.policy.player_name, PLAYER_NAME),
    fn("observation_shape", zhipai.observation_shape, RULES),
    fn("VectorEnv", zhipai.VectorEnv, RULES, mix(ints(1, 4)), SEED,
       controlled_seats=mix(st.one_of(st.none(), st.lists(ints(0, 4), max_size=3))),
       opponents=mix(st.sampled_from(["random", "greedy"])), threads=THREADS,
       action_style=mix(st.sampled_from(["actions", "moves"])), reward=mix(st.sampled_from(["return", "points"])),
       max_moves=mix(st.one_of(st.none(), ints(1, 64)))),
    fn("arena", zhipai.arena, RULES, mix(st.lists(st.sampled_from(["random", "greedy", "basic"]), min_size=2, max_size=4)),
       COUNT, SEED, THREADS, PROGRESS),
    fn("policy.play_deal", zhipai.policy.play_deal, mix(GAME), mix(ints(0, 9)), mix(ints(0, 9)),
       mix(st.lists(st.sampled_from(["random", "greedy"]), min_size=4, max_size=5))),
    # shengji
    fn("shengji.Mechanics", shengji.Mechanics, RULES, LEVEL, TRUMP),
    method("Mechanics.classify", MECHANICS, "classify", lambda _m: st.tuples(CARDS)),
    method("Mechanics.check_lead", MECHANICS, "check_lead", lambda _m: st.tuples(CARDS, mix(st.one_of(st.none(), cards(12))))),
    method("Mechanics.is_legal_lead", MECHANICS, "is_legal_lead", lambda _m: st.tuples(CARDS, mix(st.one_of(st.none(), cards(12))))),
    method("Mechanics.check_throw", MECHANICS, "check_throw", lambda _m: st.tuples(CARDS, OTHERS)),
    method("Mechanics.throw_penalty", MECHANICS, "throw_penalty", lambda _m: st.tuples(CARDS, OTHERS)),
    method("Mechanics.check_follow", MECHANICS, "check_follow", lambda _m: st.tuples(CARDS, mix(cards(12)), CARDS)),
    method("Mechanics.is_legal_follow", MECHANICS, "is_legal_follow", lambda _m: st.tuples(CARDS, mix(cards(12)), CARDS)),
    method("Mechanics.follows", MECHANICS, "follows", lambda _m: st.tuples(CARDS, mix(cards(12)), mix(st.one_of(st.none(), ints(0, 20))))),
    method("Mechanics.count_follows", MECHANICS, "count_follows", lambda _m: st.tuples(CARDS, mix(cards(12)))),
    method("Mechanics.sample_follow", MECHANICS, "sample_follow", lambda _m: st.tuples(CARDS, mix(cards(12)), SEED)),
    method("Mechanics.winner", MECHANICS, "winner", lambda _m: st.tuples(mix(st.lists(cards(2), min_size=1, max_size=4)))),
    method("Mechanics.kitty_multiplier", MECHANICS, "kitty_multiplier", lambda _m: st.tuples(CARDS, mix(st.one_of(st.none(), cards(2))))),
    fn("shengji.declare", shengji.declare, RULES, LEVEL, mix(st.lists(st.tuples(ints(0, 3), cards(2)), max_size=4))),
    fn("shengji.chaodi", shengji.chaodi, RULES, LEVEL, mix(st.one_of(st.none(), st.tuples(ints(0, 3), cards(2)))),
       mix(ints(0, 3)), mix(st.lists(st.tuples(ints(0, 3), st.one_of(cards(2), st.sampled_from(["pass", ""])),
                                              st.one_of(cards(8), st.none())), max_size=3))),
    fn("shengji.jj_score", shengji.jj_score, RULES, POINTS),
    fn("shengji.level_change", shengji.level_change, RULES, POINTS),
    fn("shengji.level_advance", shengji.level_advance, RULES, LEVEL, LEVEL, POINTS, last_trick_single_jack=FLAG),
    fn("shengji.Match", shengji.Match, RULES, SEED),
    method("Match.next_deal", MATCH, "next_deal"),
    method("Match.play_hand", MATCH, "play_hand", lambda _m: st.tuples(POLICY_NAME)),
    method("Match.record", MATCH, "record", lambda _m: st.tuples(mix(STATE))),
    # hongwu
    fn("hongwu.HongWuAuction", hongwu.HongWuAuction, RULES, SEAT),
    method("HongWuAuction.bid", AUCTION, "bid", lambda _a: st.tuples(SEAT, BID)),
    method("HongWuAuction.check", AUCTION, "check", lambda _a: st.tuples(SEAT, BID)),
    method("HongWuAuction.has_passed", AUCTION, "has_passed", lambda _a: st.tuples(SEAT)),
    *[method(f"HongWuAuction.{m}", AUCTION, m) for m in ["clone", "is_over", "legal_bids"]],
    fn("hongwu.HongWuOrder", hongwu.HongWuOrder, RULES, TRUMP),
    *[method(f"HongWuOrder.{m}", ORDER, m, lambda _o: st.tuples(CARDS)) for m in ["effective_suit", "is_trump", "strength"]],
    *[method(f"HongWuOrder.{m}", ORDER, m, lambda _o: st.tuples(CARDS, CARDS)) for m in ["adjacent", "ties"]],
    method("HongWuOrder.tiers", ORDER, "tiers", lambda _o: st.tuples(mix(st.sampled_from([*SUITS, "T", "trump", 0])))),
    fn("hongwu.levels", hongwu.levels, RULES_OR_NONE),
    fn("hongwu.result_units", hongwu.result_units, mix(st.integers(-60, 60).map(lambda k: 5 * k))),
    fn("hongwu.run_auction", hongwu.run_auction, RULES, SEAT, mix(st.lists(st.tuples(ints(0, 3), BID), max_size=6))),
    fn("hongwu.settle", hongwu.settle, RULES, BID, POINTS, mix(st.integers(0, 4).map(lambda k: 5 * k))),
    Entry("hongwu.settle_deal", lambda _t, *a, **k: hongwu.settle_deal(*a, **k), lambda _t: st.tuples(RULES, BID),
          {"red5_captured": mix(ints(0, 2))}, required={
              "xianjia_tricks": POINTS, "dealer_tricks": POINTS, "kitty": POINTS, "xianjia_won_last": FLAG,
              "last_multiplier": mix(st.sampled_from([2, 4, 8]))}),
    # gongzhu
    Entry("gongzhu.legal_plays", lambda _t, *a, **k: gongzhu.legal_plays(*a, **k),
          lambda _t: st.tuples(GZ_HAND, mix(st.one_of(st.none(), cards(1)))),
          {"exposed": mix(cards(2)), "suits_led_before": mix(st.lists(st.sampled_from(SUITS), max_size=3)),
           "first_trick_of_match": FLAG, "rules": RULES_OR_NONE, "decks": mix(st.sampled_from([1, 2]))}),
    Entry("gongzhu.is_legal", lambda _t, *a, **k: gongzhu.is_legal(*a, **k),
          lambda _t: st.tuples(GZ_HAND, mix(cards(1)), mix(st.one_of(st.none(), cards(1)))),
          {"exposed": mix(cards(2)), "suits_led_before": mix(st.lists(st.sampled_from(SUITS), max_size=3)),
           "first_trick_of_match": FLAG, "rules": RULES_OR_NONE, "nope": BAD}),
    Entry("gongzhu.score", lambda _t, *a, **k: gongzhu.score(*a, **k),
          lambda _t: st.tuples(mix(st.lists(cards(5), min_size=4, max_size=4)), mix(cards(2))),
          {"closed": mix(cards(1)), "rules": RULES_OR_NONE, "decks": mix(st.sampled_from([1, 2]))}),
    Entry("gongzhu.trick_winner", lambda _t, *a, **k: gongzhu.trick_winner(*a, **k),
          lambda _t: st.tuples(mix(st.lists(cards(1), min_size=1, max_size=4))), {"rules": RULES_OR_NONE}),
    Entry("gongzhu.play_match", lambda _t, *a, **k: gongzhu.play_match(*a, **k), lambda _t: st.tuples(COUNT),
          {"policy": POLICY_NAME, "seed": SEED, "rules": RULES_OR_NONE, "decks": mix(st.sampled_from([1, 2]))}),
    # baohuang
    fn("baohuang.play_error", baohuang.play_error, BH_PLAY),
    fn("baohuang.is_play", baohuang.is_play, BH_PLAY),
    fn("baohuang.beats", baohuang.beats, BH_PLAY, BH_PLAY, RULES_OR_NONE),
    fn("baohuang.ascension_options", baohuang.ascension_options, BH_HAND, RULES_OR_NONE, FLAG),
    fn("baohuang.count_plays", baohuang.count_plays, BH_HAND, mix(st.one_of(st.none(), cards(2))), RULES_OR_NONE),
    fn("baohuang.legal_plays", baohuang.legal_plays, BH_HAND, mix(st.one_of(st.none(), cards(2))), RULES_OR_NONE,
       mix(st.one_of(st.none(), ints(0, 30)))),
    fn("baohuang.sample_play", baohuang.sample_play, BH_HAND, mix(st.one_of(st.none(), cards(2))), SEED, RULES_OR_NONE),
    fn("baohuang.play_reason", baohuang.play_reason, BH_HAND, BH_PLAY, mix(st.one_of(st.none(), cards(2))), RULES_OR_NONE),
    fn("baohuang.next_leader", baohuang.next_leader,
       mix(st.lists(st.tuples(ints(0, 4), st.one_of(cards(2), st.sampled_from(["pass", "yield", "jiefeng"]))), max_size=6)),
       mix(st.lists(ints(0, 4), max_size=2)), RULES_OR_NONE),
    fn("baohuang.score", baohuang.score, mix(st.sampled_from(baohuang.MODES)), mix(ints(1, 5)),
       mix(st.one_of(st.none(), ints(1, 5))), RULES_OR_NONE),
    fn("baohuang.candidate_cards", baohuang.candidate_cards,
       mix(st.sampled_from(["abdicate", "grab", "ascend 9C", "ascend XX", "ascend", "9C 9C"])), BH_HAND),
]

# ------------------------------------------------------------------ the CLI

CLI_PRESET = mix(st.sampled_from(PRESETS), st.sampled_from(["nope", "", "-n"]))
CLI_INT = mix(st.integers(1, 4).map(str), st.sampled_from(["0", "-1", "x", "1e3", "2**64", "18446744073709551616", "", "nan"]))
CLI_OPTION = st.one_of(st.sampled_from(["decks=3", "chaodi=true", "chaodi=yes", "decks=x", "nope=1", "decks", "=", "bombs=on"]))


def _cli_args() -> st.SearchStrategy[list[str]]:
    simulate = st.tuples(
        st.just(["simulate"]), CLI_PRESET.map(lambda p: [p]),
        st.lists(st.one_of(
            CLI_INT.map(lambda n: ["-n", n]), CLI_INT.map(lambda n: ["--seed", n]), CLI_INT.map(lambda n: ["-t", n]),
            CLI_OPTION.map(lambda o: ["-o", o]), CLI_INT.map(lambda n: ["--decks", n]),
            st.sampled_from(["random", "greedy", "json:dumps", "math:sqrt", "no_such_module_x:f", "zhipai:nope", "x"]).map(
                lambda p: ["--policy", p]),
            st.sampled_from(["0=greedy", "9=random", "x", "0=json:dumps"]).map(lambda p: ["--policy-seat", p]),
            st.sampled_from([_tmp("c.csv"), _tmp("c.npz"), _tmp("nodir/c.csv"), "/proc/c.csv", str(TMP), _tmp("c.txt")]).map(
                lambda p: ["--out", p]),
            st.just(["--aggregate-only"]), CLI_INT.map(lambda n: ["--first-deal", n]),
            st.sampled_from(["x", "Local", "local"]).map(lambda b: ["--backend", b]), st.just(["--chunk-deals", "2"]),
        ), max_size=4).map(lambda xs: sum(xs, [])),
    ).map(lambda t: [*t[0], *t[1], "-q", "-n", "3", *t[2]])
    evaluate = st.tuples(
        st.just(["evaluate"]), CLI_PRESET.map(lambda p: [p]),
        st.lists(st.one_of(
            st.sampled_from(FIX.hands["tractor"][:2] + FIX.hands["gongzhu"][:2] + ["AS", "XX"]).map(lambda h: ["--hand", h]),
            st.sampled_from(["/dev/zero", "/dev/null", str(TMP), _tmp("junk.csv"), _tmp("rec.json"), _tmp("none.json")]).map(
                lambda p: ["--position", p]),
            CLI_INT.map(lambda n: ["--seat", n]), CLI_INT.map(lambda n: ["-n", n]),
            st.sampled_from(["", "pass", "AS", "XX", "policy"]).map(lambda c: ["-c", c]),
            st.sampled_from(["1:AS", "x", "1:XX", "9:AS", "1:"]).map(lambda k: ["--known", k]),
            st.sampled_from(["1:S", "1:SHDC", "2:AS", "x", "9:H"]).map(lambda k: ["--void", k]),
            st.sampled_from(["key", "all"]).map(lambda c: ["--columns", c]),
            st.sampled_from(["5", "NT", "1", "x"]).map(lambda v: ["--level", v]),
            st.sampled_from(["S", "NT", "x"]).map(lambda v: ["--trump", v]),
            CLI_INT.map(lambda n: ["--dealer", n]), CLI_OPTION.map(lambda o: ["-o", o]),
        ), max_size=4).map(lambda xs: sum(xs, [])),
    ).map(lambda t: [*t[0], *t[1], "-q", "-n", "3", *t[2]])
    deal = st.lists(st.one_of(
        CLI_INT.map(lambda n: ["--decks", n]), CLI_INT.map(lambda n: ["--hands", n]),
        st.sampled_from(["10", "10,10,10", "x", "0", "-3"]).map(lambda n: ["--hand-size", n]),
        CLI_INT.map(lambda n: ["--kitty", n]), CLI_INT.map(lambda n: ["--seed", n]), CLI_INT.map(lambda n: ["--index", n]),
        st.just(["--no-jokers"]), st.sampled_from(["0=BJ AS", "9=AS", "x", "0=XX"]).map(lambda f: ["--fixed", f]),
        st.sampled_from(["AS", "XX", ""]).map(lambda f: ["--kitty-cards", f]),
        st.sampled_from(["1=S", "x", "1=AS", "7=H"]).map(lambda f: ["--void", f]),
    ), max_size=4).map(lambda xs: ["deal", *sum(xs, [])])
    other = st.sampled_from([
        ["presets"], ["presets", "-v"], ["cases", _tmp("junk.csv")], ["cases", "/dev/null"], ["cases", _tmp("none.jsonl")],
        ["cases", str(TMP)], ["cases", _tmp("case.jsonl")], ["cases", "/dev/zero"], [], ["--version"], ["nope"],
    ])
    return st.one_of(simulate, evaluate, deal, other)


(TMP / "rec.json").write_text(FIX.states["tractor"][4].to_json())
(TMP / "case.jsonl").write_text('{"id": "x", "game": "tractor"}\n[1, 2]\nnot json\n')


def check_cli(argv: list[str]) -> None:
    CALLS["cli.main"] += 1
    out, err = io.StringIO(), io.StringIO()
    faulthandler.dump_traceback_later(CALL_TIMEOUT, exit=True)
    try:
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            status = main(argv)
    except SystemExit as e:
        status = e.code
        assert status in (0, 2), f"main({argv!r}) exited with {status!r}: {err.getvalue()[-500:]}"
    except BaseException as e:
        raise AssertionError(f"main({argv!r}) raised {type(e).__name__}: {e}\n{err.getvalue()[-500:]}") from e
    finally:
        faulthandler.cancel_dump_traceback_later()
    assert isinstance(status, int), (argv, status)
    if status == 2 and argv and argv != ["--version"]:
        lines = [x for x in err.getvalue().splitlines() if x.strip()]
        last = lines[-1] if lines else ""
        assert "error:" in last, f"main({argv!r}) -> 2 without an error line: {err.getvalue()[-500:]!r}"
        if "required" not in last and "invalid choice" not in last and "expected one argument" not in last:
            tokens = {t[:30] if t.strip() else q for a in argv for t in (a, *a.split("="), *a.split(":"), *a.split(","))
                      for q in (repr(t), json.dumps(t))}
            assert any(t in last for t in tokens), f"main({argv!r}): the error names no argument: {last!r}"
    else:
        assert status in (0, 1, 2), (argv, status, err.getvalue()[-500:])


# ------------------------------------------------------------------ the tests


def _settings(weight: float) -> settings:
    # The ci profile is derandomized (the same calls every run: CI cannot fail by chance);
    # the long profile draws new ones each run.
    return settings(max_examples=max(1, int(EXAMPLES * weight)), deadline=None, database=None,
                    suppress_health_check=list(HealthCheck), derandomize=PROFILE == "ci")


@pytest.mark.parametrize("entry", ENTRIES, ids=lambda e: e.name)
def test_entry_point(entry: Entry) -> None:
    @_settings(entry.weight)
    @given(st.data())
    def run(data: st.DataObject) -> None:
        target = data.draw(entry.target, label="target")
        args = data.draw(entry.args(target), label="args")
        kwargs = data.draw(st.fixed_dictionaries({}, optional=dict(entry.kwargs)), label="kwargs")
        kwargs = {**data.draw(st.fixed_dictionaries(dict(entry.required)), label="required"), **kwargs}
        check_call(entry.name, lambda *a, **k: entry.call(target, *a, **k), args, kwargs, target)

    run()


@_settings(4)
@given(_cli_args())
def test_cli(argv: list[str]) -> None:
    check_cli(argv)


def test_every_public_name_is_covered() -> None:
    """The table covers every callable of the public ``__all__`` lists (or says why not)."""
    covered = {e.name.split(".")[-1] for e in ENTRIES} | {e.name for e in ENTRIES}
    not_entry_points = {  # exception classes and result holders: no input of their own to check
        "IllegalPlayError", "ImpossibleDealError", "InvalidCardError", "InvalidOptionError", "InvalidValueError",
        "ZhipaiError", "FileError", "MissingDependencyError", "PolicyError", "ProgressError", "UnknownKeyError",
        "SimulationInterrupted", "Deal", "Evaluation", "SimResult", "GameState", "Rules", "DealScore", "Format", "ThrowCheck",
        "PolicyFn", "SeatPolicies", "ArenaResult", "Comparison", "EvaluationSummary",
    }
    modules = [zhipai, hongwu, gongzhu, baohuang, zhipai.policy, zhipai.game, shengji.mechanics, shengji.scoring]
    missing = [f"{m.__name__}.{n}" for m in modules for n in m.__all__
               if callable(getattr(m, n)) and not isinstance(getattr(m, n), type(zhipai))
               and n not in covered and n not in not_entry_points]
    assert not missing, missing
    for cls in (zhipai.GameState, zhipai.SimResult, zhipai.Evaluation, shengji.Mechanics, hongwu.HongWuAuction):
        for n in dir(cls):
            if not n.startswith("_") and callable(getattr(cls, n)) and n not in {"keys", "values", "items"}:
                assert f"{cls.__name__}.{n}" in covered or n in covered, f"{cls.__name__}.{n}"


@pytest.fixture(scope="module", autouse=True)
def _report_calls():
    yield
    total = sum(CALLS.values())
    print(f"\ntest_fuzz_api: {total} calls over {len(CALLS)} entry points (profile {PROFILE}, {EXAMPLES} examples each)")
    path = os.environ.get("ZHIPAI_FUZZ_COUNT_FILE")
    if path:
        Path(path).write_text(json.dumps({"total": total, "calls": dict(CALLS)}, indent=1, sort_keys=True))


def test_names_a_value_definition() -> None:
    """The definition of "names the value" on examples."""
    e = zhipai.InvalidValueError("invalid seat 7: expected 0 to 3")
    assert names_a_value(e, (7,), {})
    assert not names_a_value(e, (8,), {})
    assert names_a_value(zhipai.InvalidCardError("invalid card 'XX': ..."), ("AS XX",), {})
    assert names_a_value(zhipai.InvalidValueError(f"invalid hand '{'x' * 80}…' (10000 characters)"), ("x" * 10_000,), {})
    assert names_a_value(zhipai.InvalidValueError('invalid lead "": expected a lead'), ("",), {})
    assert not names_a_value(zhipai.InvalidValueError("invalid lead : expected a lead"), ("",), {})
    assert names_a_value(zhipai.InvalidCardError('invalid card "\\u{8}A": ...'), ("\x08A",), {})
    assert names_a_value(zhipai.InvalidValueError("invalid actions [0, 1]"), (OneShot([0, 1]),), {})
    assert sys.getrecursionlimit() > 0
