"""Monte Carlo hand evaluation: what is this hand worth, and which first action is best?

``zhipai.evaluate(rules, seat, hand, ...)`` fixes what ``seat`` knows (its hand, cards known in
other hands or in the kitty, voids), samples the unknown cards uniformly among the consistent
deals (exactly, by the engine's constrained dealer), plays every sampled deal to the end once per
candidate first action with the built-in policy, and reports the outcome columns per candidate.

Candidates are compared on common random numbers: sample ``s`` deals from the generator of
``(seed, s)`` and every candidate continues from the same generator state, so the per-sample
differences are paired and their confidence intervals are narrow.

Games plug in through the Rust hook ``DealSimulator::play_from_deal`` (documented in
``rust/zhipai-core/src/rollout.rs``); a game without it raises ``InvalidOptionError``.

``zhipai.evaluate_position(deal, seat, ...)`` evaluates a deal *in progress* (Shengji family):
what ``seat`` knows there — its hand, every card already played, the kitty when it is the dealer
who buried it, the cards each hand still holds and the voids shown by play — fixes the
determinisation; the other cards are redealt uniformly among the consistent deals, and each
candidate play is rolled out on common random numbers.
"""

from __future__ import annotations

import functools
import math
from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from typing import Any, Union

import numpy as np

from zhipai import _check, _core, _memory
from zhipai._core import Card, InvalidValueError, Rules, ZhipaiError
from zhipai._errors import UnknownKeyError
from zhipai.baohuang import candidate_cards as baohuang_candidate_cards
from zhipai.simulate import (
    POLICIES,
    ColumnSummary,
    ProgressArg,
    SimulationInterrupted,
    _check_count,
    _check_progress,
    _check_seed,
    _check_threads,
    _column_name,
    _exact_stats,
    _progress_callback,
    _resolve_rules,
    progress_error,
)

__all__ = ["Evaluation", "evaluate", "evaluate_position", "position_view"]

CardsArg = Union[str, Sequence[Card]]

_SUITS = {"S": "S", "H": "H", "D": "D", "C": "C"}
_RANKS = ["2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A"]


def _cards_text(value: CardsArg, what: str) -> str:
    """Card notation for ``value`` (a string or a list of Cards), validated by the engine."""
    if isinstance(value, str):
        text = value
    elif isinstance(value, Sequence) and all(isinstance(c, Card) for c in value):
        text = " ".join(str(c) for c in value)
    else:
        raise InvalidValueError(f"invalid {what} {value!r}: expected cards like 'AS 10H SJ' or a list of Card")
    _core.cards(text)  # raises InvalidCardError naming the bad token
    return text


def _void_text(value: CardsArg, seat: int) -> str:
    """Cards of a void: suit letters stand for the 13 cards of the suit, separated (``"S H"``)
    or run together (``"SHDC"``); other tokens are cards."""
    if isinstance(value, str):
        parts = []
        for tok in value.split():
            if all(ch in _SUITS for ch in tok.upper()):
                parts += [" ".join(r + _SUITS[ch] for r in _RANKS) for ch in tok.upper()]
            else:
                parts.append(tok)
        value = " ".join(parts)
    return _cards_text(value, f"void of seat {seat}")


def _seat(value: Any, what: str) -> int:
    """A seat number ≥ 0 (the game checks its upper bound); bools and floats refused."""
    if isinstance(value, int) and not isinstance(value, bool) and value < 0:
        raise InvalidValueError(
            f"invalid {what} {value}: expected a seat of the game, 0 to 3 (0 to 4 in Baohuang)")
    return int(_core._check_int(what, value, 0, 255))


def _check_own_known(seat: int, hand: str, hands: list[tuple[int, str]]) -> None:
    """Known cards given for the evaluated seat itself must be cards of its hand."""
    held = Counter(str(c) for c in _core.cards(hand))
    for s, text in hands:
        if s != seat:
            continue
        missing = Counter(str(c) for c in _core.cards(text)) - held
        if missing:
            names = " ".join(sorted(missing.elements()))
            raise InvalidValueError(
                f"invalid known cards of seat {seat}: {names} not in its hand (the evaluated seat's "
                "known cards must be cards of its hand)")


