//! Overhead of the simulation driver (`zhipai_core::rollout`), measured on the internal toy coin
//! game (a deal is ~10 random draws, so the driver's own cost dominates): a plain sequential loop
//! over `deal_rng(seed, i)` + `play_deal` versus the driver in rows and aggregate mode on 1 and 2
//! threads. Run: `cargo bench -p zhipai-benches --bench rollout`.

use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion, Throughput};
use std::hint::black_box;
use std::sync::atomic::{AtomicBool, AtomicU64};
use zhipai_core::deal::deal_rng;
use zhipai_core::policy::Policy;
use zhipai_core::rollout::{simulate_aggregates, simulate_rows, Control, RunOptions};
use zhipai_core::simulator::DealSimulator;
use zhipai_core::toy::CoinGame;

const DEALS: u64 = 100_000;

fn driver(c: &mut Criterion) {
    let game = CoinGame::default();
    let mut g = c.benchmark_group("rollout_driver");
    g.throughput(Throughput::Elements(DEALS));
    g.sample_size(20);
    // The games reach the driver as `&dyn DealSimulator`; so does the baseline.
    let dyn_game: &dyn DealSimulator = black_box(&game as &dyn DealSimulator);
    g.bench_function("plain_loop", |b| {
        b.iter(|| {
            let mut row = [0i32; 4];
            let mut acc = 0i64;
            for i in 0..DEALS {
                dyn_game.play_deal(Policy::Random, &mut deal_rng(1, i), &mut row).unwrap();
                acc += black_box(&row).iter().map(|&v| v as i64).sum::<i64>();
            }
            black_box(acc)
        })
    });
    for threads in [1usize, 2] {
        let opts =
            RunOptions { threads: Some(threads), ..RunOptions::new(DEALS, 1, Policy::Random) };
        g.bench_with_input(BenchmarkId::new("rows", threads), &opts, |b, opts| {
            b.iter(|| {
                let (stop, progress) = (AtomicBool::new(false), AtomicU64::new(0));
                black_box(
                    simulate_rows(&game, opts, Control { stop: &stop, progress: &progress })
                        .unwrap(),
                )
            })
        });
        g.bench_with_input(BenchmarkId::new("aggregate", threads), &opts, |b, opts| {
            b.iter(|| {
                let (stop, progress) = (AtomicBool::new(false), AtomicU64::new(0));
                black_box(
                    simulate_aggregates(&game, opts, Control { stop: &stop, progress: &progress })
                        .unwrap(),
                )
            })
        });
    }
    g.finish();
}

criterion_group!(benches, driver);
criterion_main!(benches);
