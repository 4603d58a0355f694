//! Tests of Gongzhu through the game contract ([`super::game::DealState`]): a deal played with
//! built-in moves gives `simulate`'s row (the general state and the fast one-deck rollout), a
//! given deal plays as hand evaluation plays it, the four move operations agree and the integer
//! actions are exact (observations, history and returns: [`super::game_info_tests`]). Expected
//! values come from `simulate`, hand evaluation and the digest, never from the code under test.

use super::game::DealState;
use super::options::GongzhuRules;
use super::play::Play;
use super::state::{deal_hands, Move, NUM_ACTIONS};
use crate::cards::Card;
use crate::deal::deal_rng;
use crate::deal::Deal;
use crate::error::ZhipaiError;
use crate::game::{DealSetup, Game, GameState, Observation, Phase};
use crate::multiset::Multiset;
use crate::options::OptionValue;
use crate::policy::Policy;
use crate::simulator::{DealSimulator, StartingDeal};
use std::ops::Range;

pub(super) fn rules(opts: &[(&str, OptionValue)]) -> GongzhuRules {
    let o: Vec<(String, OptionValue)> =
        opts.iter().map(|(k, v)| (k.to_string(), v.clone())).collect();
    GongzhuRules::from_preset("gongzhu", &o).unwrap()
}

pub(super) fn s(v: &str) -> OptionValue {
    OptionValue::Str(v.into())
}

pub(super) fn b(v: bool) -> OptionValue {
    OptionValue::Bool(v)
}

pub(super) fn two_decks() -> (&'static str, OptionValue) {
    ("decks", OptionValue::Int(2))
}

pub(super) fn card(text: &str) -> Card {
    text.parse().unwrap()
}

/// Option sets covering every code path of a deal: one and two decks, partnership, each
/// exposure mode and auto-exposure setting, both directions, the discard restriction, each
/// first lead, and the normalisations.
pub(super) fn option_sets() -> Vec<GongzhuRules> {
    vec![
        rules(&[]),
        rules(&[two_decks()]),
        rules(&[("partnership", b(true))]),
        rules(&[two_decks(), ("partnership", b(true)), ("exposure_mode", s("closed_open"))]),
        rules(&[("exposure_mode", s("none"))]),
        rules(&[("exposure_mode", s("closed_open"))]),
        rules(&[
            ("direction", s("clockwise")),
            ("exposed_discard_before_first_round", s("forbidden")),
        ]),
        rules(&[("first_lead_card", s("rotate")), ("normalize", s("exact"))]),
        rules(&[
            two_decks(),
            ("auto_expose_fourth", b(true)),
            ("diamond_pairs_beat_singles", b(false)),
            ("direction", s("clockwise")),
        ]),
        rules(&[("first_lead_card", s("S7")), ("auto_expose_fourth", b(false))]),
    ]
}

pub(super) fn row_len(r: &GongzhuRules) -> usize {
    Game::columns(r).len()
}

/// Play `st` to the end with `policy`; its row and how far its generator went.
fn finish(mut st: DealState, policy: Policy) -> (Vec<i32>, u128) {
    while !st.is_terminal() {
        st.apply_builtin(policy).unwrap();
    }
    let mut row = vec![i32::MIN; row_len(st.state().rules())];
    st.result_row(&mut row).unwrap();
    (row, st.word_pos())
}

/// Deal `index` of `simulate(r, …, seed)`: its row and how far its generator went.
fn simulate_row(r: &GongzhuRules, seed: u64, index: u64, policy: Policy) -> (Vec<i32>, u128) {
    let mut rng = deal_rng(seed, index);
    let mut row = vec![i32::MIN; DealSimulator::columns(r).len()];
    r.play_deal(policy, &mut rng, &mut row).unwrap();
    (row, rng.get_word_pos())
}

#[test]
fn builtin_play_through_gives_the_simulate_rows() {
    // One deck with `random` is the fast bitboard rollout in `simulate`: the same rows and the
    // same draws (generator position) are required of the general state too.
    for (k, r) in option_sets().iter().enumerate() {
        let seed = 1000 + k as u64;
        for (policy, deals) in [(Policy::Random, 60), (Policy::Greedy, 12), (Policy::Basic, 12)] {
            for i in 0..deals {
                let got = finish(r.new_deal(seed, i).unwrap(), policy);
                assert_eq!(got, simulate_row(r, seed, i, policy), "{r:?} {policy:?} deal {i}");
            }
        }
    }
}

#[test]
fn columns_are_those_of_simulate() {
    for r in option_sets() {
        assert_eq!(Game::columns(&r), DealSimulator::columns(&r));
    }
    assert_eq!(row_len(&rules(&[])), 21);
    assert_eq!(row_len(&rules(&[two_decks()])), 24);
}

