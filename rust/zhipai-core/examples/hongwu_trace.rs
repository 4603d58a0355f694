use zhipai_core::game::{Game, GameState};
use zhipai_core::games::hongwu::HongWuRules;
use zhipai_core::policy::Policy;
fn main() {
    let args: Vec<String> = std::env::args().collect();
    let i: u64 = args.get(1).and_then(|s| s.parse().ok()).unwrap_or(0);
    let pol: Policy = args.get(2).map_or("greedy", String::as_str).parse().unwrap();
    let rules = HongWuRules::default();
    let mut s = rules.new_deal(1, i).unwrap();
    for mv in ["bid 60", "pass", "pass", "pass"] { s.apply_move(&s.parse_move(mv).unwrap()).unwrap(); }
    s.apply_builtin(pol).unwrap();
    let d = s.core().contract().unwrap().dealer;
    println!("dealer {d} trump {:?}", s.core().trump());
    s.apply_builtin(pol).unwrap();
    println!("kitty {}", s.core().kitty());
    for p in 0..4 { println!("seat {p}: {}", s.core().hand(p)); }
    let n0 = s.history_len();
    while !s.is_terminal() {
        let p = s.current_player().unwrap();
        if s.core().current_trick().is_empty() { println!("-- trick {} points {:?}", s.core().tricks(), s.core().points_won()); }
        s.apply_builtin(pol).unwrap();
        let e = s.history_entry(s.history_len()-1);
        println!("  {p}{} {}", if p==d {"*"} else {" "}, e.mover_view);
    }
    let _ = n0;
    println!("{:?}", s.core().settlement());
}
