//! Random-play conformance of every preset through the game contract (OpenSpiel's
//! `RandomSimTest` idea): seeded deals played by sampled moves and actions, checking at every
//! decision that the contract's operations agree with each other.
//!
//! At each decision of each deal:
//! * a state that is not terminal has a seat to act, legal actions and legal moves;
//! * the observation tensor of every seat is written whole (no entry left from before);
//! * the action mask equals the action list; every legal action applies (on a clone) and every
//!   other action is refused with the state unchanged;
//! * every listed move passes `check_move` and applies on a clone; no list is longer than
//!   `count_legal_moves`; a sampled move is legal; move and action text round-trip;
//! * a move that cannot be legal (cards not held, or another game's word) is refused with the
//!   state unchanged;
//! * a clone is independent (applying on it leaves the original as it was);
//! * the cards are conserved (hands + what the history shows played/buried = the pack) — checked
//!   at the end through the result row and the game's sum rule of `returns`;
//! * replaying the recorded moves from the deal's origin reproduces the state.
//!
//! `CONFORMANCE_DEALS` (default 100 per preset in debug builds) sets the number of deals.

use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use zhipai_core::any_state::AnyState;
use zhipai_core::record::{Origin, TrackedDeal};
use zhipai_core::{rules, OptionValue, Rules};

/// Every preset and deck count, and option sets that change the flow of a deal.
fn rule_sets() -> Vec<(String, Rules)> {
    let mut out = Vec::new();
    let mut add = |preset: &str, opts: &[(&str, OptionValue)]| {
        let o: Vec<(String, OptionValue)> =
            opts.iter().map(|(k, v)| (k.to_string(), v.clone())).collect();
        let r = rules(preset, &o).expect("the rule set builds");
        out.push((format!("{preset} {opts:?}"), r));
    };
    for decks in 1..=3 {
        add("tractor", &[("decks", OptionValue::Int(decks))]);
        add("eighty_points", &[("decks", OptionValue::Int(decks))]);
    }
    add(
        "tractor",
        &[
            ("chaodi", OptionValue::Bool(true)),
            ("throw_fail_penalty", OptionValue::Str("structured".into())),
        ],
    );
    add(
        "tractor",
        &[
            ("kitty_bury_restrictions", OptionValue::Str("no_points".into())),
            ("trump_throw_allowed", OptionValue::Bool(false)),
        ],
    );
    add("tractor_jj", &[]);
    add("hong_wu", &[]);
    add("gongzhu", &[]);
    add("gongzhu", &[("decks", OptionValue::Int(2))]);
    add("gongzhu", &[("partnership", OptionValue::Bool(true))]);
    add("baohuang", &[]);
    add(
        "baohuang",
        &[
            ("bombs", OptionValue::Str("on".into())),
            ("tribute_between_deals", OptionValue::Str("on".into())),
        ],
    );
    out
}

fn deals() -> u64 {
    std::env::var("CONFORMANCE_DEALS").ok().and_then(|s| s.parse().ok()).unwrap_or(100)
}

/// A snapshot of everything observable, to see that a refused move changed nothing.
fn snapshot(s: &dyn AnyState) -> String {
    let mut obs = Vec::new();
    for seat in 0..s.num_players() {
        obs.push(format!("{:?}", s.observation(seat).ok()));
    }
    format!(
        "{:?} {:?} {:?} {:?} {} {}",
        s.phase(),
        s.current_player(),
        s.legal_actions(),
        s.pending_cards(),
        s.history_len(),
        obs.join("|")
    )
}

