//! Tests of the search support of Baohuang ([`super::search`], `play_out`): every world is a
//! legal deal that replays the public history and keeps what the seat knows; worlds are uniform
//! over the consistent deals; `play_out` ends as stepping with built-in moves does.

use super::game_tests::option_sets;
use super::state::{self, Move, Phase as BhPhase, State, PLAYERS};
use super::*;
use crate::cards::Card;
use crate::game::{Game, GameRng, GameState, Phase};
use crate::multiset::Multiset;
use crate::policy::Policy;
use rand::SeedableRng;
use std::collections::HashMap;

/// How the positions are reached: a built-in policy for every decision, or one that abdicates
/// and declines every accession chance first (so that 逼位 and 黄局 come up).
#[derive(Clone, Copy, Debug)]
pub(super) enum Drive {
    Builtin(Policy),
    AbdicateThen(Policy),
    /// Ascend with a card held 4 times when the scepter holder can (独保), else abdicate.
    SoloThen(Policy),
}

fn step(s: &mut DealState, drive: Drive) {
    let p = match drive {
        Drive::Builtin(p) => p,
        Drive::AbdicateThen(p) | Drive::SoloThen(p) => {
            let core = s.core();
            let hand = core.hand(core.current_player().unwrap());
            let solo = |m: &Move| matches!(m, Move::Ascend(c) if hand.count(*c) == 4);
            let four = core.legal_moves().into_iter().find(solo);
            let mv = match core.phase() {
                BhPhase::Accession if matches!(drive, Drive::SoloThen(_)) => {
                    Some(four.unwrap_or(Move::Abdicate))
                }
                BhPhase::Accession => Some(Move::Abdicate),
                BhPhase::GrabWindow => Some(Move::Decline),
                _ => None,
            };
            let mv = mv.map(|m| play_cards::to_cards(core, m));
            if let Some(mv) = mv {
                s.apply_move(&mv).unwrap();
                return;
            }
            p
        }
    };
    s.apply_builtin(p).unwrap();
}

/// Positions of deals `0..deals` of `seed`: every decision before play and every `every`-th
/// in play, and the end.
pub(super) fn positions(
    rules: &BaohuangRules,
    drive: Drive,
    seed: u64,
    deals: u64,
    every: usize,
) -> Vec<DealState> {
    let mut out = Vec::new();
    for i in 0..deals {
        let mut s = rules.new_deal(seed, i).unwrap();
        let mut k = 0;
        while !s.is_terminal() {
            if s.phase() != Phase::Play || k % every == 0 {
                out.push(s.clone());
            }
            step(&mut s, drive);
            k += 1;
        }
        out.push(s);
    }
    out
}

/// What each seat played in the deal being played, from the history.
fn played(s: &DealState) -> [Multiset; PLAYERS] {
    let mut p = [Multiset::EMPTY; PLAYERS];
    for e in s.records().iter().filter(|e| e.deal == s.redeals) {
        if let Move::Play(cards) = e.mv {
            p[e.seat as usize].add_all(&cards).unwrap();
        }
    }
    p
}

