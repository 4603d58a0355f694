//! Duplicate-deal comparison of two built-in Baohuang players: in every deal, each seat in turn
//! is played by `A` while the other four play `B`, and the same deal (same cards, same deal
//! generator) is played with all five seats `B`; the difference of that seat's return is paired
//! by deal (mean over the five seats), so each hand is held by both players against the same
//! opponents. Prints the mean difference with its 95% confidence interval, and the returns of
//! the substituted seat by the role it ended with (emperor, guard, rebel).
//!
//! ```text
//! cargo run --release -p zhipai-core --example baohuang_duel -- greedy basic 2000 1
//! ```
//!
//! Arguments: `A` and `B` (`random` | `greedy` | `basic`), deals (default 2000), seed (default 1).

use zhipai_core::game::{Game, GameState};
use zhipai_core::games::baohuang::{BaohuangRules, DealState, Mode};
use zhipai_core::policy::Policy;

/// Play deal `index` of `seed` with `policy(seat)`; the returns and each seat's role (0 emperor,
/// 1 guard, 2 rebel) and whether it was a solo deal.
fn play(
    rules: &BaohuangRules,
    seed: u64,
    index: u64,
    policy: impl Fn(usize) -> Policy,
) -> (Vec<f64>, [usize; 5], Mode) {
    let mut s: DealState = rules.new_deal(seed, index).expect("deal");
    while let Some(seat) = s.current_player() {
        s.apply_builtin(policy(seat)).expect("built-in move");
    }
    let core = s.core();
    let mut roles = [2; 5];
    if let Some(e) = core.emperor() {
        roles[e as usize] = 0;
    }
    if let Some(g) = core.guard() {
        roles[g as usize] = 1;
    }
    (s.returns(), roles, core.mode())
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let policy = |i: usize, default: &str| -> Policy {
        args.get(i).map_or(default, String::as_str).parse().unwrap_or_else(|e| {
            eprintln!("{e}");
            std::process::exit(2)
        })
    };
    let (a, b) = (policy(1, "greedy"), policy(2, "basic"));
    let num =
        |i: usize, default: u64| args.get(i).map_or(default, |v| v.parse().expect("a number"));
    let (deals, seed) = (num(3, 2000), num(4, 1));
    let rules = BaohuangRules::default();
    let (mut sum, mut sum2) = (0.0, 0.0);
    // Per role: [count, sum of A's return, count, sum of B's return] for the substituted seat.
    let mut by_role = [[0.0f64; 4]; 3];
    let mut a_modes = [0usize; 5];
    for i in 0..deals {
        let (base, base_roles, _) = play(&rules, seed, i, |_| b);
        let mut d = 0.0;
        for seat in 0..5 {
            let (r, roles, mode) = play(&rules, seed, i, |p| if p == seat { a } else { b });
            d += r[seat] - base[seat];
            by_role[roles[seat]][0] += 1.0;
            by_role[roles[seat]][1] += r[seat];
            by_role[base_roles[seat]][2] += 1.0;
            by_role[base_roles[seat]][3] += base[seat];
            if roles[seat] == 0 {
                a_modes[mode.code() as usize] += 1;
            }
        }
        d /= 5.0;
        sum += d;
        sum2 += d * d;
    }
    let n = deals as f64;
    let mean = sum / n;
    let sd = ((sum2 - n * mean * mean) / (n - 1.0)).max(0.0).sqrt();
    let half = 1.96 * sd / n.sqrt();
    println!(
        "{} for {} at one seat (the other four {}), {deals} deals of seed {seed}: mean return \
         difference {mean:+.3} per seat and deal, 95% CI [{:+.3}, {:+.3}] (sd {sd:.2})",
        a.name(),
        b.name(),
        b.name(),
        mean - half,
        mean + half
    );
    for (role, name) in ["emperor", "guard", "rebel"].iter().enumerate() {
        let [na, sa, nb, sb] = by_role[role];
        println!(
            "  as {name:7}: {} {:5.1}% of seats, mean {:+.2} | {} {:5.1}%, mean {:+.2}",
            a.name(),
            100.0 * na / (5.0 * n),
            sa / na.max(1.0),
            b.name(),
            100.0 * nb / (5.0 * n),
            sb / nb.max(1.0)
        );
    }
    let modes: Vec<String> = Mode::ALL
        .iter()
        .map(|(m, name)| format!("{name} {}", a_modes[m.code() as usize]))
        .collect();
    println!("  {} as emperor by mode: {}", a.name(), modes.join(", "));
}
