//! Tests of the game trait for Baohuang ([`DealState`]): rows equal to `simulate`, the four move
//! operations and the actions agree, text round-trips, and what each seat sees.

use super::actions::{self, NUM_ACTIONS, STOP};
use super::observe::HIDDEN_CHOICE;
use super::options::{Deck, ExtraCardTo, GuardCardRank, JiefengApplicant};
use super::play_cards::parse_move;
use super::state::{self, Move, Phase as BhPhase, PLAYERS};
use super::*;
use crate::cards::{Card, Rank, Suit};
use crate::deal::deal_rng;
use crate::game::{DealSetup, Game, GameRng, GameState, Phase, Value};
use crate::policy::Policy;
use crate::simulator::{DealSimulator, StartingDeal};
use std::collections::BTreeSet;

pub(super) fn option_sets() -> Vec<(&'static str, BaohuangRules)> {
    let d = BaohuangRules::default;
    vec![
        ("default", d()),
        ("tribute", BaohuangRules { tribute_between_deals: true, ..d() }),
        (
            "168, scepter last",
            BaohuangRules { deck: Deck::Rizhao168, extra_card_to: ExtraCardTo::ScepterLast, ..d() },
        ),
        (
            "guard above BJ, bombs",
            BaohuangRules { guard_card_rank: GuardCardRank::AboveBigJoker, bombs: true, ..d() },
        ),
        (
            "final passes, any 接风, mark only",
            BaohuangRules {
                pass_is_final_for_round: true,
                jiefeng_applicant: JiefengApplicant::Any,
                abdication_moves_card: false,
                scepter_counts_for_dengji: false,
                solo_loss_literal_minus40: true,
                ..d()
            },
        ),
    ]
}

/// Deal `index` of `seed` played through the trait with `policy` for every seat.
fn play_through_trait(rules: &BaohuangRules, policy: Policy, seed: u64, index: u64) -> DealState {
    let mut s = rules.new_deal(seed, index).unwrap();
    let mut steps = 0;
    while !s.is_terminal() {
        s.apply_builtin(policy).unwrap();
        steps += 1;
        assert!(steps < 100_000);
    }
    s
}

fn trait_row(s: &DealState) -> Vec<i32> {
    let mut row = vec![i32::MIN; Game::columns(&s.core().rules().clone()).len()];
    s.result_row(&mut row).unwrap();
    row
}

fn simulate_row(rules: &BaohuangRules, policy: Policy, seed: u64, index: u64) -> Vec<i32> {
    let mut row = vec![i32::MIN; DealSimulator::columns(rules).len()];
    rules.play_deal(policy, &mut deal_rng(seed, index), &mut row).unwrap();
    row
}

#[test]
fn builtin_play_through_the_trait_gives_simulate_rows() {
    for (name, rules) in option_sets() {
        for (policy, deals) in [(Policy::Random, 60), (Policy::Greedy, 12), (Policy::Basic, 12)] {
            for i in 0..deals {
                let s = play_through_trait(&rules, policy, 21, i);
                let row = trait_row(&s);
                assert_eq!(row, simulate_row(&rules, policy, 21, i), "{name} {policy:?} deal {i}");
                let returns = s.returns();
                let scores: Vec<f64> = row[17..22].iter().map(|&v| f64::from(v)).collect();
                assert_eq!(returns, scores, "{name} {policy:?} deal {i}: returns = scores");
                if !rules.solo_loss_literal_minus40 {
                    assert_eq!(returns.iter().sum::<f64>(), 0.0, "zero-sum: {name} deal {i}");
                }
            }
        }
    }
}

/// Basic deals of seed 1 that are void (黄局) first and redealt (found by scanning `simulate`
/// with the old greedy, now `basic`).
const REDEALT: [(&str, u64); 3] = [("default", 1639), ("tribute", 822), ("168", 180)];

