//! Hong Wu under the game contract: the trait's deals against `simulate`, the four whole-move
//! operations against each other, the integer actions against the whole moves, and what each
//! seat sees.

use super::actions::NUM_ACTIONS;
use super::game::DealState;
use super::policy::choose;
use super::state::{Action, HongWuState};
use super::HongWuRules;
use crate::deal::deal_rng;
use crate::deal::Deal;
use crate::game::{DealSetup, Game, GameState, Phase, Value};
use crate::multiset::Multiset;
use crate::options::OptionValue;
use crate::policy::Policy;
use crate::simulator::{DealSimulator, StartingDeal};
use crate::tricks::lead_candidates::all_leads;
use rand::seq::IndexedRandom;
use std::collections::HashSet;

/// Rules with `opts` set over the defaults.
fn rules(opts: &[(&str, &str)]) -> HongWuRules {
    let mut r = HongWuRules::default();
    for (name, value) in opts {
        r.options.set(name, &OptionValue::Text(value.to_string())).unwrap();
    }
    r
}

/// The default rules and four option sets that change the auction, the order, the throws, the
/// follows, the kitty and the settlement.
pub(super) fn option_sets() -> Vec<HongWuRules> {
    vec![
        HongWuRules::default(),
        rules(&[("first_bid_range", "60-200"), ("direction", "clockwise")]),
        rules(&[
            ("other_threes", "trump_below_fu_canmou"),
            ("tractor_above_A", "jokers_only"),
            ("throw_check", "literal"),
        ]),
        rules(&[
            ("failed_throw_play", "lowest_beatable_component"),
            ("throw_compare", "highest_component"),
            ("follow_shape_obligation", "suit_only"),
        ]),
        rules(&[
            ("kitty", "ignored"),
            ("dealer_points", "own_tricks"),
            ("red5_penalty_per_card", "20"),
            ("red5_penalty_scope", "any_red5_won_by_xianjia"),
            ("base_score_k", "3"),
        ]),
    ]
}

fn columns(r: &HongWuRules) -> usize {
    Game::columns(r).len()
}

/// Play `s` to its end with `policy` through the trait; its result row.
fn finish(r: &HongWuRules, s: &mut DealState, policy: Policy) -> Vec<i32> {
    while !s.is_terminal() {
        s.apply_builtin(policy).unwrap();
    }
    let mut row = vec![0; columns(r)];
    s.result_row(&mut row).unwrap();
    row
}

/// Every decision of deal `index` of `seed` played with `policy`: the states before each move.
fn positions(r: &HongWuRules, policy: Policy, seed: u64, index: u64) -> Vec<DealState> {
    let mut s = r.new_deal(seed, index).unwrap();
    let mut out = Vec::new();
    while !s.is_terminal() {
        out.push(s.clone());
        s.apply_builtin(policy).unwrap();
    }
    out
}

#[test]
fn trait_deals_give_the_rows_of_simulate() {
    let col =
        |r: &HongWuRules, name: &str| Game::columns(r).iter().position(|c| c.name == name).unwrap();
    for (k, r) in option_sets().iter().enumerate() {
        let seed = 40 + k as u64;
        for (policy, n) in [(Policy::Random, 50), (Policy::Greedy, 10)] {
            for i in 0..n {
                let mut s = r.new_deal(seed, i).unwrap();
                assert_eq!(s.returns(), vec![0.0; 4]);
                let row = finish(r, &mut s, policy);
                let mut want = vec![i32::MIN; columns(r)];
                r.play_deal(policy, &mut deal_rng(seed, i), &mut want).unwrap();
                assert_eq!(row, want, "option set {k}, {policy:?} deal {i}");
                // Returns: the settlement per seat, zero-sum.
                let ret = s.returns();
                let dealer = row[col(r, "dealer")] as usize;
                assert_eq!(ret[dealer], row[col(r, "dealer_result")] as f64);
                for (seat, v) in ret.iter().enumerate().filter(|(p, _)| *p != dealer) {
                    assert_eq!(*v, row[col(r, "each_other_result")] as f64, "seat {seat}");
                }
                assert_eq!(ret.iter().sum::<f64>(), 0.0);
                assert!(s.history().iter().all(|e| e.builtin == Some(policy)));
                assert!(s.legal_moves(1000).is_empty() && s.count_legal_moves() == 0);
                assert!(s.legal_actions().is_empty() && s.current_player().is_none());
                assert!(s.builtin_move(policy).is_err());
            }
        }
    }
}

