//! Deal-state and match tests of the §10 options that change the flow of a hand: 炒底, throw
//! penalties, the joker-only level, cycle_to_2 and random partners.

use super::*;
use crate::deal::deal_rng;
use crate::games::shengji::scoring::Level;
use crate::games::shengji::session::Match;
use crate::options::OptionValue;
use proptest::prelude::*;

fn rules(preset: &str, opts: &[(&str, OptionValue)]) -> ShengjiRules {
    let o: Vec<(String, OptionValue)> =
        opts.iter().map(|(k, v)| (k.to_string(), v.clone())).collect();
    ShengjiRules::from_preset(preset, &o).unwrap()
}

fn s(v: &str) -> OptionValue {
    OptionValue::Str(v.into())
}

/// Hands holding `fixed[p]` each, filled up from the rest of the pack in order; the kitty is
/// what is left (2 decks: 25 + 8).
fn hands_with(fixed: [&str; 4]) -> ([Multiset; 4], Multiset) {
    let mut rest = Multiset::full_decks(2, true).unwrap();
    let mut hands = [Multiset::EMPTY; 4];
    for (h, f) in hands.iter_mut().zip(fixed) {
        *h = f.parse().unwrap();
        rest.remove_all(h).unwrap();
    }
    let mut it = rest.iter().collect::<Vec<_>>().into_iter();
    for h in hands.iter_mut() {
        while h.len() < 25 {
            h.add(it.next().unwrap());
        }
    }
    (hands, Multiset::from_cards(&it.collect::<Vec<_>>()).unwrap())
}

/// Every card is somewhere and the attackers' total adds up (as in `tests::conserved`).
fn conserved(d: &Deal) {
    let r = d.result().unwrap();
    assert!(d.hands.iter().all(|h| h.is_empty()));
    assert_eq!(d.kitty.len(), hand_and_kitty(d.rules.decks).1);
    assert_eq!(r.trick_points + r.dealer_team_points + r.kitty_points, 100 * d.rules.decks as i32);
    assert_eq!(
        r.attacker_points,
        r.trick_points + r.kitty_points * r.kitty_multiplier as i32 + r.penalty
    );
}

// ------------------------------------------------------------------------------- 炒底

#[test]
fn chaodi_overcall_takes_the_kitty_and_keeps_the_dealer() {
    // Every level card and joker is placed: seat 0 (dealer) 2H, seat 1 2S 2S, seat 2 SJ SJ.
    let (hands, kitty) = hands_with(["2H BJ 2D", "2S 2S 2H", "SJ SJ 2C", "2D 2C BJ"]);
    let r = rules("tractor", &[("chaodi", OptionValue::Bool(true))]);
    let mut d =
        Deal::from_hands(&r, Rank::TWO, Some(0), &hands, &kitty, &mut deal_rng(1, 2)).unwrap();
    let two_h = Bid { card: "2H".parse().unwrap(), count: 1 };
    while d.phase() == Phase::Dealing {
        let mine = d.current_player() == Some(0) && d.legal_bids().contains(&two_h);
        let mv = if mine && d.declaring().winner().is_none() {
            Move::Declare(two_h)
        } else {
            Move::Pass
        };
        d.apply(mv).unwrap();
    }
    assert_eq!(d.trump(), Some(Some(Suit::Hearts)));
    d.apply(Move::Bury(kitty)).unwrap();
    // Seat 1 is offered first (the dealer's right) and holds a stronger bid.
    assert_eq!((d.phase(), d.current_player()), (Phase::Chaodi, Some(1)));
    assert_eq!(d.kitty_owner(), Some(0));
    let pair_s = Bid { card: "2S".parse().unwrap(), count: 2 };
    assert!(d.legal_bids().contains(&pair_s));
    d.apply(Move::Declare(pair_s)).unwrap();
    assert_eq!((d.phase(), d.current_player()), (Phase::Burying, Some(1)));
    assert_eq!(d.hand(1).len(), 33, "the overcaller took the kitty");
    assert_eq!(d.trump(), Some(Some(Suit::Spades)), "trump changes at once");
    let burial = d.random_move().unwrap();
    d.apply(burial).unwrap();
    // New round from seat 2: SJ SJ beats a level pair, seat 2 may overcall; it passes.
    assert_eq!((d.phase(), d.current_player()), (Phase::Chaodi, Some(2)));
    d.apply(Move::Pass).unwrap();
    // Seats 3 and 0 hold nothing stronger and pass by themselves: play, the dealer leads.
    assert_eq!((d.phase(), d.current_player()), (Phase::Playing, Some(0)));
    assert_eq!((d.dealer(), d.kitty_owner()), (Some(0), Some(1)));
    d.play_out(Policy::Random).unwrap();
    let res = d.result().unwrap();
    assert_eq!(
        (res.dealer, res.trump, res.chaodi, res.declarations),
        (0, Some(Suit::Spades), 1, 2)
    );
    conserved(&d);
}