def _engine(rules: Rules) -> Callable[..., dict[str, Any]]:
    """The native evaluator of ``rules`` (tests replace this with the internal toy game)."""

    def run(**kwargs: Any) -> dict[str, Any]:
        return _core._evaluate(rules, **kwargs)

    return run


class Evaluation:
    """The rollouts of :func:`evaluate`.

    ``candidates``: labels (``"policy"`` when the policy chose the first action, ``"pass"`` for the
    empty action — ``"abdicate"`` for a Baohuang scepter holder — else the cards in kind order);
    a label, ``""`` or the cards in any order and case select a candidate;
    ``columns``: outcome column names; ``outcomes(c)``: ``{column: int32 array (samples,)}`` for
    candidate ``c`` (index or label), sample ``s`` being the same deal for every candidate;
    ``summary(c)``; ``compare(column, against=0)``: per candidate the mean and the paired
    difference to candidate ``against`` (the first by default, ``"best"`` = highest mean) with
    95% confidence intervals; ``best(column)``. Results of :func:`evaluate_position` have the
    extra column ``seat_return``.
    """

    def __init__(
        self, raw: Mapping[str, Any], *, preset: str, seat: int, policy: str, seed: int, empty_label: str = "pass"
    ) -> None:
        self.preset, self.seat, self.policy, self.seed = preset, seat, policy, seed
        self.columns: list[str] = list(raw["columns"])
        self.docs: dict[str, str] = dict(zip(raw["columns"], raw["docs"], strict=False))
        self._empty = empty_label
        self.candidates: list[str] = [_label(c, empty_label) for c in raw["candidates"]]
        self.requested: int = int(raw["requested"])
        self.completed: int = int(raw["completed"])
        self.interrupted: bool = bool(raw["interrupted"])
        k = len(self.columns)
        data = list(raw["data"])
        self._data = [
            dict(zip(self.columns, data[c * k : (c + 1) * k], strict=False)) for c in range(len(self.candidates))
        ]

    def __len__(self) -> int:
        return self.completed

    def __repr__(self) -> str:
        stop = f" of {self.requested} (interrupted)" if self.interrupted else ""
        return (
            f"<Evaluation {self.preset} seat {self.seat}: {self.completed} samples{stop}, "
            f"candidates={self.candidates}, columns={self.columns}>"
        )

    def _index(self, candidate: int | str) -> int:
        """The index of ``candidate`` (a label, cards in any order and case, or an index; numpy
        ints accepted), else :class:`zhipai.UnknownKeyError` (also a ``KeyError``) naming it."""
        if isinstance(candidate, str):
            label = _label(candidate, self._empty)
            if label not in self.candidates:
                label = _normal_cards(candidate) or label  # "bj 9c" finds "9C BJ"
            if label not in self.candidates:
                raise UnknownKeyError(f"invalid candidate {candidate!r}: no such candidate; candidates: {self.candidates}")
            return self.candidates.index(label)
        if isinstance(candidate, (bool, np.bool_)) or not isinstance(candidate, (int, np.integer)) \
                or not 0 <= candidate < len(self.candidates):
            raise UnknownKeyError(
                f"invalid candidate {_check.shown(candidate)}: expected a label or an index 0 to "
                f"{len(self.candidates) - 1}; candidates: {self.candidates}")
        return int(candidate)

    def outcomes(self, candidate: int | str = 0) -> dict[str, np.ndarray]:
        """``{column: int32 array of shape (samples,)}`` for ``candidate`` (index or label)."""
        return dict(self._data[self._index(candidate)])

    def summary(self, candidate: int | str = 0) -> dict[str, ColumnSummary]:
        """Per column mean, std, 95% CI, min, max, distribution, for ``candidate``."""
        data = self._data[self._index(candidate)]
        return {n: ColumnSummary.from_stats(n, self.docs[n], _exact_stats(data[n])) for n in self.columns}

    def compare(self, column: str, against: int | str = 0) -> list[dict[str, Any]]:
        """Per candidate: ``mean`` and ``ci95`` of ``column``, and ``diff``/``diff_ci95``, the
        paired difference to the candidate ``against`` (index or label, default the first;
        ``"best"`` = the one with the highest mean of ``column``) on the same deals and
        randomness. CIs are normal 95% intervals (mean ± 1.96·s/√n; NaN below 2 samples)."""
        column = _column_name(column, self.columns)
        if isinstance(against, str) and against == "best" and "best" not in self.candidates:
            means = [float(np.mean(d[column])) if len(d[column]) else 0.0 for d in self._data]
            against = int(np.argmax(means))
        base = self._data[self._index(against)][column].astype(np.int64)
        rows = []
        for c, label in enumerate(self.candidates):
            x = self._data[c][column]
            s = ColumnSummary.from_stats(column, "", _exact_stats(x))
            d = ColumnSummary.from_stats(column, "", _exact_stats((x.astype(np.int64) - base).astype(np.int32)))
            rows.append({"candidate": label, "mean": s.mean, "ci95": s.ci95, "diff": d.mean, "diff_ci95": d.ci95})
        return rows

    def best(self, column: str) -> str:
        """The candidate with the highest mean of ``column``."""
        return max(self.compare(column), key=lambda r: r["mean"])["candidate"]

    def __str__(self) -> str:
        return self.report()

    def report(self, columns: Sequence[str] | None = None) -> str:
        """The text table of ``str(result)``: per column and candidate the mean, its 95% CI and
        the paired difference to the first candidate. ``columns``: a list of the columns to show
        (each must be one of ``self.columns``, else ``UnknownKeyError`` naming it); ``None`` =
        every column. With 0 completed samples (interrupted at once): the header and "no
        completed samples"."""
        if columns is not None:
            wanted = {_column_name(c, self.columns) for c in _check.items("columns", columns, "a list of column names")}
            if not wanted:
                raise InvalidValueError("invalid columns []: expected at least one column name, or None for all")
        stop = f" (interrupted: {self.completed} of {self.requested})" if self.interrupted else ""
        lines = [
            f"{self.preset}: seat {self.seat}, {self.completed} samples{stop}, policy {self.policy}, seed {self.seed}"
        ]
        if self.completed == 0:
            return "\n".join(lines + ["no completed samples"])
        shown = [c for c in self.columns if columns is None or c in wanted]
        width = max([len("candidate")] + [len(c) for c in self.candidates])
        for col in shown:
            lines += ["", f"{col}: {self.docs[col]}"]
            lines.append(f"  {'candidate':<{width}}  {'mean':>10}  {'95% CI':>22}  {'vs first':>10}  {'95% CI':>22}")
            for r in self.compare(col):
                ci = f"[{r['ci95'][0]:.3f}, {r['ci95'][1]:.3f}]"
                dci = f"[{r['diff_ci95'][0]:.3f}, {r['diff_ci95'][1]:.3f}]" if not math.isnan(r["diff_ci95"][0]) else ""
                lines.append(
                    f"  {r['candidate']:<{width}}  {r['mean']:>10.4f}  {ci:>22}  {r['diff']:>+10.4f}  {dci:>22}"
                )
        return "\n".join(lines)


