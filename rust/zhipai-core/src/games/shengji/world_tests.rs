//! Tests of the determinisation of a Shengji deal ([`super::state::world`]): every world is
//! consistent with what its seat knows and with the public history, in every phase and under
//! several rule sets; worlds are uniform over the consistent deals; `play_out` ends as stepping
//! with built-in moves does.

use super::game::DealState;
use super::move_text::Record;
use super::moves::Move;
use super::state::{Deal, Phase as DealPhase};
use super::ShengjiRules;
use crate::cards::{Card, CardSet};
use crate::deal::Deal as Cards;
use crate::game::{Game, GameRng, GameState, Phase};
use crate::multiset::Multiset;
use crate::options::OptionValue;
use crate::policy::Policy;
use crate::tricks::check_lead;
use rand::SeedableRng;
use std::collections::HashMap;

fn rules(preset: &str, opts: &[(&str, OptionValue)]) -> ShengjiRules {
    let o: Vec<(String, OptionValue)> =
        opts.iter().map(|(k, v)| (k.to_string(), v.clone())).collect();
    ShengjiRules::from_preset(preset, &o).unwrap()
}

fn text(v: &str) -> OptionValue {
    OptionValue::Str(v.to_string())
}

/// Rule sets that change what a world must respect: deck counts, 炒底, burial restrictions,
/// barred trump throws, a random trump, throw penalties, JJ.
fn configs() -> Vec<ShengjiRules> {
    let decks = |n| ("decks", OptionValue::Int(n));
    vec![
        rules("tractor", &[decks(1)]),
        rules("tractor", &[]),
        rules("tractor", &[decks(3)]),
        rules("tractor_jj", &[]),
        rules("eighty_points", &[decks(3)]),
        rules("tractor", &[("chaodi", OptionValue::Bool(true))]),
        rules("tractor", &[("chaodi", OptionValue::Bool(true)), decks(3)]),
        rules("tractor", &[("kitty_bury_restrictions", text("no_points"))]),
        rules("tractor", &[("trump_throw_allowed", OptionValue::Bool(false))]),
        rules("tractor", &[("no_declaration", text("random_suit")), decks(1)]),
        rules("tractor", &[("throw_fail_penalty", text("10_per_card_returned"))]),
    ]
}

/// The pack of `r`.
fn pack(r: &ShengjiRules) -> Multiset {
    Multiset::full_decks(r.decks as usize, true).unwrap()
}

/// Deal `index` of `seed` played to the end by `policy` (the random policy throws, so failed
/// throws occur): its first state and every state at a decision.
fn walk(r: &ShengjiRules, seed: u64, index: u64, policy: Policy) -> (DealState, Vec<DealState>) {
    let start = r.new_deal(seed, index).unwrap();
    let mut s = start.clone();
    let mut out = Vec::new();
    while !s.is_terminal() {
        out.push(s.clone());
        s.apply_builtin(policy).unwrap();
    }
    out.push(s);
    (start, out)
}

