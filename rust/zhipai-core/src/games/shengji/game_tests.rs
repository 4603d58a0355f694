//! Tests of the Shengji family under the game contract ([`super::game::DealState`]): rows equal
//! to `simulate`'s, the four whole-move operations kept consistent, integer actions, and what
//! observations and the history reveal.

use super::game::DealState;
use super::listing::{burials, count_burials};
use super::moves::Move;
use super::state::{hand_and_kitty, Deal, NUM_ACTIONS, STOP};
use super::ShengjiRules;
use crate::cards::{Card, CardSet, NUM_KINDS};
use crate::deal::deal_rng;
use crate::error::ZhipaiError;
use crate::game::{DealSetup, Game, GameRng, GameState, Phase, Value};
use crate::multiset::Multiset;
use crate::options::OptionValue;
use crate::policy::Policy;
use crate::simulator::DealSimulator;
use crate::tricks::check_lead;
use crate::tricks::order::{NUM_EFFECTIVE_SUITS, TRUMP};
use rand::seq::{IndexedRandom, SliceRandom};
use rand::{Rng, SeedableRng};
use std::collections::{BTreeSet, HashSet};

fn rules(preset: &str, opts: &[(&str, OptionValue)]) -> ShengjiRules {
    let o: Vec<(String, OptionValue)> =
        opts.iter().map(|(k, v)| (k.to_string(), v.clone())).collect();
    ShengjiRules::from_preset(preset, &o).unwrap()
}

fn int(v: i64) -> OptionValue {
    OptionValue::Int(v)
}

fn text(v: &str) -> OptionValue {
    OptionValue::Str(v.to_string())
}

/// Presets and option sets that change what the trait must handle: deck counts, 炒底, burial
/// restrictions, barred trump throws, a random trump when nobody declares.
fn configs() -> Vec<ShengjiRules> {
    vec![
        rules("tractor", &[("decks", int(1))]),
        rules("tractor", &[]),
        rules("tractor", &[("decks", int(3))]),
        rules("tractor_jj", &[]),
        rules("eighty_points", &[("decks", int(1))]),
        rules("eighty_points", &[]),
        rules("eighty_points", &[("decks", int(3))]),
        rules("tractor", &[("chaodi", OptionValue::Bool(true))]),
        rules("tractor", &[("kitty_bury_restrictions", text("no_points"))]),
        rules("tractor", &[("kitty_bury_restrictions", text("no_trumps")), ("decks", int(3))]),
        rules("tractor", &[("trump_throw_allowed", OptionValue::Bool(false))]),
        rules("tractor", &[("trump_throw_allowed", OptionValue::Bool(false)), ("decks", int(3))]),
        rules("tractor", &[("no_declaration", text("random_suit")), ("decks", int(1))]),
        rules("tractor", &[("throw_fail_penalty", text("10_per_card_returned"))]),
    ]
}

/// Play deal `index` of `seed` to the end through the trait with a built-in policy; its row.
fn trait_row(r: &ShengjiRules, policy: Policy, seed: u64, index: u64) -> Vec<i32> {
    let mut s = r.new_deal(seed, index).unwrap();
    while !s.is_terminal() {
        s.apply_builtin(policy).unwrap();
    }
    let mut row = vec![0; r.result_columns().len()];
    s.result_row(&mut row).unwrap();
    row
}

#[test]
fn builtin_play_gives_the_rows_of_simulate() {
    for r in configs() {
        for (policy, deals) in [(Policy::Random, 50), (Policy::Greedy, 10)] {
            for i in 0..deals {
                let mut want = vec![0; r.result_columns().len()];
                r.play_deal(policy, &mut deal_rng(11, i), &mut want).unwrap();
                assert_eq!(trait_row(&r, policy, 11, i), want, "{r:?} {policy:?} deal {i}");
            }
        }
    }
}

#[test]
fn columns_are_those_of_simulate() {
    for r in [rules("tractor", &[]), rules("tractor_jj", &[])] {
        assert_eq!(Game::columns(&r), DealSimulator::columns(&r));
    }
}

/// Every decision of `deals` deals of `seed` under `r`, played by the random policy drawn from
/// a separate generator (`sample_legal_move`), every other move through `apply_move`.
fn positions(r: &ShengjiRules, seed: u64, deals: u64) -> Vec<DealState> {
    let mut rng = GameRng::seed_from_u64(seed);
    let mut out = Vec::new();
    for i in 0..deals {
        let mut s = r.new_deal(seed, i).unwrap();
        while !s.is_terminal() {
            out.push(s.clone());
            let mv = s.sample_legal_move(&mut rng).unwrap();
            if i % 2 == 0 {
                s.apply_move(&mv).unwrap();
            } else {
                s.apply_move_unchecked(&mv);
            }
        }
        assert_eq!(s.sample_legal_move(&mut rng), None);
        assert_eq!(s.count_legal_moves(), 0);
        assert!(s.legal_moves(10).is_empty() && s.legal_actions().is_empty());
    }
    out
}