def _known_parts(
    known: Mapping[str, Any] | None, seat_of: Callable[[Any, str], int]
) -> tuple[list[tuple[int, str]], str, list[tuple[int, str]]]:
    """``known`` → (known hands by seat, known kitty, voids by seat), each checked and named."""
    if known is None:
        known = {}
    if not isinstance(known, Mapping):
        raise InvalidValueError(
            f"invalid known {_check.shown(known)}: expected a dict with keys 'hands', 'kitty', 'voids'")
    unknown_keys = [k for k in known if k not in ("hands", "kitty", "voids")]
    if unknown_keys:
        raise InvalidValueError(f"invalid known key {_check.shown(unknown_keys[0])}: expected hands, kitty or voids")

    def per_seat(key: str) -> dict[Any, Any]:
        value = known.get(key)
        if value is None:
            return {}
        if not isinstance(value, Mapping):
            raise InvalidValueError(
                f"invalid known[{key!r}] {_check.shown(value)}: expected a dict {{seat: cards}}")
        return dict(value)

    hands = [(seat_of(s, "known hand seat"), _cards_text(c, f"known cards of seat {s}"))
             for s, c in per_seat("hands").items()]
    kitty = known.get("kitty")
    kitty = _cards_text("" if kitty is None else kitty, "known kitty")
    voids = [(seat_of(s, "void seat"), _void_text(c, s)) for s, c in per_seat("voids").items()]
    return hands, kitty, voids