/// Everything `world` must share with `real` for `seat` (module docs); panics naming the
/// first difference.
fn check_world(start: &DealState, real: &DealState, world: &DealState, seat: usize) {
    let (d, w) = (real.deal(), world.deal());
    let r = d.rules();
    // What the seat knows, and the public state, are the same.
    assert_eq!(world.seat_view(seat).unwrap(), real.seat_view(seat).unwrap(), "seat view");
    assert_eq!(w.hand(seat as u8), d.hand(seat as u8), "own hand");
    assert_eq!(world.phase(), real.phase());
    assert_eq!(world.current_player(), real.current_player());
    assert_eq!(w.current_trick(), d.current_trick());
    assert_eq!(w.declaring(), d.declaring());
    assert_eq!(
        (w.points_won(), w.cards_out(), w.leader()),
        (d.points_won(), d.cards_out(), d.leader())
    );
    assert_eq!(world.history_seen_by(seat), real.history_seen_by(seat), "the seat's history");
    if d.kitty_owner() == Some(seat as u8) {
        assert_eq!(w.kitty(), d.kitty(), "the kitty it buried");
    }
    // The world's deal is a deal of the game: hands, kitty, undealt stock and played cards.
    let mut all = w.cards_out();
    for p in 0..4 {
        all.add_all(&w.hand(p)).unwrap();
        assert_eq!(w.hand(p).len(), d.hand(p).len(), "seat {p} holds as many cards");
    }
    all.add_all(&w.kitty()).unwrap();
    if d.phase() == DealPhase::Dealing {
        let (stock, dealt, first) = w.dealing_order();
        let (real_stock, real_dealt, real_first) = d.dealing_order();
        assert_eq!((dealt, first), (real_dealt, real_first));
        assert_eq!(&stock[..dealt].len(), &real_stock[..dealt].len());
        for p in 0..4 {
            let got: Vec<Card> =
                (0..dealt).filter(|i| (first as usize + i) % 4 == p).map(|i| stock[i]).collect();
            assert_eq!(
                Multiset::from_cards(&got).unwrap(),
                w.hand(p as u8),
                "seat {p} received its hand"
            );
        }
        for &c in &stock[dealt..] {
            all.add(c);
        }
        check_declarations(start, real, w);
    }
    assert_eq!(all, pack(r), "the world is a deal of the pack");
    // Every recorded play was made with cards held then, following suit (§5 F1).
    check_plays(real.records(), w);
    // The last burial of another seat reads as the world's.
    if let Some((burier, cards)) = w.last_burial() {
        let last = world.records().iter().rev().find(|x| matches!(x.mv, Move::Bury(_)));
        if let Some(x) = last.filter(|x| x.seat == burier) {
            assert_eq!(x.mv, Move::Bury(cards), "the world's burial");
        }
        if burier as usize == seat {
            assert_eq!(d.last_burial(), w.last_burial());
        }
    }
}

/// While dealing: every declaration was made with cards the declarer had received by then in
/// the world's stock (the real history replayed from `start` gives the number dealt).
fn check_declarations(start: &DealState, real: &DealState, w: &Deal) {
    let mut replay = start.deal().clone();
    let (stock, _, first) = w.dealing_order();
    for x in real.records() {
        if let Move::Declare(bid) = x.mv {
            let (_, dealt, _) = replay.dealing_order();
            let got = (0..dealt)
                .filter(|i| (first as usize + i) % 4 == x.seat as usize && stock[*i] == bid.card)
                .count();
            assert!(
                got >= bid.count as usize,
                "seat {} declared {bid} with {got} received",
                x.seat
            );
        }
        replay.apply(x.mv).unwrap();
    }
}

/// Every play of the records was legal for the world's hands then: the cards held (the whole
/// attempt of a failed throw too) and as many cards of the led effective suit as the lead has
/// or the hand held (§5 F1).
fn check_plays(records: &[Record], w: &Deal) {
    let Some(tr) = w.trick_rules() else { return };
    let start = records.iter().rposition(|x| matches!(x.mv, Move::Bury(_) | Move::Declare(_)));
    let plays = &records[start.map_or(0, |i| i + 1)..];
    if plays.iter().any(|x| !matches!(x.mv, Move::Play(_))) {
        return; // no play yet after a pass
    }
    let mut hands: [Multiset; 4] = std::array::from_fn(|p| w.hand(p as u8));
    for x in plays {
        hands[x.seat as usize].add_all(&x.played).unwrap();
    }
    let mut lead: Option<(usize, usize)> = None; // (effective suit, cards)
    for (k, x) in plays.iter().enumerate() {
        let Move::Play(attempt) = x.mv else { unreachable!() };
        let hand = &mut hands[x.seat as usize];
        assert!(hand.contains_all(&attempt), "seat {} plays {attempt} from {hand}", x.seat);
        if k % 4 == 0 {
            let f = check_lead(tr, &x.played, None).unwrap();
            lead = Some((f.suit as usize, f.cards as usize));
        } else {
            let (s, n) = lead.unwrap();
            let mask = tr.order.suit_mask(s);
            assert_eq!(
                x.played.count_in(mask),
                n.min(hand.count_in(mask)),
                "seat {} follows {} from {hand}",
                x.seat,
                x.played
            );
        }
        hand.remove_all(&x.played).unwrap();
    }
}