/// A fingerprint of the whole state (deal, generator, history, bookkeeping).
fn fingerprint(s: &DealState) -> String {
    format!("{s:?}")
}

/// A card of a kind the seat to move does not hold.
fn missing_card(s: &DealState) -> Card {
    let hand = s.deal().hand(s.current_player().unwrap() as u8);
    Card::all().find(|c| !hand.contains(*c)).unwrap()
}

#[test]
fn the_four_move_operations_agree() {
    const LIMIT: usize = 300;
    let mut complete = 0;
    for (n, r) in configs().into_iter().enumerate() {
        let mut rng = GameRng::seed_from_u64(n as u64);
        for s in positions(&r, 3 + n as u64, 2) {
            let listed = s.legal_moves(LIMIT);
            let count = s.count_legal_moves();
            assert!(!listed.is_empty() && count >= listed.len() as u64);
            let distinct: BTreeSet<String> = listed.iter().map(|m| s.move_to_string(m)).collect();
            assert_eq!(distinct.len(), listed.len(), "duplicates in {listed:?}");
            // The list is complete when the count allows, except for leads with trump throws
            // barred: there the bound is on the sub-multisets of single suits (as today).
            let barred_lead = s.phase() == Phase::Play
                && s.deal().lead_format().is_none()
                && !s.deal().trick_rules().unwrap().trump_throw_allowed;
            if count as usize <= LIMIT && !barred_lead {
                assert_eq!(listed.len() as u64, count, "{:?}: {listed:?}", s.phase());
            }
            complete += (listed.len() as u64 == count) as usize;
            for mv in &listed {
                assert_eq!(s.check_move(mv), Ok(()), "listed {mv}");
            }
            for _ in 0..3 {
                let mv = s.sample_legal_move(&mut rng).unwrap();
                assert_eq!(s.check_move(&mv), Ok(()), "sampled {mv}");
                round_trip(&s, &mv, &mut rng);
                let mut t = s.clone();
                t.apply_move(&mv).unwrap();
                assert_eq!(t.history_len(), s.history_len() + 1);
            }
            round_trip(&s, listed.choose(&mut rng).unwrap(), &mut rng);
            refuses_unheld_cards(&s);
        }
    }
    assert!(complete > 1000, "{complete}");
}

/// `move_to_string` → `parse_move` gives the move back, also in another case and card order.
fn round_trip(s: &DealState, mv: &Move, rng: &mut GameRng) {
    let text = s.move_to_string(mv);
    assert_eq!(s.parse_move(&text).as_ref(), Ok(mv), "{text}");
    let mut words: Vec<&str> = text.split_whitespace().collect();
    words[1..].shuffle(rng);
    let messy = format!("  {}  ", words.join("   ").to_lowercase());
    assert_eq!(s.parse_move(&messy).as_ref(), Ok(mv), "{messy}");
}

/// A move with a card the seat does not hold is refused, the state unchanged, with the error of
/// the deal itself.
fn refuses_unheld_cards(s: &DealState) {
    let card = missing_card(s);
    let n = s.legal_moves(1).first().map_or(1, |m| match m {
        Move::Bury(c) | Move::Play(c) => c.len(),
        _ => 1,
    });
    let mut cards = Multiset::EMPTY;
    cards.add(card);
    for c in s.deal().hand(s.current_player().unwrap() as u8).iter().take(n - 1) {
        cards.add(c);
    }
    let mv = match s.phase() {
        Phase::Burying => Move::Bury(cards),
        Phase::Play => Move::Play(cards),
        _ => Move::Play(cards), // not a move of the declaring phases
    };
    let before = fingerprint(s);
    let mut t = s.clone();
    let err = t.apply_move(&mv).unwrap_err();
    assert!(matches!(err, ZhipaiError::IllegalPlay { .. }), "{err}");
    assert_eq!(fingerprint(&t), before, "state changed by a refused {mv}");
    assert_eq!(s.check_move(&mv), Err(err.clone()));
    assert_eq!(s.deal().clone().apply(mv), Err(err));
}

