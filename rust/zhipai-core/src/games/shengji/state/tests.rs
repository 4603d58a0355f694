use super::*;
use crate::deal::deal_rng;
use crate::games::shengji::session::Match;
use crate::options::OptionValue;
use crate::simulator::{DealSimulator, StartingDeal};
use crate::tricks::lead_candidates::{
    count_runs, for_each_lead_candidate, for_each_run, is_single_unit, sample_lead,
};
use proptest::prelude::*;
use rand::Rng;
use std::ops::ControlFlow;

fn rules(preset: &str, opts: &[(&str, OptionValue)]) -> ShengjiRules {
    let o: Vec<(String, OptionValue)> =
        opts.iter().map(|(k, v)| (k.to_string(), v.clone())).collect();
    ShengjiRules::from_preset(preset, &o).unwrap()
}

fn conserved(deal: &Deal) {
    let r = deal.result().unwrap();
    // Every card went somewhere: hands empty, kitty of the right size.
    assert!(deal.hands.iter().all(|h| h.is_empty()));
    let (_, k) = hand_and_kitty(deal.rules.decks);
    assert_eq!(deal.kitty.len(), k);
    assert_eq!(
        r.trick_points + r.dealer_team_points + r.kitty_points,
        100 * deal.rules.decks as i32
    );
    assert_eq!(
        r.attacker_points,
        r.trick_points + r.kitty_points * r.kitty_multiplier as i32 + r.penalty
    );
}

#[test]
fn random_deals_terminate_for_every_deck_count() {
    for (preset, decks) in [("tractor", 1), ("tractor", 2), ("eighty_points", 3), ("tractor_jj", 2)]
    {
        let r = rules(preset, &[("decks", OptionValue::Int(decks))]);
        for i in 0..20 {
            let mut rng = deal_rng(7, i);
            let mut d = Deal::new(&r, Rank::TWO, None, &mut rng).unwrap();
            d.play_out(Policy::Random).unwrap();
            conserved(&d);
        }
    }
}

#[test]
fn dealing_gives_every_card_once() {
    let r = rules("tractor", &[]);
    let mut d = Deal::new(&r, Rank::FIVE, Some(2), &mut deal_rng(1, 0)).unwrap();
    while d.phase() == Phase::Dealing {
        d.apply(Move::Pass).unwrap();
    }
    assert_eq!(d.dealer(), Some(2));
    let mut all = Multiset::EMPTY;
    for h in &d.hands {
        all.add_all(h).unwrap();
    }
    assert_eq!(all.len(), 25 * 4 + 8);
    assert_eq!(all, Multiset::full_decks(2, true).unwrap());
    // Nobody declared: no-trump; the dealer holds 33 cards.
    assert_eq!(d.trump(), Some(None));
    assert_eq!(d.hand(2).len(), 33);
}

#[test]
fn declaration_decides_the_hand_one_dealer_and_trump() {
    let r = rules("tractor", &[]);
    for seed in 0..30 {
        let mut d = Deal::new(&r, Rank::TWO, None, &mut deal_rng(3, seed)).unwrap();
        let mut last = None;
        while d.phase() == Phase::Dealing {
            let bids = d.legal_bids();
            assert!(!bids.is_empty(), "a decision is asked only with a legal bid");
            let bid = *bids.last().unwrap();
            last = Some((d.current_player().unwrap(), bid));
            d.apply(Move::Declare(bid)).unwrap();
        }
        let (p, bid) = last.unwrap();
        assert_eq!(d.dealer(), Some(p));
        assert_eq!(d.trump(), Some(bid.trump()));
    }
}

#[test]
fn illegal_moves_are_refused_with_the_reason() {
    let r = rules("tractor", &[]);
    let mut d = Deal::new(&r, Rank::TWO, Some(0), &mut deal_rng(5, 0)).unwrap();
    while d.phase() == Phase::Dealing {
        d.apply(Move::Pass).unwrap();
    }
    let err = d.apply(Move::Bury("2H".parse().unwrap())).unwrap_err();
    assert!(err.to_string().contains("exactly 8"), "{err}");
    let err = d.apply(Move::Play("2H".parse().unwrap())).unwrap_err();
    assert!(err.to_string().contains("burying phase"), "{err}");
    let bury = d.random_move().unwrap();
    d.apply(bury).unwrap();
    assert_eq!(d.phase(), Phase::Playing);
    let hand = d.hand(0);
    let missing = Card::all().find(|c| hand.count(*c) == 0).unwrap();
    let err = d.apply(Move::Play(Multiset::from_set(CardSet::single(missing)))).unwrap_err();
    assert!(err.to_string().contains("does not hold"), "{err}");
}