#[test]
fn worlds_are_consistent_in_every_phase() {
    let mut rng = GameRng::seed_from_u64(5);
    let mut phases = HashMap::new();
    for (n, r) in configs().into_iter().enumerate() {
        for index in 0..2u64 {
            let policy = [Policy::Random, Policy::Greedy, Policy::Basic][(n + index as usize) % 3];
            let (start, states) = walk(&r, 40 + n as u64, index, policy);
            for (k, s) in states.iter().enumerate() {
                // Every declaring and burying decision; a sample of the play.
                let decide = s.phase() != Phase::Play || k % 5 == 0 || s.is_terminal();
                if !decide {
                    continue;
                }
                *phases.entry(s.phase().name()).or_insert(0) += 1;
                let to_move = s.current_player().unwrap_or(0);
                for seat in [to_move, (to_move + 1 + k) % 4] {
                    let view = s.seat_view(seat).unwrap();
                    let dealer = view.dealer().unwrap();
                    for _ in 0..2 {
                        let hidden = dealer.deal(&mut rng);
                        let world = s.with_hidden(seat, &hidden, &mut rng).unwrap();
                        check_world(&start, s, &world, seat);
                        // The world plays on to a legal end.
                        let mut on = world.clone();
                        on.play_out(Policy::Random).unwrap();
                        assert!(on.is_terminal());
                    }
                }
            }
        }
    }
    for phase in ["dealing", "burying", "chaodi", "play", "done"] {
        assert!(phases.get(phase).copied().unwrap_or(0) > 0, "no {phase} position: {phases:?}");
    }
}

#[test]
fn known_cards_are_kept_in_their_hands() {
    // A declaration's cards stay known in the declarer's hand (until played or buried); a failed
    // throw's cards that were not played stay known in the thrower's hand.
    let r = rules("tractor", &[]);
    let (mut declared, mut thrown) = (0, 0);
    for index in 0..30 {
        let (_, states) = walk(&r, 9, index, Policy::Random);
        for s in &states {
            let d = s.deal();
            for p in 0..4u8 {
                let known = d.known_in_hand(p);
                assert!(d.hand(p).contains_all(&known), "seat {p} holds {known}");
                let view = s.seat_view(((p + 1) % 4) as usize).unwrap();
                assert_eq!(view.known.fixed[p as usize], known);
            }
            if let Some(x) = s.records().last() {
                let known = d.known_in_hand(x.seat);
                match x.mv {
                    Move::Declare(b) if s.phase() == Phase::Dealing => {
                        assert!(known.count(b.card) >= b.count as usize);
                        declared += 1;
                    }
                    Move::Play(m) if m != x.played => {
                        let mut rest = m;
                        rest.remove_all(&x.played).unwrap();
                        assert!(known.contains_all(&rest), "{rest} known after {m}");
                        thrown += 1;
                    }
                    Move::Bury(_) => assert_eq!(known, Multiset::EMPTY),
                    _ => {}
                }
            }
        }
    }
    assert!(declared > 10 && thrown > 0, "{declared} {thrown}");
}