#[test]
fn no_chaodi_round_without_the_option_or_a_declaration() {
    let (hands, kitty) = hands_with(["2H BJ 2D", "2S 2S 2H", "SJ SJ 2C", "2D 2C BJ"]);
    for (on, declare) in [(false, true), (true, false)] {
        let r = rules("tractor", &[("chaodi", OptionValue::Bool(on))]);
        let mut d =
            Deal::from_hands(&r, Rank::TWO, Some(0), &hands, &kitty, &mut deal_rng(1, 2)).unwrap();
        while d.phase() == Phase::Dealing {
            let bids = d.legal_bids();
            let mv = match bids.first() {
                Some(b) if declare && d.declaring().winner().is_none() => Move::Declare(*b),
                _ => Move::Pass,
            };
            d.apply(mv).unwrap();
        }
        d.apply(Move::Bury(kitty)).unwrap();
        assert_eq!((d.phase(), d.current_player()), (Phase::Playing, Some(0)), "on={on}");
    }
}

#[test]
fn chaodi_card_by_card_and_greedy_are_legal() {
    let r = rules("tractor", &[("chaodi", OptionValue::Bool(true))]);
    let mut saw_chaodi = 0;
    for seed in 0..40 {
        let mut d = Deal::new(&r, Rank::TWO, None, &mut deal_rng(31, seed)).unwrap();
        while !d.is_terminal() {
            if d.phase() == Phase::Chaodi {
                saw_chaodi += 1;
                // The mask offers exactly pass + the first card of each legal bid.
                let mut want = 1u64 << STOP;
                for b in d.legal_bids() {
                    want |= b.card.bit();
                }
                assert_eq!(d.legal_action_mask(), want);
            }
            let mv =
                if seed % 2 == 0 { d.random_move().unwrap() } else { d.greedy_move().unwrap() };
            let (mut cards, stop) = match mv {
                Move::Pass => (Multiset::EMPTY, true),
                Move::Declare(b) => {
                    (Multiset::from_cards(&vec![b.card; b.count as usize]).unwrap(), true)
                }
                Move::Bury(m) => (m, false),
                Move::Play(m) => (m, d.current_trick().is_empty()),
            };
            while let Some(c) = cards.kinds().first() {
                cards.remove(c);
                d.apply_action(c.index()).unwrap_or_else(|e| panic!("seed {seed} {mv}: {e}"));
            }
            if stop {
                d.apply_action(STOP).unwrap();
            }
        }
        conserved(&d);
    }
    assert!(saw_chaodi > 0, "some deal offered a 炒底");
}

// ------------------------------------------------------------------------- throw penalty

/// Dealer 0 throws `QH QH JH` at level 2 NT; seat 1 holds `KH KH`, which beats the pair and the
/// single. Returns the penalty charged.
fn penalty_of_failed_throw(penalty: &str) -> i32 {
    let (hands, kitty) = hands_with(["QH QH JH", "KH KH", "", ""]);
    let r = rules("tractor", &[("throw_fail_penalty", s(penalty))]);
    let mut d =
        Deal::from_hands(&r, Rank::TWO, Some(0), &hands, &kitty, &mut deal_rng(4, 4)).unwrap();
    while d.phase() == Phase::Dealing {
        d.apply(Move::Pass).unwrap();
    }
    d.apply(Move::Bury(kitty)).unwrap();
    d.apply(Move::Play("QH QH JH".parse().unwrap())).unwrap();
    assert_eq!(d.current_trick(), ["JH".parse::<Multiset>().unwrap()], "forced smallest beaten");
    assert_eq!(d.failed_throws, 1);
    d.penalty
}