#[test]
fn card_by_card_matches_structured_moves() {
    let r = rules("tractor", &[]);
    for seed in 0..6 {
        let mut d = Deal::new(&r, Rank::TWO, None, &mut deal_rng(11, seed)).unwrap();
        let mut guard = 0;
        while !d.is_terminal() {
            guard += 1;
            assert!(guard < 5000);
            // Build the random policy's move card by card.
            let mv = d.random_move().unwrap();
            let (cards, stop) = match mv {
                Move::Pass => (Multiset::EMPTY, true),
                Move::Declare(b) => {
                    (Multiset::from_cards(&vec![b.card; b.count as usize]).unwrap(), true)
                }
                Move::Bury(m) => (m, false),
                Move::Play(m) => (m, d.current_trick().is_empty()),
            };
            let mut want = cards;
            // A failed throw is reduced by the engine; the lead as built is the whole throw.
            while !want.is_empty() {
                let c = want.kinds().first().unwrap();
                let mask = d.legal_action_mask();
                assert!(mask & c.bit() != 0, "{c} not offered while building {mv:?}");
                want.remove(c);
                d.apply_action(c.index()).unwrap();
            }
            if stop {
                assert!(d.legal_action_mask() & (1 << STOP) != 0);
                d.apply_action(STOP).unwrap();
            }
        }
        assert!(d.result().is_some());
    }
}

#[test]
fn follow_mask_is_the_union_of_legal_follows() {
    let r = rules("tractor", &[]);
    let mut d = Deal::new(&r, Rank::TWO, Some(1), &mut deal_rng(2, 9)).unwrap();
    while d.phase() != Phase::Playing {
        let mv = d.random_move().unwrap();
        d.apply(mv).unwrap();
    }
    let mv = d.random_move().unwrap();
    d.apply(mv).unwrap();
    let format = d.lead_format;
    let hand = d.hand(d.current_player().unwrap());
    let moves = FollowMoves::new(d.tr(), &format, &hand).unwrap();
    let mut union = 0u64;
    for p in moves.enumerate(usize::MAX) {
        union |= p.kinds().0;
    }
    assert_eq!(d.legal_action_mask(), union);
}

#[test]
fn single_unit_check_agrees_with_decompose() {
    let r = rules("tractor", &[("decks", OptionValue::Int(3))]);
    let mut rng = deal_rng(8, 0);
    for level in [Rank::TWO, Rank::FIVE, Rank::ACE] {
        for trump in [None, Some(Suit::Hearts)] {
            let tr = r.play.trick_rules(3, level, trump);
            for _ in 0..300 {
                // Random small holdings of one effective suit.
                let s = rng.random_range(0..5usize);
                let kinds: Vec<Card> = tr.order.suit_mask(s).iter().collect();
                if kinds.is_empty() {
                    continue; // the trump suit's own side suit
                }
                let mut part = Multiset::EMPTY;
                let n = rng.random_range(1..7).min(kinds.len());
                let start = rng.random_range(0..kinds.len());
                let m = rng.random_range(1..=3);
                for c in kinds.iter().cycle().skip(start).take(n) {
                    for _ in 0..rng.random_range(m..=3).min(3) {
                        part.add(*c);
                    }
                }
                let want =
                    !crate::tricks::combos::decompose(&part, &tr.order, tr.throw_decomposition)
                        .unwrap()
                        .is_throw();
                assert_eq!(is_single_unit(&tr, s, &part), want, "{part} level {level}");
            }
        }
    }
}