#[test]
fn deal_from_plays_as_hand_evaluation_does() {
    let sets = [
        rules(&[]),
        rules(&[two_decks()]),
        rules(&[("exposure_mode", s("closed_open")), ("partnership", b(true))]),
    ];
    for r in sets {
        for seed in 0..12u64 {
            let hands = deal_hands(&r, &mut deal_rng(seed, 99)).to_vec();
            let deal = Deal { hands: hands.clone(), kitty: Multiset::EMPTY };
            for dealer in [None, Some((seed % 4) as usize)] {
                for policy in [Policy::Random, Policy::Greedy, Policy::Basic] {
                    let setup =
                        DealSetup { hands: hands.clone(), dealer, seed, ..Default::default() };
                    let st = r.deal_from(&setup).unwrap();
                    for (q, h) in hands.iter().enumerate() {
                        assert_eq!(st.state().hand(q), h);
                    }
                    if let Some(d) = dealer {
                        assert_eq!((st.state().first_leader(), st.current_player()), (d, Some(d)));
                    }
                    let (row, _) = finish(st, policy);
                    let start = StartingDeal::new(&deal, 0).with_dealer(dealer);
                    let mut expected = vec![i32::MIN; row_len(&r)];
                    r.play_from_deal(policy, &start, &mut deal_rng(seed, 0), &mut expected)
                        .unwrap();
                    assert_eq!(row, expected, "{r:?} seed {seed} dealer {dealer:?} {policy:?}");
                }
            }
        }
    }
}

#[test]
fn deal_from_refuses_what_gongzhu_has_not() {
    let r = rules(&[]);
    let hands = deal_hands(&r, &mut deal_rng(1, 0)).to_vec();
    let base = DealSetup { hands: hands.clone(), ..Default::default() };
    let err = |setup: DealSetup| r.deal_from(&setup).unwrap_err().to_string();
    assert!(err(DealSetup { kitty: Some(Multiset::EMPTY), ..base.clone() }).contains("kitty"));
    assert!(err(DealSetup { level: Some(None), ..base.clone() }).contains("invalid level"));
    assert!(err(DealSetup { trump: Some(None), ..base.clone() }).contains("invalid trump NT"));
    assert!(err(DealSetup { dealer: Some(4), ..base.clone() }).contains("invalid dealer 4"));
    assert!(err(DealSetup { hands: hands[..3].to_vec(), ..base.clone() }).contains("3 hands"));
    let mut short = hands.clone();
    let c = short[0].iter().next().unwrap();
    short[0].remove(c);
    short[1].add(c);
    assert!(err(DealSetup { hands: short, ..base.clone() }).contains("hand of seat 0"));
    // Without a dealer the ♣2 holder leads it (§A.8); all of the deck is needed.
    let st = r.deal_from(&base).unwrap();
    let holder = (0..4).find(|&q| hands[q].contains(card("2C"))).unwrap();
    assert_eq!((st.phase(), st.current_player()), (Phase::Exposure, Some(holder)));
}

/// Everything a caller can see of a state: each seat's observation, the history, the legal
/// moves and the generator position (a refused move must change none of them).
pub(super) fn snapshot(
    st: &DealState,
) -> (Vec<Observation>, Vec<crate::game::HistoryEntry>, Vec<Move>, u128) {
    let obs = (0..4).map(|q| st.observation(q).unwrap()).collect();
    (obs, st.history(), st.legal_moves(usize::MAX), st.word_pos())
}

/// `text` in another letter case and spacing, its cards in reverse order.
fn scramble(mv: &Move, text: &str) -> String {
    match mv {
        Move::Play(_) => {
            let words: Vec<String> = text.split(' ').rev().map(str::to_ascii_lowercase).collect();
            format!("  {}\t", words.join("   "))
        }
        _ => format!(" {} ", text.to_ascii_uppercase().replace(' ', "  ")),
    }
}

/// Play `seeds` random deals of `r` with moves drawn from a generator apart from the deals'
/// own (applied checked, so every sampled move is legal), calling `visit` at every position.
fn walk(r: &GongzhuRules, seeds: Range<u64>, mut visit: impl FnMut(&DealState)) {
    for seed in seeds {
        let mut st = r.new_deal(seed, 0).unwrap();
        let mut rng = deal_rng(seed, 1 << 40);
        while !st.is_terminal() {
            visit(&st);
            let mv = st.sample_legal_move(&mut rng).unwrap();
            st.apply_move(&mv).unwrap();
        }
        visit(&st);
    }
}