#[test]
fn failed_throw_penalties_in_the_deal() {
    // The dealer team threw: the penalty goes to the attackers (+). Beaten: pair (2 cards) and
    // single (1 card).
    assert_eq!(penalty_of_failed_throw("none"), 0);
    assert_eq!(penalty_of_failed_throw("10_per_attempt"), 10);
    assert_eq!(penalty_of_failed_throw("10_per_card_returned"), 30);
    // TH: 2 cards × 20 (beaten by a pair) + 1 card × 10 (by a single).
    assert_eq!(penalty_of_failed_throw("structured"), 50);
}

// ---------------------------------------------------------------------- joker-only level

#[test]
fn joker_only_level_deal() {
    let r = rules("tractor", &[("after_A", s("no_trump_level"))]);
    for seed in 0..10 {
        let mut d = Deal::new(&r, Level::NO_TRUMP, Some(1), &mut deal_rng(9, seed)).unwrap();
        // Nobody can declare: the deal goes straight to the burial, no-trump.
        assert_eq!((d.phase(), d.current_player()), (Phase::Burying, Some(1)));
        assert_eq!((d.trump(), d.level()), (Some(None), None));
        let o = &d.trick_rules().unwrap().order;
        for (card, trump) in [("2H", false), ("AS", false), ("SJ", true), ("BJ", true)] {
            assert_eq!(o.is_trump(card.parse().unwrap()), trump, "{card}");
        }
        let idx = |c: &str| o.index(c.parse().unwrap());
        assert!(idx("2H") < idx("3H") && idx("KH") < idx("AH") && idx("SJ") < idx("BJ"));
        d.play_out(if seed % 2 == 0 { Policy::Random } else { Policy::Greedy }).unwrap();
        conserved(&d);
        assert_eq!(d.result().unwrap().declarations, 0);
    }
    let err = Deal::new(&rules("tractor", &[]), Level::NO_TRUMP, Some(0), &mut deal_rng(1, 1))
        .unwrap_err();
    assert!(err.to_string().contains("no_trump_level"), "{err}");
}

#[test]
fn joker_only_level_tractors() {
    let r = rules("tractor", &[]);
    let tr = r.play.trick_rules_at(2, None, Some(Suit::Hearts));
    let kind = |c: &str| {
        crate::tricks::combos::decompose(&c.parse().unwrap(), &tr.order, tr.throw_decomposition)
            .map(|f| f.kind())
    };
    use crate::tricks::combos::LeadKind::*;
    assert_eq!(kind("SJ SJ BJ BJ"), Some(Tractor));
    assert_eq!(kind("2H 2H 3H 3H"), Some(Tractor), "2 is an ordinary card: 2-3 adjacent");
    assert_eq!(kind("KH KH AH AH"), Some(Tractor));
    assert_eq!(kind("AH AH SJ SJ"), None, "AH is a side card: two effective suits");
}

// ---------------------------------------------------------------------------- the match

/// Play hands of `m` with the random policy until it is won or `limit` hands; calls `each`
/// with (level of the deal, dealer player, result) after every hand.
fn play_match(
    m: &mut Match,
    seed: u64,
    limit: u32,
    mut each: impl FnMut(&Match, Option<Rank>, &DealResult),
) {
    let mut rng = deal_rng(seed, 0);
    while m.winners.is_none() && m.hands < limit {
        let mut d = m.next_deal(&mut rng).unwrap();
        d.play_out(Policy::Random).unwrap();
        m.record(&d).unwrap();
        each(m, d.level(), d.result().unwrap());
    }
}

#[test]
fn no_trump_level_is_played_and_defended() {
    let r = rules("tractor", &[("decks", OptionValue::Int(1)), ("after_A", s("no_trump_level"))]);
    for seed in 0..3 {
        let mut m = Match::new(&r);
        m.levels = [Level::ACE; 4];
        m.dealer = Some(0);
        let mut nt_hands = 0;
        let mut last_level = Some(Rank::ACE);
        play_match(&mut m, seed, 2000, |_, level, _| {
            nt_hands += level.is_none() as u32;
            last_level = level;
        });
        let [a, b] = m.winners.expect("the match ends");
        assert!(nt_hands > 0, "a team reached the joker-only level");
        assert_eq!(last_level, None, "the match is won by holding on the joker-only level");
        assert_eq!(
            (m.levels[a as usize], m.levels[b as usize]),
            (Level::NO_TRUMP, Level::NO_TRUMP)
        );
    }
}

