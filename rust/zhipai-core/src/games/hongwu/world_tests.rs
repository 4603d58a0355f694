//! Determinisation ([`GameState::seat_view`], [`GameState::with_hidden`]) and the fast
//! [`GameState::play_out`]: every world keeps what the seat knows and is a legal deal whose
//! public history replays; the worlds are uniform over the consistent deals; `play_out` ends as
//! stepping with `apply_builtin` does.

use super::game::DealState;
use super::game_tests::option_sets;
use super::state::{Action, Phase as CorePhase};
use super::HongWuRules;
use crate::deal::{deal_rng, Deal};
use crate::game::{Game, GameState, Phase};
use crate::multiset::Multiset;
use crate::policy::Policy;
use crate::tricks::{check_follow, check_lead, ShapeObligation};
use std::collections::HashMap;

/// The states before every move of deal `index` of `seed` played with `policy`.
fn positions(r: &HongWuRules, policy: Policy, seed: u64, index: u64) -> Vec<DealState> {
    let mut s = r.new_deal(seed, index).unwrap();
    let mut out = Vec::new();
    while !s.is_terminal() {
        out.push(s.clone());
        s.apply_builtin(policy).unwrap();
    }
    out.push(s);
    out
}

fn two_decks() -> Multiset {
    Multiset::full_decks(2, true).unwrap()
}

fn plus(a: Multiset, b: &Multiset) -> Multiset {
    let mut m = a;
    m.add_all(b).unwrap();
    m
}

/// Why the world's deal is not a legal Hong Wu deal whose recorded moves were legal for its
/// hands (`None` when it is): the hands as dealt (current hands plus the cards each seat played,
/// plus the buried kitty for the dealer) must be 25 each and the kitty 8 (the dealer's 33 once
/// it took the kitty), exactly two decks; replayed from them, every burial and every lead must
/// have been held, every lead a legal lead, every follow must follow suit (the shape
/// obligations are not conditioned on: module docs of `world`), a throw that stood must not have
/// had a single component another hand could beat, and the replay must end in the world's
/// hands. This reads the public record, not the view.
fn world_deal_fault(w: &DealState) -> Option<String> {
    let c = w.core();
    let dealer = c.contract().map(|k| k.dealer);
    let mut hands: Vec<Multiset> = (0..4).map(|p| plus(c.hand(p), &c.played_by(p))).collect();
    let buried = matches!(c.phase(), CorePhase::Play | CorePhase::Over);
    if buried {
        let d = dealer.unwrap();
        hands[d] = plus(hands[d], &c.kitty());
    }
    let took = matches!(c.phase(), CorePhase::Kitty) || buried;
    for (p, h) in hands.iter().enumerate() {
        let want = if took && dealer == Some(p) { 33 } else { 25 };
        if h.len() != want {
            return Some(format!("seat {p} was dealt {h}"));
        }
    }
    let mut all = hands.iter().fold(Multiset::EMPTY, plus);
    if !took {
        all = plus(all, &c.kitty());
    }
    if all != two_decks() {
        return Some("not two decks".into());
    }
    // Replay the records on the world's cards.
    let mut tr = None;
    let mut plays = 0usize;
    let mut lead = crate::tricks::combos::Format::default();
    for rec in w.records() {
        let seat = rec.seat as usize;
        match rec.mv {
            Action::Bid(_) => {}
            Action::Trump(t) => {
                let mut rules = c.rules().trick_rules(Some(t)).unwrap();
                rules.follow_shape_obligation = ShapeObligation::SuitOnly;
                tr = Some(rules);
            }
            Action::Bury(_) => {
                if hands[seat].remove_all(&c.kitty()).is_err() {
                    return Some("the dealer did not hold the kitty".into());
                }
            }
            Action::Play(cards) => {
                let tr = tr.as_ref().expect("trump before play");
                let actual = rec.reduced.unwrap_or(cards);
                if plays.is_multiple_of(4) {
                    let Ok(f) = check_lead(tr, &cards, Some(&hands[seat])) else {
                        return Some(format!("seat {seat} leads {cards} from {}", hands[seat]));
                    };
                    if f.is_throw() && rec.reduced.is_none() {
                        for o in (0..4).filter(|&o| o != seat) {
                            let beaten = f.units.iter().any(|u| {
                                u.mult == 1 && crate::tricks::lead::is_beaten(tr, u, &hands[o])
                            });
                            if beaten && tr.throw_check == crate::tricks::ThrowCheck::Component {
                                return Some(format!("seat {o} could beat the throw {cards}"));
                            }
                        }
                    }
                    lead = check_lead(tr, &actual, None).unwrap();
                } else if check_follow(tr, &lead, &hands[seat], &cards).is_err() {
                    return Some(format!("seat {seat} follows {cards} from {}", hands[seat]));
                }
                if hands[seat].remove_all(&actual).is_err() {
                    return Some(format!("seat {seat} did not hold {actual}"));
                }
                plays += 1;
            }
        }
    }
    for (p, h) in hands.iter().enumerate() {
        if *h != c.hand(p) {
            return Some(format!("seat {p}: the replay ends in {h}, not the world's hand"));
        }
    }
    None
}