#[test]
fn a_world_that_does_not_fit_is_refused() {
    let r = rules("tractor", &[]);
    let (_, states) = walk(&r, 3, 0, Policy::Random);
    let s =
        states.iter().find(|s| s.phase() == Phase::Play && s.deal().tricks_played() > 3).unwrap();
    let seat = s.current_player().unwrap();
    let mut rng = GameRng::seed_from_u64(1);
    let hidden = s.seat_view(seat).unwrap().dealer().unwrap().deal(&mut rng);
    assert!(s.with_hidden(seat, &hidden, &mut rng).is_ok());
    // The seat's own hand swapped with another.
    let other = (seat + 1) % 4;
    let mut bad = hidden.clone();
    bad.hands.swap(seat, other);
    let e = s.with_hidden(seat, &bad, &mut rng).unwrap_err().to_string();
    assert!(e.contains("hidden deal"), "{e}");
    // A card played again.
    let mut bad = hidden.clone();
    let played = s.deal().cards_out().kinds().first().unwrap();
    let c = bad.hands[other].kinds().first().unwrap();
    bad.hands[other].remove(c);
    bad.hands[other].add(played);
    assert!(s.with_hidden(seat, &bad, &mut rng).is_err());
    // Too few places.
    let bad = Cards { hands: hidden.hands[..3].to_vec(), kitty: hidden.kitty };
    assert!(s.with_hidden(seat, &bad, &mut rng).is_err());
    assert!(s.with_hidden(4, &hidden, &mut rng).is_err());
}

/// Chi-square statistic of `counts` against the uniform distribution over `cells` cells, and
/// a critical value (≈ p < 1e-4 for its degrees of freedom).
fn chi_square(counts: &HashMap<Vec<Multiset>, u64>, cells: usize, n: u64) -> (f64, f64) {
    let e = n as f64 / cells as f64;
    let seen: f64 = counts.values().map(|&c| (c as f64 - e).powi(2) / e).sum();
    let unseen = (cells - counts.len()) as f64 * e;
    let df = (cells - 1) as f64;
    (seen + unseen, df + 4.0 * (2.0 * df).sqrt())
}

/// Every assignment of the distinct cards `cards` to places of `sizes` (1 deck), as the
/// places' multisets, that `ok` accepts.
fn assignments(
    cards: &[Card],
    sizes: &[usize],
    ok: &dyn Fn(&[Multiset]) -> bool,
) -> Vec<Vec<Multiset>> {
    fn rec(
        cards: &[Card],
        sizes: &[usize],
        cur: &mut Vec<Multiset>,
        ok: &dyn Fn(&[Multiset]) -> bool,
        out: &mut Vec<Vec<Multiset>>,
    ) {
        let Some((&c, rest)) = cards.split_first() else {
            if ok(cur) {
                out.push(cur.clone());
            }
            return;
        };
        for p in 0..sizes.len() {
            if cur[p].len() < sizes[p] {
                cur[p].add(c);
                rec(rest, sizes, cur, ok, out);
                cur[p].remove(c);
            }
        }
    }
    let mut out = Vec::new();
    rec(cards, sizes, &mut vec![Multiset::EMPTY; sizes.len()], ok, &mut out);
    out
}