#[test]
fn check_move_gives_the_errors_of_apply() {
    // Whatever the move, check_move says what applying it says (on a copy of the deal).
    let mut rng = GameRng::seed_from_u64(5);
    for r in configs() {
        for s in positions(&r, 8, 1) {
            let hand = s.deal().hand(s.current_player().unwrap() as u8);
            let cards: Vec<Card> = hand.iter().collect();
            let mut pick = Multiset::EMPTY;
            for _ in 0..rng.random_range(1..4) {
                pick.add(*cards.choose(&mut rng).unwrap());
            }
            let bid = super::declare::Bid { card: *cards.choose(&mut rng).unwrap(), count: 1 };
            for mv in [Move::Pass, Move::Declare(bid), Move::Bury(pick), Move::Play(pick)] {
                let applied = s.deal().clone().apply(mv);
                assert_eq!(s.check_move(&mv), applied, "{mv} in {:?}", s.phase());
            }
        }
    }
}

#[test]
fn lead_counts_are_the_legal_sub_multisets() {
    // Late leads: brute force over every sub-multiset of the hand with check_lead as the oracle.
    let mut checked = 0;
    for r in configs() {
        for s in positions(&r, 21, 2) {
            let d = s.deal();
            let hand = d.hand(d.current_player().unwrap());
            if d.phase() != super::state::Phase::Playing
                || d.lead_format().is_some()
                || hand.len() > 12
            {
                continue;
            }
            let tr = d.trick_rules().unwrap();
            let mut legal = 0u64;
            for k in 1..=hand.len() {
                let subs =
                    crate::multiset::sub_multisets(&hand, k, usize::MAX, usize::MAX, &mut |m| {
                        check_lead(tr, m, Some(&hand)).is_ok()
                    });
                legal += subs.len() as u64;
            }
            assert_eq!(s.count_legal_moves(), legal, "hand {hand}");
            let listed = s.legal_moves(10_000);
            if listed.len() as u64 == legal {
                checked += 1;
            }
        }
    }
    assert!(checked > 100, "{checked}");
}

#[test]
fn trump_units_are_counted_with_equal_level_cards() {
    // With trump throws barred, each off-suit level pair next to the trump A is its own tractor
    // (§3.1: the off-suit level cards are equal): A A 5S 5S and A A 5D 5D both lead.
    let r = rules("tractor", &[("trump_throw_allowed", OptionValue::Bool(false))]);
    let tr =
        r.play.trick_rules_at(2, Some(crate::cards::Rank::FIVE), Some(crate::cards::Suit::Hearts));
    let hand: Multiset = "AH AH 5S 5S 5D 5D 3C".parse().unwrap();
    let trumps = hand.restrict(tr.order.suit_mask(TRUMP));
    let mut units = 0;
    for k in 1..=trumps.len() {
        units += crate::multiset::sub_multisets(&trumps, k, usize::MAX, usize::MAX, &mut |m| {
            check_lead(&tr, m, Some(&hand)).is_ok()
        })
        .len();
    }
    // Singles 3, pairs 3, tractors AA-5S5S and AA-5D5D.
    assert_eq!(units, 8);
    assert_eq!(super::listing::count_leads(&tr, &hand), 8 + 1);
}

#[test]
fn burial_lists_and_counts_agree_with_a_brute_force() {
    let mut rng = GameRng::seed_from_u64(9);
    let pack = Multiset::full_decks(3, true).unwrap().to_vec();
    for _ in 0..300 {
        let size = rng.random_range(0..14);
        let hand = Multiset::from_cards(
            &pack.choose_multiple(&mut rng, size).copied().collect::<Vec<_>>(),
        )
        .unwrap();
        let k = rng.random_range(0..=size.min(6));
        let restricted = match rng.random_range(0..3) {
            0 => None,
            1 => Some(CardSet(rng.random::<u64>() & CardSet::ALL.0)),
            _ => Some(CardSet::JOKERS),
        };
        let listed = burials(&hand, k, restricted, usize::MAX);
        // Brute force: every k-sub-multiset, with the restriction rule of §2.4.
        let spare = hand.len() - restricted.map_or(0, |m| hand.count_in(m));
        let must = k.saturating_sub(spare);
        let want = crate::multiset::sub_multisets(&hand, k, usize::MAX, usize::MAX, &mut |m| {
            restricted.is_none_or(|x| m.count_in(x) <= must)
        });
        assert_eq!(listed, want, "hand {hand} k {k}");
        assert_eq!(count_burials(&hand, k, restricted), want.len() as u64);
    }
}

