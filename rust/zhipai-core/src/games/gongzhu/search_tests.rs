//! Tests of the search support of Gongzhu ([`super::view`], `seat_view` / `with_hidden` /
//! `play_out` of [`super::game::DealState`]): every world is consistent with what its seat
//! knows and with the public history, the worlds are uniform over the consistent deals, and
//! `play_out` ends as stepping with built-in moves does.

use super::game::DealState;
use super::game_tests::{option_sets, rules, s, two_decks};
use super::options::{ExposureMode, GongzhuRules};
use super::state::{Move, Opening, State};
use super::text::parse_move;
use crate::cards::Card;
use crate::deal::{deal_rng, Deal};
use crate::game::{Game, GameRng, GameState};
use crate::multiset::Multiset;
use crate::policy::Policy;
use std::collections::HashMap;

/// The deal a world was dealt: its current hands plus what each seat has played.
fn dealt_hands(w: &State) -> [Multiset; 4] {
    std::array::from_fn(|s| {
        let mut h = *w.hand(s);
        h.add_all(w.played_by(s)).unwrap();
        h
    })
}

/// How a replay of the public history from a world's deal went: moves refused, and why.
#[derive(Debug, Default)]
struct Replay {
    /// Closed declarations of another seat the world could not give it the cards for.
    phantom_closed: usize,
    /// Two-deck two-card follows of a pair lead refused (pair obligation, §A.7 fallback).
    pair_follows: usize,
    /// Anything else: a bug.
    other: Vec<String>,
}

/// Replay `world`'s history from its deal, checking every move, and compare the result with the
/// world (hands, exposures, legal moves now).
fn replay(world: &DealState, seat: usize) -> Replay {
    let w = world.state();
    let r = w.rules();
    let mut st =
        State::from_hands_with_holder(r, dealt_hands(w), Opening::FirstOfMatch, w.first_leader())
            .unwrap();
    let mut out = Replay::default();
    for e in world.history() {
        let mv = parse_move(&e.applied).unwrap();
        if let Err(err) = st.check(mv) {
            let two_card_follow = matches!(mv, Move::Play(p) if p.len() == 2)
                && st.current_trick().1.first().is_some_and(|l| l.len() == 2);
            match mv {
                Move::ExposeClosed(_) if e.seat != seat => out.phantom_closed += 1,
                Move::Play(_) if two_card_follow && r.decks == 2 => out.pair_follows += 1,
                _ => out.other.push(format!("seat {} {mv}: {err}", e.seat)),
            }
        }
        st.apply_unchecked(mv);
    }
    for s in 0..4 {
        assert_eq!(st.hand(s), w.hand(s), "replayed hand of seat {s}");
        assert_eq!(st.exposed(s), w.exposed(s), "replayed exposures of seat {s}");
        assert_eq!(st.voids(s), w.voids(s), "replayed voids of seat {s}");
    }
    if out.other.is_empty() && out.phantom_closed == 0 && out.pair_follows == 0 {
        assert_eq!(st.legal_moves(), w.legal_moves(), "the world's legal moves are the replay's");
        assert_eq!(st.exposure(), w.exposure());
    }
    out
}

/// Check the worlds of `st` seen by `seat` (`n` draws); add up the replays' refusals.
fn check_worlds(st: &DealState, seat: usize, n: usize, rng: &mut GameRng, tally: &mut Replay) {
    let view = st.seat_view(seat).unwrap();
    let dealer = view.dealer().unwrap();
    let me = st.state();
    for _ in 0..n {
        let hidden = dealer.deal(rng);
        let world = st.with_hidden(seat, &hidden, rng).unwrap();
        let w = world.state();
        // What the seat knows is unchanged.
        assert_eq!(world.seat_view(seat).unwrap(), view, "seat {seat}'s view of the world");
        assert_eq!(w.hand(seat), me.hand(seat));
        assert_eq!(world.observation(seat).unwrap(), st.observation(seat).unwrap());
        assert_eq!(world.history_seen_by(seat), st.history_seen_by(seat));
        for p in 0..4 {
            assert_eq!(w.played_by(p), me.played_by(p));
            assert_eq!(w.taken(p), me.taken(p));
            assert_eq!(w.exposed(p).0, me.exposed(p).0, "open exposures");
            assert_eq!(w.hand(p).len(), me.hand(p).len());
            assert_eq!(world.history_seen_by(p).len(), st.history_seen_by(p).len());
        }
        assert_eq!(w.current_trick(), me.current_trick());
        assert_eq!(world.current_player(), st.current_player());
        // The world's deal is a deal of the game.
        let dealt = dealt_hands(w);
        let mut all = Multiset::EMPTY;
        for h in &dealt {
            assert_eq!(h.len(), 13 * w.rules().decks as usize);
            all.add_all(h).unwrap();
        }
        assert_eq!(all, Multiset::full_decks(w.rules().decks as usize, false).unwrap());
        // The public history replays from it.
        let r = replay(&world, seat);
        assert!(r.other.is_empty(), "{:?}: illegal in the world: {:?}", w.rules(), r.other);
        tally.phantom_closed += r.phantom_closed;
        tally.pair_follows += r.pair_follows;
    }
}