/// [`world_deal_fault`] as an assertion, and the burial record shows the world's kitty.
fn check_world_deal(w: &DealState) {
    if let Some(fault) = world_deal_fault(w) {
        panic!("{fault}");
    }
    for rec in w.records() {
        if let Action::Bury(k) = rec.mv {
            assert_eq!(k, w.core().kitty(), "the burial record shows the world's kitty");
        }
    }
}

/// What `seat` knows is the same in `w` as in `s`.
fn check_same_knowledge(s: &DealState, w: &DealState, seat: usize) {
    let (a, b) = (s.core(), w.core());
    assert_eq!(b.hand(seat), a.hand(seat));
    assert_eq!(w.seat_view(seat).unwrap(), s.seat_view(seat).unwrap());
    assert_eq!(w.observation(seat).unwrap(), s.observation(seat).unwrap());
    assert_eq!(w.history_seen_by(seat), s.history_seen_by(seat));
    assert_eq!(w.current_player(), s.current_player());
    assert_eq!((b.tricks(), b.points_won(), b.leader()), (a.tricks(), a.points_won(), a.leader()));
    for p in 0..4 {
        assert_eq!(b.played_by(p), a.played_by(p));
        assert_eq!(b.hand(p).len(), a.hand(p).len());
        assert_eq!((b.not_held(p), b.shown(p)), (a.not_held(p), a.shown(p)));
        assert!(b.hand(p).contains_all(&b.shown(p)), "shown cards are held");
        if p != seat {
            assert!(b.hand(p).kinds().intersect(b.not_held(p)).is_empty(), "seat {p} void");
        }
    }
    let mut x = vec![0f32; w.observation_layout().iter().map(|f| f.len).sum()];
    let mut y = x.clone();
    if !x.is_empty() {
        s.write_observation_tensor(seat, false, &mut x).unwrap();
        w.write_observation_tensor(seat, false, &mut y).unwrap();
        assert_eq!(x, y, "the tensor of seat {seat}");
    }
}

/// Property: worlds drawn at positions of random, basic and greedy deals under every option
/// set, in every phase and for every seat, keep what the seat knows, are legal deals whose
/// history replays, and play on to a settled end.
#[test]
fn worlds_keep_the_seats_knowledge_and_are_legal_deals() {
    let mut rng = deal_rng(2024, 0);
    let mut phases = HashMap::new();
    let mut constrained = 0;
    for (k, r) in option_sets().iter().enumerate() {
        for (i, policy) in [Policy::Random, Policy::Basic, Policy::Greedy].into_iter().enumerate() {
            let all = positions(r, policy, 300 + k as u64, i as u64);
            for (n, s) in all.iter().enumerate() {
                // Every early decision, then every fifth play (a deal has ~110 positions).
                if s.phase() == Phase::Play && n % 5 != 0 {
                    continue;
                }
                for seat in 0..4 {
                    let view = s.seat_view(seat).unwrap();
                    let dealer = view.dealer().unwrap();
                    constrained += !dealer.is_fast_path() as usize;
                    let hidden = dealer.deal(&mut rng);
                    let w = s.with_hidden(seat, &hidden, &mut rng).unwrap();
                    check_same_knowledge(s, &w, seat);
                    check_world_deal(&w);
                    *phases.entry(s.phase()).or_insert(0) += 1;
                    if n % 15 == 0 {
                        let mut end = w.clone();
                        end.play_out(policy).unwrap();
                        assert!(end.is_terminal());
                        let ret: f64 = end.returns().iter().sum();
                        assert_eq!(ret, 0.0, "zero-sum");
                    }
                }
            }
        }
    }
    for p in [Phase::Auction, Phase::Trump, Phase::Kitty, Phase::Play, Phase::Done] {
        assert!(phases.get(&p).copied().unwrap_or(0) > 0, "{p:?} covered: {phases:?}");
    }
    assert!(constrained > 100, "voids exercised: {constrained}");
}