#[test]
fn single_lead_fast_follow_covers_the_legal_follows() {
    let r = rules("tractor", &[]);
    for seed in 0..40 {
        let mut d = Deal::new(&r, Rank::TWO, Some(0), &mut deal_rng(6, seed)).unwrap();
        while d.phase() != Phase::Playing {
            let mv = d.random_move().unwrap();
            d.apply(mv).unwrap();
        }
        let lead = d.hand(0).kinds().first().unwrap();
        d.apply(Move::Play(Multiset::from_set(CardSet::single(lead)))).unwrap();
        let format = d.lead_format;
        let hand = d.hand(1);
        let legal: Vec<Multiset> =
            FollowMoves::new(d.tr(), &format, &hand).unwrap().enumerate(usize::MAX);
        let mut seen = std::collections::HashSet::new();
        for _ in 0..400 {
            let Move::Play(p) = d.random_move().unwrap() else { panic!() };
            assert!(legal.contains(&p), "{p} not legal");
            seen.insert(p);
        }
        assert_eq!(seen.len(), legal.len(), "every legal single follow is drawn");
    }
}

/// Play a deal with `greedy[seat]` choosing the greedy move (checked through `apply`, which
/// refuses illegal moves) and random moves elsewhere; returns the attackers' total.
fn mixed_deal(r: &ShengjiRules, seed: u64, greedy: impl Fn(u8, u8) -> bool) -> i32 {
    let mut d = Deal::new(r, Rank::TWO, Some((seed % 4) as u8), &mut deal_rng(seed, 7)).unwrap();
    while !d.is_terminal() {
        let p = d.current_player().unwrap();
        let mv = if greedy(p, d.dealer().unwrap()) {
            d.greedy_move().unwrap()
        } else {
            d.random_move().unwrap()
        };
        d.apply(mv).unwrap_or_else(|e| panic!("seed {seed}: {mv:?} refused: {e}"));
    }
    d.result().unwrap().attacker_points
}

#[test]
fn greedy_moves_are_legal_under_many_rules() {
    let cases: [(&str, Vec<(&str, OptionValue)>); 5] = [
        ("tractor", vec![]),
        ("tractor", vec![("decks", OptionValue::Int(1))]),
        ("eighty_points", vec![("decks", OptionValue::Int(3))]),
        ("tractor_jj", vec![("kitty_bury_restrictions", OptionValue::Str("no_points".into()))]),
        ("tractor", vec![("trump_throw_allowed", OptionValue::Bool(false))]),
    ];
    for (preset, opts) in cases {
        let r = rules(preset, &opts);
        for seed in 0..6 {
            let pts = mixed_deal(&r, seed, |_, _| true);
            assert!(pts % 5 == 0, "{preset}: {pts}");
        }
    }
}

#[test]
fn greedy_burial_avoids_points_and_trumps() {
    let r = rules("tractor", &[]);
    for seed in 0..20 {
        let mut d = Deal::new(&r, Rank::TWO, Some(0), &mut deal_rng(seed, 3)).unwrap();
        while d.phase() == Phase::Dealing {
            let mv = d.greedy_move().unwrap();
            d.apply(mv).unwrap();
        }
        let hand = d.hand(0);
        let Move::Bury(b) = d.greedy_move().unwrap() else { panic!("a burial") };
        let tr = d.tr();
        let plain = hand.iter().filter(|&c| !tr.order.is_trump(c) && c.points() == 0).count();
        let buried_plain = b.iter().filter(|&c| !tr.order.is_trump(c) && c.points() == 0).count();
        assert_eq!(buried_plain, plain.min(8), "seed {seed}: {b} from {hand}");
        d.apply(Move::Bury(b)).unwrap();
    }
}

/// Mean and standard error of the attackers' totals.
fn mean_se(v: &[i32]) -> (f64, f64) {
    let n = v.len() as f64;
    let m = v.iter().map(|&x| x as f64).sum::<f64>() / n;
    let var = v.iter().map(|&x| (x as f64 - m).powi(2)).sum::<f64>() / (n - 1.0);
    (m, (var / n).sqrt())
}