#[test]
fn void_deals_are_redealt_as_simulate_does() {
    for (name, index) in REDEALT {
        let rules = match name {
            "default" => BaohuangRules::default(),
            "tribute" => BaohuangRules { tribute_between_deals: true, ..Default::default() },
            _ => BaohuangRules { deck: Deck::Rizhao168, ..Default::default() },
        };
        let mut s = rules.new_deal(1, index).unwrap();
        let mut seen_redeal = false;
        while !s.is_terminal() {
            let before = s.deal_number();
            s.apply_builtin(Policy::Basic).unwrap();
            if s.deal_number() > before {
                seen_redeal = true;
                // A fresh deal: nobody has moved in it yet, and the void deal is not shown.
                assert_eq!(s.phase(), Phase::Accession);
                for q in 0..PLAYERS {
                    assert!(s.history_seen_by(q).is_empty(), "{name}: seat {q}");
                    let o = s.observation(q).unwrap();
                    assert_eq!(o.get("redeals"), Some(&Value::Int(i64::from(s.deal_number()))));
                }
                assert_eq!(s.core().tribute().is_some(), rules.tribute_between_deals);
            }
        }
        assert!(seen_redeal, "{name} deal {index} has a 黄局");
        let row = trait_row(&s);
        assert!(row[8] >= 1, "{name}: redeals column");
        assert_eq!(row, simulate_row(&rules, Policy::Basic, 1, index), "{name} deal {index}");
        let deals: BTreeSet<u32> = s.history().iter().map(|e| e.deal).collect();
        assert_eq!(deals.len() as u32, s.deal_number() + 1, "every deal has moves");
        let history = s.history();
        let current = history.iter().filter(|e| e.deal == s.deal_number());
        let seen = current.filter(|e| e.seen_by(0).is_some()).count();
        assert_eq!(s.history_seen_by(0).len(), seen, "the current deal's moves only");
        assert!(seen < s.history_len());
    }
}

// ----------------------------------------------------------------------------- positions

/// Positions reached by random play under every option set (the random policy of the deal).
fn positions(seed: u64, deals: u64, every: usize) -> Vec<DealState> {
    let mut out = Vec::new();
    for (_, rules) in option_sets() {
        for i in 0..deals {
            let mut s = rules.new_deal(seed, i).unwrap();
            let mut step = 0;
            while !s.is_terminal() {
                if step % every == 0 || s.phase() != Phase::Play {
                    out.push(s.clone());
                }
                s.apply_builtin(Policy::Random).unwrap();
                step += 1;
            }
            out.push(s);
        }
    }
    out
}

/// Every legal play of the seat to act as a card multiset, by brute force over the
/// sub-multisets of its hand; `None` when the hand has more than `max` of them.
fn brute_force_plays(s: &DealState, max: u64) -> Option<BTreeSet<Vec<Card>>> {
    let seat = s.current_player()? as u8;
    let hand = *s.core().hand(seat);
    let kinds: Vec<(Card, usize)> = hand.kinds().iter().map(|c| (c, hand.count(c))).collect();
    let subsets = kinds.iter().fold(1u64, |n, &(_, k)| n.saturating_mul(k as u64 + 1));
    if subsets > max {
        return None;
    }
    let mut out = BTreeSet::new();
    for mut code in 1..subsets {
        let mut cards = Multiset::EMPTY;
        for &(c, k) in &kinds {
            for _ in 0..code % (k as u64 + 1) {
                cards.add(c);
            }
            code /= k as u64 + 1;
        }
        if s.check_move(&Move::Play(cards)).is_ok() {
            out.insert(cards.to_vec());
        }
    }
    Some(out)
}

/// The state as every public query shows it (to see that a refused move changed nothing).
fn fingerprint(s: &DealState) -> String {
    let obs: Vec<_> = (0..PLAYERS).map(|q| s.observation(q).unwrap()).collect();
    format!(
        "{obs:?} {:?} {:?} {:?} {}",
        s.legal_moves(usize::MAX),
        s.history(),
        s.pending_cards(),
        s.count_legal_moves()
    )
}

const WORD_TEXTS: [&str; 10] = [
    "pass",
    "yield",
    "jiefeng",
    "abdicate",
    "grab",
    "decline",
    "open_guard",
    "secret_guard",
    "open_solo",
    "secret_solo",
];

