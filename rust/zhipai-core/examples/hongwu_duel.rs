//! Duplicate-deal duel of two built-in Hong Wu policies (issue 13: measure each greedy change):
//!
//!     cargo run --release -p zhipai-core --example hongwu_duel -- greedy basic 2000 [pairs|one] [seed]
//!
//! Every deal (seed `seed`, default 1, deal `i` = `new_deal(seed, i)`: the same cards and auction
//! opener) is played several times with the seats swapped between the two policies, so each
//! policy holds each hand:
//! * `pairs` (default): A at seats 0 and 2, B at 1 and 3, then the other way round (2 games);
//! * `one`: A alone at seat k, B at the other three, for k = 0..4 (4 games);
//! * `forced`: the auction is skipped (the opener bids 60, the others pass: the opener is the
//!   dealer), A deals against B, then B against A (2 games): play alone, without the bidding.
//!
//! The paired difference of a deal is A's mean return per seat-game minus B's (returns are the
//! settled Hong Wu results, zero-sum); printed with its mean over the deals and a 95% CI
//! (mean ± 1.96 · sd / √n), and each policy's mean return as dealer and as 闲家.

use zhipai_core::game::{Game, GameState};
use zhipai_core::games::hongwu::HongWuRules;
use zhipai_core::policy::Policy;

fn policy(name: &str) -> Policy {
    name.parse().unwrap_or_else(|e| panic!("{e}"))
}

#[derive(Default)]
struct Side {
    dealer: (f64, u64),
    other: (f64, u64),
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let a = policy(args.get(1).map_or("greedy", String::as_str));
    let b = policy(args.get(2).map_or("basic", String::as_str));
    let n: u64 = args.get(3).and_then(|s| s.parse().ok()).unwrap_or(2000);
    let mode = args.get(4).map_or("pairs", String::as_str);
    let seed: u64 = args.get(5).and_then(|s| s.parse().ok()).unwrap_or(1);
    let rules = HongWuRules::default();
    let forced = mode == "forced";
    let layouts: Vec<[bool; 4]> = match mode {
        "one" => (0..4).map(|k| std::array::from_fn(|s| s == k)).collect(),
        "forced" => vec![[true; 4], [false; 4]], // the opener's side flips below
        _ => vec![[true, false, true, false], [false, true, false, true]],
    };
    let mut dealer_points = [(0.0, 0u64); 2];
    let mut diffs = Vec::with_capacity(n as usize);
    let mut sides = [Side::default(), Side::default()];
    for i in 0..n {
        let (mut sum_a, mut na, mut sum_b, mut nb) = (0.0, 0.0, 0.0, 0.0);
        for layout in &layouts {
            let mut s = rules.new_deal(seed, i).expect("a deal");
            let mut is_a = *layout;
            if forced {
                // The opener deals for `layout[0]`'s side, the others play for the other side.
                let opener = s.current_player().expect("an opener");
                let dealer_side = layout[0];
                is_a =
                    std::array::from_fn(|p| if p == opener { dealer_side } else { !dealer_side });
                for mv in ["bid 60", "pass", "pass", "pass"] {
                    s.apply_move(&s.parse_move(mv).expect("a move")).expect("legal");
                }
            }
            while let Some(p) = s.current_player() {
                s.apply_builtin(if is_a[p] { a } else { b }).expect("a legal move");
            }
            let ret = s.returns();
            let dealer = s.core().contract().expect("a dealer").dealer;
            let dp = &mut dealer_points[!is_a[dealer] as usize];
            dp.0 += s.core().settlement().expect("settled").dealer_points as f64;
            dp.1 += 1;
            for (p, r) in ret.iter().enumerate() {
                let side = &mut sides[!is_a[p] as usize];
                let acc = if p == dealer { &mut side.dealer } else { &mut side.other };
                acc.0 += r;
                acc.1 += 1;
                if is_a[p] {
                    sum_a += r;
                    na += 1.0;
                } else {
                    sum_b += r;
                    nb += 1.0;
                }
            }
        }
        diffs.push(sum_a / na - sum_b / nb);
    }
    let m = diffs.iter().sum::<f64>() / n as f64;
    let var = diffs.iter().map(|d| (d - m) * (d - m)).sum::<f64>() / (n as f64 - 1.0);
    let half = 1.96 * (var / n as f64).sqrt();
    println!(
        "{} vs {}, {n} deals ({mode}, seed {seed}): mean return difference per seat {m:+.4} \
         [95% CI {:+.4}, {:+.4}]",
        a.name(),
        b.name(),
        m - half,
        m + half
    );
    for (k, p) in [a, b].iter().enumerate() {
        let s = &sides[k];
        println!(
            "  {}: as dealer {:+.3} ({} seat-games, {:.1} dealer points), as 闲家 {:+.3} ({})",
            p.name(),
            s.dealer.0 / s.dealer.1.max(1) as f64,
            s.dealer.1,
            dealer_points[k].0 / dealer_points[k].1.max(1) as f64,
            s.other.0 / s.other.1.max(1) as f64,
            s.other.1
        );
    }
}