/// The burial list of today's binding (`shengji_scoring.rs`): the card-by-card mask walked kind
/// by kind on copies of the deal.
fn binding_burials(
    d: &Deal,
    hand: &Multiset,
    cur: Multiset,
    min: usize,
    k: usize,
    out: &mut Vec<Multiset>,
) {
    let mask = d.legal_action_mask();
    for kind in min..NUM_KINDS {
        if out.len() >= 1000 {
            return;
        }
        let card = Card::from_index(kind).unwrap();
        let left: usize = (kind..NUM_KINDS)
            .filter_map(Card::from_index)
            .map(|c| hand.count(c) - cur.count(c))
            .sum();
        if mask & (1 << kind) == 0 || left < k - cur.len() {
            continue;
        }
        let mut next = cur;
        next.add(card);
        if next.len() == k {
            out.push(next);
        } else {
            let mut d2 = d.clone();
            if d2.apply_action(kind).is_ok() {
                binding_burials(&d2, hand, next, kind, k, out);
            }
        }
    }
}

#[test]
fn burials_are_listed_as_today() {
    for r in configs() {
        for s in positions(&r, 4, 2).iter().filter(|s| s.phase() == Phase::Burying) {
            let d = s.deal();
            let (_, k) = hand_and_kitty(r.decks);
            let mut want = Vec::new();
            binding_burials(
                d,
                &d.hand(d.current_player().unwrap()),
                Multiset::EMPTY,
                0,
                k,
                &mut want,
            );
            let got: Vec<Multiset> = s
                .legal_moves(1000)
                .into_iter()
                .map(|m| match m {
                    Move::Bury(b) => b,
                    other => panic!("{other}"),
                })
                .collect();
            assert_eq!(got, want);
        }
    }
}

// ----------------------------------------------------------------------------- actions

#[test]
fn action_names_round_trip() {
    let s = rules("tractor", &[]).new_deal(0, 0).unwrap();
    assert_eq!(s.num_distinct_actions(), NUM_ACTIONS);
    for a in 0..NUM_ACTIONS {
        let t = s.action_to_string(a).unwrap();
        assert_eq!(s.string_to_action(&t), Ok(a));
        assert_eq!(s.string_to_action(&t.to_lowercase()), Ok(a));
    }
    assert_eq!(s.action_to_string(STOP).unwrap(), "stop");
    assert_eq!(s.action_to_string(0).unwrap(), "2S");
    assert!(matches!(s.action_to_string(NUM_ACTIONS), Err(ZhipaiError::InvalidValue { .. })));
}

/// Apply random legal actions until a move completes; returns the move recorded.
fn walk_actions(s: &mut DealState, rng: &mut GameRng) -> Move {
    let n = s.history_len();
    loop {
        let legal = s.legal_actions();
        let mut mask = vec![false; NUM_ACTIONS];
        s.legal_action_mask(&mut mask);
        assert_eq!(legal, (0..NUM_ACTIONS).filter(|&a| mask[a]).collect::<Vec<_>>());
        let a = *legal.choose(rng).expect("a pending move can always be completed");
        s.apply_action(a).unwrap();
        if s.history_len() > n {
            assert!(s.pending_cards().is_empty());
            return s.parse_move(&s.history_entry(n).applied).unwrap();
        }
        assert!(!s.pending_cards().is_empty());
    }
}

#[test]
fn walking_the_mask_reaches_a_legal_move() {
    let mut rng = GameRng::seed_from_u64(2);
    for r in configs() {
        for s in positions(&r, 6, 1) {
            let mut t = s.clone();
            let mv = walk_actions(&mut t, &mut rng);
            assert_eq!(s.check_move(&mv), Ok(()), "{mv}");
            // The same as applying the whole move.
            let mut u = s.clone();
            u.apply_move(&mv).unwrap();
            assert_eq!(fingerprint(&t), fingerprint(&u));
        }
    }
}

#[test]
fn a_pending_move_blocks_whole_moves_and_bad_actions_change_nothing() {
    let mut s = rules("tractor", &[]).new_deal(1, 0).unwrap();
    while s.phase() != Phase::Play {
        s.apply_builtin(Policy::Random).unwrap();
    }
    let lead = s.legal_actions()[0];
    s.apply_action(lead).unwrap();
    let held = s.pending_cards();
    assert_eq!(held.len(), 1);
    let mv = Move::Play(held);
    assert!(matches!(s.check_move(&mv), Err(ZhipaiError::IllegalPlay { .. })));
    assert!(s.apply_move(&mv).is_err() && s.apply_builtin(Policy::Random).is_err());
    let before = fingerprint(&s);
    let bad = (0..NUM_ACTIONS).find(|a| !s.legal_actions().contains(a)).unwrap();
    assert!(matches!(s.apply_action(bad), Err(ZhipaiError::IllegalPlay { .. })));
    assert!(s.apply_action(NUM_ACTIONS + 3).is_err());
    assert_eq!(fingerprint(&s), before);
    s.apply_action(STOP).unwrap();
    assert_eq!(s.history_entry(s.history_len() - 1).applied, format!("play {held}"));
}