#[test]
fn the_four_move_operations_agree() {
    let mut rng = deal_rng(99, 0);
    let (mut complete, mut brute) = (0, 0);
    for s in positions(5, 4, 5) {
        let listed = s.legal_moves(usize::MAX);
        let count = s.count_legal_moves();
        if s.is_terminal() {
            assert!(listed.is_empty() && count == 0 && s.sample_legal_move(&mut rng).is_none());
            continue;
        }
        let distinct: BTreeSet<String> = listed.iter().map(|m| s.move_to_string(m)).collect();
        assert_eq!(distinct.len(), listed.len(), "no move listed twice");
        assert!(listed.len() as u64 <= count);
        for (k, m) in listed.iter().enumerate() {
            assert!(s.check_move(m).is_ok(), "{m} listed but illegal: {:?}", s.check_move(m));
            let text = s.move_to_string(m);
            assert_eq!(s.parse_move(&text).unwrap(), *m, "{text}");
            assert_eq!(s.parse_move(&text.to_lowercase()).unwrap(), *m, "letter case");
            // Any card order and spacing.
            let reversed: Vec<&str> = text.split_whitespace().rev().collect();
            if matches!(m, Move::Play(_)) {
                assert_eq!(s.parse_move(&format!("  {}  ", reversed.join("   "))).unwrap(), *m);
            }
            assert_eq!(s.legal_moves(k + 1), listed[..=k], "the limit keeps the order");
        }
        for _ in 0..5 {
            let m = s.sample_legal_move(&mut rng).unwrap();
            assert!(s.check_move(&m).is_ok(), "sampled {m} is illegal");
            assert!(listed.contains(&m), "a sampled move is a listed one (the 登基 card last)");
        }
        if listed.len() as u64 == count {
            complete += 1;
        }
        if s.phase() != Phase::Play {
            assert_eq!(listed.len() as u64, count, "decisions are listed in full");
            continue;
        }
        if let Some(plays) = brute_force_plays(&s, 20_000) {
            brute += 1;
            let words = listed.iter().filter(|m| !matches!(m, Move::Play(_))).count() as u64;
            assert_eq!(count, plays.len() as u64 + words, "count = every legal card multiset");
            for m in &listed {
                if let Move::Play(c) = m {
                    assert!(plays.contains(&c.to_vec()));
                }
            }
        }
    }
    assert!(complete > 50 && brute > 50, "complete lists {complete}, brute-forced {brute}");
}

#[test]
fn illegal_moves_are_refused_and_change_nothing() {
    for s in positions(6, 2, 9) {
        let Some(seat) = s.current_player() else { continue };
        let before = fingerprint(&s);
        let mut t = s.clone();
        let hand = *s.core().hand(seat as u8);
        let missing = Card::all().find(|&c| !hand.contains(c));
        let mut tries: Vec<Move<Multiset>> = Vec::new();
        if let Some(c) = missing {
            tries.push(Move::Play(Multiset::from_cards(&[c]).unwrap()));
        }
        tries.push(Move::Play(Multiset::EMPTY));
        for w in WORD_TEXTS {
            let m = parse_move(w).unwrap();
            if s.check_move(&m).is_err() {
                tries.push(m);
            }
        }
        for m in tries {
            let err = t.apply_move(&m).unwrap_err();
            assert!(matches!(err, ZhipaiError::IllegalPlay { .. }), "{m}: {err}");
            assert!(err.to_string().contains(&m.to_string()), "the error names {m}: {err}");
            assert_eq!(fingerprint(&t), before, "{m} refused, state unchanged");
        }
        if let Some(c) = missing {
            let err = t.check_move(&Move::Play(Multiset::from_cards(&[c]).unwrap())).unwrap_err();
            if s.phase() == Phase::Play {
                assert!(err.to_string().contains("does not hold"), "{err}");
            }
        }
    }
    // Once over: every move is refused with "the deal is over".
    let mut s = play_through_trait(&BaohuangRules::default(), Policy::Random, 3, 0);
    let err = s.apply_move(&Move::Pass).unwrap_err().to_string();
    assert!(err.contains("the deal is over"), "{err}");
    assert!(s.apply_builtin(Policy::Random).is_err() && s.builtin_move(Policy::Greedy).is_err());
    assert!(s.apply_action(actions::FIRST_WORD).is_err());
}

