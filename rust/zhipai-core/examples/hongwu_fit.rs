//! Data for the greedy Hong Wu bid (`games::hongwu::greedy::expected_points`): deal `i` of seed
//! `seed` with its auction opener forced dealer at 60 (the others pass), played to the end by
//! `policy` (default greedy); one CSV line per deal: the opener's `bid_features` and the dealer
//! points entering S (§B.11).
//!
//!     cargo run --release -p zhipai-core --example hongwu_fit -- 20000 [seed] [policy] > fit.csv

use zhipai_core::game::{Game, GameState};
use zhipai_core::games::hongwu::greedy::{bid_features, trump_orders};
use zhipai_core::games::hongwu::HongWuRules;
use zhipai_core::policy::Policy;

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let n: u64 = args.get(1).and_then(|s| s.parse().ok()).unwrap_or(20000);
    let seed: u64 = args.get(2).and_then(|s| s.parse().ok()).unwrap_or(3);
    let policy: Policy = args.get(3).map_or("greedy", String::as_str).parse().expect("a policy");
    let rules = HongWuRules::default();
    let orders = trump_orders(&rules);
    println!("trumps,top,pairs,points,aces,short,dealer_points");
    for i in 0..n {
        let mut s = rules.new_deal(seed, i).expect("a deal");
        let opener = s.current_player().expect("an opener");
        let f = bid_features(&s.core().hand(opener), orders);
        for mv in ["bid 60", "pass", "pass", "pass"] {
            s.apply_move(&s.parse_move(mv).expect("a move")).expect("legal");
        }
        s.play_out(policy).expect("plays out");
        let st = s.core().settlement().expect("settled");
        let f: Vec<String> = f.iter().map(|x| x.to_string()).collect();
        println!("{},{}", f.join(","), st.dealer_points);
    }
}
