#!/usr/bin/env bash
# Build and run the fuzz targets on stable Rust: libFuzzer (libfuzzer-sys) with coverage
# instrumentation, no sanitizer — the flags `cargo fuzz build -s none` passes, plus overflow
# checks and debug assertions. No cargo-fuzz and no nightly needed (see fuzz/README.md).
#
#   fuzz/run.sh build                     build every target
#   fuzz/run.sh list                      the targets
#   fuzz/run.sh run TARGET [SECONDS] [libFuzzer args...]
#                                         fuzz TARGET (default 600 s) from its seed corpus
#                                         fuzz/corpus/TARGET (read only) and its work corpus
#                                         fuzz/work/TARGET (new inputs go there, not into git)
#   fuzz/run.sh repro TARGET FILE...      run TARGET once on each FILE (a crash artifact)
#   fuzz/run.sh ci [SECONDS]              build, then every target from its seed corpus alone,
#                                         a fixed number of runs from a fixed seed (about
#                                         SECONDS, default 20, on the CI machine; stopped at
#                                         4 × SECONDS); fails on a crash
#
# A crash (panic, abort, a single allocation over 256 MiB, a run over the -timeout, more than
# -rss_limit_mb) stops libFuzzer with a non-zero status and saves the input to
# fuzz/artifacts/TARGET/.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
cd "$here"
export CARGO_TERM_COLOR=never
host="$(rustc -vV | sed -n 's/^host: //p')"
targets=(notation tricks record_text record_mutate apply)
# Inputs per second of each target from its seed corpus on the CI machine (2026-12-02 CI
# logs): `ci` runs SECONDS × this many inputs, the same ones on every run of a commit (a fixed
# `-seed`), so a CI result can be reproduced; exploring new inputs is `run`'s job.
declare -A rate=([notation]=8000 [tricks]=20000 [record_text]=25000 [record_mutate]=1800 [apply]=700)
# `--target` keeps the instrumentation off build scripts and proc macros.
flags="-Cpasses=sancov-module -Cllvm-args=-sanitizer-coverage-level=4 \
-Cllvm-args=-sanitizer-coverage-inline-8bit-counters -Cllvm-args=-sanitizer-coverage-pc-table \
-Cllvm-args=-sanitizer-coverage-trace-compares -Cllvm-args=-sanitizer-coverage-stack-depth \
--cfg fuzzing -Cdebug-assertions -Coverflow-checks"
bin() { echo "$here/target/$host/release/$1"; }

build() {
  RUSTFLAGS="$flags" cargo build --release --locked --target "$host" --bins
}

# Common libFuzzer settings: a hang is a run over 10 s; memory is capped.
opts=(-timeout=10 -rss_limit_mb=3072 -print_final_stats=1)

run_target() {
  local t="$1" secs="$2"; shift 2
  # (a target without a seed corpus in git starts from an empty one)
  mkdir -p "work/$t" "artifacts/$t" "corpus/$t"
  local dict=()
  [[ -f "dict/$t.dict" ]] && dict=(-dict="dict/$t.dict")
  "$(bin "$t")" "${opts[@]}" "${dict[@]}" -max_total_time="$secs" \
    -artifact_prefix="artifacts/$t/" "$@" "work/$t" "corpus/$t"
}

case "${1:-}" in
  build) build ;;
  list) printf '%s\n' "${targets[@]}" ;;
  run)
    t="${2:?target}"; secs="${3:-600}"; shift $(( $# < 3 ? $# : 3 ))
    build
    run_target "$t" "$secs" "$@"
    ;;
  repro)
    t="${2:?target}"; shift 2
    build
    "$(bin "$t")" "${opts[@]}" "$@"
    ;;
  ci)
    secs="${2:-20}"
    build
    for t in "${targets[@]}"; do
      runs=$(( secs * ${rate[$t]} ))
      echo "-- fuzz $t ($runs runs from seed 1, about ${secs} s)"
      mkdir -p "artifacts/$t" "corpus/$t"
      tmp="$(mktemp -d)"
      dict=()
      [[ -f "dict/$t.dict" ]] && dict=(-dict="dict/$t.dict")
      # The seed corpus is only read (new inputs go to a temporary folder); stats go to the
      # log, the last lines are shown.
      if ! "$(bin "$t")" "${opts[@]}" "${dict[@]}" -seed=1 -runs="$runs" \
          -max_total_time=$(( 4 * secs )) \
          -artifact_prefix="artifacts/$t/" "$tmp" "corpus/$t" >"$tmp.log" 2>&1; then
        tail -n 60 "$tmp.log"
        echo "fuzz target $t crashed: input saved in fuzz/artifacts/$t/ (reproduce: fuzz/run.sh repro $t FILE)"
        exit 1
      fi
      grep -E '^stat::number_of_executed_units|^Done|DONE' "$tmp.log" | tr '\n' ' '; echo
      rm -rf "$tmp" "$tmp.log"
    done
    ;;
  *) sed -n '2,20p' "$0"; exit 2 ;;
esac