#[test]
fn move_text_errors_match_the_binding() {
    // The texts the Python tests rely on: a non-card token is an InvalidCard quoting it, words
    // in any case, `ascend` with a card.
    assert!(matches!(parse_move("hello"), Err(ZhipaiError::InvalidCard { .. })));
    assert!(matches!(parse_move("ascend ZZ"), Err(ZhipaiError::InvalidCard { .. })));
    let err = parse_move("GRAB NOW").unwrap_err().to_string();
    assert!(err.contains("GRAB"), "the token is quoted as given: {err}");
    assert_eq!(parse_move(" PASS ").unwrap(), Move::Pass);
    assert_eq!(parse_move("Ascend 9c").unwrap(), Move::Ascend("9C".parse().unwrap()));
    assert_eq!(parse_move("bj 9h 9S").unwrap(), Move::Play("9S 9H BJ".parse().unwrap()));
    for w in WORD_TEXTS {
        assert_eq!(parse_move(w).unwrap().to_string(), w);
    }
    // Illegal plays name the cards and the rule, as `BaohuangGameState.apply` did.
    let s = BaohuangRules::default().new_deal(0, 0).unwrap();
    let err = s.check_move(&parse_move("9C").unwrap()).unwrap_err().to_string();
    assert_eq!(err, "illegal play 9C: no card play in phase accession");
    let err = s.check_move(&Move::Pass).unwrap_err().to_string();
    assert_eq!(err, "illegal play pass: pass is not a choice in phase accession");
}

// ----------------------------------------------------------------------------- actions

#[test]
fn action_names_round_trip() {
    let s = BaohuangRules::default().new_deal(0, 0).unwrap();
    assert_eq!(s.num_distinct_actions(), NUM_ACTIONS);
    assert_eq!(NUM_ACTIONS, 119);
    let mut names = BTreeSet::new();
    for a in 0..NUM_ACTIONS {
        let name = s.action_to_string(a).unwrap();
        assert_eq!(s.string_to_action(&name).unwrap(), a, "{name}");
        assert_eq!(s.string_to_action(&name.to_lowercase()).unwrap(), a, "{name}");
        assert!(names.insert(name));
    }
    assert!(s.action_to_string(NUM_ACTIONS).is_err());
    assert_eq!(s.action_to_string(STOP).unwrap(), "stop");
    assert_eq!(s.action_to_string(0).unwrap(), "2S");
    assert_eq!(s.action_to_string(53).unwrap(), "BJ");
    assert_eq!(s.action_to_string(55).unwrap(), "pass");
    assert_eq!(s.action_to_string(65 + 20).unwrap(), "ascend 9H");
    assert!(s.string_to_action("bogus").is_err());
}

/// Every legal action of `s`, checked against the brute-force plays: a card iff the pending
/// cards with it are inside some legal play, `stop` iff the pending cards are one.
fn check_mask(s: &DealState, plays: &BTreeSet<Vec<Card>>) {
    let pending = s.pending_cards();
    let legal = s.legal_actions();
    let mut mask = vec![false; NUM_ACTIONS];
    s.legal_action_mask(&mut mask);
    assert!(legal.windows(2).all(|w| w[0] < w[1]), "ascending");
    let within = |cards: &Multiset| {
        plays.iter().any(|p| Multiset::from_cards(p).unwrap().contains_all(cards))
    };
    for c in Card::all() {
        let mut more = pending;
        if pending.count(c) >= 4 {
            assert!(!mask[c.index()]);
            continue;
        }
        more.add(c);
        assert_eq!(mask[c.index()], within(&more), "card {c} after [{pending}]");
    }
    let stop = !pending.is_empty() && plays.contains(&pending.to_vec());
    assert_eq!(mask[STOP], stop, "stop after [{pending}]");
}

/// Every play reachable by card actions and `stop` from the empty play (depth first).
fn reachable_plays(s: &DealState) -> BTreeSet<Vec<Card>> {
    let mut out = BTreeSet::new();
    let mut seen = BTreeSet::new();
    let mut stack = vec![s.clone()];
    while let Some(t) = stack.pop() {
        for a in t.legal_actions() {
            if a == STOP {
                let mut done = t.clone();
                done.apply_action(a).unwrap();
                out.insert(t.pending_cards().to_vec());
                assert_eq!(done.history_len(), s.history_len() + 1, "stop makes one move");
            } else if a < STOP {
                let mut next = t.clone();
                next.apply_action(a).unwrap();
                if seen.insert(next.pending_cards().to_vec()) {
                    stack.push(next);
                }
            }
        }
    }
    out
}

