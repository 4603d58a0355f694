//! Hong Wu whole deals (deal, auction, trump, kitty, 25 tricks or fewer, settlement) with the
//! built-in policies, and the Hong Wu card order build.
//!
//! Run: `cargo bench -p zhipai-benches --bench hongwu -- --measurement-time 3`

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use std::hint::black_box;
use zhipai_core::deal::deal_rng;
use zhipai_core::games::hongwu::options::{OtherThrees, TractorAboveA};
use zhipai_core::games::hongwu::order::hongwu_order;
use zhipai_core::games::hongwu::HongWuRules;
use zhipai_core::policy::Policy;
use zhipai_core::simulator::DealSimulator;
use zhipai_core::Suit;

fn bench(c: &mut Criterion) {
    let rules = HongWuRules::default();
    let mut row = vec![0i32; rules.columns().len()];
    let mut g = c.benchmark_group("hongwu_deal");
    g.throughput(Throughput::Elements(1));
    for (name, policy) in [("random", Policy::Random), ("greedy", Policy::Greedy)] {
        let mut i = 0u64;
        g.bench_function(name, |b| {
            b.iter(|| {
                i += 1;
                rules.play_deal(policy, &mut deal_rng(1, i), black_box(&mut row)).unwrap();
            })
        });
    }
    g.finish();
    c.bench_function("hongwu_order", |b| {
        b.iter(|| {
            hongwu_order(
                black_box(Suit::Hearts),
                OtherThrees::PlainLowest,
                TractorAboveA::FullChain,
            )
        })
    });
}

criterion_group!(benches, bench);
criterion_main!(benches);