def _run(
    engine: Callable[..., dict[str, Any]], progress: ProgressArg, samples: int, desc: str,
    preset: str, seat: int, policy: str, seed: int, empty_label: str = "pass",
) -> Evaluation:
    """Run ``engine(progress=callback)`` with a progress bar and turn its result into an
    :class:`Evaluation`; raises the engine's exception (Ctrl-C as :class:`SimulationInterrupted`
    holding the completed samples)."""
    callback, bar = _progress_callback(progress, samples, desc)
    try:
        raw = engine(progress=callback)
    finally:
        if bar is not None:
            bar.close()
    result = Evaluation(raw, preset=preset, seat=seat, policy=policy, seed=seed, empty_label=empty_label)
    exc = raw.get("exception")
    if isinstance(exc, KeyboardInterrupt):
        raise SimulationInterrupted(result) from exc  # type: ignore[arg-type]
    failed = progress_error(callback, exc, result, "samples")
    if failed is not None:
        raise failed from exc
    if exc is not None:
        raise exc
    return result


def _check_samples_fit(samples: int, candidates: int, columns: int) -> None:
    """Refuse ``samples`` whose outcomes (``samples × candidates × columns`` int32) cannot be
    held, before anything is allocated."""
    _memory.check_fits(
        "samples", samples, samples * candidates * columns * 4,
        f"keeping {columns} int32 outcome columns for {candidates} candidate(s) per sample",
        "pass fewer samples (or fewer candidates)")


def _candidate_list(candidates: Any) -> list[Any]:
    """``candidates`` as a list: ``None`` → ``[None]`` (the policy decides); a list or tuple
    otherwise (a single string is refused: it would be read letter by letter)."""
    if candidates is None:
        return [None]
    out = _check.items("candidates", candidates, "a list of candidate actions (cards, '' or None)")
    if not out:
        raise InvalidValueError("invalid candidates []: expected at least one candidate, or None")
    return out