#[test]
fn actions_build_exactly_the_legal_moves() {
    let (mut checked, mut complete) = (0, 0);
    let mut rng = deal_rng(7, 0);
    for s in positions(8, 3, 4) {
        if s.is_terminal() {
            assert!(s.legal_actions().is_empty());
            continue;
        }
        let listed = s.legal_moves(usize::MAX);
        if s.phase() != Phase::Play {
            let mut want: Vec<usize> = listed.iter().filter_map(actions::encode).collect();
            want.sort_unstable();
            assert_eq!(s.legal_actions(), want, "decisions: one action per move");
            for (m, a) in listed.iter().zip(listed.iter().filter_map(actions::encode)) {
                let (mut x, mut y) = (s.clone(), s.clone());
                x.apply_action(a).unwrap();
                y.apply_move(m).unwrap();
                assert_eq!(fingerprint(&x), fingerprint(&y), "action {a} = {m}");
            }
            continue;
        }
        let Some(plays) = brute_force_plays(&s, 3_000) else {
            random_walk(&s, &mut rng);
            continue;
        };
        checked += 1;
        check_mask(&s, &plays);
        let reached = reachable_plays(&s);
        assert_eq!(reached, plays, "the plays reachable through actions are the legal plays");
        let words: Vec<_> = listed.iter().filter(|m| !matches!(m, Move::Play(_))).collect();
        for w in &words {
            assert!(s.legal_actions().contains(&actions::encode(w).unwrap()));
        }
        if listed.len() as u64 == s.count_legal_moves() {
            complete += 1;
            let listed_plays: BTreeSet<Vec<Card>> = listed
                .iter()
                .filter_map(|m| if let Move::Play(c) = m { Some(c.to_vec()) } else { None })
                .collect();
            assert_eq!(reached, listed_plays, "a complete list = the plays of the actions");
        }
        // A walk to a play checks the mask at every step against the brute force.
        let mut t = s.clone();
        while !plays.is_empty() {
            check_mask(&t, &plays);
            let legal: Vec<usize> = t.legal_actions().into_iter().filter(|&a| a <= STOP).collect();
            let a = legal[rand::Rng::random_range(&mut rng, 0..legal.len())];
            if !t.pending_cards().is_empty() {
                let err = t.clone().apply_move(&Move::Pass).unwrap_err().to_string();
                assert!(err.contains("being built"), "a whole move is refused meanwhile: {err}");
            }
            t.apply_action(a).unwrap();
            if a == STOP {
                break;
            }
        }
    }
    assert!(checked > 30 && complete > 10, "checked {checked}, complete {complete}");
}

/// Random legal actions from the mask always end in one whole legal move.
fn random_walk(s: &DealState, rng: &mut GameRng) {
    let mut t = s.clone();
    let mut cards = Multiset::EMPTY;
    loop {
        let legal = t.legal_actions();
        assert!(!legal.is_empty(), "a dead end after [{cards}]");
        let a = legal[rand::Rng::random_range(rng, 0..legal.len())];
        if a < STOP {
            cards.add(Card::from_index(a).unwrap());
        }
        t.apply_action(a).unwrap();
        assert_eq!(t.pending_cards(), if a < STOP { cards } else { Multiset::EMPTY });
        if a >= STOP {
            break;
        }
    }
    let last = t.history().last().cloned().unwrap();
    let mv = s.parse_move(&last.applied).unwrap();
    assert!(s.check_move(&mv).is_ok(), "the walk made a legal move: {mv}");
    if !cards.is_empty() {
        assert_eq!(mv, Move::Play(cards));
    }
}

#[test]
fn random_action_walks_from_every_position_end_in_a_legal_move() {
    let mut rng = deal_rng(17, 0);
    for s in positions(9, 2, 3) {
        if !s.is_terminal() {
            random_walk(&s, &mut rng);
        }
    }
}

// ----------------------------------------------------------------------------- information