#[test]
fn deal_from_plays_as_evaluation_does() {
    let r = HongWuRules::default();
    for i in 0..6 {
        let dealt = HongWuState::deal(&r, &mut deal_rng(3, i));
        let deal = Deal { hands: (0..4).map(|p| dealt.hand(p)).collect(), kitty: dealt.kitty() };
        for dealer in [None, Some(i as usize % 4)] {
            let setup = DealSetup {
                hands: deal.hands.clone(),
                kitty: Some(deal.kitty),
                dealer,
                seed: 77 + i,
                ..DealSetup::default()
            };
            let mut s = r.deal_from(&setup).unwrap();
            if let Some(d) = dealer {
                assert_eq!(s.current_player(), Some(d), "the given seat opens the auction");
            }
            let policy = if i % 2 == 0 { Policy::Random } else { Policy::Greedy };
            let row = finish(&r, &mut s, policy);
            let mut want = vec![0; columns(&r)];
            let start = StartingDeal::new(&deal, 0).with_dealer(dealer);
            r.play_from_deal(policy, &start, &mut deal_rng(77 + i, 0), &mut want).unwrap();
            assert_eq!(row, want, "deal {i}, dealer {dealer:?}");
        }
    }
}

#[test]
fn deal_from_refuses_what_hong_wu_cannot_honour() {
    let r = HongWuRules::default();
    let dealt = HongWuState::deal(&r, &mut deal_rng(3, 0));
    let ok = DealSetup {
        hands: (0..4).map(|p| dealt.hand(p)).collect(),
        kitty: Some(dealt.kitty()),
        ..DealSetup::default()
    };
    assert!(r.deal_from(&ok).is_ok());
    let err = |setup: DealSetup| r.deal_from(&setup).unwrap_err().to_string();
    let e = err(DealSetup { level: Some(Some(crate::cards::Rank::TWO)), ..ok.clone() });
    assert!(e.starts_with("invalid level 2: Hong Wu has no level"), "{e}");
    let e = err(DealSetup { trump: Some(Some(crate::cards::Suit::Spades)), ..ok.clone() });
    assert!(e.starts_with("invalid trump S:") && e.contains("after the auction"), "{e}");
    let e = err(DealSetup { trump: Some(None), ..ok.clone() });
    assert!(e.starts_with("invalid trump NT:"), "{e}");
    let e = err(DealSetup { hands: ok.hands[..3].to_vec(), ..ok.clone() });
    assert!(e.contains("(3 hands)"), "{e}");
    let e = err(DealSetup { kitty: None, ..ok.clone() });
    assert!(e.starts_with("invalid kitty None"), "{e}");
    let e = err(DealSetup { dealer: Some(4), ..ok.clone() });
    assert!(e.starts_with("invalid dealer 4"), "{e}");
    let mut short = ok.clone();
    short.hands[1] = Multiset::EMPTY;
    assert!(err(short).contains("hand of seat 1"));
}

/// Moves listed up to this many are compared with the count and the action walks.
const LIMIT: usize = 5000;

/// Whether `legal_moves(limit)` lists every legal move at `s`: the count fits, and a lead list
/// is not the candidates' (all_leads gives up on an over-estimate of the subsets).
fn complete(s: &DealState, limit: usize) -> bool {
    let c = s.core();
    let listing_candidates = c.phase() == super::state::Phase::Play
        && c.lead_format().is_none()
        && all_leads(c.trick_rules().unwrap(), &c.hand(c.to_act().unwrap()), limit).is_none();
    s.count_legal_moves() <= limit as u64 && !listing_candidates
}

/// Some positions of random and greedy deals under every option set.
fn sample_positions() -> Vec<DealState> {
    let mut out = Vec::new();
    for (k, r) in option_sets().iter().enumerate() {
        for i in 0..2 {
            let policy = if i == 0 { Policy::Random } else { Policy::Greedy };
            out.extend(positions(r, policy, 90 + k as u64, i));
        }
    }
    out
}