/// The four move operations agree at `st`; an illegal move is refused with `st` unchanged.
fn check_move_operations(st: &DealState) {
    let all = st.legal_moves(usize::MAX);
    assert_eq!(all.len() as u64, st.count_legal_moves());
    assert_eq!(st.legal_moves(2), all[..all.len().min(2)]);
    for mv in &all {
        st.check_move(mv).unwrap();
        let text = st.move_to_string(mv);
        assert_eq!(st.parse_move(&text).unwrap(), *mv);
        let other = scramble(mv, &text);
        assert_eq!(st.parse_move(&other).unwrap(), *mv, "{other:?}");
    }
    let mut rng = deal_rng(7, st.history_len() as u64);
    let Some(seat) = st.current_player() else {
        assert!(all.is_empty() && st.sample_legal_move(&mut rng).is_none());
        return;
    };
    for _ in 0..3 {
        assert!(all.contains(&st.sample_legal_move(&mut rng).unwrap()));
    }
    // A card the seat does not hold (there is always one: 52 kinds, at most 26 held).
    let hand = st.state().hand(seat);
    let missing = (0..52).map(|i| Card::from_index(i).unwrap()).find(|&c| !hand.contains(c));
    let bad = Move::Play(Play::single(missing.unwrap()));
    let before = snapshot(st);
    let mut copy = st.clone();
    let e = copy.apply_move(&bad).unwrap_err();
    assert!(matches!(e, ZhipaiError::IllegalPlay { .. }), "{e}");
    assert!(copy.apply_action(bad.action()).is_err());
    assert_eq!(snapshot(&copy), before);
}

#[test]
fn the_four_move_operations_agree() {
    for r in option_sets() {
        walk(&r, 0..6, check_move_operations);
    }
}

/// The legal actions and the mask are exactly the actions of the legal moves, and an action
/// applies as its move does.
fn check_actions(st: &DealState) {
    let actions = st.legal_actions();
    assert!(actions.windows(2).all(|w| w[0] < w[1]), "ascending");
    let mut from_moves: Vec<usize> = st.legal_moves(usize::MAX).iter().map(Move::action).collect();
    from_moves.sort_unstable();
    assert_eq!(actions, from_moves);
    let mut mask = vec![true; st.num_distinct_actions()];
    st.legal_action_mask(&mut mask);
    for (a, &legal) in mask.iter().enumerate() {
        let mv = Move::from_action(a).unwrap();
        assert_eq!(legal, st.check_move(&mv).is_ok(), "action {a} = {mv}");
    }
    assert_eq!(st.pending_cards(), Multiset::EMPTY);
    if let Some(&a) = actions.get(st.history_len() % actions.len().max(1)) {
        let (mut x, mut y) = (st.clone(), st.clone());
        x.apply_action(a).unwrap();
        y.apply_move(&Move::from_action(a).unwrap()).unwrap();
        assert_eq!(snapshot(&x), snapshot(&y));
    }
}

#[test]
fn the_action_mask_is_exact() {
    for r in option_sets() {
        walk(&r, 0..2, check_actions);
    }
}

#[test]
fn walking_actions_from_the_mask_finishes_every_deal() {
    for (k, r) in option_sets().iter().enumerate() {
        for seed in 0..4 {
            let mut st = r.new_deal(seed, k as u64).unwrap();
            let mut mask = vec![false; NUM_ACTIONS];
            let mut pick = 0usize;
            while !st.is_terminal() {
                st.legal_action_mask(&mut mask);
                let legal: Vec<usize> = (0..NUM_ACTIONS).filter(|&a| mask[a]).collect();
                pick = pick.wrapping_mul(31).wrapping_add(7);
                st.apply_action(legal[pick % legal.len()]).unwrap();
                assert_eq!(st.pending_cards(), Multiset::EMPTY);
            }
            assert!(st.legal_actions().is_empty());
            st.result_row(&mut vec![0; row_len(r)]).unwrap();
        }
    }
}

#[test]
fn action_names_round_trip() {
    let st = rules(&[two_decks()]).new_deal(0, 0).unwrap();
    for a in 0..NUM_ACTIONS {
        let text = st.action_to_string(a).unwrap();
        assert_eq!(st.string_to_action(&text).unwrap(), a, "{text}");
        let mv = Move::from_action(a).unwrap();
        assert_eq!(st.string_to_action(&scramble(&mv, &text)).unwrap(), a, "{text}");
    }
    assert!(st.action_to_string(NUM_ACTIONS).is_err());
    // Fixed names (the table of `DealState`).
    for (text, a) in [("2S", 0), ("AS", 12), ("2H", 13), ("10C", 47), ("2S 2S", 52)] {
        assert_eq!(st.string_to_action(text).unwrap(), a, "{text}");
    }
    for (text, a) in [("expose QS", 1430), ("expose closed AH", 1437), ("end exposure", 1438)] {
        assert_eq!(st.string_to_action(text).unwrap(), a, "{text}");
    }
    assert_eq!(st.string_to_action("10C 2C").unwrap(), st.string_to_action("2C 10C").unwrap());
    // A card that cannot be exposed has no action (it would otherwise alias "expose QS").
    assert!(st.string_to_action("expose 2S").is_err());
    assert!(st.string_to_action("pass").is_err());
}