#[test]
fn worlds_are_uniform_over_the_consistent_deals() {
    // One deck, the last trick about to be led: each seat holds one card; a seat that did not
    // bury sees three hidden hand cards and the kitty's six. The consistent deals are counted
    // here from the history alone (played cards, voids shown by follows, cards declared by a
    // seat that did not bury since or shown in a failed throw, and not played), and the worlds
    // must fall uniformly on them.
    let r = rules("tractor", &[("decks", OptionValue::Int(1))]);
    let mut tested = 0;
    for index in 0.. {
        let (_, states) = walk(&r, 17, index, Policy::Random);
        let Some(s) = states
            .iter()
            .find(|s| s.phase() == Phase::Play && (0..4).all(|p| s.deal().hand(p).len() == 1))
        else {
            continue;
        };
        let d = s.deal();
        let owner = d.kitty_owner().unwrap() as usize;
        let seat = (owner + 1 + index as usize % 3) % 4;
        // The history: played cards, voids, declarations.
        let tr = d.trick_rules().unwrap();
        let mut gone = Multiset::EMPTY;
        let mut voids = [CardSet::EMPTY; 4];
        let mut declared = [Multiset::EMPTY; 4];
        let mut lead = None;
        let mut k = 0;
        for x in s.records() {
            match x.mv {
                Move::Declare(b) => declared[x.seat as usize].add(b.card),
                Move::Bury(_) => declared[x.seat as usize] = Multiset::EMPTY,
                Move::Play(m) => {
                    if m != x.played {
                        // A failed throw: the whole attempt was in the hand (one deck).
                        let mut shown = declared[x.seat as usize];
                        for c in m.kinds().minus(shown.kinds()) {
                            shown.add(c);
                        }
                        declared[x.seat as usize] = shown;
                    }
                    gone.add_all(&x.played).unwrap();
                    let f = check_lead(tr, &x.played, None).unwrap();
                    if k % 4 == 0 {
                        lead = Some(f);
                    } else {
                        let l = lead.as_ref().unwrap();
                        let mask = tr.order.suit_mask(l.suit as usize);
                        if x.played.count_in(mask) < l.cards as usize {
                            voids[x.seat as usize] = voids[x.seat as usize] | mask;
                        }
                    }
                    k += 1;
                }
                Move::Pass => {}
            }
        }
        let mut hidden = pack(&r);
        hidden.remove_all(&gone).unwrap();
        hidden.remove_all(&d.hand(seat as u8)).unwrap();
        let others: Vec<usize> = (0..4).filter(|&p| p != seat).collect();
        let cards: Vec<Card> = hidden.iter().collect();
        assert_eq!(cards.len(), 9);
        let ok = |a: &[Multiset]| {
            others.iter().enumerate().all(|(i, &p)| {
                a[i].kinds().intersect(voids[p]).is_empty()
                    && declared[p].kinds().minus(gone.kinds()).minus(a[i].kinds()).is_empty()
            })
        };
        let consistent = assignments(&cards, &[1, 1, 1, 6], &ok);
        // The worlds.
        let dealer = s.seat_view(seat).unwrap().dealer().unwrap();
        let mut rng = GameRng::seed_from_u64(index);
        let n = 150 * consistent.len() as u64;
        let mut counts: HashMap<Vec<Multiset>, u64> = HashMap::new();
        for _ in 0..n {
            let w = s.with_hidden(seat, &dealer.deal(&mut rng), &mut rng).unwrap();
            let mut key: Vec<Multiset> = others.iter().map(|&p| w.deal().hand(p as u8)).collect();
            key.push(w.deal().kitty());
            *counts.entry(key).or_insert(0) += 1;
        }
        for key in counts.keys() {
            assert!(consistent.contains(key), "world {key:?} is not consistent");
        }
        let (x2, critical) = chi_square(&counts, consistent.len(), n);
        assert!(
            x2 < critical,
            "chi-square {x2} over {} deals (critical {critical})",
            consistent.len()
        );
        tested += 1;
        if tested == 2 {
            break;
        }
    }
}

#[test]
fn the_undealt_stock_is_uniform() {
    // While dealing, the next card to come and the last card of the kitty are uniform over the
    // cards the seat cannot place (one deck: the pack minus its hand and the cards declared).
    let r = rules("tractor", &[("decks", OptionValue::Int(1))]);
    let s =
        (0..).map(|i| r.new_deal(2, i).unwrap()).find(|s| s.deal().dealing_order().1 > 20).unwrap();
    let seat = s.current_player().unwrap();
    let d = s.deal();
    let mut free = pack(&r);
    free.remove_all(&d.hand(seat as u8)).unwrap();
    for p in (0..4).filter(|&p| p != seat as u8) {
        free.remove_all(&d.known_in_hand(p)).unwrap();
    }
    let dealer = s.seat_view(seat).unwrap().dealer().unwrap();
    let mut rng = GameRng::seed_from_u64(3);
    let cells = free.len();
    let n = 300 * cells as u64;
    for position in [d.dealing_order().1, d.dealing_order().0.len() - 1] {
        let mut counts: HashMap<Vec<Multiset>, u64> = HashMap::new();
        for _ in 0..n {
            let w = s.with_hidden(seat, &dealer.deal(&mut rng), &mut rng).unwrap();
            let c = w.deal().dealing_order().0[position];
            assert!(free.contains(c), "{c} at {position}");
            *counts.entry(vec![Multiset::from_set(CardSet::single(c))]).or_insert(0) += 1;
        }
        let (x2, critical) = chi_square(&counts, cells, n);
        assert!(x2 < critical, "position {position}: chi-square {x2} (critical {critical})");
    }
}