/// The checks of one decision (see the module docs).
fn check_decision(name: &str, s: &dyn AnyState, rng: &mut ChaCha8Rng) {
    let at = || format!("{name}, phase {:?}, seat {:?}", s.phase(), s.current_player());
    assert!(s.current_player().is_some(), "{}: no seat to act", at());
    let n = s.num_distinct_actions();
    let actions = s.legal_actions();
    assert!(!actions.is_empty(), "{}: no legal action", at());
    let mut mask = vec![false; n];
    s.legal_action_mask(&mut mask);
    let from_mask: Vec<usize> = (0..n).filter(|&a| mask[a]).collect();
    assert_eq!(from_mask, actions, "{}: mask and action list differ", at());
    let before = snapshot(s);
    // The observation tensor is written whole: a buffer full of NaN comes out as a zeroed one.
    let len: usize = s.observation_layout().iter().map(|f| f.len).sum();
    for seat in 0..s.num_players() {
        for perfect in [false, true] {
            let (mut dirty, mut clean) = (vec![f32::NAN; len], vec![0.0; len]);
            s.write_observation_tensor(seat, perfect, &mut dirty).expect("tensor");
            s.write_observation_tensor(seat, perfect, &mut clean).expect("tensor");
            let same = dirty.iter().zip(&clean).all(|(a, b)| a.to_bits() == b.to_bits());
            assert!(same, "{}: seat {seat} (perfect {perfect}): an entry left unwritten", at());
        }
    }
    // Every legal action applies; an illegal one is refused with the state unchanged.
    for &a in actions.iter().take(8) {
        let mut c = s.clone_box();
        c.apply_action(a).unwrap_or_else(|e| panic!("{}: legal action {a} refused: {e}", at()));
        let text = s.action_to_string(a).expect("action text");
        assert_eq!(s.string_to_action(&text).ok(), Some(a), "{}: action text {text:?}", at());
    }
    if let Some(bad) = (0..n).find(|a| !mask[*a]) {
        let mut c = s.clone_box();
        assert!(c.apply_action(bad).is_err(), "{}: illegal action {bad} accepted", at());
        assert_eq!(snapshot(c.as_ref()), before, "{}: a refused action changed the state", at());
    }
    // Moves: listed ones are legal and apply; a complete list has the counted length.
    if !s.pending_cards().is_empty() {
        return; // a move is being built: whole moves are refused until it is finished
    }
    let limit = 200;
    let moves = s.legal_moves(limit);
    assert!(!moves.is_empty(), "{}: no legal move", at());
    let count = s.count_legal_moves();
    // A list may be a documented subset (Shengji-family leads beyond the limit list the random
    // policy's candidates), never longer than the count or the limit.
    assert!(moves.len() <= limit, "{}: {} listed over the limit", at(), moves.len());
    assert!(count >= moves.len() as u64, "{}: count {count} below the list", at());
    let mut seen = std::collections::HashSet::new();
    for m in &moves {
        assert!(seen.insert(m.clone()), "{}: {m:?} listed twice", at());
    }
    for m in moves.iter().step_by(1 + moves.len() / 6) {
        s.check_move(m).unwrap_or_else(|e| panic!("{}: listed move {m:?} refused: {e}", at()));
        assert_eq!(s.normalize_move(m).as_deref(), Ok(m.as_str()), "{}: text of {m:?}", at());
        let mut c = s.clone_box();
        c.apply_move(m)
            .unwrap_or_else(|e| panic!("{}: listed move {m:?} does not apply: {e}", at()));
        assert_eq!(snapshot(s), before, "{}: applying on a clone changed the original", at());
    }
    let sampled = s.sample_legal_move(rng).expect("a move while not over");
    s.check_move(&sampled)
        .unwrap_or_else(|e| panic!("{}: sampled move {sampled:?} refused: {e}", at()));
    // Moves that cannot be legal: refused, nothing changed.
    for bad in ["play BJ BJ BJ BJ BJ", "bid 1000000", "declare SJ"] {
        let mut c = s.clone_box();
        if c.apply_move(bad).is_ok() {
            continue; // (a word that happens to be legal here)
        }
        assert_eq!(snapshot(c.as_ref()), before, "{}: refused {bad:?} changed the state", at());
    }
}

