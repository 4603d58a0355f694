//! Baohuang benches: whole random deals (deal, accession, play, scoring) on one core, greedy
//! deals, and move generation (count / sample / enumerate) for a 43-card hand.
//!
//! Run: `cargo bench -p zhipai-benches --bench baohuang`.

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use std::hint::black_box;
use zhipai_core::deal::deal_rng;
use zhipai_core::games::baohuang::moves::{self, HandCounts};
use zhipai_core::games::baohuang::state::deal;
use zhipai_core::games::baohuang::BaohuangRules;
use zhipai_core::policy::Policy;
use zhipai_core::simulator::DealSimulator;

fn whole_deals(c: &mut Criterion) {
    let rules = BaohuangRules::default();
    let mut row = vec![0i32; rules.columns().len()];
    let mut g = c.benchmark_group("baohuang_deal");
    g.throughput(Throughput::Elements(1));
    for (name, policy) in [("random", Policy::Random), ("greedy", Policy::Greedy)] {
        let mut i = 0u64;
        g.bench_function(name, |b| {
            b.iter(|| {
                i += 1;
                rules.play_deal(policy, &mut deal_rng(1, i), &mut row).unwrap();
                black_box(&row);
            })
        });
    }
    g.finish();
}

fn movegen(c: &mut Criterion) {
    let rules = BaohuangRules::default();
    let d = deal(&rules, &mut deal_rng(2, 0));
    let hand = HandCounts::of(&d.hands[0], None);
    let prev = moves::shape_of(&"8S 8H 8D".parse().unwrap(), None).unwrap();
    let mut rng = deal_rng(3, 0);
    let mut g = c.benchmark_group("baohuang_movegen");
    g.bench_function("count_leads", |b| b.iter(|| moves::count(black_box(&hand), None, false)));
    g.bench_function("count_beats_of_888", |b| {
        b.iter(|| moves::count(black_box(&hand), Some(&prev), false))
    });
    g.bench_function("sample_lead", |b| {
        b.iter(|| moves::sample(black_box(&hand), None, false, &mut rng))
    });
    g.bench_function("sample_beat_of_888", |b| {
        b.iter(|| moves::sample(black_box(&hand), Some(&prev), false, &mut rng))
    });
    g.bench_function("enumerate_beats_of_888", |b| {
        b.iter(|| moves::enumerate(black_box(&hand), Some(&prev), false, usize::MAX))
    });
    g.finish();
}

criterion_group!(benches, whole_deals, movegen);
criterion_main!(benches);