/// Every whole move reachable through the actions from `s` (depth first on copies).
fn reachable(s: &DealState, out: &mut BTreeSet<String>, budget: &mut usize) {
    for a in s.legal_actions() {
        if *budget == 0 {
            return;
        }
        *budget -= 1;
        let mut t = s.clone();
        t.apply_action(a).unwrap();
        if t.history_len() > s.history_len() {
            out.insert(t.history_entry(s.history_len()).applied);
        } else {
            reachable(&t, out, budget);
        }
    }
}

#[test]
fn actions_reach_exactly_the_legal_moves() {
    let mut compared = 0;
    for r in configs() {
        for s in positions(&r, 13, 2) {
            let count = s.count_legal_moves();
            if count > 400 || s.deal().hand(s.current_player().unwrap() as u8).len() > 12 {
                continue;
            }
            let listed = s.legal_moves(1000);
            if listed.len() as u64 != count {
                continue;
            }
            let mut budget = 200_000;
            let mut got = BTreeSet::new();
            reachable(&s, &mut got, &mut budget);
            assert!(budget > 0, "too large a position");
            let want: BTreeSet<String> = listed.iter().map(|m| s.move_to_string(m)).collect();
            assert_eq!(got, want, "{:?}", s.phase());
            compared += 1;
        }
    }
    assert!(compared > 200, "{compared}");
}

// ----------------------------------------------------------------------------- information

const KEYS: [&str; 14] = [
    "game",
    "seat",
    "phase",
    "current_player",
    "level",
    "dealer",
    "trump",
    "declaration",
    "hand",
    "kitty",
    "hand_sizes",
    "current_trick",
    "points_won",
    "tricks",
];

/// Every card set named in `v`.
fn cards_in(v: &Value, out: &mut Multiset) {
    match v {
        Value::Cards(m) => {
            for c in m.iter() {
                out.add(c)
            }
        }
        Value::Tuple(items) | Value::List(items) => items.iter().for_each(|x| cards_in(x, out)),
        _ => {}
    }
}

#[test]
fn observations_show_no_other_hand_and_the_history_hides_what_it_must() {
    // One deck: every card is unique, so a card of another hand is a leak unless it was shown
    // on purpose (a declaration, a failed throw).
    for policy in [Policy::Random, Policy::Greedy] {
        for seed in 0..6 {
            let r = rules("tractor", &[("decks", int(1))]);
            let mut s = r.new_deal(seed, 0).unwrap();
            while !s.is_terminal() {
                let seat = s.current_player().unwrap();
                for q in 0..4 {
                    let o = s.observation(q).unwrap();
                    let keys: Vec<&str> = o.entries.iter().map(|(k, _)| *k).collect();
                    assert_eq!(keys, KEYS);
                    let mut seen = Multiset::EMPTY;
                    for (k, v) in &o.entries {
                        if *k != "hand" && *k != "declaration" {
                            cards_in(v, &mut seen);
                        }
                    }
                    for p in (0..4).filter(|&p| p != q) {
                        let other = s.deal().hand(p as u8);
                        assert!(
                            seen.iter().all(|c| !other.contains(c)),
                            "seat {q} sees {p}'s cards: {o:?}"
                        );
                    }
                    let private = matches!(s.phase(), Phase::Dealing | Phase::Chaodi);
                    let asked = if private && q != seat { None } else { Some(seat) };
                    assert_eq!(o.get("current_player"), Some(&Value::from(asked)));
                    assert_eq!(o.get("phase"), Some(&Value::from(s.phase().name())));
                }
                s.apply_builtin(policy).unwrap();
            }
            assert_eq!(s.observation(0).unwrap().get("current_player"), Some(&Value::None));
            check_history(&s);
        }
    }
}

