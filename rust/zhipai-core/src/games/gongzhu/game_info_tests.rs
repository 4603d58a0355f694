//! Tests of what a Gongzhu deal tells through the game contract: observations show no other
//! seat's hidden card, the history hides closed declarations and replays the deal, the phases,
//! the seats of the current trick, and the sum rule of the returns (documented on
//! [`super::game::DealState`]).

use super::game::DealState;
use super::game_tests::{b, card, option_sets, row_len, rules, s, two_decks};
use super::options::{ExposureMode, GongzhuRules};
use super::play::Play;
use super::state::Move;
use crate::cards::Card;
use crate::deal::deal_rng;
use crate::game::{DealSetup, Game, GameState, Phase, Value};
use crate::multiset::Multiset;
use crate::policy::Policy;

#[test]
fn phases_run_exposure_play_done() {
    for r in option_sets() {
        for seed in 0..3 {
            let mut st = r.new_deal(seed, 0).unwrap();
            let mut seen = vec![st.phase()];
            while !st.is_terminal() {
                st.apply_builtin(Policy::Greedy).unwrap();
                if seen.last() != Some(&st.phase()) {
                    seen.push(st.phase());
                }
            }
            let expected = if r.exposure_mode == ExposureMode::None {
                vec![Phase::Play, Phase::Done]
            } else {
                vec![Phase::Exposure, Phase::Play, Phase::Done]
            };
            assert_eq!(seen, expected);
            let names: Vec<_> = seen.iter().map(|p| p.name()).collect();
            assert!(names.iter().all(|n| ["exposure", "play", "done"].contains(n)));
        }
    }
}

/// Every card named in `v`, added to `out`.
fn cards_in(v: &Value, out: &mut Vec<Card>) {
    match v {
        Value::Cards(m) => out.extend(m.iter()),
        Value::Tuple(xs) | Value::List(xs) => xs.iter().for_each(|x| cards_in(x, out)),
        _ => {}
    }
}

const KEYS: [&str; 12] = [
    "game",
    "seat",
    "phase",
    "current_player",
    "hand",
    "hand_sizes",
    "exposed",
    "closed",
    "taken",
    "current_trick",
    "first_leader",
    "tricks",
];

#[test]
fn observations_show_no_card_of_another_hand() {
    // One deck: every card is unique, so a card of another hand in an observation is a leak
    // unless it is that hand's open exposure (shown on purpose, §A.6).
    for r in [rules(&[]), rules(&[("exposure_mode", s("closed_open"))])] {
        for policy in [Policy::Random, Policy::Greedy] {
            for seed in 0..4 {
                let mut st = r.new_deal(seed, 0).unwrap();
                loop {
                    for seat in 0..4 {
                        check_observation(&st, seat);
                    }
                    if st.is_terminal() {
                        break;
                    }
                    st.apply_builtin(policy).unwrap();
                }
            }
        }
    }
}

fn check_observation(st: &DealState, seat: usize) {
    let o = st.observation(seat).unwrap();
    let keys: Vec<&str> = o.entries.iter().map(|(k, _)| *k).collect();
    assert_eq!(keys, KEYS);
    assert_eq!(o.get("phase"), Some(&Value::from(st.phase().name())));
    assert_eq!(o.get("current_player"), Some(&Value::from(st.current_player())));
    assert_eq!(o.get("hand"), Some(&Value::Cards(*st.state().hand(seat))));
    assert_eq!(o.get("closed"), Some(&Value::Cards(*st.state().exposed(seat).1)));
    let mut seen = Vec::new();
    for (k, v) in &o.entries {
        if *k != "hand" {
            cards_in(v, &mut seen);
        }
    }
    for q in (0..4).filter(|&q| q != seat) {
        let (open, _) = st.state().exposed(q);
        for &c in &seen {
            let leak = st.state().hand(q).contains(c) && !open.contains(c);
            assert!(!leak, "seat {seat} sees {c} of seat {q}: {o:?}");
        }
    }
}

#[test]
fn closed_declarations_are_the_declarers_alone() {
    let r = rules(&[("exposure_mode", s("closed_open"))]);
    let mut found = 0;
    for seed in 0..12 {
        let mut st = r.new_deal(seed, 0).unwrap();
        while !st.is_terminal() {
            st.apply_builtin(Policy::Random).unwrap();
        }
        for e in st.history() {
            assert_eq!(e.builtin, Some(Policy::Random));
            assert_eq!(e.mover_view, e.applied);
            let closed = e.applied.starts_with("expose closed ");
            let public = e.public_view.clone().unwrap();
            assert_eq!(public, if closed { "expose closed".into() } else { e.applied.clone() });
            found += closed as usize;
        }
        for q in 0..4 {
            let own: Vec<String> = st
                .history_seen_by(q)
                .into_iter()
                .filter_map(|(p, t)| t.strip_prefix("expose closed ").map(|c| (p, c.to_string())))
                .map(|(p, c)| {
                    assert_eq!(p, q, "seat {q} sees the card of a closed declaration of {p}");
                    c
                })
                .collect();
            let closed: Vec<String> =
                st.state().exposed(q).1.iter().map(|c| c.to_string()).collect();
            let mut own = own;
            own.sort_by_key(|c| card(c));
            assert_eq!(own, closed);
        }
    }
    assert!(found > 0);
}