/// The deal `w` was dealt, rebuilt from its hands and what each seat played (the scepter BJ
/// back with its first holder, 进贡 undone), replayed through the core state's checked moves
/// (with the same 进贡 and the moves of the history): the replayed state must be `w`'s.
fn replay_from_the_deal(w: &DealState, what: &str) {
    let core = w.core();
    let played = played(w);
    let mut hands: [Multiset; PLAYERS] = std::array::from_fn(|p| {
        let mut h = *core.hand(p as u8);
        h.add_all(&played[p]).unwrap();
        h
    });
    let (_, card_at) = core.scepter();
    let first = core.first_holder();
    if card_at != first {
        assert!(hands[card_at as usize].remove(Card::BIG_JOKER), "{what}: scepter BJ");
        hands[first as usize].add(Card::BIG_JOKER);
    }
    if let Some(places) = core.tribute() {
        let seat_of = |p: u8| places.iter().position(|&x| x == p).unwrap();
        for (pair, (g, r)) in
            [(seat_of(5), seat_of(1)), (seat_of(4), seat_of(2))].into_iter().enumerate()
        {
            let (x, y) = core.tribute_cards()[pair];
            let (x, y) = (x.unwrap(), y.unwrap());
            assert!(hands[g].remove(y) && hands[r].remove(x), "{what}: tribute cards held");
            hands[g].add(x);
            hands[r].add(y);
        }
    }
    let mut s = State::from_hands(core.rules(), hands, first, core.first_dealt())
        .unwrap_or_else(|e| {
            let bj = |m: &Multiset| m.count(Card::BIG_JOKER);
            panic!(
                "{what}: not a legal deal: {e}\n first {first} at {card_at} emperor {:?} guard {:?} dengji {:?} tribute {:?} {:?}\n hands BJ {:?} played BJ {:?}",
                core.emperor(), core.guard(), core.dengji_card(), core.tribute(), core.tribute_cards(),
                (0..5).map(|p| bj(core.hand(p as u8))).collect::<Vec<_>>(),
                played.iter().map(bj).collect::<Vec<_>>()
            )
        });
    if let Some(places) = core.tribute() {
        s.apply_tribute(places).unwrap();
        assert_eq!(s.tribute_cards(), core.tribute_cards(), "{what}: tribute cards");
    }
    for (i, e) in w.records().iter().filter(|e| e.deal == w.redeals).enumerate() {
        assert_eq!(s.current_player(), Some(e.seat), "{what}: move {i} {} out of turn", e.mv);
        let r = match e.mv {
            Move::Play(cards) => s.apply_cards(&cards),
            m => s.apply(play_cards::decision(&m).unwrap()),
        };
        r.unwrap_or_else(|err| panic!("{what}: move {i} illegal in the world: {err}"));
    }
    assert_eq!(format!("{s:?}"), format!("{core:?}"), "{what}: the replay is the world");
}

/// Worlds of `s` for every seat, drawn as a search player draws them, checked.
fn check_worlds(s: &DealState, rng: &mut GameRng, what: &str) -> usize {
    let mut n = 0;
    for seat in 0..PLAYERS {
        let view = s.seat_view(seat).unwrap();
        let dealer = view.dealer().unwrap_or_else(|e| panic!("{what} seat {seat}: {e}"));
        let hidden = dealer.deal(rng);
        let w =
            s.with_hidden(seat, &hidden, rng).unwrap_or_else(|e| panic!("{what} seat {seat}: {e}"));
        let what = format!("{what} seat {seat}");
        assert_eq!(w.seat_view(seat).unwrap(), view, "{what}: the view");
        assert_eq!(
            w.observation(seat).unwrap(),
            s.observation(seat).unwrap(),
            "{what}: observation"
        );
        assert_eq!(w.history_seen_by(seat), s.history_seen_by(seat), "{what}: history");
        assert_eq!(w.deal_number(), s.deal_number(), "{what}");
        // The secret choice may be the guard's in one and the emperor's in the other.
        let choice = |p: Phase| if p == Phase::SoloChoice { Phase::GuardChoice } else { p };
        assert_eq!(choice(w.phase()), choice(s.phase()), "{what}");
        assert_eq!(w.core().hand(seat as u8), s.core().hand(seat as u8));
        replay_from_the_deal(&w, &what);
        n += 1;
    }
    n
}