#[test]
fn cycle_to_2_wraps_and_never_ends() {
    let r = rules("tractor", &[("decks", OptionValue::Int(1)), ("after_A", s("cycle_to_2"))]);
    let mut m = Match::new(&r);
    m.levels = [Level::ACE; 4];
    m.dealer = Some(0);
    let mut wrapped = false;
    play_match(&mut m, 5, 60, |m, level, res| {
        if level == Some(Rank::ACE) && res.change.side == super::Side::Dealer {
            let p = res.dealer as usize; // fixed seating: player = seat
            assert!(m.levels[p] < Level::of(Rank::FIVE), "held at A → 2.. ({})", m.levels[p]);
            wrapped = true;
        }
    });
    assert!(wrapped, "a dealer team held at A");
    assert!(m.winners.is_none() && m.hands == 60);
}

#[test]
fn fixed_partners_share_levels_and_random_partners_reseat() {
    let fixed = rules("tractor", &[("decks", OptionValue::Int(1))]);
    let mut m = Match::new(&fixed);
    play_match(&mut m, 3, 40, |m, _, _| {
        assert_eq!(m.seating, [0, 1, 2, 3]);
        assert!(m.levels[0] == m.levels[2] && m.levels[1] == m.levels[3]);
    });
    let jj = rules("tractor_jj", &[]);
    assert!(jj.declare.random_partners_each_hand);
    let run = |seed| {
        let mut m = Match::new(&jj);
        let mut seen = Vec::new();
        play_match(&mut m, seed, 30, |m, _, res| {
            // The dealer of the hand played is the player at its seat; the deal's level was theirs.
            seen.push((m.seating, res.dealer, m.levels));
        });
        seen
    };
    let a = run(8);
    assert_eq!(a, run(8), "reproducible from the match's generator");
    let seatings: std::collections::HashSet<_> = a.iter().map(|x| x.0).collect();
    assert!(seatings.len() > 5, "seats are redrawn: {} seatings", seatings.len());
    // Partners change, so some pair of partners ends a hand at different levels.
    assert!(a
        .iter()
        .any(|(_, _, lv)| lv.iter().collect::<std::collections::HashSet<_>>().len() > 2));
}

#[test]
fn random_partners_levels_follow_the_players() {
    // Hand by hand: the dealer's own level is the deal's level, and the next dealer is a player
    // of the side that keeps or takes the deal.
    let jj = rules("tractor_jj", &[("decks", OptionValue::Int(2))]);
    let mut m = Match::new(&jj);
    let mut rng = deal_rng(12, 0);
    for _ in 0..25 {
        let before = m.levels;
        let dealer_player = m.dealer;
        let mut d = m.next_deal(&mut rng).unwrap();
        if let Some(p) = dealer_player {
            assert_eq!(d.dealer(), Some(m.seat_of(p)));
            assert_eq!(d.level().map(Level::of), before[p as usize].rank().map(Level::of));
        }
        d.play_out(Policy::Random).unwrap();
        let res = *d.result().unwrap();
        let seating = m.seating;
        m.record(&d).unwrap();
        let next = m.dealer.unwrap();
        let next_seat = seating.iter().position(|&p| p == next).unwrap() as u8;
        let want = if res.change.take_over { (res.dealer + 1) % 4 } else { (res.dealer + 2) % 4 };
        assert_eq!(next_seat, want);
        if m.winners.is_some() {
            break;
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(16))]
    /// Random deals with the flow options on terminate and conserve cards and points.
    #[test]
    fn random_deals_with_flow_options_conserve(
        seed in any::<u64>(),
        decks in 2i64..=3,
        penalty in 0usize..4,
        nt_level in any::<bool>(),
    ) {
        let penalties = ["none", "10_per_attempt", "10_per_card_returned", "structured"];
        let r = rules("tractor", &[
            ("decks", OptionValue::Int(decks)),
            ("chaodi", OptionValue::Bool(true)),
            ("throw_fail_penalty", s(penalties[penalty])),
            ("after_A", s("no_trump_level")),
        ]);
        let level = if nt_level { Level::NO_TRUMP } else { Level::of(Rank::from_index((seed % 13) as u8).unwrap()) };
        let mut d = Deal::new(&r, level, None, &mut deal_rng(seed, 0)).unwrap();
        d.play_out(if seed % 3 == 0 { Policy::Greedy } else { Policy::Random }).unwrap();
        conserved(&d);
        let res = d.result().unwrap();
        prop_assert!(res.chaodi <= res.declarations);
        prop_assert!(penalty != 0 || res.penalty == 0);
        prop_assert!(!nt_level || res.declarations == 0);
    }
}

