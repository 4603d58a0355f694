//! Shengji trick machinery on fixed positions: lead classification, throw check, follow
//! check/enumerate/count/sample, trick winner.
//!
//! Run: `cargo bench -p zhipai-benches --bench shengji_moves -- --measurement-time 2`

use criterion::{criterion_group, criterion_main, Criterion};
use std::hint::black_box;
use zhipai_core::tricks::combos::decompose;
use zhipai_core::tricks::order::{CardOrder, TrumpTierTractors};
use zhipai_core::tricks::{
    check_lead, check_throw, trick_winner, Decomposition, FollowMoves, TrickRules,
};
use zhipai_core::{Multiset, Rank, Suit};

fn ms(s: &str) -> Multiset {
    s.parse().unwrap()
}

fn rules() -> TrickRules {
    TrickRules::standard(
        CardOrder::shengji(Rank::TWO, Some(Suit::Spades), true, TrumpTierTractors::Full),
        2,
    )
}

fn bench(c: &mut Criterion) {
    let tr = rules();
    let throw = ms("AS AS 2H 2H 2D 2D 2S 2S");
    c.bench_function("classify_throw_8_cards", |b| {
        b.iter(|| decompose(black_box(&throw), &tr.order, Decomposition::MultiplicityFirst))
    });
    let pair = ms("KH KH");
    c.bench_function("classify_pair", |b| {
        b.iter(|| decompose(black_box(&pair), &tr.order, Decomposition::MultiplicityFirst))
    });

    // Throw check against three 25-card hands.
    let lead = ms("KD KD JD JD 8D");
    let others = [
        ms("3H 3H 4H 5H 6H 7H 8H 9H 10H 3C 4C 5C 6C 7C 8C 9C 3S 4S 5S 6S 7S 2H 9D 7D 6D"),
        ms("JH QH KH AH 10C JC QC KC AC 8S 9S 10S JS QS KS AS SJ BJ 2C 3D 4D 5D 10D QD 4D"),
        ms("JH QH KH AH 10C JC QC KC AC 8S 9S 10S JS QS KS AS SJ BJ 2D 3D 5D 10D QD 3C 4C"),
    ];
    let format = check_lead(&tr, &lead, None).unwrap();
    c.bench_function("throw_check_5_cards_vs_3_hands", |b| {
        b.iter(|| check_throw(&tr, black_box(&format), black_box(&others)))
    });

    // Follows from a 25-card hand.
    let hand = ms("3H 3H 4H 4H 6H 6H 9H QH QH 3C 4C 5C 6C 7C 8C 9C 3S 4S 5S 6S 7S 2H 9D 7D 6D");
    let single = decompose(&ms("AH"), &tr.order, Decomposition::MultiplicityFirst).unwrap();
    let pair_lead = decompose(&ms("10H 10H"), &tr.order, Decomposition::MultiplicityFirst).unwrap();
    let tractor =
        decompose(&ms("8H 8H 9H 9H 10H 10H"), &tr.order, Decomposition::MultiplicityFirst).unwrap();
    let void = decompose(&ms("AD AD KD KD"), &tr.order, Decomposition::MultiplicityFirst).unwrap();
    let void_hand = ms("3H 3H 4H 4H 6H 6H 9H QH QH 3C 4C 5C 6C 7C 8C 9C 3S 4S 5S 6S 7S 2H JC");
    let play = ms("3H 3H 4H 4H QH QH");
    c.bench_function("follow_check_tractor", |b| {
        b.iter(|| {
            let m = FollowMoves::new(&tr, &tractor, black_box(&hand)).unwrap();
            m.check(black_box(&play)).is_ok()
        })
    });
    for (name, lead, h) in [
        ("single", &single, &hand),
        ("pair", &pair_lead, &hand),
        ("tractor", &tractor, &hand),
        ("void_4_discards", &void, &void_hand),
    ] {
        c.bench_function(&format!("follow_count_{name}"), |b| {
            b.iter(|| FollowMoves::new(&tr, lead, black_box(h)).unwrap().count())
        });
        let mut rng = zhipai_core::deal::deal_rng(1, 0);
        c.bench_function(&format!("follow_sample_{name}"), |b| {
            b.iter(|| FollowMoves::new(&tr, lead, black_box(h)).unwrap().sample(&mut rng))
        });
    }
    c.bench_function("follow_enumerate_pair", |b| {
        b.iter(|| {
            FollowMoves::new(&tr, &pair_lead, black_box(&hand)).unwrap().enumerate(usize::MAX)
        })
    });

    let plays =
        [ms("KD KD JD JD 8D"), ms("9S 9S 4S 4S JS"), ms("AS AS 3S 3S 6S"), ms("3C 4C 5C 6C 7C")];
    c.bench_function("winner_throw_two_ruffs", |b| b.iter(|| trick_winner(&tr, black_box(&plays))));
    let singles = [ms("AH"), ms("3S"), ms("KH"), ms("2D")];
    c.bench_function("winner_singles", |b| b.iter(|| trick_winner(&tr, black_box(&singles))));
}

criterion_group!(benches, bench);
criterion_main!(benches);