#[test]
fn greedy_teams_beat_random_teams() {
    let r = rules("tractor", &[("decks", OptionValue::Int(1))]);
    let n = 300;
    let attackers = |p: u8, dealer: u8| (p + 4 - dealer) % 2 == 1;
    let random: Vec<i32> = (0..n).map(|s| mixed_deal(&r, s, |_, _| false)).collect();
    let greedy_defence: Vec<i32> =
        (0..n).map(|s| mixed_deal(&r, s, |p, d| !attackers(p, d))).collect();
    let greedy_attack: Vec<i32> = (0..n).map(|s| mixed_deal(&r, s, attackers)).collect();
    let (m0, s0) = mean_se(&random);
    let (m1, s1) = mean_se(&greedy_defence);
    let (m2, s2) = mean_se(&greedy_attack);
    let z = |a: f64, sa: f64, b: f64, sb: f64| (a - b) / (sa * sa + sb * sb).sqrt();
    assert!(z(m0, s0, m1, s1) > 3.0, "greedy defenders keep points: {m0:.1} vs {m1:.1}");
    assert!(z(m2, s2, m0, s0) > 3.0, "greedy attackers win points: {m2:.1} vs {m0:.1}");
}

/// A deal of `rules` split as `play_from_deal` expects, from a shuffled pack.
fn sampled_deal(r: &ShengjiRules, seed: u64) -> crate::deal::Deal {
    crate::deal::deal(&r.deal_shape().unwrap(), &mut deal_rng(seed, 0))
}

#[test]
fn play_from_deal_uses_the_hands_and_forces_the_first_action() {
    let r = rules("tractor", &[]);
    let deal = sampled_deal(&r, 5);
    let hands: [Multiset; 4] = deal.hands.clone().try_into().unwrap();
    // The hands are dealt unchanged, whatever the order of reception.
    let d =
        Deal::from_hands(&r, Rank::TWO, Some(2), &hands, &deal.kitty, &mut deal_rng(1, 1)).unwrap();
    let mut d2 = d.clone();
    while d2.phase() == Phase::Dealing {
        d2.apply(Move::Pass).unwrap();
    }
    for p in 0..4u8 {
        let mut want = hands[p as usize];
        if p == 2 {
            want.add_all(&deal.kitty).unwrap();
        }
        assert_eq!(d2.hand(p), want, "seat {p}");
    }
    let cols = r.columns().len();
    let run = |start: &StartingDeal<'_>, policy: Policy| {
        let mut row = vec![0; cols];
        r.play_from_deal(policy, start, &mut deal_rng(9, 9), &mut row).map(|_| row)
    };
    let base = StartingDeal::new(&deal, 2).with_dealer(Some(2));
    for policy in [Policy::Random, Policy::Greedy] {
        assert_eq!(run(&base, policy).unwrap(), run(&base, policy).unwrap(), "reproducible");
        assert_eq!(run(&base, policy).unwrap()[0], 2, "the dealer is fixed");
    }
    // A burial of 8 held cards is applied: the kitty then holds their points.
    let mut burial = Multiset::EMPTY;
    for c in hands[2].iter().filter(|c| c.points() > 0).take(8) {
        burial.add(c);
    }
    if burial.len() == 8 {
        let row = run(&base.with_first_action(Some(&burial)), Policy::Greedy).unwrap();
        assert_eq!(row[6] as u32, burial.iter().map(|c| c.points()).sum::<u32>());
    }
    // A single-card first lead from the dealer's hand is applied; one it lacks is not played
    // (the policy decides there).
    let played = |start: &StartingDeal<'_>| {
        let mut row = vec![0; cols];
        let p = r.play_from_deal(Policy::Random, start, &mut deal_rng(9, 9), &mut row).unwrap();
        (row, p)
    };
    let card = hands[2].kinds().first().unwrap();
    let lead = Multiset::from_set(CardSet::single(card));
    assert!(played(&base.with_first_action(Some(&lead))).1);
    assert!(!played(&base).1, "no candidate: nothing forced");
    // (A level card or joker would read as a declaration: one not held is an IllegalPlay.)
    let plain = |c: Card| c.rank().is_some_and(|r| r != Rank::TWO);
    let missing =
        Card::all().find(|&c| hands[2].count(c) == 0 && deal.kitty.count(c) == 0 && plain(c));
    if let Some(c) = missing {
        let bad = Multiset::from_set(CardSet::single(c));
        assert!(!played(&base.with_first_action(Some(&bad))).1);
    }
    // Wrong shapes are refused.
    let wrong = crate::deal::Deal { hands: deal.hands[..3].to_vec(), kitty: deal.kitty };
    assert!(run(&StartingDeal::new(&wrong, 0), Policy::Random).is_err());
    assert!(run(&base.with_dealer(Some(4)), Policy::Random).is_err());
}