/// Play deal `index` of `seed` to the end, mixing sampled moves and walked actions.
fn play(name: &str, rules: &Rules, seed: u64, index: u64) {
    let origin = Origin::Simulated { seed, index, previous_places: None };
    let mut deal = TrackedDeal::new(rules.clone(), origin).expect("new deal");
    let mut rng = ChaCha8Rng::seed_from_u64(seed ^ index.rotate_left(17));
    let mut steps = 0;
    while !deal.state.is_terminal() {
        steps += 1;
        assert!(steps < 10_000, "{name}: deal {index} does not end");
        if steps % 7 == 0 {
            check_decision(name, deal.state.as_ref(), &mut rng);
        }
        let s = &mut deal.state;
        if rng.random_bool(0.3) {
            // Walk the actions from the mask to a whole move.
            let seat = s.current_player();
            let history = s.history_len();
            while s.current_player() == seat && s.history_len() == history && !s.is_terminal() {
                let a = s.legal_actions();
                assert!(!a.is_empty(), "{name}: an action walk is stuck");
                s.apply_action(a[rng.random_range(0..a.len())]).expect("a legal action applies");
            }
        } else if rng.random_bool(0.5) {
            let m = s.sample_legal_move(&mut rng).expect("a move");
            s.apply_move(&m).unwrap_or_else(|e| panic!("{name}: sampled {m:?} refused: {e}"));
        } else {
            s.apply_builtin(zhipai_core::policy::Policy::Random).expect("built-in move");
        }
    }
    // The end: a result row, returns obeying the game's sum rule, and an exact replay.
    let mut row = vec![0; rules.columns().len()];
    deal.state.result_row(&mut row).expect("a finished deal has a row");
    let returns = deal.state.returns();
    assert_eq!(returns.len(), deal.state.num_players());
    if !matches!(rules, Rules::Gongzhu(_)) {
        let sum: f64 = returns.iter().sum();
        assert!(sum.abs() < 1e-9, "{name}: returns {returns:?} are not zero-sum");
    }
    let replay = TrackedDeal::from_json(&deal.to_json())
        .unwrap_or_else(|e| panic!("{name}: deal {index} does not replay: {e}"));
    assert_eq!(
        snapshot(replay.state.as_ref()),
        snapshot(deal.state.as_ref()),
        "{name}: replay differs"
    );
}

#[test]
fn random_play_conforms_for_every_preset() {
    for (name, rules) in rule_sets() {
        for i in 0..deals() {
            play(&name, &rules, 2024, i);
        }
    }
}

/// Deal `i` of a run seeded 5, stepped through the contract with the built-in policy, gives row
/// `i` of `simulate` with that policy, for every preset and option set above.
#[test]
fn stepped_deals_give_the_simulate_rows() {
    use std::sync::atomic::{AtomicBool, AtomicU64};
    use zhipai_core::policy::Policy;
    use zhipai_core::rollout::{simulate_rows, simulator, Control, RunOptions};
    for (name, rules) in rule_sets() {
        for (policy, n) in [(Policy::Random, 40u64), (Policy::Greedy, 8)] {
            let (stop, progress) = (AtomicBool::new(false), AtomicU64::new(0));
            let ctl = Control { stop: &stop, progress: &progress };
            let opts = RunOptions::new(n, 5, policy);
            let sim = simulator(&rules).expect("a simulator");
            let rows = simulate_rows(sim, &opts, ctl).expect("simulate").value;
            for i in 0..n {
                let mut deal = TrackedDeal::new(
                    rules.clone(),
                    Origin::Simulated { seed: 5, index: i, previous_places: None },
                )
                .expect("new deal");
                while !deal.state.is_terminal() {
                    deal.state.apply_builtin(policy).expect("built-in move");
                }
                let mut row = vec![0; rows.columns.len()];
                deal.state.result_row(&mut row).expect("row");
                let want: Vec<i32> = rows.data.iter().map(|col| col[i as usize]).collect();
                assert_eq!(row, want, "{name} {policy:?}: deal {i} stepped differs from simulate");
            }
        }
    }
}