#[test]
fn the_four_move_operations_agree() {
    let mut rng = deal_rng(5, 5);
    let mut complete_lists = 0;
    for s in sample_positions() {
        let listed = s.legal_moves(1000);
        let count = s.count_legal_moves();
        assert!(!listed.is_empty() && listed.len() <= 1000);
        assert_eq!(listed.iter().collect::<HashSet<_>>().len(), listed.len(), "no duplicates");
        for mv in listed.iter().take(300) {
            assert!(s.check_move(mv).is_ok(), "{mv:?}: {:?}", s.check_move(mv));
            assert_eq!(s.parse_move(&s.move_to_string(mv)).unwrap(), *mv);
        }
        if complete(&s, LIMIT) {
            let all = s.legal_moves(LIMIT);
            assert_eq!(all.len() as u64, count, "{:?}", s.core().phase());
            if complete(&s, 1000) {
                assert_eq!(all, listed);
            }
            complete_lists += 1;
        } else {
            assert!(listed.len() as u64 <= count);
        }
        for _ in 0..3 {
            let mv = s.sample_legal_move(&mut rng).unwrap();
            assert!(s.check_move(&mv).is_ok(), "sampled {mv:?}");
            assert_eq!(s.parse_move(&s.move_to_string(&mv)).unwrap(), mv);
        }
        assert!(s.limit_respected());
        refuses_unheld_cards(&s);
    }
    assert!(complete_lists > 300, "{complete_lists}");
}

impl DealState {
    /// `legal_moves(n)` holds at most `n` moves.
    fn limit_respected(&self) -> bool {
        [0, 1, 3].iter().all(|&n| self.legal_moves(n).len() <= n)
    }
}

/// A move of cards the seat does not hold (or of the wrong kind) is refused, the state unchanged.
fn refuses_unheld_cards(s: &DealState) {
    let seat = s.current_player().unwrap();
    let hand = s.core().hand(seat);
    let missing = crate::cards::Card::all().find(|&c| hand.count(c) == 0).unwrap();
    let mut m = Multiset::EMPTY;
    m.add(missing);
    let bad = match s.phase() {
        Phase::Kitty => {
            let mut b = Multiset::from_cards(&hand.iter().take(7).collect::<Vec<_>>()).unwrap();
            b.add(missing);
            Action::Bury(b)
        }
        Phase::Auction => Action::Bid(super::auction::Bid::Points(67)),
        Phase::Trump => Action::Play(m),
        _ => Action::Play(m),
    };
    let mut t = s.clone();
    let before = format!("{t:?}");
    let e = t.apply_move(&bad).unwrap_err();
    assert!(matches!(e, crate::ZhipaiError::IllegalPlay { .. }), "{e}");
    assert!(s.check_move(&bad).is_err());
    assert_eq!(format!("{t:?}"), before, "a refused move changes nothing");
}

#[test]
fn sampling_is_the_random_policy_with_the_callers_generator() {
    for s in positions(&HongWuRules::default(), Policy::Random, 8, 0).iter().step_by(7) {
        let mut a = deal_rng(1, 2);
        let mut b = a.clone();
        assert_eq!(s.sample_legal_move(&mut a), Some(choose(s.core(), Policy::Random, &mut b)));
        assert_eq!(a, b, "the same draws");
    }
}

/// Every whole move reachable from `s` through actions (the cards built as a set: the order in
/// which cards are added does not matter).
fn reachable(s: &DealState) -> HashSet<Action> {
    let n = s.history_len();
    let (mut out, mut seen) = (HashSet::new(), HashSet::new());
    let mut stack = vec![s.clone()];
    while let Some(t) = stack.pop() {
        let actions = t.legal_actions();
        assert!(!actions.is_empty(), "a built move can always be continued");
        for a in actions {
            let mut u = t.clone();
            u.apply_action(a).unwrap();
            if u.history_len() > n {
                assert!(u.pending_cards().is_empty());
                out.insert(u.parse_move(&u.history_entry(n).applied).unwrap());
            } else if seen.insert(u.pending_cards()) {
                stack.push(u);
            }
        }
    }
    out
}

