//! Duplicate deals of two built-in Shengji policies: deal `i` of seed `seed` is played twice,
//! once with policy A at seats 0 and 2 (policy B at 1 and 3) and once with the seats swapped, so
//! each policy holds each hand. Prints A's mean return per deal (levels gained by its team, the
//! mean of the two games) with a paired 95% confidence interval.
//!
//! Run: `cargo run --release -p zhipai-core --example shengji_duel -- [deals] [preset] [decks]
//! [policy A] [policy B] [seed]` (defaults: 2000 tractor 2 greedy basic 1).

use zhipai_core::game::{Game, GameState};
use zhipai_core::games::shengji::ShengjiRules;
use zhipai_core::policy::Policy;
use zhipai_core::OptionValue;

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let arg = |i: usize, default: &str| args.get(i).cloned().unwrap_or_else(|| default.to_string());
    let deals: u64 = arg(1, "2000").parse().expect("deals is a number");
    let preset = arg(2, "tractor");
    let decks: i64 = arg(3, "2").parse().expect("decks is a number");
    let a: Policy = arg(4, "greedy").parse().expect("policy A");
    let b: Policy = arg(5, "basic").parse().expect("policy B");
    let seed: u64 = arg(6, "1").parse().expect("seed is a number");
    let rules =
        ShengjiRules::from_preset(&preset, &[("decks".to_string(), OptionValue::Int(decks))])
            .expect("preset builds");
    let play = |index: u64, even: Policy, odd: Policy| -> (f64, f64) {
        let mut s = rules.new_deal(seed, index).expect("deal");
        while let Some(p) = s.current_player() {
            s.apply_builtin(if p % 2 == 0 { even } else { odd }).expect("built-in move");
        }
        let r = s.returns();
        let d = s.deal().result().expect("over");
        // Attacker points won by the even seats' side, signed: + when the even seats attack.
        let even_attack = d.dealer % 2 == 1;
        let pts = d.attacker_points as f64;
        (r[0], if even_attack { pts } else { -pts })
    };
    let (mut sum, mut sum2, mut psum) = (0.0, 0.0, 0.0);
    for i in 0..deals {
        let (r1, p1) = play(i, a, b);
        let (r2, p2) = play(i, b, a);
        let d = (r1 - r2) / 2.0; // A's return: at the even seats in game 1, the odd in game 2
        sum += d;
        sum2 += d * d;
        psum += (p1 - p2) / 2.0;
    }
    let n = deals as f64;
    let mean = sum / n;
    let sd = ((sum2 - n * mean * mean) / (n - 1.0)).max(0.0).sqrt();
    let half = 1.96 * sd / n.sqrt();
    println!(
        "{preset} {decks} decks, {deals} duplicate deals (seed {seed}): {} vs {}: mean return \
         {mean:+.4} levels per deal, 95% CI [{:+.4}, {:+.4}] (sd {sd:.3}); signed attacker \
         points {:+.2}",
        a.name(),
        b.name(),
        mean - half,
        mean + half,
        psum / n
    );
}