#[test]
fn declared_cards_arrive_uniformly_before_their_declaration() {
    // Another seat declared a single level card when t cards had been dealt; in the worlds of
    // a seat that saw it where the declarer holds no other copy, the card lies at any of the
    // declarer's positions before t with the same probability.
    let r = rules("tractor", &[]);
    let mut tested = 0;
    for index in 0..200 {
        let (_, states) = walk(&r, 23, index, Policy::Greedy);
        // The dealing state just after the declaration, seen by the next seat to decide.
        let Some((k, x)) =
            states.iter().zip(states.iter().skip(1)).enumerate().find_map(|(k, (a, b))| {
                let x = b.records().last()?;
                let single = matches!(x.mv, Move::Declare(b) if b.count == 1);
                (a.phase() == Phase::Dealing && single).then_some((k + 1, *x))
            })
        else {
            continue;
        };
        let s = &states[k];
        let Move::Declare(bid) = x.mv else { unreachable!() };
        let seat = (x.seat as usize + 1) % 4;
        if s.phase() != Phase::Dealing {
            continue;
        }
        let (_, _, first) = s.deal().dealing_order();
        let t = states[k - 1].deal().dealing_order().1;
        let positions: Vec<usize> =
            (0..t).filter(|i| (first as usize + i) % 4 == x.seat as usize).collect();
        if positions.len() < 3 {
            continue;
        }
        let dealer = s.seat_view(seat).unwrap().dealer().unwrap();
        let mut rng = GameRng::seed_from_u64(index);
        let n = 400 * positions.len() as u64;
        let mut counts: HashMap<Vec<Multiset>, u64> = HashMap::new();
        let mut kept = 0;
        while kept < n {
            let w = s.with_hidden(seat, &dealer.deal(&mut rng), &mut rng).unwrap();
            if w.deal().hand(x.seat).count(bid.card) != 1 {
                continue;
            }
            kept += 1;
            let stock = w.deal().dealing_order().0;
            let at = positions.iter().position(|&i| stock[i] == bid.card);
            let at = at.unwrap_or_else(|| panic!("{bid} not received before it was declared"));
            let mut key = Multiset::EMPTY;
            key.add(Card::from_index(at).unwrap());
            *counts.entry(vec![key]).or_insert(0) += 1;
        }
        let (x2, critical) = chi_square(&counts, positions.len(), n);
        assert!(x2 < critical, "chi-square {x2} over {} positions", positions.len());
        tested += 1;
        if tested == 3 {
            break;
        }
    }
    assert_eq!(tested, 3);
}

#[test]
fn play_out_ends_as_built_in_moves() {
    for (n, r) in configs().into_iter().enumerate() {
        for policy in [Policy::Random, Policy::Greedy, Policy::Basic] {
            for index in 0..3 {
                let (_, states) = walk(&r, 60 + n as u64, index, policy);
                for s in states.iter().step_by(17) {
                    let mut fast = s.clone();
                    fast.play_out(policy).unwrap();
                    let mut slow = s.clone();
                    while !slow.is_terminal() {
                        slow.apply_builtin(policy).unwrap();
                    }
                    let cols = r.result_columns().len();
                    let (mut a, mut b) = (vec![0; cols], vec![0; cols]);
                    fast.result_row(&mut a).unwrap();
                    slow.result_row(&mut b).unwrap();
                    assert_eq!(a, b, "{policy:?} deal {index}");
                    assert_eq!(fast.returns(), slow.returns());
                    assert_eq!(format!("{:?}", fast.deal()), format!("{:?}", slow.deal()));
                    assert_eq!(fast.observation(1).unwrap(), slow.observation(1).unwrap());
                }
            }
        }
    }
}
