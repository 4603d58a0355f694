//! Play N seeded whole deals through `DealSimulator::play_deal`, for instruction counts under
//! callgrind (wall-clock timings on the shared machine are noisy; see HELPER_GUIDE.md):
//!
//!     CARGO_PROFILE_RELEASE_DEBUG=true cargo build --release -p zhipai-core --example hongwu_deals
//!     valgrind --tool=callgrind target/release/examples/hongwu_deals hongwu random 2000
//!
//! Arguments: game `hongwu` | `tractor` (2-deck Tractor, for comparison), policy `random` |
//! `greedy` | `basic`, number of deals (default 1000). Prints a checksum of the result rows so that a
//! change of play shows up, and the deals are reproducible (seed 1, streams 0..N).

use zhipai_core::deal::deal_rng;
use zhipai_core::games::hongwu::HongWuRules;
use zhipai_core::games::shengji::ShengjiRules;
use zhipai_core::policy::Policy;
use zhipai_core::simulator::DealSimulator;
use zhipai_core::OptionValue;

fn run(sim: &dyn DealSimulator, policy: Policy, n: u64) -> i64 {
    let mut row = vec![0i32; sim.columns().len()];
    let mut sum = 0i64;
    for i in 0..n {
        sim.play_deal(policy, &mut deal_rng(1, i), &mut row).expect("deal plays out");
        if std::env::var_os("PRINT_ROWS").is_some() {
            println!("{i}: {row:?}");
        }
        sum = sum.wrapping_mul(31).wrapping_add(row.iter().map(|&v| v as i64).sum::<i64>());
    }
    sum
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let game = args.get(1).map_or("hongwu", String::as_str);
    let policy = match args.get(2).map_or("random", String::as_str) {
        "greedy" => Policy::Greedy,
        "basic" => Policy::Basic,
        _ => Policy::Random,
    };
    let n: u64 = args.get(3).and_then(|s| s.parse().ok()).unwrap_or(1000);
    let sum = match game {
        "tractor" => {
            let decks = [("decks".to_string(), OptionValue::Int(2))];
            run(&ShengjiRules::from_preset("tractor", &decks).expect("preset"), policy, n)
        }
        _ => run(&HongWuRules::default(), policy, n),
    };
    println!("{game} {policy:?} {n} deals: checksum {sum}");
}