#[test]
fn count_runs_matches_the_enumeration() {
    for seed in 0..300u64 {
        let decks = 1 + (seed % 3) as i64;
        let r = rules("tractor", &[("decks", OptionValue::Int(decks))]);
        let mut d = Deal::new(
            &r,
            Rank::from_index((seed % 13) as u8).unwrap(),
            Some(0),
            &mut deal_rng(seed, 1),
        )
        .unwrap();
        while d.phase() == Phase::Dealing {
            let mv = d.random_move().unwrap();
            d.apply(mv).unwrap();
        }
        let tr = d.tr().clone();
        for p in 0..4 {
            let hand = d.hand(p);
            let mut n = 0u32;
            let _ = for_each_run(&tr, &hand, &mut |_| {
                n += 1;
                ControlFlow::Continue(())
            });
            assert_eq!(count_runs(&tr, &hand), n, "seed {seed} hand {hand}");
        }
    }
}

#[test]
fn sample_lead_draws_every_candidate() {
    let r = rules("tractor", &[]);
    let tr = r.play.trick_rules(2, Rank::TWO, Some(Suit::Spades));
    let hand: Multiset = "3H 3H 4H 4H 5H 9H 2S 2S AS AS SJ BJ BJ 7C".parse().unwrap();
    let mut cands = Vec::new();
    for_each_lead_candidate(&tr, &hand, &mut |c| {
        cands.push(*c);
        ControlFlow::Continue(())
    });
    // The tractor 3H3H4H4H and the whole heart holding (a throw) are candidates; AS AS and
    // 2S 2S do not chain (trump A → off-suit level → trump level, §4.2).
    assert!(cands.contains(&"3H 3H 4H 4H".parse().unwrap()));
    assert!(cands.contains(&"3H 3H 4H 4H 5H 9H".parse().unwrap()));
    assert!(!cands.contains(&"AS AS 2S 2S".parse().unwrap()));
    let mut rng = deal_rng(3, 3);
    let mut seen = std::collections::HashSet::new();
    for _ in 0..3000 {
        let l = sample_lead(&tr, &hand, &mut rng);
        assert!(cands.contains(&l), "{l} is not a candidate");
        seen.insert(l);
    }
    assert_eq!(seen.len(), cands.len());
}

#[test]
fn points_by_planes_match_card_points() {
    for text in ["", "5H", "5H 5H 10S KD KD KD 3C BJ", "AS 2S 4D"] {
        let m: Multiset = text.parse().unwrap();
        assert_eq!(points_of(&m), m.iter().map(|c| c.points() as i32).sum::<i32>(), "{text}");
    }
    assert_eq!(points_of(&Multiset::full_decks(3, true).unwrap()), 300);
}

