//! Dealing throughput (plain 1/2/4 decks, constrained) and CardSet / Multiset operations.
//!
//! Run: `cargo bench -p zhipai-benches --bench cards_deal` (results in BENCHMARKS.md).

use criterion::{criterion_group, criterion_main, BatchSize, Criterion, Throughput};
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use std::hint::black_box;
use std::time::Duration;
use zhipai_core::cards::{CardSet, Suit};
use zhipai_core::deal::deal_rng;
use zhipai_core::deal::{deal, ConstrainedDealer, Constraints, Deal, DealShape};
use zhipai_core::{Card, Multiset};

fn shapes() -> Vec<(&'static str, DealShape)> {
    vec![
        ("1 deck 4x12+6", DealShape::equal(1, true, 4, 12, 6).unwrap()),
        ("2 decks 4x25+8", DealShape::equal(2, true, 4, 25, 8).unwrap()),
        ("4 decks 43x4+44", DealShape::new(4, true, &[43, 43, 43, 43, 44], 0).unwrap()),
    ]
}

fn plain_deals(c: &mut Criterion) {
    let mut g = c.benchmark_group("deal/plain");
    g.throughput(Throughput::Elements(1));
    for (name, shape) in shapes() {
        let mut rng = ChaCha8Rng::seed_from_u64(1);
        g.bench_function(name, |b| b.iter(|| black_box(deal(&shape, &mut rng))));
        // The fast path of the constrained dealer, reusing the output (the simulation loop).
        let dealer = ConstrainedDealer::new(&shape, &Constraints::new()).unwrap();
        let mut out = Deal::default();
        g.bench_function(format!("{name} dealer.deal_into"), |b| {
            b.iter(|| {
                dealer.deal_into(&mut rng, &mut out);
                black_box(&out);
            })
        });
    }
    // Deal i of a batch: a fresh generator per deal.
    let shape = DealShape::equal(2, true, 4, 25, 8).unwrap();
    let mut i = 0u64;
    g.bench_function("2 decks with deal_rng(seed, i) per deal", |b| {
        b.iter(|| {
            i += 1;
            black_box(deal(&shape, &mut deal_rng(7, i)))
        })
    });
    g.finish();
}

/// Seat 0's view in 2-deck Tractor after some tricks: own 25 cards fixed, the kitty unknown,
/// seat 1 void in spades, seat 2 void in hearts and the jokers.
fn shengji_view() -> (DealShape, Constraints) {
    let shape = DealShape::equal(2, true, 4, 25, 8).unwrap();
    let own = deal(&shape, &mut deal_rng(1, 0)).hands[0];
    let c = Constraints::new()
        .fix_hand(0, own)
        .void(1, Suit::Spades.mask())
        .void(2, Suit::Hearts.mask() | CardSet::JOKERS);
    (shape, c)
}

fn constrained_deals(c: &mut Criterion) {
    let mut g = c.benchmark_group("deal/constrained");
    g.throughput(Throughput::Elements(1));
    let (shape, cons) = shengji_view();
    g.bench_function("2 decks, seat 0 known, 2 voids: build", |b| {
        b.iter(|| black_box(ConstrainedDealer::new(&shape, &cons).unwrap()))
    });
    let dealer = ConstrainedDealer::new(&shape, &cons).unwrap();
    let mut rng = ChaCha8Rng::seed_from_u64(2);
    let mut out = Deal::default();
    g.bench_function("2 decks, seat 0 known, 2 voids: deal", |b| {
        b.iter(|| {
            dealer.deal_into(&mut rng, &mut out);
            black_box(&out);
        })
    });
    let known = Constraints::new().fix_hand(0, cons.fixed[0]);
    let fast = ConstrainedDealer::new(&shape, &known).unwrap();
    g.bench_function("2 decks, seat 0 known, no voids: deal", |b| {
        b.iter(|| {
            fast.deal_into(&mut rng, &mut out);
            black_box(&out);
        })
    });
    // Baohuang seen from seat 0 with two voids: the largest table realistic play produces.
    let bshape = DealShape::new(4, true, &[43, 43, 43, 43, 44], 0).unwrap();
    let own = deal(&bshape, &mut deal_rng(3, 0)).hands[0];
    let bc = Constraints::new()
        .fix_hand(0, own)
        .void(1, Suit::Spades.mask())
        .void(2, Suit::Hearts.mask() | CardSet::JOKERS);
    g.bench_function("4 decks, seat 0 known, 2 voids: build", |b| {
        b.iter(|| black_box(ConstrainedDealer::new(&bshape, &bc).unwrap()))
    });
    let bdealer = ConstrainedDealer::new(&bshape, &bc).unwrap();
    g.bench_function("4 decks, seat 0 known, 2 voids: deal", |b| {
        b.iter(|| {
            bdealer.deal_into(&mut rng, &mut out);
            black_box(&out);
        })
    });
    g.finish();
}

fn set_ops(c: &mut Criterion) {
    let mut g = c.benchmark_group("cards");
    let shape = DealShape::equal(2, true, 4, 25, 8).unwrap();
    let hands: Vec<Multiset> =
        (0..64).flat_map(|i| deal(&shape, &mut deal_rng(5, i)).hands).collect();
    g.bench_function("Multiset pairs & hearts + len (256 hands)", |b| {
        b.iter(|| {
            hands.iter().map(|h| (black_box(h).pairs() & Suit::Hearts.mask()).len()).sum::<u32>()
        })
    });
    g.bench_function("Multiset count_in(suit) x4 (256 hands)", |b| {
        b.iter(|| {
            hands
                .iter()
                .map(|h| Suit::ALL.iter().map(|s| black_box(h).count_in(s.mask())).sum::<usize>())
                .sum::<usize>()
        })
    });
    g.bench_function("Multiset remove+add one card (256 hands)", |b| {
        b.iter_batched_ref(
            || hands.clone(),
            |hs| {
                for h in hs.iter_mut() {
                    let c = h.kinds().first().unwrap();
                    h.remove(c);
                    h.add(c);
                }
            },
            BatchSize::SmallInput,
        )
    });
    g.bench_function("Multiset contains_all (256 pairs)", |b| {
        b.iter(|| hands.windows(2).filter(|w| black_box(w[0]).contains_all(&w[1])).count())
    });
    g.bench_function("CardSet iterate 25 cards", |b| {
        let set = hands[0].kinds();
        b.iter(|| black_box(set).iter().map(Card::index).sum::<usize>())
    });
    g.bench_function("parse 25-card hand", |b| {
        let text = hands[0].to_string();
        b.iter(|| black_box(&text).parse::<Multiset>().unwrap())
    });
    g.finish();
}

criterion_group! {
    name = benches;
    config = Criterion::default()
        .warm_up_time(Duration::from_millis(300))
        .measurement_time(Duration::from_secs(1))
        .sample_size(30);
    targets = plain_deals, constrained_deals, set_ops
}
criterion_main!(benches);
