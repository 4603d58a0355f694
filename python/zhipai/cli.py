"""The ``zhipai`` command line. Errors print one readable line and exit with status 2."""

from __future__ import annotations

import argparse
import decimal
import importlib
import os
import re
import sys
from collections.abc import Callable, Sequence
from typing import Any

import zhipai
from zhipai import _core, _files
from zhipai.deal import hand_spec
from zhipai.deal import register_cli as _register_deal_cli
from zhipai.simulate import ROW_FORMATS, _optional, check_plot_path


def count(text: str) -> int:
    """A whole number for a count option: digits (``1000000``, ``1_000_000``) or scientific
    notation (``1e6``, ``2.5e5``) whose value is a whole number; anything else is refused by
    name (``-n 1.5`` or ``-n 1e-3`` are not whole numbers). The range is checked where the value
    is used (``--deals 0`` names its limits)."""
    t = text.strip().replace("_", "")
    try:
        return int(t)
    except ValueError:
        pass
    try:
        d = decimal.Decimal(t)
    except decimal.InvalidOperation:
        raise argparse.ArgumentTypeError(
            f"{text!r} is not a number: expected a whole number such as 1000000 or 1e6") from None
    if not d.is_finite() or d != d.to_integral_value():
        raise argparse.ArgumentTypeError(f"{text!r} is not a whole number: expected e.g. 1000000, 1e6 or 2.5e5")
    return int(d)


def _cmd_cases(args: argparse.Namespace) -> int:
    from zhipai.testing import check_cases

    report = check_cases(*args.files)
    for failure in report.failures:
        print(failure)
    if args.verbose:
        for cid in report.skipped_ids:
            print(f"SKIP {cid}")
    print(report)
    return 1 if report.failed else 0


def _cmd_presets(args: argparse.Namespace) -> int:
    for p in zhipai.presets():
        print(f"{p['name']}  ({p['game']}): {p['description']}")
        for o in p["options"]:
            choices = f"  [{' | '.join(o['choices'])}]" if o["choices"] else ""
            print(f"    {o['name']} = {o['value']}{choices}")
            if args.verbose and o["doc"]:
                print(f"        {o['doc']}")
    return 0


def _rules_from_args(args: argparse.Namespace) -> zhipai.Rules:
    """The rule set of ``PRESET --decks N --option K=V ...``. Values are passed as text, which
    each option reads by its type (``true``/``false``, a number, a choice; the text ``zhipai
    presets`` lists), so ``-o chaodi=yes`` or ``-o decks=two`` is refused, naming the value."""
    options: dict[str, str] = {}
    for item in args.option or []:
        name, sep, value = item.partition("=")
        if not sep or not name:
            raise ValueError(f"invalid --option {item!r}: expected NAME=VALUE")
        _set_once(options, name.strip(), value.strip(), f"--option {item!r}")
    if args.decks is not None:
        _set_once(options, "decks", str(args.decks), f"--decks {args.decks}")
    return _core.rules(args.preset, options, text=True)


def _set_once(options: dict[str, str], name: str, value: str, given: str) -> None:
    """Set option ``name``; one given twice (``-o decks=2 -o decks=3``, ``--decks 1 -o decks=2``)
    is refused, never silently the last one (the same value twice is harmless)."""
    if name in options and options[name] != value:
        raise ValueError(f"invalid {given}: option {name} is already set to {options[name]!r}")
    options[name] = value


def _check_outputs(args: argparse.Namespace) -> None:
    """Refuse a bad --out / --plot before a long run, not after it (the rows would be lost): the
    extension is known, the folder exists and takes a new file, the target is not a directory,
    the optional package the format needs is installed."""
    if args.out is not None:
        if args.aggregate_only:
            raise ValueError("--out needs rows: it cannot be combined with --aggregate-only")
        out = _files.check_output(args.out, kinds=ROW_FORMATS, what="--out")
        if out.suffix.lower() == ".csv":
            _files.check_output(args.out + ".json", kinds=None, what="--out")
        if out.suffix.lower() == ".parquet":
            _optional("pyarrow.parquet", "--out FILE.parquet", "arrow")
    if args.plot is not None:
        _optional("matplotlib", "--plot", "plot")
        check_plot_path(args.plot, "--plot")