#[test]
fn the_history_replays_the_deal() {
    for r in [rules(&[two_decks()]), rules(&[("exposure_mode", s("closed_open"))])] {
        for seed in 0..6 {
            let mut st = r.new_deal(seed, 3).unwrap();
            let mut rng = deal_rng(seed, 5);
            while !st.is_terminal() {
                // Alternate built-in and sampled moves; only the former are marked built-in.
                if st.history_len() % 2 == 0 {
                    st.apply_builtin(Policy::Greedy).unwrap();
                } else {
                    let mv = st.sample_legal_move(&mut rng).unwrap();
                    st.apply_move_unchecked(&mv);
                }
            }
            let mut replay = r.new_deal(seed, 3).unwrap();
            for (i, e) in st.history().iter().enumerate() {
                let expected = (i % 2 == 0).then_some(Policy::Greedy);
                assert_eq!(e.builtin, expected);
                assert_eq!(Some(e.seat), replay.current_player());
                replay.apply_move(&replay.parse_move(&e.applied).unwrap()).unwrap();
            }
            let (mut a, mut b) = (vec![0; row_len(&r)], vec![0; row_len(&r)]);
            st.result_row(&mut a).unwrap();
            replay.result_row(&mut b).unwrap();
            assert_eq!(a, b);
        }
    }
}

#[test]
fn current_trick_names_the_seats_in_playing_order() {
    // Clockwise (§A.2 option): seat 3 leads, seat 2 follows.
    let r = rules(&[("direction", s("clockwise")), ("exposure_mode", s("none"))]);
    let suit = |x: &str| -> Multiset {
        ["2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A"]
            .iter()
            .map(|rank| format!("{rank}{x}"))
            .collect::<Vec<_>>()
            .join(" ")
            .parse()
            .unwrap()
    };
    let hands = vec![suit("S"), suit("H"), suit("D"), suit("C")];
    let mut st = r.deal_from(&DealSetup { hands, dealer: Some(3), ..Default::default() }).unwrap();
    st.apply_move(&st.parse_move("2C").unwrap()).unwrap();
    assert_eq!(st.current_player(), Some(2));
    assert_eq!(st.legal_moves(1), vec![Move::Play(Play::single(card("2D")))]);
    st.apply_move(&st.parse_move("2D").unwrap()).unwrap();
    let trick =
        Value::from(vec![(3usize, "2C".parse::<Multiset>().unwrap()), (2, "2D".parse().unwrap())]);
    assert_eq!(st.observation(0).unwrap().get("current_trick"), Some(&trick));
}

/// The sum of the returns of `deals` random deals of `r`: whether every one is zero, and
/// whether any is nonzero.
fn return_sums(r: &GongzhuRules, deals: u64) -> (bool, bool) {
    let mut sums = Vec::new();
    for i in 0..deals {
        let mut st = r.new_deal(77, i).unwrap();
        assert_eq!(st.returns(), vec![0.0; 4]);
        while !st.is_terminal() {
            st.apply_builtin(Policy::Random).unwrap();
        }
        let fin = st.state().score().final_;
        assert_eq!(st.returns(), fin.iter().map(|&x| x as f64).collect::<Vec<_>>());
        sums.push(st.returns().iter().sum::<f64>());
    }
    (sums.iter().all(|&x| x == 0.0), sums.iter().any(|&x| x != 0.0))
}

#[test]
fn returns_sum_to_zero_exactly_where_documented() {
    let team = ("partnership", b(true));
    let zero_sum = [
        rules(&[("normalize", s("exact"))]),
        rules(std::slice::from_ref(&team)),
        rules(&[team.clone(), ("normalize", s("round_then_x12"))]),
        rules(&[team.clone(), ("normalize", s("exact"))]),
        rules(&[team.clone(), two_decks()]),
        // Raw scores are multiples of 10: the half-difference is whole, nothing is rounded.
        rules(&[team.clone(), ("normalize", s("floor_then_x12"))]),
    ];
    for r in zero_sum {
        assert_eq!(return_sums(&r, 80), (true, false), "{r:?}");
    }
    let not_zero_sum = [
        rules(&[]),
        rules(&[("normalize", s("round_then_x12"))]),
        rules(&[("normalize", s("floor_then_x12"))]),
        rules(&[("normalize", s("none"))]),
        rules(&[team, ("normalize", s("none"))]),
    ];
    for r in not_zero_sum {
        assert!(return_sums(&r, 80).1, "{r:?}: some deal should not sum to zero");
    }
}

#[test]
fn greedy_never_exposes_a_copy_declared_closed() {
    // A seat's closed declaration (made by a Python policy, say) then a greedy move: the copy is
    // spent, so greedy must not expose it openly as well (it counted twice before).
    let r = rules(&[("exposure_mode", s("closed_open"))]);
    let mut found = 0;
    for seed in 0..200 {
        let st = r.new_deal(seed, 0).unwrap();
        let Move::Expose(c) = st.clone().builtin_move(Policy::Greedy).unwrap() else { continue };
        let mut after = st.clone();
        after.apply_move(&Move::ExposeClosed(c)).unwrap();
        let mv = after.builtin_move(Policy::Greedy).unwrap();
        assert!(after.check_move(&mv).is_ok(), "seed {seed}: greedy chose {mv}");
        after.apply_builtin(Policy::Greedy).unwrap();
        found += 1;
    }
    assert!(found > 3, "{found}");
}