#[test]
fn no_declaration_and_dealer_options() {
    // Everybody passes: random_suit gives a suit, flip_kitty the kitty's first level card.
    let pass_all = |r: &ShengjiRules, seed: u64| {
        let mut d = Deal::new(r, Rank::TWO, None, &mut deal_rng(21, seed)).unwrap();
        while d.phase() == Phase::Dealing {
            d.apply(Move::Pass).unwrap();
        }
        d
    };
    let r = rules("tractor", &[("no_declaration", OptionValue::Str("random_suit".into()))]);
    let suits: std::collections::HashSet<_> =
        (0..40).map(|i| pass_all(&r, i).trump().unwrap()).collect();
    assert!(!suits.contains(&None) && suits.len() == 4, "{suits:?}");
    let r = rules("tractor", &[("no_declaration", OptionValue::Str("flip_kitty".into()))]);
    for i in 0..20 {
        let d = pass_all(&r, i);
        let kitty = &d.stock[100..108];
        assert_eq!(d.trump().unwrap(), flip_kitty_trump(kitty, Rank::TWO));
    }
    // first_hand_dealer=first_declarer: the first bidder deals even when overcalled.
    let r = rules("tractor", &[("first_hand_dealer", OptionValue::Str("first_declarer".into()))]);
    for seed in 0..20 {
        let mut d = Deal::new(&r, Rank::TWO, None, &mut deal_rng(22, seed)).unwrap();
        let mut first = None;
        while d.phase() == Phase::Dealing {
            let bid = *d.legal_bids().last().unwrap();
            first.get_or_insert(d.current_player().unwrap());
            d.apply(Move::Declare(bid)).unwrap();
        }
        assert_eq!(d.dealer(), first);
    }
    // no_declaration_dealer=first_drawer: the first drawer deals hand 1.
    let r = rules("tractor", &[("no_declaration_dealer", OptionValue::Str("first_drawer".into()))]);
    for seed in 0..10 {
        let d = pass_all(&r, seed);
        assert_eq!(d.dealer(), Some(d.first_drawer));
    }
}

#[test]
fn jj_column() {
    let r = rules("tractor_jj", &[]);
    let cols = r.columns();
    assert_eq!(cols.last().unwrap().name, "jj_score");
    let mut row = vec![0; cols.len()];
    r.play_deal(Policy::Random, &mut deal_rng(5, 5), &mut row).unwrap();
    let jj = cols.len() - 1;
    assert_eq!(row[jj], super::super::scoring::jj_score(row[4], r.scoring.jj_small_score));
    assert!(r.play_deal(Policy::Random, &mut deal_rng(5, 5), &mut row[..jj]).is_err());
}

#[test]
fn burial_restriction_is_enforced() {
    let r = rules("tractor", &[("kitty_bury_restrictions", OptionValue::Str("no_points".into()))]);
    for seed in 0..10 {
        let mut d = Deal::new(&r, Rank::TWO, Some(0), &mut deal_rng(4, seed)).unwrap();
        while d.phase() == Phase::Dealing {
            d.apply(Move::Pass).unwrap();
        }
        let mv = d.random_move().unwrap();
        let Move::Bury(b) = mv else { panic!() };
        assert_eq!(b.count_in(point_kinds()), 0);
        let pts: Vec<Card> = d.hand(0).restrict(point_kinds()).iter().take(8).collect();
        if pts.len() == 8 {
            let bad = Multiset::from_cards(&pts).unwrap();
            assert!(d.apply(Move::Bury(bad)).is_err());
        }
        d.apply(mv).unwrap();
    }
}

#[test]
fn a_match_ends_and_rotates_the_deal() {
    let r = rules("tractor", &[("decks", OptionValue::Int(1))]);
    let mut m = Match::new(&r);
    let mut rng = deal_rng(9, 0);
    while m.winners.is_none() && m.hands < 400 {
        let mut d = m.next_deal(&mut rng).unwrap();
        let dealer_before = m.dealer;
        d.play_out(Policy::Random).unwrap();
        let res = *d.result().unwrap();
        m.record(&d).unwrap();
        if let Some(prev) = dealer_before {
            assert_eq!(res.dealer, prev);
        }
        let next = m.dealer.unwrap();
        let expect = if res.change.take_over { (res.dealer + 1) % 4 } else { (res.dealer + 2) % 4 };
        assert_eq!(next, expect);
    }
    assert!(m.winners.is_some(), "a random 1-deck match ends within 400 hands");
    let [a, b] = m.winners.unwrap();
    assert_eq!(b, a + 2, "fixed partners: players p and p + 2 win together");
    assert!(m.next_deal(&mut rng).is_err());
}