/// A misfit `hidden` is refused, naming what does not fit.
#[test]
fn misfit_worlds_are_refused() {
    let r = HongWuRules::default();
    let all = positions(&r, Policy::Random, 8, 1);
    let s = all.iter().find(|s| s.core().tricks() == 10 && s.core().current_trick().is_empty());
    let s = s.unwrap();
    let seat = s.current_player().unwrap();
    let other = (seat + 1) % 4;
    let view = s.seat_view(seat).unwrap();
    let mut rng = deal_rng(1, 1);
    let good = view.dealer().unwrap().deal(&mut rng);
    assert!(s.with_hidden(seat, &good, &mut rng).is_ok());
    let err = |d: Deal| s.with_hidden(seat, &d, &mut deal_rng(0, 0)).unwrap_err().to_string();
    // The seat's own hand swapped with another's.
    let mut bad = good.clone();
    bad.hands.swap(seat, other);
    assert!(err(bad).contains(&format!("seat {seat}'s own hand")));
    // One card moved from a hand to another: sizes differ.
    let mut bad = good.clone();
    let c = bad.hands[other].iter().next().unwrap();
    bad.hands[other].remove(c);
    bad.hands[(other + 1) % 4 + (((other + 1) % 4 == seat) as usize)].add(c);
    assert!(err(bad).contains("holds"));
    // A card played already, put back in a hand.
    let mut bad = good.clone();
    let gone = s.core().played_by(seat).iter().next().unwrap();
    let c = bad.hands[other].iter().find(|&c| c != gone).unwrap();
    bad.hands[other].remove(c);
    bad.hands[other].add(gone);
    let e = err(bad);
    if s.core().not_held(other).contains(gone) {
        assert!(e.contains("known to hold none"), "{e}");
    } else {
        assert!(e.contains("more copies than two decks"), "{e}");
    }
    let three = Deal { hands: good.hands[..3].to_vec(), kitty: good.kitty };
    assert!(err(three).contains("4 hands"));
    assert!(s.with_hidden(4, &good, &mut rng).is_err() && s.seat_view(4).is_err());
}

/// Every deal of the cards `seat` cannot see that is consistent with the public record and the
/// seat's own cards ([`world_deal_fault`]; independent of `seat_view`), with its probability
/// under a fair shuffle: the unseen physical cards placed one by one into the other hands (and
/// the kitty unless the seat knows it), each deal counted once per physical placement.
fn exact_worlds(s: &DealState, seat: usize) -> HashMap<(Vec<Multiset>, Multiset), f64> {
    let c = s.core();
    let kitty_known = super::world::kitty_known(c, seat);
    let mut unseen = two_decks();
    for p in 0..4 {
        unseen.remove_all(&c.played_by(p)).unwrap();
    }
    unseen.remove_all(&c.hand(seat)).unwrap();
    if kitty_known {
        unseen.remove_all(&c.kitty()).unwrap();
    }
    let cards: Vec<_> = unseen.iter().collect();
    // Places 0..4 the seats, 4 the kitty, with their room for unseen cards.
    let mut room: Vec<usize> = (0..4).map(|p| c.hand(p).len()).collect();
    room.push(c.kitty().len());
    room[seat] = 0;
    let mut cur = vec![Multiset::EMPTY; 5];
    cur[seat] = c.hand(seat);
    if kitty_known {
        room[4] = 0;
        cur[4] = c.kitty();
    }
    let mut placements: HashMap<(Vec<Multiset>, Multiset), f64> = HashMap::new();
    fn place(
        i: usize,
        cards: &[crate::cards::Card],
        room: &mut [usize],
        cur: &mut Vec<Multiset>,
        out: &mut HashMap<(Vec<Multiset>, Multiset), f64>,
    ) {
        if i == cards.len() {
            *out.entry((cur[..4].to_vec(), cur[4])).or_default() += 1.0;
            return;
        }
        for p in 0..5 {
            if room[p] > 0 {
                room[p] -= 1;
                cur[p].add(cards[i]);
                place(i + 1, cards, room, cur, out);
                cur[p].remove(cards[i]);
                room[p] += 1;
            }
        }
    }
    place(0, &cards, &mut room, &mut cur, &mut placements);
    let mut out: HashMap<_, f64> = placements
        .into_iter()
        .filter(|((hands, kitty), _)| {
            let hands: [Multiset; 4] = hands.clone().try_into().unwrap();
            world_deal_fault(&s.with_cards(hands, *kitty)).is_none()
        })
        .collect();
    let total: f64 = out.values().sum();
    out.values_mut().for_each(|v| *v /= total);
    out
}