#[test]
fn actions_reach_exactly_the_legal_moves() {
    let mut compared = 0;
    for s in sample_positions() {
        let mut mask = vec![true; NUM_ACTIONS];
        s.legal_action_mask(&mut mask);
        let legal = s.legal_actions();
        assert!(legal.windows(2).all(|w| w[0] < w[1]), "ascending");
        assert_eq!(legal, (0..NUM_ACTIONS).filter(|&a| mask[a]).collect::<Vec<_>>());
        if s.count_legal_moves() <= 300 && complete(&s, LIMIT) {
            let want: HashSet<Action> = s.legal_moves(LIMIT).into_iter().collect();
            assert_eq!(reachable(&s), want, "{:?}", s.core().phase());
            compared += 1;
        }
    }
    assert!(compared > 200, "{compared}");
}

#[test]
fn random_action_walks_end_in_legal_moves() {
    let mut rng = deal_rng(6, 6);
    for (k, r) in option_sets().iter().enumerate() {
        let mut s = r.new_deal(60 + k as u64, 0).unwrap();
        let mut moves = 0;
        while !s.is_terminal() {
            let n = s.history_len();
            let before = s.clone();
            while s.history_len() == n {
                let a = *s.legal_actions().choose(&mut rng).expect("an action while not over");
                s.apply_action(a).unwrap();
            }
            let mv = s.parse_move(&s.history_entry(n).applied).unwrap();
            assert!(before.check_move(&mv).is_ok(), "{mv:?}");
            moves += 1;
        }
        assert!(moves > 25, "a whole deal: {moves} moves");
        let mut row = vec![0; columns(r)];
        s.result_row(&mut row).unwrap();
    }
}

#[test]
fn action_names_round_trip_and_refusals_change_nothing() {
    let mut s = HongWuRules::default().new_deal(2, 0).unwrap();
    assert_eq!(s.num_distinct_actions(), NUM_ACTIONS);
    for a in 0..NUM_ACTIONS {
        let name = s.action_to_string(a).unwrap();
        assert_eq!(s.string_to_action(&name).unwrap(), a, "{name}");
        assert_eq!(s.string_to_action(&name.to_lowercase()).unwrap(), a, "{name}");
    }
    assert!(s.action_to_string(NUM_ACTIONS).is_err());
    assert!(s.string_to_action("bid 67").is_err());
    // In the auction: a card, stop or a trump is refused, nothing changes.
    for a in [0, 54, 85, NUM_ACTIONS] {
        let before = format!("{s:?}");
        assert!(s.apply_action(a).is_err(), "{a}");
        assert_eq!(format!("{s:?}"), before);
    }
    let e = s.apply_action(85).unwrap_err().to_string();
    assert!(e.contains("action 85 (trump S)") && e.contains("auction phase"), "{e}");
    // To the burial: a card starts it, and whole moves are refused until it is done.
    while s.phase() != Phase::Kitty {
        s.apply_builtin(Policy::Greedy).unwrap();
    }
    let first = s.legal_actions()[0];
    s.apply_action(first).unwrap();
    assert_eq!(s.pending_cards().len(), 1);
    let bury = s.legal_moves(1)[0];
    let e = s.apply_move(&bury).unwrap_err().to_string();
    assert!(e.contains("being built"), "{e}");
    assert!(s.builtin_move(Policy::Random).is_err() && s.apply_builtin(Policy::Random).is_err());
    for _ in 1..8 {
        let a = s.legal_actions()[0];
        s.apply_action(a).unwrap();
    }
    assert!(s.pending_cards().is_empty() && s.phase() == Phase::Play, "8 cards bury");
    assert_eq!(s.core().kitty().len(), 8);
}