/// Every world of every seat, at positions of every phase reached by random, greedy and basic
/// play (and by abdicating first, for 逼位), under every option set, is a legal deal whose
/// replay of the public history gives the world, with the seat's view, observation and visible
/// history unchanged.
#[test]
fn worlds_are_legal_deals_that_replay_the_history_and_keep_the_view() {
    let mut rng = GameRng::seed_from_u64(7);
    let mut phases: HashMap<&'static str, usize> = HashMap::new();
    let drives = [
        (Drive::Builtin(Policy::Random), 3, 9),
        (Drive::Builtin(Policy::Greedy), 3, 11),
        (Drive::Builtin(Policy::Basic), 2, 13),
        (Drive::AbdicateThen(Policy::Random), 4, 17),
        (Drive::AbdicateThen(Policy::Greedy), 3, 17),
        (Drive::SoloThen(Policy::Random), 3, 19),
    ];
    for (name, rules) in option_sets() {
        for (d, (drive, deals, every)) in drives.into_iter().enumerate() {
            for s in positions(&rules, drive, 40 + d as u64, deals, every) {
                let what =
                    format!("{name} {drive:?} {} {:?}", s.core().phase().name(), s.core().mode());
                check_worlds(&s, &mut rng, &what);
                *phases.entry(s.core().phase().name()).or_default() += 1;
            }
        }
    }
    for phase in
        ["accession", "grab_window", "forced", "guard_choice", "solo_choice", "play", "over"]
    {
        assert!(phases.get(phase).is_some_and(|&n| n > 0), "no position in {phase}: {phases:?}");
    }
}

/// A void deal of given hands (黄局, not redealt): nobody held a card exactly 3 times, so every
/// world of every seat has none either (4 hidden hands checked by rejection).
#[test]
fn worlds_of_a_void_deal_hold_no_exact_triple() {
    let rules = BaohuangRules::default();
    let first = state::deal(&rules, &mut crate::deal::deal_rng(1, 1639));
    let setup = crate::game::DealSetup {
        hands: first.hands.to_vec(),
        dealer: Some(first.scepter as usize),
        ..Default::default()
    };
    let mut s = rules.deal_from(&setup).unwrap();
    while !s.is_terminal() {
        s.apply_builtin(Policy::Basic).unwrap();
    }
    assert!(s.core().is_void());
    let mut rng = GameRng::seed_from_u64(9);
    for _ in 0..3 {
        assert_eq!(check_worlds(&s, &mut rng, "void deal"), PLAYERS);
    }
}

/// The secret roles are drawn with the hidden cards: a rebel sees worlds with the 4th copy of the
/// 登基 card at another seat (its guard) and, under 暗保/暗独, at the emperor (暗独).
#[test]
fn a_rebel_sees_every_secret_role() {
    let rules = BaohuangRules::default();
    let mut rng = GameRng::seed_from_u64(3);
    let mut found = false;
    for i in 0..40 {
        let mut s = rules.new_deal(5, i).unwrap();
        while !s.is_terminal() && s.core().phase() != BhPhase::Play {
            s.apply_builtin(Policy::Basic).unwrap();
        }
        let core = s.core();
        let (Some(e), Some(g), Some(c)) = (core.emperor(), core.guard(), core.dengji_card()) else {
            continue;
        };
        if core.guard_revealed() || core.abdications() >= 5 {
            continue;
        }
        let rebel = (0..PLAYERS as u8).find(|&p| p != e && p != g).unwrap() as usize;
        let dealer = s.seat_view(rebel).unwrap().dealer().unwrap();
        let mut guards = [0usize; PLAYERS];
        let mut solos = 0;
        for _ in 0..400 {
            let w = s.with_hidden(rebel, &dealer.deal(&mut rng), &mut rng).unwrap();
            match w.core().guard() {
                Some(wg) => {
                    guards[wg as usize] += 1;
                    assert!(w.core().hand(wg).contains(c));
                    assert_eq!(w.core().mode(), Mode::Normal);
                }
                None => {
                    solos += 1;
                    assert_eq!(w.core().mode(), Mode::SecretSolo);
                    assert_eq!(w.core().hand(e).count(c), 4);
                }
            }
        }
        assert_eq!(guards[e as usize] + guards[rebel], 0);
        assert_eq!(guards.iter().filter(|&&n| n > 0).count(), 3, "{guards:?}");
        assert!(solos > 0, "{guards:?}");
        found = true;
        break;
    }
    assert!(found);
}