/// Walk deals of `r` played by `policy`, checking the worlds of every seat at every `every`-th
/// decision.
fn walk_worlds(r: &GongzhuRules, seeds: std::ops::Range<u64>, every: usize) -> (Replay, usize) {
    let mut tally = Replay::default();
    let mut checked = 0;
    let mut rng = deal_rng(99, 0);
    for seed in seeds {
        let policy = [Policy::Random, Policy::Greedy, Policy::Basic][seed as usize % 3];
        let mut st = r.new_deal(seed, 3).unwrap();
        let mut step = 0;
        while !st.is_terminal() {
            if step % every == 0 {
                for seat in 0..4 {
                    check_worlds(&st, seat, 2, &mut rng, &mut tally);
                    checked += 1;
                }
            }
            st.apply_builtin(policy).unwrap();
            step += 1;
        }
        for seat in 0..4 {
            check_worlds(&st, seat, 1, &mut rng, &mut tally);
        }
    }
    (tally, checked)
}

#[test]
fn worlds_are_consistent_with_the_seat_and_the_history() {
    for r in option_sets() {
        let (tally, checked) = walk_worlds(&r, 0..6, if r.decks == 2 { 7 } else { 3 });
        assert!(checked > 100, "{checked}");
        // Only the documented exceptions: another seat's closed declarations the world cannot
        // give it cards for, and two-deck pair follows.
        if r.exposure_mode != ExposureMode::ClosedOpen {
            assert_eq!(tally.phantom_closed, 0, "{r:?}");
        }
        if r.decks == 1 {
            assert_eq!(tally.pair_follows, 0, "{r:?}");
        }
    }
}

/// Positions with §A.7 at work: every exposable card exposed, the discard restriction, and
/// policies that expose (greedy) — the voids shown by exposed plays must hold in every world.
#[test]
fn worlds_respect_the_exposure_restriction() {
    for r in [
        rules(&[("auto_expose_fourth", super::game_tests::b(false))]),
        rules(&[("exposed_discard_before_first_round", s("forbidden"))]),
        rules(&[two_decks(), ("exposed_discard_before_first_round", s("forbidden"))]),
    ] {
        let mut shown = 0;
        let mut tally = Replay::default();
        let mut rng = deal_rng(5, 5);
        for seed in 0..40 {
            let mut st = r.new_deal(seed, 8).unwrap();
            // Every seat exposes everything it can, then random play.
            while st.phase() == crate::game::Phase::Exposure {
                let mv = st.legal_moves(usize::MAX)[0];
                st.apply_move(&mv).unwrap();
            }
            while !st.is_terminal() {
                st.apply_builtin(Policy::Random).unwrap();
                let seat = seed as usize % 4;
                if (0..4).any(|p| p != seat && st.state().voids(p) != 0) {
                    shown += 1;
                }
                check_worlds(&st, seat, 1, &mut rng, &mut tally);
            }
        }
        assert!(shown > 100, "{shown}");
        assert_eq!(tally.phantom_closed, 0);
        if r.decks == 1 {
            assert_eq!(tally.pair_follows, 0);
        }
    }
}

/// A seat that played its exposed card where §A.7 bars it shows a void in its suit (one deck).
#[test]
fn an_exposed_card_played_early_shows_a_void() {
    let r =
        rules(&[("exposure_mode", s("qq")), ("auto_expose_fourth", super::game_tests::b(false))]);
    let hands = [
        "2C 3C 4C 5C 6C 7C 8C 9C JC QC KC AC 2D",
        "QS 3D 4D 5D 6D 7D 8D 9D 10D JD QD KD AD",
        "2S 3S 4S 5S 6S 7S 8S 9S 10S JS KS AS 2H",
        "10C 3H 4H 5H 6H 7H 8H 9H 10H JH QH KH AH",
    ]
    .map(|h| h.parse::<Multiset>().unwrap());
    let mut st = State::from_hands(&r, hands, Opening::LedBy(1)).unwrap();
    st.apply(Move::Expose(super::scoring::PIG)).unwrap();
    for _ in 0..4 {
        st.apply(Move::EndExposure).unwrap();
    }
    // Seat 1 leads its exposed pig: legal only because it holds no other spade.
    st.apply(Move::Play(super::play::Play::single("QS".parse::<Card>().unwrap()))).unwrap();
    assert_eq!(st.voids(1), 1, "void in spades");
    let view = super::view::seat_view(&st, 0);
    assert_eq!(view.known.voids[1], crate::cards::Suit::Spades.mask());
}

