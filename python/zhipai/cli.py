"""The ``zhipai`` command line. Errors print one readable line and exit with status 2."""

from __future__ import annotations

import argparse
import sys
from typing import Sequence

import zhipai
from zhipai.deal import register_cli as _register_deal_cli


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
    except (OSError, ValueError) as e:
        print(f"zhipai: error: {e}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print("zhipai: interrupted", file=sys.stderr)
        return 130


if __name__ == "__main__":
    sys.exit(main())
