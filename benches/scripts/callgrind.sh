#!/bin/bash
# Instructions per deal of the random and greedy rollouts (callgrind: load-independent), with the
# checksums that prove the random streams. Usage: benches/scripts/callgrind.sh OUTFILE (from the
# repository root; needs valgrind). BENCHMARKS.md compares these figures across commits.
set -e
out=$1
CARGO_PROFILE_RELEASE_DEBUG=true cargo build -q --release -p zhipai-core --examples
B=target/release/examples
run() { local name="$1"; shift; local r=$(valgrind --tool=callgrind --callgrind-out-file=/dev/null "$@" 2>&1 | grep -E "Collected|checksum" | tr '\n' ' '); echo "$name | $r" >> $out; }
: > $out
run "tractor2 random 2000" $B/shengji_deals 2000 tractor 2 random
run "tractor2 greedy 200" $B/shengji_deals 200 tractor 2 greedy
run "tractor1 random 2000" $B/shengji_deals 2000 tractor 1 random
run "eighty3 random 1000" $B/shengji_deals 1000 eighty_points 3 random
run "hongwu random 2000" $B/hongwu_deals hongwu random 2000
run "hongwu greedy 300" $B/hongwu_deals hongwu greedy 300
run "gongzhu random 20000" $B/gongzhu_deals 20000 random 1 simulate
run "gongzhu greedy 5000" $B/gongzhu_deals 5000 greedy 1 simulate
run "baohuang random 2000" $B/baohuang_deals random 2000
run "baohuang greedy 500" $B/baohuang_deals greedy 500
cat $out