def evaluate(
    rules: Rules | str,
    seat: int,
    hand: CardsArg,
    known: Mapping[str, Any] | None = None,
    candidates: Sequence[CardsArg | None] | None = None,
    samples: int = 10_000,
    policy: str = "random",
    seed: int = 0,
    threads: int | None = None,
    progress: ProgressArg = None,
    dealer: int | None = None,
    chunk_size: int | None = None,
    level: str | None = None,
    trump: str | None = None,
) -> Evaluation:
    """Evaluate ``seat``'s ``hand`` by Monte Carlo over the deals consistent with what it knows.

    Example::

        ev = zhipai.evaluate("tractor", seat=0, hand="BJ SJ 5H 5H ...", level="5", trump="H",
                             dealer=0, samples=10_000)
        ev.summary()["attacker_points"].mean

    Args:
        rules: a ``zhipai.Rules`` or a preset name.
        seat: the evaluated seat (0-based, the game's seat order).
        hand: the seat's whole hand, e.g. ``"BJ SJ 2S 2S ..."`` or a list of ``Card``.
        known: what else the seat knows, a dict with optional keys ``"hands"`` (``{seat: cards}``
            known in other hands), ``"kitty"`` (cards known in the kitty) and ``"voids"``
            (``{seat: cards or suit letters}``: the seat holds no card of these kinds, e.g.
            ``{2: "H"}`` when seat 2 showed out of hearts; letters may be run together,
            ``{1: "SHDC"}``). Known cards of ``seat`` itself must be cards of ``hand``.
        candidates: first actions of ``seat`` to compare (cards it plays/buries/declares first;
            ``""`` = pass, ``None`` = let the policy choose). Default: ``[None]``. Shengji family
            (``rust/zhipai-core/src/games/shengji/simulator.rs``, ``play_from_deal``): ``""`` =
            pass at the seat's first declaring chance; a declaration shape (identical level
            cards, or identical jokers — never one joker — at most one per deck, shengji.md
            §2.2) while ``trump`` is not given = that declaration, made at the seat's first
            declaring chance at which the bid is legal (passing before; when it never becomes
            legal in a sample the seat passes throughout and the policy plays on); exactly the
            kitty size (8 with 2 decks) for the dealer = its burial; anything else = the seat's
            first play — for the dealer after the policy's burial chosen from its other cards,
            so with ``trump`` and ``dealer=seat`` known ``"3C"`` is the dealer's first lead.
            Baohuang: see :mod:`zhipai.baohuang` (the scepter holder's accession decision, or
            a play / pass made at the seat's first decision where it is legal).
        samples: sampled deals, an int ≥ 1; the outcomes (``samples × candidates × columns ×
            4`` bytes) must fit in the available memory, else ``InvalidValueError`` up front.
        policy, seed, threads, progress, chunk_size: as in :func:`zhipai.simulate` (``seed=None``
            draws a random seed, recorded in ``Evaluation.seed``; a raising ``progress`` is a
            :class:`zhipai.ProgressError` holding the completed samples).
        dealer: the dealer seat, when known; default: the game decides (Shengji: the
            declarations in hand 1, or a random seat when ``trump`` is given).
        level: the level rank (级牌) of the deal, ``"2"`` … ``"A"``, or ``"NT"`` (the joker-only
            level, only with the option ``after_A=no_trump_level``; column ``level`` = 13)
            (Shengji family; default ``"2"``, hand 1). shengji.md §2.1.
        trump: the trump when the declaration is known, ``"S"``, ``"H"``, ``"D"``, ``"C"`` or
            ``"NT"`` (Shengji family): the deal skips declaring (§2.2) and goes straight to the
            dealer's burial. Default: declared during the deal by the policy.

    Returns:
        :class:`Evaluation`.

    Raises:
        InvalidValueError: bad seat, hand size, sample count, policy or card list, known cards of
            ``seat`` that are not in ``hand`` (named).
        InvalidCardError: a card that does not parse.
        IllegalPlayError: a candidate the hand does not hold, or the game finds illegal.
        ImpossibleDealError: knowledge that no deal satisfies.
        InvalidOptionError: unknown preset, a game without hand evaluation yet, or ``level`` /
            ``trump`` for a game outside the Shengji family.
        SimulationInterrupted: Ctrl-C (``.result`` holds the completed samples).
    """
    seat = _seat(seat, "seat")
    level = _text_or_none(level, "level")
    trump = _text_or_none(trump, "trump")
    samples = _check_count("samples", samples)
    threads = _check_threads(threads, samples)
    chunk_size = _check_count("chunk_size", chunk_size, allow_none=True)
    seed = _check_seed(seed)
    _check_progress(progress)
    if not isinstance(policy, str) or policy not in POLICIES:
        raise InvalidValueError(f"invalid policy {_check.shown(policy)}: expected one of {', '.join(POLICIES)}")
    known_hands, known_kitty, known_voids = _known_parts(known, _seat)
    knowledge = {
        "seat": seat,
        "hand": _cards_text(hand, "hand"),
        "hands": known_hands,
        "kitty": known_kitty,
        "voids": known_voids,
        "dealer": None if dealer is None else _seat(dealer, "dealer"),
        "level": level,
        "trump": trump,
        "candidates": _candidate_list(candidates),
    }
    _check_own_known(seat, knowledge["hand"], knowledge["hands"])
    rules = _resolve_rules(rules)
    knowledge["candidates"] = _candidates(knowledge["candidates"], knowledge["hand"], rules.preset)
    try:
        columns = len(_core._columns(rules))
    except ZhipaiError:
        columns = 1  # the engine names the problem
    _check_samples_fit(samples, len(knowledge["candidates"]), columns)
    engine = functools.partial(
        _engine(rules),
        knowledge=knowledge,
        samples=int(samples),
        policy=policy,
        seed=int(seed),
        threads=None if threads is None else int(threads),
        chunk_size=None if chunk_size is None else int(chunk_size),
    )
    # A Baohuang scepter holder's "" is 让位 (the dealer, or the seat itself when it holds a BJ).
    d = knowledge["dealer"]
    holder = d == seat if d is not None else "BJ" in knowledge["hand"].upper().split()
    empty = "abdicate" if rules.preset == "baohuang" and holder else "pass"
    desc = f"{rules.preset} seat {seat}"
    return _run(engine, progress, int(samples), desc, rules.preset, seat, policy, int(seed), empty)


#: A game's move words for evaluation candidates: ``(text, hand) -> cards text``.
_CANDIDATE_WORDS: dict[str, Callable[[str, str], str]] = {"baohuang": baohuang_candidate_cards}