/// Passes are secret, a burial reads `bury` to the others, plays are public.
fn check_history(s: &DealState) {
    let dealer = s.deal().dealer().unwrap() as usize;
    for q in 0..4 {
        let seen = s.history_seen_by(q);
        assert!(seen.iter().all(|(p, m)| m != "pass" || *p == q));
        // Each burial (one, or more after 炒底 overcalls) shows its cards to its burier only.
        let mut burials = 0;
        for e in s.history().iter().filter(|e| e.applied.starts_with("bury")) {
            let view = e.seen_by(q).unwrap();
            assert_eq!(view == e.applied, q == e.seat, "{view}");
            assert!(view == e.applied || view == "bury");
            burials += 1;
        }
        assert_eq!(seen.iter().filter(|(_, m)| m.starts_with("bury")).count(), burials);
        assert!(seen.iter().any(|(p, m)| *p == dealer && m.starts_with("bury")));
        let plays = seen.iter().filter(|(_, m)| m.starts_with("play")).count();
        assert_eq!(plays, s.history().iter().filter(|e| e.applied.starts_with("play")).count());
    }
    assert!(s.history().iter().all(|e| e.builtin.is_some() && e.deal == 0));
}

#[test]
fn failed_throws_read_as_at_the_table_and_points_add_up() {
    // Find failed throws in random 2-deck deals: the history shows the forced part and the
    // attempt to everyone; the applied text is the attempt.
    let r = rules("tractor", &[]);
    let mut found = 0;
    for i in 0..40 {
        let mut s = r.new_deal(3, i).unwrap();
        while !s.is_terminal() {
            s.apply_builtin(Policy::Random).unwrap();
        }
        for e in s.history() {
            if let Some(v) = e.public_view.as_deref().filter(|v| v.contains("failed throw")) {
                let attempt = e.applied.strip_prefix("play ").unwrap();
                assert!(
                    v.starts_with("play ") && v.ends_with(&format!("(failed throw {attempt})"))
                );
                assert_eq!(e.mover_view, v);
                found += 1;
            }
        }
        points_won_add_up_per_team(&s);
    }
    assert!(found > 0);
}

/// The observation's `points_won` per seat add up to the deal's points of each team (§7.1).
fn points_won_add_up_per_team(s: &DealState) {
    let o = s.observation(0).unwrap();
    let Some(Value::List(won)) = o.get("points_won") else { panic!("{o:?}") };
    let won: Vec<i64> = won.iter().map(|v| if let Value::Int(n) = v { *n } else { -1 }).collect();
    let res = s.deal().result().unwrap();
    let d = res.dealer as usize;
    assert_eq!((won[d] + won[(d + 2) % 4]) as i32, res.dealer_team_points, "{won:?}");
    assert_eq!((won[(d + 1) % 4] + won[(d + 3) % 4]) as i32, res.trick_points, "{won:?}");
    assert_eq!(o.get("tricks"), Some(&Value::Int(res.tricks as i64)));
}

#[test]
fn the_kitty_is_seen_by_its_burier_only() {
    let r = rules("tractor", &[]);
    let mut s = r.new_deal(5, 0).unwrap();
    while s.phase() != Phase::Play {
        s.apply_builtin(Policy::Greedy).unwrap();
    }
    let dealer = s.deal().dealer().unwrap() as usize;
    for q in 0..4 {
        let kitty = s.observation(q).unwrap().get("kitty").cloned().unwrap();
        assert_eq!(matches!(kitty, Value::Cards(m) if m.len() == 8), q == dealer);
    }
}

#[test]
fn chaodi_offers_are_private_and_the_kitty_follows_its_burier() {
    // With 炒底 a seat is offered only when it holds a stronger declaration: private, as while
    // dealing; after an overcall the new burier alone sees the kitty.
    let r = rules("tractor", &[("chaodi", OptionValue::Bool(true))]);
    let (mut offers, mut overcalls) = (0, 0);
    for i in 0..120 {
        let policy = if i % 2 == 0 { Policy::Random } else { Policy::Greedy };
        let mut s = r.new_deal(6, i).unwrap();
        while !s.is_terminal() {
            let seat = s.current_player().unwrap();
            let chaodi = s.phase() == Phase::Chaodi;
            if chaodi {
                offers += 1;
                for q in 0..4 {
                    let asked = s.observation(q).unwrap().get("current_player").cloned();
                    assert_eq!(asked, Some(Value::from((q == seat).then_some(seat))));
                }
            }
            let mv = s.apply_builtin(policy).unwrap();
            overcalls += (chaodi && matches!(mv, Move::Declare(_))) as usize;
            if s.phase() == Phase::Play {
                let owner = s.deal().kitty_owner().unwrap() as usize;
                for q in 0..4 {
                    let kitty = s.observation(q).unwrap().get("kitty").cloned().unwrap();
                    assert_eq!(kitty != Value::None, q == owner, "seat {q}, owner {owner}");
                }
            }
        }
        check_history(&s);
    }
    assert!(offers > 5 && overcalls > 0, "{offers} {overcalls}");
}