#[test]
fn observations_show_only_what_the_seat_may_see() {
    let keys = [
        "game",
        "seat",
        "phase",
        "current_player",
        "contract",
        "trump",
        "hand",
        "kitty",
        "hand_sizes",
        "current_trick",
        "points_won",
        "tricks",
    ];
    let mut plays_seen = 0;
    for s in sample_positions().iter().step_by(3) {
        let c = s.core();
        let buried = matches!(s.phase(), Phase::Play | Phase::Done);
        for q in 0..4 {
            let o = s.observation(q).unwrap();
            assert_eq!(o.entries.iter().map(|(k, _)| *k).collect::<Vec<_>>(), keys);
            assert_eq!(o.get("game"), Some(&Value::from("hong_wu")));
            assert_eq!(o.get("phase"), Some(&Value::from(s.phase().name())));
            assert_eq!(o.get("hand"), Some(&Value::Cards(c.hand(q))));
            let kitty = (buried && c.is_dealer(q)).then(|| c.kitty());
            assert_eq!(o.get("kitty"), Some(&Value::from(kitty)), "seat {q}");
            // The only other cards are the plays of the current trick, which are public.
            let Some(Value::List(trick)) = o.get("current_trick") else { panic!() };
            assert_eq!(trick.len(), c.current_trick().len());
            plays_seen += trick.len();
            // The history: a burial is the bare word to all but the dealer.
            for (p, text) in s.history_seen_by(q) {
                if text.starts_with("bury") {
                    assert_eq!(text == "bury", p != q, "seat {q} sees {text}");
                    if p == q {
                        assert_eq!(text, format!("bury {}", c.kitty()));
                    }
                }
            }
        }
    }
    assert!(plays_seen > 100);
    assert!(HongWuRules::default().new_deal(0, 0).unwrap().observation(4).is_err());
}

#[test]
fn observations_do_not_depend_on_the_other_hands() {
    // Swap two other seats' hands: seat 0 sees the same before and after the auction.
    let r = HongWuRules::default();
    let dealt = HongWuState::deal(&r, &mut deal_rng(12, 0));
    let hands: Vec<Multiset> = (0..4).map(|p| dealt.hand(p)).collect();
    let mut swapped = hands.clone();
    swapped.swap(1, 2);
    let setup = |hands: Vec<Multiset>| DealSetup {
        hands,
        kitty: Some(dealt.kitty()),
        dealer: Some(0),
        ..DealSetup::default()
    };
    let mut a = r.deal_from(&setup(hands)).unwrap();
    let mut b = r.deal_from(&setup(swapped)).unwrap();
    assert_eq!(a.observation(0).unwrap(), b.observation(0).unwrap());
    for mv in ["bid 60", "pass", "pass", "pass", "trump H"] {
        let mv = a.parse_move(mv).unwrap();
        a.apply_move(&mv).unwrap();
        b.apply_move(&mv).unwrap();
        assert_eq!(a.observation(0).unwrap(), b.observation(0).unwrap(), "{mv:?}");
        assert_eq!(a.history_seen_by(0), b.history_seen_by(0));
    }
}

#[test]
fn a_history_replays_to_the_same_row() {
    let r = HongWuRules::default();
    let mut failed_throws = 0;
    for i in 0..12 {
        let mut s = r.new_deal(21, i).unwrap();
        let row = finish(&r, &mut s, Policy::Random);
        let mut t = r.new_deal(21, i).unwrap();
        for e in s.history() {
            assert_eq!(t.current_player(), Some(e.seat));
            t.apply_move(&t.parse_move(&e.applied).unwrap()).unwrap();
            failed_throws += e.mover_view.contains("(failed throw") as usize;
        }
        let mut again = vec![0; columns(&r)];
        t.result_row(&mut again).unwrap();
        assert_eq!(again, row, "deal {i}");
        assert!(t.history().iter().all(|e| e.builtin.is_none()));
    }
    assert!(failed_throws > 0, "random play tries throws that fail");
}

#[test]
fn result_row_and_returns_before_the_end() {
    let r = HongWuRules::default();
    let s = r.new_deal(1, 1).unwrap();
    let mut row = vec![0; columns(&r)];
    let e = s.result_row(&mut row).unwrap_err().to_string();
    assert!(e.starts_with("invalid call result_row() during the deal"), "{e}");
    assert_eq!(s.returns(), vec![0.0; 4]);
    // The opener is the one `simulate` draws.
    let drawn = HongWuState::deal(&r, &mut deal_rng(1, 1)).to_act();
    assert_eq!(s.current_player(), drawn);
}