#[test]
fn observations_show_no_other_hand_and_hide_the_secret_choices() {
    let (mut hidden_guards, mut secret_choices) = (0, 0);
    for policy in [Policy::Random, Policy::Greedy, Policy::Basic] {
        for i in 0..12 {
            let mut s = BaohuangRules::default().new_deal(4, i).unwrap();
            while !s.is_terminal() {
                let actor = s.current_player().unwrap();
                let core = s.core().clone();
                for q in 0..PLAYERS {
                    let o = s.observation(q).unwrap();
                    let keys: Vec<&str> = o.entries.iter().map(|(k, _)| *k).collect();
                    assert_eq!(keys, OBSERVATION_KEYS);
                    assert_eq!(o.get("hand"), Some(&Value::Cards(*core.hand(q as u8))));
                    for (k, v) in &o.entries {
                        if matches!(v, Value::Cards(_)) {
                            assert!(matches!(*k, "hand" | "dengji_card"), "{k} shows cards");
                        }
                    }
                    let secret = matches!(core.phase(), BhPhase::GuardChoice | BhPhase::SoloChoice)
                        && q != actor;
                    let phase = if secret { HIDDEN_CHOICE } else { s.phase().name() };
                    assert_eq!(o.get("phase"), Some(&Value::Text(phase.into())));
                    let cp = if secret { Value::None } else { Value::Int(actor as i64) };
                    assert_eq!(o.get("current_player"), Some(&cp));
                    let guard = core.guard().map(usize::from);
                    let sees_guard = guard == Some(q) || core.guard_revealed();
                    let want = if sees_guard { guard.into() } else { Value::None };
                    assert_eq!(o.get("guard"), Some(&want));
                    if core.phase() == BhPhase::Play && guard.is_some() && !core.guard_revealed() {
                        hidden_guards += (guard != Some(q)) as usize;
                    }
                }
                let mv = s.apply_builtin(policy).unwrap();
                if matches!(mv, Move::SecretGuard | Move::SecretSolo) {
                    secret_choices += 1;
                    for q in 0..PLAYERS {
                        let text = mv.to_string();
                        let seen = s.history_seen_by(q).contains(&(actor, text));
                        assert_eq!(seen, q == actor, "seat {q} and the secret {mv}");
                    }
                }
            }
        }
    }
    assert!(hidden_guards > 0 && secret_choices > 5, "{hidden_guards} {secret_choices}");
}

const OBSERVATION_KEYS: [&str; 16] = [
    "game",
    "seat",
    "phase",
    "current_player",
    "hand",
    "hand_sizes",
    "scepter",
    "emperor",
    "dengji_card",
    "guard",
    "mode",
    "play_to_beat",
    "finishing_order",
    "abdications",
    "redeals",
    "tribute",
];

#[test]
fn history_records_every_move_with_its_policy() {
    let mut s = BaohuangRules::default().new_deal(2, 1).unwrap();
    let mut made = Vec::new();
    while !s.is_terminal() {
        let seat = s.current_player().unwrap();
        let mv = if made.len() % 2 == 0 {
            (s.apply_builtin(Policy::Random).unwrap(), Some(Policy::Random))
        } else {
            let m = s.clone().builtin_move(Policy::Greedy).unwrap();
            s.apply_move(&m).unwrap();
            (m, None)
        };
        made.push((seat, mv));
    }
    assert_eq!(s.history_len(), made.len());
    for (e, (seat, (mv, policy))) in s.history().iter().zip(&made) {
        assert_eq!((e.seat, &e.applied, e.builtin, e.deal), (*seat, &mv.to_string(), *policy, 0));
        assert_eq!(s.parse_move(&e.applied).unwrap(), *mv);
    }
    // Cards played = cards dealt minus cards left.
    let played: usize = s
        .history()
        .iter()
        .filter_map(|e| parse_move(&e.applied).ok())
        .map(|m| if let Move::Play(c) = m { c.len() } else { 0 })
        .sum();
    let left: usize = (0..PLAYERS as u8).map(|p| s.core().hand(p).len()).sum();
    assert_eq!(played + left, 216);
}

