//! Play N seeded Gongzhu deals through `DealSimulator::play_deal` (the path of `simulate` and of
//! the criterion bench) and print a checksum of the result rows: a fixed workload for
//! instruction counts and profiles.
//!
//!     cargo run --release -p zhipai-core --example gongzhu_deals -- [DEALS] [random|greedy|basic] [1|2] [bench|simulate]
//!     valgrind --tool=callgrind target/release/examples/gongzhu_deals 20000
//!
//! `bench` (default) reuses one generator for all deals, like `benches/benches/gongzhu.rs`;
//! `simulate` seeds `deal_rng(seed, i)` per deal, like the simulation driver.

use zhipai_core::deal::deal_rng;
use zhipai_core::games::gongzhu::GongzhuRules;
use zhipai_core::options::OptionValue;
use zhipai_core::policy::Policy;
use zhipai_core::simulator::DealSimulator;

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let deals: u64 = args.get(1).map_or(20_000, |s| s.parse().expect("DEALS is a number"));
    let policy: Policy = args.get(2).map_or("random", String::as_str).parse().expect("a policy");
    let decks = args.get(3).map_or(1, |s| s.parse().expect("decks is 1 or 2"));
    let per_deal_rng = args.get(4).is_some_and(|s| s == "simulate");
    let rules = GongzhuRules::from_preset("gongzhu", &[("decks".into(), OptionValue::Int(decks))])
        .expect("valid decks");
    let mut row = vec![0i32; rules.columns().len()];
    let mut rng = deal_rng(1, 0);
    let mut sum = 0i64;
    for i in 0..deals {
        if per_deal_rng {
            rng = deal_rng(7, i);
        }
        rules.play_deal(policy, &mut rng, &mut row).expect("deal plays");
        sum = sum.wrapping_mul(31).wrapping_add(row.iter().map(|&x| x as i64).sum::<i64>());
    }
    println!("{deals} deals, checksum {sum}");
}