/// Upper 0.05% point of chi-square with `df` degrees of freedom (Wilson–Hilferty).
fn chi_square_limit(df: usize) -> f64 {
    let (k, z) = (df as f64, 3.29);
    k * (1.0 - 2.0 / (9.0 * k) + z * (2.0 / (9.0 * k)).sqrt()).powi(3)
}

/// The first position of a random deal (from seed 0 up) at the start of a trick with `left`
/// cards in every hand where some seat other than the chosen observer has shown a void; the
/// observer is the dealer (`dealer`) or a 闲家.
fn late_position(left: usize, dealer: bool) -> (DealState, usize) {
    let r = HongWuRules::default();
    for seed in 0.. {
        let mut s = r.new_deal(seed, 0).unwrap();
        while !(s.phase() == Phase::Play
            && s.core().current_trick().is_empty()
            && s.core().hand(0).len() == left)
        {
            s.apply_builtin(Policy::Random).unwrap();
        }
        let d = s.core().contract().unwrap().dealer;
        let seat = if dealer { d } else { (d + 1) % 4 };
        let voids = (0..4).filter(|&p| p != seat).any(|p| s.core().shown_voids(p) != 0);
        if voids {
            return (s, seat);
        }
    }
    unreachable!()
}

/// Chi-square: worlds drawn through `seat_view` and `with_hidden` are uniform over the deals
/// consistent with the view (the dealer's view with 2 cards a hand, voids shown; a 闲家's with 1
/// card a hand and the kitty hidden).
#[test]
fn worlds_are_uniform_over_the_consistent_deals() {
    for (left, dealer, draws) in [(2, true, 20_000), (1, false, 40_000)] {
        let (s, seat) = late_position(left, dealer);
        let exact = exact_worlds(&s, seat);
        assert!(exact.len() > 10, "a non-trivial case: {} deals", exact.len());
        let sampler = s.seat_view(seat).unwrap().dealer().unwrap();
        let mut rng = deal_rng(7, left as u64);
        let mut seen: HashMap<(Vec<Multiset>, Multiset), f64> = HashMap::new();
        for _ in 0..draws {
            let w = s.with_hidden(seat, &sampler.deal(&mut rng), &mut rng).unwrap();
            let c = w.core();
            let key = ((0..4).map(|p| c.hand(p)).collect(), c.kitty());
            assert!(exact.contains_key(&key), "an inconsistent world {key:?}");
            *seen.entry(key).or_default() += 1.0;
        }
        let n = draws as f64;
        let stat: f64 = exact
            .iter()
            .map(|(k, p)| {
                let e = p * n;
                let o = seen.get(k).copied().unwrap_or(0.0);
                (o - e) * (o - e) / e
            })
            .sum();
        let df = exact.len() - 1;
        assert!(stat < chi_square_limit(df), "chi-square {stat:.1} with {df} df");
    }
}

/// `play_out` ends as stepping with `apply_builtin` does: the same row, returns and generator,
/// from every phase, for every policy and option set.
#[test]
fn play_out_is_apply_builtin_stepping() {
    for (k, r) in option_sets().iter().enumerate() {
        for policy in [Policy::Random, Policy::Basic, Policy::Greedy] {
            let all = positions(r, Policy::Random, 500 + k as u64, 0);
            for s in all.iter().step_by(9) {
                let (mut a, mut b) = (s.clone(), s.clone());
                a.play_out(policy).unwrap();
                while !b.is_terminal() {
                    b.apply_builtin(policy).unwrap();
                }
                let n = Game::columns(r).len();
                let (mut ra, mut rb) = (vec![0; n], vec![0; n]);
                a.result_row(&mut ra).unwrap();
                b.result_row(&mut rb).unwrap();
                assert_eq!(ra, rb, "option set {k}, {policy:?}");
                assert_eq!(a.returns(), b.returns());
                assert_eq!(format!("{:?}", a.core()), format!("{:?}", b.core()));
                assert_eq!(a.rng(), b.rng(), "the same draws");
                assert_eq!(a.history_len(), s.history_len(), "play_out records nothing");
            }
        }
    }
}