def _load_policy(spec: str) -> Any:
    """A player name (``random``, ``greedy``, ``pimc(worlds=32,rollout=greedy)``,
    ``ismcts(iterations=2000)``: no colon; canonicalised, a bad one refused naming it), or
    ``module:function`` imported — a Python policy ``f(observation, legal_moves) -> move``. The
    module is arbitrary code, run with the user's rights. The current directory is *appended* to
    the import path (when not on it already), so a local file or folder named like a module
    zhipai imports (``tqdm``, ``numpy``, …) cannot replace it."""
    if ":" not in spec:
        try:
            return zhipai.policy.player_name(spec)
        except zhipai.InvalidValueError as e:
            unknown = "(" not in spec  # not a search player's parameters: maybe a module was meant
            raise ValueError(f"{e} (or MODULE:FUNCTION, a Python policy)" if unknown else str(e)) from None
    module, sep, name = spec.partition(":")
    if not sep or not module or not name:
        raise ValueError(f"invalid policy {spec!r}: expected a player name (random, greedy, basic, "
                         "pimc(...), ismcts(...)) or module:function")
    if os.getcwd() not in sys.path and "" not in sys.path:
        sys.path.append(os.getcwd())
    try:
        obj: Any = importlib.import_module(module)
    except Exception as e:
        raise ValueError(
            f"invalid policy {spec!r}: importing module {module!r} failed: {type(e).__name__}: {e}"
        ) from e
    for part in name.split("."):
        if not hasattr(obj, part):
            raise ValueError(f"invalid policy {spec!r}: module {module!r} has no {name!r}")
        obj = getattr(obj, part)
    if not callable(obj):
        raise ValueError(f"invalid policy {spec!r}: {name!r} is not callable")
    return obj


def _policy_from_args(args: argparse.Namespace) -> Any:
    """``--policy`` for every seat, or a mapping when ``--policy-seat SEAT=SPEC`` is given."""
    base = _load_policy(args.policy)
    if not args.policy_seat:
        return base
    seats: dict[Any, Any] = {"others": base}
    for item in args.policy_seat:
        seat, sep, spec = item.partition("=")
        seat = seat.strip()
        # ASCII digits only: str.isdigit() also accepts "²", which int() refuses.
        if not sep or not re.fullmatch(r"[0-9]+", seat):
            raise ValueError(f"invalid --policy-seat {item!r}: expected SEAT=POLICY, e.g. 0=mybot:play")
        if int(seat) in seats:
            raise ValueError(f"invalid --policy-seat {item!r}: seat {int(seat)} is given twice")
        seats[int(seat)] = _load_policy(spec.strip())
    return seats


def _has_callable(policy: Any) -> bool:
    """Whether a ``--policy``/``--policy-seat`` specification holds a Python policy."""
    values = policy.values() if isinstance(policy, dict) else [policy]
    return any(not isinstance(p, str) for p in values)


def _cmd_simulate(args: argparse.Namespace) -> int:
    rules = _rules_from_args(args)
    _check_outputs(args)
    policy = _policy_from_args(args)
    if args.threads is not None and _has_callable(policy):
        print("zhipai: note: --threads is ignored with Python policies "
              "(those deals run on one thread)", file=sys.stderr)
    status = 0
    try:
        result = zhipai.simulate(
            rules,
            args.deals,
            policy=policy,
            seed=args.seed,
            threads=args.threads,
            progress=False if args.quiet else None,
            chunk_size=args.chunk_size,
            aggregate_only=args.aggregate_only,
            first_deal=args.first_deal,
            backend=args.backend,
            ray_address=args.ray_address,
            chunk_deals=args.chunk_deals,
        )
    except zhipai.SimulationInterrupted as e:
        result, status = e.result, 130
        print(f"zhipai: interrupted after {result.completed} of {result.requested} deals", file=sys.stderr)
    print(result.summary(columns=args.columns))
    sys.stdout.flush()
    if args.out is not None:
        lost = (f"the {result.completed} rows of this run are not saved; the summary above is what "
                "remains")
        written = result._save(args.out, kept=lost)
        note = f" ({result.completed} of {result.requested} deals: interrupted)" if result.interrupted else ""
        side = f", provenance in {written}.json" if written.suffix.lower() == ".csv" else ""
        print(f"rows written to {written}{note}{side}")
    if args.plot is not None:
        result.plot(args.plot, columns=args.columns)
        print(f"plot written to {args.plot}")
    return status