#[test]
fn the_play_with_the_dengji_card_is_listed_and_reveals_the_guard() {
    let mut both = 0;
    let mut revealed = 0;
    for i in 0..40 {
        let mut s = BaohuangRules::default().new_deal(8, i).unwrap();
        while !s.is_terminal() {
            let seat = s.current_player().unwrap() as u8;
            let core = s.core();
            let d = core.dengji_card().filter(|d| !d.is_joker());
            if let (BhPhase::Play, Some(d)) = (core.phase(), d) {
                if core.hand(seat).contains(d) {
                    let listed = s.legal_moves(usize::MAX);
                    let plays: Vec<Multiset> = listed
                        .iter()
                        .filter_map(|m| if let Move::Play(c) = m { Some(*c) } else { None })
                        .collect();
                    // Each (shape, with the 登基 card or not) once.
                    let keys: Vec<_> = plays
                        .iter()
                        .map(|c| (moves::shape_of(c, None).unwrap(), c.contains(d)))
                        .collect();
                    let distinct: BTreeSet<_> = keys.iter().collect();
                    assert_eq!(distinct.len(), keys.len());
                    let with: BTreeSet<_> = keys.iter().filter(|k| k.1).map(|k| k.0).collect();
                    let without: BTreeSet<_> = keys.iter().filter(|k| !k.1).map(|k| k.0).collect();
                    if with.intersection(&without).next().is_some() {
                        both += 1;
                        if core.guard() == Some(seat) && !core.guard_revealed() {
                            let m = plays.iter().find(|c| c.contains(d)).unwrap();
                            let mut t = s.clone();
                            t.apply_move(&Move::Play(*m)).unwrap();
                            assert!(t.core().guard_revealed(), "playing {d} reveals the guard");
                            let o = t.observation((seat as usize + 1) % PLAYERS).unwrap();
                            assert_eq!(o.get("guard"), Some(&Value::Int(seat.into())));
                            revealed += 1;
                        }
                    }
                }
            }
            s.apply_builtin(Policy::Random).unwrap();
        }
    }
    assert!(both >= 10 && revealed >= 1, "both {both}, revealed {revealed}");
}

// ----------------------------------------------------------------------------- constructors

#[test]
fn new_after_opens_with_the_tribute_of_the_given_places() {
    let on = BaohuangRules { tribute_between_deals: true, ..Default::default() };
    let places = [5, 4, 1, 2, 3];
    let s = DealState::new_after(&on, 3, 5, Some(places)).unwrap();
    let core = State::new_after(&on, &mut deal_rng(3, 5), Some(places)).unwrap();
    for p in 0..PLAYERS as u8 {
        assert_eq!(s.core().hand(p), core.hand(p));
    }
    let tribute = Value::List(places.iter().map(|&p| Value::Int(p.into())).collect());
    assert_eq!(s.observation(1).unwrap().get("tribute"), Some(&tribute));
    let default = on.new_deal(3, 5).unwrap();
    let seat_order = DealState::new_after(&on, 3, 5, None).unwrap();
    assert_eq!(fingerprint(&default), fingerprint(&seat_order));
    let off = BaohuangRules::default();
    let err = DealState::new_after(&off, 3, 5, Some(places)).unwrap_err();
    assert!(err.to_string().contains("tribute_between_deals"), "{err}");
    let none = off.new_deal(3, 5).unwrap().observation(0).unwrap();
    assert_eq!(none.get("tribute"), Some(&Value::None));
}

/// A dealt deck as a [`DealSetup`] and the seat holding the scepter.
fn dealt_setup(seed: u64) -> (DealSetup, u8) {
    let d = state::deal(&BaohuangRules::default(), &mut deal_rng(seed, 0));
    (DealSetup { hands: d.hands.to_vec(), seed, ..Default::default() }, d.scepter)
}