#[test]
fn returns_are_levels_and_zero_sum() {
    let r = rules("tractor", &[]);
    for i in 0..20 {
        let mut s = r.new_deal(2, i).unwrap();
        assert_eq!(s.returns(), vec![0.0; 4]);
        while !s.is_terminal() {
            s.apply_builtin(Policy::Random).unwrap();
        }
        let ret = s.returns();
        assert_eq!(ret.iter().sum::<f64>(), 0.0);
        assert!(ret.iter().all(|v| v.is_sign_positive() || *v < 0.0), "no -0.0: {ret:?}");
        let levels = s.deal().result().unwrap().change.levels as f64;
        assert!(ret.iter().all(|v| v.abs() == levels));
        assert!(matches!(s.builtin_move(Policy::Random), Err(ZhipaiError::IllegalPlay { .. })));
    }
}

// ----------------------------------------------------------------------------- text and setup

#[test]
fn move_text_errors_name_the_text() {
    let s = rules("tractor", &[]).new_deal(0, 0).unwrap();
    let e = s.parse_move("hello\0").unwrap_err().to_string();
    assert!(e.starts_with("invalid move 'hello\\0'"), "{e}");
    let huge = format!("hop {}", "2S ".repeat(100));
    let e = s.parse_move(&huge).unwrap_err().to_string();
    assert!(e.contains("…' (304 characters)"), "{e}");
    assert!(matches!(s.parse_move("pass 2S"), Err(ZhipaiError::InvalidValue { .. })));
    assert!(matches!(s.parse_move("play 2X"), Err(ZhipaiError::InvalidCard { .. })));
    assert!(matches!(s.parse_move("declare 2S 2H"), Err(ZhipaiError::IllegalPlay { .. })));
    assert_eq!(s.parse_move("PASS"), Ok(Move::Pass));
    assert_eq!(s.parse_move("declare 2h\t2H").unwrap().to_string(), "declare 2H 2H");
}

#[test]
fn deal_from_a_setup() {
    let r = rules("tractor", &[]);
    let deal = crate::deal::deal(&r.deal_shape().unwrap(), &mut deal_rng(1, 2));
    let setup = DealSetup {
        hands: deal.hands.clone(),
        kitty: Some(deal.kitty),
        level: Some(Some(crate::cards::Rank::FIVE)),
        trump: Some(Some(crate::cards::Suit::Hearts)),
        dealer: Some(2),
        seed: 7,
        ..Default::default()
    };
    let s = r.deal_from(&setup).unwrap();
    assert_eq!((s.phase(), s.current_player()), (Phase::Burying, Some(2)));
    let o = s.observation(2).unwrap();
    assert_eq!(o.get("trump"), Some(&Value::from("H")));
    assert_eq!(o.get("level"), Some(&Value::from("5")));
    assert_eq!(s.deal().hand(2).len(), 33);
    let mut s = s;
    while !s.is_terminal() {
        s.apply_builtin(Policy::Greedy).unwrap();
    }
    let mut row = vec![0; r.result_columns().len()];
    s.result_row(&mut row).unwrap();
    assert_eq!(row[2], 3, "the level column is the rank index of 5");
    // Without the trump the hands come in card by card with declarations.
    let s = r.deal_from(&DealSetup { trump: None, dealer: None, ..setup.clone() }).unwrap();
    assert_eq!(s.phase(), Phase::Dealing);
    for (bad, what) in [
        (DealSetup { kitty: None, ..setup.clone() }, "kitty"),
        (DealSetup { hands: deal.hands[..3].to_vec(), ..setup.clone() }, "hands"),
        (DealSetup { dealer: Some(4), ..setup.clone() }, "dealer"),
    ] {
        let e = r.deal_from(&bad).unwrap_err();
        assert!(e.to_string().contains(what), "{e}");
    }
    let mut short = setup.clone();
    short.hands[0] = Multiset::EMPTY;
    assert!(r.deal_from(&short).is_err());
    let unfinished = r.deal_from(&setup).unwrap();
    assert!(matches!(unfinished.result_row(&mut row), Err(ZhipaiError::InvalidValue { .. })));
}

#[test]
fn sample_legal_move_leaves_the_deal_generator_alone() {
    let r = rules("tractor", &[]);
    let mut a = r.new_deal(4, 4).unwrap();
    let mut b = a.clone();
    let mut rng = GameRng::seed_from_u64(1);
    for _ in 0..40 {
        let _ = a.sample_legal_move(&mut rng);
        assert_eq!(a.apply_builtin(Policy::Random), b.apply_builtin(Policy::Random));
    }
}