/// The rule-based players see only what their seat knows: in every world of the seat to act
/// they make the same move as in the real deal.
#[test]
fn rule_based_players_move_alike_in_every_world_of_their_seat() {
    let mut rng = GameRng::seed_from_u64(17);
    let mut checked = 0;
    for (name, rules) in option_sets() {
        for drive in [Drive::Builtin(Policy::Greedy), Drive::Builtin(Policy::Random)] {
            for s in positions(&rules, drive, 77, 2, 3) {
                let Some(seat) = s.current_player() else { continue };
                let dealer = s.seat_view(seat).unwrap().dealer().unwrap();
                for _ in 0..3 {
                    let w = s.with_hidden(seat, &dealer.deal(&mut rng), &mut rng).unwrap();
                    for policy in [Policy::Greedy, Policy::Basic] {
                        let (mut a, mut b) = (s.clone(), w.clone());
                        let what = format!("{name} {drive:?} {policy:?} seat {seat}");
                        assert_eq!(
                            a.builtin_move(policy).unwrap(),
                            b.builtin_move(policy).unwrap(),
                            "{what}"
                        );
                        checked += 1;
                    }
                }
            }
        }
    }
    assert!(checked > 1000, "{checked}");
}

// ----------------------------------------------------------------------------- uniformity

/// Exact probabilities of the hidden hands of `seat` at `s`, by enumeration: the hidden cards
/// (the deck less its hand and the cards out of play) split over the other hands every way,
/// each split weighted by the number of physical deals it stands for (the scepter BJ, a physical
/// card, pinned to its holder), kept when the world passes the facts of the seat's knowledge
/// checked by hand here (the 登基 count, 逼位, the tribute ones are not in these positions).
fn exact_worlds(s: &DealState, seat: usize) -> HashMap<Vec<Multiset>, f64> {
    let core = s.core();
    let view = s.seat_view(seat).unwrap();
    let mut hidden = Multiset::full_decks(4, true).unwrap();
    hidden.remove_all(&view.gone).unwrap();
    hidden.remove_all(core.hand(seat as u8)).unwrap();
    let others: Vec<usize> = (0..PLAYERS).filter(|&p| p != seat && view.holding[p] > 0).collect();
    let kinds: Vec<Card> = hidden.kinds().iter().collect();
    let mut out = HashMap::new();
    let mut hands = vec![Multiset::EMPTY; PLAYERS];
    hands[seat] = *core.hand(seat as u8);
    split(&kinds, 0, &hidden, &others, &view.holding, &mut hands, 1.0, &mut |hands, w| {
        if consistent(s, seat, hands) {
            *out.entry(hands.to_vec()).or_insert(0.0) += w;
        }
    });
    let total: f64 = out.values().sum();
    out.values_mut().for_each(|v| *v /= total);
    out
}

/// Every split of the copies of `kinds[i..]` over `others`, weight × the multinomial of copies.
#[allow(clippy::too_many_arguments)]
fn split(
    kinds: &[Card],
    i: usize,
    hidden: &Multiset,
    others: &[usize],
    holding: &[usize],
    hands: &mut Vec<Multiset>,
    w: f64,
    visit: &mut impl FnMut(&[Multiset], f64),
) {
    if i == kinds.len() {
        if others.iter().all(|&p| hands[p].len() == holding[p]) {
            visit(hands, w);
        }
        return;
    }
    let c = kinds[i];
    let n = hidden.count(c);
    // Compositions of n over the others.
    let mut counts = vec![0usize; others.len()];
    loop {
        if counts.iter().sum::<usize>() == n
            && others.iter().zip(&counts).all(|(&p, &k)| hands[p].len() + k <= holding[p])
        {
            let mut ways = (1..=n).product::<usize>() as f64;
            for (&p, &k) in others.iter().zip(&counts) {
                ways /= (1..=k).product::<usize>() as f64;
                for _ in 0..k {
                    hands[p].add(c);
                }
            }
            split(kinds, i + 1, hidden, others, holding, hands, w * ways, visit);
            for (&p, &k) in others.iter().zip(&counts) {
                hands[p].remove_up_to(c, k);
            }
        }
        // Next composition (odometer, each digit 0..=n).
        let mut d = 0;
        loop {
            if d == counts.len() {
                return;
            }
            counts[d] += 1;
            if counts[d] <= n {
                break;
            }
            counts[d] = 0;
            d += 1;
        }
    }
}