#[test]
fn jack_back_to_two_is_applied_by_the_match() {
    // 勾J (§8.5 jack_back_to_two = single_J): at level J, attackers winning the last trick with a
    // single J send the dealer team back to 2. The deal reports the last trick; the match applies it.
    let r =
        rules("tractor", &[("decks", OptionValue::Int(1)), ("jack_back_to_two", s("single_J"))]);
    let (mut hooked, mut other) = (0, 0);
    for seed in 0..300 {
        let mut m = Match::new(&r);
        m.levels = [Level::of(Rank::JACK); 4];
        m.dealer = Some(0);
        let mut d = m.next_deal(&mut deal_rng(seed, 1)).unwrap();
        d.play_out(Policy::Random).unwrap();
        let res = *d.result().unwrap();
        let last = d.plays; // the last trick, leader first
        let last_winner_is_attacker = res.kitty_multiplier > 0;
        let single_jack_won = last_winner_is_attacker
            && last
                .iter()
                .any(|p| p.len() == 1 && p.kinds().first().unwrap().rank() == Some(Rank::JACK))
            && last[0].len() == 1;
        if !single_jack_won {
            assert!(!res.last_trick_single_jack, "seed {seed}");
        }
        m.record(&d).unwrap();
        if res.last_trick_single_jack {
            hooked += 1;
            assert_eq!((m.levels[0], m.levels[2]), (Level::TWO, Level::TWO), "seed {seed}");
        } else if res.change.side == super::Side::Dealer {
            other += 1;
            assert!(m.levels[0] > Level::of(Rank::JACK), "seed {seed}");
        }
    }
    assert!(hooked > 0 && other > 0, "hooked {hooked}, held {other}");
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(8))]
    /// Random matches under the match options: every deal conserves cards and points, the deal
    /// is played at the dealer's own level, and a won match is won at its last level.
    #[test]
    fn random_matches_keep_their_invariants(
        seed in any::<u64>(),
        after in 0usize..3,
        partners in any::<bool>(),
        chaodi in any::<bool>(),
    ) {
        let after_a = ["match_ends", "no_trump_level", "cycle_to_2"][after];
        let r = rules("tractor", &[
            ("decks", OptionValue::Int(1 + (seed % 2) as i64)),
            ("after_A", s(after_a)),
            ("random_partners_each_hand", OptionValue::Bool(partners)),
            ("chaodi", OptionValue::Bool(chaodi)),
        ]);
        let mut m = Match::new(&r);
        // Start near the end so that A and after_A are reached quickly.
        m.levels = [Level::of(Rank::KING); 4];
        m.dealer = Some((seed % 4) as u8);
        let mut rng = deal_rng(seed, 0);
        for _ in 0..40 {
            let before = m.levels;
            let dealer = m.dealer.unwrap();
            let mut d = m.next_deal(&mut rng).unwrap();
            prop_assert_eq!(d.level().map(Level::of).unwrap_or(Level::NO_TRUMP), before[dealer as usize]);
            d.play_out(Policy::Random).unwrap();
            conserved(&d);
            m.record(&d).unwrap();
            if !partners {
                prop_assert_eq!(m.seating, [0, 1, 2, 3]);
                prop_assert!(m.levels[0] == m.levels[2] && m.levels[1] == m.levels[3]);
            }
            if let Some(winners) = m.winners {
                let last = if after_a == "no_trump_level" { Level::NO_TRUMP } else { Level::ACE };
                prop_assert_ne!(after_a, "cycle_to_2");
                prop_assert!(winners.contains(&dealer), "the dealer of the last hand wins");
                prop_assert_eq!(before[dealer as usize], last);
                break;
            }
        }
    }
}