#[test]
fn sampled_bids_and_follows_cover_the_legal_moves() {
    // The random policy's distribution: every legal bid and follow comes up (uniform there).
    let r = rules("tractor", &[]);
    let mut rng = GameRng::seed_from_u64(3);
    let mut checked = 0;
    for s in positions(&r, 31, 1) {
        let count = s.count_legal_moves();
        let follow = s.deal().lead_format().is_some();
        if !(follow || matches!(s.phase(), Phase::Dealing)) || !(2..=6).contains(&count) {
            continue;
        }
        let want: BTreeSet<String> = s.legal_moves(100).iter().map(|m| m.to_string()).collect();
        let got: BTreeSet<String> =
            (0..200).map(|_| s.sample_legal_move(&mut rng).unwrap().to_string()).collect();
        assert_eq!(got, want);
        checked += 1;
    }
    assert!(checked > 5, "{checked}");
}

#[test]
fn every_effective_suit_is_counted() {
    // Sanity: the lead count sums the suits (here a hand of singles: 2^n - 1 per suit).
    let r = rules("tractor", &[]);
    let tr =
        r.play.trick_rules_at(2, Some(crate::cards::Rank::TWO), Some(crate::cards::Suit::Spades));
    let hand: Multiset = "3H 4H 5H 3D 3C AS".parse().unwrap();
    let per_suit: Vec<usize> =
        (0..NUM_EFFECTIVE_SUITS).map(|s| hand.count_in(tr.order.suit_mask(s))).collect();
    let want: u64 = per_suit.iter().map(|&n| (1u64 << n) - 1).sum();
    assert_eq!(super::listing::count_leads(&tr, &hand), want);
}

/// Every lead reachable by walking `lead_mask` card by card from `building`.
fn mask_leads(
    tr: &crate::tricks::TrickRules,
    hand: &Multiset,
    building: Multiset,
    out: &mut HashSet<Multiset>,
) {
    let mask = crate::tricks::building::lead_mask(tr, hand, &building);
    if mask & (1 << STOP) != 0 {
        out.insert(building);
    }
    for a in (0..NUM_KINDS).filter(|a| mask & (1 << a) != 0) {
        let mut next = building;
        next.add(Card::from_index(a).unwrap());
        mask_leads(tr, hand, next, out);
    }
}

#[test]
fn the_lead_mask_reaches_exactly_the_legal_leads() {
    // Trump-rich hands with pairs (random level and trump, 2–3 decks, trump throws barred or
    // not): the leads the mask reaches are the sub-multisets check_lead accepts. Barred trump
    // throws leave only single units, among them a run through any of the equal off-suit level
    // cards (§3.1), e.g. AH AH 5D 5D at level 5 with hearts trump.
    let mut rng = GameRng::seed_from_u64(17);
    for case in 0..300 {
        let decks = rng.random_range(2..=3u8);
        let level = crate::cards::Rank::from_index(rng.random_range(0..13)).unwrap();
        let trump = (rng.random_range(0..5) < 4)
            .then(|| crate::cards::Suit::from_index(rng.random_range(0..4)));
        let barred = case % 3 != 0;
        let r = rules(
            "tractor",
            &[("decks", int(decks as i64)), ("trump_throw_allowed", OptionValue::Bool(!barred))],
        );
        let tr = r.play.trick_rules_at(decks, Some(level), trump);
        // Mostly the top of the trump order, where the equal level cards are.
        let top = tr.order.len(TRUMP).saturating_sub(6);
        let trumps: Vec<Card> = tr
            .order
            .suit_mask(TRUMP)
            .iter()
            .filter(|&c| tr.order.index(c) >= top || rng.random_range(0..4) == 0)
            .collect();
        let mut hand = Multiset::EMPTY;
        while hand.len() < 7 {
            let c = *trumps.choose(&mut rng).unwrap();
            for _ in 0..rng.random_range(1..=decks) {
                if hand.count(c) < decks as usize {
                    hand.add(c);
                }
            }
        }
        let mut got = HashSet::new();
        mask_leads(&tr, &hand, Multiset::EMPTY, &mut got);
        let mut want = HashSet::new();
        for k in 1..=hand.len() {
            for m in crate::multiset::sub_multisets(&hand, k, usize::MAX, usize::MAX, &mut |m| {
                check_lead(&tr, m, Some(&hand)).is_ok()
            }) {
                want.insert(m);
            }
        }
        assert_eq!(got, want, "hand {hand}, level {level}, trump {trump:?}, barred {barred}");
        assert_eq!(super::listing::count_leads(&tr, &hand), want.len() as u64, "hand {hand}");
    }
}
