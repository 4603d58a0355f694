//! Play N seeded Baohuang deals through `DealSimulator::play_deal` — the repeatable workload for
//! instruction counts (load-independent, unlike wall-clock timings):
//!
//! ```text
//! CARGO_PROFILE_RELEASE_DEBUG=true cargo build --release -p zhipai-core --example baohuang_deals
//! valgrind --tool=callgrind --callgrind-out-file=/tmp/bh.out \
//!     target/release/examples/baohuang_deals random 2000
//! callgrind_annotate /tmp/bh.out | head -40
//! ```
//!
//! Arguments: policy (`random` | `greedy` | `basic`, default random), deals (default 2000), seed (default
//! 1). Deal `i` uses `deal_rng(seed, i)`, as the simulation layer does. Prints a checksum of the
//! result rows (changes exactly when some deal's outcome changes) and the wall time.
//!
//! Checksums kept by `policy.rs` tests: `random 2000` = `31733e4828a95406`; `basic 500` =
//! `0e388e36dd53f1ed` (the rows of `greedy` before the hand-strength player replaced it).

use std::time::Instant;
use zhipai_core::deal::deal_rng;
use zhipai_core::games::baohuang::BaohuangRules;
use zhipai_core::policy::Policy;
use zhipai_core::simulator::DealSimulator;

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let policy: Policy = args.get(1).map_or("random", String::as_str).parse().unwrap_or_else(|e| {
        eprintln!("{e}");
        std::process::exit(2)
    });
    let parse = |i: usize, default: u64| {
        args.get(i).map_or(default, |a| {
            a.parse().unwrap_or_else(|_| {
                eprintln!("argument {a:?}: expected a non-negative integer");
                std::process::exit(2)
            })
        })
    };
    let (deals, seed) = (parse(2, 2000), parse(3, 1));
    let rules = BaohuangRules::default();
    let mut row = vec![0i32; rules.columns().len()];
    let mut checksum = 0u64;
    let start = Instant::now();
    for i in 0..deals {
        rules.play_deal(policy, &mut deal_rng(seed, i), &mut row).expect("deal");
        for &v in &row {
            checksum = checksum.wrapping_mul(1_000_003).wrapping_add(v as u64);
        }
    }
    let secs = start.elapsed().as_secs_f64();
    println!(
        "{deals} {policy:?} deals, checksum {checksum:016x}, {:.2} µs/deal ({:.0} deals/s)",
        secs * 1e6 / deals as f64,
        deals as f64 / secs
    );
}
