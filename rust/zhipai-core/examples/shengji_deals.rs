//! Play N seeded random Shengji deals through `DealSimulator::play_deal` and print a checksum:
//! a fixed workload for instruction counts (`valgrind --tool=callgrind`), independent of load.
//!
//! Run: `cargo run --release -p zhipai-core --example shengji_deals -- [deals] [preset] [decks]
//! [random|greedy|basic]` (defaults: 2000 tractor 2 random).

use zhipai_core::deal::deal_rng;
use zhipai_core::games::shengji::ShengjiRules;
use zhipai_core::policy::Policy;
use zhipai_core::simulator::DealSimulator;
use zhipai_core::OptionValue;

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let deals: u64 = args.get(1).map_or(2000, |s| s.parse().expect("deals is a number"));
    let preset = args.get(2).map_or("tractor", String::as_str);
    let decks: i64 = args.get(3).map_or(2, |s| s.parse().expect("decks is a number"));
    let policy = match args.get(4).map_or("random", String::as_str) {
        "greedy" => Policy::Greedy,
        "basic" => Policy::Basic,
        _ => Policy::Random,
    };
    let rules =
        ShengjiRules::from_preset(preset, &[("decks".to_string(), OptionValue::Int(decks))])
            .expect("preset builds");
    let mut row = vec![0i32; rules.columns().len()];
    let mut checksum = 0i64;
    for i in 0..deals {
        let mut rng = deal_rng(42, i);
        rules.play_deal(policy, &mut rng, &mut row).expect("deal");
        checksum =
            checksum.wrapping_mul(31).wrapping_add(row.iter().map(|&v| v as i64).sum::<i64>());
    }
    println!("{deals} deals of {preset} with {decks} decks: checksum {checksum}");
}