/// Whether the public history of `st` replays legally from the deal whose current hands are
/// `hands` (two decks: pair follows the dealer cannot condition on are let through).
fn history_replays(st: &DealState, hands: &[Multiset; 4]) -> bool {
    let me = st.state();
    let dealt: [Multiset; 4] = std::array::from_fn(|s| {
        let mut h = hands[s];
        h.add_all(me.played_by(s)).unwrap();
        h
    });
    let r = me.rules();
    let mut x =
        State::from_hands_with_holder(r, dealt, Opening::FirstOfMatch, me.first_leader()).unwrap();
    for e in st.history() {
        let mv = parse_move(&e.applied).unwrap();
        let pair_follow = matches!(mv, Move::Play(p) if p.len() == 2)
            && x.current_trick().1.first().is_some_and(|l| l.len() == 2);
        if x.check(mv).is_err() && !(pair_follow && r.decks == 2) {
            return false;
        }
        x.apply_unchecked(mv);
    }
    true
}

/// Every deal of the cards `seat` cannot see into the other hands (their current sizes) from
/// which the public history replays, weighted by its physical deals — found from the rules
/// alone, not from `seat_view`.
fn exact_worlds(st: &DealState, seat: usize) -> HashMap<Deal, f64> {
    let me = st.state();
    let mut rest = Multiset::full_decks(me.rules().decks as usize, false).unwrap();
    rest.remove_all(me.played()).unwrap();
    rest.remove_all(me.hand(seat)).unwrap();
    let free: Vec<Card> = rest.iter().collect();
    let sizes: Vec<usize> = (0..4).map(|s| me.hand(s).len()).collect();
    let mut hands = [Multiset::EMPTY; 4];
    hands[seat] = *me.hand(seat);
    let mut out = HashMap::new();
    #[allow(clippy::too_many_arguments)]
    fn go(
        i: usize,
        free: &[Card],
        hands: &mut [Multiset; 4],
        sizes: &[usize],
        seat: usize,
        st: &DealState,
        out: &mut HashMap<Deal, f64>,
    ) {
        if i == free.len() {
            if history_replays(st, hands) {
                let d = Deal { hands: hands.to_vec(), kitty: Multiset::EMPTY };
                *out.entry(d).or_default() += 1.0;
            }
            return;
        }
        for s in (0..4).filter(|&s| s != seat) {
            if hands[s].len() < sizes[s] {
                hands[s].add(free[i]);
                go(i + 1, free, hands, sizes, seat, st, out);
                hands[s].remove(free[i]);
            }
        }
    }
    go(0, &free, &mut hands, &sizes, seat, st, &mut out);
    let total: f64 = out.values().sum();
    out.values_mut().for_each(|v| *v /= total);
    out
}

/// Upper 0.05% point of chi-square with `df` degrees of freedom (Wilson–Hilferty).
fn chi_square_limit(df: usize) -> f64 {
    let (k, z) = (df as f64, 3.29);
    k * (1.0 - 2.0 / (9.0 * k) + z * (2.0 / (9.0 * k)).sqrt()).powi(3)
}

