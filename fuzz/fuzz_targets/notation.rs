//! Card and move notation: `Card`, `Rank`, `Suit`, card lists, `Multiset`, and every game's
//! move text (`parse_move` / `move_to_string` through `AnyState::normalize_move`) and action
//! names, on arbitrary text. Parsing returns a value or a named error, never panics, and what
//! it returns prints back to text that parses to the same value (the canonical text is a fixed
//! point; a move and its canonical text are equally legal and apply alike).
//!
//! Input: byte 0 the preset, byte 1 how many built-in moves into the deal (×2), byte 2 the seed,
//! bytes 3–4 an action number; the rest is the text (UTF-8, lossy).
#![no_main]

use libfuzzer_sys::fuzz_target;
use std::cell::RefCell;
use std::collections::HashMap;
use std::str::FromStr;
use zhipai_core::any_state::AnyState;
use zhipai_core::cards::{format_cards, parse_cards};
use zhipai_core::policy::Policy;
use zhipai_core::record::{new_state, Origin};
use zhipai_core::rules::{rules, PRESETS};
use zhipai_core::{Card, Multiset, Rank, Suit};

thread_local! {
    /// States by (preset, steps, seed): replaying hundreds of built-in moves per input would
    /// dominate the run.
    static STATES: RefCell<HashMap<(u8, u8, u8), Box<dyn AnyState>>> = RefCell::new(HashMap::new());
}

fn state_at(preset: u8, steps: u8, seed: u8) -> Box<dyn AnyState> {
    STATES.with(|cache| {
        cache
            .borrow_mut()
            .entry((preset, steps, seed))
            .or_insert_with(|| {
                let r = rules(PRESETS[preset as usize], &[]).expect("preset");
                let origin =
                    Origin::Simulated { seed: seed as u64, index: 0, previous_places: None };
                let mut s = new_state(&r, &origin).expect("a simulated deal");
                for _ in 0..2 * steps as usize {
                    if s.is_terminal() {
                        break;
                    }
                    s.apply_builtin(Policy::Random).expect("a built-in move applies");
                }
                s
            })
            .clone()
    })
}

fn cards_round_trip(text: &str) {
    for token in text.split_whitespace().chain(std::iter::once(text)) {
        if let Ok(c) = Card::from_str(token) {
            assert_eq!(c.to_string().parse::<Card>().unwrap(), c, "card {token:?}");
        }
        if let Ok(r) = Rank::from_str(token) {
            assert_eq!(r.to_string().parse::<Rank>().unwrap(), r, "rank {token:?}");
        }
        if let Ok(s) = Suit::from_str(token) {
            assert_eq!(s.to_string().parse::<Suit>().unwrap(), s, "suit {token:?}");
        }
    }
    if let Ok(v) = parse_cards(text) {
        assert_eq!(parse_cards(&format_cards(&v)).unwrap(), v, "card list {text:?}");
        match Multiset::from_str(text) {
            Ok(m) => {
                assert_eq!(m.len(), v.len());
                let again: Multiset = m.to_string().parse().unwrap();
                assert_eq!(again, m, "multiset {text:?}");
                let counts = m.counts();
                for c in &v {
                    assert!(counts[c.index()] >= 1);
                }
            }
            // Only more than four copies of a card is refused.
            Err(e) => assert!(
                v.iter().any(|c| v.iter().filter(|d| *d == c).count() > 4),
                "multiset {text:?} refused: {e}"
            ),
        }
    }
}

fn moves_round_trip(s: &dyn AnyState, text: &str, action: usize) {
    // A move's text and its canonical text.
    if let Ok(canon) = s.normalize_move(text) {
        assert_eq!(s.normalize_move(&canon).as_deref(), Ok(canon.as_str()), "move {text:?}");
        let legal = s.check_move(text).is_ok();
        assert_eq!(legal, s.check_move(&canon).is_ok(), "move {text:?} / {canon:?}");
        let before = zhipai_fuzz::snapshot(s);
        let mut t = s.clone_box();
        match t.apply_move(text) {
            Ok(applied) => {
                assert!(legal, "{text:?} applied but check_move refuses it");
                assert_eq!(applied, canon);
            }
            Err(_) => {
                assert!(!legal, "{text:?} is legal but apply_move refuses it");
                assert_eq!(
                    zhipai_fuzz::snapshot(&*t),
                    before,
                    "refused {text:?} changed the state"
                );
            }
        }
    } else {
        assert!(s.check_move(text).is_err());
    }
    // Action names.
    let n = s.num_distinct_actions();
    if let Ok(a) = s.string_to_action(text) {
        assert!(a < n);
        // Its name reads back to it (the text may spell it otherwise: cards in another order).
        let name = s.action_to_string(a).unwrap();
        assert_eq!(s.string_to_action(&name), Ok(a), "action {a} {name:?} read from {text:?}");
    }
    match s.action_to_string(action) {
        Ok(name) => {
            assert!(action < n, "action {action} of {n} has a name");
            let back = s.string_to_action(&name).expect("an action's name reads back");
            assert_eq!(s.action_to_string(back).unwrap(), name);
        }
        Err(_) => assert!(action >= n, "action {action} of {n} has no name"),
    }
    // Every listed legal move is canonical and legal; a sampled move too.
    for m in s.legal_moves(40) {
        assert_eq!(s.normalize_move(&m).as_deref(), Ok(m.as_str()), "legal move {m:?}");
        assert!(s.check_move(&m).is_ok(), "legal move {m:?} refused");
    }
}

fuzz_target!(|data: &[u8]| {
    if data.len() < 5 {
        return;
    }
    let preset = data[0] % PRESETS.len() as u8;
    let (steps, seed) = (data[1], data[2] % 4);
    let action = u16::from_le_bytes([data[3], data[4]]) as usize;
    let text = String::from_utf8_lossy(&data[5..]);
    cards_round_trip(&text);
    let s = state_at(preset, steps, seed);
    moves_round_trip(&*s, &text, action);
});