#[test]
fn greedy_chaodi_needs_more_trumps_than_the_current_trump() {
    use crate::games::shengji::basic::{chaodi, DeclareView};
    use crate::games::shengji::declare::Declaring;
    let mut opts = rules("tractor", &[("chaodi", OptionValue::Bool(true))]).declare;
    opts.chaodi = true;
    let mut declaring = Declaring::new(opts, Rank::TWO);
    declaring.declare_cards(0, &crate::cards::parse_cards("2H").unwrap()).unwrap();
    let view = |hand: &Multiset| {
        let v = DeclareView { seat: 1, hand, level: Some(Rank::TWO), declaring: &declaring };
        chaodi(&v, Some(Suit::Hearts))
    };
    // 2S 2S with 11 spades: 13 trumps under spades vs 2 under hearts → overcall.
    let long_spades: Multiset =
        "2S 2S AS KS QS JS 10S 9S 8S 7S 6S 5S 4S 3D 4D 5D 6D 7D 8D 9D 10D JD QD KD AD 3C 4C 5C 6C 7C 8C 9C 10C"
            .parse()
            .unwrap();
    assert_eq!(view(&long_spades), Move::Declare(Bid { card: "2S".parse().unwrap(), count: 2 }));
    // The same pair with a heart-heavy hand: hearts already give more trumps → pass.
    let hearts: Multiset =
        "2S 2S AH KH QH JH 10H 9H 8H 7H 6H 5H 4H 3D 4D 5D 6D 7D 8D 9D 10D JD QD KD AD 3C 4C 5C 6C 7C 8C 9C 10C"
            .parse()
            .unwrap();
    assert_eq!(view(&hearts), Move::Pass);
}

#[test]
fn simulator_rows_carry_penalty_and_chaodi() {
    use crate::simulator::DealSimulator;
    let r = rules(
        "tractor",
        &[("chaodi", OptionValue::Bool(true)), ("throw_fail_penalty", s("10_per_attempt"))],
    );
    let cols: Vec<&str> = r.columns().iter().map(|c| c.name).collect();
    let (pen, ch) = (
        cols.iter().position(|&c| c == "penalty").unwrap(),
        cols.iter().position(|&c| c == "chaodi").unwrap(),
    );
    let (ap, tp, kp, km) = (4, 5, 6, 7);
    let mut row = vec![0; cols.len()];
    let (mut charged, mut overcalls) = (0, 0);
    for i in 0..200 {
        r.play_deal(Policy::Random, &mut deal_rng(77, i), &mut row).unwrap();
        assert_eq!(row[ap], row[tp] + row[kp] * row[km] + row[pen], "deal {i}");
        assert_eq!(row[pen] % 10, 0);
        charged += (row[pen] != 0) as u32;
        overcalls += row[ch];
    }
    assert!(charged > 0 && overcalls > 0, "{charged} {overcalls}");
}

#[test]
fn jj_scores_accumulate_per_player_in_a_match() {
    let r = rules("tractor_jj", &[("base", OptionValue::Int(3))]);
    let mut m = Match::new(&r);
    let mut want = [0i64; 4];
    play_match(&mut m, 4, 12, |m, _, res| {
        let stake = 3 * crate::games::shengji::scoring::jj_score(
            res.attacker_points,
            r.scoring.jj_small_score,
        ) as i64;
        for seat in 0..4u8 {
            let attacker = (seat + 4 - res.dealer) % 2 == 1;
            want[m.seating[seat as usize] as usize] += if attacker { stake } else { -stake };
        }
        assert_eq!(m.jj_totals, want);
    });
    assert_eq!(m.jj_totals.iter().sum::<i64>(), 0);
    assert!(m.jj_totals.iter().any(|&t| t != 0));
    let mut plain = Match::new(&rules("tractor", &[]));
    play_match(&mut plain, 4, 3, |m, _, _| assert_eq!(m.jj_totals, [0; 4]));
}