/// The facts of the default rules' play phase, checked on whole hands: the scepter BJ (weight:
/// the physical card is one of its holder's BJ), and the 登基 card (the emperor holds at least
/// the copies he surely holds).
fn consistent(s: &DealState, seat: usize, hands: &[Multiset]) -> bool {
    let core = s.core();
    let played = played(s);
    let (_, at) = core.scepter();
    if at as usize != seat
        && played[at as usize].count(Card::BIG_JOKER) == 0
        && !hands[at as usize].contains(Card::BIG_JOKER)
    {
        return false;
    }
    if let (Some(c), Some(e)) = (core.dengji_card(), core.emperor()) {
        let e = e as usize;
        let known = core.guard_revealed() || core.guard() == Some(seat as u8);
        let sure = if core.mode() == Mode::OpenSolo { 4 } else { 3 };
        if e != seat && hands[e].count(c) + played[e].count(c) < sure {
            return false;
        }
        if known && e != seat && hands[e].count(c) + played[e].count(c) != sure {
            return false;
        }
    }
    true
}

/// The scepter BJ is one physical card of its holder's BJ: a world where the holder has `b` BJ
/// stands for `b` of the splits' physical deals... so the splits above weight the BJ kind
/// uniformly and the holder's share is corrected here.
fn scepter_weight(s: &DealState, seat: usize, hands: &[Multiset]) -> f64 {
    let (_, at) = s.core().scepter();
    let b = hands[at as usize].count(Card::BIG_JOKER);
    if at as usize == seat || played(s)[at as usize].count(Card::BIG_JOKER) > 0 || b == 0 {
        1.0
    } else {
        b as f64
    }
}

/// A position near the end of a greedy deal with a secret guard: `seat` a rebel who sees at most
/// `max_hidden` cards in other hands, the 4th 登基 copy still hidden.
fn late_position(max_hidden: usize) -> Option<(DealState, usize)> {
    let rules = BaohuangRules::default();
    for i in 0..400 {
        let mut s = rules.new_deal(13, i).unwrap();
        while !s.is_terminal() {
            let core = s.core();
            if let (BhPhase::Play, Some(e), Some(g), Some(c)) =
                (core.phase(), core.emperor(), core.guard(), core.dengji_card())
            {
                let hidden_guard = !core.guard_revealed() && core.hand(g).contains(c);
                for seat in (0..PLAYERS as u8).filter(|&p| p != e && p != g) {
                    let hidden: usize =
                        (0..PLAYERS as u8).filter(|&p| p != seat).map(|p| core.hand(p).len()).sum();
                    let holders = (0..PLAYERS as u8)
                        .filter(|&p| p != seat && !core.hand(p).is_empty())
                        .count();
                    let unforced = core.abdications() < 5;
                    // The emperor holds copies of the 登基 card and room for the 4th (暗独).
                    let room = core.hand(e).count(c) >= 1 && core.hand(e).len() >= 3;
                    if hidden_guard && unforced && room && hidden <= max_hidden && holders >= 3 {
                        return Some((s, seat as usize));
                    }
                }
            }
            s.apply_builtin(Policy::Basic).unwrap();
        }
    }
    None
}

/// Pearson chi-square of `draws` against `exact`, and the degrees of freedom.
fn chi_square(exact: &HashMap<Vec<Multiset>, f64>, draws: &[Vec<Multiset>]) -> (f64, usize) {
    let mut seen: HashMap<&Vec<Multiset>, usize> = HashMap::new();
    for d in draws {
        assert!(exact.contains_key(d), "a world outside the consistent deals: {d:?}");
        *seen.entry(d).or_default() += 1;
    }
    let n = draws.len() as f64;
    let stat = exact.iter().map(|(k, p)| {
        let o = *seen.get(k).unwrap_or(&0) as f64;
        (o - n * p).powi(2) / (n * p)
    });
    (stat.sum(), exact.len() - 1)
}