#[test]
fn simulator_row() {
    let r = rules("tractor", &[]);
    let mut row = vec![0; r.columns().len()];
    r.play_deal(Policy::Random, &mut deal_rng(1, 1), &mut row).unwrap();
    assert!((0..4).contains(&row[0]) && (0..=4).contains(&row[1]));
    let mut greedy = vec![0; row.len()];
    r.play_deal(Policy::Greedy, &mut deal_rng(1, 1), &mut greedy).unwrap();
    let mut greedy_again = vec![0; row.len()];
    r.play_deal(Policy::Greedy, &mut deal_rng(1, 1), &mut greedy_again).unwrap();
    assert_eq!(greedy, greedy_again, "the greedy player is deterministic");
    let mut again = vec![0; row.len()];
    r.play_deal(Policy::Random, &mut deal_rng(1, 1), &mut again).unwrap();
    assert_eq!(row, again, "reproducible from the seed");
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(24))]
    #[test]
    fn every_random_deal_terminates_and_conserves(seed in any::<u64>(), decks in 1i64..=3, jj in any::<bool>()) {
        let preset = if jj && decks == 2 { "tractor_jj" } else { "tractor" };
        let r = rules(preset, &[("decks", OptionValue::Int(decks))]);
        let mut d = Deal::new(&r, Rank::from_index((seed % 13) as u8).unwrap(), None, &mut deal_rng(seed, 0)).unwrap();
        d.play_out(Policy::Random).unwrap();
        conserved(&d);
        let res = d.result().unwrap();
        // A hand of n cards needs between n / (longest play) and n tricks.
        prop_assert!(res.tricks as usize <= hand_and_kitty(r.decks).0);
        prop_assert!(res.tricks >= 1);
    }
}

#[test]
fn play_from_deal_reads_a_level_card_candidate_as_a_declaration() {
    // A single level card is a declaration shape (§2.2): it is declared when it becomes legal,
    // never played as the seat's first play (which was an illegal follow in many deals).
    let r = rules("tractor", &[]);
    let cols = r.columns().len();
    let (mut ok, mut declared, mut declared_by_policy) = (0, 0, 0);
    for seed in 0..40u64 {
        let deal = sampled_deal(&r, seed);
        let Some(card) = deal.hands[1].kinds().iter().find(|c| c.rank() == Some(Rank::TWO)) else {
            continue;
        };
        let run = |first: Option<&Multiset>| {
            let start = StartingDeal::new(&deal, 1).with_first_action(first);
            let mut row = vec![0; cols];
            r.play_from_deal(Policy::Random, &start, &mut deal_rng(seed, 3), &mut row).unwrap();
            // The trump is the candidate suit when its declaration stands.
            (row[1] == card.suit().unwrap().index() as i32) as i32
        };
        declared += run(Some(&Multiset::from_set(CardSet::single(card))));
        declared_by_policy += run(None);
        ok += 1;
    }
    assert!(ok >= 20, "{ok} deals with a level card in seat 1");
    // Random overcalls by pairs often replace the single: only some samples keep its suit.
    assert!(declared > 0 && declared_by_policy > 0, "{declared} / {declared_by_policy} of {ok}");
}

#[test]
fn a_pass_candidate_without_a_declaring_chance_leaves_the_deal_to_the_policy() {
    // A seat without level cards or joker pairs never gets a declaring chance (§2.2): the empty
    // (pass) candidate must not turn into an empty play later.
    let r = rules("tractor", &[]);
    let cols = r.columns().len();
    let mut tried = 0;
    for seed in 0..400u64 {
        let deal = sampled_deal(&r, seed);
        let hand = deal.hands[1];
        let can_bid = hand.kinds().iter().any(|c| c.rank() == Some(Rank::TWO))
            || !hand.pairs().intersect(CardSet::JOKERS).is_empty();
        if can_bid {
            continue;
        }
        let pass = Multiset::EMPTY;
        let start = StartingDeal::new(&deal, 1).with_first_action(Some(&pass));
        let mut row = vec![0; cols];
        r.play_from_deal(Policy::Random, &start, &mut deal_rng(seed, 3), &mut row).unwrap();
        let mut by_policy = vec![0; cols];
        let start = StartingDeal::new(&deal, 1);
        r.play_from_deal(Policy::Random, &start, &mut deal_rng(seed, 3), &mut by_policy).unwrap();
        assert_eq!(row, by_policy, "seed {seed}: no chance to pass = the policy's deal");
        tried += 1;
    }
    assert!(tried > 0, "no sampled hand without a bid card");
}