#[test]
fn deal_from_plays_as_hand_evaluation() {
    let rules = BaohuangRules::default();
    for seed in 0..8 {
        let (setup, scepter) = dealt_setup(seed);
        let deal = crate::deal::Deal { hands: setup.hands.clone(), kitty: Multiset::EMPTY };
        let no_bj = (0..PLAYERS).find(|&q| !setup.hands[q].contains(Card::BIG_JOKER)).unwrap();
        for policy in [Policy::Random, Policy::Greedy] {
            // The dealer given (the scepter holder), and drawn among the BJ copies.
            for (dealer, seat) in [(Some(scepter as usize), scepter as usize), (None, no_bj)] {
                let setup = DealSetup { dealer, ..setup.clone() };
                let mut s = rules.deal_from(&setup).unwrap();
                for q in 0..PLAYERS as u8 {
                    assert_eq!(s.core().hand(q), &setup.hands[q as usize]);
                }
                while !s.is_terminal() {
                    s.apply_builtin(policy).unwrap();
                }
                let start = StartingDeal::new(&deal, seat).with_dealer(dealer);
                let mut want = vec![0; 22];
                rules.play_from_deal(policy, &start, &mut deal_rng(seed, 0), &mut want).unwrap();
                assert_eq!(trait_row(&s), want, "seed {seed} {policy:?} dealer {dealer:?}");
            }
        }
    }
}

#[test]
fn deal_from_refuses_what_baohuang_does_not_have() {
    let rules = BaohuangRules::default();
    let (setup, scepter) = dealt_setup(1);
    let cases: Vec<(DealSetup, &str)> = vec![
        (DealSetup { kitty: Some(Multiset::EMPTY), ..setup.clone() }, "kitty"),
        (DealSetup { level: Some(Some(Rank::FIVE)), ..setup.clone() }, "level 5"),
        (DealSetup { level: Some(None), ..setup.clone() }, "level NT"),
        (DealSetup { trump: Some(Some(Suit::Hearts)), ..setup.clone() }, "trump H"),
        (DealSetup { hands: setup.hands[..4].to_vec(), ..setup.clone() }, "hands 4 hands"),
        (DealSetup { dealer: Some(7), ..setup.clone() }, "dealer 7"),
    ];
    for (bad, needle) in cases {
        let err = rules.deal_from(&bad).unwrap_err().to_string();
        assert!(err.contains(needle), "{needle}: {err}");
    }
    let no_bj = (0..PLAYERS).find(|&q| !setup.hands[q].contains(Card::BIG_JOKER)).unwrap();
    let err = rules.deal_from(&DealSetup { dealer: Some(no_bj), ..setup.clone() }).unwrap_err();
    assert!(err.to_string().contains("must hold a BJ"), "{err}");
    let mut short = setup.clone();
    let c = short.hands[0].iter().next().unwrap();
    short.hands[0].remove(c);
    assert!(rules.deal_from(&short).unwrap_err().to_string().contains("missing"));
    assert!(rules.deal_from(&DealSetup { dealer: Some(scepter as usize), ..setup }).is_ok());
}

#[test]
fn a_void_deal_of_given_hands_ends_scored_zero() {
    // The cards of a basic deal that is void at first (seed 1, deal 1639): given as hands, the
    // deal is not redealt (the given cards would be lost) but over, as hand evaluation says.
    let rules = BaohuangRules::default();
    let first = state::deal(&rules, &mut deal_rng(1, 1639));
    let setup = DealSetup {
        hands: first.hands.to_vec(),
        dealer: Some(first.scepter as usize),
        ..Default::default()
    };
    let mut s = rules.deal_from(&setup).unwrap();
    while !s.is_terminal() {
        s.apply_builtin(Policy::Basic).unwrap();
    }
    assert!(s.core().is_void() && s.deal_number() == 0);
    assert_eq!(s.phase(), Phase::Done);
    assert_eq!(s.returns(), vec![0.0; PLAYERS]);
    let row = trait_row(&s);
    assert_eq!((row[0], row[2], row[6]), (-1, -1, 5), "emperor and mode -1, five 让位");
}

#[test]
fn returns_are_zero_until_the_end_and_positive_zero() {
    let mut s = BaohuangRules::default().new_deal(3, 3).unwrap();
    assert_eq!(s.returns(), vec![0.0; PLAYERS]);
    assert!(s.result_row(&mut [0; 22]).is_err());
    while !s.is_terminal() {
        s.apply_builtin(Policy::Random).unwrap();
    }
    assert!(s.returns().iter().all(|r| *r != 0.0 || r.is_sign_positive()));
    assert!(s.observation(PLAYERS).is_err());
}