def _candidates(given: Sequence[CardsArg | None], hand: str, preset: str) -> list[str | None]:
    """Candidate texts as cards: ``"pass"`` (any case) = ``""``, and the game's own move words
    (Baohuang: :func:`zhipai.baohuang.candidate_cards`). Two candidates that are the same action
    are refused (their results could not be told apart)."""
    words = _CANDIDATE_WORDS.get(preset, lambda text, _hand: text)
    out: list[str | None] = []
    for c in given:
        text = None if c is None else _cards_text(c, "candidate") if not isinstance(c, str) else c
        if text is not None:
            text = "" if text.strip().lower() == "pass" else _cards_text(words(text, hand), "candidate")
        same = [o for o in out if o is not None and text is not None and _normal_cards(o) == _normal_cards(text)]
        if same or (text is None and None in out):
            raise InvalidValueError(f"invalid candidates: {c!r} is given twice (as {text!r})")
        out.append(text)
    return out


def _text_or_none(value: Any, what: str) -> str | None:
    """``None`` or a string (the engine checks its content and names it when bad)."""
    if value is None or isinstance(value, str):
        return value
    raise InvalidValueError(f"invalid {what} {value!r}: expected a string")


def evaluate_position(
    deal: Any,
    seat: int,
    candidates: Sequence[CardsArg | None] | None = None,
    samples: int = 10_000,
    policy: str = "random",
    seed: int = 0,
    threads: int | None = None,
    progress: ProgressArg = None,
    limit: int = 64,
    chunk_size: int | None = None,
    known: Mapping[str, Any] | None = None,
) -> Evaluation:
    """Evaluate a Shengji deal in progress from ``seat``'s point of view (PIMC).

    What ``seat`` knows is kept: its own hand; every card already played (completed tricks and
    the current one); the kitty when ``seat`` buried it (the dealer, or a 炒底 overcaller); how many cards each
    hand still holds; the trump, the level and the current trick; and the voids shown by play —
    a player who followed a lead of ``n`` cards with fewer than ``n`` cards of the led
    *effective* suit (all trumps count as one suit) holds none of that suit any more
    (shengji.md §3, §5). The other cards (the other hands, and the kitty unless ``seat`` buried
    it) are dealt uniformly among the deals consistent with that knowledge (exact constrained
    dealing, no rejection). Each candidate is then applied and the deal played to the end with
    ``policy`` for every seat; sample ``s`` uses the same hidden cards and the same randomness
    for every candidate (common random numbers), so ``compare`` differences are paired.

    Not conditioned on unless given in ``known``: cards shown in declarations or failed throws
    that are still in a hand. Never conditioned on: the absence of pairs or tractors implied by
    a follow that did not match the lead's shape, and what the other players' choices reveal.

    Args:
        deal: the :class:`zhipai.GameState` of a Shengji-family deal
            (``zhipai.Game("tractor").new_deal(...)``, a ``Match`` hand or a replayed record), in
            the burying or playing phase (the declaration must be over).
        seat: the evaluating seat, 0-3.
        candidates: the seat's actions to compare (plays, or burials in the burying phase; card
            strings or lists of ``Card``; ``None`` entries let the policy decide). Default: when
            ``seat`` is to move in the playing phase, every legal play (follows in
            ``FollowMoves`` order; leads = every single, pair, triple, tractor / Titanic and per
            suit the whole holding when it may be thrown), at most ``limit``; otherwise one
            candidate, ``"policy"`` (the value of the position).
        samples: sampled deals, an int ≥ 1 (checked against the available memory as in
            :func:`evaluate`, counting ``limit`` candidates when ``candidates`` is ``None``).
        policy, seed, threads, progress, chunk_size: as in :func:`zhipai.simulate`.
        limit: most default candidates (an int ≥ 1; default 64). Extra legal plays are left
            out, in enumeration order.
        known: extra knowledge, as in :func:`evaluate`: ``{"hands": {seat: cards still held},
            "kitty": cards, "voids": {seat: cards or suit letters}}``. Merged kind by kind with
            the deal's own record (a card known twice counts once); contradictions raise
            ``ImpossibleDealError``.

    Returns:
        :class:`Evaluation`: ``outcomes(c)[column]`` is an int32 array of shape ``(samples,)``
        per candidate; the columns are those of :func:`zhipai.simulate` for the preset
        (``attacker_points``, ``levels``, ``side``, …, for the whole deal including the points
        already won) plus ``seat_return``: levels gained by ``seat``'s team (negative when the
        other team gains). ``compare(column, against="best")`` gives per candidate the mean,
        its 95% CI and the paired difference to the best.

    Raises:
        InvalidValueError: a seat outside 0-3, a deal still dealing or over, a half-built
            card-by-card move, bad samples/policy/threads/limit (named).
        IllegalPlayError: candidates while ``seat`` is not to move (naming who is), or a
            candidate that is not legal now (naming it and the rule).
        ImpossibleDealError: knowledge no deal satisfies (naming the constraint).
        InvalidCardError: a candidate that does not parse.
        SimulationInterrupted: Ctrl-C (``.result`` holds the completed samples).
    """
    state = _shengji_state(deal)
    seat = int(_core._check_int("seat", seat, 0, 3))
    samples = _check_count("samples", samples)
    limit = _check_count("limit", limit)
    threads = _check_threads(threads, samples)
    chunk_size = _check_count("chunk_size", chunk_size, allow_none=True)
    seed = _check_seed(seed)
    _check_progress(progress)
    if not isinstance(policy, str) or policy not in POLICIES:
        raise InvalidValueError(f"invalid policy {_check.shown(policy)}: expected one of {', '.join(POLICIES)}")
    cands = None if candidates is None else [
        None if c is None else _cards_text(c, "candidate") for c in _candidate_list(candidates)]
    extra_hands, extra_kitty, extra_voids = _known_parts(
        known, lambda s, what: int(_core._check_int(what, s, 0, 3)))
    preset = state.rules.preset
    columns = len(_core._columns(state.rules)) + 1  # + seat_return
    _check_samples_fit(samples, limit if cands is None else len(cands), columns)
    engine = functools.partial(
        _core._evaluate_position,
        state,
        seat,
        cands,
        int(limit),
        int(samples),
        policy,
        int(seed),
        threads=None if threads is None else int(threads),
        chunk_size=None if chunk_size is None else int(chunk_size),
        hands=extra_hands,
        kitty=extra_kitty,
        voids=extra_voids,
    )
    return _run(engine, progress, int(samples), f"{preset} seat {seat} position", preset, seat, policy, int(seed))