/// Near the end of deals (few hidden cards, voids shown), the worlds drawn through
/// `seat_view` / `with_hidden` are uniform over the consistent deals — every split of the unseen
/// cards from which the public history replays (chi-square against that exact enumeration) —
/// and every consistent deal is accepted by `with_hidden`.
#[test]
fn worlds_are_uniform_over_the_consistent_deals() {
    let mut tested = 0;
    for (r, tricks) in [(rules(&[]), 10), (rules(&[two_decks()]), 23)] {
        for seed in 0..200 {
            if tested >= 4 * (r.decks as usize) {
                break;
            }
            let mut st = r.new_deal(seed, 1).unwrap();
            while !st.is_terminal()
                && (st.state().tricks_played() < tricks || st.state().current_trick().1.len() < 2)
            {
                st.apply_builtin(Policy::Random).unwrap();
            }
            if st.is_terminal() {
                continue;
            }
            let seat = st.current_player().unwrap();
            let voids: u32 =
                (0..4).filter(|&p| p != seat).map(|p| st.state().voids(p).count_ones()).sum();
            if voids == 0 {
                continue;
            }
            let exact = exact_worlds(&st, seat);
            if exact.len() < 20 {
                continue;
            }
            let dealer = st.seat_view(seat).unwrap().dealer().unwrap();
            if dealer.is_fast_path() {
                continue; // the voids do not split the hidden cards here
            }
            let mut rng = deal_rng(seed, 77);
            let mut seen: HashMap<Deal, f64> = HashMap::new();
            let n = 60 * exact.len();
            for _ in 0..n {
                let hidden = dealer.deal(&mut rng);
                let world = st.with_hidden(seat, &hidden, &mut rng).unwrap();
                let d = Deal {
                    hands: (0..4).map(|s| *world.state().hand(s)).collect(),
                    kitty: Multiset::EMPTY,
                };
                assert!(exact.contains_key(&d), "an inconsistent world {d:?}");
                *seen.entry(d).or_default() += 1.0;
            }
            let stat: f64 = exact
                .iter()
                .map(|(d, p)| {
                    let e = p * n as f64;
                    let o = seen.get(d).copied().unwrap_or(0.0);
                    (o - e) * (o - e) / e
                })
                .sum();
            let df = exact.len() - 1;
            assert!(stat < chi_square_limit(df), "seed {seed}: chi-square {stat:.1}, {df} df");
            for d in exact.keys() {
                assert!(st.with_hidden(seat, d, &mut rng).is_ok());
            }
            tested += 1;
        }
        assert!(tested >= 2 * (r.decks as usize), "decks {}: {tested} positions", r.decks);
    }
}

#[test]
fn hidden_cards_that_do_not_fit_are_refused_by_name() {
    let r = rules(&[]);
    let mut st = r.new_deal(4, 0).unwrap();
    for _ in 0..30 {
        st.apply_builtin(Policy::Random).unwrap();
    }
    let seat = st.current_player().unwrap();
    let mut rng = deal_rng(1, 1);
    let good = st.seat_view(seat).unwrap().dealer().unwrap().deal(&mut rng);
    assert!(st.with_hidden(seat, &good, &mut rng).is_ok());
    let other = (seat + 1) % 4;
    // Another seat's hand swapped with the seat's own.
    let mut bad = good.clone();
    bad.hands.swap(seat, other);
    let e = st.with_hidden(seat, &bad, &mut rng).unwrap_err().to_string();
    assert!(e.contains("own hand"), "{e}");
    // A played card put back into a hand.
    let mut bad = good.clone();
    let c = bad.hands[other].iter().next().unwrap();
    bad.hands[other].remove(c);
    bad.hands[other].add(st.state().played().iter().next().unwrap());
    let e = st.with_hidden(seat, &bad, &mut rng).unwrap_err().to_string();
    assert!(e.contains("deck") || e.contains("none of"), "{e}");
    // A wrong number of hands, a seat out of range.
    let bad = Deal { hands: good.hands[..3].to_vec(), kitty: Multiset::EMPTY };
    assert!(st.with_hidden(seat, &bad, &mut rng).unwrap_err().to_string().contains("4 hands"));
    assert!(st.with_hidden(4, &good, &mut rng).is_err());
    assert!(st.seat_view(4).is_err());
}

/// `play_out` ends exactly as stepping with `apply_builtin` does (same row, same returns, same
/// generator position), from every phase, for every policy.
#[test]
fn play_out_ends_as_stepping_does() {
    for r in option_sets() {
        for seed in 0..6 {
            for policy in [Policy::Random, Policy::Greedy, Policy::Basic] {
                let mut st = r.new_deal(seed, 11).unwrap();
                for start in 0..(seed as usize * 9) {
                    if st.is_terminal() {
                        break;
                    }
                    st.apply_builtin([Policy::Random, Policy::Greedy][start % 2]).unwrap();
                }
                let mut fast = st.clone();
                fast.play_out(policy).unwrap();
                let mut stepped = st.clone();
                while !stepped.is_terminal() {
                    stepped.apply_builtin(policy).unwrap();
                }
                let n = Game::columns(&r).len();
                let (mut a, mut b) = (vec![0; n], vec![0; n]);
                fast.result_row(&mut a).unwrap();
                stepped.result_row(&mut b).unwrap();
                assert_eq!(a, b, "{r:?} seed {seed} {policy:?}");
                assert_eq!(fast.returns(), stepped.returns());
                assert_eq!(fast.word_pos(), stepped.word_pos());
                // The history is not recorded by play_out.
                assert_eq!(fast.history_len(), st.history_len());
            }
        }
    }
}