def _add_simulate_parser(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser(
        "simulate",
        help="play many deals with built-in or Python policies and summarise the results",
        description="Play DEALS complete deals of PRESET (deal i seeded by (SEED, i): the result "
        "does not depend on --threads) and print per-column mean, std, 95% CI and distributions.",
    )
    p.add_argument("preset", metavar="PRESET", help="a preset (see `zhipai presets`)")
    p.add_argument("--decks", type=int, help="number of decks (sets the decks option)")
    p.add_argument("--option", "-o", action="append", metavar="K=V", help="option override, repeatable")
    p.add_argument("--deals", "-n", type=count, default=10_000,
                   help="number of deals (default 10000; 1e6 and 1_000_000 are read as 1000000)")
    p.add_argument("--policy", "-p", default="random",
                   help="a player name: random (default), greedy, basic (the first-generation greedy), pimc, "
                   "pimc(worlds=32,rollout=greedy), "
                   "ismcts(iterations=2000) (search players: any subset of their parameters); or "
                   "MODULE:FUNCTION, a Python policy "
                   "f(observation, legal_moves) -> move for every seat (slow path). The module is "
                   "arbitrary code run with your rights: only name modules you trust. The current "
                   "directory is appended to the import path (it cannot shadow installed modules)")
    p.add_argument("--policy-seat", action="append", metavar="SEAT=POLICY",
                   help="the policy of one seat (a player name or MODULE:FUNCTION), repeatable; "
                   "the other seats use --policy. E.g. --policy greedy --policy-seat 0=pimc or "
                   "--policy-seat 0=mybot:play")
    p.add_argument("--seed", "-s", type=int, default=0, help="seed of the run (default 0)")
    p.add_argument("--threads", "-t", type=count,
                   help="worker threads, 1-256 (default: every core; more than the deals are "
                   "clamped); ignored with Python policies, which run on one thread")
    p.add_argument("--chunk-size", type=count, help=argparse.SUPPRESS)
    p.add_argument("--out", help="write the rows to a .csv, .parquet or .npz file, with their "
                   "provenance (a .csv gets a FILE.json sidecar); checked before the run, written "
                   "atomically (a temporary file renamed into place)")
    p.add_argument("--plot", metavar="FILE",
                   help="draw the key columns (bars on the value grid, quantiles, key events with CIs; "
                   "with --columns all every column) to an image file (.png, .pdf, .svg; matplotlib)")
    p.add_argument("--columns", default="key", choices=["key", "all"],
                   help="what the summary shows: key (default: the game's key columns and events, their "
                   "quantiles and distributions, the codes of coded columns) or all (every column too)")
    p.add_argument("--aggregate-only", action="store_true", help="keep aggregates only (bounded memory)")
    p.add_argument("--quiet", "-q", action="store_true", help="no progress bar")
    p.add_argument("--first-deal", type=count, default=0,
                   help="index of the first deal (default 0): plays deals FIRST..FIRST+DEALS of the seed")
    _add_ray_arguments(p)
    p.set_defaults(func=_cmd_simulate)


def _seat_cards(items: list[str] | None, flag: str) -> dict[int, str]:
    """``["2=H", "3=AS KS"]`` → ``{2: "H", 3: "AS KS"}`` (:func:`zhipai.deal.hand_spec`: the
    one syntax ``SEAT=CARDS`` of every command; the older ``SEAT:CARDS`` is read too)."""
    out: dict[int, str] = {}
    for item in items or []:
        seat, cards = hand_spec(item, flag)
        out[seat] = cards
    return out


def _cmd_evaluate(args: argparse.Namespace) -> int:
    if args.plot is not None:
        _optional("matplotlib", "--plot", "plot")
        check_plot_path(args.plot, "--plot")
    candidates = [None if c == "policy" else c for c in args.candidate] if args.candidate else None
    if args.position is not None:
        return _evaluate_position(args, candidates)
    if not args.hand:
        raise ValueError("evaluate needs --hand (a whole hand) or --position (a Shengji deal record)")
    rules = _rules_from_args(args)
    run = _evaluate_options(args, candidates)
    return _print_evaluation(args, lambda: zhipai.evaluate(
        rules, args.seat, args.hand, dealer=args.dealer, level=args.level, trump=args.trump, **run
    ))


def _evaluate_options(args: argparse.Namespace, candidates: list[str | None] | None) -> dict[str, object]:
    """The arguments ``evaluate`` and ``evaluate_position`` share, from the command line."""
    return {
        "known": _known_from_args(args),
        "candidates": candidates,
        "samples": args.samples,
        "policy": args.policy,
        "seed": args.seed,
        "threads": args.threads,
        "progress": False if args.quiet else None,
    }


def _known_from_args(args: argparse.Namespace) -> dict[str, object]:
    """``--known``, ``--void``, ``--kitty`` as the ``known`` mapping of the evaluate API."""
    return {
        "hands": _seat_cards(args.known, "--known"),
        "voids": _seat_cards(args.void, "--void"),
        "kitty": args.kitty or "",
    }


def _print_evaluation(args: argparse.Namespace, run: Callable[[], Any]) -> int:
    """Run an evaluation and print its report (key columns unless ``--columns all``); exit
    status 130 with the completed samples on Ctrl-C."""
    status = 0
    try:
        result = run()
    except zhipai.SimulationInterrupted as e:
        result, status = e.result, 130
        print(f"zhipai: interrupted after {result.completed} of {result.requested} samples", file=sys.stderr)
    print(result.report(args.columns))
    sys.stdout.flush()
    if args.plot is not None:
        result.plot(args.plot, columns=args.columns)
        print(f"plot written to {args.plot}")
    return status


def _evaluate_position(args: argparse.Namespace, candidates: list[str | None] | None) -> int:
    """``--position FILE``: a deal record (``zhipai.GameState.to_json``) replayed to its last
    move, evaluated from ``--seat`` (``zhipai.evaluate_position``)."""
    conflicting = [flag for flag, value in (
        ("--hand", args.hand), ("--trump", args.trump), ("--level", args.level),
        ("--dealer", args.dealer), ("--decks", args.decks), ("--option", args.option),
    ) if value is not None]
    if conflicting:
        raise ValueError(
            f"--position takes the rules, level, trump, dealer and hands from the deal record: "
            f"remove {', '.join(conflicting)}")
    deal = _read_position(args.position)
    recorded = deal.rules.preset
    if recorded != args.preset:
        raise ValueError(
            f"PRESET {args.preset!r} differs from the deal record's preset {recorded!r} in {args.position}")
    run = _evaluate_options(args, candidates)
    return _print_evaluation(args, lambda: zhipai.evaluate_position(deal, args.seat, **run))


def _read_position(path: str) -> Any:
    """The deal record in ``path``: at most 4 MiB (the core's limit for deal records) of UTF-8
    JSON, replayed. Whatever the content — not JSON, nested too deeply, a record missing its
    fields or of the wrong types — the error is one ``FileError`` naming the file."""
    text = _files.read_text(path, limit=_files.MAX_RECORD_BYTES, what="deal record")
    _files.parse_json(text, source=path, what="deal record")
    try:
        return zhipai.Game.from_json(text)
    except zhipai.ZhipaiError as e:
        raise zhipai.FileError(f"cannot read deal record {path}: {e}", path=path) from e


def _add_evaluate_parser(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser(
        "evaluate",
        help="Monte Carlo evaluation of one seat's hand (and of candidate first actions)",
        description="Sample the unknown cards uniformly among the deals consistent with what SEAT "
        "knows, play each sample out once per candidate (same deals and randomness for every "
        "candidate) and print each outcome column's mean with 95% CIs.",
    )
    p.add_argument("preset", metavar="PRESET", help="a preset (see `zhipai presets`)")
    p.add_argument("--hand", help="the seat's whole hand, e.g. 'BJ SJ 2S 2S ...' (or use --position)")
    p.add_argument("--position", metavar="FILE",
                   help="evaluate a deal in progress of any game instead: a record written by "
                   "zhipai.GameState.to_json (candidates: move text, default every legal move)")
    p.add_argument("--seat", type=int, default=0, help="the evaluated seat (default 0)")
    p.add_argument("--samples", "-n", type=count, default=10_000, help="sampled deals (default 10000; 1e4 accepted)")
    p.add_argument("--candidate", "-c", action="append", metavar="CARDS",
                   help="a first action to compare (cards; '' or 'pass' = pass, Baohuang scepter "
                   "holder: '' or 'abdicate' = 让位, 'grab' = 抢独, 'ascend 9C' = 登基; 'policy' = let "
                   "the policy choose; Hong Wu, Gongzhu, and Tractor with --trump/--dealer for a "
                   "non-dealer, also move text such as 'bid 60', 'expose QS', 'play AC' (a Gongzhu play "
                   "is bare cards: 'AC'): the seat's next decision, counted when not legal there), "
                   "repeatable")
    p.add_argument("--known", "--fixed", action="append", metavar="SEAT=CARDS",
                   help="cards known to be in another hand, e.g. --known '1=AS KS' (repeatable; the same "
                   "syntax as `zhipai deal --fixed`)")
    p.add_argument("--void", action="append", metavar="SEAT=CARDS",
                   help="a seat holds none of these: cards, or suit letters (1=H, 1='S H' or 1=SHDC)")
    p.add_argument("--columns", default="key", choices=["key", "all"],
                   help="what is printed: key (default: which candidate is best for the seat and by "
                   "how much, the seat's return, the game's key columns and events) or all (every "
                   "outcome column too)")
    p.add_argument("--plot", metavar="FILE",
                   help="draw the candidates side by side (distributions, mean seat return with CIs, "
                   "key events) to an image file (matplotlib); checked before the run")
    p.add_argument("--kitty", metavar="CARDS", help="cards known to be in the kitty")
    p.add_argument("--dealer", type=int, help="the dealer seat, when known")
    p.add_argument("--level", help="the level rank 2..A, or NT with after_A=no_trump_level, when known "
                   "(Shengji family; default 2)")
    p.add_argument("--trump", help="the trump S/H/D/C/NT, when known (Shengji family): no declaring")
    p.add_argument("--decks", type=int, help="number of decks (sets the decks option)")
    p.add_argument("--option", "-o", action="append", metavar="K=V", help="option override, repeatable")
    p.add_argument("--policy", "-p", default="random",
                   help="the rollout player of every seat: random (default), greedy, basic, or a "
                   "search player, e.g. pimc(worlds=16) or ismcts(iterations=500) (a search at every "
                   "decision: slow, use few samples)")
    p.add_argument("--seed", "-s", type=int, default=0, help="seed (default 0)")
    p.add_argument("--threads", "-t", type=count,
                   help="worker threads, 1-256 (default: every core; more than the samples are clamped)")
    p.add_argument("--quiet", "-q", action="store_true", help="no progress bar")
    p.set_defaults(func=_cmd_evaluate)


def _cmd_arena(args: argparse.Namespace) -> int:
    rules = _rules_from_args(args)
    if not args.policy or len(args.policy) < 2:
        raise ValueError("arena needs at least two --policy (e.g. --policy random --policy greedy)")
    policies = [_load_policy(p) for p in args.policy]
    if args.threads is not None and any(not isinstance(p, str) for p in policies):
        print("zhipai: note: --threads is ignored with Python policies (those deals run on one thread)",
              file=sys.stderr)
    status = 0
    try:
        result = zhipai.arena(
            rules, policies, deals=args.deals, seed=args.seed, threads=args.threads,
            progress=False if args.quiet else None, backend=args.backend,
            ray_address=args.ray_address, chunk_deals=args.chunk_deals,
        )
    except zhipai.SimulationInterrupted as e:
        result, status = e.result, 130
        print(f"zhipai: interrupted after {result.completed} of {result.requested} deals", file=sys.stderr)
    print(result.to_json() if args.json else result)
    return status


def _add_ray_arguments(p: argparse.ArgumentParser) -> None:
    """``--backend``, ``--ray-address`` and ``--chunk-deals`` (simulate, arena)."""
    p.add_argument("--backend", choices=("local", "ray"), default="local",
                   help="local (default) or ray: split the deals over a Ray cluster, same result "
                   "(needs pip install 'zhipai[ray]')")
    p.add_argument("--ray-address", metavar="ADDR",
                   help="Ray cluster to join with --backend ray (e.g. auto; default RAY_ADDRESS or a local cluster)")
    p.add_argument("--chunk-deals", type=count, help="deals per Ray task with --backend ray (default: automatic)")


def _add_arena_parser(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser(
        "arena",
        help="duplicate-deal tournament between policies: mean returns, pairwise differences, Elo",
        description="Play DEALS deals of PRESET, each once per lineup (seat s gets policy "
        "((s + r) mod seats) mod policies), so every policy holds every hand; print each policy's "
        "mean return with a 95% CI over deals, the pairwise differences on the same hands, an "
        "Elo-style rating and the time per decision (see help(zhipai.arena)).",
    )
    p.add_argument("preset", metavar="PRESET", help="a preset (see `zhipai presets`)")
    p.add_argument("--policy", "-p", action="append", metavar="POLICY",
                   help="a player name (random, greedy, basic, pimc, pimc(worlds=32,rollout=greedy), "
                   "ismcts(iterations=2000)) or MODULE:FUNCTION (a Python policy: the deals then run "
                   "in a Python loop); give 2 up to the number of seats, in order")
    p.add_argument("--deals", "-n", type=count, default=1000, help="duplicate deals (default 1000; 1e4 works)")
    p.add_argument("--seed", "-s", type=int, default=0, help="seed of the run (default 0)")
    p.add_argument("--threads", "-t", type=count, help="worker threads, 1-256 (default: every core); "
                   "results do not depend on it")
    p.add_argument("--json", action="store_true",
                   help="print only one JSON object: preset, deals, policies (name, mean_return, ci95, "
                   "seconds_per_decision, elo), pairs (a, b, mean_diff, ci95), seed, lineups")
    p.add_argument("--decks", type=int, help="number of decks (sets the decks option)")
    p.add_argument("--option", "-o", action="append", metavar="K=V", help="option override, repeatable")
    p.add_argument("--quiet", "-q", action="store_true", help="no progress bar")
    _add_ray_arguments(p)
    p.set_defaults(func=_cmd_arena)


def split_variant(item: str) -> dict[str, str]:
    """``"kitty_multiplier=power_of_two,chaodi=true"`` → ``{"kitty_multiplier": "power_of_two",
    "chaodi": "true"}``: one rule variant of ``zhipai compare -o``, options separated by commas
    outside braces (``mandatory_levels={5,10,K,A}`` stays whole)."""
    parts, depth, cur = [], 0, ""
    for ch in item:
        depth += ch == "{"
        depth -= ch == "}"
        if ch == "," and depth == 0:
            parts.append(cur)
            cur = ""
        else:
            cur += ch
    parts.append(cur)
    out: dict[str, str] = {}
    for part in parts:
        name, sep, value = part.partition("=")
        if not sep or not name.strip():
            raise ValueError(f"invalid -o {item!r}: expected NAME=VALUE[,NAME=VALUE...], e.g. -o chaodi=true")
        if name.strip() in out:
            raise ValueError(f"invalid -o {item!r}: option {name.strip()!r} is given twice")
        out[name.strip()] = value.strip()
    return out


def _cmd_compare(args: argparse.Namespace) -> int:
    from zhipai.compare import compare

    if not args.variant:
        raise ValueError("compare needs at least one -o NAME=VALUE (one rule variant per -o)")
    if args.plot is not None:
        _optional("matplotlib", "--plot", "plot")
        check_plot_path(args.plot, "--plot")
    base: dict[str, str] = {}
    for item in args.base or []:
        for name, value in split_variant(item).items():
            _set_once(base, name, value, f"--base {item!r}")
    if args.decks is not None:
        _set_once(base, "decks", str(args.decks), f"--decks {args.decks}")
    rules = _core.rules(args.preset, base, text=True)
    variants = [split_variant(v) for v in args.variant]
    status = 0
    try:
        result = compare(rules, variants, deals=args.deals, seed=args.seed, policy=args.policy,
                         threads=args.threads, progress=False if args.quiet else None, text=True)
    except zhipai.SimulationInterrupted as e:
        result, status = e.result, 130
        print(f"zhipai: interrupted after {result.deals} of {result.requested} deals", file=sys.stderr)
    print(result.report(args.columns))
    sys.stdout.flush()
    if args.plot is not None:
        result.plot(args.plot, columns=args.columns)
        print(f"plot written to {args.plot}")
    return status


def _add_compare_parser(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser(
        "compare",
        help="play the same deals under rule variants and compare them (paired)",
        description="Play deals 0..DEALS of SEED under each rule variant (one -o per variant; one "
        "-o alone is compared with the preset as is): deal i is drawn from the same generator in "
        "every variant, so the differences are paired. Prints the share of deals whose outcome "
        "changed, the paired differences of the key columns with 95% CIs and the key events.",
    )
    p.add_argument("preset", metavar="PRESET", help="a preset (see `zhipai presets`)")
    p.add_argument("--option", "-o", dest="variant", action="append", metavar="K=V[,K=V...]",
                   help="one rule variant: option overrides, comma-separated (repeat for each variant), "
                   "e.g. -o kitty_multiplier=twice_largest_unit -o kitty_multiplier=twice_lead_cards")
    p.add_argument("--base", action="append", metavar="K=V[,K=V...]",
                   help="option overrides every variant shares (repeatable)")
    p.add_argument("--decks", type=int, help="number of decks of every variant")
    p.add_argument("--deals", "-n", type=count, default=10_000, help="deals per variant (default 10000; 1e6 accepted)")
    p.add_argument("--seed", "-s", type=int, default=0, help="seed (default 0)")
    p.add_argument("--policy", "-p", default="random",
                   help="the player of every seat: random (default), greedy or basic")
    p.add_argument("--threads", "-t", type=count, help="worker threads, 1-256 (default: every core)")
    p.add_argument("--columns", default="key", choices=["key", "all"],
                   help="key (default: the game's key columns and events) or all (every column)")
    p.add_argument("--plot", metavar="FILE", help="draw the variants side by side to an image file (matplotlib)")
    p.add_argument("--quiet", "-q", action="store_true", help="no progress bar")
    p.set_defaults(func=_cmd_compare)


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="zhipai",
        description="zhipai (纸牌): simulation engine for Chinese card games "
        "(Tractor/升级/八十分, Hong Wu, Gongzhu, Baohuang).",
    )
    parser.add_argument("--version", action="version", version=f"zhipai {zhipai.__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")

    p = sub.add_parser("cases", help="check rule-case files (shared/cases/FORMAT.md)")
    p.add_argument("files", nargs="+", metavar="FILE", help="JSON Lines case files")
    p.add_argument("-v", "--verbose", action="store_true", help="also list skipped cases")
    p.set_defaults(func=_cmd_cases)

    p = sub.add_parser("presets", help="list presets and their options")
    p.add_argument("-v", "--verbose", action="store_true", help="also print each option's doc")
    p.set_defaults(func=_cmd_presets)

    _register_deal_cli(sub)
    _add_simulate_parser(sub)
    _add_evaluate_parser(sub)
    _add_arena_parser(sub)
    _add_compare_parser(sub)

    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point of the ``zhipai`` console script; returns the exit status."""
    parser = build_parser()
    args = parser.parse_args(argv)
    if not getattr(args, "func", None):
        parser.print_help()
        return 2
    try:
        return int(args.func(args))
    except zhipai.ZhipaiError as e:
        print(f"zhipai: error: {e}", file=sys.stderr)
        return 2
    except BrokenPipeError:
        # Output piped into e.g. `head`, which stopped reading: not an error of ours.
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 0
    except (OSError, ValueError, ImportError) as e:
        print(f"zhipai: error: {e}", file=sys.stderr)
        return 2
    except KeyboardInterrupt as e:
        # e.g. "interrupted while writing rows.csv: nothing was written (...)"
        print(f"zhipai: {e}" if str(e) else "zhipai: interrupted", file=sys.stderr)
        return 130


if __name__ == "__main__":
    sys.exit(main())