def _shengji_state(deal: Any) -> _core.GameState:
    """``deal`` when it is a Shengji-family ``zhipai.GameState``, else ``InvalidValueError``."""
    if not isinstance(deal, _core.GameState) or deal.rules.preset not in ("tractor", "tractor_jj", "eighty_points"):
        what = f"GameState of {deal.rules.preset}" if isinstance(deal, _core.GameState) else _check.shown(deal)
        raise InvalidValueError(
            f"invalid deal {what}: expected the zhipai.GameState of a Shengji-family deal "
            "(zhipai.Game('tractor').new_deal(...)); position evaluation of the other games is "
            "not available yet")
    return deal


def position_view(deal: Any, seat: int) -> dict[str, Any]:
    """What ``seat`` knows in a Shengji deal in progress (the knowledge
    :func:`evaluate_position` conditions on): ``holding`` (cards each seat still holds, list of
    4 ints), ``kitty`` (kitty size), ``gone`` (the cards already played), ``fixed`` (per seat,
    the cards known to be in its hand: ``seat``'s whole hand), ``known_kitty`` (the buried kitty
    when ``seat`` buried it, else ``""``) and ``voids`` (per seat, the card kinds it has
    shown to hold none of). Raises as :func:`evaluate_position`."""
    state = _shengji_state(deal)
    return dict(_core._position_view(state, int(_core._check_int("seat", seat, 0, 3))))


def _normal_cards(text: str) -> str | None:
    """``text`` as the engine writes a card list (kind order, upper case), or None if it is not
    one."""
    try:
        return " ".join(str(c) for c in sorted(_core.cards(text), key=lambda c: c.index))
    except ZhipaiError:
        return None


def _label(candidate: str | None, empty: str = "pass") -> str:
    """How a candidate first action is shown: ``policy`` (None), ``empty`` (""; ``pass``, or
    ``abdicate`` for a Baohuang scepter holder), else its cards."""
    if candidate is None:
        return "policy"
    return candidate if candidate.strip() else empty
