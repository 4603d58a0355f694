//! Monte Carlo evaluation from a Shengji position in the middle of a deal
//! (`eval::evaluate_position`): a 2-deck deal at level 5 with hearts trump, after the burial and
//! 40 random moves (about 10 tricks), evaluated by the seat to move with 10,000 samples on one
//! thread — once with the policy's move only, once with its first 4 legal plays as candidates
//! (40,000 rollouts on common random numbers); plus the cost of drawing one hidden deal.
//!
//! Run: `cargo bench -p zhipai-benches --bench evaluate_position -- --warm-up-time 1 --measurement-time 20`

use criterion::{criterion_group, criterion_main, Criterion};
use std::hint::black_box;
use std::sync::atomic::{AtomicBool, AtomicU64};
use zhipai_core::deal::deal_rng;
use zhipai_core::deal::Constraints;
use zhipai_core::eval::evaluate_position;
use zhipai_core::games::shengji::state::position::ShengjiPosition;
use zhipai_core::games::shengji::state::Deal;
use zhipai_core::games::shengji::ShengjiRules;
use zhipai_core::policy::Policy;
use zhipai_core::rollout::{Control, RunOptions};
use zhipai_core::simulator::DealSimulator;
use zhipai_core::simulator::Position;
use zhipai_core::{Multiset, Rank, Suit};

fn position() -> Deal {
    let rules = ShengjiRules::from_preset("tractor", &[]).expect("preset");
    let cards = zhipai_core::deal::deal(&rules.deal_shape().expect("shape"), &mut deal_rng(1, 0));
    let hands: [Multiset; 4] = cards.hands.try_into().expect("4 hands");
    let mut d = Deal::from_hands_declared(
        &rules,
        Rank::FIVE,
        Some(Suit::Hearts),
        Some(0),
        &hands,
        &cards.kitty,
        &mut deal_rng(1, 1),
    )
    .expect("deal");
    for _ in 0..41 {
        let mv = d.random_move().expect("move");
        d.apply(mv).expect("legal");
    }
    d
}

fn bench(c: &mut Criterion) {
    let d = position();
    let seat = d.current_player().expect("in play") as usize;
    let pos = ShengjiPosition::new(&d, seat).expect("position");
    let (stop, progress) = (AtomicBool::new(false), AtomicU64::new(0));
    let opts = RunOptions { threads: Some(1), ..RunOptions::new(10_000, 7, Policy::Random) };
    let none = Constraints::new();
    let mut group = c.benchmark_group("evaluate_position");
    group.sample_size(10);
    group.bench_function("tractor_mid_deal_10000_samples_policy", |b| {
        b.iter(|| {
            let ctl = Control { stop: &stop, progress: &progress };
            black_box(
                evaluate_position(&pos, &none, Some(vec![None]), 64, &opts, ctl).expect("run"),
            )
        })
    });
    let four: Vec<Option<Multiset>> =
        pos.legal_candidates(4).expect("legal").into_iter().map(Some).collect();
    group.bench_function(
        format!("tractor_mid_deal_10000_samples_{}_candidates", four.len()),
        |b| {
            b.iter(|| {
                let ctl = Control { stop: &stop, progress: &progress };
                black_box(
                    evaluate_position(&pos, &none, Some(four.clone()), 64, &opts, ctl)
                        .expect("run"),
                )
            })
        },
    );
    group.finish();
    let hidden = pos.view().expect("view").dealer().expect("sampler");
    let mut i = 0u64;
    c.bench_function("evaluate_position/hidden_deal", |b| {
        b.iter(|| {
            i += 1;
            black_box(hidden.deal(&mut deal_rng(3, i)))
        })
    });
}

criterion_group!(benches, bench);
criterion_main!(benches);
