//! Duplicate-deal comparison of two built-in Gongzhu policies: every deal is played twice with
//! the seats swapped between the two players, so each player holds each hand, and the paired
//! difference of their mean credited returns (`returns()`, the `final_*` columns) is reported
//! with a 95% confidence interval.
//!
//!     cargo run --release -p zhipai-core --example gongzhu_versus -- [DEALS] [A] [B] [2v2|1v3] [option=value ...]
//!
//! `2v2` (default): A holds seats 0 and 2, B seats 1 and 3, then the other way round (in
//! partnership play A and B are the two teams). `1v3`: A holds one seat and B the other three,
//! A's seat going round the table (four plays per deal). Per deal the statistic is
//! `mean(A's returns) − mean(B's returns)` averaged over the plays of the deal; A and B are
//! `random`, `greedy` or `basic`. Options (e.g. `decks=2`, `partnership=true`) are read as in the
//! preset `gongzhu`. Deals are those of `simulate(seed = 2024)`.

use zhipai_core::game::{Game, GameState};
use zhipai_core::games::gongzhu::GongzhuRules;
use zhipai_core::options::OptionValue;
use zhipai_core::policy::Policy;

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let deals: u64 = args.get(1).map_or(2000, |s| s.parse().expect("DEALS is a number"));
    let a: Policy = args.get(2).map_or("greedy", String::as_str).parse().expect("policy A");
    let b: Policy = args.get(3).map_or("basic", String::as_str).parse().expect("policy B");
    let one_v_three = args.get(4).is_some_and(|m| m == "1v3");
    let opts: Vec<(String, OptionValue)> = args
        .iter()
        .skip(5)
        .map(|kv| {
            let (k, v) = kv.split_once('=').expect("option=value");
            let v = match (v.parse::<i64>(), v) {
                (Ok(i), _) => OptionValue::Int(i),
                (_, "true") => OptionValue::Bool(true),
                (_, "false") => OptionValue::Bool(false),
                _ => OptionValue::Str(v.to_string()),
            };
            (k.to_string(), v)
        })
        .collect();
    let rules = GongzhuRules::from_preset("gongzhu", &opts).expect("valid options");
    let seatings: Vec<[bool; 4]> = if one_v_three {
        (0..4).map(|s| std::array::from_fn(|i| i == s)).collect()
    } else {
        vec![[true, false, true, false], [false, true, false, true]]
    };
    let (mut sum, mut sum2) = (0f64, 0f64);
    let (mut a_total, mut b_total) = (0f64, 0f64);
    for i in 0..deals {
        let mut d = 0.0;
        for seating in &seatings {
            let mut st = rules.new_deal(2024, i).expect("a deal");
            while let Some(p) = st.current_player() {
                st.apply_builtin(if seating[p] { a } else { b }).expect("a legal move");
            }
            let r = st.returns();
            let mean = |want: bool| {
                let v: Vec<f64> = (0..4).filter(|&s| seating[s] == want).map(|s| r[s]).collect();
                v.iter().sum::<f64>() / v.len() as f64
            };
            let (ma, mb) = (mean(true), mean(false));
            a_total += ma;
            b_total += mb;
            d += ma - mb;
        }
        d /= seatings.len() as f64;
        sum += d;
        sum2 += d * d;
    }
    let n = deals as f64;
    let mean = sum / n;
    let var = (sum2 - sum * sum / n) / (n - 1.0);
    let half = 1.96 * (var / n).sqrt();
    let plays = n * seatings.len() as f64;
    println!(
        "{} vs {} ({}, {deals} duplicate deals{}): mean difference {mean:.1} ± {half:.1} \
         (95% CI [{:.1}, {:.1}]); mean return {} {:.1}, {} {:.1}",
        a.name(),
        b.name(),
        if one_v_three { "1v3" } else { "2v2" },
        if opts.is_empty() { String::new() } else { format!(", {:?}", args[5..].join(" ")) },
        mean - half,
        mean + half,
        a.name(),
        a_total / plays,
        b.name(),
        b_total / plays,
    );
}
