//! Random full Shengji deals per second: shuffle, deal card by card with declarations, kitty
//! burial, every trick, kitty multiplier and level change (`DealSimulator::play_deal`), with the
//! random policy and (last case) the greedy player of `games/shengji/policy.rs`.
//!
//! Run: `cargo bench -p zhipai-benches --bench shengji_deal -- --measurement-time 5`

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use std::hint::black_box;
use zhipai_core::deal::deal_rng;
use zhipai_core::games::shengji::ShengjiRules;
use zhipai_core::policy::Policy;
use zhipai_core::simulator::DealSimulator;
use zhipai_core::OptionValue;

fn bench(c: &mut Criterion) {
    let mut group = c.benchmark_group("shengji_deal");
    group.throughput(Throughput::Elements(1));
    for (name, preset, decks, policy) in [
        ("tractor_2_decks", "tractor", 2, Policy::Random),
        ("tractor_1_deck", "tractor", 1, Policy::Random),
        ("eighty_points_3_decks", "eighty_points", 3, Policy::Random),
        ("tractor_jj_2_decks", "tractor_jj", 2, Policy::Random),
        ("tractor_2_decks_greedy", "tractor", 2, Policy::Greedy),
    ] {
        let rules =
            ShengjiRules::from_preset(preset, &[("decks".to_string(), OptionValue::Int(decks))])
                .expect("preset builds");
        let mut row = vec![0i32; rules.columns().len()];
        let mut i = 0u64;
        group.bench_function(name, |b| {
            b.iter(|| {
                i += 1;
                let mut rng = deal_rng(42, i);
                rules.play_deal(policy, &mut rng, black_box(&mut row)).expect("deal");
            })
        });
    }
    group.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