#[test]
fn move_text_errors() {
    let st = rules(&[two_decks()]).new_deal(0, 0).unwrap();
    let err = |t: &str| st.parse_move(t).unwrap_err();
    let pass = err(" Pass ");
    assert!(matches!(pass, ZhipaiError::InvalidValue { .. }), "{pass}");
    assert_eq!(
        pass.to_string(),
        "invalid move ' Pass ': Gongzhu has no pass; 'end exposure' ends your exposures"
    );
    assert!(err("").to_string().contains("empty"));
    let three = err("AS AS AS");
    assert!(
        matches!(three, ZhipaiError::InvalidValue { .. }) && three.to_string().contains("AS AS AS")
    );
    assert!(matches!(err("hello"), ZhipaiError::InvalidCard { .. }));
    assert!(matches!(err("expose"), ZhipaiError::InvalidCard { .. }));
    assert!(matches!(err("expose QS QS"), ZhipaiError::InvalidCard { .. }));
    assert!(matches!(err("BJ"), ZhipaiError::InvalidValue { .. }));
    let ok = |t: &str| st.parse_move(t).unwrap();
    assert_eq!(ok("END   exposure"), Move::EndExposure);
    assert_eq!(ok("Expose Closed qs"), Move::ExposeClosed(card("QS")));
    assert_eq!(ok("expose ah"), Move::Expose(card("AH")));
    assert_eq!(ok("10c 2C"), Move::Play(Play::two(card("2C"), card("10C"))));
}

#[test]
fn refused_moves_name_the_rule_and_change_nothing() {
    let mut st = rules(&[]).new_deal(0, 0).unwrap();
    let before = snapshot(&st);
    // A play during the exposure phase.
    let e = st.apply_move(&st.parse_move("2C").unwrap()).unwrap_err();
    assert_eq!(e.to_string(), "illegal play 2C: not allowed in the exposure phase");
    // An exposure of a card that is not exposable.
    let e = st.apply_move(&Move::Expose(card("2S"))).unwrap_err();
    assert!(e.to_string().contains("§A.6"), "{e}");
    assert_eq!(snapshot(&st), before);
    let mut row = vec![0; 21];
    assert!(st.result_row(&mut row).unwrap_err().to_string().contains("not over"));
    assert!(st.observation(4).unwrap_err().to_string().contains("seat"));
    while !st.is_terminal() {
        st.apply_builtin(Policy::Random).unwrap();
    }
    assert_eq!((st.current_player(), st.legal_moves(10)), (None, vec![]));
    assert_eq!(st.count_legal_moves(), 0);
    let over = st.apply_move(&Move::EndExposure).unwrap_err();
    assert!(over.to_string().contains("the deal is over"), "{over}");
    assert!(matches!(st.builtin_move(Policy::Greedy), Err(ZhipaiError::IllegalPlay { .. })));
    assert!(st.result_row(&mut [0; 20]).is_err(), "a row of the wrong length");
    st.result_row(&mut row).unwrap();
}

/// How often each legal move of `st` is sampled in `n` draws, checked against uniform (each
/// count within 5 standard deviations of `n / moves`).
fn assert_uniform(st: &DealState, n: usize) {
    let moves = st.legal_moves(usize::MAX);
    let mut counts = vec![0usize; moves.len()];
    let mut rng = deal_rng(3, 3);
    for _ in 0..n {
        let mv = st.sample_legal_move(&mut rng).unwrap();
        counts[moves.iter().position(|m| *m == mv).unwrap()] += 1;
    }
    let p = 1.0 / moves.len() as f64;
    let (mean, sd) = (n as f64 * p, (n as f64 * p * (1.0 - p)).sqrt());
    for (mv, &c) in moves.iter().zip(&counts) {
        assert!((c as f64 - mean).abs() < 5.0 * sd + 1.0, "{mv}: {c} of {n}, {counts:?}");
    }
}

#[test]
fn sampled_moves_are_uniform_over_the_legal_moves() {
    for r in [rules(&[two_decks()]), rules(&[("exposure_mode", s("closed_open"))])] {
        let mut st = r.new_deal(4, 0).unwrap();
        assert_uniform(&st, 3000); // an exposure decision
        while st.phase() != Phase::Play || st.state().tricks_played() == 0 {
            st.apply_builtin(Policy::Random).unwrap();
        }
        while st.current_player() != Some(st.state().current_trick().0) {
            st.apply_builtin(Policy::Random).unwrap();
        }
        assert!(st.count_legal_moves() > 3);
        assert_uniform(&st, 3000); // a lead (two decks: singles and pairs)
    }
}
