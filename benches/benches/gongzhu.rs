//! Gongzhu throughput: complete random deals (deal, exposure decisions, all tricks, scoring)
//! through `DealSimulator::play_deal`, one thread. Reported as deals per second (elements/s).
//!
//! The one-deck random deal is the allocation-free bitboard rollout of `games/gongzhu/fast.rs`
//! (exact batched dealing, one Lemire-bounded `u32` per decision, `pdep` for the chosen card).
//! For instruction counts independent of the machine's load, profile
//! `rust/zhipai-core/examples/gongzhu_deals.rs` with `valgrind --tool=callgrind`.

use criterion::{criterion_group, criterion_main, BatchSize, Criterion, Throughput};
use std::hint::black_box;
use zhipai_core::deal::deal_rng;
use zhipai_core::games::gongzhu::GongzhuRules;
use zhipai_core::options::OptionValue;
use zhipai_core::policy::Policy;
use zhipai_core::simulator::DealSimulator;

const DEALS: u64 = 1000;

fn run(c: &mut Criterion, name: &str, rules: GongzhuRules, policy: Policy) {
    let mut group = c.benchmark_group("gongzhu");
    group.throughput(Throughput::Elements(DEALS));
    let mut row = vec![0i32; rules.columns().len()];
    let mut seed = 0u64;
    group.bench_function(name, |b| {
        b.iter_batched(
            || {
                seed += 1;
                deal_rng(seed, 0)
            },
            |mut rng| {
                for _ in 0..DEALS {
                    rules.play_deal(policy, &mut rng, &mut row).expect("deal plays");
                }
                black_box(&row);
            },
            BatchSize::SmallInput,
        )
    });
    group.finish();
}

fn benches(c: &mut Criterion) {
    let one = GongzhuRules::default();
    let two = GongzhuRules::from_preset("gongzhu", &[("decks".into(), OptionValue::Int(2))])
        .expect("two decks");
    run(c, "random_deal_1deck", one, Policy::Random);
    run(c, "greedy_deal_1deck", one, Policy::Greedy);
    run(c, "random_deal_2deck", two, Policy::Random);
}

criterion_group!(gongzhu, benches);
criterion_main!(gongzhu);
