//! Each game's deal on fuzzer-chosen action sequences: `TrackedDeal::new` (any preset, fuzzer
//! options and origin) then integer actions, move text, listed legal moves, built-in moves and
//! peeks, legal or not. Checked: nothing panics; a refused action or move leaves the state
//! unchanged (its full contents, generator included); a move that `check_move` accepts applies;
//! the mask is the legal actions; while the deal runs some action is legal; a record written at
//! any point replays to the same state; and the deal always ends — finished by legal actions,
//! it is over within a bound, with a return per seat and a result row.
#![no_main]

use arbitrary::{Arbitrary, Result, Unstructured};
use libfuzzer_sys::fuzz_target;
use zhipai_core::policy::Policy;
use zhipai_core::record::TrackedDeal;
use zhipai_fuzz::{all_presets, arb_origin, arb_rules, snapshot};

/// Actions to finish any deal by legal actions (a Baohuang deal with redeals is the longest).
const MAX_FINISH: usize = 100_000;

#[derive(Arbitrary, Debug)]
enum Op {
    /// The `i`-th legal action (mod their number).
    LegalAction(u16),
    /// Any action number: mostly illegal, some out of range.
    RawAction(u16),
    /// The `i`-th listed legal move (mod their number), as text.
    LegalMove(u8),
    /// Fuzzer move text.
    Text(String),
    /// A built-in move (random or greedy), applied.
    Builtin(bool),
    /// A built-in move, not applied (recorded as a peek).
    Peek(bool),
    /// A record now, replayed.
    Record,
    /// What a seat sees.
    Observe(u8),
}

fn policy(greedy: bool) -> Policy {
    if greedy {
        Policy::Greedy
    } else {
        Policy::Random
    }
}

/// The invariants of a state between decisions.
fn check_state(deal: &TrackedDeal) {
    let s = &*deal.state;
    let n = s.num_players();
    let over = s.is_terminal();
    match s.current_player() {
        Some(p) => assert!(p < n && !over),
        None => assert!(over, "no one to move in phase {}", s.phase()),
    }
    let legal = s.legal_actions();
    let mut mask = vec![false; s.num_distinct_actions()];
    s.legal_action_mask(&mut mask);
    let from_mask: Vec<usize> = (0..mask.len()).filter(|&a| mask[a]).collect();
    assert_eq!(legal, from_mask);
    if over {
        assert!(legal.is_empty() && s.count_legal_moves() == 0 && s.legal_moves(5).is_empty());
    } else {
        assert!(!legal.is_empty(), "no legal action in phase {}", s.phase());
        if s.pending_cards().is_empty() {
            assert!(s.count_legal_moves() >= 1 && !s.legal_moves(5).is_empty());
        }
    }
}

/// Apply `op`; a refusal must leave the state as it was.
fn step(deal: &mut TrackedDeal, op: &Op) {
    let before = snapshot(&*deal.state);
    let refused = match op {
        Op::LegalAction(i) => {
            let legal = deal.state.legal_actions();
            if legal.is_empty() {
                return;
            }
            let a = legal[*i as usize % legal.len()];
            deal.state.apply_action(a).unwrap_or_else(|e| panic!("legal action {a} refused: {e}"));
            false
        }
        Op::RawAction(a) => {
            let legal = deal.state.legal_actions().contains(&(*a as usize));
            let r = deal.state.apply_action(*a as usize);
            assert_eq!(r.is_ok(), legal, "action {a}: {r:?}");
            r.is_err()
        }
        Op::LegalMove(i) => {
            let moves = deal.state.legal_moves(64);
            if moves.is_empty() {
                return;
            }
            let m = &moves[*i as usize % moves.len()];
            // A move is whole: not while one is being built card by card.
            let pending = !deal.state.pending_cards().is_empty();
            match deal.state.apply_move(m) {
                Ok(applied) => assert_eq!(&applied, m),
                Err(e) => {
                    assert!(pending, "listed move {m:?} refused: {e}");
                    return assert_eq!(snapshot(&*deal.state), before);
                }
            }
            false
        }
        Op::Text(t) => {
            let legal = deal.state.check_move(t).is_ok();
            let r = deal.state.apply_move(t);
            assert_eq!(r.is_ok(), legal, "move {t:?}: {r:?}");
            r.is_err()
        }
        Op::Builtin(g) => {
            let over = deal.state.is_terminal();
            let r = deal.state.apply_builtin(policy(*g));
            if !over && deal.state.pending_cards().is_empty() {
                r.as_ref().unwrap_or_else(|e| panic!("built-in move refused: {e}"));
            }
            r.is_err()
        }
        Op::Peek(g) => deal.builtin_move(policy(*g)).is_err(),
        Op::Record => {
            let json = deal.to_json();
            let again = TrackedDeal::from_json(&json)
                .unwrap_or_else(|e| panic!("a record does not replay: {e}\n{json}"));
            assert_eq!(snapshot(&*again.state), before, "the replay differs\n{json}");
            assert_eq!(again.to_json(), json);
            false
        }
        Op::Observe(seat) => {
            let s = &*deal.state;
            let n = s.num_players();
            let seat = *seat as usize % (n + 2);
            let layout = s.observation_layout();
            let size = layout.iter().map(|f| f.offset + f.len).max().unwrap_or(0);
            let mut out = vec![0f32; size];
            assert_eq!(s.observation(seat).is_ok(), seat < n);
            if !layout.is_empty() {
                let r = s.write_observation_tensor(seat, false, &mut out);
                assert_eq!(r.is_ok(), seat < n, "tensor of seat {seat}: {r:?}");
            }
            let mut feats = Vec::new();
            let k = s.legal_move_features(8, &mut feats);
            assert_eq!(feats.len(), 54 * k);
            false
        }
    };
    if refused {
        assert_eq!(snapshot(&*deal.state), before, "a refused {op:?} changed the state");
    }
    check_state(deal);
}

fn run(u: &mut Unstructured<'_>) -> Result<()> {
    let Some(rules) = arb_rules(u, all_presets())? else { return Ok(()) };
    let origin = arb_origin(u)?;
    let Ok(mut deal) = TrackedDeal::new(rules, origin) else { return Ok(()) };
    check_state(&deal);
    let ops = u.int_in_range(0..=400)?;
    for _ in 0..ops {
        if u.is_empty() {
            break;
        }
        step(&mut deal, &Op::arbitrary(u)?);
    }
    // The deal ends: legal actions (chosen by what is left of the input, then the first).
    let mut left = MAX_FINISH;
    while !deal.state.is_terminal() {
        assert!(left > 0, "not over after {MAX_FINISH} legal actions: {}", deal.to_json());
        left -= 1;
        let legal = deal.state.legal_actions();
        let i = u.arbitrary::<u8>().unwrap_or(0) as usize;
        deal.state.apply_action(legal[i % legal.len()]).expect("a legal action applies");
    }
    check_state(&deal);
    let s = &*deal.state;
    let returns = s.returns();
    assert_eq!(returns.len(), s.num_players());
    assert!(returns.iter().all(|r| r.is_finite()));
    let mut row = vec![0; deal.rules.columns().len()];
    s.result_row(&mut row).expect("a finished deal has a result row");
    let json = deal.to_json();
    let again = TrackedDeal::from_json(&json).unwrap_or_else(|e| panic!("{e}\n{json}"));
    assert_eq!(snapshot(&*again.state), snapshot(s));
    Ok(())
}

fuzz_target!(|data: &[u8]| {
    let _ = run(&mut Unstructured::new(data));
});