/// Upper 0.1% point of chi-square with `df` degrees of freedom (Wilson–Hilferty).
fn chi_square_limit(df: usize) -> f64 {
    let k = df as f64;
    let z = 3.09;
    k * (1.0 - 2.0 / (9.0 * k) + z * (2.0 / (9.0 * k)).sqrt()).powi(3)
}

/// Near the end of a deal with a secret guard, a rebel's worlds are uniform over the consistent
/// deals (exact enumeration: the 4th 登基 copy at the emperor — 暗独 — or at another seat).
#[test]
fn worlds_are_uniform_over_the_consistent_deals() {
    let (s, seat) = late_position(9).expect("a late position with a secret guard");
    let mut exact = exact_worlds(&s, seat);
    for (hands, p) in exact.iter_mut() {
        *p *= scepter_weight(&s, seat, hands);
    }
    let total: f64 = exact.values().sum();
    exact.values_mut().for_each(|v| *v /= total);
    assert!(exact.len() >= 10, "{} worlds", exact.len());
    let c = s.core().dengji_card().unwrap();
    let e = s.core().emperor().unwrap() as usize;
    let solo: f64 = exact
        .iter()
        .filter(|(h, _)| h[e].count(c) + played(&s)[e].count(c) == 4)
        .map(|(_, p)| p)
        .sum();
    assert!(solo > 0.05, "the 4th copy of the 登基 card is rarely the emperor's: {solo}");
    let mut rng = GameRng::seed_from_u64(11);
    let dealer = s.seat_view(seat).unwrap().dealer().unwrap();
    let draws: Vec<Vec<Multiset>> = (0..30_000)
        .map(|_| {
            let w = s.with_hidden(seat, &dealer.deal(&mut rng), &mut rng).unwrap();
            (0..PLAYERS as u8).map(|p| *w.core().hand(p)).collect()
        })
        .collect();
    let (stat, df) = chi_square(&exact, &draws);
    assert!(
        stat < chi_square_limit(df),
        "chi-square {stat:.1} with {df} df ({} worlds)",
        exact.len()
    );
}

// ----------------------------------------------------------------------------- play_out

/// `play_out` ends every position as stepping with `apply_builtin` does: the same state, row,
/// returns, redeals and generator (random, greedy and basic; every option set).
#[test]
fn play_out_ends_as_apply_builtin() {
    for (name, rules) in option_sets() {
        for policy in [Policy::Random, Policy::Greedy, Policy::Basic] {
            for s in positions(&rules, Drive::Builtin(Policy::Random), 3, 4, 23) {
                let (mut a, mut b) = (s.clone(), s.clone());
                a.play_out(policy).unwrap();
                while !b.is_terminal() {
                    b.apply_builtin(policy).unwrap();
                }
                let what = format!("{name} {policy:?}");
                assert_eq!(format!("{:?}", a.core()), format!("{:?}", b.core()), "{what}");
                assert_eq!((a.rng.clone(), a.redeals), (b.rng.clone(), b.redeals), "{what}");
                assert_eq!(a.returns(), b.returns(), "{what}");
                let (mut ra, mut rb) = (vec![0; 22], vec![0; 22]);
                a.result_row(&mut ra).unwrap();
                b.result_row(&mut rb).unwrap();
                assert_eq!(ra, rb, "{what}");
                assert!(a.seat_view(0).is_err() || s.is_terminal(), "play_out records no history");
            }
        }
    }
    // Void deals redealt inside play_out (deal 1639 of seed 1 is void at first under basic).
    let rules = BaohuangRules::default();
    let mut a = rules.new_deal(1, 1639).unwrap();
    let mut b = a.clone();
    a.play_out(Policy::Basic).unwrap();
    while !b.is_terminal() {
        b.apply_builtin(Policy::Basic).unwrap();
    }
    assert!(a.redeals >= 1);
    assert_eq!((format!("{:?}", a.core()), a.redeals), (format!("{:?}", b.core()), b.redeals));
}
